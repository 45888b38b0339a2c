//===- Passes.h - nd's transforms -------------------------------*- C++ -*-===//
//
// The passes of include/nd/Dialect/Nd/Transforms/Passes.td (donation and
// shared read buffers around one-shot bufferization, the passes of sharded
// programs) and the external models that let upstream's sharding and MPI
// passes handle nd programs. The
// `nd-sharded-to-llvm` pipeline built from them is in nd/Pipelines.
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
/// that use them. A bridge over a gap of MLIR 22 (docs/Rationale.md,
/// "Bridges over gaps of MLIR 22"): upstream main declares the effects itself
/// since PR #186158, and a model is attached only where an op declares none.
void registerMPIMemoryEffectsExternalModels(DialectRegistry &registry);

/// Adds the rewrite of `shard.all_gather` into a `shard.all_reduce` (see
/// `--nd-lower-shard-collectives`) to `patterns`.
void populateAllGatherToAllReducePatterns(RewritePatternSet &patterns,
                                          SymbolTableCollection &symbolTables);

#define GEN_PASS_REGISTRATION
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"

} // namespace nd
} // namespace mlir

#endif // ND_DIALECT_ND_TRANSFORMS_PASSES_H
