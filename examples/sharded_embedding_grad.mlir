// The gradient of an embedding: a ScatterND add into a row-sharded table,
// run on 2 MPI processes.
//
// `nd.scatter_nd ... reduction<add>` adds each token's gradient row into the
// table's row of that token (ONNX ScatterND, reduction "add"; repeated tokens
// add up, in the order of the ids). Split by rows across the processes, each
// process shifts the ids into its part of the vocabulary and adds exactly the
// gradients that land in its rows, in their original order (the others are
// dropped through `oob<skip>`). There is no communication, and the result is
// the single-process result bit for bit, even where the order of the
// additions matters: row 1 gets 1 + 1e8 - 1e8, which is 0 in f32 in this
// order (1 + 1e8 rounds to 1e8) and 1 in another.
//
//   build/bin/nd-opt examples/sharded_embedding_grad.mlir --nd-sharded-to-llvm -o grad.mlir
//   mpiexec.mpich -n 2 /usr/lib/llvm-22/bin/mlir-runner grad.mlir -e main \
//     -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/x86_64-linux-gnu/libmpich.so
//
// The grid's shape is the number of processes (`shape = 4` runs on 4, two
// rows each). Process 0 prints the table (gathered from the processes' rows)
// and the number of elements whose bits differ from the single-process
// result (0).

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)

  // The table is split by rows (dim 0) for the update; the ids and the
  // gradients are replicated. The function returns the table replicated.
  func.func @accumulate_sharded(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>,
                                %grads: tensor<6x4xf32>) -> tensor<8x4xf32> {
    %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %t = shard.shard %table to %all : tensor<8x4xf32>
    %i = shard.shard %ids to %all : tensor<6x1xi64>
    %g = shard.shard %grads to %all : tensor<6x4xf32>
    %by_rows = shard.shard %t to %rows annotate_for_users : tensor<8x4xf32>
    %sum = nd.scatter_nd %by_rows[%i], %g reduction<add>
        : tensor<8x4xf32>, tensor<6x1xi64>, tensor<6x4xf32>
    %r = shard.shard %sum to %rows : tensor<8x4xf32>
    %result = shard.shard %r to %all annotate_for_users : tensor<8x4xf32>
    return %result : tensor<8x4xf32>
  }

  // The same update on one process.
  func.func @accumulate(%table: tensor<8x4xf32>, %ids: tensor<6x1xi64>,
                        %grads: tensor<6x4xf32>) -> tensor<8x4xf32> {
    %sum = nd.scatter_nd %table[%ids], %grads reduction<add>
        : tensor<8x4xf32>, tensor<6x1xi64>, tensor<6x4xf32>
    return %sum : tensor<8x4xf32>
  }

  func.func @count_different_bits(%a: tensor<8x4xf32>, %b: tensor<8x4xf32>)
      -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i, j) -> (i, j)>,
                         affine_map<(i, j) -> (i, j)>,
                         affine_map<(i, j) -> ()>],
        iterator_types = ["reduction", "reduction"]}
        ins(%a, %b : tensor<8x4xf32>, tensor<8x4xf32>)
        outs(%init : tensor<i64>) {
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

  func.func @main() {
    mpi.init
    // table[v, c] = v
    %table = arith.constant dense<[
      [0.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0],
      [2.0, 2.0, 2.0, 2.0], [3.0, 3.0, 3.0, 3.0],
      [4.0, 4.0, 4.0, 4.0], [5.0, 5.0, 5.0, 5.0],
      [6.0, 6.0, 6.0, 6.0], [7.0, 7.0, 7.0, 7.0]]> : tensor<8x4xf32>
    // Tokens 1 and 4 twice; -1 is the last token, 7.
    %ids = arith.constant dense<[[1], [4], [1], [-1], [6], [4]]> : tensor<6x1xi64>
    %grads = arith.constant dense<[
      [1.0e+08, 0.5, 0.5, 0.5], [1.0, 1.0, 1.0, 1.0],
      [-1.0e+08, 0.25, 0.25, 0.25], [2.0, 2.0, 2.0, 2.0],
      [3.0, 3.0, 3.0, 3.0], [0.5, 0.5, 0.5, 0.5]]> : tensor<6x4xf32>

    %sharded = call @accumulate_sharded(%table, %ids, %grads)
        : (tensor<8x4xf32>, tensor<6x1xi64>, tensor<6x4xf32>) -> tensor<8x4xf32>
    %single = call @accumulate(%table, %ids, %grads)
        : (tensor<8x4xf32>, tensor<6x1xi64>, tensor<6x4xf32>) -> tensor<8x4xf32>
    %different = call @count_different_bits(%sharded, %single)
        : (tensor<8x4xf32>, tensor<8x4xf32>) -> i64

    %world = mpi.comm_world : !mpi.comm
    %retval, %rank = mpi.comm_rank(%world) : !mpi.retval, i32
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %rank, %c0 : i32
    scf.if %first {
      %printable = tensor.cast %sharded : tensor<8x4xf32> to tensor<*xf32>
      func.call @printMemrefF32(%printable) : (tensor<*xf32>) -> ()
      func.call @printI64(%different) : (i64) -> ()
      func.call @printNewline() : () -> ()
    }
    mpi.finalize
    return
  }

  func.func private @printMemrefF32(tensor<*xf32>)
  func.func private @printI64(i64)
  func.func private @printNewline()
}
