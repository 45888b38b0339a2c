//===- Passes.td - nd conversion passes --------------------*- tablegen -*-===//

#ifndef ND_CONVERSION_PASSES_TD
#define ND_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerScatter : Pass<"lower-scatter", "ModuleOp"> {
  let summary = "Lower the nd ops to parallel loops over buffers";
  let description = [{
    Rewrites every nd op into upstream dialects, keeping value semantics at
    the tensor level and moving the data in memref loops:

    - read-only operands are read through `bufferization.to_buffer
      read_only` as 1-D row-major buffers;
    - `nd.gather_nd` and `nd.gather_elements` allocate their result
      (`memref.alloc`, returned through `bufferization.to_tensor restrict
      writable`) and fill it from an `scf.parallel` over partitions of the
      index tuples (positions); each tuple is read and checked once and a
      slice moves as a row of vector loads and stores;
    - `nd.scatter_nd` and `nd.scatter_elements` update `data` inside an
      `scf.forall` whose `shared_outs` is `data`: each iteration owns a
      disjoint slice of the destination and hands it back with
      `tensor.parallel_insert_slice`, so one-shot bufferization updates
      `data` in place when it is dead afterwards (or donated) and copies it
      once otherwise. Wide ScatterND slices are split by column, each
      partition applying every entry to its columns; ScatterElements splits
      dim 0 (or the last dim when the axis is 0); point scatters, narrow
      slices and 1-D ScatterElements cut the destination into row ranges,
      bucket the entries by owner in a stable order (a parallel counting
      pass, a prefix sum and a parallel fill) and let each owner apply its
      entries.

    Every destination element receives its updates in row-major order of
    the update entries, so results are bit-identical for every thread
    count, floating-point reductions with duplicate indices included. The
    number of partitions is chosen at run time: one below `grain` element
    moves, otherwise at most the number of threads (`__nd_max_threads()`).

    Negative indices are normalised (`i + dim`). With `check-bounds` (the
    default) every index component and every dynamic dimension that the
    verifier could not check is checked at run time: a scatter checks
    everything before it writes anything, a gather checks each tuple as it
    reads it and never reads through a bad one. A failed check calls
    `__nd_report_error(a, b)` with the message (naming the op, its location,
    the operand, the offending value and the dimension) in the call's
    `nd.message` attribute, and the op writes nothing. `__nd_max_threads`
    and `__nd_report_error` are private function declarations;
    `--convert-nd-runtime-to-llvm` lowers them to the OpenMP runtime and to
    the host's `nd_report_error`.

    Before:

    ```mlir
    %r = nd.gather_elements %data[%indices] axis(1)
        : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
    ```

    After (`check-bounds=false`, abridged):

    ```mlir
    %d = bufferization.to_buffer %data read_only : ... to memref<2x2xf32>
    %df = memref.collapse_shape %d [[0, 1]] : ... into memref<4xf32>
    %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x2xf32>
    %r = bufferization.to_tensor %alloc restrict writable : ...
    %parts = ... call @__nd_max_threads() ...
    scf.parallel (%p) = (%c0) to (%parts) step (%c1) {
      // rows of the partition's positions: load, normalise, load, store
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect"
  ];
  let options = [
    Option<"checkBounds", "check-bounds", "bool", /*default=*/"true",
           "Check index values and dynamic shapes at run time; false drops "
           "the checks for callers that guarantee valid input">,
    Option<"grain", "grain", "int64_t", /*default=*/"32768",
           "Work (element moves) per partition below which an op does not "
           "split its work among threads">
  ];
}

//===----------------------------------------------------------------------===//
// Passes of the nd-to-llvm pipeline
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

def NdReturnDonated : Pass<"nd-return-donated", "ModuleOp"> {
  let summary = "Return donated buffers without cloning them";
  let description = [{
    Runs after the buffer deallocation pipeline, which clones every returned
    buffer the function does not own (a function argument, for one) so that
    the caller owns each result. A result that is the buffer of an argument
    marked `nd.donated` is returned as it is instead: the caller donated it
    and takes it back as the result (a `bufferization.clone` of the
    argument directly before `func.return` is removed). The `nd.donated`
    attributes are removed: nothing after this pass uses them.
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def NdParallelCopy : Pass<"nd-parallel-copy", "ModuleOp"> {
  let summary = "Copy large contiguous buffers with one memcpy per thread";
  let description = [{
    Rewrites `memref.copy` between identity-layout buffers into an `scf.if`
    on the size: a copy of at least twice `min-bytes` becomes an
    `scf.parallel` over as many contiguous byte ranges as there are threads
    (`__nd_max_threads()`, at most one range per `min-bytes`), each copied by
    one `llvm.intr.memcpy`; smaller copies stay as they are. Out-of-place
    scatters copy `data` this way. One large memcpy per thread lets the C
    library stream the bytes (non-temporal stores past its threshold).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"1048576",
           "Bytes per thread below which a copy is not split further">
  ];
}

def NdOpenMPIf : Pass<"nd-openmp-if", "ModuleOp"> {
  let summary = "Fork an OpenMP team only for loops with several iterations";
  let description = [{
    Runs after `convert-scf-to-openmp`. Every `omp.parallel` holding one
    `omp.wsloop` without reductions gets the `if` clause `trip count > 1`:
    a loop of one iteration (an nd op below its parallel grain) runs on the
    calling thread without forking a team.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::omp::OpenMPDialect"
  ];
}

def ConvertNdRuntimeToLLVM : Pass<"convert-nd-runtime-to-llvm", "ModuleOp"> {
  let summary = "Lower nd's run-time calls to the LLVM dialect";
  let description = [{
    Lowers what `--lower-scatter` leaves for the LLVM stage:

    - `func.call @__nd_report_error(a, b) {nd.message = "..."}` becomes a
      call of `nd_report_error(ptr message, i64 a, i64 b)` with the message
      in a private constant global. The host provides `nd_report_error`:
      nd-run and `JitFunction` their own, mlir-runner through
      `libnd_runner_utils.so` (prints the message to stderr, exits with
      status 1);
    - `func.call @__nd_max_threads()` becomes `omp_get_max_threads()` of
      the OpenMP runtime with `parallel`, the constant 1 without.

    The private declarations of both are removed.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Ask the OpenMP runtime for the thread count (false: one thread)">
  ];
}

#endif // ND_CONVERSION_PASSES_TD
