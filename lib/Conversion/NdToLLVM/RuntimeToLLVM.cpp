//===- RuntimeToLLVM.cpp - nd's run-time ops, LLVM stage --------*- C++ -*-===//
//
// `--convert-nd-runtime-to-llvm`: the ops of the nd_rt dialect (nd's
// run-time contract, NdRuntimeOps.td) that `--lower-scatter`, the GPU
// lowering on the host and `--nd-partition` leave for the LLVM stage, one
// rewrite pattern each (populateNdRuntimeToLLVMPatterns).
//
// The external names are those of nd-c/RuntimeABI.h.
//
// - `nd_rt.report M (a, b)` becomes
//   `llvm.call @nd_report_error(null, @msg, a, b)` with M in a private
//   constant global (one per distinct message); the null is the call state,
//   which --nd-call-state replaces where a host passes one.
// - Inside a function that ops at several places share, a report names its
//   site, the function's argument `s`: `nd_rt.report_at s M_i (a, b)`. Each
//   call of the function passes `nd_rt.site W`, which becomes the address
//   of the site's entries in a private table of messages: "W: M_1", ...,
//   "W: M_n" (the function's messages, numbered by first appearance); the
//   report loads entry i from there and calls `nd_report_error` with it.
//   One table and one array of texts serve all the sites of the module.
// - `nd_rt.max_threads` becomes `omp_get_max_threads()` (or 1 without
//   OpenMP).
// - `nd_rt.store_fence` becomes `llvm.fence seq_cst`, which orders
//   non-temporal stores too (x86: `mfence`).
// - `nd_rt.buffer_address` becomes the aligned pointer of the buffer's
//   descriptor, `nd_rt.buffer_at` a descriptor of its static type with the
//   address as both pointers; each through an unrealized cast between the
//   memref and its descriptor, which reconcile-unrealized-casts folds once
//   the LLVM conversions have lowered the memref's producer and users.
//
// The module-level symbols (the reporter's declaration, the message
// globals, the site table, omp_get_max_threads's declaration) are made
// before the patterns run, in that order (RuntimeTables::build): the
// patterns only rewrite their op in place.
//
// Preconditions: the nd_rt ops verify; each `nd_rt.report_at`'s site is an
// argument of its function, and each `nd_rt.site` is passed only to the
// functions of nd ops, to one function at most (the pass fails otherwise).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/RuntimeToLLVM.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/StringMap.h"

#include <memory>

namespace mlir::nd {
#define GEN_PASS_DEF_CONVERTNDRUNTIMETOLLVM
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

// What the ops become (nd-c/RuntimeABI.h).
static constexpr StringLiteral kOmpMaxThreadsFn =
    ND_ABI_NAME(ND_ABI_OMP_MAX_THREADS);
static constexpr StringLiteral kMessageGlobal = ND_ABI_MESSAGE_GLOBAL;
static constexpr StringLiteral kSiteTextGlobal = ND_ABI_SITE_TEXT_GLOBAL;
static constexpr StringLiteral kSiteTableGlobal = ND_ABI_SITE_TABLE_GLOBAL;

void mlir::nd::createRuntimeErrorReport(OpBuilder &builder, Location loc,
                                        StringRef format, Value a, Value b) {
  rt::ReportOp::create(builder, loc, format, a, b);
}

//===----------------------------------------------------------------------===//
// The module's run-time tables
//===----------------------------------------------------------------------===//

namespace {
/// The messages a function reports through its site argument, numbered by
/// first appearance.
struct SiteMessages {
  SmallVector<StringRef> messages;
  llvm::StringMap<unsigned> index;
};

/// The nd_rt ops of a module, by kind, in the order of a walk.
struct RuntimeOps {
  SmallVector<rt::ReportOp> reports;
  SmallVector<rt::ReportAtOp> siteReports;
  SmallVector<rt::SiteOp> sites;
  bool threadQueries = false;
};

/// The site messages of the module: the first table entry of each site
/// (-1: none), the offset in `text` of each table entry, and the texts in
/// one character array.
struct SiteTable {
  DenseMap<Operation *, int64_t> first;
  SmallVector<int64_t> entryOffsets;
  std::string text;
  llvm::StringMap<int64_t> textOffsets;
};
} // namespace

namespace mlir::nd {
/// What the patterns of the nd_rt ops refer to: the module-level symbols,
/// made before the patterns run (`build`), and where each report and site
/// finds its message.
class RuntimeTables {
public:
  /// The tables of `module`, with omp_get_max_threads's declaration if
  /// `parallel`; fails (with a diagnostic) on an op that breaks the pass's
  /// preconditions.
  static FailureOr<std::shared_ptr<RuntimeTables>> build(ModuleOp module,
                                                         bool parallel);

