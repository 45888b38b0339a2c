// REQUIRES: mpich
// Scatter-adds whose updates are split across the processes: each process
// adds its updates (process 0 into the data, the others into -0.0 or 0),
// and an all-reduce sums the processes' results. The values are small
// integers, so every order of the float additions gives the same sums and
// the results equal the single-process ones bit for bit; a -0.0 that no
// update reaches stays -0.0.
// RUN: nd-opt %s --nd-sharded-to-llvm -o %t.2.mlir
// RUN: %mpiexec -n 2 mlir-runner %t.2.mlir -e main -entry-point-result=void -shared-libs=%mpi_shared_libs | FileCheck %s
// RUN: sed 's/shape = 2/shape = 4/' %s | nd-opt --nd-sharded-to-llvm -o %t.4.mlir
// RUN: %mpiexec -n 4 mlir-runner %t.4.mlir -e main -entry-point-result=void -shared-libs=%mpi_shared_libs | FileCheck %s

// data [10, 20, -0.0, 40, 50] plus updates 1..8 at ids [0, 1, 4, 1, -1, 0, 3, 0]:
// 0: 10 + 1 + 6 + 8; 1: 20 + 2 + 4; 2: untouched; 3: 40 + 7; 4: 50 + 3 + 5.
// CHECK: Unranked Memref {{.*}} sizes = [5]
// CHECK-NEXT: [25, 26, -0, 47, 58]
// CHECK-NEXT: {{^0$}}
// The same in i32, where the data's 2 is 0.
// CHECK: Unranked Memref {{.*}} sizes = [5]
// CHECK-NEXT: [25, 26, 0, 47, 58]
// CHECK-NEXT: {{^0$}}

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)

  func.func @add_sharded(%data: tensor<5xf32>, %ids: tensor<8x1xi64>, %updates: tensor<8xf32>) -> tensor<5xf32> {
    %entries = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %d = shard.shard %data to %all : tensor<5xf32>
    %i0 = shard.shard %ids to %all : tensor<8x1xi64>
    %u0 = shard.shard %updates to %all : tensor<8xf32>
    %u = shard.shard %u0 to %entries annotate_for_users : tensor<8xf32>
    %r = nd.scatter_nd %d[%i0], %u reduction<add> : tensor<5xf32>, tensor<8x1xi64>, tensor<8xf32>
    %o = shard.shard %r to %all : tensor<5xf32>
    return %o : tensor<5xf32>
  }

  func.func @add(%data: tensor<5xf32>, %ids: tensor<8x1xi64>, %updates: tensor<8xf32>) -> tensor<5xf32> {
    %r = nd.scatter_nd %data[%ids], %updates reduction<add> : tensor<5xf32>, tensor<8x1xi64>, tensor<8xf32>
    return %r : tensor<5xf32>
  }

  func.func @add_i32_sharded(%data: tensor<5xi32>, %ids: tensor<8x1xi64>, %updates: tensor<8xi32>) -> tensor<5xi32> {
    %entries = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %d = shard.shard %data to %all : tensor<5xi32>
    %i0 = shard.shard %ids to %all : tensor<8x1xi64>
    %i = shard.shard %i0 to %entries annotate_for_users : tensor<8x1xi64>
    %u = shard.shard %updates to %all : tensor<8xi32>
    %r = nd.scatter_nd %d[%i], %u reduction<add> : tensor<5xi32>, tensor<8x1xi64>, tensor<8xi32>
    %o = shard.shard %r to %all : tensor<5xi32>
    return %o : tensor<5xi32>
  }

  func.func @add_i32(%data: tensor<5xi32>, %ids: tensor<8x1xi64>, %updates: tensor<8xi32>) -> tensor<5xi32> {
    %r = nd.scatter_nd %data[%ids], %updates reduction<add> : tensor<5xi32>, tensor<8x1xi64>, tensor<8xi32>
    return %r : tensor<5xi32>
  }

  func.func @count_different_bits(%a: tensor<5xf32>, %b: tensor<5xf32>) -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
        iterator_types = ["reduction"]}
        ins(%a, %b : tensor<5xf32>, tensor<5xf32>) outs(%init : tensor<i64>) {
    ^bb0(%x: f32, %y: f32, %n: i64):
      %xb = arith.bitcast %x : f32 to i32
      %yb = arith.bitcast %y : f32 to i32
      %differ = arith.cmpi ne, %xb, %yb : i32
      %one = arith.extui %differ : i1 to i64
      %sum = arith.addi %n, %one : i64
      linalg.yield %sum : i64
    } -> tensor<i64>
    %result = tensor.extract %count[] : tensor<i64>
    return %result : i64
  }

  func.func @count_different(%a: tensor<5xi32>, %b: tensor<5xi32>) -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> ()>],
        iterator_types = ["reduction"]}
        ins(%a, %b : tensor<5xi32>, tensor<5xi32>) outs(%init : tensor<i64>) {
    ^bb0(%x: i32, %y: i32, %n: i64):
      %differ = arith.cmpi ne, %x, %y : i32
      %one = arith.extui %differ : i1 to i64
      %sum = arith.addi %n, %one : i64
      linalg.yield %sum : i64
    } -> tensor<i64>
    %result = tensor.extract %count[] : tensor<i64>
    return %result : i64
  }

  func.func @main() {
    mpi.init
    %data = arith.constant dense<[10.0, 20.0, -0.0, 40.0, 50.0]> : tensor<5xf32>
    %ids = arith.constant dense<[[0], [1], [4], [1], [-1], [0], [3], [0]]> : tensor<8x1xi64>
    %updates = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>
    %sharded = call @add_sharded(%data, %ids, %updates) : (tensor<5xf32>, tensor<8x1xi64>, tensor<8xf32>) -> tensor<5xf32>
    %single = call @add(%data, %ids, %updates) : (tensor<5xf32>, tensor<8x1xi64>, tensor<8xf32>) -> tensor<5xf32>
    %different = call @count_different_bits(%sharded, %single) : (tensor<5xf32>, tensor<5xf32>) -> i64

    %idata = arith.constant dense<[10, 20, 0, 40, 50]> : tensor<5xi32>
    %iupdates = arith.constant dense<[1, 2, 3, 4, 5, 6, 7, 8]> : tensor<8xi32>
    %isharded = call @add_i32_sharded(%idata, %ids, %iupdates) : (tensor<5xi32>, tensor<8x1xi64>, tensor<8xi32>) -> tensor<5xi32>
    %isingle = call @add_i32(%idata, %ids, %iupdates) : (tensor<5xi32>, tensor<8x1xi64>, tensor<8xi32>) -> tensor<5xi32>
    %idifferent = call @count_different(%isharded, %isingle) : (tensor<5xi32>, tensor<5xi32>) -> i64

    %world = mpi.comm_world : !mpi.comm
    %retval, %rank = mpi.comm_rank(%world) : !mpi.retval, i32
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %rank, %c0 : i32
    scf.if %first {
      %p = tensor.cast %sharded : tensor<5xf32> to tensor<*xf32>
      func.call @printMemrefF32(%p) : (tensor<*xf32>) -> ()
      func.call @printI64(%different) : (i64) -> ()
      func.call @printNewline() : () -> ()
      %ip = tensor.cast %isharded : tensor<5xi32> to tensor<*xi32>
      func.call @printMemrefI32(%ip) : (tensor<*xi32>) -> ()
      func.call @printI64(%idifferent) : (i64) -> ()
      func.call @printNewline() : () -> ()
    }
    mpi.finalize
    return
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func private @printMemrefI32(tensor<*xi32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
}
