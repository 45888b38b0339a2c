// RUN: nd-opt %s -split-input-file --nd-return-through-pointer=function=entry | FileCheck %s

// An entry of one result stores its descriptor through a new last argument,
// field by field, and returns nothing. Its allocated pointer is argument 0:
// the result is that argument's buffer.

// CHECK-LABEL: llvm.func @entry
//  CHECK-SAME:   (%[[A:.*]]: !llvm.ptr, %[[B:.*]]: !llvm.ptr, %[[C:.*]]: i64, %[[D:.*]]: i64, %[[E:.*]]: i64, %[[OUT:.*]]: !llvm.ptr)
//  CHECK-SAME:   attributes {nd.result_buffers = array<i64: 0>}
//   CHECK-NOT:   llvm.insertvalue
//   CHECK-DAG:   %[[F0:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 0]
//   CHECK-DAG:   llvm.store %[[A]], %[[F0]]
//   CHECK-DAG:   %[[F1:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 1]
//   CHECK-DAG:   llvm.store %[[B]], %[[F1]]
//   CHECK-DAG:   %[[F3:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 3, 0]
//   CHECK-DAG:   llvm.store %[[D]], %[[F3]]
//       CHECK:   llvm.return{{$}}
llvm.func @entry(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %d: i64, %e: i64)
    -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {
  %0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %1 = llvm.insertvalue %a, %0[0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %2 = llvm.insertvalue %b, %1[1] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %3 = llvm.insertvalue %c, %2[2] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %4 = llvm.insertvalue %d, %3[3, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  %5 = llvm.insertvalue %e, %4[4, 0] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
  llvm.return %5 : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
}

// -----

// Two results, a struct of descriptors: the first is a fresh buffer (-1),
// the second argument 0's. A field inserted twice keeps its last value.

// CHECK-LABEL: llvm.func @entry
//  CHECK-SAME:   (%[[A:.*]]: !llvm.ptr, %[[N:.*]]: i64, %[[OUT:.*]]: !llvm.ptr)
//  CHECK-SAME:   attributes {nd.result_buffers = array<i64: -1, 0>}
//       CHECK:   %[[FRESH:.*]] = llvm.call @alloc(%[[N]])
//       CHECK:   %[[G0:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 0]
//       CHECK:   llvm.store %{{.*}}, %[[G0]] : !llvm.struct<(ptr, ptr, i64)>, !llvm.ptr
//       CHECK:   %[[G1:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 1]
//       CHECK:   llvm.store %{{.*}}, %[[G1]] : !llvm.struct<(ptr, ptr, i64)>, !llvm.ptr
//       CHECK:   %[[G2:.*]] = llvm.getelementptr inbounds %[[OUT]][0, 1, 2]
//       CHECK:   llvm.store %[[N]], %[[G2]] : i64, !llvm.ptr
//       CHECK:   llvm.return{{$}}
llvm.func @alloc(i64) -> !llvm.ptr
llvm.func @entry(%a: !llvm.ptr, %n: i64)
    -> !llvm.struct<(struct<(ptr, ptr, i64)>, struct<(ptr, ptr, i64)>)> {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %fresh = llvm.call @alloc(%n) : (i64) -> !llvm.ptr
  %d0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
  %d1 = llvm.insertvalue %fresh, %d0[0] : !llvm.struct<(ptr, ptr, i64)>
  %d2 = llvm.insertvalue %fresh, %d1[1] : !llvm.struct<(ptr, ptr, i64)>
  %d3 = llvm.insertvalue %zero, %d2[2] : !llvm.struct<(ptr, ptr, i64)>
  %e1 = llvm.insertvalue %a, %d0[0] : !llvm.struct<(ptr, ptr, i64)>
  %e2 = llvm.insertvalue %a, %e1[1] : !llvm.struct<(ptr, ptr, i64)>
  %e3 = llvm.insertvalue %zero, %e2[2] : !llvm.struct<(ptr, ptr, i64)>
  %r0 = llvm.mlir.poison : !llvm.struct<(struct<(ptr, ptr, i64)>, struct<(ptr, ptr, i64)>)>
  %r1 = llvm.insertvalue %d3, %r0[0] : !llvm.struct<(struct<(ptr, ptr, i64)>, struct<(ptr, ptr, i64)>)>
  %r2 = llvm.insertvalue %e3, %r1[1] : !llvm.struct<(struct<(ptr, ptr, i64)>, struct<(ptr, ptr, i64)>)>
  %r3 = llvm.insertvalue %n, %r2[1, 2] : !llvm.struct<(struct<(ptr, ptr, i64)>, struct<(ptr, ptr, i64)>)>
  llvm.return %r3 : !llvm.struct<(struct<(ptr, ptr, i64)>, struct<(ptr, ptr, i64)>)>
}

// -----

// A function of the module that calls the entry (mlir-runner's @main) calls
// an adapter of the entry's original type instead, which passes a stack slot
// and loads the results from it.

// CHECK-LABEL: llvm.func @main
//       CHECK:   %[[R:.*]] = llvm.call @entry_by_value(%{{.*}}) : (!llvm.ptr) -> !llvm.struct<(ptr, ptr, i64)>
//       CHECK:   llvm.return %[[R]]
//       CHECK: llvm.func private @entry_by_value
//  CHECK-SAME:   (%[[X:.*]]: !llvm.ptr) -> !llvm.struct<(ptr, ptr, i64)>
//       CHECK:   %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(ptr, ptr, i64)>
//       CHECK:   llvm.call @entry(%[[X]], %[[SLOT]]) : (!llvm.ptr, !llvm.ptr) -> ()
//       CHECK:   %[[V:.*]] = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.struct<(ptr, ptr, i64)>
//       CHECK:   llvm.return %[[V]]
// CHECK-LABEL: llvm.func @entry
//  CHECK-SAME:   (%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
//  CHECK-SAME:   attributes {nd.result_buffers = array<i64: 0>}
llvm.func @main(%x: !llvm.ptr) -> !llvm.struct<(ptr, ptr, i64)> {
  %r = llvm.call @entry(%x) : (!llvm.ptr) -> !llvm.struct<(ptr, ptr, i64)>
  llvm.return %r : !llvm.struct<(ptr, ptr, i64)>
}
llvm.func @entry(%a: !llvm.ptr) -> !llvm.struct<(ptr, ptr, i64)> {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %d0 = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
  %d1 = llvm.insertvalue %a, %d0[0] : !llvm.struct<(ptr, ptr, i64)>
  %d2 = llvm.insertvalue %a, %d1[1] : !llvm.struct<(ptr, ptr, i64)>
  %d3 = llvm.insertvalue %zero, %d2[2] : !llvm.struct<(ptr, ptr, i64)>
  llvm.return %d3 : !llvm.struct<(ptr, ptr, i64)>
}

// -----

// An entry without results is left as it is.

// CHECK-LABEL: llvm.func @entry()
//  CHECK-SAME:   attributes {nd.result_buffers = array<i64>}
//       CHECK:   llvm.return{{$}}
llvm.func @entry() {
  llvm.return
}