  Type ptrType;
  LLVM::LLVMFuncOp reporter;
  /// Null without `parallel`: the thread count is 1.
  LLVM::LLVMFuncOp ompMaxThreads;
  /// One global per distinct message of `nd_rt.report`.
  llvm::StringMap<LLVM::GlobalOp> messageGlobals;
  /// The entry of each `nd_rt.report_at` in its site's messages.
  DenseMap<Operation *, int32_t> siteReportEntries;
  /// The first entry of each `nd_rt.site` in `siteTable` (-1: none).
  DenseMap<Operation *, int64_t> siteEntries;
  LLVM::GlobalOp siteTable;
  LLVM::LLVMArrayType siteTableType;
  /// The site table's address for the sites of a function's body: one per
  /// body, at its start (a chain's function holds a site per call). Made
  /// as the patterns run: the tables are built for one run of the pass, and
  /// its patterns are applied by one walk on one thread.
  mutable DenseMap<Region *, Value> siteTableAddresses;

  /// At the insertion point of `rewriter`, before `site`: the address of
  /// the site table.
  Value siteTableAddress(PatternRewriter &rewriter, Operation *site) const {
    Region *body = site->getParentRegion();
    if (!isa<FunctionOpInterface>(body->getParentOp()))
      return LLVM::AddressOfOp::create(rewriter, site->getLoc(), siteTable);
    Value &address = siteTableAddresses[body];
    if (!address) {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&body->front());
      address = LLVM::AddressOfOp::create(rewriter, site->getLoc(), siteTable);
    }
    return address;
  }

private:
  RuntimeTables(ModuleOp module)
      : module(module), b(module.getContext()), symbols(module) {
    ptrType = LLVM::LLVMPointerType::get(module.getContext());
  }

  LogicalResult declareReporter();
  void createMessageGlobal(rt::ReportOp report);
  LogicalResult numberSiteMessages(ArrayRef<rt::ReportAtOp> siteReports);
  LogicalResult collectSite(rt::SiteOp site, SiteTable &table);
  LogicalResult buildSiteTable(ArrayRef<rt::SiteOp> sites);
  void emitSiteTable(const SiteTable &table);

  ModuleOp module;
  OpBuilder b;
  SymbolTable symbols;
  /// The messages of each function argument that is a site.
  DenseMap<BlockArgument, SiteMessages> siteMessages;
};
} // namespace mlir::nd

LogicalResult RuntimeTables::declareReporter() {
  MLIRContext *ctx = module.getContext();
  Type i64 = b.getI64Type();
  FailureOr<LLVM::LLVMFuncOp> fn = LLVM::lookupOrCreateFn(
      b, module, kHostReportErrorFn, {ptrType, ptrType, i64, i64},
      LLVM::LLVMVoidType::get(ctx));
  if (failed(fn))
    return failure();
  reporter = *fn;
  return success();
}

void RuntimeTables::createMessageGlobal(rt::ReportOp report) {
  StringRef message = report.getMessage();
  LLVM::GlobalOp &global = messageGlobals[message];
  if (global)
    return;
  std::string text = message.str();
  text.push_back('\0');
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), text.size());
  global = LLVM::GlobalOp::create(b, report.getLoc(), type,
                                  /*isConstant=*/true, LLVM::Linkage::Private,
                                  kMessageGlobal, b.getStringAttr(text));
  // Renames on a clash: one symbol table for the whole pass.
  symbols.insert(global);
}

