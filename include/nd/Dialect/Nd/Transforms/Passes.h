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

/// Builds the pipeline from a module with sharded functions to the LLVM
/// dialect, ready for `mpiexec mlir-runner`: `nd-partition`,
/// `nd-lower-shard-collectives`, `convert-shard-to-mpi`, `nd-to-llvm`,
/// `nd-strip-shard-metadata`, each with its default options (a pipeline
/// that needs others names the passes itself).
void buildNdShardedToLLVMPipeline(OpPassManager &pm);

/// Registers the `nd-sharded-to-llvm` pipeline (the passes of Passes.td are
/// registered by registerNdShardPasses, below).
void registerNdShardPipelines();

#define GEN_PASS_REGISTRATION
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"

} // namespace nd
} // namespace mlir

#endif // ND_DIALECT_ND_TRANSFORMS_PASSES_H
