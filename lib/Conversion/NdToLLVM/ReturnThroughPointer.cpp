//===- ReturnThroughPointer.cpp - results through a pointer -----*- C++ -*-===//
//
// `--nd-return-through-pointer`: the entry function of a lowered module
// stores its results through a pointer it takes as its last argument instead
// of returning them (see the pass description for why), and records which of
// its results are its arguments' buffers. Calls of the entry from the module
// itself keep working through a private adapter of the original signature.
//
// Preconditions: the module is in the LLVM dialect (the output of
// nd-to-llvm); the entry is defined, and every use of its symbol is a direct
// call. A function of several results returns a struct of their memref
// descriptors, one of a single result that descriptor itself; the allocated
// pointer is a descriptor's first field.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDRETURNTHROUGHPOINTER
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// The value inserted at `path` into the aggregate `value` by its chain of
/// `llvm.insertvalue`s, or null where the chain does not say.
static Value traceField(Value value, ArrayRef<int64_t> path) {
  while (!path.empty()) {
    auto insert = value.getDefiningOp<LLVM::InsertValueOp>();
    if (!insert)
      return nullptr;
    ArrayRef<int64_t> position = insert.getPosition();
    if (path.take_front(position.size()) == position) {
      value = insert.getValue();
      path = path.drop_front(position.size());
      continue;
    }
    // An insertion into part of the field: the field is not one value.
    if (position.take_front(path.size()) == path)
      return nullptr;
    value = insert.getContainer();
  }
  return value;
}

/// The paths of the allocated pointers of the results in a returned value
/// of type `type`: a struct of descriptors (several results) or one
/// descriptor.
static SmallVector<SmallVector<int64_t, 2>> allocatedPointerPaths(Type type) {
  auto structType = cast<LLVM::LLVMStructType>(type);
  ArrayRef<Type> body = structType.getBody();
  bool ofDescriptors =
      !body.empty() && llvm::all_of(body, llvm::IsaPred<LLVM::LLVMStructType>);
  SmallVector<SmallVector<int64_t, 2>> paths;
  if (!ofDescriptors) {
    paths.push_back({0});
    return paths;
  }
  for (int64_t k = 0, e = static_cast<int64_t>(body.size()); k < e; ++k)
    paths.push_back({k, 0});
  return paths;
}

/// For each result, the argument of `function` that its allocated pointer is
/// at every return (but those of zeros), or -1.
static SmallVector<int64_t>
findResultBuffers(LLVM::LLVMFuncOp function, ArrayRef<LLVM::ReturnOp> returns) {
  Type resultType = function.getFunctionType().getReturnType();
  SmallVector<SmallVector<int64_t, 2>> paths;
  if (isa<LLVM::LLVMStructType>(resultType))
    paths = allocatedPointerPaths(resultType);
  SmallVector<int64_t> buffers(paths.size(), -2);
  Block *entry = &function.getBody().front();
  for (LLVM::ReturnOp op : returns) {
    // The zeros a call that cannot allocate a buffer returns
    // (--nd-check-allocations) say nothing about the results' buffers.
    if (op.getArg() && op.getArg().getDefiningOp<LLVM::ZeroOp>())
      continue;
    for (auto [k, path] : llvm::enumerate(paths)) {
      Value field = traceField(op.getArg(), path);
      auto argument = dyn_cast_or_null<BlockArgument>(field);
      int64_t position = argument && argument.getOwner() == entry
                             ? static_cast<int64_t>(argument.getArgNumber())
                             : -1;
      buffers[k] = buffers[k] == -2 || buffers[k] == position ? position : -1;
    }
  }
  for (int64_t &buffer : buffers)
    buffer = std::max<int64_t>(buffer, -1);
  return buffers;
}

/// Stores the value `op` returns through `out` field by field and makes it
/// return nothing.
static void storeThroughPointer(LLVM::ReturnOp op, Value out, Type resultType) {
  OpBuilder b(op);
  auto pointerType = LLVM::LLVMPointerType::get(op.getContext());
  // The chain of insertvalues that builds the returned value, from its
  // root: the root goes first (unless it is undefined), then each field in
  // the chain's order, so that a field inserted twice ends up with its last
  // value.
  SmallVector<LLVM::InsertValueOp> chain;
  Value root = op.getArg();
  while (auto insert = root.getDefiningOp<LLVM::InsertValueOp>()) {
    chain.push_back(insert);
    root = insert.getContainer();
  }
  if (!root.getDefiningOp<LLVM::PoisonOp>() &&
      !root.getDefiningOp<LLVM::UndefOp>())
    LLVM::StoreOp::create(b, op.getLoc(), root, out);
  for (LLVM::InsertValueOp insert : llvm::reverse(chain)) {
    SmallVector<LLVM::GEPArg> indices = {0};
    for (int64_t index : insert.getPosition())
      indices.push_back(static_cast<int32_t>(index));
    Value field =
        LLVM::GEPOp::create(b, op.getLoc(), pointerType, resultType, out,
                            indices, LLVM::GEPNoWrapFlags::inbounds);
    LLVM::StoreOp::create(b, op.getLoc(), insert.getValue(), field);
  }
  LLVM::ReturnOp::create(b, op.getLoc(), ValueRange{});
  op.erase();
  for (LLVM::InsertValueOp insert : chain)
    if (insert->use_empty())
      insert.erase();
}

