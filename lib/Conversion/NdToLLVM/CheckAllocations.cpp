//===- CheckAllocations.cpp - a failed allocation ends the call -*- C++ -*-===//
//
// `--nd-check-allocations` (the LLVM stage of nd-to-llvm): the generated code
// tests every buffer it allocates, and a failed allocation reports "cannot
// allocate N bytes" through the host (nd-c/RuntimeABI.h) and ends the call
// instead of writing through a null pointer.
//
// A failure site is an allocation call (its result null for a non-zero
// size) or a call of a function of the module that has failure sites (the
// thread-local flag `__nd_alloc_failed` set once it returns; a function
// clears the flag once, where it takes its address, for the calls of its
// body, and before each call inside an OpenMP region). A failure in a function's body returns
// from the function with zeros for its results and the flag set, through
// blocks at the end of the body that all its sites share: a failed
// allocation branches to the report block with its message's address and
// size, which reports and goes on to the failed block; a failed call goes
// to the failed block, which sets the flag (its address taken once, in the
// entry block) and returns. The function's IR then grows by a test and a
// branch per site, not by a block of its own per site. A failure
// inside an OpenMP region (a loop body, a parallel region: the regions of
// their function until the OpenMP translation outlines them) cannot return:
// it sets the function's local flag (an alloca its worker threads share),
// leaves the region through a copy of the region's terminator, and the
// function tests the local flag after the region's op and returns from
// there. The messages of all the sites lie in one global (a symbol per
// site would be one more symbol for every later pass and verification to
// visit); a site's message is at an offset into it. The constants the
// tests of a body compare with, and the addresses of the messages its
// sites report (the sites of one op share one), are made once, at the
// body's start.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/CheckMessages.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDCHECKALLOCATIONS
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// The thread-local flag a failed function leaves set for its caller.
static constexpr StringLiteral kFailedFlag = "__nd_alloc_failed";
/// The global of the messages, one after the other, each ending in a NUL
/// (renamed on a clash).
static constexpr StringLiteral kMessageName = "__nd_alloc_msgs";

/// The bytes an allocation call asks for, or null where `call` is none.
static Value allocatedBytes(LLVM::CallOp call) {
  std::optional<StringRef> callee = call.getCallee();
  if (!callee || call.getNumResults() != 1)
    return Value();
  ValueRange args = call.getArgOperands();
  if ((*callee == ND_ABI_NAME(ND_ABI_ALLOC) || *callee == "malloc") &&
      args.size() == 1)
    return args[0];
  if ((*callee == ND_ABI_NAME(ND_ABI_ALIGNED_ALLOC) ||
       *callee == "aligned_alloc") &&
      args.size() == 2)
    return args[1];
  return Value();
}

/// The bytes `bytes` stands for, where it is a constant. Upstream's memref
/// lowering writes a static buffer's size as `ptrtoint(getelementptr
/// null[n] : T)`, which the LLVM dialect does not fold (it has no layout
/// to fold by): for T an integer or float of whole bytes, it is
/// `n * sizeof(T)`, and the ptrtoint is replaced by that constant.
static std::optional<int64_t> constantBytes(OpBuilder &b, Value &bytes) {
  APInt value;
  if (matchPattern(bytes, m_ConstantInt(&value)))
    return value.getSExtValue();
  auto toInt = bytes.getDefiningOp<LLVM::PtrToIntOp>();
  if (!toInt || !toInt->hasOneUse())
    return std::nullopt;
  auto gep = toInt.getArg().getDefiningOp<LLVM::GEPOp>();
  if (!gep || !gep.getBase().getDefiningOp<LLVM::ZeroOp>() ||
      gep.getIndices().size() != 1)
    return std::nullopt;
  // The count is an attribute once folded, a constant operand before.
  auto index = gep.getIndices()[0];
  APInt count;
  if (auto attr = dyn_cast<IntegerAttr>(index))
    count = attr.getValue();
  else if (!matchPattern(cast<Value>(index), m_ConstantInt(&count)))
    return std::nullopt;
  Type element = gep.getElemType();
  if (!isa<IntegerType, FloatType>(element) ||
      element.getIntOrFloatBitWidth() % 8 != 0)
    return std::nullopt;
  int64_t size = count.getSExtValue() * (element.getIntOrFloatBitWidth() / 8);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(toInt);
  Value constant = LLVM::ConstantOp::create(
      b, toInt.getLoc(), bytes.getType(),
      b.getIntegerAttr(bytes.getType(), size));
  toInt.replaceAllUsesWith(constant);
  toInt.erase();
  if (gep->use_empty())
    gep.erase();
  bytes = constant;
  return size;
}

