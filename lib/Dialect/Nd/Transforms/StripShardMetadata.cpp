//===- StripShardMetadata.cpp - drop grids and the MPI entry --------------===//
//
// `--nd-strip-shard-metadata`: once the shard and MPI ops are lowered, the
// module's `shard.grid` declarations and its `dlti.map` entry
// `"MPI:Implementation"` are all that keeps `mlir-runner`, which registers
// neither dialect, from parsing it.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): nothing upstream erases a `shard.grid` once the shard ops are
// lowered, and MLIR 22's MPI lowering reports an error ("target op of
// failed DLTI query") on a module without the `MPI:Implementation` entry, so
// the module must carry it into a stage where mlir-runner, which registers
// only the dialects that translate to LLVM IR, cannot parse it. Retired once
// `convert-shard-to-mpi` (or a cleanup after it) erases the grids nothing
// refers to and the MPI lowering does without the entry. Upstream main's
// MPI lowering queries the entry silently since PR #178870 (January 2026,
// after the 22.x branch; MPICH is the default, as in MLIR 22), so with LLVM
// 23 an MPICH program can leave it out; no upstream pass erases the grids.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDSTRIPSHARDMETADATA
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

/// The key of the MPI implementation in a module's `dlti.map`, which MLIR's
/// MPI lowering reads.
static constexpr StringLiteral kMPIImplementationKey = "MPI:Implementation";

namespace {
struct NdStripShardMetadataPass
    : public nd::impl::NdStripShardMetadataBase<NdStripShardMetadataPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (shard::GridOp grid :
         llvm::make_early_inc_range(module.getOps<shard::GridOp>())) {
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(grid, module);
      if (uses && !uses->empty()) {
        InFlightDiagnostic diag =
            grid.emitError() << "shard.grid @" << grid.getSymName()
                             << " is still used: lower the shard ops first "
                                "(convert-shard-to-mpi)";
        diag.attachNote(uses->begin()->getUser()->getLoc()) << "used here";
        return signalPassFailure();
      }
      grid.erase();
    }

    auto map = module->getAttrOfType<MapAttr>(DLTIDialect::kMapAttrName);
    if (!map)
      return;
    SmallVector<DataLayoutEntryInterface> kept;
    for (DataLayoutEntryInterface entry : map.getEntries()) {
      auto key = dyn_cast_if_present<StringAttr>(entry.getKey());
      if (!key || key.getValue() != kMPIImplementationKey)
        kept.push_back(entry);
    }
    if (kept.empty())
      module->removeAttr(DLTIDialect::kMapAttrName);
    else
      module->setAttr(DLTIDialect::kMapAttrName,
                      MapAttr::get(module.getContext(), kept));
  }
};
} // namespace
