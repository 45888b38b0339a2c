// RUN: nd-opt %s | nd-opt | FileCheck %s
// RUN: nd-opt %s --mlir-print-op-generic | nd-opt | FileCheck %s

// The nd ops on buffers: memref operands of any layout, updated in place, no
// result. A scatter updates its destination (`data`, `past_cache`); a gather
// writes its result into `into`. This is the form bufferization gives the
// ops and the lowering starts from.

// CHECK-LABEL: func.func @scatter_nd
// CHECK: nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} reduction<add> : memref<8x4xf32>, memref<3x1xi64>, memref<3x4xf32>
// CHECK-NOT: ->
func.func @scatter_nd(%data: memref<8x4xf32>, %indices: memref<3x1xi64>, %updates: memref<3x4xf32>) {
  nd.scatter_nd %data[%indices], %updates reduction<add> : memref<8x4xf32>, memref<3x1xi64>, memref<3x4xf32>
  return
}

// A destination that is a fresh copy nothing else reads (`disposable`, set by
// bufferization), of a strided layout.
// CHECK-LABEL: func.func @scatter_nd_disposable
// CHECK: nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} {disposable} : memref<8x4xf32, strided<[8, 1], offset: ?>>, memref<3x1xi32>, memref<3x4xf32>
func.func @scatter_nd_disposable(%data: memref<8x4xf32, strided<[8, 1], offset: ?>>, %indices: memref<3x1xi32>, %updates: memref<3x4xf32>) {
  nd.scatter_nd %data[%indices], %updates {disposable} : memref<8x4xf32, strided<[8, 1], offset: ?>>, memref<3x1xi32>, memref<3x4xf32>
  return
}

// CHECK-LABEL: func.func @gather_nd
// CHECK: nd.gather_nd %{{.*}}[%{{.*}}] into %{{.*}} batch_dims(1) : memref<2x5x3xf16>, memref<2x4x1xi64> into memref<2x4x3xf16>
func.func @gather_nd(%data: memref<2x5x3xf16>, %indices: memref<2x4x1xi64>, %out: memref<2x4x3xf16>) {
  nd.gather_nd %data[%indices] into %out batch_dims(1) : memref<2x5x3xf16>, memref<2x4x1xi64> into memref<2x4x3xf16>
  return
}

// CHECK-LABEL: func.func @scatter_elements
// CHECK: nd.scatter_elements %{{.*}}[%{{.*}}], %{{.*}} axis(1) reduction<mean> oob<skip> : memref<?x?xf32>, memref<?x?xi64>, memref<?x?xf32>
func.func @scatter_elements(%data: memref<?x?xf32>, %indices: memref<?x?xi64>, %updates: memref<?x?xf32>) {
  nd.scatter_elements %data[%indices], %updates axis(1) reduction<mean> oob<skip> : memref<?x?xf32>, memref<?x?xi64>, memref<?x?xf32>
  return
}

// CHECK-LABEL: func.func @gather_elements
// CHECK: nd.gather_elements %{{.*}}[%{{.*}}] into %{{.*}} axis(1) oob<clamp> : memref<3x9xi8>, memref<3x4xi32> into memref<3x4xi8>
func.func @gather_elements(%data: memref<3x9xi8>, %indices: memref<3x4xi32>, %out: memref<3x4xi8>) {
  nd.gather_elements %data[%indices] into %out axis(1) oob<clamp> : memref<3x9xi8>, memref<3x4xi32> into memref<3x4xi8>
  return
}

// CHECK-LABEL: func.func @gather
// CHECK: nd.gather %{{.*}}[%{{.*}}] into %{{.*}} axis(1) : memref<5x7xf64>, memref<2xi64> into memref<5x2xf64>
func.func @gather(%data: memref<5x7xf64>, %indices: memref<2xi64>, %out: memref<5x2xf64>) {
  nd.gather %data[%indices] into %out axis(1) : memref<5x7xf64>, memref<2xi64> into memref<5x2xf64>
  return
}

// CHECK-LABEL: func.func @tensor_scatter
// CHECK: nd.tensor_scatter %{{.*}}[%{{.*}}], %{{.*}} mode<circular> : memref<2x8x4xbf16>[memref<2xi64>], memref<2x3x4xbf16>
func.func @tensor_scatter(%past: memref<2x8x4xbf16>, %w: memref<2xi64>, %update: memref<2x3x4xbf16>) {
  nd.tensor_scatter %past[%w], %update axis(1) mode<circular> : memref<2x8x4xbf16>[memref<2xi64>], memref<2x3x4xbf16>
  return
}

// On tensors, the operands an op only reads may be buffers (a tensor that
// nothing writes, shared by many ops: --nd-share-read-buffers).
// CHECK-LABEL: func.func @reads_through_buffers
// CHECK: nd.gather_nd %{{.*}}[%{{.*}}] : memref<8x4xf32>, memref<3x1xi64> -> tensor<3x4xf32>
// CHECK: nd.scatter_nd %{{.*}}[%{{.*}}], %{{.*}} : tensor<8x4xf32>, memref<3x1xi64>, tensor<3x4xf32>
func.func @reads_through_buffers(%table: memref<8x4xf32>, %indices: memref<3x1xi64>, %data: tensor<8x4xf32>) -> (tensor<3x4xf32>, tensor<8x4xf32>) {
  %0 = nd.gather_nd %table[%indices] : memref<8x4xf32>, memref<3x1xi64> -> tensor<3x4xf32>
  %1 = nd.scatter_nd %data[%indices], %0 : tensor<8x4xf32>, memref<3x1xi64>, tensor<3x4xf32>
  return %0, %1 : tensor<3x4xf32>, tensor<8x4xf32>
}
