//===- MPIMemoryEffects.cpp - effects of the MPI dialect's ops ------------===//
//
// MLIR 22's MPI ops that communicate (`mpi.init`, `mpi.allreduce`,
// `mpi.send`, ...) declare no memory effects, so bufferization's ownership-
// based deallocation rejects any function that uses them ("ops with unknown
// memory side effects are not supported"), and `convert-shard-to-mpi` emits
// them into the very functions it bufferizes. These models state what the
// ops do: they read the buffers they send, write the buffers they receive
// into, and read and write MPI's own state (the default resource), which
// also keeps them from being reordered or erased.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"; test/Shard/Upstream/deallocation-mpi.mlir). Retired by MPIOps.td
// declaring the effects, which upstream main does since PR #186158 (March
// 2026, after the 22.x branch): each model below is attached only where the
// op declares none, so with LLVM 23 they step aside by themselves and this
// file can go.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

using EffectList =
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>;

/// MPI's state: every op below reads and writes it.
static void addStateEffects(EffectList &effects) {
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

namespace {
template <typename OpTy>
struct StateOnlyEffects
    : public MemoryEffectOpInterface::ExternalModel<StateOnlyEffects<OpTy>,
                                                    OpTy> {
  void getEffects(Operation *op, EffectList &effects) const {
    addStateEffects(effects);
  }
};

/// Sends read the buffer `ref` (`Effect` is Read), receives write it
/// (`Effect` is Write).
template <typename OpTy, typename Effect>
struct BufferEffects
    : public MemoryEffectOpInterface::ExternalModel<BufferEffects<OpTy, Effect>,
                                                    OpTy> {
  void getEffects(Operation *op, EffectList &effects) const {
    addStateEffects(effects);
    effects.emplace_back(Effect::get(), &cast<OpTy>(op).getRefMutable());
  }
};

struct AllReduceEffects
    : public MemoryEffectOpInterface::ExternalModel<AllReduceEffects,
                                                    mpi::AllReduceOp> {
  void getEffects(Operation *op, EffectList &effects) const {
    auto allReduce = cast<mpi::AllReduceOp>(op);
    addStateEffects(effects);
    effects.emplace_back(MemoryEffects::Read::get(),
                         &allReduce.getSendbufMutable());
    effects.emplace_back(MemoryEffects::Write::get(),
                         &allReduce.getRecvbufMutable());
  }
};
} // namespace

/// Attaches `Model` to `OpTy` unless the op declares its effects itself (as
/// a later MLIR may).
template <typename OpTy, typename Model>
static void attachUnlessDeclared(MLIRContext *ctx) {
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(OpTy::getOperationName(), ctx);
  if (name && !name->hasInterface<MemoryEffectOpInterface>())
    OpTy::template attachInterface<Model>(*ctx);
}

void mlir::nd::registerMPIMemoryEffectsExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, mpi::MPIDialect *) {
    attachUnlessDeclared<mpi::InitOp, StateOnlyEffects<mpi::InitOp>>(ctx);
    attachUnlessDeclared<mpi::FinalizeOp, StateOnlyEffects<mpi::FinalizeOp>>(
        ctx);
    attachUnlessDeclared<mpi::Barrier, StateOnlyEffects<mpi::Barrier>>(ctx);
    attachUnlessDeclared<mpi::Wait, StateOnlyEffects<mpi::Wait>>(ctx);
    using Read = MemoryEffects::Read;
    using Write = MemoryEffects::Write;
    attachUnlessDeclared<mpi::SendOp, BufferEffects<mpi::SendOp, Read>>(ctx);
    attachUnlessDeclared<mpi::ISendOp, BufferEffects<mpi::ISendOp, Read>>(ctx);
    attachUnlessDeclared<mpi::RecvOp, BufferEffects<mpi::RecvOp, Write>>(ctx);
    attachUnlessDeclared<mpi::IRecvOp, BufferEffects<mpi::IRecvOp, Write>>(ctx);
    attachUnlessDeclared<mpi::AllReduceOp, AllReduceEffects>(ctx);
  });
}
