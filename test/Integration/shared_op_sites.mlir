// Ops with the same lowering share one function, but a failed check still
// names the op that failed: here three identical scatter_nd ops in a chain,
// of which only the second gets an index out of range (the first and third
// get valid ones), and two identical gather_nd ops, of which only the second
// does. Each message must name its own op's line.
//
// RUN: nd-opt %s --one-shot-bufferize=bufferize-function-boundaries --lower-scatter | FileCheck %s --check-prefix=IR
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e scatters -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.scatters.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=SCATTERS < %t.scatters.err
// RUN: nd-opt %s --nd-to-llvm | not mlir-runner -e gathers -entry-point-result=void -shared-libs=%mlir_runner_utils,%mlir_c_runner_utils,%libomp,%nd_runner_utils 2>%t.gathers.err | FileCheck %s --check-prefix=OUT --allow-empty
// RUN: FileCheck %s --check-prefix=GATHERS < %t.gathers.err

// One function per distinct op, called once per op.
// IR-COUNT-3: call @__nd_scatter_nd(
// IR-COUNT-2: call @__nd_gather_nd(
// IR-NOT: call @__nd_{{scatter|gather}}_nd_{{[0-9]}}
// IR-COUNT-1: func.func private @__nd_scatter_nd(
// IR-COUNT-1: func.func private @__nd_gather_nd(

// OUT-NOT: Unranked
// OUT-NOT: [

func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }

func.func @print(%t: tensor<*xf32>) {
  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>
  call @printMemrefF32(%m) : (memref<*xf32>) -> ()
  return
}

func.func @scatters() {
  %data = arith.constant dense<0.0> : tensor<4x2xf32>
  %good = arith.constant dense<[[0], [3]]> : tensor<2x1xi64>
  %bad = arith.constant dense<[[1], [4]]> : tensor<2x1xi64>
  %i0 = call @opaque(%good) : (tensor<2x1xi64>) -> tensor<2x1xi64>
  %i1 = call @opaque(%bad) : (tensor<2x1xi64>) -> tensor<2x1xi64>
  %updates = arith.constant dense<1.0> : tensor<2x2xf32>
  %r0 = nd.scatter_nd %data[%i0], %updates : tensor<4x2xf32>, tensor<2x1xi64>, tensor<2x2xf32>
  // SCATTERS-NOT: shared_op_sites.mlir:[[@LINE-1]]:
  // SCATTERS: error: {{.*}}shared_op_sites.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.scatter_nd: index 4 in operand 'indices' is out of range for dim 0 of operand 'data' (size 4)
  %r1 = nd.scatter_nd %r0[%i1], %updates : tensor<4x2xf32>, tensor<2x1xi64>, tensor<2x2xf32>
  %r2 = nd.scatter_nd %r1[%i0], %updates : tensor<4x2xf32>, tensor<2x1xi64>, tensor<2x2xf32>
  %u = tensor.cast %r2 : tensor<4x2xf32> to tensor<*xf32>
  call @print(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @gathers() {
  %data = arith.constant dense<1.0> : tensor<4x2xf32>
  %good = arith.constant dense<[[0], [-4]]> : tensor<2x1xi64>
  %bad = arith.constant dense<[[2], [-5]]> : tensor<2x1xi64>
  %i0 = call @opaque(%good) : (tensor<2x1xi64>) -> tensor<2x1xi64>
  %i1 = call @opaque(%bad) : (tensor<2x1xi64>) -> tensor<2x1xi64>
  %g0 = nd.gather_nd %data[%i0] : tensor<4x2xf32>, tensor<2x1xi64> -> tensor<2x2xf32>
  // GATHERS-NOT: shared_op_sites.mlir:[[@LINE-1]]:
  // GATHERS: error: {{.*}}shared_op_sites.mlir:[[@LINE+1]]:{{[0-9]+}}: nd.gather_nd: index -5 in operand 'indices' is out of range for dim 0 of operand 'data' (size 4)
  %g1 = nd.gather_nd %data[%i1] : tensor<4x2xf32>, tensor<2x1xi64> -> tensor<2x2xf32>
  %u0 = tensor.cast %g0 : tensor<2x2xf32> to tensor<*xf32>
  %u1 = tensor.cast %g1 : tensor<2x2xf32> to tensor<*xf32>
  call @print(%u0) : (tensor<*xf32>) -> ()
  call @print(%u1) : (tensor<*xf32>) -> ()
  return
}

// The indices come through a call, so that the verifier, which rejects
// constant indices out of range at compile time, leaves them to the
// run-time check this test is about.
func.func @opaque(%t: tensor<2x1xi64>) -> tensor<2x1xi64> {
  return %t : tensor<2x1xi64>
}
