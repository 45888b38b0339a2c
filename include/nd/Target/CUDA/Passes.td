//===- Passes.td - nd's CUDA target ------------------------*- tablegen -*-===//
//
// The host side of nd's GPU code for the CUDA target: what `nd-to-gpu` runs
// after `--convert-nd-to-gpu` (include/nd/Conversion/Passes.td), passes that
// never touch an nd op. The buffers of host functions become device buffers,
// the kernels one module, the GPU work of a call one stream of nd's CUDA
// runtime, the PTX of the kernels a fat binary; for machines without a GPU,
// the GPU code runs on the host CPU.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TARGET_CUDA_PASSES_TD
#define ND_TARGET_CUDA_PASSES_TD

include "mlir/Pass/PassBase.td"

def NdGPUHostMemory : Pass<"nd-gpu-host-memory", "ModuleOp"> {
  let summary = "Make the buffers of host functions device buffers";
  let description = [{
    In host functions (outside GPU kernels), whose buffers live on the GPU:
    `memref.alloc` and `memref.dealloc` become `gpu.alloc` and
    `gpu.dealloc`; `memref.copy` becomes `gpu.memcpy` between contiguous
    buffers and a copy kernel otherwise; a `memref.get_global` (a constant
    tensor) is copied to a fresh device buffer where it is used. What is left
    must not touch device memory from the host: an op that reads or writes a
    buffer on the host (other than `memref.alloca` buffers) is reported and
    the pass fails.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect"
  ];
}

def NdGPUCallStream : Pass<"nd-gpu-call-stream", "ModuleOp"> {
  let summary = "The host side of a GPU call: one stream, no waiting, "
                "scratch from an arena, the error record from the runtime";
  let description = [{
    Prepares each host function's GPU work for nd's CUDA runtime
    (nd-c/CudaRuntime.h), so that a call queues its work and returns
    without waiting for the GPU:

    - every GPU operation (`gpu.launch_func`, `gpu.alloc`, `gpu.dealloc`,
      `gpu.memcpy`, `gpu.memset`) becomes asynchronous on one stream,
      created once at the function's start (`gpu.wait async`): everything
      runs in program order, also inside `scf.if` and `scf.for`. The host
      waits (`gpu.wait`) only after a copy into host memory, before it reads
      it; never at a return. With nd's CUDA runtime the stream is the one
      the caller gave the call.
    - A buffer the function allocates outside loops and cannot return
      (followed through views, casts, `scf.for`, `scf.if` and calls) is
      scratch: a view (`memref.view`) of a buffer of the call's scratch
      arena, `nd_cuda_scratch(bytes)`, which the runtime keeps per stream
      and grows when a call needs more (after a call's work in stream order,
      so no driver allocation in the steady state). Buffers the function
      may return stay `gpu.alloc`s.
    - The error record ops of `--convert-nd-to-gpu`
      (`nd_rt.gpu_error_record`, `nd_rt.gpu_error_record_end`) become the
      runtime's `nd_cuda_error_record` and `nd_cuda_error_record_end`, the
      messages of each function a private constant global.

    Upstream's `gpu-async-region` waits before every host operation with
    side effects and at region boundaries, which costs a synchronisation per
    kernel in nd's host code.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect"
  ];
}

def NdGPUModuleToFatbin : Pass<"nd-gpu-module-to-fatbin", "ModuleOp"> {
  let summary = "Assemble the PTX of each GPU binary for several chips into "
                "one fat binary";
  let description = [{
    Replaces the PTX object (`assembly`, from `gpu-module-to-binary
    {format=isa}`) of each `gpu.binary` with a fat binary holding a cubin for
    each of `chips` (assembled with the CUDA toolkit's `ptxas`) and the PTX
    itself, which the driver compiles for newer GPUs: one library runs on
    every GPU from the oldest chip listed on. The tools are looked for in
    `toolkit`/bin. A missing tool or a failed assembly is an error naming
    it.
  }];
  let options = [
    ListOption<"chips", "chips", "std::string",
               "The chips to assemble cubins for (default: sm_90, sm_80)">,
    Option<"toolkit", "toolkit", "std::string", /*default=*/"\"/usr/local/cuda\"",
           "The CUDA toolkit's directory">,
    Option<"ptxasOptions", "ptxas-options", "std::string", /*default=*/"\"\"",
           "More options for ptxas (space separated)">
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def NdGPURunOnHost : Pass<"nd-gpu-run-on-host", "ModuleOp"> {
  let summary = "Run GPU kernels and the GPU operations of host functions on "
                "the host CPU";
  let description = [{
    Lets a machine without a GPU execute GPU code, to test it: each
    `gpu.launch` becomes loops over its blocks and, inside, over its threads,
    one thread after the other; `gpu.alloc`, `gpu.dealloc`, `gpu.memcpy`
    and `gpu.memset` become host allocations, copies and fills; `gpu.wait`
    goes. The error record of `--convert-nd-to-gpu` becomes a host buffer
    cleared at the function's start, and each return reports the failed
    check it holds through `nd_rt.report`, as the CPU lowering does. A `gpu.barrier` at the top of a kernel's body splits the body into
    phases, each run by every thread of the block before the next starts;
    the values a thread carries from one phase to a later one are kept in
    per-thread buffers, and workgroup memory is a buffer per block. Any
    schedule of threads between barriers is one the GPU may run, so results
    that do not depend on the schedule (nd's kernels) are the GPU's; what
    the host cannot tell apart is how fast the code is.

    Barriers inside nested regions, private attributions and values of
    other than scalar or vector types carried across a barrier are reported
    and the pass fails.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::nd::rt::NdRuntimeDialect"
  ];
}

def NdGPUMergeModules : Pass<"nd-gpu-merge-modules", "ModuleOp"> {
  let summary = "Merge the kernel modules of a module into one";
  let description = [{
    `gpu-kernel-outlining` makes a `gpu.module` per kernel, and each becomes
    a binary that is assembled and loaded on its own (a fat binary per
    kernel, one `cuModuleLoadData` each when the library loads). This pass
    moves every kernel into the first `gpu.module` (kernel names are unique:
    outlining names each after its host function and numbers the others) and
    points the launches at it: one assembly and one load per library.
    Modules that carry targets or attributes of their own stay apart. The
    merged module gets NVPTX's data layout (`llvm.data_layout`): without
    one, LLVM's default aligns 64-bit integers on 4 bytes and NVPTX splits
    every 8-byte integer load into two.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // ND_TARGET_CUDA_PASSES_TD
