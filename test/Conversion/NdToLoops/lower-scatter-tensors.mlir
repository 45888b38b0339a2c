// RUN: nd-opt %s -split-input-file --lower-scatter=check-bounds=false | FileCheck %s

// The ops on tensors, as users and importers write them: each works on a
// buffer of its own between bufferization.to_buffer (read-only) and
// to_tensor (restrict writable), so that the rest of the function stays on
// tensors for one-shot bufferization. A scatter updates a copy of its
// destination, a gather writes a fresh buffer; no nd op is left. The runs of
// `--lower-scatter --nd-to-llvm` on the specifications' examples are in
// test/Integration (scatter_nd.mlir, gather_nd.mlir, ...).
// CHECK-NOT: nd.{{scatter|gather}}

// CHECK-LABEL: func.func @scatter_nd(
//  CHECK-SAME:     %[[D:[a-zA-Z0-9]+]]: tensor<8x4xf32>, %[[I:[a-zA-Z0-9]+]]: tensor<3x1xi64>, %[[U:[a-zA-Z0-9]+]]: tensor<3x4xf32>)
//   CHECK-DAG:   %[[DB:.*]] = bufferization.to_buffer %[[D]] read_only : tensor<8x4xf32> to memref<8x4xf32>
//   CHECK-DAG:   %[[IB:.*]] = bufferization.to_buffer %[[I]] read_only : tensor<3x1xi64> to memref<3x1xi64>
//   CHECK-DAG:   %[[UB:.*]] = bufferization.to_buffer %[[U]] read_only : tensor<3x4xf32> to memref<3x4xf32>
//       CHECK:   %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
//       CHECK:   memref.copy %[[DB]], %[[COPY]]
//       CHECK:   call @__nd_scatter_nd(%[[COPY]], %[[IB]], %[[UB]]) : (memref<8x4xf32>, memref<3x1xi64>, memref<3x4xf32>) -> ()
//       CHECK:   %[[R:.*]] = bufferization.to_tensor %[[COPY]] restrict writable : memref<8x4xf32> to tensor<8x4xf32>
//       CHECK:   return %[[R]]
// CHECK-LABEL: func.func private @__nd_scatter_nd(
func.func @scatter_nd(%data: tensor<8x4xf32>, %indices: tensor<3x1xi64>, %updates: tensor<3x4xf32>) -> tensor<8x4xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// A dynamic destination: the copy has its dims.
// CHECK-LABEL: func.func @scatter_elements_dynamic(
//  CHECK-SAME:     %[[D:[a-zA-Z0-9]+]]: tensor<?x?xf32>
//       CHECK:   %[[DB:.*]] = bufferization.to_buffer %[[D]] read_only : tensor<?x?xf32> to memref<?x?xf32>
//   CHECK-DAG:   %[[N0:.*]] = memref.dim %[[DB]], %{{.*}} : memref<?x?xf32>
//   CHECK-DAG:   %[[N1:.*]] = memref.dim %[[DB]], %{{.*}} : memref<?x?xf32>
//       CHECK:   %[[COPY:.*]] = memref.alloc(%[[N0]], %[[N1]]) {alignment = 64 : i64} : memref<?x?xf32>
//       CHECK:   memref.copy %[[DB]], %[[COPY]]
//       CHECK:   call @__nd_scatter_elements(%[[COPY]],
//       CHECK:   bufferization.to_tensor %[[COPY]] restrict writable : memref<?x?xf32> to tensor<?x?xf32>
func.func @scatter_elements_dynamic(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>, %updates: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = nd.scatter_elements %data[%indices], %updates axis(1) reduction<add>
      : tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// A gather's result dims come from its operands: here the number of index
// tuples.
// CHECK-LABEL: func.func @gather_nd_dynamic(
//  CHECK-SAME:     %[[D:[a-zA-Z0-9]+]]: tensor<5x4xf32>, %[[I:[a-zA-Z0-9]+]]: tensor<?x1xi64>)
//       CHECK:   %[[N:.*]] = tensor.dim %[[I]], %{{.*}} : tensor<?x1xi64>
//   CHECK-DAG:   %[[DB:.*]] = bufferization.to_buffer %[[D]] read_only
//   CHECK-DAG:   %[[IB:.*]] = bufferization.to_buffer %[[I]] read_only
//       CHECK:   %[[INTO:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4xf32>
//       CHECK:   call @__nd_gather_nd(%[[DB]], %[[IB]], %[[INTO]]) : (memref<5x4xf32>, memref<?x1xi64>, memref<?x4xf32>) -> ()
//       CHECK:   %[[R:.*]] = bufferization.to_tensor %[[INTO]] restrict writable : memref<?x4xf32> to tensor<?x4xf32>
//       CHECK:   return %[[R]]
func.func @gather_nd_dynamic(%data: tensor<5x4xf32>, %indices: tensor<?x1xi64>) -> tensor<?x4xf32> {
  %0 = nd.gather_nd %data[%indices] : tensor<5x4xf32>, tensor<?x1xi64> -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

// An operand already read through a buffer is used as it is.
// CHECK-LABEL: func.func @gather_elements_buffer_operand(
//  CHECK-SAME:     %[[D:[a-zA-Z0-9]+]]: memref<2x2xf32>, %[[I:[a-zA-Z0-9]+]]: tensor<2x2xi64>)
//       CHECK:   %[[IB:.*]] = bufferization.to_buffer %[[I]] read_only
//       CHECK:   %[[INTO:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x2xf32>
//       CHECK:   call @__nd_gather_elements(%[[D]], %[[IB]], %[[INTO]])
func.func @gather_elements_buffer_operand(%data: memref<2x2xf32>, %indices: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = nd.gather_elements %data[%indices] axis(1) : memref<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// nd.gather and nd.tensor_scatter alike (tensor_scatter's destination is
// past_cache); a scatter on a gather's result copies it too.
// CHECK-LABEL: func.func @gather_then_tensor_scatter(
//       CHECK:   %[[INTO:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x3xf32>
//       CHECK:   call @__nd_gather(%{{.*}}, %{{.*}}, %[[INTO]])
//       CHECK:   %[[G0:.*]] = bufferization.to_tensor %[[INTO]] restrict writable
//       CHECK:   %[[GB:.*]] = bufferization.to_buffer %[[G0]] read_only
//       CHECK:   %[[COPY:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x3xf32>
//       CHECK:   memref.copy %[[GB]], %[[COPY]]
//       CHECK:   call @__nd_tensor_scatter(%[[COPY]], %{{.*}}, %{{.*}})
//       CHECK:   bufferization.to_tensor %[[COPY]] restrict writable
func.func @gather_then_tensor_scatter(%table: tensor<1x5x3xf32>, %rows: tensor<4xi64>, %w: tensor<1xi64>, %u: tensor<1x1x3xf32>) -> tensor<1x4x3xf32> {
  %0 = nd.gather %table[%rows] axis(1) : tensor<1x5x3xf32>, tensor<4xi64> -> tensor<1x4x3xf32>
  %1 = nd.tensor_scatter %0[%w], %u : tensor<1x4x3xf32>[tensor<1xi64>], tensor<1x1x3xf32>
  return %1 : tensor<1x4x3xf32>
}

// -----

// Ops on buffers (bufferized already) and on tensors in one module: each
// takes its own path.
// CHECK-LABEL: func.func @both_forms(
//       CHECK:   call @__nd_gather_nd(%{{.*}}, %{{.*}}, %{{.*}}) : (memref<8x4xf32>, memref<3x1xi64>, memref<3x4xf32>) -> ()
//       CHECK:   memref.alloc() {alignment = 64 : i64} : memref<8x4xf32>
//       CHECK:   call @__nd_scatter_nd(
//       CHECK:   bufferization.to_tensor
func.func @both_forms(%table: memref<8x4xf32>, %i: memref<3x1xi64>, %out: memref<3x4xf32>,
                      %data: tensor<8x4xf32>, %indices: tensor<3x1xi64>, %updates: tensor<3x4xf32>) -> tensor<8x4xf32> {
  nd.gather_nd %table[%i] into %out : memref<8x4xf32>, memref<3x1xi64> into memref<3x4xf32>
  %0 = nd.scatter_nd %data[%indices], %updates : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>
  return %0 : tensor<8x4xf32>
}

// -----

// Constant operands are not folded in place of the lowering.
// CHECK-LABEL: func.func @constants(
//       CHECK:   call @__nd_gather_nd(
func.func @constants() -> tensor<2xf32> {
  %d = arith.constant dense<[[0.0, 1.0], [2.0, 3.0]]> : tensor<2x2xf32>
  %i = arith.constant dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>
  %0 = nd.gather_nd %d[%i] : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
