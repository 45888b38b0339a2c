//===- Donation.cpp - donated function arguments ----------------*- C++ -*-===//
//
// `--nd-donation` (before bufferization): public functions' tensor arguments
// are read-only unless marked `nd.donated`. `--nd-return-donated` (after the
// deallocation pipeline): a donated argument's buffer is returned without the
// clone the deallocation pipeline adds for buffers the function does not own.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDDONATION
#define GEN_PASS_DEF_NDRETURNDONATED
#include "nd/Dialect/Nd/Transforms/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

static bool isDonated(func::FuncOp function, unsigned index) {
  return static_cast<bool>(
      function.getArgAttr(index, NdDialect::getDonatedAttrName()));
}

namespace {
struct NdDonationPass : public mlir::nd::impl::NdDonationBase<NdDonationPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    StringRef writable = bufferization::BufferizationDialect::kWritableAttrName;
    getOperation().walk([&](func::FuncOp function) {
      if (function.isExternal() || !function.isPublic())
        return;
      for (auto [i, type] : llvm::enumerate(function.getArgumentTypes())) {
        if (!isa<TensorType>(type))
          continue;
        function.setArgAttr(i, writable, b.getBoolAttr(isDonated(function, i)));
      }
    });
  }
};

struct NdReturnDonatedPass
    : public mlir::nd::impl::NdReturnDonatedBase<NdReturnDonatedPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation().walk([&](func::FuncOp function) {
      if (function.isExternal())
        return;
      function.walk([&](func::ReturnOp ret) {
        for (OpOperand &operand : ret->getOpOperands()) {
          auto clone = operand.get().getDefiningOp<bufferization::CloneOp>();
          if (!clone || clone.getInput().getType() != clone.getType())
            continue;
          auto arg = dyn_cast<BlockArgument>(clone.getInput());
          if (!arg || arg.getOwner() != &function.getBody().front() ||
              !isDonated(function, arg.getArgNumber()))
            continue;
          operand.set(arg);
          if (clone->use_empty())
            clone->erase();
          changed = true;
        }
      });
      // Donation is done with, and the dims' names were recorded where they
      // matter (--nd-record-signature): neither attribute has a meaning in
      // LLVM, whose function conversion would copy them onto the expanded
      // descriptors' fields.
      for (unsigned i = 0, e = function.getNumArguments(); i < e; ++i) {
        if (function.removeArgAttr(i, NdDialect::getDonatedAttrName()))
          changed = true;
        if (function.removeArgAttr(i, NdDialect::getDimNamesAttrName()))
          changed = true;
      }
      for (unsigned k = 0, e = function.getNumResults(); k < e; ++k)
        if (function.removeResultAttr(k, NdDialect::getDimNamesAttrName()))
          changed = true;
    });
    // Unchanged IR need not be verified again.
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
