// RUN: nd-opt %s --nd-parallel-copy="min-bytes=512" | FileCheck %s

// Copies of at least twice min-bytes between identity-layout buffers become
// an scf.parallel over as many contiguous byte ranges as there are threads,
// each one memcpy or, for copies of 16 MiB or more, 64-byte loads and
// non-temporal stores to the target's whole lines between two memcpys (the
// bytes before the first line boundary and after the last) and a fence;
// smaller ones stay as they are.


// CHECK-LABEL: func.func @large
//  CHECK-SAME:   (%[[SRC:.*]]: memref<40x10xf32>, %[[DST:.*]]: memref<40x10xf32>)
//       CHECK:   %[[BYTES:.*]] = arith.muli %{{.*}}, %c4 : index
//       CHECK:   %[[LARGE:.*]] = arith.cmpi uge, %[[BYTES]], %{{.*}} : index
//       CHECK:   scf.if %[[LARGE]] {
//       CHECK:     %[[THREADS:.*]] = nd_rt.max_threads
//       CHECK:     %[[BYMIN:.*]] = arith.divui %[[BYTES]], %{{.*}} : index
//       CHECK:     %[[P:.*]] = arith.minui %[[BYMIN]], %[[THREADS]] : index
//       CHECK:     %[[PARTS:.*]] = arith.maxui %[[P]], %{{.*}} : index
//       CHECK:     %[[STREAM:.*]] = arith.cmpi uge, %[[BYTES]], %c16777216 : index
//       CHECK:     scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[PARTS]]) step (%{{.*}}) {
//       CHECK:       scf.if %[[STREAM]] {
//       CHECK:         "llvm.intr.memcpy"
//       CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c64 {
//       CHECK:           %[[LINE:.*]] = llvm.load %{{.*}} {alignment = 1 : i64} : !llvm.ptr -> vector<64xi8>
//       CHECK:           llvm.store %[[LINE]], %{{.*}} {alignment = 64 : i64, nontemporal} : vector<64xi8>, !llvm.ptr
//       CHECK:         "llvm.intr.memcpy"
//       CHECK:         llvm.fence seq_cst
//       CHECK:       } else {
//   CHECK-DAG:         %[[S:.*]] = memref.extract_aligned_pointer_as_index %[[SRC]]
//   CHECK-DAG:         %[[D:.*]] = memref.extract_aligned_pointer_as_index %[[DST]]
//       CHECK:         "llvm.intr.memcpy"(%{{.*}}, %{{.*}}, %{{.*}}) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i64) -> ()
//       CHECK:   } else {
//       CHECK:     memref.copy %[[SRC]], %[[DST]] : memref<40x10xf32> to memref<40x10xf32>
func.func @large(%src: memref<40x10xf32>, %dst: memref<40x10xf32>) {
  memref.copy %src, %dst : memref<40x10xf32> to memref<40x10xf32>
  return
}

// CHECK-LABEL: func.func @small
//   CHECK-NOT:   scf.parallel
//       CHECK:   memref.copy
func.func @small(%src: memref<8xf32>, %dst: memref<8xf32>) {
  memref.copy %src, %dst : memref<8xf32> to memref<8xf32>
  return
}

// The size is known at run time only: decided then.
// CHECK-LABEL: func.func @dynamic
//       CHECK:   memref.dim
//       CHECK:   arith.cmpi uge
//       CHECK:   scf.parallel
func.func @dynamic(%src: memref<?xi8>, %dst: memref<?xi8>) {
  memref.copy %src, %dst : memref<?xi8> to memref<?xi8>
  return
}

// Strided buffers are not contiguous: left alone.
// CHECK-LABEL: func.func @strided
//   CHECK-NOT:   scf.parallel
func.func @strided(%src: memref<400xf32, strided<[2]>>, %dst: memref<400xf32>) {
  memref.copy %src, %dst : memref<400xf32, strided<[2]>> to memref<400xf32>
  return
}
