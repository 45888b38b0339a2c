//===- SimplifyDeallocations.cpp - dealloc simplification by size -*- C++ -*-//
//
// `--nd-simplify-deallocations`: upstream's buffer-deallocation-
// simplification on the functions whose dealloc ops list few buffers (it
// compares every pair of them). In the others, a dealloc op whose buffers all
// come from distinct allocations of the function (allocs, and the results of
// calls of private functions that return fresh allocations, as nd's op
// functions do) or from its arguments (never freed) is resolved in linear
// time: distinct allocations never alias, so each is freed unless retained,
// and a retained value's ownership is that of its own allocation. Other
// dealloc ops stay for bufferization-lower-deallocations, which lowers any.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): upstream's `buffer-deallocation-simplification` compares every
// buffer of a dealloc op with every other (its
// SplitDeallocWhenNotAliasingAnyOther pattern), quadratic in their number.
// Retired once the upstream simplification resolves a dealloc op of
// distinct allocations in linear time, e.g. by grouping its buffers by
// allocation root before comparing them (and, to cover nd's op functions,
// knows the results of private functions that return fresh allocations).
// Upstream main has the quadratic pattern still: issue #219740 (August
// 2026) reports it for a dealloc of 2,547 buffers, open.
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDSIMPLIFYDEALLOCATIONS
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

namespace {
/// Where the buffers of a function come from.
class BufferRoots {
public:
  explicit BufferRoots(ModuleOp module) : symbols(module) {}

  /// The value `memref` is a view of (through view-like ops and the base
  /// buffer of `memref.extract_strided_metadata`): a function argument, a
  /// fresh allocation (see `isFresh`), or something else.
  Value root(Value memref) {
    while (true) {
      Operation *def = memref.getDefiningOp();
      if (!def)
        return memref;
      if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def)) {
        memref = meta.getSource();
        continue;
      }
      if (auto view = dyn_cast<ViewLikeOpInterface>(def)) {
        memref = view.getViewSource();
        continue;
      }
      return memref;
    }
  }

  /// Whether `origin` is a new buffer no other root aliases: the result of a
  /// memref.alloc, or of a call of a private function of the module that
  /// returns, in that position, a memref.alloc of its own body.
  bool isFresh(Value origin) {
    Operation *def = origin.getDefiningOp();
    if (!def)
      return false;
    if (isa<memref::AllocOp>(def))
      return true;
    auto call = dyn_cast<func::CallOp>(def);
    if (!call)
      return false;
    auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
    if (!callee || callee.isExternal() || !callee.isPrivate())
      return false;
    unsigned position = cast<OpResult>(origin).getResultNumber();
    auto key = std::make_pair(callee.getOperation(), position);
    auto cached = freshResults.find(key);
    if (cached != freshResults.end())
      return cached->second;
    bool fresh = true;
    callee.walk([&](func::ReturnOp ret) {
      Value returned = ret.getOperand(position);
      Operation *source = root(returned).getDefiningOp();
      if (!source || !isa<memref::AllocOp>(source) ||
          source->getParentOfType<func::FuncOp>() != callee)
        fresh = false;
    });
    freshResults[key] = fresh;
    return fresh;
  }

private:
  SymbolTable symbols;
  llvm::DenseMap<std::pair<Operation *, unsigned>, bool> freshResults;
};
} // namespace

/// Whether `value` is the constant `expected`.
static bool isConstant(Value value, bool expected) {
  std::optional<int64_t> known = getConstantIntValue(value);
  return known && (*known != 0) == expected;
}

/// Replaces `dealloc` when every buffer it lists or retains is a view of a
/// fresh allocation or of a function argument, and no argument is freed
/// (its condition is the constant false). Returns whether it did.
static bool resolveDistinctRoots(bufferization::DeallocOp dealloc,
                                 BufferRoots &roots) {
  // The conditions of each fresh allocation among the listed buffers, and
  // the first buffer listed of it.
  llvm::MapVector<Value, SmallVector<Value>> conditions;
  llvm::DenseMap<Value, Value> firstBuffer;
  for (auto [memref, condition] :
       llvm::zip_equal(dealloc.getMemrefs(), dealloc.getConditions())) {
    Value root = roots.root(memref);
    if (isa<BlockArgument>(root)) {
      if (!isConstant(condition, false))
        return false;
      continue;
    }
    if (!roots.isFresh(root))
      return false;
    conditions[root].push_back(condition);
    firstBuffer.try_emplace(root, memref);
  }
  SmallVector<Value> retainedRoots;
  for (Value retained : dealloc.getRetained()) {
    Value root = roots.root(retained);
    if (!isa<BlockArgument>(root) && !roots.isFresh(root))
      return false;
    retainedRoots.push_back(root);
  }

  OpBuilder b(dealloc);
  Location loc = dealloc.getLoc();
  auto anyOf = [&](ArrayRef<Value> values) -> Value {
    Value result;
    for (Value value : values)
      result = result ? b.createOrFold<arith::OrIOp>(loc, result, value)
                      : value;
    return result ? result
                  : arith::ConstantOp::create(b, loc, b.getBoolAttr(false))
                        .getResult();
  };
  // A retained value owns what its allocation's conditions say; the others
  // are freed where their conditions hold.
  SmallVector<Value> ownership;
  for (Value root : retainedRoots) {
    auto it = conditions.find(root);
    ownership.push_back(
        anyOf(it == conditions.end() ? ArrayRef<Value>() : it->second));
  }
  llvm::DenseSet<Value> kept(retainedRoots.begin(), retainedRoots.end());
  for (auto &[root, conds] : conditions) {
    if (kept.contains(root))
      continue;
    Value buffer = firstBuffer[root];
    Value condition = anyOf(conds);
    if (isConstant(condition, false))
      continue;
    if (isConstant(condition, true)) {
      memref::DeallocOp::create(b, loc, buffer);
      continue;
    }
    auto ifOp = scf::IfOp::create(b, loc, condition, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    memref::DeallocOp::create(b, loc, buffer);
  }
  dealloc.replaceAllUsesWith(ownership);
  dealloc.erase();
  return true;
}

namespace {
struct NdSimplifyDeallocationsPass
    : public mlir::nd::impl::NdSimplifyDeallocationsBase<
          NdSimplifyDeallocationsPass> {
  using Base::Base;

  void runOnOperation() override {
    OpPassManager simplify(func::FuncOp::getOperationName());
    simplify.addPass(
        bufferization::createBufferDeallocationSimplificationPass());
    BufferRoots roots(getOperation());
    for (auto function : getOperation().getOps<func::FuncOp>()) {
      int64_t buffers = 0;
      SmallVector<bufferization::DeallocOp> deallocs;
      function.walk([&](bufferization::DeallocOp dealloc) {
        buffers += dealloc.getMemrefs().size() + dealloc.getRetained().size();
        deallocs.push_back(dealloc);
      });
      if (buffers > maxBuffers) {
        for (bufferization::DeallocOp dealloc : deallocs)
          (void)resolveDistinctRoots(dealloc, roots);
        continue;
      }
      if (failed(runPipeline(simplify, function)))
        return signalPassFailure();
    }
  }
};
} // namespace
