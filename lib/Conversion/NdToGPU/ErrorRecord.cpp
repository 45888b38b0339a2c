//===- ErrorRecord.cpp - run-time checks of nd's GPU kernels ----*- C++ -*-===//
//
// See ErrorRecord.h.
//
//===----------------------------------------------------------------------===//

#include "ErrorRecord.h"

#include "GPUSupport.h"
#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// Declares the private function `name` of `type` in `module` unless it is
/// declared; with `cInterface`, it is called through MLIR's C interface.
static void declareFunction(OpBuilder &b, ModuleOp module, StringRef name,
                            FunctionType type, bool cInterface = false) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  if (cInterface)
    fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), b.getUnitAttr());
}

/// The type of the record as the runtime call returns it.
static MemRefType dynamicWordsType(MLIRContext *context) {
  return MemRefType::get({ShapedType::kDynamic}, IntegerType::get(context, 64));
}

ErrorRecord::ErrorRecord(OpBuilder &b, func::FuncOp func, int64_t numSlots)
    : numWords(kRecordHeader + numSlots) {
  OpBuilder::InsertionGuard guard(b);
  Type i64 = b.getI64Type();
  b.setInsertionPointToStart(&func.getBody().front());
  Location loc = func.getLoc();
  Value words = constInt(b, loc, i64, numWords);
  dynamicBuffer = rt::GpuErrorRecordOp::create(b, loc, words);
  auto wordsType = MemRefType::get({numWords}, i64);
  buffer = memref::CastOp::create(b, loc, wordsType, dynamicBuffer);
}

int64_t ErrorRecord::addMessage(Operation *op, StringRef text) {
  std::string message = describeLocation(op) + ": " +
                        op->getName().getStringRef().str() + ": " + text.str();
  messages.push_back(message);
  return static_cast<int64_t>(messages.size());
}

int64_t ErrorRecord::takeSlot() {
  assert(kRecordHeader + nextSlot < numWords && "too few slots");
  return nextSlot++;
}

Value ErrorRecord::failed(OpBuilder &b, Location loc) const {
  Value zero = constIndex(b, loc, 0);
  Value code = memref::LoadOp::create(b, loc, buffer, zero);
  Value none = constInt(b, loc, b.getI64Type(), 0);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, code, none);
}

void ErrorRecord::noteBad(OpBuilder &b, Location loc, int64_t slot,
                          Value position) const {
  Value word = constIndex(b, loc, kRecordHeader + slot);
  Value position64 = fromIndex(b, loc, b.getI64Type(), position);
  Value ones = constInt(b, loc, b.getI64Type(), -1);
  Value complement = arith::XOrIOp::create(b, loc, position64, ones);
  memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::maxu, complement,
                              buffer, ValueRange{word});
}

ResolvedIndex IndexReader::read(OpBuilder &b, Location loc, Value position,
                                Value size) const {
  Value raw = loadIndexValue(b, loc, flat, position);
  ResolvedIndex index = resolveIndex(b, loc, oob, raw, size);
  noteIfBad(b, loc, index.bad, position);
  return index;
}

ResolvedIndex
IndexReader::resolve(OpBuilder &b, Location loc, Value raw, Value size,
                     function_ref<Value(OpBuilder &, Location)> position) const {
  ResolvedIndex index = resolveIndex(b, loc, oob, raw, size);
  if (record)
    buildIf(b, loc, index.bad, [&](OpBuilder &nb, Location nloc) {
      record->noteBad(nb, nloc, slot, position(nb, nloc));
    });
  return index;
}

void IndexReader::noteIfBad(OpBuilder &b, Location loc, Value bad,
                            Value position) const {
  if (!record)
    return;
  buildIf(b, loc, bad, [&](OpBuilder &nb, Location nloc) {
    record->noteBad(nb, nloc, slot, position);
  });
}

/// In one thread: stores (code, a, b) into the record unless it holds one.
static void storeUnlessSet(OpBuilder &b, Location loc, Value buffer, Value code,
                           Value a, Value b2) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value two = constIndex(b, loc, 2);
  Value current = memref::LoadOp::create(b, loc, buffer, zero);
  Value none = constInt(b, loc, b.getI64Type(), 0);
  Value unset =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, current, none);
  buildIf(b, loc, unset, [&](OpBuilder &nb, Location nloc) {
    memref::StoreOp::create(nb, nloc, a, buffer, one);
    memref::StoreOp::create(nb, nloc, b2, buffer, two);
    memref::StoreOp::create(nb, nloc, code, buffer, zero);
  });
}

