//===- NdRuntimeOps.td - nd's run-time contract as ops -----*- tablegen -*-===//
//
// The nd_rt dialect: what nd's lowerings ask of the run time (the report of
// a failed check, its site, the thread count, the store fence), as ops that
// the LLVM stage (`--convert-nd-runtime-to-llvm`) lowers, one pattern each.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_NDRUNTIME_IR_NDRUNTIMEOPS_TD
#define ND_DIALECT_NDRUNTIME_IR_NDRUNTIMEOPS_TD

include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def NdRuntime_Dialect : Dialect {
  let name = "nd_rt";
  let cppNamespace = "::mlir::nd::rt";
  let summary = "nd's run-time contract: error reports, thread count, fences";
  let description = [{
    The ops nd's lowerings (`--lower-scatter`, `--convert-nd-to-gpu`,
    `--nd-partition`, `--nd-parallel-copy`) leave for later stages, which
    turn each into the calls and globals of nd's run time: the LLVM stage
    (`--convert-nd-runtime-to-llvm`) lowers the reports, sites, thread
    count and store fence; the GPU host passes (`--nd-gpu-run-on-host`,
    `--nd-gpu-call-stream`) lower the error record of a GPU function. The
    external names are those of `nd-c/RuntimeABI.h`. They stand for calls
    into the run time and are treated as such: each reads and writes memory
    (no pass merges, moves or drops one), and none allocates on the stack
    (an alloca scope around them can go).

    A report's message is a printf format for the two `long long` values it
    passes: its conversions are `%lld` (at most two) and `%%`.

    The function `--lower-scatter` makes of an nd op carries the unit
    attribute `nd_rt.op_function`: it is
    private, only called, and frees none of its buffers, which is what
    `--nd-buffer-addresses` relies on to pass its static buffers as
    addresses (`nd_rt.buffer_address`, `nd_rt.buffer_at`).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

// Each op reads and writes memory, as the call it stands for may: no pass
// merges, moves or drops one.
class NdRuntime_Op<string mnemonic, list<Trait> traits = []>
    : Op<NdRuntime_Dialect, mnemonic,
         !listconcat([MemoryEffects<[MemRead, MemWrite]>], traits)>;

def NdRuntime_ReportOp : NdRuntime_Op<"report"> {
  let summary = "reports a failed run-time check";
  let description = [{
    Reports a failed check with `message`, a printf format for `a` and `b`.
    The LLVM stage calls the host's error report (`nd_report_error`) with
    the message in a private constant global, one per distinct message.
    Outside an op's function the message names the op's location itself.

    ```mlir
    nd_rt.report "x.mlir:3:8: nd.gather: index %lld out of range for a dim of size %lld" (%a, %b)
    ```
  }];
  let arguments = (ins StrAttr:$message, I64:$a, I64:$b);
  let assemblyFormat = "$message ` ` `(` $a `,` $b `)` attr-dict";
  let hasVerifier = 1;
}

def NdRuntime_ReportAtOp : NdRuntime_Op<"report_at"> {
  let summary = "reports a failed run-time check at the caller's site";
  let description = [{
    Inside the function of an op that ops at several places share: reports a
    failed check with `message` ("<op>: <text>", a printf format for `a` and
    `b`) prefixed by the location of the op that called the function.
    `site` is the function's argument to which each call passes an
    `nd_rt.site`; the LLVM stage makes each site a table of the messages
    "<where>: <message>" of the function it calls, and the report loads its
    message from there.

    ```mlir
    nd_rt.report_at %site "nd.gather: index %lld out of range for a dim of size %lld" (%a, %b)
    ```
  }];
  let arguments = (ins I64:$site, StrAttr:$message, I64:$a, I64:$b);
  let assemblyFormat = "$site $message ` ` `(` $a `,` $b `)` attr-dict";
  let hasVerifier = 1;
}

def NdRuntime_SiteOp : NdRuntime_Op<"site"> {
  let summary = "the site of a call of an op's function";
  let description = [{
    The site of one call of an op's function, `where` the location of the
    op it stands for, passed as the function's site argument (see
    `nd_rt.report_at`). The LLVM stage makes it the address of the site's
    messages in a table of all the sites of the module (0 when the function
    reports nothing); each site is passed to the function of one op.

    ```mlir
    %site = nd_rt.site "x.mlir:3:8"
    func.call @__nd_gather(%data, %indices, %into, %site) : (...) -> ()
    ```
  }];
  let arguments = (ins StrAttr:$where);
  let results = (outs I64:$site);
  let assemblyFormat = "$where attr-dict";
  let builders = [OpBuilder<(ins "::llvm::StringRef":$where), [{
    build($_builder, $_state, $_builder.getI64Type(), where);
  }]>];
  let hasVerifier = 1;
}

def NdRuntime_MaxThreadsOp : NdRuntime_Op<"max_threads"> {
  let summary = "the number of threads parallel loops may use";
  let description = [{
    The team size of the next parallel region: `omp_get_max_threads()`, or 1
    where the pipeline lowers without OpenMP.

    ```mlir
    %threads = nd_rt.max_threads
    ```
  }];
  let results = (outs Index:$threads);
  let assemblyFormat = "attr-dict";
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, $_builder.getIndexType());
  }]>];
}

