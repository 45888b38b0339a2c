//===- RuntimeToLLVM.cpp - nd's run-time calls, LLVM stage ------*- C++ -*-===//
//
// `--convert-nd-runtime-to-llvm`: the calls `--lower-scatter` leaves for the
// LLVM stage.
//
// The names are those of nd-c/RuntimeABI.h.
//
// - `func.call @__nd_report_error(a, b) {nd.message = M}` becomes
//   `llvm.call @nd_report_error(null, @msg, a, b)` with M in a private
//   constant global (one per distinct message); the null is the call state,
//   which --nd-call-state replaces where a host passes one.
// - Inside a function that ops at several places share, a report names its
//   site, the function's argument `s`:
//   `func.call @__nd_report_error_at(s, a, b) {nd.message = M_i}`. Each call
//   of the function passes `func.call @__nd_site() {nd.site = W}`, which
//   becomes the address of the site's entries in a private table of
//   messages: "W: M_1", ..., "W: M_n" (the function's messages, numbered by
//   first appearance); the report loads entry i from there and calls
//   `nd_report_error` with it. One table and one array of texts serve all
//   the sites of the module.
// - `func.call @__nd_max_threads()` becomes `omp_get_max_threads()` (or 1
//   without OpenMP).
// - `func.call @__nd_store_fence()` becomes `llvm.fence seq_cst`, which
//   orders non-temporal stores too (x86: `mfence`).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"

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

// The names --lower-scatter and createRuntimeErrorReport use.
static constexpr StringLiteral kReportErrorFn = ND_ABI_LOWERED_REPORT_ERROR;
static constexpr StringLiteral kReportErrorAtFn =
    ND_ABI_LOWERED_REPORT_ERROR_AT;
static constexpr StringLiteral kMessageAttr = ND_ABI_MESSAGE_ATTR;
static constexpr StringLiteral kSiteFn = ND_ABI_LOWERED_SITE;
static constexpr StringLiteral kSiteAttr = ND_ABI_SITE_ATTR;
static constexpr StringLiteral kMaxThreadsFn = ND_ABI_LOWERED_MAX_THREADS;
static constexpr StringLiteral kStoreFenceFn = ND_ABI_LOWERED_STORE_FENCE;
// What they become.
static constexpr StringLiteral kOmpMaxThreadsFn =
    ND_ABI_NAME(ND_ABI_OMP_MAX_THREADS);
static constexpr StringLiteral kMessageGlobal = ND_ABI_MESSAGE_GLOBAL;
static constexpr StringLiteral kSiteTextGlobal = ND_ABI_SITE_TEXT_GLOBAL;
static constexpr StringLiteral kSiteTableGlobal = ND_ABI_SITE_TABLE_GLOBAL;

void mlir::nd::createRuntimeErrorReport(OpBuilder &builder, Location loc,
                                        StringRef format, Value a, Value b) {
  auto module = builder.getInsertionBlock()
                    ->getParentOp()
                    ->getParentOfType<ModuleOp>();
  if (!SymbolTable::lookupSymbolIn(module, kReportErrorFn)) {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(module.getBody());
    Type i64 = builder.getI64Type();
    auto declaration = func::FuncOp::create(
        builder, loc, kReportErrorFn, builder.getFunctionType({i64, i64}, {}));
    declaration.setPrivate();
  }
  auto call = func::CallOp::create(builder, loc, kReportErrorFn, TypeRange{},
                                   ValueRange{a, b});
  call->setAttr(kMessageAttr, builder.getStringAttr(format));
}

namespace {
/// The messages a function reports through its site argument `argument`,
/// numbered by first appearance.
struct SiteMessages {
  SmallVector<StringRef> messages;
  llvm::StringMap<unsigned> index;
};
} // namespace

namespace {
/// The calls --lower-scatter leaves, by callee.
struct RuntimeCalls {
  SmallVector<func::CallOp> reports, siteReports, sites, threadQueries, fences;
};

/// A site's entries in the table of site messages.
struct SiteEntries {
  func::CallOp call;
  int64_t first = -1; // In the table; -1: no message.
};

/// The site messages of the module: each site's entries, the offset in
/// `text` of each table entry, and the texts in one character array.
struct SiteTable {
  SmallVector<SiteEntries> sites;
  SmallVector<int64_t> entryOffsets;
  std::string text;
  llvm::StringMap<int64_t> textOffsets;
};

/// The lowering of a module's run-time calls to the LLVM dialect.
class RuntimeLowering {
public:
  explicit RuntimeLowering(ModuleOp module)
      : module(module), b(module.getContext()), symbols(module),
        ptrType(LLVM::LLVMPointerType::get(module.getContext())),
        i64(b.getI64Type()), i32(b.getI32Type()) {}

