//===- RowEngine.cpp - rows moved by groups of GPU threads ------*- C++ -*-===//
//
// See RowEngine.h.
//
//===----------------------------------------------------------------------===//

#include "RowEngine.h"

#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// The most units a thread takes of a chunk.
static constexpr int64_t kMaxUnitsPerThread = 4;

int64_t gpu_lowering::unitsPerThreadFor(Value rowLen, int64_t vectorLength) {
  std::optional<int64_t> known = getConstantIntValue(rowLen);
  if (!known)
    return kMaxUnitsPerThread;
  int64_t units = *known / vectorLength;
  return std::clamp<int64_t>(units, 1, kMaxUnitsPerThread);
}

/// The smallest power of two at least `n` (host index values), clamped to
/// `[1, kBlockSize]`, and its logarithm.
static std::pair<Value, Value> powerOfTwoAbove(OpBuilder &b, Location loc,
                                               Value n) {
  Value power = constIndex(b, loc, 1);
  Value log = constIndex(b, loc, 0);
  for (int64_t p = 2, l = 1; p <= kBlockSize; p *= 2, ++l) {
    Value half = constIndex(b, loc, p / 2);
    Value above = cmpIndex(b, loc, arith::CmpIPredicate::ugt, n, half);
    power = select(b, loc, above, constIndex(b, loc, p), power);
    log = select(b, loc, above, constIndex(b, loc, l), log);
  }
  return {power, log};
}

RowLayout gpu_lowering::rowLayout(OpBuilder &b, Location loc, Value rows,
                                  Value rowLen, KernelVariant variant,
                                  int64_t unitsPerThread) {
  RowLayout layout;
  layout.variant = variant;
  layout.unitsPerThread = unitsPerThread;
  layout.rows = rows;
  Value vl = constIndex(b, loc, variant.vectorLength);
  layout.units = divIndex(b, loc, rowLen, vl);
  Value u = constIndex(b, loc, unitsPerThread);
  Value perThread = ceilDiv(b, loc, layout.units, u);
  auto [tpr, logTpr] = powerOfTwoAbove(b, loc, perThread);
  layout.threadsPerRow = tpr;
  layout.logThreadsPerRow = logTpr;
  Value block = constIndex(b, loc, kBlockSize);
  layout.rowsPerBlock = divIndex(b, loc, block, tpr);
  layout.gridX = gridFor(b, loc, rows, layout.rowsPerBlock, kMaxBlocks);
  Value chunk = mulIndex(b, loc, tpr, u);
  layout.gridY = gridFor(b, loc, layout.units, chunk, kMaxBlocksY);
  return layout;
}

Value gpu_lowering::canMoveVectors(OpBuilder &b, Location loc, Type elementType,
                                   Value rowLen, ArrayRef<Value> buffers) {
  if (!isVectorizable(elementType))
    return constBool(b, loc, false);
  Value vl = constIndex(b, loc, vectorLength(elementType));
  Value zero = constIndex(b, loc, 0);
  Value rest = remIndex(b, loc, rowLen, vl);
  Value ok = cmpIndex(b, loc, arith::CmpIPredicate::eq, rest, zero);
  for (Value buffer : buffers) {
    Value address = addressOf(b, loc, buffer, zero);
    ok = andBool(b, loc, ok, isAligned(b, loc, address, 16));
  }
  return ok;
}

Value gpu_lowering::fitsIn32Bits(OpBuilder &b, Location loc,
                                 ArrayRef<Value> counts) {
  Value limit = constIndex(b, loc, std::numeric_limits<int32_t>::max());
  Value fits = constBool(b, loc, true);
  for (Value count : counts) {
    Value below = cmpIndex(b, loc, arith::CmpIPredicate::ule, count, limit);
    fits = andBool(b, loc, fits, below);
  }
  return fits;
}

