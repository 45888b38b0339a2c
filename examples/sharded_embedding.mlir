// An embedding lookup on a vocabulary-sharded table, run on 2 MPI processes.
//
// The table has one row per token of the vocabulary; `nd.gather_nd` with
// index tuples of one component reads the rows of the given tokens (ONNX
// GatherND; a negative id counts from the end). Split by rows across the
// processes, each process holds a contiguous part of the vocabulary: it
// shifts the ids into its part, reads its rows (the other ids read zeros
// through `oob<skip>`), and an all-reduce or-s the bits of the processes'
// results together. The result is replicated and equal, bit for bit, to the
// single-process lookup (-0.0 included).
//
//   build/bin/nd-opt examples/sharded_embedding.mlir --nd-sharded-to-llvm -o embedding.mlir
//   mpiexec.mpich -n 2 /usr/lib/llvm-22/bin/mlir-runner embedding.mlir -e main \
//     -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/x86_64-linux-gnu/libmpich.so
//
// The grid's shape is the number of processes (`shape = 4` runs on 4, two
// rows each). Process 0 prints the looked-up rows and the number of elements
// whose bits differ from the single-process result (0).

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)

  // The table is split by rows (dim 0); the ids and the result are
  // replicated.
  func.func @lookup_sharded(%table: tensor<8x4xf32>, %ids: tensor<5x1xi64>)
      -> tensor<5x4xf32> {
    %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %t = shard.shard %table to %all : tensor<8x4xf32>
    %i = shard.shard %ids to %all : tensor<5x1xi64>
    %by_rows = shard.shard %t to %rows annotate_for_users : tensor<8x4xf32>
    %embedded = nd.gather_nd %by_rows[%i]
        : tensor<8x4xf32>, tensor<5x1xi64> -> tensor<5x4xf32>
    %result = shard.shard %embedded to %all : tensor<5x4xf32>
    return %result : tensor<5x4xf32>
  }

  // The same lookup on one process.
  func.func @lookup(%table: tensor<8x4xf32>, %ids: tensor<5x1xi64>)
      -> tensor<5x4xf32> {
    %embedded = nd.gather_nd %table[%ids]
        : tensor<8x4xf32>, tensor<5x1xi64> -> tensor<5x4xf32>
    return %embedded : tensor<5x4xf32>
  }

  func.func @count_different_bits(%a: tensor<5x4xf32>, %b: tensor<5x4xf32>)
      -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i, j) -> (i, j)>,
                         affine_map<(i, j) -> (i, j)>,
                         affine_map<(i, j) -> ()>],
        iterator_types = ["reduction", "reduction"]}
        ins(%a, %b : tensor<5x4xf32>, tensor<5x4xf32>)
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
    // table[v, c] = v + c / 4, except table[5, 0] = -0.0.
    %table = arith.constant dense<[
      [0.0, 0.25, 0.5, 0.75], [1.0, 1.25, 1.5, 1.75],
      [2.0, 2.25, 2.5, 2.75], [3.0, 3.25, 3.5, 3.75],
      [4.0, 4.25, 4.5, 4.75], [-0.0, 5.25, 5.5, 5.75],
      [6.0, 6.25, 6.5, 6.75], [7.0, 7.25, 7.5, 7.75]]> : tensor<8x4xf32>
    // Token 5 twice, and -1: the last token, 7.
    %ids = arith.constant dense<[[5], [0], [-1], [3], [5]]> : tensor<5x1xi64>

    %sharded = call @lookup_sharded(%table, %ids)
        : (tensor<8x4xf32>, tensor<5x1xi64>) -> tensor<5x4xf32>
    %single = call @lookup(%table, %ids)
        : (tensor<8x4xf32>, tensor<5x1xi64>) -> tensor<5x4xf32>
    %different = call @count_different_bits(%sharded, %single)
        : (tensor<5x4xf32>, tensor<5x4xf32>) -> i64

    %world = mpi.comm_world : !mpi.comm
    %retval, %rank = mpi.comm_rank(%world) : !mpi.retval, i32
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %rank, %c0 : i32
    scf.if %first {
      %printable = tensor.cast %sharded : tensor<5x4xf32> to tensor<*xf32>
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
