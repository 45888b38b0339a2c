//===- Passes.td - nd's transforms -------------------------*- tablegen -*-===//
//
// The passes that work on nd programs at the level of the dialect, before any
// conversion: donation and shared read buffers around one-shot bufferization,
// and the passes that take a program annotated with upstream `shard`
// shardings to SPMD code on MPI, where MLIR 22's own passes stop short (see
// docs/Rationale.md, "Sharded programs").
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_TRANSFORMS_PASSES_TD
#define ND_DIALECT_ND_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// Donation and read buffers around one-shot bufferization
//===----------------------------------------------------------------------===//

def NdDonation : Pass<"nd-donation", "ModuleOp"> {
  let summary = "Make public functions' tensor arguments read-only unless "
                "donated";
  let description = [{
    A compiled function never writes into a buffer its caller passed in
    unless the caller donated it. This pass runs before one-shot
    bufferization and sets `bufferization.writable = false` on every tensor
    argument of a public function, except the arguments marked `nd.donated`,
    which get `bufferization.writable = true`: bufferization then updates a
    donated argument in place (and may return its buffer as a result) and
    copies any other argument it would write. Arguments of private
    functions are left to bufferization's own analysis of their call sites.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def NdShareReadBuffers : Pass<"nd-share-read-buffers", "ModuleOp"> {
  let summary = "Read tensors that nothing writes through one buffer each";
  let description = [{
    Runs before one-shot bufferization, after `--nd-donation`. A tensor that
    nothing may write (a function argument with `bufferization.writable =
    false`, an `arith.constant`) is read by the nd ops through one
    `bufferization.to_buffer read_only` of it, made once where it is
    defined; a scatter whose destination is such a tensor updates a copy of
    that buffer (`memref.alloc` + `memref.copy`, seen as a new writable
    tensor), the copy bufferization would make anyway.

    Why: one-shot bufferization compares every use of a tensor with every
    other use of the tensors it may alias, so a tensor read by N ops costs
    time quadratic in N (3,000 gathers of one argument: 2.3 s, 10,000:
    minutes). Shared, the tensor has one use; what the analysis decides is
    unchanged (such a buffer is never written, and a write to it must be a
    copy). The ops read the shared buffer as an operand on buffers, which
    their form on tensors allows for the operands they only read.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect"];
}

def NdReturnDonated : Pass<"nd-return-donated", "ModuleOp"> {
  let summary = "Return donated buffers without cloning them";
  let description = [{
    Runs after the buffer deallocation pipeline, which clones every returned
    buffer the function does not own (a function argument, for one) so that
    the caller owns each result. A result that is the buffer of an argument
    marked `nd.donated` is returned as it is instead: the caller donated it
    and takes it back as the result (a `bufferization.clone` of the
    argument directly before `func.return` is removed). The `nd.donated`
    and `nd.dim_names` attributes are removed: nothing after this pass uses
    them (`nd-record-signature` records the names for an exported entry).
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

//===----------------------------------------------------------------------===//
// Sharded programs
//===----------------------------------------------------------------------===//

def NdPartition : Pass<"nd-partition", "ModuleOp"> {
  let summary = "Propagate shardings and partition the functions that carry "
                "them";
  let description = [{
    Runs upstream `sharding-propagation` and then `shard-partition` on every
    `func.func` whose body holds a `shard.shard` annotation, and leaves every
    other function as it is.

    The upstream passes run on every function of a module and fail on code
    that has nothing to do with sharding: `sharding-propagation` rejects any
    op without a `ShardingInterface` (a `func.call`, `mpi.init`, a call that
    prints) and any function declaration ("only one block is supported").
    A program that runs under MPI needs both next to its sharded functions: a
    `main` that initialises MPI, calls them and prints.

    With `check-process-count` (the default), each partitioned function that
    uses a grid first checks that the processes running it are as many as
    the grid has: a `shard.all_reduce` sums a 1 from every process and, when
    the sum differs, nd's run-time error report (`nd_rt.report`, see
    `--convert-nd-runtime-to-llvm`) names the function and the grid, before
    any data is exchanged; under mlir-runner, `libnd_runner_utils.so` prints
    the message and ends each process with status 1, and mpiexec ends with
    status 1 (an assertion would abort every process, each dumping a crash
    report). Run with another process count, the partitioned code would
    otherwise compute wrong results without an error (two processes taking
    the same shard, or a shard taken by none).

    A partitioned function takes and returns the shards of its sharded
    arguments and results. When such a function is called from the module,
    the pass fails with a message naming it and its caller: a sharded
    function called from unsharded code must take and return replicated
    tensors (annotate its arguments and results with `split_axes = [[]]`).

    Before (`shard.grid @grid(shape = 2)`):

    ```mlir
    func.func @lookup(%table: tensor<8x4xf32>, %ids: tensor<3xi64>)
        -> tensor<3x4xf32> {
      %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
      %all = shard.sharding @grid split_axes = [[]] : !shard.sharding
      %t = shard.shard %table to %all : tensor<8x4xf32>
      %s = shard.shard %t to %rows annotate_for_users : tensor<8x4xf32>
      %r = nd.gather %s[%ids] : tensor<8x4xf32>, tensor<3xi64> -> tensor<3x4xf32>
      return %r : tensor<3x4xf32>
    }
    func.func @main() { ... call @lookup ... call @printMemrefF32 ... }
    ```

    After: `@lookup` gathers from its half of the table (`tensor<4x4xf32>`,
    an `shard.all_slice` of the replicated table) and all-reduces; `@main`
    is unchanged.

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"), but for the process-count check, which is nd's own: retired
    once upstream's passes skip declarations (upstream main does since PR
    #185050, after the 22.x branch) and leave ops without a
    `ShardingInterface` unsharded instead of failing.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::nd::rt::NdRuntimeDialect"
  ];
  let options = [
    Option<"checkProcessCount", "check-process-count", "bool",
           /*default=*/"true",
           "Check at the entry of each partitioned function that the "
           "processes running it are as many as its grid has">
  ];
}

def NdLowerShardCollectives : Pass<"nd-lower-shard-collectives", "ModuleOp"> {
  let summary = "Lower the shard collectives that convert-shard-to-mpi of "
                "MLIR 22 does not convert";
  let description = [{
    `convert-shard-to-mpi` of MLIR 22 converts `shard.all_reduce`, the
    process index ops and halo updates, but not `shard.all_slice` and
    `shard.all_gather`, which `shard-partition` inserts whenever a value
    changes from replicated to split or back. This pass rewrites them into
    ops that it does convert:

    - `shard.all_slice` (replicated to split: no communication) becomes the
      process's `tensor.extract_slice`, with upstream's own patterns
      (`shard::populateAllSliceOpLoweringPatterns`);
    - `shard.all_gather` (split to replicated) becomes a `shard.all_reduce`
      with `bitwise_or` of a zero tensor of the gathered shape into which
      each process has inserted its shard: every element is written by
      exactly one process and or-ing zero bits leaves the others unchanged,
      so the result has the bits of the shards (floats are reinterpreted as
      integers of their width, `-0.0` and NaN payloads included). The
      gathered shape must be static and the element type an integer of 8,
      16, 32 or 64 bits or a float of 16, 32 or 64 bits (the types MLIR 22's
      MPI lowering maps to MPI); the pass reports any other and fails.

    The other collectives (`all_to_all`, `broadcast`, `gather`, `reduce`,
    `reduce_scatter`, `scatter`, `send`, `recv`, `shift`) have no MPI
    lowering in MLIR 22, and `convert-shard-to-mpi` leaves them in place
    without failing: this pass reports them and fails.

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"): upstream main's `convert-shard-to-mpi` converts `all_slice`
    and `all_gather` itself since PRs #176438 and #177202 (January 2026,
    after the 22.x branch), which should retire the rewrites with LLVM 23.

    Before:

    ```mlir
    %g = shard.all_gather %s on @grid grid_axes = [0] gather_axis = 0
        : tensor<2x4xf32> -> tensor<4x4xf32>
    ```

    After:

    ```mlir
    %bits = linalg.generic ... arith.bitcast ... -> tensor<2x4xi32>
    %zero = linalg.fill ins(%c0_i32 : i32) outs(%e : tensor<4x4xi32>) -> tensor<4x4xi32>
    %in = tensor.insert_slice %bits into %zero[%offset, 0] [2, 4] [1, 1]
    %or = shard.all_reduce %in on @grid grid_axes = [0] reduction = bitwise_or
        : tensor<4x4xi32> -> tensor<4x4xi32>
    %g = linalg.generic ... arith.bitcast ... -> tensor<4x4xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::cf::ControlFlowDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def NdStripShardMetadata : Pass<"nd-strip-shard-metadata", "ModuleOp"> {
  let summary = "Remove the grid declarations and the MPI implementation "
                "entry once every shard and MPI op is lowered";
  let description = [{
    After `convert-shard-to-mpi` and the conversion to LLVM, a module still
    holds its `shard.grid` declarations and the module attribute
    `dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">` that the MPI
    lowering reads. `mlir-runner` registers neither dialect and cannot parse
    the module. This pass erases every `shard.grid` that nothing refers to
    any more (one still used is reported, and the pass fails) and the
    `MPI:Implementation` entry of the module's `dlti.map` (the attribute
    itself when that was its only entry).

    A bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
    MLIR 22"): retired once `convert-shard-to-mpi` erases the grids nothing
    refers to and the MPI lowering does without the entry (upstream main's
    does since PR #178870, after the 22.x branch; nothing upstream erases
    the grids yet).
  }];
}

#endif // ND_DIALECT_ND_TRANSFORMS_PASSES_TD
