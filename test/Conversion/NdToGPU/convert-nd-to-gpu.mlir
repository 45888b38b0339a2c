// RUN: nd-opt %s --split-input-file --convert-nd-to-gpu --canonicalize --cse | FileCheck %s
// RUN: nd-opt %s --split-input-file --convert-nd-to-gpu=check-bounds=false --canonicalize --cse | FileCheck %s --check-prefix=UNCHECKED

// The GPU IR of each nd op on buffers: host code that checks and launches
// kernels (gpu.launch), and the function's error record.

// A row gather: 16-byte vectors where both buffers are 16-byte aligned (a run
// time test), elements otherwise; index values checked as they are read (an
// atomic max of the complement of the position into the op's slot); one
// thread records the first bad one; each return hands the record and the
// function's messages to a later stage (ErrorRecord.h).
// CHECK-LABEL: func.func @gather_nd_rows
// CHECK: %[[RECORD:.*]] = nd_rt.gpu_error_record %c5_i64
// CHECK: memref.extract_aligned_pointer_as_index
// CHECK: scf.if
// CHECK: gpu.launch
// CHECK: memref.atomic_rmw maxu %{{.*}}, %[[RECORD]][%{{.*}}] : (i64, memref<?xi64>) -> i64
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<3200xf32>, vector<4xf32>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<6400xf32>, vector<4xf32>
// CHECK: } else {
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<3200xf32>
// CHECK: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads(%{{.*}}) in (%{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}})
// CHECK: nd_rt.gpu_error_record_end %[[RECORD]] ["{{.*}}: nd.gather_nd: index %lld in operand 'indices' is out of range for dim 0 of operand 'data' (size %lld)"]
// CHECK-NEXT: return
// UNCHECKED-LABEL: func.func @gather_nd_rows
// UNCHECKED-NOT: memref.atomic_rmw
// UNCHECKED-NOT: nd_rt.gpu_error_record
// UNCHECKED: return
func.func @gather_nd_rows(%data: memref<50x64xf32>, %indices: memref<100x1xi64>, %out: memref<100x64xf32>) {
  nd.gather_nd %data[%indices] into %out : memref<50x64xf32>, memref<100x1xi64> into memref<100x64xf32>
  return
}

// -----

// Elements that have no 16-byte vectors move one by one, and oob<skip> has no
// check.
// CHECK-LABEL: func.func @gather_complex_skip
// CHECK-NOT: vector.load
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<15xcomplex<f32>>
// CHECK-NOT: memref.atomic_rmw
// CHECK: return
func.func @gather_complex_skip(%data: memref<5x3xcomplex<f32>>, %indices: memref<4xi32>, %out: memref<4x3xcomplex<f32>>) {
  nd.gather %data[%indices] into %out oob<skip> : memref<5x3xcomplex<f32>>, memref<4xi32> into memref<4x3xcomplex<f32>>
  return
}

// -----

// gather_elements: where data has the dims of indices off the axis (here
// known only at run time), kernels with the planes before the axis on y:
// four positions a thread (their index values in one vector load, their
// results in one vector store) where a plane is a whole number of such
// vectors and the buffers are 16-byte aligned, 32-bit offsets where the
// buffers are small enough; one position a thread otherwise. Where the dims
// differ, a kernel that delinearizes each position.
// CHECK-LABEL: func.func @gather_elements_dynamic
// CHECK: arith.remui %{{.*}}, %c4 : index
// CHECK: scf.if
// CHECK: gpu.launch blocks({{.*}}) in (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %c1)
// CHECK: arith.index_cast %{{.*}} : index to i32
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<?xi64>, vector<4xi64>
// CHECK: vector.store %{{.*}} {alignment = 8 : i64} : memref<?xf16>, vector<4xf16>
// CHECK: } else {
// CHECK: gpu.launch
// CHECK: vector.load %{{.*}} : memref<?xi64>, vector<4xi64>
// CHECK: } else {
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<?xi64>
// CHECK: } else {
// CHECK: gpu.launch
// CHECK: arith.divui
func.func @gather_elements_dynamic(%data: memref<?x?xf16>, %indices: memref<?x?xi64>, %out: memref<?x?xf16>) {
  nd.gather_elements %data[%indices] into %out axis(1) : memref<?x?xf16>, memref<?x?xi64> into memref<?x?xf16>
  return
}

