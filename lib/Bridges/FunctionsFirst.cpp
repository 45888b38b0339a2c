//===- FunctionsFirst.cpp - functions ahead for convert-to-llvm -*- C++ -*-===//
//
// `--nd-functions-first` and `--nd-restore-order`, around upstream's
// `convert-to-llvm`: where many globals precede the functions of a module,
// the functions move ahead of them for the conversion, the module's order
// recorded in its `nd.order` attribute (the symbol names of its top-level
// ops, in order), and go back afterwards. The conversion sees the functions
// in the same order and makes the same ops; its callee lookups are short.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): the lowering of `func.call` looks its callee up with
// `SymbolTable::lookupNearestSymbolFrom`, which scans the module's ops from
// the first; 10,000 independent nd ops (10,000 calls, 10,000 constant
// globals ahead of the functions) spent 10 s of CPU there. Retired once the
// call lowering resolves callees through a SymbolTableCollection.
//
// A module the first pass leaves as it is (few ops ahead of a function, or
// a top-level op without a symbol name) has no `nd.order`, and the second
// leaves it as it is too: neither is then verified again.
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"

#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDFUNCTIONSFIRST
#define GEN_PASS_DEF_NDRESTOREORDER
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

/// The module attribute that holds the order to restore.
static constexpr llvm::StringLiteral kOrderAttr = "nd.order";

static StringAttr getSymbolName(Operation &op) {
  return op.getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
}

/// The most other top-level ops of `body` ahead of one of its functions.
static int64_t countOpsAheadOfFunctions(Block &body) {
  int64_t others = 0, ahead = 0;
  for (Operation &op : body) {
    if (isa<FunctionOpInterface>(op))
      ahead = others;
    else
      ++others;
  }
  return ahead;
}

/// Moves `ops` to the start of `body`, in their order, each after the one
/// before.
static void moveToStart(Block &body, ArrayRef<Operation *> ops) {
  Operation *previous = nullptr;
  for (Operation *op : ops) {
    if (previous)
      op->moveAfter(previous);
    else
      op->moveBefore(&body, body.begin());
    previous = op;
  }
}

/// The ops of `body` in the order of `names`, ops without a place (added
/// since) before the first of them where they are first, else after the op
/// they follow.
static SmallVector<Operation *> getRestoredOrder(Block &body,
                                                 ArrayAttr names) {
  llvm::DenseMap<StringAttr, Operation *> byName;
  for (Operation &op : body)
    if (StringAttr name = getSymbolName(op))
      byName[name] = &op;
  SmallVector<Operation *> placed;
  llvm::SmallPtrSet<Operation *, 16> isPlaced;
  for (Attribute name : names) {
    Operation *op = byName.lookup(cast<StringAttr>(name));
    if (op && isPlaced.insert(op).second)
      placed.push_back(op);
  }
  SmallVector<Operation *> order;
  llvm::DenseMap<Operation *, SmallVector<Operation *>> followers;
  Operation *last = nullptr;
  for (Operation &op : body) {
    if (isPlaced.contains(&op))
      last = &op;
    else if (last)
      followers[last].push_back(&op);
    else
      order.push_back(&op);
  }
  for (Operation *op : placed) {
    order.push_back(op);
    llvm::append_range(order, followers.lookup(op));
  }
  return order;
}

namespace {
struct NdFunctionsFirstPass
    : public mlir::nd::impl::NdFunctionsFirstBase<NdFunctionsFirstPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Block &body = *module.getBody();
    if (countOpsAheadOfFunctions(body) < minOps)
      return markAllAnalysesPreserved();
    SmallVector<Attribute> names;
    SmallVector<Operation *> functions;
    for (Operation &op : body) {
      StringAttr name = getSymbolName(op);
      if (!name)
        return markAllAnalysesPreserved();
      names.push_back(name);
      if (isa<FunctionOpInterface>(op))
        functions.push_back(&op);
    }
    module->setAttr(kOrderAttr, ArrayAttr::get(&getContext(), names));
    moveToStart(body, functions);
  }
};

struct NdRestoreOrderPass
    : public mlir::nd::impl::NdRestoreOrderBase<NdRestoreOrderPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto names = module->getAttrOfType<ArrayAttr>(kOrderAttr);
    if (!names)
      return markAllAnalysesPreserved();
    Block &body = *module.getBody();
    SmallVector<Operation *> order = getRestoredOrder(body, names);
    moveToStart(body, order);
    module->removeAttr(kOrderAttr);
  }
};
} // namespace
