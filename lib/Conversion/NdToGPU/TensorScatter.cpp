//===- TensorScatter.cpp - nd.tensor_scatter on GPUs ------------*- C++ -*-===//
//
// `nd.tensor_scatter` on buffers (ONNX TensorScatter, the KV-cache update).
// Its writes never collide (an update is at most as long as the cache, and
// each batch entry writes its own rows), so every row of the update is copied
// straight to its place by the row engine (RowEngine.h): one row per position
// before the axis and along it, the dims after the axis being one contiguous
// row of both buffers.
//
// Under oob<error> with checks, the `batch` write indices are checked first by
// one small kernel, before anything is written (the cache may be the caller's,
// updated in place); the copy does nothing once a check has failed. Under
// oob<skip> a batch entry with a write index out of range writes nothing;
// under oob<clamp> its index is clamped into `[0, S - L]` (linear) or up to 0
// (circular), as on the CPU.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "nd/Conversion/NdToGPU/GPUSupport.h"
#include "RowEngine.h"
#include "Semantics.h"

#include "nd/Dialect/Nd/Utils/CacheSizes.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

namespace {
/// The buffers and the check of one tensor_scatter, as its kernels see them.
struct CacheUpdate {
  CacheSizes space;
  FlatBuffer cache, update, writes;
  Value rows;
  bool hasWrites = false;
  ErrorRecord *record = nullptr;
  /// The op's slot (-1: its write indices are not checked) and message.
  int64_t slot = -1, code = 0;
};
} // namespace

/// Error step: one kernel notes the bad write indices in the op's slot,
/// before anything is written.
static void emitWriteChecks(OpBuilder &b, Location loc, const CacheUpdate &u) {
  Value batch = flatSize(b, loc, u.writes.flat);
  Value grid = gridFor(b, loc, batch, kBlockSize);
  launch(b, loc, grid, Value(), kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           gridStrideLoop(
               kb, kloc, ids, batch,
               [&](OpBuilder &lb, Location lloc, Value p) {
                 Value w = loadIndexValue(lb, lloc, u.writes.flat, p);
                 Value bad = u.space.isBadWrite(lb, lloc, w);
                 buildIf(lb, lloc, bad, [&](OpBuilder &nb, Location nloc) {
                   u.record->noteBad(nb, nloc, u.slot, p);
                 });
               });
         });
}

/// In a kernel: the source and destination rows (offsets of `type`) of
/// update row `row` (o before the axis, s along it) and whether it is
/// dropped.
static SmallVector<Value> cacheRow(OpBuilder &b, Location loc,
                                   const CacheUpdate &u, Type type,
                                   Value row) {
  const CacheSizes &c = u.space;
  Value r = toIndex(b, loc, row);
  Value o = divIndex(b, loc, r, c.seqLen);
  Value s = subIndex(b, loc, r, mulIndex(b, loc, o, c.seqLen));
  Value w = constIndex(b, loc, 0);
  Value dropped = constBool(b, loc, false);
  if (u.hasWrites) {
    Value batch = divIndex(b, loc, o, c.perBatch);
    w = loadIndexValue(b, loc, u.writes.flat, batch);
    if (c.oob == OobMode::Clamp) {
      w = c.clampWrite(b, loc, w);
    } else if (c.oob == OobMode::Skip) {
      dropped = c.isBadWrite(b, loc, w);
    }
  }
  Value position = c.position(b, loc, w, s);
  Value target =
      addIndex(b, loc, mulIndex(b, loc, o, c.maxSeq), position);
  Value inner = fromIndex(b, loc, type, c.inner);
  Value dst = mulIndex(b, loc, fromIndex(b, loc, type, target), inner);
  Value src = mulIndex(b, loc, row, inner);
  return {src, dst, dropped};
}

