// REQUIRES: mpich
// A program of upstream ops only (linalg, shard, mpi), lowered with
// nd-sharded-to-llvm: upstream's sharding-propagation, shard-partition and
// convert-shard-to-mpi, with nd's bridges where MLIR 22 stops short
// (the annotated functions only; all_slice and all_gather; the MPI ops'
// memory effects; what mlir-runner cannot parse). It runs under MPICH with
// 2 processes and, with the grid's shape edited, with 4.
// RUN: nd-opt %s --nd-sharded-to-llvm -o %t.2.mlir
// RUN: %mpiexec -n 2 mlir-runner %t.2.mlir -e main -entry-point-result=void -shared-libs=%mpi_shared_libs | FileCheck %s
// RUN: sed 's/shape = 2/shape = 4/' %s | nd-opt --nd-sharded-to-llvm -o %t.4.mlir
// RUN: %mpiexec -n 4 mlir-runner %t.4.mlir -e main -entry-point-result=void -shared-libs=%mpi_shared_libs | FileCheck %s

// 1 + 2 + 3 + 4
// CHECK: Unranked Memref {{.*}} rank = 0
// CHECK-NEXT: [10]
// CHECK: Unranked Memref {{.*}} sizes = [4]
// CHECK-NEXT: [2, 4, 6, 8]
// CHECK-NOT: Unranked Memref

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)

  // Partial sums of the process's part, then an all-reduce.
  func.func @sum(%x: tensor<4xf32>) -> tensor<f32> {
    %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %x0 = shard.shard %x to %all : tensor<4xf32>
    %a = shard.shard %x0 to %split annotate_for_users : tensor<4xf32>
    %zero = arith.constant 0.0 : f32
    %e = tensor.empty() : tensor<f32>
    %init = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
    %sum = linalg.reduce ins(%a : tensor<4xf32>) outs(%init : tensor<f32>) dimensions = [0]
      (%in: f32, %acc: f32) {
        %s = arith.addf %in, %acc : f32
        linalg.yield %s : f32
      }
    %r = shard.shard %sum to %all : tensor<f32>
    return %r : tensor<f32>
  }

  // The process's part doubled, gathered back.
  func.func @double(%x: tensor<4xf32>) -> tensor<4xf32> {
    %split = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %x0 = shard.shard %x to %all : tensor<4xf32>
    %a = shard.shard %x0 to %split annotate_for_users : tensor<4xf32>
    %e = tensor.empty() : tensor<4xf32>
    %y = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %b = shard.shard %y to %split : tensor<4xf32>
    %c = shard.shard %b to %all annotate_for_users : tensor<4xf32>
    return %c : tensor<4xf32>
  }

  func.func @main() {
    mpi.init
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
    %s = call @sum(%x) : (tensor<4xf32>) -> tensor<f32>
    %d = call @double(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %world = mpi.comm_world : !mpi.comm
    %retval, %rank = mpi.comm_rank(%world) : !mpi.retval, i32
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %rank, %c0 : i32
    scf.if %first {
      %ps = tensor.cast %s : tensor<f32> to tensor<*xf32>
      func.call @printMemrefF32(%ps) : (tensor<*xf32>) -> ()
      %pd = tensor.cast %d : tensor<4xf32> to tensor<*xf32>
      func.call @printMemrefF32(%pd) : (tensor<*xf32>) -> ()
    }
    mpi.finalize
    return
  }

  func.func private @printMemrefF32(tensor<*xf32>)
}