/// Fills `adapter`, of the entry's original type, with a call of the
/// rewritten `entry` on a stack slot for the results, which it returns.
static void fillAdapter(LLVM::LLVMFuncOp adapter, LLVM::LLVMFuncOp entry,
                        Type resultType) {
  MLIRContext *context = adapter.getContext();
  Location loc = adapter.getLoc();
  OpBuilder b(context);
  Block *body = adapter.addEntryBlock(b);
  b.setInsertionPointToStart(body);
  auto pointerType = LLVM::LLVMPointerType::get(context);
  Value one =
      LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(1));
  Value slot = LLVM::AllocaOp::create(b, loc, pointerType, resultType, one);
  SmallVector<Value> arguments(body->getArguments());
  arguments.push_back(slot);
  LLVM::CallOp::create(b, loc, entry, arguments);
  Value results = LLVM::LoadOp::create(b, loc, resultType, slot);
  LLVM::ReturnOp::create(b, loc, results);
}

namespace {
struct NdReturnThroughPointerPass
    : public mlir::nd::impl::NdReturnThroughPointerBase<
          NdReturnThroughPointerPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto entry = module.lookupSymbol<LLVM::LLVMFuncOp>(function);
    if (!entry || entry.isExternal()) {
      module.emitError() << "nd-return-through-pointer: the module defines no "
                            "LLVM function @"
                         << function;
      return signalPassFailure();
    }
    LLVM::LLVMFunctionType type = entry.getFunctionType();
    Type resultType = type.getReturnType();
    if (isa<LLVM::LLVMVoidType>(resultType)) {
      entry->setAttr(kResultBuffersAttr,
                     DenseI64ArrayAttr::get(context, ArrayRef<int64_t>{}));
      return;
    }
    if (!isa<LLVM::LLVMStructType>(resultType)) {
      entry.emitError() << "expected a function returning memref "
                           "descriptors, got "
                        << resultType;
      return signalPassFailure();
    }

    SmallVector<LLVM::ReturnOp> returns;
    entry.walk([&](LLVM::ReturnOp op) { returns.push_back(op); });
    SmallVector<int64_t> buffers = findResultBuffers(entry, returns);

    // Callers in the module go through an adapter of the original type.
    SymbolTable symbols(module);
    std::optional<SymbolTable::UseRange> uses =
        SymbolTable::getSymbolUses(entry, module);
    SmallVector<LLVM::CallOp> callers;
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<LLVM::CallOp>(use.getUser());
      if (!call || call.getCallee() != entry.getSymName()) {
        use.getUser()->emitError()
            << "uses @" << entry.getSymName()
            << " other than by a direct call: its results cannot be "
               "returned through a pointer";
        return signalPassFailure();
      }
      callers.push_back(call);
    }
    LLVM::LLVMFuncOp adapter;
    if (!callers.empty()) {
      OpBuilder b(entry);
      adapter = LLVM::LLVMFuncOp::create(
          b, entry.getLoc(), (entry.getSymName() + "_by_value").str(), type,
          LLVM::Linkage::Private);
      symbols.insert(adapter);
      for (LLVM::CallOp call : callers)
        call.setCallee(adapter.getSymName());
    }

    auto pointerType = LLVM::LLVMPointerType::get(context);
    unsigned position = entry.getNumArguments();
    if (failed(entry.insertArgument(position, pointerType,
                                    DictionaryAttr::get(context),
                                    entry.getLoc())))
      return signalPassFailure();
    entry.setFunctionType(LLVM::LLVMFunctionType::get(
        LLVM::LLVMVoidType::get(context), entry.getFunctionType().getParams(),
        type.isVarArg()));
    entry.removeResAttrsAttr();
    Value out = entry.getArgument(position);
    for (LLVM::ReturnOp op : returns)
      storeThroughPointer(op, out, resultType);
    entry->setAttr(kResultBuffersAttr,
                   DenseI64ArrayAttr::get(context, buffers));

    if (adapter)
      fillAdapter(adapter, entry, resultType);
  }
};
} // namespace