  LogicalResult lowerReports(ArrayRef<func::CallOp> reports);
  LogicalResult lowerSiteReports(ArrayRef<func::CallOp> siteReports);
  LogicalResult lowerSites(ArrayRef<func::CallOp> sites);
  LogicalResult lowerThreadQueries(ArrayRef<func::CallOp> queries,
                                   bool parallel);
  void lowerFences(ArrayRef<func::CallOp> fences);
  void eraseDeclarations();
  /// nd_report_error's declaration, for the reports.
  LogicalResult declareReporter();

private:
  LLVM::GlobalOp messageGlobal(StringRef message, Location loc);
  StringAttr message(func::CallOp call, unsigned operands);
  LogicalResult collectSite(func::CallOp site, SiteTable &table);
  LLVM::GlobalOp emitSiteTable(const SiteTable &table,
                               LLVM::LLVMArrayType tableType);

  ModuleOp module;
  OpBuilder b;
  SymbolTable symbols;
  Type ptrType, i64, i32;
  LLVM::LLVMFuncOp reporter;
  /// One global per distinct message.
  llvm::StringMap<LLVM::GlobalOp> globals;
  /// The messages of each function argument that is a site.
  DenseMap<BlockArgument, SiteMessages> siteMessages;
};
} // namespace

LogicalResult RuntimeLowering::declareReporter() {
  MLIRContext *ctx = module.getContext();
  FailureOr<LLVM::LLVMFuncOp> fn = LLVM::lookupOrCreateFn(
      b, module, kHostReportErrorFn, {ptrType, ptrType, i64, i64},
      LLVM::LLVMVoidType::get(ctx));
  if (failed(fn))
    return failure();
  reporter = *fn;
  return success();
}

LLVM::GlobalOp RuntimeLowering::messageGlobal(StringRef message,
                                              Location loc) {
  LLVM::GlobalOp &global = globals[message];
  if (!global) {
    std::string text = message.str();
    text.push_back('\0');
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Private, kMessageGlobal,
                                    b.getStringAttr(text));
    // Renames on a clash: one symbol table for the whole pass.
    symbols.insert(global);
  }
  return global;
}

StringAttr RuntimeLowering::message(func::CallOp call, unsigned operands) {
  auto text = call->getAttrOfType<StringAttr>(kMessageAttr);
  if (!text || call.getNumOperands() != operands ||
      !llvm::all_of(call.getOperandTypes(),
                    [](Type t) { return t.isInteger(64); })) {
    call.emitOpError() << "expected " << operands << " i64 operands and an '"
                       << kMessageAttr << "' string";
    return {};
  }
  return text;
}

LogicalResult RuntimeLowering::lowerReports(ArrayRef<func::CallOp> reports) {
  for (func::CallOp call : reports) {
    StringAttr text = message(call, 2);
    if (!text)
      return failure();
    b.setInsertionPoint(call);
    LLVM::GlobalOp global = messageGlobal(text.getValue(), call.getLoc());
    Value address = LLVM::AddressOfOp::create(b, call.getLoc(), global);
    Value state = LLVM::ZeroOp::create(b, call.getLoc(), ptrType);
    LLVM::CallOp::create(
        b, call.getLoc(), reporter,
        ValueRange{state, address, call.getOperand(0), call.getOperand(1)});
    call.erase();
  }
  return success();
}

