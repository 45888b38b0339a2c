//===- BufferAddresses.cpp - static buffers passed as addresses -*- C++ -*-===//
//
// `--nd-buffer-addresses` (the host's tail of nd's pipelines, before the
// LLVM conversions): each argument of static shape and identity layout of
// a function marked `nd_rt.op_function` becomes the address of the
// buffer's first element. A call passes `nd_rt.buffer_address %buffer`; the
// function starts with `nd_rt.buffer_at %address`, which stands for the
// argument from then on. In the LLVM stage a memref argument is its
// descriptor's `3 + 2 * rank` values, each taken out of the caller's
// descriptor (an `llvm.extractvalue`) and put back into the callee's; the
// address is one pointer. What the marked functions promise (the nd_rt
// dialect's description): private, only called, none of their buffers
// freed (the view `nd_rt.buffer_at` makes has no allocation of its own).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDBUFFERADDRESSES
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// The calls of each marked function of `module` whose symbol has no use
/// but calls of it (one walk of the module).
static llvm::MapVector<func::FuncOp, SmallVector<func::CallOp>>
onlyCalledFunctions(ModuleOp module) {
  llvm::MapVector<func::FuncOp, SmallVector<func::CallOp>> calls;
  DenseMap<StringAttr, func::FuncOp> marked;
  for (auto function : module.getOps<func::FuncOp>())
    if (function->hasAttr(rt::kOpFunctionAttrName) && function.isPrivate() &&
        !function.isExternal()) {
      marked[function.getSymNameAttr()] = function;
      calls[function];
    }
  std::optional<SymbolTable::UseRange> uses =
      SymbolTable::getSymbolUses(&module.getBodyRegion());
  if (!uses)
    return {};
  DenseSet<func::FuncOp> otherUses;
  for (const SymbolTable::SymbolUse &use : *uses) {
    func::FuncOp function =
        marked.lookup(use.getSymbolRef().getRootReference());
    if (!function)
      continue;
    auto call = dyn_cast<func::CallOp>(use.getUser());
    if (call && call.getCalleeAttr().getAttr() == function.getSymNameAttr())
      calls[function].push_back(call);
    else
      otherUses.insert(function);
  }
  for (func::FuncOp function : otherUses)
    calls.erase(function);
  return calls;
}

/// Rewrites `function` and its `calls`: each argument of static shape and
/// identity layout (rt::isStaticBuffer, nd_rt.buffer_at's type) an address.
static void passAddresses(func::FuncOp function, ArrayRef<func::CallOp> calls) {
  SmallVector<unsigned> arguments;
  for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
    if (rt::isStaticBuffer(type))
      arguments.push_back(i);
  if (arguments.empty())
    return;
  OpBuilder b(function.getContext());
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  Block &entry = function.getBody().front();
  b.setInsertionPointToStart(&entry);
  SmallVector<Type> inputs(function.getArgumentTypes());
  for (unsigned i : arguments) {
    BlockArgument argument = entry.getArgument(i);
    Type type = argument.getType();
    argument.setType(ptrType);
    auto view = rt::BufferAtOp::create(b, argument.getLoc(), type, argument);
    argument.replaceAllUsesExcept(view, view);
    inputs[i] = ptrType;
  }
  function.setFunctionType(
      b.getFunctionType(inputs, function.getResultTypes()));
  for (func::CallOp call : calls) {
    b.setInsertionPoint(call);
    for (unsigned i : arguments) {
      OpOperand &operand = call->getOpOperand(i);
      operand.set(rt::BufferAddressOp::create(b, call.getLoc(), operand.get()));
    }
  }
}

namespace {
struct NdBufferAddressesPass
    : public nd::impl::NdBufferAddressesBase<NdBufferAddressesPass> {
  void runOnOperation() override {
    for (auto &[function, calls] : onlyCalledFunctions(getOperation()))
      passAddresses(function, calls);
  }
};
} // namespace
