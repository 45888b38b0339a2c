//===- Pipelines.h - nd pass pipelines --------------------------*- C++ -*-===//

#ifndef ND_PIPELINES_PIPELINES_H
#define ND_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;

namespace nd {

/// Options of the `nd-to-llvm` pipeline.
struct NdToLLVMPipelineOptions
    : public PassPipelineOptions<NdToLLVMPipelineOptions> {
  PassOptions::Option<bool> checkBounds{
      *this, "check-bounds",
      llvm::cl::desc("Check index values and dynamic shapes of nd ops at run "
                     "time (see --lower-scatter)"),
      llvm::cl::init(true)};
};

/// Builds the pipeline that takes a module of tensor functions using nd ops
/// (and the usual arith/tensor/linalg/bufferization ops around them) down to
/// the LLVM dialect, ready for mlir-runner or an ExecutionEngine: lower the
/// nd ops, bufferize (function boundaries with identity layouts), deallocate,
/// lower linalg to loops and everything to LLVM.
void buildNdToLLVMPipeline(OpPassManager &pm,
                           const NdToLLVMPipelineOptions &options);

/// Registers `nd-to-llvm` with the pass registry.
void registerNdPipelines();

} // namespace nd
} // namespace mlir

#endif // ND_PIPELINES_PIPELINES_H