/// The messages of each function argument that is a site, then each report
/// loads its message from the site's table.
LogicalResult
RuntimeLowering::lowerSiteReports(ArrayRef<func::CallOp> siteReports) {
  for (func::CallOp call : siteReports) {
    StringAttr text = message(call, 3);
    if (!text)
      return failure();
    auto argument = dyn_cast<BlockArgument>(call.getOperand(0));
    auto function = call->getParentOfType<func::FuncOp>();
    if (!argument || !function ||
        argument.getOwner() != &function.getBody().front())
      return call.emitOpError() << "expected its site to be an argument of "
                                   "its function";
    SiteMessages &table = siteMessages[argument];
    auto inserted =
        table.index.try_emplace(text.getValue(), table.messages.size());
    if (inserted.second)
      table.messages.push_back(text.getValue());
    Location loc = call.getLoc();
    b.setInsertionPoint(call);
    Value base = LLVM::IntToPtrOp::create(b, loc, ptrType, argument);
    auto slot = LLVM::GEPOp::create(
        b, loc, ptrType, ptrType, base,
        ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(inserted.first->second)});
    Value format = LLVM::LoadOp::create(b, loc, ptrType, slot);
    Value state = LLVM::ZeroOp::create(b, loc, ptrType);
    LLVM::CallOp::create(
        b, loc, reporter,
        ValueRange{state, format, call.getOperand(1), call.getOperand(2)});
    call.erase();
  }
  return success();
}

/// The entries of `site`: the messages of the one function it is passed to,
/// "W: M_i", appended to `table`.
LogicalResult RuntimeLowering::collectSite(func::CallOp site,
                                           SiteTable &table) {
  auto where = site->getAttrOfType<StringAttr>(kSiteAttr);
  if (!where || site.getNumOperands() != 0 || site.getNumResults() != 1 ||
      !site.getResult(0).getType().isInteger(64))
    return site.emitOpError() << "expected no operands, an i64 result and an '"
                              << kSiteAttr << "' string";
  const SiteMessages *messages = nullptr;
  bool unique = true;
  for (OpOperand &use : site.getResult(0).getUses()) {
    auto call = dyn_cast<func::CallOp>(use.getOwner());
    func::FuncOp callee =
        call ? symbols.lookup<func::FuncOp>(call.getCallee()) : nullptr;
    if (!callee || callee.isExternal()) {
      unique = false;
      break;
    }
    auto it = siteMessages.find(callee.getArgument(use.getOperandNumber()));
    const SiteMessages *found =
        it == siteMessages.end() ? nullptr : &it->second;
    if (messages && found != messages)
      unique = false;
    messages = found;
  }
  if (!unique)
    return site.emitOpError()
           << "expected to be passed to the functions of nd ops only, "
              "each site to one";
  SiteEntries entry{site};
  if (messages && !messages->messages.empty()) {
    entry.first = table.entryOffsets.size();
    for (StringRef reported : messages->messages) {
      std::string full = (where.getValue() + ": " + reported).str();
      auto inserted = table.textOffsets.try_emplace(full, table.text.size());
      if (inserted.second) {
        table.text += full;
        table.text.push_back('\0');
      }
      table.entryOffsets.push_back(inserted.first->second);
    }
  }
  table.sites.push_back(entry);
  return success();
}

/// The two globals of the site messages: the texts, and the table of
/// pointers into them.
LLVM::GlobalOp RuntimeLowering::emitSiteTable(const SiteTable &table,
                                              LLVM::LLVMArrayType tableType) {
  Location loc = module.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto textType = LLVM::LLVMArrayType::get(b.getI8Type(), table.text.size());
  auto texts = LLVM::GlobalOp::create(
      b, loc, textType, /*isConstant=*/true, LLVM::Linkage::Private,
      kSiteTextGlobal, b.getStringAttr(table.text));
  symbols.insert(texts);
  auto global = LLVM::GlobalOp::create(b, loc, tableType, /*isConstant=*/true,
                                       LLVM::Linkage::Private,
                                       kSiteTableGlobal, Attribute());
  symbols.insert(global);
  Block *init = b.createBlock(&global.getInitializerRegion());
  b.setInsertionPointToStart(init);
  Value base = LLVM::AddressOfOp::create(b, loc, texts);
  Value array = LLVM::UndefOp::create(b, loc, tableType);
  for (auto [i, offset] : llvm::enumerate(table.entryOffsets)) {
    Value pointer = LLVM::GEPOp::create(
        b, loc, ptrType, textType, base,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(offset)});
    array = LLVM::InsertValueOp::create(
        b, loc, array, pointer, ArrayRef<int64_t>{static_cast<int64_t>(i)});
  }
  LLVM::ReturnOp::create(b, loc, array);
  return global;
}