/// The operand-less terminator that leaves `region` (a copy of which ends
/// a failed iteration or thread), or null where it has none.
static Operation *regionExit(Region &region) {
  for (Block &block : region) {
    if (block.empty())
      continue;
    Operation *terminator = &block.back();
    if (terminator->hasTrait<OpTrait::IsTerminator>() &&
        terminator->getNumSuccessors() == 0 &&
        terminator->getNumOperands() == 0)
      return terminator;
  }
  return nullptr;
}

/// The functions of `module` with failure sites: those that allocate, and
/// those that call one, transitively.
static llvm::DenseSet<StringAttr>
functionsThatMayFail(ArrayRef<LLVM::LLVMFuncOp> defined) {
  llvm::DenseSet<StringAttr> mayFail;
  llvm::MapVector<StringAttr, llvm::SetVector<StringAttr>> callers;
  SmallVector<StringAttr> worklist;
  for (LLVM::LLVMFuncOp function : defined) {
    StringAttr name = function.getSymNameAttr();
    bool allocates = false;
    function.walk([&](LLVM::CallOp call) {
      if (allocatedBytes(call))
        allocates = true;
      else if (FlatSymbolRefAttr callee = call.getCalleeAttr())
        callers[callee.getAttr()].insert(name);
    });
    if (allocates && mayFail.insert(name).second)
      worklist.push_back(name);
  }
  while (!worklist.empty()) {
    StringAttr callee = worklist.pop_back_val();
    auto it = callers.find(callee);
    if (it == callers.end())
      continue;
    for (StringAttr caller : it->second)
      if (mayFail.insert(caller).second)
        worklist.push_back(caller);
  }
  return mayFail;
}

namespace {
/// What the checks of one module share.
struct Checker {
  OpBuilder b;
  SymbolTable symbols;
  LLVM::GlobalOp failedFlag;
  LLVM::LLVMFuncOp reporter;
  /// The messages of all the sites in one global (made on the first): a
  /// site passes the address of its own, an offset into it. One symbol
  /// however many sites the module has (a chain's function has one per
  /// op), which every later pass and the verifier would otherwise visit.
  LLVM::GlobalOp messageTable;
  std::string messageText;
  llvm::StringMap<int64_t> messageOffsets;
  /// The offset of each site's message in `messageText`.
  DenseMap<Operation *, int64_t> siteMessages;

  Checker(ModuleOp module) : b(module.getContext()), symbols(module) {}

  Type ptrType() { return LLVM::LLVMPointerType::get(b.getContext()); }
  Value constant(Location loc, Type type, int64_t value) {
    return LLVM::ConstantOp::create(b, loc, type,
                                    b.getIntegerAttr(type, value));
  }
  /// This thread's `__nd_alloc_failed`.
  Value flagAddress(Location loc) {
    Value global = LLVM::AddressOfOp::create(b, loc, failedFlag);
    return LLVM::ThreadlocalAddressOp::create(b, loc, ptrType(), global);
  }
  void setFlag(Location loc, Value address, int64_t value) {
    Value byte = constant(loc, b.getI8Type(), value);
    LLVM::StoreOp::create(b, loc, byte, address, /*alignment=*/1,
                          /*isVolatile=*/false, /*isNonTemporal=*/false,
                          /*isInvariantGroup=*/false,
                          LLVM::AtomicOrdering::monotonic);
  }
  /// Whether the flag at `address` is set (`zero`: an i8 0 to compare
  /// with, made here where none is given).
  Value isFlagSet(Location loc, Value address, Value zero = Value()) {
    Value byte = LLVM::LoadOp::create(
        b, loc, b.getI8Type(), address, /*alignment=*/1, /*isVolatile=*/false,
        /*isNonTemporal=*/false, /*isInvariant=*/false,
        /*isInvariantGroup=*/false, LLVM::AtomicOrdering::monotonic);
    if (!zero)
      zero = constant(loc, b.getI8Type(), 0);
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, byte, zero);
  }
  int64_t message(Operation *site, ModuleOp module);
  Value messageAddress(Location loc, Value table, int64_t offset);
  void finishMessages();
  void report(Location loc, Value format, Value bytes);
  void returnFailed(LLVM::LLVMFuncOp function, Location loc, Value flag);
};
} // namespace

