// A KV-cache update sharded by attention heads, run on 2 MPI processes.
//
// The cache has the layout (batch, sequence, heads, head_dim); the update
// writes one new token per batch entry at a position of its own (the last
// one, -1, for entry 0; position 0 for entry 1). `nd.scatter_nd` addresses
// (batch, position) with its index tuples and writes (heads, head_dim)
// slices, so splitting the heads across processes splits the slices: each
// process writes its heads of the new tokens into its heads of the cache,
// with the same indices and no communication.
//
//   build/bin/nd-opt examples/sharded_kv_cache.mlir --nd-sharded-to-llvm -o kv.mlir
//   mpiexec.mpich -n 2 /usr/lib/llvm-22/bin/mlir-runner kv.mlir -e main \
//     -entry-point-result=void -shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/x86_64-linux-gnu/libmpich.so
//
// The grid's shape is the number of processes (`shape = 4` runs on 4, one
// head each). Process 0 prints the sharded result and the number of elements
// whose bits differ from the single-process result (0).

module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  shard.grid @grid(shape = 2)

  // The cache is split by heads (dim 2); the function takes and returns
  // replicated tensors so that unsharded code can call it. A model that keeps
  // its cache sharded between steps annotates its arguments with the heads
  // sharding instead.
  func.func @append_sharded(%cache: tensor<2x3x4x2xf32>,
                            %positions: tensor<2x1x2xi64>,
                            %new: tensor<2x1x4x2xf32>) -> tensor<2x3x4x2xf32> {
    %heads = shard.sharding @grid split_axes = [[], [], [0]] : !shard.sharding
    %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
    %c = shard.shard %cache to %all : tensor<2x3x4x2xf32>
    %p = shard.shard %positions to %all : tensor<2x1x2xi64>
    %n = shard.shard %new to %all : tensor<2x1x4x2xf32>
    %by_heads = shard.shard %c to %heads annotate_for_users : tensor<2x3x4x2xf32>
    %updated = nd.scatter_nd %by_heads[%p], %n
        : tensor<2x3x4x2xf32>, tensor<2x1x2xi64>, tensor<2x1x4x2xf32>
    %r = shard.shard %updated to %heads : tensor<2x3x4x2xf32>
    %result = shard.shard %r to %all annotate_for_users : tensor<2x3x4x2xf32>
    return %result : tensor<2x3x4x2xf32>
  }

  // The same update on one process.
  func.func @append(%cache: tensor<2x3x4x2xf32>, %positions: tensor<2x1x2xi64>,
                    %new: tensor<2x1x4x2xf32>) -> tensor<2x3x4x2xf32> {
    %updated = nd.scatter_nd %cache[%positions], %new
        : tensor<2x3x4x2xf32>, tensor<2x1x2xi64>, tensor<2x1x4x2xf32>
    return %updated : tensor<2x3x4x2xf32>
  }

  func.func @count_different_bits(%a: tensor<2x3x4x2xf32>,
                                  %b: tensor<2x3x4x2xf32>) -> i64 {
    %zero = arith.constant 0 : i64
    %empty = tensor.empty() : tensor<i64>
    %init = linalg.fill ins(%zero : i64) outs(%empty : tensor<i64>) -> tensor<i64>
    %count = linalg.generic {
        indexing_maps = [affine_map<(i, j, k, l) -> (i, j, k, l)>,
                         affine_map<(i, j, k, l) -> (i, j, k, l)>,
                         affine_map<(i, j, k, l) -> ()>],
        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
        ins(%a, %b : tensor<2x3x4x2xf32>, tensor<2x3x4x2xf32>)
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
    // cache[b, s, h, d] = 100 b + 10 s + h + d / 2
    %cache = arith.constant dense<[
      [[[0.0, 0.5], [1.0, 1.5], [2.0, 2.5], [3.0, 3.5]],
       [[10.0, 10.5], [11.0, 11.5], [12.0, 12.5], [13.0, 13.5]],
       [[20.0, 20.5], [21.0, 21.5], [22.0, 22.5], [23.0, 23.5]]],
      [[[100.0, 100.5], [101.0, 101.5], [102.0, 102.5], [103.0, 103.5]],
       [[110.0, 110.5], [111.0, 111.5], [112.0, 112.5], [113.0, 113.5]],
       [[120.0, 120.5], [121.0, 121.5], [122.0, 122.5], [123.0, 123.5]]]]>
        : tensor<2x3x4x2xf32>
    // (batch, position): entry 0 at the last position, entry 1 at 0.
    %positions = arith.constant dense<[[[0, -1]], [[1, 0]]]> : tensor<2x1x2xi64>
    // new[b, 0, h, d] = -(1 + h + d / 2) - 10 b
    %new = arith.constant dense<[
      [[[-1.0, -1.5], [-2.0, -2.5], [-3.0, -3.5], [-4.0, -4.5]]],
      [[[-11.0, -11.5], [-12.0, -12.5], [-13.0, -13.5], [-14.0, -14.5]]]]>
        : tensor<2x1x4x2xf32>

    %sharded = call @append_sharded(%cache, %positions, %new)
        : (tensor<2x3x4x2xf32>, tensor<2x1x2xi64>, tensor<2x1x4x2xf32>)
        -> tensor<2x3x4x2xf32>
    %single = call @append(%cache, %positions, %new)
        : (tensor<2x3x4x2xf32>, tensor<2x1x2xi64>, tensor<2x1x4x2xf32>)
        -> tensor<2x3x4x2xf32>
    %different = call @count_different_bits(%sharded, %single)
        : (tensor<2x3x4x2xf32>, tensor<2x3x4x2xf32>) -> i64

    %world = mpi.comm_world : !mpi.comm
    %retval, %rank = mpi.comm_rank(%world) : !mpi.retval, i32
    %c0 = arith.constant 0 : i32
    %first = arith.cmpi eq, %rank, %c0 : i32
    scf.if %first {
      %printable = tensor.cast %sharded : tensor<2x3x4x2xf32> to tensor<*xf32>
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