/// Each site: the messages of the function it is passed to, at the site's
/// own range of one table of all the sites' messages. The texts lie in one
/// character array: two globals for the whole module, however many sites it
/// has (a symbol per site would make every later symbol lookup scan them
/// all).
LogicalResult RuntimeLowering::lowerSites(ArrayRef<func::CallOp> sites) {
  SiteTable table;
  for (func::CallOp site : sites)
    if (failed(collectSite(site, table)))
      return failure();
  LLVM::GlobalOp global;
  auto tableType = LLVM::LLVMArrayType::get(ptrType, table.entryOffsets.size());
  if (!table.entryOffsets.empty())
    global = emitSiteTable(table, tableType);
  for (SiteEntries &site : table.sites) {
    Location loc = site.call.getLoc();
    b.setInsertionPoint(site.call);
    Value address;
    if (site.first < 0) {
      address = LLVM::ZeroOp::create(b, loc, ptrType);
    } else {
      Value start = LLVM::AddressOfOp::create(b, loc, global);
      address = LLVM::GEPOp::create(
          b, loc, ptrType, tableType, start,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(site.first)});
    }
    Value value = LLVM::PtrToIntOp::create(b, loc, i64, address);
    site.call.getResult(0).replaceAllUsesWith(value);
    site.call.erase();
  }
  return success();
}

LogicalResult
RuntimeLowering::lowerThreadQueries(ArrayRef<func::CallOp> queries,
                                    bool parallel) {
  if (queries.empty())
    return success();
  LLVM::LLVMFuncOp ompMaxThreads;
  if (parallel) {
    FailureOr<LLVM::LLVMFuncOp> fn =
        LLVM::lookupOrCreateFn(b, module, kOmpMaxThreadsFn, {}, i32);
    if (failed(fn))
      return failure();
    ompMaxThreads = *fn;
  }
  for (func::CallOp call : queries) {
    b.setInsertionPoint(call);
    Location loc = call.getLoc();
    Value threads;
    if (parallel) {
      auto query = LLVM::CallOp::create(b, loc, ompMaxThreads, ValueRange{});
      threads = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                           query.getResult());
    } else {
      threads = arith::ConstantIndexOp::create(b, loc, 1);
    }
    call.getResult(0).replaceAllUsesWith(threads);
    call.erase();
  }
  return success();
}

void RuntimeLowering::lowerFences(ArrayRef<func::CallOp> fences) {
  for (func::CallOp call : fences) {
    b.setInsertionPoint(call);
    LLVM::FenceOp::create(b, call.getLoc(), LLVM::AtomicOrdering::seq_cst);
    call.erase();
  }
}

/// The declarations --lower-scatter made, once nothing calls them.
void RuntimeLowering::eraseDeclarations() {
  for (StringRef name : {kReportErrorFn, kReportErrorAtFn, kSiteFn,
                         kMaxThreadsFn, kStoreFenceFn}) {
    auto declaration = symbols.lookup<func::FuncOp>(name);
    if (declaration && declaration.isExternal() &&
        SymbolTable::symbolKnownUseEmpty(declaration, module))
      symbols.erase(declaration);
  }
}

static RuntimeCalls collectRuntimeCalls(ModuleOp module) {
  RuntimeCalls calls;
  module.walk([&](func::CallOp call) {
    StringRef callee = call.getCallee();
    if (callee == kReportErrorFn)
      calls.reports.push_back(call);
    else if (callee == kReportErrorAtFn)
      calls.siteReports.push_back(call);
    else if (callee == kSiteFn)
      calls.sites.push_back(call);
    else if (callee == kMaxThreadsFn)
      calls.threadQueries.push_back(call);
    else if (callee == kStoreFenceFn)
      calls.fences.push_back(call);
  });
  return calls;
}

namespace {
struct ConvertNdRuntimeToLLVMPass
    : public mlir::nd::impl::ConvertNdRuntimeToLLVMBase<
          ConvertNdRuntimeToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    RuntimeCalls calls = collectRuntimeCalls(module);
    RuntimeLowering lowering(module);
    bool reports = !calls.reports.empty() || !calls.siteReports.empty();
    if ((reports && failed(lowering.declareReporter())) ||
        failed(lowering.lowerReports(calls.reports)) ||
        failed(lowering.lowerSiteReports(calls.siteReports)) ||
        failed(lowering.lowerSites(calls.sites)) ||
        failed(lowering.lowerThreadQueries(calls.threadQueries, parallel)))
      return signalPassFailure();
    lowering.lowerFences(calls.fences);
    lowering.eraseDeclarations();
  }
};
} // namespace
