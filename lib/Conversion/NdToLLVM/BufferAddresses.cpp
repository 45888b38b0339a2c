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
// With `allocations` (nd-to-llvm, whose allocator is nd's runtime), a
// buffer of static shape and identity layout allocated by `memref.alloc`
// and only passed as an address (`nd_rt.buffer_address`), copied to or
// from another such buffer and freed is allocated as an address too: the
// call of `_mlir_memref_to_llvm_aligned_alloc` that finalize-memref-to-llvm
// would make (the same alignment and size), `llvm.intr.memcpy` for its
// copies and `_mlir_memref_to_llvm_free` for its dealloc. The LLVM stage
// then never builds its descriptor (a `3 + 2 * rank`-value struct the
// final canonicalization took apart again): in a chain of small ops that
// was half of the IR every later pass walked and verified.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

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

namespace {
/// One `nd_rt.buffer_address` per buffer, just after the buffer's
/// definition: a buffer passed to many calls (an argument of a chain's
/// function) is taken apart once.
class BufferAddressCache {
public:
  Value get(OpBuilder &b, Value buffer) {
    Value &address = addresses[buffer];
    if (!address) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfterValue(buffer);
      address = rt::BufferAddressOp::create(b, buffer.getLoc(), buffer);
    }
    return address;
  }

private:
  DenseMap<Value, Value> addresses;
};
} // namespace

/// Rewrites `function` and its `calls`: each argument of static shape and
/// identity layout (rt::isStaticBuffer, nd_rt.buffer_at's type) an address.
static void passAddresses(func::FuncOp function, ArrayRef<func::CallOp> calls,
                          BufferAddressCache &addresses) {
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
  for (func::CallOp call : calls)
    for (unsigned i : arguments) {
      OpOperand &operand = call->getOpOperand(i);
      operand.set(addresses.get(b, operand.get()));
    }
}

/// The bytes of one element of `type`, or 0 where its elements are not
/// integers or floats of whole bytes.
static int64_t elementBytes(MemRefType type) {
  Type element = type.getElementType();
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
    return 0;
  return element.getIntOrFloatBitWidth() / 8;
}

/// Whether `alloc` is a static buffer that is only passed as an address,
/// copied to or from another static buffer, and freed.
static bool onlyAddressed(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  if (!rt::isStaticBuffer(type) || !elementBytes(type) ||
      !alloc.getSymbolOperands().empty())
    return false;
  return llvm::all_of(alloc->getUsers(), [](Operation *user) {
    if (auto copy = dyn_cast<memref::CopyOp>(user))
      return rt::isStaticBuffer(copy.getSource().getType()) &&
             rt::isStaticBuffer(copy.getTarget().getType());
    return isa<rt::BufferAddressOp, memref::DeallocOp>(user);
  });
}

namespace {
/// Allocates the buffers of `onlyAddressed` as addresses (see the banner).
class AddressAllocations {
public:
  explicit AddressAllocations(ModuleOp module)
      : module(module), b(module.getContext()), i64(b.getI64Type()) {}

  LogicalResult run() {
    SmallVector<memref::AllocOp> allocs;
    module.walk([&](memref::AllocOp alloc) {
      if (onlyAddressed(alloc))
        allocs.push_back(alloc);
    });
    if (allocs.empty())
      return success();
    FailureOr<LLVM::LLVMFuncOp> allocFn =
        LLVM::lookupOrCreateGenericAlignedAllocFn(b, module, i64);
    FailureOr<LLVM::LLVMFuncOp> freeFn =
        LLVM::lookupOrCreateGenericFreeFn(b, module);
    if (failed(allocFn) || failed(freeFn))
      return failure();
    for (memref::AllocOp alloc : allocs)
      addresses[alloc] = allocate(alloc, *allocFn);
    for (memref::AllocOp alloc : allocs)
      rewriteUses(alloc, *freeFn);
    for (memref::AllocOp alloc : allocs)
      alloc.erase();
    return success();
  }

private:
  /// An i64 constant for `user`: where `user` is in a function's body, one
  /// per function and value at the start of the body (a chain's function
  /// allocates many buffers of one size), else made at the insertion point.
  Value constant(Operation *user, Attribute value) {
    Region *body = user->getParentRegion();
    if (!isa<FunctionOpInterface>(body->getParentOp()))
      return LLVM::ConstantOp::create(b, user->getLoc(), i64, value);
    Value &constant = constants[{body, value}];
    if (!constant) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(&body->front());
      constant = LLVM::ConstantOp::create(b, user->getLoc(), i64, value);
    }
    return constant;
  }