/// The offset of `site`'s message in the table (a site's message is added
/// on its first use, a text only once).
int64_t Checker::message(Operation *site, ModuleOp module) {
  std::string text = describeLocation(site) +
                     ": cannot allocate %lld bytes for a buffer of the "
                     "compiled code";
  auto [it, added] = messageOffsets.try_emplace(text, messageText.size());
  siteMessages[site] = it->second;
  if (!added)
    return it->second;
  messageText += text;
  messageText.push_back('\0');
  if (!messageTable) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    // Its type and text are set once every message is in
    // (finishMessages).
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), 0);
    messageTable =
        LLVM::GlobalOp::create(b, module.getLoc(), type,
                               /*isConstant=*/true, LLVM::Linkage::Private,
                               kMessageName, b.getStringAttr(""));
    symbols.insert(messageTable);
  }
  return it->second;
}

/// At the insertion point: the address of the message at `offset` in the
/// table at `table`.
Value Checker::messageAddress(Location loc, Value table, int64_t offset) {
  return LLVM::GEPOp::create(
      b, loc, ptrType(), b.getI8Type(), table,
      ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(offset)});
}

/// The table's type and text, once every site's message is in.
void Checker::finishMessages() {
  if (!messageTable)
    return;
  messageTable.setGlobalType(
      LLVM::LLVMArrayType::get(b.getI8Type(), messageText.size()));
  messageTable.setValueAttr(b.getStringAttr(messageText));
}

/// At the insertion point: the host's report of `bytes` not allocated, with
/// the message at `format` (a null state: --nd-call-state gives the call's).
void Checker::report(Location loc, Value format, Value bytes) {
  Value state = LLVM::ZeroOp::create(b, loc, ptrType());
  Value unused = constant(loc, b.getI64Type(), 0);
  LLVM::CallOp::create(b, loc, reporter,
                       ValueRange{state, format, bytes, unused});
}

/// At the insertion point: the flag at `flag` set for the caller, and a
/// return of zeros.
void Checker::returnFailed(LLVM::LLVMFuncOp function, Location loc,
                           Value flag) {
  setFlag(loc, flag, 1);
  Type resultType = function.getFunctionType().getReturnType();
  if (isa<LLVM::LLVMVoidType>(resultType)) {
    LLVM::ReturnOp::create(b, loc, ValueRange{});
    return;
  }
  Value zeros = LLVM::ZeroOp::create(b, loc, resultType);
  LLVM::ReturnOp::create(b, loc, zeros);
}

/// Splits the block of `after` behind it and branches on `failed` to
/// `failure` (with `operands`) or on to the rest; without `failure`, to a
/// new block (empty, before the rest; the insertion point is then at its
/// start).
static void branchOnFailure(OpBuilder &b, Operation *after, Value failed,
                            Block *failure = nullptr,
                            ValueRange operands = {}) {
  Block *block = after->getBlock();
  Block *rest = block->splitBlock(after->getNextNode());
  bool fresh = !failure;
  if (fresh)
    failure = b.createBlock(rest);
  b.setInsertionPointToEnd(block);
  LLVM::CondBrOp::create(b, after->getLoc(), failed, failure, operands,
                         rest, ValueRange{},
                         std::make_pair(uint32_t(1), uint32_t(1 << 20)));
  if (fresh)
    b.setInsertionPointToStart(failure);
}

