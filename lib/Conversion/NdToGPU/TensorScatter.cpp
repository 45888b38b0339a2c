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

#include "GPUSupport.h"
#include "RowEngine.h"
#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

namespace {
/// The sizes the kernels work with.
struct CacheSpace {
  bool circular;
  OobMode oob;
  Value maxSeq, seqLen, inner, perBatch, lastStart;
};
} // namespace

/// Whether write index `w` is out of range: negative, or (linear) past the
/// last start `S - L`.
static Value isBadWrite(OpBuilder &b, Location loc, const CacheSpace &c,
                        Value w) {
  Value zero = constIndex(b, loc, 0);
  Value bad = cmpIndex(b, loc, arith::CmpIPredicate::slt, w, zero);
  if (c.circular)
    return bad;
  Value past = cmpIndex(b, loc, arith::CmpIPredicate::sgt, w, c.lastStart);
  return orBool(b, loc, bad, past);
}

LogicalResult gpu_lowering::lowerTensorScatter(OpLowering &l,
                                               TensorScatterOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value cache = op.getPastCache(), update = op.getUpdate(),
        writes = op.getWriteIndices();
  auto cacheType = cast<MemRefType>(cache.getType());
  int64_t r = cacheType.getRank();
  int64_t axis = op.getNormalizedAxis();

  for (int64_t d = 0; d < r; ++d)
    l.checkDims(update, "update", d, cache, "past_cache", d,
                /*atMost=*/d == axis);
  if (writes)
    l.checkDims(writes, "write_indices", 0, cache, "past_cache", 0);

  CacheSpace c;
  c.circular = op.getMode() == TensorScatterMode::Circular;
  c.oob = op.getOob();
  c.maxSeq = dimValue(b, loc, cache, axis);
  c.seqLen = dimValue(b, loc, update, axis);
  c.inner = product(b, loc, dimValues(b, loc, cache, axis + 1, r));
  c.perBatch = product(b, loc, dimValues(b, loc, cache, 1, axis));
  c.lastStart = subIndex(b, loc, c.maxSeq, c.seqLen);
  Value outer = product(b, loc, dimValues(b, loc, cache, 0, axis));
  Value rows = mulIndex(b, loc, outer, c.seqLen);
  Type elementType = cacheType.getElementType();

  bool checking = writes && l.checksIndices(c.oob);
  int64_t slot = -1, code = 0;
  if (checking) {
    slot = l.record->takeSlot();
    code = l.record->addMessage(op, writeIndexMessage(axis, c.circular));
  }
  ErrorRecord *record = l.record;

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    FlatBuffer flatCache = flatOperand(hb, hloc, cache);
    FlatBuffer flatUpdate = flatOperand(hb, hloc, update);
    FlatBuffer flatWrites;
    if (writes)
      flatWrites = flatOperand(hb, hloc, writes);
    if (checking) {
      Value batch = dimValue(hb, hloc, writes, 0);
      Value grid = gridFor(hb, hloc, batch, kBlockSize);
      launch(hb, hloc, grid, Value(), kBlockSize,
             [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
               gridStrideLoop(
                   kb, kloc, ids, batch,
                   [&](OpBuilder &lb, Location lloc, Value p) {
                     Value w = loadIndexValue(lb, lloc, flatWrites.flat, p);
                     Value bad = isBadWrite(lb, lloc, c, w);
                     buildIf(lb, lloc, bad, [&](OpBuilder &nb, Location nloc) {
                       record->noteBad(nb, nloc, slot, p);
                     });
                   });
             });
    }
    Value limit = c.circular ? c.maxSeq : c.lastStart;
    auto describe = [&](OpBuilder &fb, Location floc, Value position) {
      Value w = loadIndexValue(fb, floc, flatWrites.flat, position);
      Type i64 = fb.getI64Type();
      Value code64 = constInt(fb, floc, i64, code);
      Value w64 = fromIndex(fb, floc, i64, w);
      Value limit64 = fromIndex(fb, floc, i64, limit);
      return std::make_tuple(code64, w64, limit64);
    };
    Value canVector = canMoveVectors(hb, hloc, elementType, c.inner,
                                     {flatCache.flat, flatUpdate.flat});
    withVectorChoice(
        hb, hloc, elementType, canVector,
        [&](OpBuilder &vb, Location vloc, int64_t vl) {
          RowLayout layout = rowLayout(vb, vloc, rows, c.inner, vl);
          launchRows(
              vb, vloc, layout,
              [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
                auto body = [&](OpBuilder &fb, Location floc) {
                  forEachRowUnit(
                      fb, floc, ids, layout,
                      [&](OpBuilder &rb, Location rloc, Value row) {
                        // Row (o, s) of the update: o before the axis, s along
                        // it.
                        Value o = divIndex(rb, rloc, row, c.seqLen);
                        Value s = subIndex(rb, rloc, row,
                                           mulIndex(rb, rloc, o, c.seqLen));
                        Value w = constIndex(rb, rloc, 0);
                        Value dropped = constBool(rb, rloc, false);
                        if (writes) {
                          Value batch = divIndex(rb, rloc, o, c.perBatch);
                          w = loadIndexValue(rb, rloc, flatWrites.flat, batch);
                          Value zero = constIndex(rb, rloc, 0);
                          if (c.oob == OobMode::Clamp) {
                            w = rb.createOrFold<arith::MaxSIOp>(rloc, w, zero);
                            if (!c.circular)
                              w = rb.createOrFold<arith::MinSIOp>(rloc, w,
                                                                  c.lastStart);
                          } else if (c.oob == OobMode::Skip) {
                            dropped = isBadWrite(rb, rloc, c, w);
                          }
                        }
                        Value position = addIndex(rb, rloc, w, s);
                        if (c.circular)
                          position = remIndex(rb, rloc, position, c.maxSeq);
                        Value target =
                            addIndex(rb, rloc, mulIndex(rb, rloc, o, c.maxSeq),
                                     position);
                        Value dst = mulIndex(rb, rloc, target, c.inner);
                        Value src = mulIndex(rb, rloc, row, c.inner);
                        return SmallVector<Value>{src, dst, dropped};
                      },
                      [&](OpBuilder &ub, Location uloc, Value,
                          ValueRange values, Value u) {
                        buildIf(
                            ub, uloc, notBool(ub, uloc, values[2]),
                            [&](OpBuilder &wb, Location wloc) {
                              Value vlValue = constIndex(wb, wloc, vl);
                              Value at = mulIndex(wb, wloc, u, vlValue);
                              Value src = addIndex(wb, wloc, values[0], at);
                              Value dst = addIndex(wb, wloc, values[1], at);
                              Value v =
                                  loadUnit(wb, wloc, flatUpdate.flat, src, vl);
                              storeUnit(wb, wloc, v, flatCache.flat, dst, vl);
                            });
                      });
                };
                if (!record) {
                  body(kb, kloc);
                  return;
                }
                // The first thread records a bad write index.
                Value failed;
                if (checking) {
                  Value first = isFirstThread(kb, kloc, ids);
                  failed =
                      record->failedOrFinalize(kb, kloc, first, slot, describe);
                } else {
                  failed = record->failed(kb, kloc);
                }
                buildIf(kb, kloc, notBool(kb, kloc, failed), body);
              });
        });
    writeBack(hb, hloc, flatCache);
    release(hb, hloc, flatUpdate);
    if (writes)
      release(hb, hloc, flatWrites);
  });
  return success();
}