def NdRuntime_StoreFenceOp : NdRuntime_Op<"store_fence"> {
  let summary = "orders a thread's non-temporal stores before its later ones";
  let description = [{
    Ends a partition of a parallel loop that may have streamed its stores
    (non-temporal stores are weakly ordered), so that the threads that join
    it see its writes: `llvm.fence seq_cst` (x86: `mfence`).

    ```mlir
    nd_rt.store_fence
    ```
  }];
  let assemblyFormat = "attr-dict";
}

/// A buffer whose shape and layout say everything but where its elements
/// are: static shape, identity layout, default memory space.
/// (`isStaticBuffer` in NdRuntime.h, which `--nd-buffer-addresses` asks too).
def NdRuntime_StaticBuffer : Type<
    CPred<"::mlir::nd::rt::isStaticBuffer($_self)">,
    "memref of static shape and identity layout", "::mlir::MemRefType">;

def NdRuntime_BufferAddressOp
    : Op<NdRuntime_Dialect, "buffer_address", [Pure]> {
  let summary = "the address of a static buffer's first element";
  let description = [{
    The address of `buffer`'s first element (its descriptor's aligned
    pointer: the layout is the identity, its offset 0), which
    `nd_rt.buffer_at` turns back into the buffer. `--nd-buffer-addresses`
    passes a static buffer to an op's function so: one pointer in the LLVM
    stage where a memref descriptor is `3 + 2 * rank` values, each a value
    the caller takes out of the descriptor and the callee puts back.

    ```mlir
    %address = nd_rt.buffer_address %buffer : memref<8x16xf32>
    ```
  }];
  let arguments = (ins NdRuntime_StaticBuffer:$buffer);
  let results = (outs LLVM_DefaultPointer:$address);
  let assemblyFormat = "$buffer attr-dict `:` type($buffer)";
  let builders = [OpBuilder<(ins "::mlir::Value":$buffer), [{
    build($_builder, $_state,
          ::mlir::LLVM::LLVMPointerType::get($_builder.getContext()), buffer);
  }]>];
}

def NdRuntime_BufferAtOp : Op<NdRuntime_Dialect, "buffer_at", [Pure]> {
  let summary = "the static buffer whose first element is at an address";
  let description = [{
    The buffer of type `type(buffer)` whose first element is at `address`
    (see `nd_rt.buffer_address`). Its descriptor's allocated and aligned
    pointers are both `address`: the buffer must not be freed through it, as
    an op's function frees none of its arguments.

    ```mlir
    %buffer = nd_rt.buffer_at %address : memref<8x16xf32>
    ```
  }];
  let arguments = (ins LLVM_DefaultPointer:$address);
  let results = (outs NdRuntime_StaticBuffer:$buffer);
  let assemblyFormat = "$address attr-dict `:` type($buffer)";
}

/// The error record of a GPU function as its ops see it: a buffer of i64
/// words of a size known at run time.
def NdRuntime_RecordType : Type<
    CPred<"$_self == ::mlir::MemRefType::get({::mlir::ShapedType::kDynamic}, "
          "::mlir::IntegerType::get($_self.getContext(), 64))">,
    "memref<?xi64>", "::mlir::MemRefType">,
    BuildableType<"::mlir::MemRefType::get({::mlir::ShapedType::kDynamic}, "
                  "$_builder.getI64Type())">;

def NdRuntime_GpuErrorRecordOp : NdRuntime_Op<"gpu_error_record"> {
  let summary = "the error record of a GPU function, zero in every word";
  let description = [{
    At the start of a function whose GPU kernels check indices or dynamic
    shapes at run time: the function's error record, `words` i64 words in
    device memory, zero in every word (the layout of the words is in
    lib/Conversion/NdToGPU/ErrorRecord.h). `--nd-gpu-call-stream` makes it
    a call of nd's CUDA runtime (the record of the call's stream);
    `--nd-gpu-run-on-host` a host buffer cleared at the start.

    ```mlir
    %record = nd_rt.gpu_error_record %words
    ```
  }];
  let arguments = (ins I64:$words);
  let results = (outs NdRuntime_RecordType:$record);
  let assemblyFormat = "$words attr-dict";
  let builders = [OpBuilder<(ins "::mlir::Value":$words), [{
    build($_builder, $_state, ::mlir::MemRefType::get(
        {::mlir::ShapedType::kDynamic}, $_builder.getI64Type()), words);
  }]>];
}

def NdRuntime_GpuErrorRecordEndOp : NdRuntime_Op<"gpu_error_record_end"> {
  let summary = "reports the failed check an error record holds";
  let description = [{
    Before each return of a function with an error record: reports the check
    whose code (word 0: 1, 2, ...) the record holds, if any, with message
    `messages[code - 1]` ("<location>: <op>: <text>", a printf format for
    words 1 and 2). `--nd-gpu-call-stream` makes it a call of nd's CUDA
    runtime with the messages in a constant global; `--nd-gpu-run-on-host`
    an `nd_rt.report` of each message, selected by the code, and the
    record's release.

    ```mlir
    nd_rt.gpu_error_record_end %record ["x.mlir:3:8: nd.gather: index %lld out of range (size %lld)"]
    ```
  }];
  let arguments = (ins NdRuntime_RecordType:$record, StrArrayAttr:$messages);
  let assemblyFormat = "$record $messages attr-dict";
  let hasVerifier = 1;
}

#endif // ND_DIALECT_NDRUNTIME_IR_NDRUNTIMEOPS_TD
