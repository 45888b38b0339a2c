// RUN: nd-opt %s --nd-buffer-addresses | FileCheck %s
// RUN: nd-opt %s --nd-buffer-addresses --convert-nd-runtime-to-llvm --finalize-memref-to-llvm --convert-to-llvm --reconcile-unrealized-casts | FileCheck %s --check-prefix=LLVM --implicit-check-not=unrealized_conversion_cast

// The function of an op: its static buffers become addresses, each call
// passes the address of its buffer, and the function views the address as
// the buffer again. The buffer of dynamic shape and the buffer of another
// layout keep their descriptors; so do the other operands.
// CHECK-LABEL: func.func private @op_function
//  CHECK-SAME:   (%[[A:.*]]: !llvm.ptr, %[[DYN:.*]]: memref<?xf32>, %[[B:.*]]: !llvm.ptr, %[[S:.*]]: i64)
//  CHECK-SAME:   attributes {nd_rt.op_function}
//   CHECK-DAG:   %[[BA:.*]] = nd_rt.buffer_at %[[B]] : memref<4xi64>
//   CHECK-DAG:   %[[AA:.*]] = nd_rt.buffer_at %[[A]] : memref<8x16xf32>
//       CHECK:   memref.load %[[AA]]
//       CHECK:   memref.load %[[DYN]]
//       CHECK:   memref.load %[[BA]]
func.func private @op_function(%a: memref<8x16xf32>, %dyn: memref<?xf32>, %b: memref<4xi64>, %site: i64)
    attributes {nd_rt.op_function} {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0, %c0] : memref<8x16xf32>
  %y = memref.load %dyn[%c0] : memref<?xf32>
  %i = memref.load %b[%c0] : memref<4xi64>
  memref.store %y, %a[%c0, %c0] : memref<8x16xf32>
  return
}

// Each buffer's address is taken once, where the buffer is defined (the
// arguments: at the start), and every call that passes it shares it.
// CHECK-LABEL: func.func @caller
//  CHECK-SAME:   (%[[X:.*]]: memref<8x16xf32>, %[[D:.*]]: memref<?xf32>, %[[I:.*]]: memref<4xi64>, %[[Y:.*]]: memref<8x16xf32>)
//   CHECK-DAG:   %[[PX:.*]] = nd_rt.buffer_address %[[X]] : memref<8x16xf32>
//   CHECK-DAG:   %[[PI:.*]] = nd_rt.buffer_address %[[I]] : memref<4xi64>
//   CHECK-DAG:   %[[PY:.*]] = nd_rt.buffer_address %[[Y]] : memref<8x16xf32>
//       CHECK:   call @op_function(%[[PX]], %[[D]], %[[PI]], %{{.*}}) : (!llvm.ptr, memref<?xf32>, !llvm.ptr, i64) -> ()
//       CHECK:   call @op_function(%[[PY]], %[[D]], %[[PI]], %{{.*}})
//   CHECK-NOT:   nd_rt.buffer_address
func.func @caller(%x: memref<8x16xf32>, %d: memref<?xf32>, %i: memref<4xi64>, %y: memref<8x16xf32>) {
  %s = arith.constant 0 : i64
  func.call @op_function(%x, %d, %i, %s) : (memref<8x16xf32>, memref<?xf32>, memref<4xi64>, i64) -> ()
  func.call @op_function(%y, %d, %i, %s) : (memref<8x16xf32>, memref<?xf32>, memref<4xi64>, i64) -> ()
  return
}

// Not the function of an op: left as it is.
// CHECK-LABEL: func.func private @unmarked
//  CHECK-SAME:   (%{{.*}}: memref<8x16xf32>)
func.func private @unmarked(%a: memref<8x16xf32>) {
  return
}

// A marked function whose symbol is used other than by a call: left as it
// is, and so are its calls.
// CHECK-LABEL: func.func private @taken_as_a_value
//  CHECK-SAME:   (%{{.*}}: memref<8x16xf32>)
func.func private @taken_as_a_value(%a: memref<8x16xf32>) attributes {nd_rt.op_function} {
  return
}

// CHECK-LABEL: func.func @other_callers
//   CHECK-NOT:   nd_rt.buffer_address
//       CHECK:   call @unmarked(%{{.*}}) : (memref<8x16xf32>) -> ()
//       CHECK:   call @taken_as_a_value(%{{.*}}) : (memref<8x16xf32>) -> ()
func.func @other_callers(%x: memref<8x16xf32>) {
  func.call @unmarked(%x) : (memref<8x16xf32>) -> ()
  func.call @taken_as_a_value(%x) : (memref<8x16xf32>) -> ()
  %f = func.constant @taken_as_a_value : (memref<8x16xf32>) -> ()
  return
}

// In the LLVM stage each static buffer is one pointer: the aligned pointer
// of the caller's descriptor, and the callee's descriptor holds it as both
// of its pointers, with the static offset, sizes and strides.
// LLVM-LABEL: llvm.func @op_function
//  LLVM-SAME:   (%[[A:[a-z0-9]+]]: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: i64, %{{[a-z0-9]+}}: !llvm.ptr, %{{[a-z0-9]+}}: i64)
//       LLVM:   llvm.insertvalue %[[A]], %{{.*}}[0] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
//       LLVM:   llvm.insertvalue %[[A]], %{{.*}}[1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
// LLVM-LABEL: llvm.func @caller
//       LLVM:   %[[DX:.*]] = llvm.insertvalue %{{.*}}[4, 1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
//       LLVM:   %[[PX:.*]] = llvm.extractvalue %[[DX]][1] : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
//       LLVM:   llvm.call @op_function(%[[PX]], %{{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64) -> ()
