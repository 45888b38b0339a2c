// An out-of-range coordinate in tensor.gather / tensor.scatter (undefined
// behaviour upstream) is nd's run-time error: the program stops before
// anything is printed, with a message naming the original op (through the
// location), the nd op, operand 'indices', the value and the dim of nd's
// 'data' with its size. Where gather_dims / scatter_dims are not leading,
// 'data' is the source / dest with those dims moved to the front, so dim j
// is gather_dims[j]. The indices come in as function arguments, so the error
// cannot be found at compile time.
//
// RUN: nd-opt %s --convert-tensor-to-nd --nd-to-llvm | not mlir-runner -e gather_negative -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.gather.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=GATHER < %t.gather.err
// RUN: nd-opt %s --convert-tensor-to-nd --nd-to-llvm | not mlir-runner -e gather_inner_dim -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.inner.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=INNER < %t.inner.err
// RUN: nd-opt %s --convert-tensor-to-nd --nd-to-llvm | not mlir-runner -e scatter_too_large -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.scatter.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=SCATTER < %t.scatter.err

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

// -3 in dim 0 of size 2.
func.func @gather(%s: tensor<2x3xf32>, %i: tensor<2x1xi64>) -> tensor<2x3xf32> {
  // GATHER: error: {{.*}}out_of_range_tensor_gather_scatter.mlir:[[@LINE+1]]:{{[0-9]+}} (tensor.gather): nd.gather_nd: index -3 in operand 'indices' is out of range for dim 0 of operand 'data' (size 2)
  %g = tensor.gather %s[%i] gather_dims([0]) : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>
  return %g : tensor<2x3xf32>
}

func.func @gather_negative() {
  %s = arith.constant dense<1.0> : tensor<2x3xf32>
  %i = arith.constant dense<[[-2], [-3]]> : tensor<2x1xi64>
  %g = call @gather(%s, %i) : (tensor<2x3xf32>, tensor<2x1xi64>) -> tensor<2x3xf32>
  %u = tensor.cast %g : tensor<2x3xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// 3 in source dim 1 of size 3 (i8 indices), dim 0 of nd's data.
func.func @gather_dim_1(%s: tensor<2x3xf32>, %i: tensor<2x1xi8>) -> tensor<2x2x1xf32> {
  // INNER: error: {{.*}}out_of_range_tensor_gather_scatter.mlir:[[@LINE+1]]:{{[0-9]+}} (tensor.gather): nd.gather_nd: index 3 in operand 'indices' is out of range for dim 0 of operand 'data' (size 3)
  %g = tensor.gather %s[%i] gather_dims([1]) : (tensor<2x3xf32>, tensor<2x1xi8>) -> tensor<2x2x1xf32>
  return %g : tensor<2x2x1xf32>
}

func.func @gather_inner_dim() {
  %s = arith.constant dense<1.0> : tensor<2x3xf32>
  %i = arith.constant dense<[[2], [3]]> : tensor<2x1xi8>
  %g = call @gather_dim_1(%s, %i) : (tensor<2x3xf32>, tensor<2x1xi8>) -> tensor<2x2x1xf32>
  %u = tensor.cast %g : tensor<2x2x1xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

// (1, 4) into dest 2x4: 4 is out of range for dim 1 of size 4.
func.func @scatter(%src: tensor<2xf32>, %d: tensor<2x4xf32>, %i: tensor<2x2xindex>) -> tensor<2x4xf32> {
  // SCATTER: error: {{.*}}out_of_range_tensor_gather_scatter.mlir:[[@LINE+1]]:{{[0-9]+}} (tensor.scatter): nd.scatter_nd: index 4 in operand 'indices' is out of range for dim 1 of operand 'data' (size 4)
  %r = tensor.scatter %src into %d[%i] scatter_dims([0, 1]) unique : (tensor<2xf32>, tensor<2x4xf32>, tensor<2x2xindex>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}

func.func @scatter_too_large() {
  %src = arith.constant dense<2.0> : tensor<2xf32>
  %d = arith.constant dense<1.0> : tensor<2x4xf32>
  %i = arith.constant dense<[[0, 3], [1, 4]]> : tensor<2x2xindex>
  %r = call @scatter(%src, %d, %i) : (tensor<2xf32>, tensor<2x4xf32>, tensor<2x2xindex>) -> tensor<2x4xf32>
  %u = tensor.cast %r : tensor<2x4xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}
