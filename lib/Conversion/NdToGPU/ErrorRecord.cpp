//===- ErrorRecord.cpp - run-time checks of nd's GPU kernels ----*- C++ -*-===//
//
// See ErrorRecord.h.
//
//===----------------------------------------------------------------------===//

#include "ErrorRecord.h"

#include "nd/Conversion/NdToGPU/GPUSupport.h"
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
  return resolve(b, loc, raw, size,
                 [&](OpBuilder &, Location) { return position; });
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

std::pair<Value, Value> IndexReader::readTupleRow(
    OpBuilder &b, Location loc, Value e, Value k, ArrayRef<Value> sizes,
    ArrayRef<Value> strides,
    function_ref<Value(OpBuilder &, Location)> firstRow) const {
  Value base = mulIndex(b, loc, e, k);
  Value row = firstRow(b, loc);
  Value bad = constBool(b, loc, false);
  for (auto [c, size] : llvm::enumerate(sizes)) {
    Value at = addIndex(b, loc, base, constIndex(b, loc, c));
    ResolvedIndex index = read(b, loc, at, size);
    Value term = mulIndex(b, loc, index.position, strides[c]);
    row = addIndex(b, loc, row, term);
    bad = orBool(b, loc, bad, index.bad);
  }
  return {row, bad};
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
