// RUN: nd-opt %s -split-input-file -transform-preload-library=transform-library-paths=%S/Inputs/convert-to-loops.mlir -transform-interpreter -canonicalize -cse | FileCheck %s

// transform.structured.convert_to_loops on nd ops on buffers: loops over the
// iteration domain around the op at one point (the tiling interface's scalar
// implementation).

// A gather point: the index value read, resolved (negative values count from
// the end), the element loaded, or zero where the value addresses nothing.
// CHECK-LABEL: func.func @gather_nd
// CHECK-SAME: (%[[DATA:.*]]: memref<5x3xf32>, %[[IDX:.*]]: memref<4x1xi64>, %[[OUT:.*]]: memref<4x3xf32>)
// CHECK: scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// CHECK: scf.for %[[J:.*]] = %c0 to %c3 step %c1 {
// CHECK: %[[RAW:.*]] = memref.load %[[IDX]][%[[I]], %c0] : memref<4x1xi64>
// CHECK: %[[V:.*]] = arith.index_cast %[[RAW]] : i64 to index
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[V]], %c0 : index
// CHECK: %[[BAD:.*]] = arith.cmpi uge, %{{.*}}, %c5 : index
// CHECK: %[[E:.*]] = scf.if %[[BAD]] -> (f32) {
// CHECK: scf.yield %cst : f32
// CHECK: } else {
// CHECK: memref.load %[[DATA]][%{{.*}}, %[[J]]] : memref<5x3xf32>
// CHECK: memref.store %[[E]], %[[OUT]][%[[I]], %[[J]]] : memref<4x3xf32>
func.func @gather_nd(%data: memref<5x3xf32>, %indices: memref<4x1xi64>, %out: memref<4x3xf32>) {
  nd.gather_nd %data[%indices] into %out : memref<5x3xf32>, memref<4x1xi64> into memref<4x3xf32>
  return
}

// -----

// A scatter point: the update combined into data where the index value
// addresses an element (the entries loop runs in order).
// CHECK-LABEL: func.func @scatter_nd_add
// CHECK: scf.for %[[E:.*]] = %c0 to %c3 step %c1 {
// CHECK: scf.for %[[C:.*]] = %c0 to %c4 step %c1 {
// CHECK: %[[U:.*]] = memref.load %{{.*}}[%[[E]], %[[C]]] : memref<3x4xf32>
// CHECK: scf.if %{{.*}} {
// CHECK: %[[CUR:.*]] = memref.load %{{.*}}[%{{.*}}, %[[C]]] : memref<8x4xf32>
// CHECK: %[[SUM:.*]] = arith.addf %[[CUR]], %[[U]] : f32
// CHECK: memref.store %[[SUM]], %{{.*}}[%{{.*}}, %[[C]]] : memref<8x4xf32>
func.func @scatter_nd_add(%data: memref<8x4xf32>, %indices: memref<3x1xi32>, %updates: memref<3x4xf32>) {
  nd.scatter_nd %data[%indices], %updates reduction<add> oob<skip> : memref<8x4xf32>, memref<3x1xi32>, memref<3x4xf32>
  return
}

// -----

// Under clamp, the value clamped into the dim.
// CHECK-LABEL: func.func @gather_elements_clamp
// CHECK: arith.minsi
// CHECK: arith.maxsi
func.func @gather_elements_clamp(%data: memref<3x5xi8>, %indices: memref<3x2xi64>, %out: memref<3x2xi8>) {
  nd.gather_elements %data[%indices] into %out axis(1) oob<clamp> : memref<3x5xi8>, memref<3x2xi64> into memref<3x2xi8>
  return
}