void ErrorRecord::finalize(OpBuilder &b, Location loc, int64_t slot,
                           Describe describe) const {
  Value one = constIndex(b, loc, 1);
  Value record = buffer;
  launch(b, loc, one, Value(), 1,
         [&](OpBuilder &kb, Location kloc, const KernelIds &) {
           Value word = constIndex(kb, kloc, kRecordHeader + slot);
           Value noted = memref::LoadOp::create(kb, kloc, record, word);
           Value none = constInt(kb, kloc, kb.getI64Type(), 0);
           Value bad = arith::CmpIOp::create(kb, kloc, arith::CmpIPredicate::ne,
                                             noted, none);
           buildIf(kb, kloc, bad, [&](OpBuilder &nb, Location nloc) {
             Value ones = constInt(nb, nloc, nb.getI64Type(), -1);
             Value position64 = arith::XOrIOp::create(nb, nloc, noted, ones);
             Value position = toIndex(nb, nloc, position64);
             auto [code, a, b2] = describe(nb, nloc, position);
             storeUnlessSet(nb, nloc, record, code, a, b2);
           });
         });
}

void ErrorRecord::finalizeHere(OpBuilder &b, Location loc, int64_t slot,
                               Describe describe) const {
  Value word = constIndex(b, loc, kRecordHeader + slot);
  Value none = constInt(b, loc, b.getI64Type(), 0);
  Value noted = memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::maxu,
                                            none, buffer, ValueRange{word});
  Value bad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, noted, none);
  Value record = buffer;
  buildIf(b, loc, bad, [&](OpBuilder &nb, Location nloc) {
    Value ones = constInt(nb, nloc, nb.getI64Type(), -1);
    Value position64 = arith::XOrIOp::create(nb, nloc, noted, ones);
    Value position = toIndex(nb, nloc, position64);
    auto [c, a, b2] = describe(nb, nloc, position);
    storeUnlessSet(nb, nloc, record, c, a, b2);
  });
}

Value ErrorRecord::failedOrFinalize(OpBuilder &b, Location loc,
                                    Value isFirstThread, int64_t slot,
                                    Describe describe) const {
  Value zero = constIndex(b, loc, 0);
  Value none = constInt(b, loc, b.getI64Type(), 0);
  Value code = memref::LoadOp::create(b, loc, buffer, zero);
  Value word = constIndex(b, loc, kRecordHeader + slot);
  Value noted = memref::LoadOp::create(b, loc, buffer, word);
  Value earlier =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, code, none);
  Value bad =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, noted, none);
  Value record = buffer;
  Value mine = andBool(b, loc, andBool(b, loc, bad, notBool(b, loc, earlier)),
                       isFirstThread);
  buildIf(b, loc, mine, [&](OpBuilder &nb, Location nloc) {
    Value ones = constInt(nb, nloc, nb.getI64Type(), -1);
    Value position64 = arith::XOrIOp::create(nb, nloc, noted, ones);
    Value position = toIndex(nb, nloc, position64);
    auto [c, a, b2] = describe(nb, nloc, position);
    Value one = constIndex(nb, nloc, 1);
    Value two = constIndex(nb, nloc, 2);
    memref::StoreOp::create(nb, nloc, a, record, one);
    memref::StoreOp::create(nb, nloc, b2, record, two);
    memref::StoreOp::create(nb, nloc, c, record, zero);
  });
  return orBool(b, loc, earlier, bad);
}

void ErrorRecord::recordFromHost(OpBuilder &b, Location loc, Value bad,
                                 int64_t code, Value a, Value b2) const {
  Type i64 = b.getI64Type();
  Value a64 = fromIndex(b, loc, i64, a);
  Value b64 = fromIndex(b, loc, i64, b2);
  Value record = buffer;
  buildIf(b, loc, bad, [&](OpBuilder &hb, Location hloc) {
    Value one = constIndex(hb, hloc, 1);
    launch(hb, hloc, one, Value(), 1,
           [&](OpBuilder &kb, Location kloc, const KernelIds &) {
             Value codeValue = constInt(kb, kloc, kb.getI64Type(), code);
             storeUnlessSet(kb, kloc, record, codeValue, a64, b64);
           });
  });
}