/// The messages of each function argument that is a site, numbered by first
/// appearance, and the entry of each report among its site's messages.
LogicalResult
RuntimeTables::numberSiteMessages(ArrayRef<rt::ReportAtOp> siteReports) {
  for (rt::ReportAtOp report : siteReports) {
    auto argument = dyn_cast<BlockArgument>(report.getSite());
    auto function = report->getParentOfType<func::FuncOp>();
    if (!argument || !function ||
        argument.getOwner() != &function.getBody().front())
      return report.emitOpError()
             << "expected its site to be an argument of its function";
    SiteMessages &table = siteMessages[argument];
    StringRef message = report.getMessage();
    auto inserted = table.index.try_emplace(message, table.messages.size());
    if (inserted.second)
      table.messages.push_back(message);
    siteReportEntries[report] = static_cast<int32_t>(inserted.first->second);
  }
  return success();
}

/// The entries of `site`: the messages of the one function it is passed to,
/// "W: M_i", appended to `table`.
LogicalResult RuntimeTables::collectSite(rt::SiteOp site, SiteTable &table) {
  const SiteMessages *messages = nullptr;
  bool unique = true;
  for (OpOperand &use : site.getResult().getUses()) {
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
  int64_t first = -1;
  if (messages && !messages->messages.empty()) {
    first = table.entryOffsets.size();
    for (StringRef reported : messages->messages) {
      std::string full = (site.getWhere() + ": " + reported).str();
      auto inserted = table.textOffsets.try_emplace(full, table.text.size());
      if (inserted.second) {
        table.text += full;
        table.text.push_back('\0');
      }
      table.entryOffsets.push_back(inserted.first->second);
    }
  }
  table.first[site] = first;
  return success();
}

/// The two globals of the site messages: the texts, and the table of
/// pointers into them.
void RuntimeTables::emitSiteTable(const SiteTable &table) {
  Location loc = module.getLoc();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto textType = LLVM::LLVMArrayType::get(b.getI8Type(), table.text.size());
  auto texts = LLVM::GlobalOp::create(b, loc, textType, /*isConstant=*/true,
                                      LLVM::Linkage::Private, kSiteTextGlobal,
                                      b.getStringAttr(table.text));
  symbols.insert(texts);
  siteTable =
      LLVM::GlobalOp::create(b, loc, siteTableType,
                             /*isConstant=*/true, LLVM::Linkage::Private,
                             kSiteTableGlobal, Attribute());
  symbols.insert(siteTable);
  Block *init = b.createBlock(&siteTable.getInitializerRegion());
  b.setInsertionPointToStart(init);
  Value base = LLVM::AddressOfOp::create(b, loc, texts);
  Value array = LLVM::UndefOp::create(b, loc, siteTableType);
  for (auto [i, offset] : llvm::enumerate(table.entryOffsets)) {
    Value pointer = LLVM::GEPOp::create(
        b, loc, ptrType, textType, base,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(offset)});
    array = LLVM::InsertValueOp::create(
        b, loc, array, pointer, ArrayRef<int64_t>{static_cast<int64_t>(i)});
  }
  LLVM::ReturnOp::create(b, loc, array);
}

/// Each site: the messages of the function it is passed to, at the site's
/// own range of one table of all the sites' messages. The texts lie in one
/// character array: two globals for the whole module, however many sites it
/// has (a symbol per site would make every later symbol lookup scan them
/// all).
LogicalResult RuntimeTables::buildSiteTable(ArrayRef<rt::SiteOp> sites) {
  SiteTable table;
  for (rt::SiteOp site : sites)
    if (failed(collectSite(site, table)))
      return failure();
  siteTableType = LLVM::LLVMArrayType::get(ptrType, table.entryOffsets.size());
  if (!table.entryOffsets.empty())
    emitSiteTable(table);
  siteEntries = std::move(table.first);
  return success();
}

static RuntimeOps collectRuntimeOps(ModuleOp module) {
  RuntimeOps ops;
  module.walk([&](Operation *op) {
    if (auto report = dyn_cast<rt::ReportOp>(op))
      ops.reports.push_back(report);
    else if (auto siteReport = dyn_cast<rt::ReportAtOp>(op))
      ops.siteReports.push_back(siteReport);
    else if (auto site = dyn_cast<rt::SiteOp>(op))
      ops.sites.push_back(site);
    else if (isa<rt::MaxThreadsOp>(op))
      ops.threadQueries = true;
  });
  return ops;
}