/// Kernel body: each update row copied to its place, unless a check of the
/// call has failed (the first thread records a bad write index).
static void copyCacheRows(OpBuilder &b, Location loc, const KernelIds &ids,
                          const CacheUpdate &u, const RowLayout &layout) {
  int64_t vl = layout.variant.vectorLength;
  Type type = layout.variant.offsets;
  auto body = [&](OpBuilder &fb, Location floc) {
    forEachRowChunk(
        fb, floc, ids, layout,
        [&](OpBuilder &rb, Location rloc, Value row) {
          return cacheRow(rb, rloc, u, type, row);
        },
        [&](OpBuilder &cb, Location cloc, Value, ValueRange values,
            const RowChunk &chunk) {
          copyChunk(cb, cloc, chunk, u.update.flat, values[0], u.cache.flat,
                    values[1], /*zero=*/Value(), /*skip=*/values[2], vl);
        });
  };
  if (!u.record) {
    body(b, loc);
    return;
  }
  Value failed;
  if (u.slot >= 0) {
    const CacheSizes &c = u.space;
    Value limit = c.circular ? c.maxSeq : c.lastStart;
    auto describe = [&](OpBuilder &fb, Location floc, Value position) {
      Value w = loadIndexValue(fb, floc, u.writes.flat, position);
      Type i64 = fb.getI64Type();
      Value code64 = constInt(fb, floc, i64, u.code);
      Value w64 = fromIndex(fb, floc, i64, w);
      Value limit64 = fromIndex(fb, floc, i64, limit);
      return std::make_tuple(code64, w64, limit64);
    };
    Value first = isFirstThread(b, loc, ids);
    failed = u.record->failedOrFinalize(b, loc, first, u.slot, describe);
  } else {
    failed = u.record->failed(b, loc);
  }
  buildIf(b, loc, notBool(b, loc, failed), body);
}

/// Host plan: the checks, then the copy of every row, in the kernel variant
/// the buffers allow.
static void emitCacheUpdate(OpBuilder &b, Location loc, const CacheUpdate &u) {
  if (u.slot >= 0)
    emitWriteChecks(b, loc, u);
  Type elementType = cast<MemRefType>(u.cache.flat.getType()).getElementType();
  Value inner = u.space.inner;
  Value canVector = canMoveVectors(b, loc, elementType, inner,
                                   {u.cache.flat, u.update.flat});
  Value cacheSize = flatSize(b, loc, u.cache.flat);
  Value updateSize = flatSize(b, loc, u.update.flat);
  Value small = fitsIn32Bits(b, loc, {cacheSize, updateSize});
  withVariants(
      b, loc, elementType, canVector, small,
      [&](OpBuilder &vb, Location vloc, KernelVariant variant) {
        int64_t units = unitsPerThreadFor(inner, variant.vectorLength);
        RowLayout layout = rowLayout(vb, vloc, u.rows, inner, variant, units);
        launchRows(vb, vloc, layout,
                   [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
                     copyCacheRows(kb, kloc, ids, u, layout);
                   });
      });
}

LogicalResult gpu_lowering::lowerTensorScatter(OpLowering &l,
                                               TensorScatterOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value cache = op.getPastCache(), update = op.getUpdate(),
        writes = op.getWriteIndices();
  int64_t axis = op.getNormalizedAxis();

  l.checkShapes();

  CacheUpdate u;
  u.space = cacheSizesOf(b, loc, cache, update, axis, op.getMode(), op.getOob());
  CacheSizes &c = u.space;
  Value outer = product(b, loc, dimValues(b, loc, cache, 0, axis));
  u.rows = mulIndex(b, loc, outer, c.seqLen);
  u.hasWrites = static_cast<bool>(writes);
  u.record = l.record;
  if (writes && l.checksIndices(c.oob)) {
    u.slot = l.record->takeSlot();
    u.code = l.record->addMessage(op, writeIndexMessage(axis, c.circular));
  }

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    u.cache = flatOperand(hb, hloc, cache);
    u.update = flatOperand(hb, hloc, update);
    if (writes)
      u.writes = flatOperand(hb, hloc, writes);
    emitCacheUpdate(hb, hloc, u);
    writeBack(hb, hloc, u.cache);
    release(hb, hloc, u.update);
    if (writes)
      release(hb, hloc, u.writes);
  });
  return success();
}