void ErrorRecord::emitReports(OpBuilder &b, func::FuncOp func) const {
  if (messages.empty())
    return;
  SmallVector<Attribute> texts;
  for (const std::string &message : messages)
    texts.push_back(b.getStringAttr(message));
  ArrayAttr table = b.getArrayAttr(texts);
  SmallVector<func::ReturnOp> returns;
  func.walk([&](func::ReturnOp ret) { returns.push_back(ret); });
  for (func::ReturnOp ret : returns) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ret);
    rt::GpuErrorRecordEndOp::create(b, ret.getLoc(), dynamicBuffer, table);
  }
}

//===----------------------------------------------------------------------===//
// The record on the host (--nd-gpu-run-on-host)
//===----------------------------------------------------------------------===//

/// The ops of type OpTy in `module`, in the order of a walk.
template <typename OpTy> static SmallVector<OpTy> opsOf(ModuleOp module) {
  SmallVector<OpTy> ops;
  module.walk([&](OpTy op) { ops.push_back(op); });
  return ops;
}

/// A record in host memory, cleared word by word.
static void expandRecordOnHost(OpBuilder &b, rt::GpuErrorRecordOp call) {
  b.setInsertionPoint(call);
  Location loc = call.getLoc();
  Value words = toIndex(b, loc, call.getWords());
  MemRefType type = call.getType();
  Value record = memref::AllocOp::create(b, loc, type, ValueRange{words});
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value none = constInt(b, loc, b.getI64Type(), 0);
  buildFor(b, loc, zero, words, one,
           [&](OpBuilder &nb, Location nloc, Value i) {
             memref::StoreOp::create(nb, nloc, none, record, ValueRange{i});
           });
  call.getResult().replaceAllUsesWith(record);
  call.erase();
}

/// Reports the check whose code the host record holds, then frees it.
static void expandRecordEndOnHost(OpBuilder &b, rt::GpuErrorRecordEndOp call) {
  b.setInsertionPoint(call);
  Location loc = call.getLoc();
  Value record = call.getRecord();
  ArrayAttr table = call.getMessages();
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value two = constIndex(b, loc, 2);
  Value code = memref::LoadOp::create(b, loc, record, zero);
  Value a = memref::LoadOp::create(b, loc, record, one);
  Value b2 = memref::LoadOp::create(b, loc, record, two);
  Value which = toIndex(b, loc, code);
  SmallVector<int64_t> cases;
  for (int64_t i = 1, e = table.size(); i <= e; ++i)
    cases.push_back(i);
  auto switchOp = scf::IndexSwitchOp::create(b, loc, TypeRange{}, which, cases,
                                             cases.size());
  for (auto [i, message] : llvm::enumerate(table.getAsRange<StringAttr>())) {
    Block &block = switchOp.getCaseRegions()[i].emplaceBlock();
    OpBuilder cb = OpBuilder::atBlockBegin(&block);
    rt::ReportOp::create(cb, loc, message, a, b2);
    scf::YieldOp::create(cb, loc);
  }
  Block &otherwise = switchOp.getDefaultRegion().emplaceBlock();
  OpBuilder db = OpBuilder::atBlockBegin(&otherwise);
  scf::YieldOp::create(db, loc);
  memref::DeallocOp::create(b, loc, record);
  call.erase();
}

void gpu_lowering::expandErrorRecordsOnHost(ModuleOp module) {
  OpBuilder b(module.getContext());
  // The ends first: they use the records.
  for (auto call : opsOf<rt::GpuErrorRecordEndOp>(module))
    expandRecordEndOnHost(b, call);
  for (auto call : opsOf<rt::GpuErrorRecordOp>(module))
    expandRecordOnHost(b, call);
}

//===----------------------------------------------------------------------===//
// The record on a device (--nd-gpu-call-stream)
//===----------------------------------------------------------------------===//

/// The messages of `table` as the runtime reads them: each NUL-terminated,
/// one after the other, an empty one after the last.
static SmallVector<int8_t> packMessages(ArrayAttr table) {
  SmallVector<int8_t> bytes;
  for (StringAttr message : table.getAsRange<StringAttr>()) {
    for (char c : message.getValue())
      bytes.push_back(static_cast<int8_t>(c));
    bytes.push_back(0);
  }
  bytes.push_back(0);
  return bytes;
}

