//===- CallState.cpp - the call state of every report -----------*- C++ -*-===//
//
// `--nd-call-state`: every function the module defines takes the state of
// the host's call (`nd_call_state *`, nd-c/RuntimeABI.h) as a new last
// argument and passes it on, to the functions it calls and to
// `nd_report_error` and `nd_report_out_of_memory`. OpenMP regions are regions
// of their function in the LLVM dialect (the OpenMP translation outlines them
// later), so reports made by worker threads see the state of the call that
// forked them.
//
// Preconditions: the module is in the LLVM dialect with nd's run-time calls
// lowered (`--convert-nd-runtime-to-llvm`, `--nd-check-allocations`): each
// report is a direct call of `nd_report_error` or `nd_report_out_of_memory`
// whose first argument is the state.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDCALLSTATE
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// Appends `state` to the arguments of `call` (and an empty dictionary to its
/// argument attributes, if it has any).
static void appendArgument(LLVM::CallOp call, Value state) {
  call.getCalleeOperandsMutable().append(state);
  if (ArrayAttr attrs = call.getArgAttrsAttr()) {
    SmallVector<Attribute> extended(attrs.begin(), attrs.end());
    extended.push_back(DictionaryAttr::get(call.getContext()));
    call.setArgAttrsAttr(ArrayAttr::get(call.getContext(), extended));
  }
}

/// Appends an argument of `type` to the defined function `function`.
/// (FunctionOpInterface's insertArgument cannot: LLVMFuncOp's type clone
/// refuses a function returning void.)
static void appendArgument(LLVM::LLVMFuncOp function, Type type) {
  MLIRContext *context = function.getContext();
  LLVM::LLVMFunctionType functionType = function.getFunctionType();
  SmallVector<Type> params(functionType.getParams());
  params.push_back(type);
  function.setFunctionType(LLVM::LLVMFunctionType::get(
      functionType.getReturnType(), params, functionType.isVarArg()));
  if (ArrayAttr attrs = function.getArgAttrsAttr()) {
    SmallVector<Attribute> extended(attrs.begin(), attrs.end());
    extended.push_back(DictionaryAttr::get(context));
    function.setArgAttrsAttr(ArrayAttr::get(context, extended));
  }
  function.getBody().front().addArgument(type, function.getLoc());
}

namespace {
struct NdCallStatePass
    : public mlir::nd::impl::NdCallStateBase<NdCallStatePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();

    SmallVector<LLVM::LLVMFuncOp> defined;
    llvm::DenseSet<StringAttr> definedNames;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>()) {
      if (function.isExternal())
        continue;
      defined.push_back(function);
      definedNames.insert(function.getSymNameAttr());
    }
    // Every use of a defined function must be a direct call, which can pass
    // the state on.
    bool addressTaken = false;
    for (LLVM::LLVMFuncOp function : defined) {
      std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(function, module);
      for (const SymbolTable::SymbolUse &use : *uses) {
        auto call = dyn_cast<LLVM::CallOp>(use.getUser());
        if (call && call.getCallee() == function.getSymName())
          continue;
        use.getUser()->emitError()
            << "takes the address of @" << function.getSymName()
            << ", which cannot be given the call state";
        addressTaken = true;
      }
    }
    if (addressTaken)
      return signalPassFailure();

    auto pointerType = LLVM::LLVMPointerType::get(context);
    for (LLVM::LLVMFuncOp function : defined)
      appendArgument(function, pointerType);

    bool malformed = false;
    module.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (!callee)
        return;
      auto function = call->getParentOfType<LLVM::LLVMFuncOp>();
      Value state = function.getArgument(function.getNumArguments() - 1);
      if (definedNames.contains(call.getCalleeAttr().getAttr())) {
        appendArgument(call, state);
        return;
      }
      if (*callee != kHostReportErrorFn && *callee != kHostReportOutOfMemoryFn)
        return;
      if (call.getArgOperands().empty() ||
          call.getArgOperands().front().getType() != pointerType) {
        call.emitError() << "expected the call state as the first argument "
                            "of @"
                         << *callee;
        malformed = true;
        return;
      }
      call.getArgOperandsMutable()[0].set(state);
    });
    if (malformed)
      signalPassFailure();
  }
};
} // namespace
