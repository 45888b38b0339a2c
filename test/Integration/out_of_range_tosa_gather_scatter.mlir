// An index outside [-K, K-1] in tosa.gather / tosa.scatter (a violation of
// the TOSA specification's REQUIRE(0 <= k < K)) is nd's run-time error: the
// program stops before anything is printed, with a message naming the
// original op (through the location), the nd op, operand 'indices', the
// value and the dim of nd's 'data' with its size: dim 1 of values /
// values_in (dim 0 where a one-batch scatter drops the batch dim). The
// indices come in as function arguments, so the error cannot be found at
// compile time.
//
// RUN: nd-opt %s --pass-pipeline="builtin.module(convert-tosa-to-nd,func.func(tosa-to-arith),nd-to-llvm)" | not mlir-runner -e gather_too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.gather.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=GATHER < %t.gather.err
// RUN: nd-opt %s --pass-pipeline="builtin.module(convert-tosa-to-nd,func.func(tosa-to-arith),nd-to-llvm)" | not mlir-runner -e scatter_too_negative -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.scatter.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=SCATTER < %t.scatter.err
// RUN: nd-opt %s --pass-pipeline="builtin.module(convert-tosa-to-nd,func.func(tosa-to-arith),nd-to-llvm)" | not mlir-runner -e scatter_one_batch_too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.one.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=ONE < %t.one.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @gather(%v: tensor<2x3x2xf32>, %i: tensor<2x2xi32>) -> tensor<2x2x2xf32> {
  // GATHER: error: {{.*}}out_of_range_tosa_gather_scatter.mlir:[[@LINE+1]]:{{[0-9]+}} (tosa.gather): nd.gather_nd: index 3 in operand 'indices' is out of range for dim 1 of operand 'data' (size 3)
  %g = tosa.gather %v, %i : (tensor<2x3x2xf32>, tensor<2x2xi32>) -> tensor<2x2x2xf32>
  return %g : tensor<2x2x2xf32>
}

func.func @gather_too_large() {
  %v = "tosa.const"() {values = dense<1.0> : tensor<2x3x2xf32>} : () -> tensor<2x3x2xf32>
  %i = "tosa.const"() {values = dense<[[0, 2], [3, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %g = call @gather(%v, %i) : (tensor<2x3x2xf32>, tensor<2x2xi32>) -> tensor<2x2x2xf32>
  %u = tensor.cast %g : tensor<2x2x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @scatter(%v: tensor<2x3x2xf32>, %i: tensor<2x2xi64>, %in: tensor<2x2x2xf32>) -> tensor<2x3x2xf32> {
  // SCATTER: error: {{.*}}out_of_range_tosa_gather_scatter.mlir:[[@LINE+1]]:{{[0-9]+}} (tosa.scatter): nd.scatter_nd: index -4 in operand 'indices' is out of range for dim 1 of operand 'data' (size 3)
  %s = tosa.scatter %v, %i, %in : (tensor<2x3x2xf32>, tensor<2x2xi64>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
  return %s : tensor<2x3x2xf32>
}

func.func @scatter_too_negative() {
  %v = "tosa.const"() {values = dense<1.0> : tensor<2x3x2xf32>} : () -> tensor<2x3x2xf32>
  %i = "tosa.const"() {values = dense<[[0, 2], [-4, 1]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %in = "tosa.const"() {values = dense<2.0> : tensor<2x2x2xf32>} : () -> tensor<2x2x2xf32>
  %s = call @scatter(%v, %i, %in) : (tensor<2x3x2xf32>, tensor<2x2xi64>, tensor<2x2x2xf32>) -> tensor<2x3x2xf32>
  %u = tensor.cast %s : tensor<2x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @scatter_one_batch(%v: tensor<1x3x2xf32>, %i: tensor<1x2xi32>, %in: tensor<1x2x2xf32>) -> tensor<1x3x2xf32> {
  // ONE: error: {{.*}}out_of_range_tosa_gather_scatter.mlir:[[@LINE+1]]:{{[0-9]+}} (tosa.scatter): nd.scatter_nd: index 3 in operand 'indices' is out of range for dim 0 of operand 'data' (size 3)
  %s = tosa.scatter %v, %i, %in : (tensor<1x3x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x3x2xf32>
  return %s : tensor<1x3x2xf32>
}

func.func @scatter_one_batch_too_large() {
  %v = "tosa.const"() {values = dense<1.0> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  %i = "tosa.const"() {values = dense<[[3, 0]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  %in = "tosa.const"() {values = dense<2.0> : tensor<1x2x2xf32>} : () -> tensor<1x2x2xf32>
  %s = call @scatter_one_batch(%v, %i, %in) : (tensor<1x3x2xf32>, tensor<1x2xi32>, tensor<1x2x2xf32>) -> tensor<1x3x2xf32>
  %u = tensor.cast %s : tensor<1x3x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}