namespace {
/// The checks of one function.
struct FunctionChecks {
  FunctionChecks(Checker &checker, ModuleOp module,
                 LLVM::LLVMFuncOp function,
                 const llvm::DenseSet<StringAttr> &mayFail)
      : checker(checker), module(module), function(function),
        mayFail(mayFail) {}

  Checker &checker;
  ModuleOp module;
  LLVM::LLVMFuncOp function;
  const llvm::DenseSet<StringAttr> &mayFail;
  /// The flag of a failure inside an OpenMP region (created on first use).
  Value localFlag;
  /// This thread's `__nd_alloc_failed` for the sites of the function's body,
  /// and the block every failure there ends in (created on first use).
  Value flag;
  /// Whether `flag` is cleared where its address is taken.
  bool flagCleared = false;
  Block *failedBlock = nullptr;
  /// The block a failed allocation of the body branches to with its
  /// message and size: the report, then on to `failedBlock`.
  Block *reportBlock = nullptr;
  /// The ops of the function's body whose regions hold a failure site.
  llvm::SetVector<Operation *> regionOps;
  /// The null pointer and the i8 0 the tests of the body's sites compare
  /// with, and the address of the message table: one each, at the start of
  /// the entry block (created on first use).
  Value null;
  Value zeroByte;
  Value messageTable;
  /// The address of each message the body's sites report, by its offset:
  /// one each, after `messageTable` (the sites of one op share its
  /// message).
  DenseMap<int64_t, Value> messages;

  void run();
  bool isSite(LLVM::CallOp call) const;
  void check(LLVM::CallOp site);
  void leave(Operation *site);
  Value getLocalFlag();
  Value getFlag(Region *region, Location loc);
  Value getClearedFlag();
  Value getBodyConstant(Value &cached,
                        function_ref<Value(OpBuilder &, Location)> make);
  Value getBodyMessage(Operation *site);
  Block *getFailedBlock();
  Block *getReportBlock();
};
} // namespace

bool FunctionChecks::isSite(LLVM::CallOp call) const {
  if (allocatedBytes(call))
    return true;
  FlatSymbolRefAttr callee = call.getCalleeAttr();
  return callee && mayFail.contains(callee.getAttr());
}

Value FunctionChecks::getLocalFlag() {
  if (localFlag)
    return localFlag;
  OpBuilder &b = checker.b;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&function.getBody().front());
  Location loc = function.getLoc();
  Value one = checker.constant(loc, b.getI64Type(), 1);
  localFlag = LLVM::AllocaOp::create(b, loc, checker.ptrType(), b.getI8Type(),
                                     one, /*alignment=*/1);
  checker.setFlag(loc, localFlag, 0);
  return localFlag;
}

/// The address of this thread's `__nd_alloc_failed` for a site in
/// `region`: taken once, in the entry block, for the sites of the
/// function's body (it runs on one thread), at the insertion point inside
/// an OpenMP region (each of its threads has its own).
Value FunctionChecks::getFlag(Region *region, Location loc) {
  if (region != &function.getBody())
    return checker.flagAddress(loc);
  if (flag)
    return flag;
  OpBuilder &b = checker.b;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&function.getBody().front());
  flag = checker.flagAddress(function.getLoc());
  return flag;
}

/// The body's flag, cleared once, where its address is taken: the body runs
/// on one thread and leaves the function on the first failed call, so the
/// flag is clear before each of its calls without a store of its own. (An
/// OpenMP region's calls, whose threads may hold a flag left set, clear it
/// before each call.)
Value FunctionChecks::getClearedFlag() {
  Value address = getFlag(&function.getBody(), function.getLoc());
  if (flagCleared)
    return address;
  OpBuilder &b = checker.b;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointAfter(address.getDefiningOp());
  checker.setFlag(function.getLoc(), address, 0);
  flagCleared = true;
  return address;
}

