//===- RuntimeToLLVM.cpp - nd's run-time calls in the LLVM stage -*- C++
//-*-===//
//
// `--convert-nd-runtime-to-llvm`: the calls `--lower-scatter` leaves for the
// LLVM stage. `func.call @__nd_report_error(a, b) {nd.message = M}` becomes
// `llvm.call @nd_report_error(@msg, a, b)` with M in a private constant
// global (one per distinct message); `func.call @__nd_max_threads()` becomes
// `omp_get_max_threads()` (or 1 without OpenMP).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::nd {
#define GEN_PASS_DEF_CONVERTNDRUNTIMETOLLVM
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

// The names --lower-scatter uses (see LoweringSupport.h).
static constexpr StringLiteral kReportErrorFn = "__nd_report_error";
static constexpr StringLiteral kMessageAttr = "nd.message";
static constexpr StringLiteral kMaxThreadsFn = "__nd_max_threads";

namespace {
struct ConvertNdRuntimeToLLVMPass
    : public mlir::nd::impl::ConvertNdRuntimeToLLVMBase<
          ConvertNdRuntimeToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::CallOp> reports, threadQueries;
    module.walk([&](func::CallOp call) {
      if (call.getCallee() == kReportErrorFn)
        reports.push_back(call);
      else if (call.getCallee() == kMaxThreadsFn)
        threadQueries.push_back(call);
    });

    MLIRContext *ctx = &getContext();
    OpBuilder b(ctx);
    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    Type i64 = b.getI64Type();
    Type i32 = b.getI32Type();
    SymbolTable symbols(module);

    if (!reports.empty()) {
      FailureOr<LLVM::LLVMFuncOp> reporter = LLVM::lookupOrCreateFn(
          b, module, kHostReportErrorFn, {ptrType, i64, i64},
          LLVM::LLVMVoidType::get(ctx));
      if (failed(reporter))
        return signalPassFailure();
      // One global per distinct message.
      llvm::StringMap<LLVM::GlobalOp> globals;
      for (func::CallOp call : reports) {
        auto message = call->getAttrOfType<StringAttr>(kMessageAttr);
        if (!message || call.getNumOperands() != 2) {
          call.emitOpError() << "expected two i64 operands and an '"
                             << kMessageAttr << "' string";
          return signalPassFailure();
        }
        LLVM::GlobalOp &global = globals[message.getValue()];
        if (!global) {
          std::string text = message.getValue().str();
          text.push_back('\0');
          b.setInsertionPointToStart(module.getBody());
          auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
          global = LLVM::GlobalOp::create(
              b, call.getLoc(), type, /*isConstant=*/true,
              LLVM::Linkage::Private, "__nd_msg", b.getStringAttr(text));
          // Renames on a clash: one symbol table for the whole pass.
          symbols.insert(global);
        }
        b.setInsertionPoint(call);
        Value address = LLVM::AddressOfOp::create(b, call.getLoc(), global);
        LLVM::CallOp::create(
            b, call.getLoc(), *reporter,
            ValueRange{address, call.getOperand(0), call.getOperand(1)});
        call.erase();
      }
    }

    if (!threadQueries.empty()) {
      LLVM::LLVMFuncOp ompMaxThreads;
      if (parallel) {
        FailureOr<LLVM::LLVMFuncOp> fn =
            LLVM::lookupOrCreateFn(b, module, "omp_get_max_threads", {}, i32);
        if (failed(fn))
          return signalPassFailure();
        ompMaxThreads = *fn;
      }
      for (func::CallOp call : threadQueries) {
        b.setInsertionPoint(call);
        Location loc = call.getLoc();
        Value threads;
        if (parallel) {
          auto query =
              LLVM::CallOp::create(b, loc, ompMaxThreads, ValueRange{});
          threads = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                               query.getResult());
        } else {
          threads = arith::ConstantIndexOp::create(b, loc, 1);
        }
        call.getResult(0).replaceAllUsesWith(threads);
        call.erase();
      }
    }

    for (StringRef name : {kReportErrorFn, kMaxThreadsFn}) {
      auto declaration = symbols.lookup<func::FuncOp>(name);
      if (declaration && declaration.isExternal() &&
          SymbolTable::symbolKnownUseEmpty(declaration, module))
        symbols.erase(declaration);
    }
  }
};
} // namespace