/// `body(variant)` for 32-bit offsets where `small` holds, 64-bit ones
/// otherwise.
static void withOffsetType(
    OpBuilder &b, Location loc, int64_t vectorLength, Value small,
    function_ref<void(OpBuilder &, Location, KernelVariant)> body) {
  KernelVariant narrow{vectorLength, b.getI32Type()};
  KernelVariant wide{vectorLength, b.getIndexType()};
  buildIfElse(
      b, loc, small,
      [&](OpBuilder &nb, Location nloc) { body(nb, nloc, narrow); },
      [&](OpBuilder &nb, Location nloc) { body(nb, nloc, wide); });
}

void gpu_lowering::withOffsetVariants(
    OpBuilder &b, Location loc, Value small,
    function_ref<void(OpBuilder &, Location, KernelVariant)> body) {
  withOffsetType(b, loc, 1, small, body);
}

void gpu_lowering::withVariants(
    OpBuilder &b, Location loc, Type elementType, Value canVector, Value small,
    function_ref<void(OpBuilder &, Location, KernelVariant)> body) {
  if (!isVectorizable(elementType)) {
    withOffsetType(b, loc, 1, small, body);
    return;
  }
  int64_t vl = vectorLength(elementType);
  buildIfElse(
      b, loc, canVector,
      [&](OpBuilder &nb, Location nloc) {
        withOffsetType(nb, nloc, vl, small, body);
      },
      [&](OpBuilder &nb, Location nloc) {
        withOffsetType(nb, nloc, 1, small, body);
      });
}

/// A host index value (or a kernel id) as the kernel's offset type.
static Value asOffset(OpBuilder &b, Location loc, const RowLayout &layout,
                      Value value) {
  return fromIndex(b, loc, layout.variant.offsets, value);
}

/// Whether every chunk of the layout is full (known at compile time).
static bool chunksAreFull(const RowLayout &layout) {
  std::optional<int64_t> units = getConstantIntValue(layout.units);
  std::optional<int64_t> tpr = getConstantIntValue(layout.threadsPerRow);
  return units && tpr && *units % (*tpr * layout.unitsPerThread) == 0;
}

/// The chunk whose slot 0 is unit `first` of a row.
static RowChunk chunkAt(OpBuilder &b, Location loc, const RowLayout &layout,
                        Value first) {
  RowChunk chunk;
  Type type = layout.variant.offsets;
  Value tpr = asOffset(b, loc, layout, layout.threadsPerRow);
  Value units = asOffset(b, loc, layout, layout.units);
  Value vl = constInt(b, loc, type, layout.variant.vectorLength);
  bool full = chunksAreFull(layout);
  for (int64_t k = 0; k < layout.unitsPerThread; ++k) {
    Value kValue = constInt(b, loc, type, k);
    Value unit = addIndex(b, loc, first, mulIndex(b, loc, kValue, tpr));
    chunk.offsets.push_back(mulIndex(b, loc, unit, vl));
    if (k == 0 || full) {
      chunk.inside.push_back(Value());
      continue;
    }
    chunk.inside.push_back(
        cmpIndex(b, loc, arith::CmpIPredicate::ult, unit, units));
  }
  return chunk;
}

Value gpu_lowering::groupLane(OpBuilder &b, Location loc, const KernelIds &ids,
                              const RowLayout &layout) {
  Type type = layout.variant.offsets;
  Value t = asOffset(b, loc, layout, ids.threadX);
  Value one = constInt(b, loc, type, 1);
  Value tpr = asOffset(b, loc, layout, layout.threadsPerRow);
  Value mask = subIndex(b, loc, tpr, one);
  return b.createOrFold<arith::AndIOp>(loc, t, mask);
}

/// This thread's group in its block (offset type).
static Value groupOf(OpBuilder &b, Location loc, const KernelIds &ids,
                     const RowLayout &layout) {
  Value t = asOffset(b, loc, layout, ids.threadX);
  Value log = asOffset(b, loc, layout, layout.logThreadsPerRow);
  return b.createOrFold<arith::ShRUIOp>(loc, t, log);
}

