//===- ResultDestinations.cpp - results into the caller's buffers -*- C++ -*-//
//
// `--nd-result-destinations`: the entry takes one destination buffer per
// result after its arguments, and computes each result that is a fresh
// allocation of its own into its destination when the destination fits (see
// the pass description). A host that passes the caller's output buffer there
// finds the result in it: the copy from nd's buffer into the caller's that
// it would make otherwise is gone.
//
// Preconditions: the module is on buffers (one-shot bufferization with
// identity layouts at function boundaries, then the deallocation pipeline
// and `nd-return-donated`: a returned allocation is owned by the caller and
// never freed by the entry). An entry that other functions of the module call
// keeps its signature (its callers pass no destinations) and is not marked.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDRESULTDESTINATIONS
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// Whether `buffer`, or a view of it, is freed (`memref.dealloc`) or
/// reallocated anywhere.
static bool isFreed(Value buffer) {
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::DeallocOp, memref::ReallocOp>(user))
        return true;
      if (auto view = dyn_cast<ViewLikeOpInterface>(user)) {
        if (view.getViewSource() == value)
          worklist.push_back(view->getResult(0));
        continue;
      }
      if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(user))
        worklist.push_back(metadata.getBaseBuffer());
    }
  }
  return false;
}

/// The allocation that result `k` of `entry` is at every return, where the
/// result may be computed into a destination instead: a `memref.alloc` of
/// identity layout, returned as this result only and never freed.
static memref::AllocOp findResultAllocation(ArrayRef<func::ReturnOp> returns,
                                            unsigned k) {
  Value result = func::ReturnOp(returns.front()).getOperand(k);
  for (func::ReturnOp op : returns) {
    if (op.getOperand(k) != result)
      return nullptr;
    if (llvm::count(op.getOperands(), result) != 1)
      return nullptr;
  }
  auto alloc = result.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().getLayout().isIdentity() ||
      isFreed(alloc.getResult()))
    return nullptr;
  return alloc;
}

/// Whether `destination` is not null and has the sizes `alloc` allocates.
static Value destinationFits(OpBuilder &b, memref::AllocOp alloc,
                             Value destination) {
  Location loc = alloc.getLoc();
  MemRefType type = alloc.getType();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, b.getIndexType(), destination);
  Value fits =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, pointer, zero);
  unsigned dynamic = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    Value size;
    if (type.isDynamicDim(d))
      size = alloc.getDynamicSizes()[dynamic++];
    else
      size = arith::ConstantIndexOp::create(b, loc, type.getDimSize(d));
    Value given = memref::DimOp::create(b, loc, destination, d);
    Value same =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, given, size);
    fits = arith::AndIOp::create(b, loc, fits, same);
  }
  return fits;
}

/// Replaces `alloc` by `destination` where it fits, keeping the allocation
/// for where it does not.
static void computeIntoDestination(memref::AllocOp alloc, Value destination) {
  OpBuilder b(alloc);
  Location loc = alloc.getLoc();
  Value fits = destinationFits(b, alloc, destination);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{alloc.getType()}, fits,
                                /*addThenBlock=*/true, /*addElseBlock=*/true);
  Value buffer = ifOp.getResult(0);
  alloc.getResult().replaceAllUsesWith(buffer);
  OpBuilder thenBuilder = ifOp.getThenBodyBuilder();
  scf::YieldOp::create(thenBuilder, loc, destination);
  OpBuilder elseBuilder = ifOp.getElseBodyBuilder();
  auto yield = scf::YieldOp::create(elseBuilder, loc, alloc.getResult());
  alloc->moveBefore(yield);
}

namespace {
struct NdResultDestinationsPass
    : public mlir::nd::impl::NdResultDestinationsBase<
          NdResultDestinationsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto entry = module.lookupSymbol<func::FuncOp>(function);
    if (!entry || entry.isExternal()) {
      module.emitError() << "nd-result-destinations: the module defines no "
                            "function @"
                         << function << " with a body";
      return signalPassFailure();
    }
    // Its callers in the module pass no destinations.
    if (!SymbolTable::symbolKnownUseEmpty(entry, module))
      return;
    SmallVector<Type> results(entry.getResultTypes());
    for (auto [k, type] : llvm::enumerate(results)) {
      auto memref = dyn_cast<MemRefType>(type);
      if (!memref || !memref.getLayout().isIdentity()) {
        entry.emitError() << "nd-result-destinations: result #" << k << " is "
                          << type << ", not a buffer of identity layout";
        return signalPassFailure();
      }
    }
    SmallVector<func::ReturnOp> returns;
    entry.walk([&](func::ReturnOp op) { returns.push_back(op); });

    unsigned first = entry.getNumArguments();
    SmallVector<unsigned> positions;
    SmallVector<DictionaryAttr> attributes;
    SmallVector<Location> locations;
    for (unsigned k = 0; k < results.size(); ++k) {
      positions.push_back(first);
      attributes.push_back(DictionaryAttr::get(&getContext()));
      locations.push_back(entry.getLoc());
    }
    if (failed(
            entry.insertArguments(positions, results, attributes, locations)))
      return signalPassFailure();
    for (unsigned k = 0; k < results.size() && !returns.empty(); ++k)
      if (memref::AllocOp alloc = findResultAllocation(returns, k))
        computeIntoDestination(alloc, entry.getArgument(first + k));
    entry->setAttr(kResultDestinationsAttr,
                   IntegerAttr::get(IntegerType::get(&getContext(), 64),
                                    static_cast<int64_t>(results.size())));
  }
};
} // namespace
