// RUN: nd-opt %s --split-input-file --nd-buffer-addresses=allocations=true | FileCheck %s
// RUN: nd-opt %s --split-input-file --nd-buffer-addresses | FileCheck %s --check-prefix=OFF
// RUN: nd-opt %s --split-input-file --nd-buffer-addresses=allocations=true --convert-nd-runtime-to-llvm --finalize-memref-to-llvm="use-generic-functions use-aligned-alloc" --convert-to-llvm --reconcile-unrealized-casts --canonicalize | FileCheck %s --check-prefix=LLVM

// A static buffer that is only copied into, passed as an address and freed
// is allocated as an address: the call finalize-memref-to-llvm would make
// (the op's alignment, the size a multiple of it), a memcpy of its bytes,
// and a call of the free function. Without `allocations` it is left as it
// is. The constants are made once per function, at its start.
// CHECK-LABEL: func.func @passed
//  CHECK-SAME:   (%[[X:.*]]: memref<8x16xf32>)
//   CHECK-DAG:   %[[ALIGN:.*]] = llvm.mlir.constant(64 : index) : i64
//   CHECK-DAG:   %[[SIZE:.*]] = llvm.mlir.constant(512 : i64) : i64
//       CHECK:   %[[P:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[ALIGN]], %[[SIZE]]) : (i64, i64) -> !llvm.ptr
//       CHECK:   %[[PX:.*]] = nd_rt.buffer_address %[[X]] : memref<8x16xf32>
//       CHECK:   "llvm.intr.memcpy"(%[[P]], %[[PX]], %[[SIZE]]) <{isVolatile = false}>
//       CHECK:   call @op(%[[P]]) : (!llvm.ptr) -> ()
//       CHECK:   llvm.call @_mlir_memref_to_llvm_free(%[[P]]) : (!llvm.ptr) -> ()
//   CHECK-NOT:   memref.
//       CHECK:   return
// OFF-LABEL: func.func @passed
//       OFF:   memref.alloc
//       OFF:   memref.copy
//       OFF:   memref.dealloc
// The LLVM form: no descriptor of the buffer is built.
// LLVM-LABEL: llvm.func @passed
//   LLVM-NOT:   llvm.insertvalue
//       LLVM:   llvm.call @_mlir_memref_to_llvm_aligned_alloc
//       LLVM:   "llvm.intr.memcpy"
//       LLVM:   llvm.call @op
//       LLVM:   llvm.call @_mlir_memref_to_llvm_free
//   LLVM-NOT:   llvm.insertvalue
//       LLVM:   llvm.return
func.func private @op(!llvm.ptr)
func.func @passed(%x: memref<8x16xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<8x16xf32>
  memref.copy %x, %a : memref<8x16xf32> to memref<8x16xf32>
  %p = nd_rt.buffer_address %a : memref<8x16xf32>
  func.call @op(%p) : (!llvm.ptr) -> ()
  memref.dealloc %a : memref<8x16xf32>
  return
}

// -----

