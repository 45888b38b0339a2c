// RUN: nd-opt %s --nd-partition -split-input-file -verify-diagnostics | FileCheck %s
// RUN: nd-opt %s --nd-partition="check-process-count=false" -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=NO-CHECK

// --nd-partition propagates and partitions the functions with sharding
// annotations and leaves the others, which upstream's passes reject
// (a `main` with MPI calls, function declarations, calls).

shard.grid @grid(shape = 2)

// A partitioned function first checks that the 2 processes of its grid run
// it: each one contributes a 1 to an all-reduce over the whole grid, and
// another sum is reported through nd's run-time error report (which ends the
// process under mlir-runner), not an assertion (which aborts it).
// CHECK-LABEL: func.func @sharded(
// CHECK-NEXT: %[[ONE:.*]] = arith.constant dense<1> : tensor<1xi32>
// CHECK-NEXT: %[[COUNT:.*]] = shard.all_reduce %[[ONE]] on @grid grid_axes = [0] : tensor<1xi32> -> tensor<1xi32>
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[N:.*]] = tensor.extract %[[COUNT]][%[[C0]]] : tensor<1xi32>
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i32
// CHECK-NEXT: %[[DIFFERS:.*]] = arith.cmpi ne, %[[N]], %[[C2]] : i32
// CHECK-NEXT: scf.if %[[DIFFERS]] {
// CHECK-NEXT:   %[[GOT:.*]] = arith.extsi %[[N]] : i32 to i64
// CHECK-NEXT:   %[[WANT:.*]] = arith.constant 2 : i64
// CHECK-NEXT:   nd_rt.report "@sharded is partitioned for the 2 processes of grid @grid, but a different number runs it" (%[[GOT]], %[[WANT]])
// CHECK-NEXT: }
// CHECK-NOT: cf.assert
// CHECK: shard.all_slice
// NO-CHECK-NOT: nd_rt.report
// NO-CHECK-LABEL: func.func @sharded(
// NO-CHECK-NOT: nd_rt.report
// NO-CHECK: shard.all_slice
func.func @sharded(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>) -> tensor<6x4xf32> {
  %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %t = shard.shard %table to %all : tensor<8x4xf32>
  %i = shard.shard %ids to %all : tensor<6x1xi64>
  %i1 = shard.shard %i to %split annotate_for_users : tensor<6x1xi64>
  %r = nd.gather_nd %t[%i1] : tensor<8x4xf32>, tensor<6x1xi64> -> tensor<6x4xf32>
  %o = shard.shard %r to %all : tensor<6x4xf32>
  return %o : tensor<6x4xf32>
}

// The others are left as they are.
// CHECK-LABEL: func.func @unsharded(
// CHECK-NEXT: nd.gather_nd %{{.*}} : tensor<8x4xf32>, tensor<6x1xi64> -> tensor<6x4xf32>
// CHECK-NEXT: return
func.func @unsharded(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>) -> tensor<6x4xf32> {
  %r = nd.gather_nd %table[%ids] : tensor<8x4xf32>, tensor<6x1xi64> -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}

// CHECK-LABEL: func.func @main(
// CHECK-NEXT: mpi.init
// CHECK-NEXT: call @sharded
// CHECK-NEXT: call @unsharded
// CHECK-NEXT: tensor.cast
// CHECK-NEXT: call @printMemrefF32
// CHECK-NEXT: mpi.finalize
func.func @main(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>) {
  mpi.init
  %a = call @sharded(%table, %ids) : (tensor<8x4xf32>, tensor<6x1xi64>) -> tensor<6x4xf32>
  %b = call @unsharded(%table, %ids) : (tensor<8x4xf32>, tensor<6x1xi64>) -> tensor<6x4xf32>
  %u = tensor.cast %a : tensor<6x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  mpi.finalize
  return
}

// CHECK: func.func private @printMemrefF32(tensor<*xf32>)
func.func private @printMemrefF32(tensor<*xf32>)

// -----

shard.grid @grid(shape = 2)

// Partitioning makes @split take the process's rows of the table: a caller
// passing the whole table would be wrong.
// expected-error @below {{partitioning changed the type of @split from '(tensor<8x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>' to '(tensor<4x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>', but it is called: a sharded function called from unsharded code takes and returns replicated tensors (annotate its arguments and results with split_axes = [[]])}}
func.func @split(%table: tensor<8x4xf32>, %ids: tensor<3x1xi64>) -> tensor<3x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %t = shard.shard %table to %rows : tensor<8x4xf32>
  %t1 = shard.shard %t to %rows annotate_for_users : tensor<8x4xf32>
  %r = nd.gather_nd %t1[%ids] oob<skip> : tensor<8x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @caller(%table: tensor<8x4xf32>, %ids: tensor<3x1xi64>) -> tensor<3x4xf32> {
  // expected-note @below {{called here}}
  %r = call @split(%table, %ids) : (tensor<8x4xf32>, tensor<3x1xi64>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
