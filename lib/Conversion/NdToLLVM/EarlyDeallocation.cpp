//===- EarlyDeallocation.cpp - free a buffer after its last use -*- C++ -*-===//
//
// `--nd-early-deallocation` (the host's tail of nd's pipelines, after
// `--lower-scatter`): the deallocation pipeline frees a function's buffers
// at the end of the block that allocated them, so a chain of N ops keeps
// all N intermediate buffers until the function returns (its peak memory
// is their sum), and the register allocator of the generated code sees N
// pointers live across the whole function. This pass moves each
// `memref.dealloc` of a `memref.alloc` of its own block up to just after
// the last op of the block that uses the buffer, where every use is one
// that neither keeps the buffer nor makes a view of it: a `memref.copy`,
// `memref.load`, `memref.store` or `memref.dim`, or a call, without
// results, of the function of an nd op (`nd_rt.op_function`: it frees and
// keeps none of its buffers). A buffer with any other use (a view, a call
// of another function, a return) is freed where it was.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDEARLYDEALLOCATION
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

namespace {
/// The deallocations of one module and the facts they are moved by.
class EarlyDeallocation {
public:
  explicit EarlyDeallocation(ModuleOp module) : symbols(module) {}

  /// The op of `dealloc`'s block after which the buffer can be freed, or
  /// null where it stays.
  Operation *lastUse(memref::DeallocOp dealloc);

private:
  bool isTransientUse(Operation *user);

  SymbolTable symbols;
};
} // namespace

bool EarlyDeallocation::isTransientUse(Operation *user) {
  if (isa<memref::CopyOp, memref::LoadOp, memref::StoreOp, memref::DimOp>(
          user))
    return true;
  auto call = dyn_cast<func::CallOp>(user);
  if (!call || call.getNumResults() != 0)
    return false;
  auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
  return callee && callee->hasAttr(rt::kOpFunctionAttrName);
}

Operation *EarlyDeallocation::lastUse(memref::DeallocOp dealloc) {
  Value buffer = dealloc.getMemref();
  auto alloc = buffer.getDefiningOp<memref::AllocOp>();
  Block *block = dealloc->getBlock();
  if (!alloc || alloc->getBlock() != block)
    return nullptr;
  // The block's order is MLIR's own (Operation::isBeforeInBlock), numbered
  // once per block while nothing moves.
  Operation *last = alloc;
  for (Operation *user : buffer.getUsers()) {
    if (user == dealloc)
      continue;
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor || !isTransientUse(user) ||
        dealloc->isBeforeInBlock(ancestor))
      return nullptr;
    if (last->isBeforeInBlock(ancestor))
      last = ancestor;
  }
  return last;
}

namespace {
struct NdEarlyDeallocationPass
    : public nd::impl::NdEarlyDeallocationBase<NdEarlyDeallocationPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    EarlyDeallocation analysis(module);
    // Every destination is found before anything moves (on the blocks'
    // order as it was); the deallocations after one op keep their order.
    llvm::MapVector<Operation *, SmallVector<Operation *>> moves;
    module.walk([&](memref::DeallocOp dealloc) {
      if (Operation *last = analysis.lastUse(dealloc))
        if (last->getNextNode() != dealloc)
          moves[last].push_back(dealloc);
    });
    for (auto &[last, deallocs] : moves) {
      Operation *after = last;
      for (Operation *dealloc : deallocs) {
        dealloc->moveAfter(after);
        after = dealloc;
      }
    }
  }
};
} // namespace