/// `cached`, made by `make` at the start of the entry block on first use: a
/// constant of the body's tests (a test per site, one constant for all).
Value FunctionChecks::getBodyConstant(
    Value &cached, function_ref<Value(OpBuilder &, Location)> make) {
  if (cached)
    return cached;
  OpBuilder &b = checker.b;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&function.getBody().front());
  cached = make(b, function.getLoc());
  return cached;
}

/// The address of the message of `site`, a site of the body: made on first
/// use at the body's start, just after the table's address.
Value FunctionChecks::getBodyMessage(Operation *site) {
  Value table = getBodyConstant(
      messageTable, [&](OpBuilder &builder, Location at) -> Value {
        return LLVM::AddressOfOp::create(builder, at, checker.messageTable);
      });
  int64_t offset = checker.siteMessages.lookup(site);
  Value &address = messages[offset];
  if (!address) {
    OpBuilder::InsertionGuard guard(checker.b);
    checker.b.setInsertionPointAfterValue(table);
    address = checker.messageAddress(function.getLoc(), table, offset);
  }
  return address;
}

/// The block at the end of the function's body that every failure in the
/// body branches to: the flag set for the caller, and a return of zeros.
Block *FunctionChecks::getFailedBlock() {
  if (failedBlock)
    return failedBlock;
  OpBuilder &b = checker.b;
  OpBuilder::InsertionGuard guard(b);
  Region &body = function.getBody();
  Location loc = function.getLoc();
  Value address = getFlag(&body, loc);
  failedBlock = b.createBlock(&body, body.end());
  checker.returnFailed(function, loc, address);
  return failedBlock;
}

/// The block at the end of the function's body that every failed
/// allocation in the body branches to, with the address of its message and
/// the size it asked for: the host's report, then the failed block.
Block *FunctionChecks::getReportBlock() {
  if (reportBlock)
    return reportBlock;
  OpBuilder &b = checker.b;
  OpBuilder::InsertionGuard guard(b);
  Region &body = function.getBody();
  Location loc = function.getLoc();
  Type i64 = b.getI64Type();
  reportBlock = b.createBlock(&body, body.end(), {checker.ptrType(), i64},
                              {loc, loc});
  checker.report(loc, reportBlock->getArgument(0), reportBlock->getArgument(1));
  LLVM::BrOp::create(b, loc, getFailedBlock());
  return reportBlock;
}

/// At the insertion point (a failure block): leaves the function, or the
/// OpenMP region that holds `site`.
void FunctionChecks::leave(Operation *site) {
  OpBuilder &b = checker.b;
  Location loc = site->getLoc();
  Region *region = b.getInsertionBlock()->getParent();
  if (region == &function.getBody()) {
    LLVM::BrOp::create(b, loc, getFailedBlock());
    return;
  }
  checker.setFlag(loc, getLocalFlag(), 1);
  b.clone(*regionExit(*region));
  regionOps.insert(function.getBody().findAncestorOpInRegion(*site));
}