  /// The call finalize-memref-to-llvm makes (`use-aligned-alloc`): the
  /// op's alignment or the element's size rounded up to a power of two (at
  /// least 16), and the size rounded up to a multiple of it.
  Value allocate(memref::AllocOp alloc, LLVM::LLVMFuncOp allocFn) {
    MemRefType type = alloc.getType();
    int64_t alignment = alloc.getAlignment().value_or(
        std::max<uint64_t>(16, llvm::PowerOf2Ceil(elementBytes(type))));
    int64_t bytes =
        llvm::alignTo(type.getNumElements() * elementBytes(type), alignment);
    b.setInsertionPoint(alloc);
    // The alignment an index constant, as upstream writes it (then one
    // constant with the other allocations' after canonicalization).
    Value align = constant(alloc, b.getIndexAttr(alignment));
    Value size = constant(alloc, b.getI64IntegerAttr(bytes));
    return LLVM::CallOp::create(b, alloc.getLoc(), allocFn,
                                ValueRange{align, size})
        .getResult();
  }

  /// The address of `buffer`: its allocation's, or its descriptor's.
  Value addressOf(Value buffer) {
    if (auto alloc = buffer.getDefiningOp<memref::AllocOp>())
      if (Value address = addresses.lookup(alloc))
        return address;
    return rt::BufferAddressOp::create(b, buffer.getLoc(), buffer);
  }

  void rewriteUses(memref::AllocOp alloc, LLVM::LLVMFuncOp freeFn) {
    Value address = addresses.lookup(alloc);
    llvm::SetVector<Operation *> users(alloc->user_begin(), alloc->user_end());
    for (Operation *user : users) {
      b.setInsertionPoint(user);
      if (auto copy = dyn_cast<memref::CopyOp>(user)) {
        auto type = cast<MemRefType>(copy.getSource().getType());
        Value bytes = constant(copy, b.getI64IntegerAttr(type.getNumElements() *
                                                         elementBytes(type)));
        LLVM::MemcpyOp::create(b, copy.getLoc(), addressOf(copy.getTarget()),
                               addressOf(copy.getSource()), bytes,
                               /*isVolatile=*/false);
      } else if (isa<memref::DeallocOp>(user)) {
        LLVM::CallOp::create(b, user->getLoc(), freeFn, ValueRange{address});
      } else {
        user->getResult(0).replaceAllUsesWith(address);
      }
      user->erase();
    }
  }

  ModuleOp module;
  OpBuilder b;
  Type i64;
  DenseMap<Operation *, Value> addresses;
  DenseMap<std::pair<Region *, Attribute>, Value> constants;
};

struct NdBufferAddressesPass
    : public nd::impl::NdBufferAddressesBase<NdBufferAddressesPass> {
  using NdBufferAddressesBase::NdBufferAddressesBase;

  void runOnOperation() override {
    BufferAddressCache addresses;
    for (auto &[function, calls] : onlyCalledFunctions(getOperation()))
      passAddresses(function, calls, addresses);
    if (allocations && failed(AddressAllocations(getOperation()).run())) {
      getOperation().emitError(
          "nd-buffer-addresses: the module declares the allocator's "
          "functions with other types");
      signalPassFailure();
    }
  }
};
} // namespace