// Without an alignment: the element's size rounded up to a power of two, at
// least 16, and the size rounded up to a multiple of it (3 bytes ask for
// 16, 5 f64 for 48). A copy between two such buffers copies their bytes
// from one address to the other.
// CHECK-LABEL: func.func @default_alignment
//   CHECK-DAG:   %[[BYTES:.*]] = llvm.mlir.constant(40 : i64) : i64
//   CHECK-DAG:   %[[S48:.*]] = llvm.mlir.constant(48 : i64) : i64
//   CHECK-DAG:   %[[S16:.*]] = llvm.mlir.constant(16 : i64) : i64
//   CHECK-DAG:   %[[A16:.*]] = llvm.mlir.constant(16 : index) : i64
//       CHECK:   %[[P:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[A16]], %[[S16]])
//       CHECK:   %[[Q:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[A16]], %[[S48]])
//       CHECK:   %[[R:.*]] = llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[A16]], %[[S48]])
//       CHECK:   "llvm.intr.memcpy"(%[[R]], %[[Q]], %[[BYTES]])
//       CHECK:   call @use3(%[[P]], %[[Q]], %[[R]])
// In the LLVM stage the same alignment and size as finalize-memref-to-llvm
// takes for a buffer it allocates itself (here one that is also loaded
// from): 16, and 40 bytes rounded up to a multiple of 16 at run time.
// LLVM-LABEL: llvm.func @default_alignment
//   LLVM-DAG:   %[[A16:.*]] = llvm.mlir.constant(16 : index) : i64
//   LLVM-DAG:   %[[S16:.*]] = llvm.mlir.constant(16 : i64) : i64
//   LLVM-DAG:   %[[S48:.*]] = llvm.mlir.constant(48 : i64) : i64
//       LLVM:   llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[A16]], %[[S16]])
//       LLVM:   llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[A16]], %[[S48]])
// LLVM-LABEL: llvm.func @allocated_by_upstream
//       LLVM:   %[[A16:.*]] = llvm.mlir.constant(16 : index) : i64
//       LLVM:   %[[BYTES:.*]] = llvm.ptrtoint
//       LLVM:   %[[BUMPED:.*]] = llvm.add %[[BYTES]]
//       LLVM:   %[[REM:.*]] = llvm.urem %[[BUMPED]], %[[A16]]
//       LLVM:   %[[SIZE:.*]] = llvm.sub %[[BUMPED]], %[[REM]]
//       LLVM:   llvm.call @_mlir_memref_to_llvm_aligned_alloc(%[[A16]], %[[SIZE]])
func.func private @use3(!llvm.ptr, !llvm.ptr, !llvm.ptr)
func.func @default_alignment() {
  %a = memref.alloc() : memref<3xi8>
  %b = memref.alloc() : memref<5xf64>
  %c = memref.alloc() : memref<5xf64>
  memref.copy %b, %c : memref<5xf64> to memref<5xf64>
  %pa = nd_rt.buffer_address %a : memref<3xi8>
  %pb = nd_rt.buffer_address %b : memref<5xf64>
  %pc = nd_rt.buffer_address %c : memref<5xf64>
  func.call @use3(%pa, %pb, %pc) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()
  memref.dealloc %a : memref<3xi8>
  memref.dealloc %b : memref<5xf64>
  memref.dealloc %c : memref<5xf64>
  return
}
func.func @allocated_by_upstream() -> f64 {
  %b = memref.alloc() : memref<5xf64>
  %c0 = arith.constant 0 : index
  %v = memref.load %b[%c0] : memref<5xf64>
  memref.dealloc %b : memref<5xf64>
  return %v : f64
}

// -----

// Left as they are: a buffer with another use (a load, a return), of
// dynamic shape, of another layout, of elements that are not whole bytes,
// and one copied to or from a buffer of another layout.
// CHECK-LABEL: func.func @left
//   CHECK-NOT:   llvm.call
//   CHECK-NOT:   llvm.intr.memcpy
//       CHECK:   return
func.func @left(%n: index, %strided: memref<4xf32, strided<[2]>>) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %loaded = memref.alloc() : memref<4xf32>
  %v = memref.load %loaded[%c0] : memref<4xf32>
  %returned = memref.alloc() : memref<4xf32>
  %dynamic = memref.alloc(%n) : memref<?xf32>
  %bits = memref.alloc() : memref<4xi1>
  %pb = nd_rt.buffer_address %bits : memref<4xi1>
  %copied = memref.alloc() : memref<4xf32>
  memref.copy %strided, %copied : memref<4xf32, strided<[2]>> to memref<4xf32>
  %pc = nd_rt.buffer_address %copied : memref<4xf32>
  memref.dealloc %loaded : memref<4xf32>
  memref.dealloc %dynamic : memref<?xf32>
  memref.dealloc %bits : memref<4xi1>
  memref.dealloc %copied : memref<4xf32>
  return %returned : memref<4xf32>
}