void gpu_lowering::forEachChunk(
    OpBuilder &b, Location loc, const KernelIds &ids, const RowLayout &layout,
    function_ref<void(OpBuilder &, Location, const RowChunk &)> perChunk) {
  Type type = layout.variant.offsets;
  Value lane = groupLane(b, loc, ids, layout);
  Value tpr = asOffset(b, loc, layout, layout.threadsPerRow);
  Value u = constInt(b, loc, type, layout.unitsPerThread);
  Value chunk = mulIndex(b, loc, tpr, u);
  Value blockY = asOffset(b, loc, layout, ids.blockY);
  Value gridY = asOffset(b, loc, layout, ids.gridY);
  Value first = addIndex(b, loc, mulIndex(b, loc, blockY, chunk), lane);
  Value step = mulIndex(b, loc, gridY, chunk);
  Value units = asOffset(b, loc, layout, layout.units);
  buildFor(b, loc, first, units, step,
           [&](OpBuilder &cb, Location cloc, Value unit) {
             RowChunk rowChunk = chunkAt(cb, cloc, layout, unit);
             perChunk(cb, cloc, rowChunk);
           });
}

void gpu_lowering::forEachRowChunk(
    OpBuilder &b, Location loc, const KernelIds &ids, const RowLayout &layout,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> perRow,
    function_ref<void(OpBuilder &, Location, Value, ValueRange,
                      const RowChunk &)>
        perChunk) {
  Value group = groupOf(b, loc, ids, layout);
  Value perBlock = asOffset(b, loc, layout, layout.rowsPerBlock);
  Value blockX = asOffset(b, loc, layout, ids.blockX);
  Value gridX = asOffset(b, loc, layout, ids.gridX);
  Value rowStart = addIndex(b, loc, mulIndex(b, loc, blockX, perBlock), group);
  Value rowStep = mulIndex(b, loc, gridX, perBlock);
  Value rows = asOffset(b, loc, layout, layout.rows);
  buildFor(b, loc, rowStart, rows, rowStep,
           [&](OpBuilder &rb, Location rloc, Value r) {
             SmallVector<Value> values = perRow(rb, rloc, r);
             forEachChunk(rb, rloc, ids, layout,
                          [&](OpBuilder &cb, Location cloc,
                              const RowChunk &chunk) {
                            perChunk(cb, cloc, r, values, chunk);
                          });
           });
}

std::pair<Value, Value> gpu_lowering::groupRow(OpBuilder &b, Location loc,
                                               const KernelIds &ids,
                                               const RowLayout &layout) {
  Value group = groupOf(b, loc, ids, layout);
  Value perBlock = asOffset(b, loc, layout, layout.rowsPerBlock);
  Value blockX = asOffset(b, loc, layout, ids.blockX);
  Value row = addIndex(b, loc, mulIndex(b, loc, blockX, perBlock), group);
  Value rows = asOffset(b, loc, layout, layout.rows);
  Value exists = cmpIndex(b, loc, arith::CmpIPredicate::ult, row, rows);
  return {row, exists};
}

Value gpu_lowering::rowGrid(OpBuilder &b, Location loc,
                            const RowLayout &layout) {
  return gridFor(b, loc, layout.rows, layout.rowsPerBlock,
                 std::numeric_limits<int32_t>::max());
}

void gpu_lowering::launchRows(OpBuilder &b, Location loc,
                              const RowLayout &layout, KernelBody body,
                              ArrayRef<MemRefType> sharedTypes) {
  launch(b, loc, layout.gridX, layout.gridY, kBlockSize, body, sharedTypes);
}

Value gpu_lowering::loadUnit(OpBuilder &b, Location loc, Value buffer, Value at,
                             int64_t vectorLength) {
  Value index = toIndex(b, loc, at);
  if (vectorLength == 1)
    return memref::LoadOp::create(b, loc, buffer, ValueRange{index});
  Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
  auto type = VectorType::get({vectorLength}, elementType);
  return vector::LoadOp::create(b, loc, type, buffer, ValueRange{index},
                                /*nontemporal=*/false, llvm::Align(16));
}