FailureOr<std::shared_ptr<RuntimeTables>> RuntimeTables::build(ModuleOp module,
                                                               bool parallel) {
  RuntimeOps ops = collectRuntimeOps(module);
  std::shared_ptr<RuntimeTables> tables(new RuntimeTables(module));
  bool reports = !ops.reports.empty() || !ops.siteReports.empty();
  if (reports && failed(tables->declareReporter()))
    return failure();
  for (rt::ReportOp report : ops.reports)
    tables->createMessageGlobal(report);
  if (failed(tables->numberSiteMessages(ops.siteReports)) ||
      failed(tables->buildSiteTable(ops.sites)))
    return failure();
  if (ops.threadQueries && parallel) {
    FailureOr<LLVM::LLVMFuncOp> fn = LLVM::lookupOrCreateFn(
        tables->b, module, kOmpMaxThreadsFn, {}, tables->b.getI32Type());
    if (failed(fn))
      return failure();
    tables->ompMaxThreads = *fn;
  }
  return tables;
}

FailureOr<std::shared_ptr<RuntimeTables>>
mlir::nd::buildNdRuntimeTables(ModuleOp module, bool parallel) {
  return RuntimeTables::build(module, parallel);
}

//===----------------------------------------------------------------------===//
// The patterns, one per op
//===----------------------------------------------------------------------===//

namespace {
/// A pattern of an nd_rt op that reads the module's run-time tables.
template <typename OpTy> struct RuntimePattern : OpRewritePattern<OpTy> {
  RuntimePattern(MLIRContext *ctx,
                 std::shared_ptr<const RuntimeTables> sharedTables)
      : OpRewritePattern<OpTy>(ctx), shared(std::move(sharedTables)),
        tables(*shared) {}
  std::shared_ptr<const RuntimeTables> shared;
  const RuntimeTables &tables;

  /// `nd_report_error(null, format, a, b)` in place of `op` (the null call
  /// state is --nd-call-state's to replace).
  void replaceWithReport(OpTy op, PatternRewriter &rewriter,
                         Value format) const {
    Location loc = op.getLoc();
    Value state = LLVM::ZeroOp::create(rewriter, loc, tables.ptrType);
    LLVM::CallOp::create(rewriter, loc, tables.reporter,
                         ValueRange{state, format, op.getA(), op.getB()});
    rewriter.eraseOp(op);
  }
};

struct ReportLowering : RuntimePattern<rt::ReportOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult matchAndRewrite(rt::ReportOp op,
                                PatternRewriter &rewriter) const override {
    LLVM::GlobalOp global = tables.messageGlobals.lookup(op.getMessage());
    if (!global || !tables.reporter)
      return rewriter.notifyMatchFailure(op, "no global for its message");
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value address = LLVM::AddressOfOp::create(rewriter, loc, global);
    replaceWithReport(op, rewriter, address);
    return success();
  }
};

struct ReportAtLowering : RuntimePattern<rt::ReportAtOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult matchAndRewrite(rt::ReportAtOp op,
                                PatternRewriter &rewriter) const override {
    auto entry = tables.siteReportEntries.find(op);
    if (entry == tables.siteReportEntries.end() || !tables.reporter)
      return rewriter.notifyMatchFailure(op, "not in the site tables");
    Location loc = op.getLoc();
    Type ptrType = tables.ptrType;
    rewriter.setInsertionPoint(op);
    Value base = LLVM::IntToPtrOp::create(rewriter, loc, ptrType, op.getSite());
    auto slot = LLVM::GEPOp::create(rewriter, loc, ptrType, ptrType, base,
                                    ArrayRef<LLVM::GEPArg>{entry->second});
    Value format = LLVM::LoadOp::create(rewriter, loc, ptrType, slot);
    replaceWithReport(op, rewriter, format);
    return success();
  }
};

struct SiteLowering : RuntimePattern<rt::SiteOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult matchAndRewrite(rt::SiteOp op,
                                PatternRewriter &rewriter) const override {
    auto entry = tables.siteEntries.find(op);
    if (entry == tables.siteEntries.end())
      return rewriter.notifyMatchFailure(op, "not in the site tables");
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    Value address;
    if (entry->second < 0) {
      address = LLVM::ZeroOp::create(rewriter, loc, tables.ptrType);
    } else {
      Value start = tables.siteTableAddress(rewriter, op);
      address = LLVM::GEPOp::create(
          rewriter, loc, tables.ptrType, tables.siteTableType, start,
          ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(entry->second)});
    }
    Value value =
        LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), address);
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct MaxThreadsLowering : RuntimePattern<rt::MaxThreadsOp> {
  using RuntimePattern::RuntimePattern;
  LogicalResult matchAndRewrite(rt::MaxThreadsOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(op);
    if (!tables.ompMaxThreads) {
      rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(op, 1);
      return success();
    }
    auto query =
        LLVM::CallOp::create(rewriter, loc, tables.ompMaxThreads, ValueRange{});
    Value threads = arith::IndexCastOp::create(
        rewriter, loc, rewriter.getIndexType(), query.getResult());
    rewriter.replaceOp(op, threads);
    return success();
  }
};