// -----

// A dynamic dim the verifier could not compare is checked on the host; a
// mismatch is recorded (one thread, unless a check failed before) and the
// op's kernels are not launched.
// CHECK-LABEL: func.func @scatter_nd_dynamic_dims
// CHECK: %[[BAD:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : index
// CHECK: scf.if %[[BAD]] {
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %{{.*}}[%c0] : memref<?xi64>
// CHECK: scf.if %{{.*}} {
// CHECK: gpu.launch
// CHECK: nd_rt.gpu_error_record_end %{{.*}} ["{{.*}}: nd.scatter_nd: operand 'updates' dim 0 (%lld) does not match operand 'indices' dim 0 (%lld)",
func.func @scatter_nd_dynamic_dims(%data: memref<8x4xf32>, %indices: memref<?x1xi64>, %updates: memref<?x4xf32>) {
  nd.scatter_nd %data[%indices], %updates : memref<8x4xf32>, memref<?x1xi64>, memref<?x4xf32>
  return
}

// -----

// Reduction none: each entry's destination row is computed and checked, and
// the last entry of each row wins (an integer atomic max of the entry number
// per row, from -1); the winners write their rows, unless a check failed
// (the first thread of that kernel records a bad index).
// CHECK-LABEL: func.func @scatter_nd_none
// CHECK: %[[WINNERS:.*]] = gpu.alloc (%{{.*}}) : memref<?xi32>
// CHECK: gpu.memset %[[WINNERS]], %c-1_i32
// CHECK: %[[KEYS:.*]] = gpu.alloc (%{{.*}}) : memref<?xi32>
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %[[KEYS]]
// CHECK: memref.atomic_rmw maxs %{{.*}}, %[[WINNERS]][%{{.*}}] : (i32, memref<?xi32>) -> i32
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}}[%c4] : memref<?xi64>
// CHECK: scf.if
// CHECK: memref.store %{{.*}}, %{{.*}}[%c0] : memref<?xi64>
// CHECK: memref.load %[[WINNERS]]
// CHECK: gpu.dealloc %[[WINNERS]]
// CHECK: gpu.dealloc %[[KEYS]]
func.func @scatter_nd_none(%data: memref<64x8xi32>, %indices: memref<1000x1xi64>, %updates: memref<1000x8xi32>) {
  nd.scatter_nd %data[%indices], %updates : memref<64x8xi32>, memref<1000x1xi64>, memref<1000x8xi32>
  return
}

// -----

// A few entries (a KV-cache update): one kernel, whose blocks each compute
// and check every entry's row into workgroup memory, then write the entries
// that no later one overwrites.
// CHECK-LABEL: func.func @scatter_nd_few
// CHECK-NOT: gpu.alloc (%{{.*}}) : memref<?xi32>
// CHECK: gpu.launch {{.*}} workgroup(%[[KEYS:.*]] : memref<256xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.store %{{.*}}, %[[KEYS]]
// CHECK: gpu.barrier
// CHECK: scf.for
// CHECK: memref.load %[[KEYS]]
// CHECK: vector.store
// CHECK: } else {
// CHECK: gpu.launch {{.*}} workgroup(
// CHECK: memref.store %{{.*}} : memref<16777216xf16>
func.func @scatter_nd_few(%cache: memref<1x32x4096x128xf16>, %indices: memref<1x32x1x3xi64>, %updates: memref<1x32x1x128xf16>) {
  nd.scatter_nd %cache[%indices], %updates : memref<1x32x4096x128xf16>, memref<1x32x1x3xi64>, memref<1x32x1x128xf16>
  return
}

// -----