void gpu_lowering::storeUnit(OpBuilder &b, Location loc, Value value,
                             Value buffer, Value at, int64_t vectorLength) {
  Value index = toIndex(b, loc, at);
  if (vectorLength == 1) {
    memref::StoreOp::create(b, loc, value, buffer, ValueRange{index});
    return;
  }
  vector::StoreOp::create(b, loc, value, buffer, ValueRange{index},
                          /*nontemporal=*/false, llvm::Align(16));
}

Value gpu_lowering::zeroUnit(OpBuilder &b, Location loc, Type elementType,
                             int64_t vectorLength) {
  if (vectorLength == 1)
    return zeroValue(b, loc, elementType);
  Type storage = elementType;
  if (auto integer = dyn_cast<IntegerType>(elementType);
      integer && !integer.isSignless())
    storage = b.getIntegerType(integer.getWidth());
  auto storageType = VectorType::get({vectorLength}, storage);
  Value zero = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(b.getZeroAttr(storageType)));
  if (storage == elementType)
    return zero;
  auto type = VectorType::get({vectorLength}, elementType);
  return UnrealizedConversionCastOp::create(b, loc, type, zero).getResult(0);
}

/// Whether slot `k` of `chunk` is read or written: inside the row and not
/// `skip` (null: always).
static Value slotActive(OpBuilder &b, Location loc, const RowChunk &chunk,
                        int64_t k, Value skip) {
  Value active = chunk.inside[k];
  if (!skip)
    return active;
  Value taken = notBool(b, loc, skip);
  return active ? andBool(b, loc, active, taken) : taken;
}

SmallVector<Value> gpu_lowering::loadChunk(OpBuilder &b, Location loc,
                                           Value buffer, Value base,
                                           const RowChunk &chunk, Value skip,
                                           int64_t vectorLength) {
  Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
  SmallVector<Value> values;
  for (int64_t k = 0, e = chunk.offsets.size(); k < e; ++k) {
    Value at = addIndex(b, loc, base, chunk.offsets[k]);
    Value active = slotActive(b, loc, chunk, k, skip);
    if (!active) {
      values.push_back(loadUnit(b, loc, buffer, at, vectorLength));
      continue;
    }
    Type type = elementType;
    if (vectorLength != 1)
      type = VectorType::get({vectorLength}, elementType);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, active,
                                  /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value loaded = loadUnit(b, loc, buffer, at, vectorLength);
    scf::YieldOp::create(b, loc, loaded);
    b.setInsertionPointToStart(ifOp.elseBlock());
    Value zero = zeroUnit(b, loc, elementType, vectorLength);
    scf::YieldOp::create(b, loc, zero);
    values.push_back(ifOp.getResult(0));
  }
  return values;
}

void gpu_lowering::storeChunk(OpBuilder &b, Location loc,
                              ArrayRef<Value> values, Value buffer, Value base,
                              const RowChunk &chunk, Value write,
                              int64_t vectorLength) {
  Value skip = write ? notBool(b, loc, write) : Value();
  for (int64_t k = 0, e = chunk.offsets.size(); k < e; ++k) {
    Value at = addIndex(b, loc, base, chunk.offsets[k]);
    Value active = slotActive(b, loc, chunk, k, skip);
    if (!active) {
      storeUnit(b, loc, values[k], buffer, at, vectorLength);
      continue;
    }
    buildIf(b, loc, active, [&](OpBuilder &sb, Location sloc) {
      storeUnit(sb, sloc, values[k], buffer, at, vectorLength);
    });
  }
}

void gpu_lowering::copyChunk(OpBuilder &b, Location loc,
                             const RowChunk &chunk, Value src, Value srcBase,
                             Value dst, Value dstBase, Value zero, Value skip,
                             int64_t vectorLength) {
  Value noLoad = zero;
  if (skip)
    noLoad = noLoad ? orBool(b, loc, noLoad, skip) : skip;
  SmallVector<Value> values =
      loadChunk(b, loc, src, srcBase, chunk, noLoad, vectorLength);
  Value write = skip ? notBool(b, loc, skip) : Value();
  storeChunk(b, loc, values, dst, dstBase, chunk, write, vectorLength);
}