/// A pattern of an nd_rt op between a buffer and its address: it builds or
/// takes apart the buffer's memref descriptor, of the type `converter`
/// (one for both patterns) gives the buffer.
template <typename OpTy> struct DescriptorPattern : OpRewritePattern<OpTy> {
  DescriptorPattern(MLIRContext *ctx,
                    std::shared_ptr<const LLVMTypeConverter> converter)
      : OpRewritePattern<OpTy>(ctx), converter(std::move(converter)) {}
  std::shared_ptr<const LLVMTypeConverter> converter;
};

/// `nd_rt.buffer_address`: the aligned pointer of the buffer's descriptor
/// (through a cast to the descriptor, which reconcile-unrealized-casts
/// folds once the buffer's producer is lowered).
struct BufferAddressLowering : DescriptorPattern<rt::BufferAddressOp> {
  using DescriptorPattern::DescriptorPattern;

  LogicalResult matchAndRewrite(rt::BufferAddressOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type descriptorType = converter->convertType(op.getBuffer().getType());
    Value descriptor = UnrealizedConversionCastOp::create(
                           rewriter, loc, descriptorType, op.getBuffer())
                           .getResult(0);
    Value address = MemRefDescriptor(descriptor).alignedPtr(rewriter, loc);
    rewriter.replaceOp(op, address);
    return success();
  }
};

/// `nd_rt.buffer_at`: a descriptor of the static type at the address
/// (allocated and aligned pointer both), cast to the buffer.
struct BufferAtLowering : DescriptorPattern<rt::BufferAtOp> {
  using DescriptorPattern::DescriptorPattern;

  LogicalResult matchAndRewrite(rt::BufferAtOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemRefType type = op.getBuffer().getType();
    Value descriptor = MemRefDescriptor::fromStaticShape(
        rewriter, loc, *converter, type, op.getAddress());
    rewriter.replaceOpWithNewOp<UnrealizedConversionCastOp>(op, type,
                                                            descriptor);
    return success();
  }
};

struct StoreFenceLowering : OpRewritePattern<rt::StoreFenceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(rt::StoreFenceOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FenceOp>(op,
                                               LLVM::AtomicOrdering::seq_cst);
    return success();
  }
};
} // namespace

void mlir::nd::populateNdRuntimeToLLVMPatterns(
    RewritePatternSet &patterns, std::shared_ptr<const RuntimeTables> tables) {
  MLIRContext *ctx = patterns.getContext();
  patterns
      .add<ReportLowering, ReportAtLowering, SiteLowering, MaxThreadsLowering>(
          ctx, tables);
  patterns.add<StoreFenceLowering>(ctx);
  auto converter = std::make_shared<const LLVMTypeConverter>(ctx);
  patterns.add<BufferAddressLowering, BufferAtLowering>(ctx, converter);
}

namespace {
struct ConvertNdRuntimeToLLVMPass
    : public mlir::nd::impl::ConvertNdRuntimeToLLVMBase<
          ConvertNdRuntimeToLLVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::shared_ptr<RuntimeTables>> tables =
        buildNdRuntimeTables(module, parallel);
    if (failed(tables))
      return signalPassFailure();
    RewritePatternSet patterns(&getContext());
    populateNdRuntimeToLLVMPatterns(patterns, *tables);
    walkAndApplyPatterns(module, std::move(patterns));
    // The walk skips unreachable blocks: an op left there is an error.
    WalkResult left = module.walk([](Operation *op) {
      if (!isa_and_nonnull<rt::NdRuntimeDialect>(op->getDialect()))
        return WalkResult::advance();
      op->emitOpError() << "was not lowered to the LLVM dialect";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
