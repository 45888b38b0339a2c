//===- StableConstantNames.cpp - constant globals named by use --*- C++ -*-===//
//
// `--nd-stable-constant-names` (after one-shot bufferization): the private
// constant globals that module bufferization makes for tensor constants get
// names and a place in the module from the order of their first use, so that
// the output does not depend on the order in which upstream bufferized the
// functions.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): module bufferization (`getFuncOpsOrderedByCalls` in
// OneShotModuleBufferize.cpp) collects the functions to bufferize from a
// DenseMap keyed by their operations' addresses, so functions that do not
// call one another are bufferized in an order that changes from run to run,
// and each constant's global is named (`__constant_<type>`, `_0`, `_1`, ...
// where the name is taken) and placed in that order. Retired by upstream PR
// #184722 (March 2026, after the 22.x branch), which makes that function's
// containers deterministic: LLVM 23.
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDSTABLECONSTANTNAMES
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

/// The prefix upstream's bufferization of `arith.constant` gives its globals.
static constexpr llvm::StringLiteral kConstantPrefix = "__constant_";

/// Whether `global` is one that bufferization made for a tensor constant.
static bool isBufferizedConstant(memref::GlobalOp global) {
  return global.isPrivate() && global.getConstant() &&
         global.getSymName().starts_with(kConstantPrefix);
}

/// `name` without upstream's uniquing suffix `_<digits>` where it has one
/// past the type (`__constant_4xf32_2` -> `__constant_4xf32`; the type part
/// itself never ends in `_<digits>`: it ends in an element type).
static StringRef baseName(StringRef name) {
  size_t underscore = name.rfind('_');
  if (underscore == StringRef::npos || underscore < kConstantPrefix.size())
    return name;
  StringRef suffix = name.drop_front(underscore + 1);
  if (suffix.empty() || !llvm::all_of(suffix, llvm::isDigit))
    return name;
  return name.take_front(underscore);
}

namespace {
struct NdStableConstantNames
    : public nd::impl::NdStableConstantNamesBase<NdStableConstantNames> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<memref::GlobalOp> constants;
    llvm::StringSet<> otherNames;
    for (Operation &op : *module.getBody()) {
      auto global = dyn_cast<memref::GlobalOp>(op);
      if (global && isBufferizedConstant(global))
        constants[global.getSymName()] = global;
      else if (StringAttr name = op.getAttrOfType<StringAttr>(
                   SymbolTable::getSymbolAttrName()))
        otherNames.insert(name.getValue());
    }
    if (constants.empty())
      return markAllAnalysesPreserved();

    // The globals in the order of their first use; every use.
    SmallVector<memref::GlobalOp> order;
    llvm::DenseMap<Operation *, unsigned> position;
    SmallVector<std::pair<memref::GetGlobalOp, memref::GlobalOp>> uses;
    module.walk([&](memref::GetGlobalOp use) {
      auto it = constants.find(use.getName());
      if (it == constants.end())
        return;
      memref::GlobalOp global = it->second;
      uses.emplace_back(use, global);
      if (position.try_emplace(global, order.size()).second)
        order.push_back(global);
    });

    // New names in that order, clear of every other symbol of the module.
    llvm::StringMap<unsigned> nextSuffix;
    SmallVector<std::string> names;
    names.reserve(order.size());
    for (memref::GlobalOp global : order) {
      StringRef base = baseName(global.getSymName());
      std::string name;
      do {
        unsigned suffix = nextSuffix[base]++;
        name = suffix == 0 ? base.str() : (base + "_" + Twine(suffix)).str();
      } while (otherNames.contains(name));
      names.push_back(std::move(name));
    }

    // Erase what nothing uses, then rename and move the rest to the start of
    // the module, in order.
    for (auto &entry : constants)
      if (!position.count(entry.second))
        entry.second.erase();
    for (auto [use, global] : uses)
      use.setName(names[position.lookup(global)]);
    Block *body = module.getBody();
    Operation *previous = nullptr;
    for (auto [global, name] : llvm::zip_equal(order, names)) {
      global.setSymName(name);
      if (previous)
        global->moveAfter(previous);
      else
        global->moveBefore(body, body->begin());
      previous = global;
    }
  }
};
} // namespace
