//===- Passes.h - nd passes for sharded programs ----------------*- C++ -*-===//
//
// The passes of include/nd/Dialect/Nd/Transforms/Passes.td, the
// `nd-sharded-to-llvm` pipeline and the external models that let upstream's
// sharding and MPI passes handle nd programs.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_TRANSFORMS_PASSES_H
#define ND_DIALECT_ND_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir {
class DialectRegistry;
class RewritePatternSet;
class SymbolTableCollection;

namespace nd {

#define GEN_PASS_DECL
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"

/// Attaches upstream's `shard::ShardingInterface` to every nd op, so that
/// `sharding-propagation` and `shard-partition` handle nd ops (see
/// docs/Rationale.md, "Sharded programs", for the partitionings).
void registerShardingInterfaceExternalModels(DialectRegistry &registry);

/// Attaches `MemoryEffectOpInterface` to the MPI dialect's ops that have
/// effects but do not declare them in MLIR 22 (`mpi.init`, `mpi.allreduce`,
/// `mpi.send`, ...), so that bufferization's deallocation accepts functions
/// that use them.
void registerMPIMemoryEffectsExternalModels(DialectRegistry &registry);

/// Adds the rewrite of `shard.all_gather` into a `shard.all_reduce` (see
/// `--nd-lower-shard-collectives`) to `patterns`.
void populateAllGatherToAllReducePatterns(RewritePatternSet &patterns,
                                          SymbolTableCollection &symbolTables);

/// Options of the `nd-sharded-to-llvm` pipeline.
struct NdShardedToLLVMPipelineOptions
    : public PassPipelineOptions<NdShardedToLLVMPipelineOptions> {
  PassOptions::Option<bool> checkBounds{
      *this, "check-bounds",
      llvm::cl::desc("Check index values and dynamic shapes of nd ops at run "
                     "time (see --lower-scatter)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkProcessCount{
      *this, "check-process-count",
      llvm::cl::desc("Check that the processes running each partitioned "
                     "function are as many as its grid has (see "
                     "--nd-partition)"),
      llvm::cl::init(true)};
};

/// Builds the pipeline from a module with sharded functions to the LLVM
/// dialect, ready for `mpiexec mlir-runner`: `nd-partition`,
/// `nd-lower-shard-collectives`, `convert-shard-to-mpi`, `nd-to-llvm`,
/// `nd-strip-shard-metadata`.
void buildNdShardedToLLVMPipeline(
    OpPassManager &pm, const NdShardedToLLVMPipelineOptions &options);

/// Registers the `nd-sharded-to-llvm` pipeline (the passes of Passes.td are
/// registered by registerNdShardPasses, below).
void registerNdShardPipelines();

#define GEN_PASS_REGISTRATION
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"

} // namespace nd
} // namespace mlir

#endif // ND_DIALECT_ND_TRANSFORMS_PASSES_H
