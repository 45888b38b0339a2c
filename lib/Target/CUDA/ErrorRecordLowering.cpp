//===- ErrorRecordLowering.cpp - a GPU function's error record, lowered ---===//
//
// See ErrorRecordLowering.h.
//
//===----------------------------------------------------------------------===//

#include "ErrorRecordLowering.h"

#include "nd-c/RuntimeABI.h"
#include "nd/Conversion/NdToGPU/GPUSupport.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

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

void cuda::expandErrorRecordsOnHost(ModuleOp module) {
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

void cuda::lowerErrorRecordsForDevice(ModuleOp module) {
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