// Any other reduction: the entries sorted by row, then one group of threads
// owns each row. At most 32768 entries and 65536 rows (the small path): one
// kernel computes the keys, sorts each tile of 4096 entries in workgroup
// memory (rounds of 2-bit splits, a block scan each) and writes each row's
// start and length per tile; the owners read them. Otherwise: a memset of
// the sort's scratch, the key kernel counting the digits of every pass, one
// kernel per 8-bit digit (a ticket, the tile sorted in workgroup memory,
// the look-back over earlier tiles), the owners (a binary search for each
// row's run). The owners stage the run's payloads in workgroup memory and
// walk it once, in 16-byte vectors where they can.
// CHECK-LABEL: func.func @scatter_nd_add_dynamic
// CHECK: scf.if
// CHECK: gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c512, {{.*}} workgroup(%{{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<545xi64, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<2048xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>)
// CHECK: gpu.barrier
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf16>
// CHECK: } else {
// CHECK: gpu.memset
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<1024xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.atomic_rmw addi
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) -> (memref<?xi32>, memref<?xi32>, memref<?xi32>, memref<?xi32>)
// CHECK: gpu.launch {{.*}} workgroup(%{{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4096xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<545xi64, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<256xi32, #gpu.address_space<workgroup>>, %{{.*}} : memref<1xi32, #gpu.address_space<workgroup>>)
// CHECK: memref.atomic_rmw assign
// CHECK: scf.while
// CHECK: memref.atomic_rmw ori
// CHECK: scf.yield
// CHECK: gpu.launch {{.*}} workgroup(
// CHECK: scf.while
// CHECK: gpu.barrier
// CHECK: arith.addf %{{.*}}, %{{.*}} : vector<8xf16>
func.func @scatter_nd_add_dynamic(%data: memref<?x?xf16>, %indices: memref<?x1xi64>, %updates: memref<?x?xf16>) {
  nd.scatter_nd %data[%indices], %updates reduction<add> : memref<?x?xf16>, memref<?x1xi64>, memref<?x?xf16>
  return
}

// -----

// scatter_elements under mean: an integer mean sums exactly in an integer
// 64 bits wider and divides once, rounding down.
// CHECK-LABEL: func.func @scatter_elements_mean
// CHECK: arith.extsi %{{.*}} : i32 to i128
// CHECK: arith.addi %{{.*}}, %{{.*}} : i128
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i128
// CHECK: arith.trunci %{{.*}} : i128 to i32
func.func @scatter_elements_mean(%data: memref<6x4xi32>, %indices: memref<5x4xi64>, %updates: memref<5x4xi32>) {
  nd.scatter_elements %data[%indices], %updates axis(0) reduction<mean> : memref<6x4xi32>, memref<5x4xi64>, memref<5x4xi32>
  return
}

// -----

// An out-of-place scatter under a reduction: the copy of data into the
// fresh, disposable destination is folded into the owners, which read each
// row from the source and write it, with or without updates.
// CHECK-LABEL: func.func @scatter_nd_folded_copy
// CHECK: %[[FRESH:.*]] = memref.alloc() {alignment = 64 : i64} : memref<64x8xf32>
// CHECK-NOT: memref.copy
// CHECK-DAG: %[[DST:.*]] = memref.collapse_shape %[[FRESH]]
// CHECK-DAG: %[[SRC:.*]] = memref.collapse_shape %arg0
// CHECK: gpu.launch {{.*}} workgroup(
// CHECK: vector.load %[[SRC]][
// CHECK: vector.store %{{.*}}, %[[DST]][
// CHECK-NOT: memref.copy
// CHECK: return %[[FRESH]]
func.func @scatter_nd_folded_copy(%data: memref<64x8xf32>, %indices: memref<1000x1xi64>, %updates: memref<1000x8xf32>) -> memref<64x8xf32> {
  %fresh = memref.alloc() {alignment = 64 : i64} : memref<64x8xf32>
  memref.copy %data, %fresh : memref<64x8xf32> to memref<64x8xf32>
  nd.scatter_nd %fresh[%indices], %updates reduction<add> {disposable} : memref<64x8xf32>, memref<1000x1xi64>, memref<1000x8xf32>
  return %fresh : memref<64x8xf32>
}

// -----

