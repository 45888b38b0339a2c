//===- Pipelines.h - nd pass pipelines --------------------------*- C++ -*-===//
//
// The pipelines built on top of nd's dialect, conversions and sharding
// passes. No dialect library depends on them.
//
//===----------------------------------------------------------------------===//

#ifndef ND_PIPELINES_PIPELINES_H
#define ND_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace nd {

/// Options of the `nd-to-llvm` pipeline.
struct NdToLLVMPipelineOptions
    : public PassPipelineOptions<NdToLLVMPipelineOptions> {
  PassOptions::Option<bool> upstreamConversions{
      *this, "upstream-conversions",
      llvm::cl::desc("Start with the conversions of upstream ops: "
                     "tensor.gather / tensor.scatter and tosa.gather / "
                     "tosa.scatter into nd ops (convert-tensor-to-nd, "
                     "convert-tosa-to-nd), then the other TOSA ops through "
                     "upstream's tosa-to-scf, tosa-to-linalg-named, "
                     "tosa-to-linalg, tosa-to-arith and tosa-to-tensor"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkBounds{
      *this, "check-bounds",
      llvm::cl::desc("Check index values and dynamic shapes of nd ops at run "
                     "time (see --lower-scatter)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> parallel{
      *this, "parallel",
      llvm::cl::desc("Run the nd ops' parallel loops on OpenMP threads "
                     "(needs LLVM's OpenMP runtime, libomp, at run time)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> grain{
      *this, "grain",
      llvm::cl::desc("Work (element moves) per partition below which an nd "
                     "op does not split its work among threads (see "
                     "--lower-scatter)"),
      llvm::cl::init(32768)};
  PassOptions::Option<std::string> resultDestinations{
      *this, "result-destinations",
      llvm::cl::desc("The entry function whose results are computed into "
                     "buffers its caller gives, where they fit "
                     "(--nd-result-destinations; nd-compile's CPU "
                     "libraries): none by default"),
      llvm::cl::init("")};
  PassOptions::Option<bool> runtimeAllocator{
      *this, "runtime-allocator",
      llvm::cl::desc("Allocate buffers through _mlir_memref_to_llvm_alloc "
                     "and _mlir_memref_to_llvm_free (JitFunction and "
                     "libnd_runner_utils.so provide them: large buffers get "
                     "huge pages and are reused across calls) instead of "
                     "malloc and free"),
      llvm::cl::init(true)};
};

/// Adds nd's bufferization (nd-to-llvm and nd-to-gpu): a dim of a constant
/// index out of range rejected (a bridge: --nd-check-dim-indices),
/// arguments the caller did not donate never written, elementwise arith on
/// tensors into linalg, one-shot bufferization of the functions' boundaries
/// with identity layouts and the constants' globals named in a stable order.
/// `linearInOps` adds what keeps the CPU's analysis linear in the number of
/// nd ops (a CSE first, tensors that nothing writes read through one buffer
/// each, the constants' globals made beforehand: see nd-to-llvm); nd-to-gpu,
/// whose lowering takes the nd ops on buffers, runs without.
void addNdBufferizationPasses(OpPassManager &pm, bool linearInOps);

/// Adds the passes that follow one-shot bufferization in nd's pipelines:
/// reshapes MLIR 22 would crash on folded into casts (a bridge:
/// --nd-fold-reshapes), a donated argument's buffer returned as it is,
/// upstream's ownership-based deallocation (with nd's simplification where it
/// is cheap), and the bufferization ops to memref.
void addNdDeallocationPasses(OpPassManager &pm);

/// Builds the pipeline that takes a module of tensor functions using nd ops
/// (and the usual arith/tensor/linalg/bufferization ops around them) down to
/// the LLVM dialect, ready for mlir-runner or an ExecutionEngine: convert
/// upstream gathers and scatters (tensor, TOSA) into nd ops and the rest of
/// a TOSA program into linalg, tensor, arith and scf (with
/// `upstream-conversions`), make
/// public functions' arguments read-only unless donated, lower the nd ops,
/// bufferize (function boundaries with identity layouts), deallocate, return
/// donated buffers as they are, turn parallel loops into OpenMP and
/// everything into LLVM. The generated code calls `nd_report_error` (with
/// `check-bounds`) and the OpenMP runtime (with `parallel`).
/// What nd's pipelines differ in when they take the host's code to the LLVM
/// dialect (addNdHostToLLVMPasses).
struct NdHostToLLVMOptions {
  /// Run-time calls for code that runs on OpenMP threads
  /// (--convert-nd-runtime-to-llvm's `parallel`).
  bool parallel = true;
  /// Loop-invariant code hoisted out of the lowered loops first.
  bool hoistInvariants = false;
  /// The GPU runtime's calls (gpu-to-llvm) before the memrefs.
  bool gpuRuntime = false;
  /// Memrefs through finalize-memref-to-llvm first: with
  /// `_mlir_memref_to_llvm_aligned_alloc` (nd's runtime aligns each buffer)
  /// and `_mlir_memref_to_llvm_free` where `genericAllocator`, with malloc
  /// and free otherwise.
  bool finalizeMemRef = true;
  bool genericAllocator = false;
  /// convert-to-llvm with the functions ahead of the globals (a bridge:
  /// --nd-functions-first).
  bool functionsFirst = false;
  /// Every allocation tested (--nd-check-allocations).
  bool checkAllocations = false;
};

/// Adds the host's tail of nd's pipelines: strided metadata, affine and scf
/// lowered, nd's run-time calls, the memrefs and everything else to the LLVM
/// dialect, the casts reconciled and the result canonicalized.
void addNdHostToLLVMPasses(OpPassManager &pm,
                           const NdHostToLLVMOptions &options);

void buildNdToLLVMPipeline(OpPassManager &pm,
                           const NdToLLVMPipelineOptions &options);

/// Options of the `nd-to-gpu` pipeline.
struct NdToGPUPipelineOptions
    : public PassPipelineOptions<NdToGPUPipelineOptions> {
  PassOptions::Option<bool> checkBounds{
      *this, "check-bounds",
      llvm::cl::desc("Check index values and dynamic shapes of nd ops at run "
                     "time (see --convert-nd-to-gpu)"),
      llvm::cl::init(true)};
  PassOptions::ListOption<std::string> chips{
      *this, "chips",
      llvm::cl::desc("The chips to assemble cubins for (default: sm_90, "
                     "sm_80)")};
  PassOptions::Option<std::string> ptxChip{
      *this, "ptx-chip",
      llvm::cl::desc("The chip the PTX is generated for: the oldest GPU it "
                     "runs on, newer ones compile it at load time"),
      llvm::cl::init("sm_80")};
  PassOptions::Option<std::string> ptxFeatures{
      *this, "ptx-features",
      llvm::cl::desc("The PTX version of the PTX (MLIR 22's default, +ptx60, "
                     "cannot target sm_80)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("The CUDA toolkit's directory (ptxas, fatbinary)"),
      llvm::cl::init("/usr/local/cuda")};
  PassOptions::Option<bool> runOnHost{
      *this, "run-on-host",
      llvm::cl::desc("Run the kernels on the host CPU, one thread after the "
                     "other, instead of building GPU binaries: the GPU "
                     "lowering then runs with mlir-runner on machines "
                     "without a GPU (tests)"),
      llvm::cl::init(false)};
};

/// Builds the pipeline that takes a module of tensor functions using nd ops
/// to the LLVM dialect for NVIDIA GPUs: donation and bufferization as in
/// nd-to-llvm, the nd ops (and elementwise linalg ops) as GPU kernels, the
/// host's buffers on the device, one stream per call, NVVM, a fat binary of
/// sm_90 and sm_80 cubins and PTX per kernel module, the host code in LLVM.
/// The generated code calls the `mgpu*` functions of nd's CUDA runtime
/// (libnd_cuda_runtime.so) and, with `check-bounds`, `nd_report_error`.
void buildNdToGPUPipeline(OpPassManager &pm,
                          const NdToGPUPipelineOptions &options);

/// Builds the pipeline from a module with sharded functions to the LLVM
/// dialect, ready for `mpiexec mlir-runner`: `nd-partition`,
/// `nd-lower-shard-collectives`, `convert-shard-to-mpi`, `nd-to-llvm`,
/// `nd-strip-shard-metadata`, each with its default options (a pipeline
/// that needs others names the passes itself).
void buildNdShardedToLLVMPipeline(OpPassManager &pm);

/// Registers nd's pipelines, `nd-to-llvm`, `nd-to-gpu` and
/// `nd-sharded-to-llvm`, with the pass registry.
void registerNdPipelines();

} // namespace nd
} // namespace mlir

#endif // ND_PIPELINES_PIPELINES_H