void FunctionChecks::check(LLVM::CallOp site) {
  OpBuilder &b = checker.b;
  Location loc = site.getLoc();
  Region *region = site->getParentRegion();
  if (region != &function.getBody() && !regionExit(*region))
    return;
  Value bytes = allocatedBytes(site);
  bool inBody = region == &function.getBody();
  Value failed;
  Operation *last;
  if (bytes) {
    std::optional<int64_t> known = constantBytes(b, bytes);
    b.setInsertionPointAfter(site);
    auto makeNull = [&](OpBuilder &builder, Location at) -> Value {
      return LLVM::ZeroOp::create(builder, at, checker.ptrType());
    };
    Value null =
        inBody ? getBodyConstant(this->null, makeNull) : makeNull(b, loc);
    failed = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq,
                                  site.getResult(), null);
    // malloc(0) may return null (a size known not to be 0 needs no test).
    if (!known || *known == 0) {
      Value zero = checker.constant(loc, bytes.getType(), 0);
      Value some =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, bytes, zero);
      failed = LLVM::AndOp::create(b, loc, failed, some);
    }
  } else if (inBody) {
    Value address = getClearedFlag();
    Value zero =
        getBodyConstant(zeroByte, [&](OpBuilder &builder, Location at) {
          return checker.constant(at, builder.getI8Type(), 0);
        });
    b.setInsertionPointAfter(site);
    failed = checker.isFlagSet(loc, address, zero);
  } else {
    b.setInsertionPoint(site);
    Value address = getFlag(region, loc);
    checker.setFlag(loc, address, 0);
    b.setInsertionPointAfter(site);
    failed = checker.isFlagSet(loc, address);
  }
  last = failed.getDefiningOp();
  // A failed call in the body has set the flag: on to the failed block.
  if (!bytes && inBody) {
    branchOnFailure(b, last, failed, getFailedBlock());
    return;
  }
  // A failed allocation in the body: on to the report with its message.
  if (bytes && inBody && bytes.getType() == b.getI64Type()) {
    Value format = getBodyMessage(site);
    branchOnFailure(b, last, failed, getReportBlock(),
                    ValueRange{format, bytes});
    return;
  }
  branchOnFailure(b, last, failed);
  if (bytes) {
    Value table = LLVM::AddressOfOp::create(b, loc, checker.messageTable);
    checker.report(
        loc,
        checker.messageAddress(loc, table, checker.siteMessages.lookup(site)),
        bytes);
  }
  leave(site);
}

void FunctionChecks::run() {
  SmallVector<LLVM::CallOp> sites;
  function.walk([&](LLVM::CallOp call) {
    if (isSite(call))
      sites.push_back(call);
  });
  // The messages in the order of the sites (their globals' names and
  // places), then the checks from the last site to the first: splitting a
  // block moves the ops behind the split, which are then only those up to
  // the next site (linear in the function, where the first site first
  // moved the rest of the block again for every site). The blocks end up
  // in the same order either way.
  for (LLVM::CallOp site : sites)
    if (allocatedBytes(site))
      checker.message(site, module);
  for (LLVM::CallOp site : llvm::reverse(sites))
    check(site);
  // After each op whose region a failure left: the function's return.
  OpBuilder &b = checker.b;
  for (Operation *op : llvm::reverse(regionOps)) {
    b.setInsertionPointAfter(op);
    Location loc = op->getLoc();
    Value failed = checker.isFlagSet(loc, localFlag);
    branchOnFailure(b, failed.getDefiningOp(), failed, getFailedBlock());
  }
}

namespace {
struct NdCheckAllocationsPass
    : public nd::impl::NdCheckAllocationsBase<NdCheckAllocationsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<LLVM::LLVMFuncOp> defined;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (!function.isExternal())
        defined.push_back(function);
    llvm::DenseSet<StringAttr> mayFail = functionsThatMayFail(defined);
    if (mayFail.empty())
      return;

    Checker checker(module);
    OpBuilder &b = checker.b;
    Type ptrType = checker.ptrType();
    Type i64 = b.getI64Type();
    FailureOr<LLVM::LLVMFuncOp> reporter = LLVM::lookupOrCreateFn(
        b, module, kHostReportOutOfMemoryFn, {ptrType, ptrType, i64, i64},
        LLVM::LLVMVoidType::get(&getContext()));
    if (failed(reporter))
      return signalPassFailure();
    checker.reporter = *reporter;
    b.setInsertionPointToStart(module.getBody());
    Type i8 = b.getI8Type();
    checker.failedFlag = LLVM::GlobalOp::create(
        b, module.getLoc(), i8, /*isConstant=*/false, LLVM::Linkage::Internal,
        kFailedFlag, b.getIntegerAttr(i8, 0), /*alignment=*/1,
        /*addrSpace=*/0, /*dsoLocal=*/false, /*thread_local_=*/true);
    checker.symbols.insert(checker.failedFlag);

    for (LLVM::LLVMFuncOp function : defined) {
      if (!mayFail.contains(function.getSymNameAttr()))
        continue;
      FunctionChecks checks(checker, module, function, mayFail);
      checks.run();
    }
    checker.finishMessages();
  }
};
} // namespace