// tensor_scatter: the write indices are checked by a kernel first, then each
// update row is copied to its place (writes never collide), unless a check
// failed; the copy's first thread records a bad write index.
// CHECK-LABEL: func.func @tensor_scatter_circular
// CHECK: gpu.launch
// CHECK: memref.atomic_rmw maxu
// CHECK: scf.if
// CHECK: gpu.launch
// CHECK: memref.store %c1_i64, %{{.*}}[%c0] : memref<?xi64>
// CHECK: arith.remui
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<1024xbf16>, vector<8xbf16>
// CHECK: nd_rt.gpu_error_record_end %{{.*}} [{{.*}}"{{[^"]*}}: nd.tensor_scatter: write index %lld in operand 'write_indices' is negative (dim 2 of operand 'past_cache', size %lld, circular mode)"
func.func @tensor_scatter_circular(%cache: memref<2x4x16x8xbf16>, %writes: memref<2xi64>, %update: memref<2x4x3x8xbf16>) {
  nd.tensor_scatter %cache[%writes], %update axis(2) mode<circular> : memref<2x4x16x8xbf16>[memref<2xi64>], memref<2x4x3x8xbf16>
  return
}

// -----

// A strided operand is copied into a contiguous buffer first, and a strided
// destination copied back after.
// CHECK-LABEL: func.func @strided_destination
// CHECK: %[[COPY:.*]] = gpu.alloc () : memref<4x4xf32>
// CHECK: gpu.launch
// CHECK: memref.load %{{.*}} : memref<4x4xf32, strided<[8, 1]>>
// CHECK: memref.collapse_shape %[[COPY]]
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}} : memref<4x4xf32, strided<[8, 1]>>
// CHECK: gpu.dealloc %[[COPY]]
func.func @strided_destination(%data: memref<4x4xf32, strided<[8, 1]>>, %indices: memref<2x1xi64>, %updates: memref<2x4xf32>) {
  nd.scatter_nd %data[%indices], %updates oob<clamp> : memref<4x4xf32, strided<[8, 1]>>, memref<2x1xi64>, memref<2x4xf32>
  return
}

// -----

// scatter_elements with dims after the axis: a pass over the indices raises
// a device flag where a row holds more than one value, and the host does
// not wait for it: it launches the kernels of both paths (whole rows, then
// element by element), each of which reads the flag first and does its
// work, phase by phase between its barriers, only where its path was
// chosen.
// CHECK-LABEL: func.func @scatter_elements_rows
// CHECK-NOT: gpu.memcpy
// CHECK: %[[FLAG:.*]] = gpu.alloc () : memref<1xi32>
// CHECK: gpu.memset %[[FLAG]], %c0_i32
// CHECK: gpu.launch
// CHECK: arith.cmpi ne, %{{.*}}, %{{.*}} : i64
// CHECK: memref.store %c1_i32, %[[FLAG]][%c0]
// CHECK: gpu.launch
// CHECK: %[[ROWS:.*]] = memref.load %[[FLAG]][%c0]
// CHECK-NEXT: %[[CHOSEN:.*]] = arith.cmpi eq, %[[ROWS]], %c0_i32
// CHECK-NEXT: scf.if %[[CHOSEN]] {
// CHECK: gpu.barrier
// CHECK-NEXT: %{{.*}}:24 = scf.if %[[CHOSEN]] -> (
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}} : i32, i32, i64,
// The elements' keys, one per element of indices (500 x 128):
// CHECK: gpu.alloc (%c64000)
// CHECK-NEXT: gpu.launch
// CHECK-NEXT: %[[ELEMENTS:.*]] = memref.load %[[FLAG]][%c0]
// CHECK-NEXT: %[[OTHER:.*]] = arith.cmpi ne, %[[ELEMENTS]], %c0_i32
// CHECK-NEXT: scf.if %[[OTHER]] {
// CHECK: gpu.dealloc %[[FLAG]]
// CHECK-NOT: gpu.memcpy
// CHECK: return
func.func @scatter_elements_rows(%data: memref<100x128xf32>, %indices: memref<500x128xi64>, %updates: memref<500x128xf32>) {
  nd.scatter_elements %data[%indices], %updates axis(0) reduction<add> : memref<100x128xf32>, memref<500x128xi64>, memref<500x128xf32>
  return
}