/// A private constant global of `symbols` holding `table` (one per distinct
/// table), as a memref<?xi8> at `call`.
static Value messagesAt(OpBuilder &b, SymbolTable &symbols,
                        rt::GpuErrorRecordEndOp call, ArrayAttr table,
                        llvm::DenseMap<Attribute, memref::GlobalOp> &globals) {
  Location loc = call.getLoc();
  memref::GlobalOp &global = globals[table];
  if (!global) {
    SmallVector<int8_t> bytes = packMessages(table);
    auto type =
        MemRefType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
    auto tensorType =
        RankedTensorType::get(type.getShape(), type.getElementType());
    auto value = DenseElementsAttr::get(tensorType, ArrayRef<int8_t>(bytes));
    // Made outside the module, then inserted under a name of its own.
    OpBuilder detached(b.getContext());
    global = memref::GlobalOp::create(detached, loc, ND_ABI_GPU_MESSAGES_GLOBAL,
                                      b.getStringAttr("private"), type, value,
                                      /*constant=*/true, /*alignment=*/nullptr);
    auto module = cast<ModuleOp>(symbols.getOp());
    symbols.insert(global, module.getBody()->begin());
  }
  b.setInsertionPoint(call);
  Value whole = memref::GetGlobalOp::create(b, loc, global.getType(),
                                            global.getSymName());
  auto dynamicType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  return memref::CastOp::create(b, loc, dynamicType, whole);
}

void gpu_lowering::lowerErrorRecordsForDevice(ModuleOp module) {
  OpBuilder b(module.getContext());
  MemRefType wordsType = dynamicWordsType(module.getContext());
  auto bytesType = MemRefType::get({ShapedType::kDynamic}, b.getI8Type());
  StringRef recordFn = ND_ABI_NAME(ND_ABI_CUDA_ERROR_RECORD);
  StringRef endFn = ND_ABI_NAME(ND_ABI_CUDA_ERROR_RECORD_END);
  SmallVector<rt::GpuErrorRecordOp> records =
      opsOf<rt::GpuErrorRecordOp>(module);
  SmallVector<rt::GpuErrorRecordEndOp> ends =
      opsOf<rt::GpuErrorRecordEndOp>(module);
  if (!records.empty())
    declareFunction(b, module, recordFn,
                    b.getFunctionType({b.getI64Type()}, wordsType),
                    /*cInterface=*/true);
  if (!ends.empty())
    declareFunction(b, module, endFn,
                    b.getFunctionType({wordsType, bytesType}, {}),
                    /*cInterface=*/true);
  for (rt::GpuErrorRecordOp record : records) {
    b.setInsertionPoint(record);
    auto call = func::CallOp::create(b, record.getLoc(), recordFn, wordsType,
                                     ValueRange{record.getWords()});
    record.getResult().replaceAllUsesWith(call.getResult(0));
    record.erase();
  }
  llvm::DenseMap<Attribute, memref::GlobalOp> globals;
  SymbolTable symbols(module);
  for (rt::GpuErrorRecordEndOp end : ends) {
    Value messages = messagesAt(b, symbols, end, end.getMessages(), globals);
    func::CallOp::create(b, end.getLoc(), endFn, TypeRange{},
                         ValueRange{end.getRecord(), messages});
    end.erase();
  }
}

std::tuple<Value, Value, Value>
gpu_lowering::describeIndexValue(OpBuilder &b, Location loc, Value indices,
                                 Value position, Value size, int64_t code) {
  Value raw = loadIndexValue(b, loc, indices, position);
  Type i64 = b.getI64Type();
  Value code64 = constInt(b, loc, i64, code);
  Value raw64 = fromIndex(b, loc, i64, raw);
  Value size64 = fromIndex(b, loc, i64, size);
  return std::make_tuple(code64, raw64, size64);
}

std::tuple<Value, Value, Value>
gpu_lowering::describeTupleComponent(OpBuilder &b, Location loc, Value indices,
                                     Value position, Value k,
                                     ArrayRef<Value> sizes, int64_t baseCode) {
  Value c = remIndex(b, loc, position, k);
  Value raw = loadIndexValue(b, loc, indices, position);
  Value size = selectByIndex(b, loc, c, sizes);
  Type i64 = b.getI64Type();
  Value base = constIndex(b, loc, baseCode);
  Value code = addIndex(b, loc, base, c);
  // Each value is bound before the tuple: C++ leaves the evaluation order of
  // call arguments unspecified.
  Value code64 = fromIndex(b, loc, i64, code);
  Value raw64 = fromIndex(b, loc, i64, raw);
  Value size64 = fromIndex(b, loc, i64, size);
  return std::make_tuple(code64, raw64, size64);
}
