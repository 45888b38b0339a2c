//===- Passes.td - nd conversion passes --------------------*- tablegen -*-===//

#ifndef ND_CONVERSION_PASSES_TD
#define ND_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerScatter : Pass<"lower-scatter", "ModuleOp"> {
  let summary = "Lower the nd ops to parallel loops over buffers";
  let description = [{
    Rewrites `nd.scatter_nd`, `nd.gather_nd`, `nd.scatter_elements`,
    `nd.gather_elements`, `nd.gather` and `nd.tensor_scatter` (every `oob`
    mode, every reduction, `use_init_val`) into upstream dialects.

    The ops on buffers are lowered as they are: one-shot bufferization
    (as `--nd-to-llvm` runs it) gives every op its form on buffers and
    decides where it works (a scatter in place on its destination where it
    may be, see the ops' `BufferizableOpInterface`). An op on tensors, as
    users and importers write it, works on a buffer of its own: it reads
    its tensor operands through `bufferization.to_buffer read_only`, a
    gather writes a fresh buffer and a scatter updates a fresh copy of its
    destination (`disposable`), and the result is that buffer through
    `bufferization.to_tensor restrict writable`. The rest of the program
    stays on tensors, for one-shot bufferization (`--lower-scatter
    --nd-to-llvm` runs as `--nd-to-llvm` does); a scatter then always
    copies its destination, which bufferizing first avoids.

    Each op on buffers becomes a call of a private
    function (`@__nd_scatter_nd`, ...) that holds its lowering and writes
    the op's destination buffer: a gather's `into`, a scatter's `data`
    (`past_cache`). Ops with the same name, attributes and operand types
    share one function, so that the IR grows with the number of distinct
    ops. The functions take identity-layout buffers: an operand of another
    layout (a strided view) goes in as a copy, and a destination of
    another layout is copied back after the call. The data moves in memref
    loops:

    - operands are read as 1-D row-major views (`memref.collapse_shape`);
    - `nd.gather_nd` and `nd.gather_elements` fill their result buffer from
      an `scf.parallel` over partitions of the index tuples (positions);
      each tuple is read and checked once and a slice moves as a row of
      vector loads and stores; `nd.gather` splits its result rows (one row
      per index value and outer position, a contiguous copy of the dims
      after the axis); under `oob<skip>` (and `oob<clamp>` along an empty
      axis) a row read through an index out of range is zeros;
    - `nd.tensor_scatter` is a slice scatter: each position before the
      axis is a contiguous row of `max_seq * inner` elements that receives
      its update as one copy (two in circular mode, wrapping at the end of
      the row), in an `scf.parallel` (as below) over a grid of ranges of
      the dim before the axis and of the positions along it; it touches
      only the update's elements, so a donated cache costs O(update). Its
      write indices are checked (under `oob<error>`) before anything is
      written;
    - `nd.scatter_nd` and `nd.scatter_elements` update `data` from an
      `scf.parallel` whose iterations each own a disjoint view
      (`memref.subview`) of the destination. Wide ScatterND slices are
      split by column, each partition applying every entry to its columns;
      ScatterElements splits dim 0 (or the last dim when the axis is 0);
      point scatters, narrow slices and 1-D ScatterElements cut the
      destination into blocks of rows (small enough for a core's cache
      where the entries outnumber the destination's cache lines), bucket
      the entries by block in a stable order, a batch of at most 2^20 at a
      time (a parallel counting pass, a prefix sum and a parallel fill that
      carries each entry's row and, for rows of one element, its update)
      and let each owner apply its blocks' entries.

    Every destination element receives its updates in row-major order of
    the update entries, so results are bit-identical for every thread
    count, floating-point reductions with duplicate indices included. The
    number of partitions is chosen at run time: one below `grain` element
    moves, otherwise at most the number of threads (`nd_rt.max_threads`).

    Negative indices are normalised (`i + dim`). With `check-bounds` (the
    default) every index component, every dynamic dimension that the
    verifier could not check (the result buffer's among them) and a dynamic
    index depth are checked at run time: a scatter checks every index
    before it writes, so that a failed call leaves its destination as it
    was, unless the destination is `disposable` (a fresh copy that
    bufferization made, which nothing reads if the call fails): then it
    checks as it writes, with the same branch-free unsigned compare; a
    gather checks each tuple as it reads it and never reads through a bad
    one. A failed check reports through `nd_rt.report_at %site "<message>"
    (a, b)` (the message naming the op, the operand, the offending value
    and the dimension); `%site` is the function's last argument, which each
    call sets to `nd_rt.site "<location of its op>"`. The ops of nd's
    run-time dialect (`nd_rt`) stand for calls into the run time;
    `--convert-nd-runtime-to-llvm` lowers them to the OpenMP runtime and to
    the host's `nd_report_error` with the full message
    "<location>: <op>: <text>".

    Gathers whose result has at least 16 MiB, in rows of whole 64-byte
    vectors, write it with non-temporal (streaming) stores when the result
    buffer starts on a 64-byte boundary (checked at run time), and a
    partition that did so ends with `nd_rt.store_fence`. Row
    gathers prefetch the first lines of the row two index values ahead.

    Under `oob<skip>` an entry with an index component out of range is
    dropped by a scatter (skipped entries are bucketed apart from every
    owner) and reads zeros in a gather; under `oob<clamp>` each component
    is clamped into its dim; neither mode has index checks or run-time
    index errors (dynamic shapes are still checked). `scatter_elements`
    under `reduction<mean>` or `use_init_val(false)` keeps a count per
    destination element (and, for an integer mean, an exact sum at least
    64 bits wider than the element) in scratch buffers; each element's
    owner resets, applies and, for a mean, divides, so these stay
    deterministic.

    Before:

    ```mlir
    nd.gather_elements %data[%indices] into %out axis(1)
        : memref<2x2xf32>, memref<2x2xi64> into memref<2x2xf32>
    ```

    After (`check-bounds=false`, abridged):

    ```mlir
    call @__nd_gather_elements(%data, %indices, %out)
        : (memref<2x2xf32>, memref<2x2xi64>, memref<2x2xf32>) -> ()
    ...
    func.func private @__nd_gather_elements(%data: memref<2x2xf32>,
        %indices: memref<2x2xi64>, %out: memref<2x2xf32>) {
      %df = memref.collapse_shape %data [[0, 1]] : ... into memref<4xf32>
      %of = memref.collapse_shape %out [[0, 1]] : ... into memref<4xf32>
      %parts = ... nd_rt.max_threads ...
      scf.parallel (%p) = (%c0) to (%parts) step (%c1) {
        // the partition's positions: load, normalise, load, store
      }
      return
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
    "::mlir::vector::VectorDialect",
    "::mlir::nd::rt::NdRuntimeDialect"
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

def NdResultDestinations : Pass<"nd-result-destinations", "ModuleOp"> {
  let summary = "Compute an entry's results into buffers its caller gives";
  let description = [{
    Runs after the buffer deallocation pipeline (`nd-return-donated`), on the
    memref entry `function`. The entry gets one argument per result after
    its own, a destination of the result's type, and each result that is a
    fresh `memref.alloc` of the entry, returned once and never freed, is
    computed into its destination instead when the destination is one: its
    aligned pointer is not null and its sizes are those the allocation
    would have. Otherwise the entry allocates as before. A host passes the
    caller's output buffer as the destination where the caller gave one
    that shares no memory with the inputs or the other outputs (and zeros
    for none, see `include/nd-c/RuntimeABI.h`), and finds the result in it:
    nothing is copied. Results that are an argument's buffer, a global or a
    view keep their own buffers. The entry is marked
    `nd.result_destinations` (the number of destinations), which
    `nd-export-entry` reads.

    Before:

    ```mlir
    func.func @main(%d: memref<?x?xf32>, %i: memref<?xi64>) -> memref<?x?xf32> {
      %alloc = memref.alloc(%n, %m) {alignment = 64 : i64} : memref<?x?xf32>
      call @__nd_gather(%d, %i, %alloc, %site) : (...) -> ()
      return %alloc : memref<?x?xf32>
    }
    ```

    After:

    ```mlir
    func.func @main(%d: memref<?x?xf32>, %i: memref<?xi64>,
                    %dest: memref<?x?xf32>) -> memref<?x?xf32>
        attributes {nd.result_destinations = 1 : i64} {
      %fits = ... // %dest is not null and has sizes (%n, %m)
      %buffer = scf.if %fits -> (memref<?x?xf32>) {
        scf.yield %dest : memref<?x?xf32>
      } else {
        %alloc = memref.alloc(%n, %m) {alignment = 64 : i64} : memref<?x?xf32>
        scf.yield %alloc : memref<?x?xf32>
      }
      call @__nd_gather(%d, %i, %buffer, %site) : (...) -> ()
      return %buffer : memref<?x?xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"main\"",
           "The entry function">
  ];
}

def NdParallelCopy : Pass<"nd-parallel-copy", "ModuleOp"> {
  let summary = "Copy large contiguous buffers with one memcpy per thread";
  let description = [{
    Rewrites `memref.copy` between identity-layout buffers into an `scf.if`
    on the size: a copy of at least twice `min-bytes` becomes an
    `scf.parallel` over as many contiguous byte ranges as there are threads
    (`nd_rt.max_threads`, at most one range per `min-bytes`), each copied by
    one `llvm.intr.memcpy`; smaller copies stay as they are. Out-of-place
    scatters copy `data` this way. A copy of 16 MiB or more streams: each
    range moves in 64-byte loads and non-temporal stores to the target's
    whole lines (a memcpy for the bytes before the first line boundary and
    after the last), then fences them (`llvm.fence seq_cst`). The C
    library streams only past a threshold it derives from the size of the
    last-level cache, which some machines report as hundreds of MiB.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::nd::rt::NdRuntimeDialect"
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
  let summary = "Lower nd's run-time ops (nd_rt) to the LLVM dialect";
  let description = [{
    Lowers the ops of nd's run-time dialect (`nd_rt`) that `--lower-scatter`,
    `--nd-partition`, `--nd-parallel-copy` and `--nd-gpu-run-on-host` leave
    for the LLVM stage, one pattern each (`populateNdRuntimeToLLVMPatterns`;
    the external names are those of `include/nd-c/RuntimeABI.h`, the one
    home of nd's run-time ABI):

    - `nd_rt.report "..." (a, b)` becomes a call of
      `nd_report_error(ptr state, ptr message, i64 a, i64 b)` with the
      message in a private constant global and a null call state
      (`--nd-call-state` gives each call of a host its own);
    - in a function that ops at several places share,
      `nd_rt.report_at %site M (a, b)` (with `%site` an argument of the
      function) calls `nd_report_error` with the message at the site: each
      call of the function passes `nd_rt.site W`, which becomes the address
      of the site's entries in one private table of messages "W: M" (the
      function's messages in order of first appearance), whose texts lie in
      one private character array. The host provides `nd_report_error`:
      `libnd_runtime.so` and `JitFunction` record the message in the call's
      state, `libnd_runner_utils.so` (for mlir-runner) prints it to stderr and
      exits with status 1;
    - `nd_rt.max_threads` becomes `omp_get_max_threads()` of the OpenMP
      runtime with `parallel`, the constant 1 without;
    - `nd_rt.store_fence` becomes `llvm.fence seq_cst`, which orders the
      partition's non-temporal stores before its later ones;
    - `nd_rt.buffer_address` becomes the aligned pointer of the buffer's
      descriptor and `nd_rt.buffer_at` a descriptor of its static type with
      the address as both pointers (through unrealized casts that the LLVM
      conversions resolve).

    The module-level symbols (the declarations, the message globals, the
    site table) are made before the patterns run. The pass fails on a
    report whose site is not an argument of its function and on a site
    passed to anything but the functions of nd ops, or to two of them.

    The pass loads the nd dialect, to which the LLVM stage attaches a printer
    hook (`registerNdToLLVMInterfaces`) that names literal LLVM structs of
    more than eight members once, at the top of the module (a function
    with N results builds a struct of N memref descriptors that each of its
    N `insertvalue`s would otherwise spell out), so that the IR of every
    module lowered by nd prints in size linear in its results.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::nd::NdDialect"];
  let options = [
    Option<"parallel", "parallel", "bool", /*default=*/"true",
           "Ask the OpenMP runtime for the thread count (false: one thread)">
  ];
}

//===----------------------------------------------------------------------===//
// Entries of compiled code: the LLVM stage after nd-to-llvm
//===----------------------------------------------------------------------===//

def NdEarlyDeallocation : Pass<"nd-early-deallocation", "ModuleOp"> {
  let summary = "Free each buffer of a block right after its last use";
  let description = [{
    Runs in the host's tail of every nd pipeline, after `--lower-scatter`.
    The deallocation pipeline frees a function's buffers at the end of the
    block that allocated them: a chain of N ops keeps all N intermediate
    buffers until the function returns. Each `memref.dealloc` of a
    `memref.alloc` of its own block moves up to just after the last op of
    the block that uses the buffer, where every use neither keeps the buffer
    nor makes a view of it: `memref.copy`, `memref.load`, `memref.store`,
    `memref.dim`, and calls without results of functions marked
    `nd_rt.op_function` (the functions of nd ops, which free and keep none
    of their buffers). A buffer with any other use stays freed where it was.
    The chain's peak memory is then that of the buffers alive at once, and
    the generated code's register allocator no longer sees every buffer's
    pointer live across the whole function.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NdBufferAddresses : Pass<"nd-buffer-addresses", "ModuleOp"> {
  let summary = "Pass the static buffers of nd ops' functions as addresses";
  let description = [{
    Runs in the host's tail of every nd pipeline, before the LLVM
    conversions. Each argument of static shape and identity layout of a
    function marked `nd_rt.op_function` (the function of an nd op: private,
    only called, freeing none of its buffers) becomes the address of the buffer's first element: each call
    passes `nd_rt.buffer_address %buffer`, and the function starts with
    `nd_rt.buffer_at %address` in place of the argument. In the LLVM stage
    the call then passes one pointer where it passed a memref descriptor's
    `3 + 2 * rank` values, each taken out of the caller's descriptor and put
    back into the callee's: in a chain of small ops that is most of the IR
    the later passes walk. Buffers of dynamic shape or another layout keep
    their descriptors; a marked function with a use other than a call is
    left as it is.

    With `allocations` (nd-to-llvm, where the generated code allocates
    through nd's runtime), a `memref.alloc` of static shape and identity
    layout whose only uses are `nd_rt.buffer_address`, `memref.copy` to or
    from another such buffer and `memref.dealloc` becomes the call of
    `_mlir_memref_to_llvm_aligned_alloc` that finalize-memref-to-llvm
    (`use-aligned-alloc`) would make, with the same alignment and size; its
    addresses are the call's result, its copies `llvm.intr.memcpy` and its
    dealloc a call of `_mlir_memref_to_llvm_free`. Its descriptor is never
    built.
  }];
  let options = [
    Option<"allocations", "allocations", "bool", /*default=*/"false",
           "Allocate the static buffers that are only passed as addresses, "
           "copied and freed as addresses (nd's runtime allocator)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nd::rt::NdRuntimeDialect"];
}

def NdCheckAllocations : Pass<"nd-check-allocations", "ModuleOp"> {
  let summary = "End the call where an allocation of the generated code fails";
  let description = [{
    Runs in the LLVM stage of `nd-to-llvm`, on the LLVM dialect. Every
    allocation of the generated code (a call of `_mlir_memref_to_llvm_alloc`
    or `_mlir_memref_to_llvm_aligned_alloc`, or of `malloc` and
    `aligned_alloc` without `runtime-allocator`) is followed by a test of its
    result: a null buffer of a non-zero size calls the host's
    `nd_report_out_of_memory(state, "<location>: cannot allocate %lld
    bytes for a buffer of the compiled code", bytes, 0)` (with a null state,
    which `--nd-call-state` replaces; nd-c/RuntimeABI.h) and nothing reads
    or writes through the buffer:

    - in a function's body, the function returns at once (zeros for its
      results, which the host releases as null buffers);
    - inside an OpenMP region (a loop body, a parallel region), that
      iteration or thread leaves the region, and the function returns after
      the region's op;
    - a call of a function of the module that may fail this way is followed
      by a test of a thread-local flag the failing function set, and its
      caller returns as well.

    Every failure in a function's body branches to blocks at its end that
    all its sites share: a failed allocation to the report (with its
    message and size), then on to the block that sets the flag and returns;
    the flag's address is taken once, at the function's start (inside an
    OpenMP region, by each thread). The messages lie in one global,
    `__nd_alloc_msgs`, each ending in a NUL: a site passes the address of
    its own, an offset into it.

    Buffers the call allocated before the failure are not released. A
    function without allocations is left as it is, and so is an allocation
    inside a region whose terminator takes operands (none of nd's
    pipelines makes one).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NdReturnThroughPointer : Pass<"nd-return-through-pointer", "ModuleOp"> {
  let summary = "Make an entry function write its results through a pointer";
  let description = [{
    Runs on the output of `nd-to-llvm`. The LLVM function `function`, which
    returns its results as one LLVM struct (of memref descriptors, for a
    function of several tensor results), gets a new last argument, a pointer
    to storage for that struct, stores each field of it there and returns
    nothing. A function with N results builds its struct by a chain of N
    `llvm.insertvalue`s in its last block, which code generation takes whole
    to the SelectionDAG, whose scheduler is quadratic in a block's length
    (1,000 results: 18 s); stored field by field, the block is plain stores.
    The JIT (`JitFunction`) and `nd-compile` call entries this way.

    Calls of `function` from other functions of the module (an mlir-runner
    `@main` calling the entry) go through a private adapter of the original
    signature, which passes a stack slot and loads the results from it.

    The pass records, as `nd.result_buffers` on the function, which results
    are an argument's buffer: for each result, the position of the argument
    that its descriptor's allocated pointer is (a donated input updated in
    place and returned, see `nd-return-donated`), or -1 for a buffer of the
    function's own. Hosts free the latter and never the former.

    Before:

    ```mlir
    llvm.func @main(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %d: i64, %e: i64)
        -> !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> {
      ...
      llvm.return %r : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>
    }
    ```

    After:

    ```mlir
    llvm.func @main(%a: !llvm.ptr, %b: !llvm.ptr, %c: i64, %d: i64, %e: i64,
                    %out: !llvm.ptr) attributes {nd.result_buffers = array<i64: 0>} {
      ...
      llvm.store %a, %out : !llvm.ptr, !llvm.ptr
      ...
      llvm.return
    }
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"main\"",
           "The entry function">
  ];
}

def NdCallState : Pass<"nd-call-state", "ModuleOp"> {
  let summary = "Give every report of a failed check its call's state";
  let description = [{
    Runs on the output of `nd-to-llvm` for hosts that call an entry with a
    per-call error state (`nd_call_state` of `include/nd-c/RuntimeABI.h`):
    every function the module defines gets a new last argument, the state
    pointer; every call of such a function passes its caller's, and every
    call of `nd_report_error` passes its function's instead of the null
    state `--convert-nd-runtime-to-llvm` left. Reports made inside OpenMP
    regions, on worker threads, reach the state of the call that forked
    them: two calls running at once on different threads report into their
    own states, and nothing about a call is global.

    A function whose address is taken (any use of its symbol but a direct
    call) cannot be given the argument: the pass fails, naming it.
    Functions of the module called from outside it (mlir-runner's `@main`)
    must not go through this pass: it is for the JIT and `nd-compile`, which
    pass the state.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def NdRecordSignature : Pass<"nd-record-signature", "ModuleOp"> {
  let summary = "Record an entry function's tensor signature for its export";
  let description = [{
    Runs before `nd-to-llvm`, on tensor functions. Records the signature of
    the entry `function` as the module attribute `nd.signature`, which
    survives the lowering for `--nd-export-entry`: the function's name, its
    argument and result types (ranked tensors of element types that
    `include/nd-c/Runtime.h` numbers; `index` is exchanged as `i64`), the
    positions of the arguments marked `nd.donated`, and each argument's name
    (the name of its location, as the ONNX and OpenVINO importers give it, or
    ""). Any other argument or result type is an error naming it.

    ```mlir
    module attributes {nd.signature = {
        donated = array<i64: 0>, function = "main",
        inputs = [tensor<8xf32>, tensor<4x1xi64>], names = ["data", "indices"],
        outputs = [tensor<8xf32>]}} {...}
    ```
  }];
  let options = [
    Option<"function", "function", "std::string", /*default=*/"\"main\"",
           "The entry function">
  ];
}

def NdExportEntry : Pass<"nd-export-entry", "ModuleOp"> {
  let summary = "Export an entry with nd's C interface and its description";
  let description = [{
    Runs after `--nd-return-through-pointer` and `--nd-call-state`, on the
    entry whose signature `--nd-record-signature` recorded. Adds what a
    library built by `nd-compile` exports
    (`include/nd-c/Runtime.h`):

    - `@<symbol>_signature`, the `nd_signature` of the entry: the ABI
      version, the numbers of inputs and outputs, the default thread count
      (0, writable by the host), the symbol's name and one `nd_tensor_type`
      per input and output (dtype, rank, dims with -1 for a dynamic one, the
      input's name, whether it is donated, and which input's buffer an output
      is, from `nd.result_buffers`);
    - `@<symbol>(ctx, inputs, num_inputs, outputs, num_outputs) -> i32`,
      which calls `nd_runtime_invoke` of `libnd_runtime.so` with the
      signature and a private wrapper of the entry that takes its arguments
      packed (`void (void **)`). A symbol of the module that holds one of
      these two names (the entry itself, exported under its own name) is
      renamed.

    With `cuda` (the output of `nd-to-gpu`, for `nd-compile
    --target=cuda`), the entry has the device form and a host form
    (`include/nd-c/CudaRuntime.h`), which call libnd_cuda_runtime.so:

    - `@<symbol>(ctx, stream, inputs, num_inputs, outputs, num_outputs)`
      calls `nd_cuda_invoke` with the signature, the packed wrapper and
      these arguments (device buffers, a CUstream);
    - `@<symbol>_host(ctx, inputs, num_inputs, outputs, num_outputs)` calls
      `nd_cuda_invoke_host` (host buffers, copied to the device and back).

    Everything else in the module keeps its linkage: `nd-compile`
    internalizes all but the exported symbols once the module is LLVM IR, so
    that two compiled models never share a helper. The module attribute and
    `nd.result_buffers` are removed.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
  let options = [
    Option<"symbol", "symbol", "std::string", /*default=*/"\"\"",
           "The C name of the exported entry (default: the function's name)">,
    Option<"cuda", "cuda", "bool", /*default=*/"false",
           "Export the device and host forms of an entry of nd-to-gpu's "
           "output, which call libnd_cuda_runtime.so">
  ];
}

def ConvertTensorToNd : Pass<"convert-tensor-to-nd"> {
  let summary = "Convert tensor.gather and tensor.scatter to nd ops";
  let description = [{
    Rewrites upstream `tensor.gather` into `nd.gather_nd` and `tensor.scatter`
    into `nd.scatter_nd`, which `--lower-scatter` (or `--nd-to-llvm`) then
    lowers: this gives the two upstream ops a lowering to loops and LLVM.

    `nd.gather_nd` and `nd.scatter_nd` index the leading dimensions of
    `data`. Where `gather_dims` / `scatter_dims` are the leading dimensions
    `[0, 1, ..., k-1]`, the source (gather) or destination (scatter) is used
    as it is; otherwise it is transposed (`linalg.transpose`) so that the
    indexed dimensions come first, in their order, followed by the others in
    theirs, and a scatter's result is transposed back. A transposition that
    only moves dimensions of static size 1 is a reshape instead of a copy.
    The rank-preserving form of the gathered or scattered slices (the indexed
    dimensions kept with size 1) becomes the rank-reduced form nd uses through
    `tensor.expand_shape` / `tensor.collapse_shape`, which copy nothing.

    Index element types: `i32`, `i64` and `index` are used as they are;
    narrower integers are sign-extended to `i32`, those between 33 and 63
    bits to `i64`. Indices wider than 64 bits are not converted.

    Semantics: where the upstream ops define the result, nd gives the same
    result. Where their behaviour is undefined, nd's rules apply (see
    docs/Rationale.md): a coordinate outside `[-d, d-1]` is nd's run-time
    error, a negative coordinate in that range counts from the end, and
    duplicate coordinates in a `tensor.scatter` (whose `unique` promise is
    then false) leave the last update in row-major order of `indices`. The
    nd ops carry the location of the op they replace wrapped in a name
    location naming that op, so run-time messages point at the original op.

    Ops that cannot be converted (an element type nd does not support,
    indices wider than 64 bits, a scatter result type that is not `dest`'s
    type or a less static version of it) are reported with the reason and
    the pass fails.

    Before:

    ```mlir
    %g = tensor.gather %source[%indices] gather_dims([1])
        : (tensor<3x4x5xf32>, tensor<6x1xindex>) -> tensor<6x3x1x5xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<4x3x5xf32>
    %t = linalg.transpose ins(%source : tensor<3x4x5xf32>)
        outs(%e : tensor<4x3x5xf32>) permutation = [1, 0, 2]
    %r = nd.gather_nd %t[%indices]
        : tensor<4x3x5xf32>, tensor<6x1xindex> -> tensor<6x3x5xf32>
    %g = tensor.expand_shape %r [[0], [1], [2, 3]] output_shape [6, 3, 1, 5]
        : tensor<6x3x5xf32> into tensor<6x3x1x5xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::nd::NdDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ConvertTosaToNd : Pass<"convert-tosa-to-nd"> {
  let summary = "Convert tosa.gather and tosa.scatter to nd ops";
  let description = [{
    Rewrites TOSA's `tosa.gather` (`values [N,K,C]`, `indices [N,W]` ->
    `[N,W,C]`) and `tosa.scatter` (`values_in [N,K,C]`, `indices [N,W]`,
    `input [N,W,C]` -> `[N,K,C]`) into nd ops:

    - `tosa.gather` becomes `nd.gather_nd` with `batch_dims = 1` on the
      indices reshaped to `[N,W,1]` (`tensor.expand_shape`, no copy):
      `output[n,w,:] = values[n, indices[n,w], :]`;
    - `tosa.scatter` becomes `nd.scatter_nd` on `values_in` with index
      tuples `(n, indices[n,w])` of shape `[N,W,2]`, built by a
      `linalg.generic`, and `input` as the updates. With a static `N` of 1
      the batch dimension is reshaped away instead and the indices are used
      as they are (no tuples).

    Run this pass before upstream's `--tosa-to-linalg` and `--tosa-to-scf`,
    which lower `tosa.gather` and `tosa.scatter` themselves. The other TOSA
    ops of a program (`tosa.const`, `tosa.reshape`, arithmetic) go through
    upstream's TOSA conversions as usual before `--nd-to-llvm`, e.g.
    `--pass-pipeline="builtin.module(convert-tosa-to-nd,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),nd-to-llvm)"`.

    Semantics: TOSA requires `0 <= indices[n,w] < K` and, for a scatter, no
    repeated index within a batch; where a program breaks these rules, nd's
    rules apply instead of TOSA's unpredictable result (see
    docs/Rationale.md): an index outside `[-K, K-1]` is nd's run-time error,
    a negative one counts from the end, and a repeated index leaves the last
    update in row-major order of `indices`.

    Ops that cannot be converted (unranked tensors, an element type nd does
    not support, a result type more static than nd can check) are reported
    with the reason and the pass fails.

    Before:

    ```mlir
    %0 = tosa.gather %values, %indices
        : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
    ```

    After:

    ```mlir
    %i = tensor.expand_shape %indices [[0], [1, 2]] output_shape [2, 4, 1]
        : tensor<2x4xi32> into tensor<2x4x1xi32>
    %0 = nd.gather_nd %values[%i] batch_dims(1)
        : tensor<2x5x3xf32>, tensor<2x4x1xi32> -> tensor<2x4x3xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::nd::NdDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

//===----------------------------------------------------------------------===//
// NVIDIA GPUs
//===----------------------------------------------------------------------===//

def ConvertNdToGPU : Pass<"convert-nd-to-gpu", "ModuleOp"> {
  let summary = "Lower the nd ops on buffers to GPU kernels and their host "
                "code";
  let description = [{
    Rewrites each nd op on buffers (the form one-shot bufferization gives
    them; their buffers are device memory) of every host function into the
    host code that checks its dynamic shapes and launches its kernels
    (`gpu.launch`, with scratch buffers from `gpu.alloc`):

    - gathers (`nd.gather_nd`, `nd.gather`): each index tuple's row of
      `data` is copied by a group of threads, up to four units a thread in
      flight, in 16-byte vectors where the element type, the row length and
      the buffers' alignment allow (tested at run time), one element at a
      time otherwise, with 32-bit offsets where the buffers allow;
      `nd.gather_elements` reads one element per index value (the index
      values four at a time in vectors where it can);
    - scatters (`nd.scatter_nd`, `nd.scatter_elements`): deterministic, as
      on the CPU: a kernel computes each entry's destination row and checks
      its indices; under reduction `none` the last entry of each row wins
      (an integer atomic max of the entry number); under any other reduction
      the entries are sorted stably by destination (tiles sorted in shared
      memory; larger scatters a radix sort of 8-bit digits, one kernel a
      digit) and one group of threads owns each destination row, applying
      its entries' updates in order (`mean` and `use_init_val(false)`
      counted per element). No float atomics. A copy of `data` into the
      fresh buffer a scatter under a reduction updates (`memref.copy` just
      before a `disposable` scatter) is folded into the owners, which read
      the copy's source;
    - `nd.tensor_scatter`: each update row is copied to its place (writes
      never collide).

    Run-time checks (`check-bounds`, oob<error>): every index value and
    every dynamic shape the verifier could not compare is checked; the first
    failure of a call (in program order, then row-major order of the
    indices) is kept in a device error record
    (`nd_rt.gpu_error_record %words` at the function's start), later
    kernels write nothing, and each return reports it with the CPU
    lowering's message (`nd_rt.gpu_error_record_end %record [...]`);
    `--nd-gpu-call-stream` makes these ops calls of nd's CUDA runtime, which
    reports asynchronously, and `--nd-gpu-run-on-host` host code that
    reports through `nd_rt.report`. See docs/Rationale.md, "GPU".

    Operands of other layouts than contiguous row-major are copied into
    contiguous buffers first (and a destination copied back).

    Before:

    ```mlir
    nd.gather_nd %data[%ids] into %out
        : memref<50257x768xf32>, memref<65536x1xi64> into memref<65536x768xf32>
    ```

    After (abridged): `gpu.launch` kernels reading `%ids` and moving
    `vector<4xf32>` units of each row, the error record's check and report.
  }];
  let options = [
    Option<"checkBounds", "check-bounds", "bool", /*default=*/"true",
           "Check index values and dynamic shapes at run time">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::func::FuncDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
    "::mlir::nd::rt::NdRuntimeDialect",
    "::mlir::ub::UBDialect"
  ];
}

def NdGPUSkipUnchosen : Pass<"nd-gpu-skip-unchosen", "gpu::GPUModuleOp"> {
  let summary = "Return at once from kernels of a path the device did not "
                "choose";
  let description = [{
    Where the device chooses between two paths at run time (the rows of one
    index of `scatter_elements`), the host queues the kernels of both, and
    every phase of a kernel of the other path is guarded by the choice
    (`guardKernels`), barriers between the phases, as the host schedule
    (`run-on-host`) needs them. On a GPU, a guarded kernel of a large grid
    that does nothing would still run every block through every barrier
    (about 200 us for a sort pass over 149M entries on an H100). This pass,
    on the device's kernels only, makes each kernel whose guard is marked
    `nd.uniform_guard` (a condition that holds alike for every thread of the
    grid, set by `guardKernels`) return right after computing it where it
    does not hold: no block then reaches a barrier.
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect"];
}

#endif // ND_CONVERSION_PASSES_TD
