//===- Gather.cpp - lower nd.gather -----------------------------*- C++ -*-===//
//
// Lowers nd.gather (ONNX Gather, OpenVINO Gather-1/7/8) under every oob
// mode, into a private function of its own (see LoweringState.h).
//
// With `a` the axis and `b` the batch dims, `data` is seen as
// `[B, M, s, inner]` (B = prod(data.shape[:b]), M = prod(data.shape[b:a]),
// s = data.shape[a], inner = prod(data.shape[a+1:])), `indices` as `[B, I]`
// and the result as `[B, M, I, inner]`: result row `u = (bb * M + m) * I + i`
// is data row `(bb * M + m) * s + resolve(indices[bb, i])`. Partitions split
// the result rows; each row is one contiguous copy of `inner` elements, with
// vector loads and stores where the element type allows (rows of one
// element along a static non-empty axis move without a branch). The result
// is written once, so every split gives the same result.
//
// Preconditions: the op verifies. Dynamic dims the verifier could not
// compare are checked at run time when bounds checking is on. Index values:
// - oob<error>: each row's index is checked as it is read; a bad one reads
//   nothing and raises its partition's flag. A raised flag (or, when no row
//   exists to read, a scan of all the indices) leads to a serial rescan that
//   reports the first bad value in row-major order of `indices`: every index
//   value is checked, whether or not a row is read through it.
// - oob<skip>: the rows of a value out of range are zeros.
// - oob<clamp>: a value is clamped into `[0, s-1]` after negative values in
//   range are normalised; along an empty axis its rows are zeros.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "CheckedGather.h"
#include "IndexChecks.h"
#include "OpLowerings.h"
#include "Parallel.h"
#include "Scalars.h"

#include "nd/Conversion/RowSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

namespace {
/// What the partitions of an nd.gather read and write, with data seen as
/// `[B, M, s, inner]`, indices as `[B, I]` (`perBatch` = I) and the result as
/// `[B, M, I, inner]`.
struct RowGather {
  OobMode oob;
  bool check;
  int64_t bDims;
  /// The flat buffers of data, indices and the result.
  Value data, indices, result;
  Value middle, axisSize, inner, perBatch;
  Type elementType;
  /// Whether the result is streamed (i1); whether rows are points (one
  /// element along a non-empty axis, moved without a branch); whether rows
  /// are prefetched.
  Value streaming;
  bool pointRows, prefetch;
};

/// The result rows of one outer row `(bb, m)`: `rowStart` is the first of
/// them (index value 0), `indexStart` the position of the batch entry's
/// first index value, `base` the data row of index value 0, `last` the last
/// index value of the partition in it.
struct OuterRow {
  Value rowStart, indexStart, base, last;
};
} // namespace

/// The index value `i` of outer row `outer` resolved, and the data offset of
/// the row it addresses (unchecked).
static std::pair<ResolvedIndex, Value> rowSource(OpBuilder &b, Location loc,
                                                 const RowGather &g,
                                                 const OuterRow &outer,
                                                 Value i) {
  Value position = b.createOrFold<arith::AddIOp>(loc, outer.indexStart, i);
  Value raw = loadIndexValue(b, loc, g.indices, position);
  ResolvedIndex index = resolveIndex(b, loc, g.oob, raw, g.axisSize);
  Value srcRow = b.createOrFold<arith::AddIOp>(loc, outer.base, index.position);
  Value srcOffset = b.createOrFold<arith::MulIOp>(loc, srcRow, g.inner);
  return std::make_pair(index, srcOffset);
}

/// Copies the result row of index value `i` of `outer` (zeros for a value
/// that addresses nothing under skip and clamp; nothing read for a bad one
/// under error), prefetching the row `kPrefetchDistance` values ahead.
/// `zero` is the zero element (null under error). Returns `bad` or'ed with
/// whether the value was bad (with checks).
static Value gatherRow(OpBuilder &b, Location loc, const RowGather &g,
                       const OuterRow &outer, Value zero, Value distance,
                       Value i, Value bad) {
  std::pair<ResolvedIndex, Value> source = rowSource(b, loc, g, outer, i);
  ResolvedIndex index = source.first;
  Value srcOffset = source.second;
  Value u = b.createOrFold<arith::AddIOp>(loc, outer.rowStart, i);
  Value dstOffset = b.createOrFold<arith::MulIOp>(loc, u, g.inner);
  if (g.prefetch) {
    Value ahead = b.createOrFold<arith::AddIOp>(loc, i, distance);
    Value next = minIndex(b, loc, ahead, outer.last);
    Value nextOffset = rowSource(b, loc, g, outer, next).second;
    prefetchRow(b, loc, g.data, nextOffset, g.inner);
  }
  auto copyRow = [&](OpBuilder &cb, Location cloc) {
    emitRowCopy(cb, cloc, g.result, dstOffset, g.data, srcOffset, g.inner,
                g.streaming);
  };
  if (g.pointRows) {
    // One element per row along a non-empty axis: a bad index reads a safe
    // element, dropped or replaced by zero without a branch.
    Value safe = clampIfBad(b, loc, index.bad, srcOffset);
    Value value = memref::LoadOp::create(b, loc, g.data, safe);
    if (g.oob == OobMode::Skip)
      value = arith::SelectOp::create(b, loc, index.bad, zero, value);
    memref::StoreOp::create(b, loc, value, g.result, dstOffset);
    if (g.check)
      bad = orBool(b, loc, bad, index.bad);
    return bad;
  }
  if (g.oob == OobMode::Error && !g.check) {
    // Trusted indices: no check at all.
    copyRow(b, loc);
    return bad;
  }
  Value good = notBool(b, loc, index.bad);
  bool fill = g.oob != OobMode::Error;
  auto ifOp = scf::IfOp::create(b, loc, good, /*withElseRegion=*/fill);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    copyRow(b, loc);
    if (fill) {
      b.setInsertionPointToStart(ifOp.elseBlock());
      emitRowFill(b, loc, g.result, ValueRange{dstOffset}, zero, g.inner);
    }
  }
  if (g.check)
    bad = orBool(b, loc, bad, index.bad);
  return bad;
}

/// The rows of outer row `outerRow` in the partition's rows `[lo, hi)`.
/// Returns the values `acc` carries on (whether a value was bad).
static ValueRange gatherOuterRow(OpBuilder &b, Location loc, const RowGather &g,
                                 Value zero, Value lo, Value hi, Value outerRow,
                                 ValueRange acc) {
  Value step = constIndex(b, loc, 1);
  // Rows exist, so perBatch and middle are not 0 here.
  OuterRow outer;
  outer.rowStart = b.createOrFold<arith::MulIOp>(loc, outerRow, g.perBatch);
  Value firstRow = maxIndex(b, loc, lo, outer.rowStart);
  Value from = b.createOrFold<arith::SubIOp>(loc, firstRow, outer.rowStart);
  Value rowEnd = b.createOrFold<arith::AddIOp>(loc, outer.rowStart, g.perBatch);
  Value endRow = minIndex(b, loc, hi, rowEnd);
  Value to = b.createOrFold<arith::SubIOp>(loc, endRow, outer.rowStart);
  outer.indexStart = constIndex(b, loc, 0);
  if (g.bDims > 0) {
    Value bb = b.createOrFold<arith::DivUIOp>(loc, outerRow, g.middle);
    outer.indexStart = b.createOrFold<arith::MulIOp>(loc, bb, g.perBatch);
  }
  outer.base = b.createOrFold<arith::MulIOp>(loc, outerRow, g.axisSize);
  outer.last = b.createOrFold<arith::SubIOp>(loc, to, step);
  Value distance = constIndex(b, loc, kPrefetchDistance);
  auto indexLoop = scf::ForOp::create(
      b, loc, from, to, step, acc,
      [&](OpBuilder &lb, Location lloc, Value i, ValueRange inner) {
        Value bad = gatherRow(lb, lloc, g, outer, zero, distance, i, inner[0]);
        scf::YieldOp::create(lb, lloc, bad);
      });
  return indexLoop.getResults();
}

/// Partition `p`: its range of the `rows` result rows, as (outer row, index
/// value) pairs: the outer rows' loop does the divisions, the inner loop
/// none. Returns whether an index value was bad (null without checks).
static Value gatherPartition(OpBuilder &b, Location loc, LoweringState &state,
                             Operation *op, const RowGather &g, Value rows,
                             Value parts, Value p) {
  std::pair<Value, Value> bounds = partRange(b, loc, rows, parts, p);
  Value step = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  Value zero =
      g.oob == OobMode::Error ? Value() : zeroValue(b, loc, g.elementType);
  // An empty `indices` (perBatch 0, known at run time only) means no rows:
  // divide by at least 1.
  Value lo = bounds.first, hi = bounds.second;
  Value divisor = maxIndex(b, loc, g.perBatch, step);
  Value firstOuter = b.createOrFold<arith::DivUIOp>(loc, lo, divisor);
  Value lastOuter = ceilDiv(b, loc, hi, divisor);
  auto loop = scf::ForOp::create(
      b, loc, firstOuter, lastOuter, step, ValueRange{no},
      [&](OpBuilder &ob, Location oloc, Value outerRow, ValueRange outAcc) {
        ValueRange bad =
            gatherOuterRow(ob, oloc, g, zero, lo, hi, outerRow, outAcc);
        scf::YieldOp::create(ob, oloc, bad);
      });
  state.fenceStreamedStores(b, loc, op, g.streaming);
  return g.check ? loop.getResult(0) : Value();
}

namespace {
/// result[p..., i..., s...] = data[p..., resolve(indices[p[:b]..., i...]),
/// s...]: partitions of the result rows, one row copy each.
struct GatherLowering : public NdGatherPattern<GatherOp> {
  using NdGatherPattern::NdGatherPattern;

private:
  void gather(OpBuilder &b, Location loc, GatherOp op, Value data,
              Value indices, Value into) const override {
    RankedTensorType resultType = getProducedType(op);
    // The model: the entries are data.shape[:axis] ++ indices.shape[bDims:]
    // (the first bDims batch dims, which index the indices as well); the
    // index addresses the axis, and the row is data.shape[axis + 1:].
    RowSizes sizes(op, {data, indices, into});
    RowGather g;
    g.oob = sizes.addressing().oob;
    int64_t axis = sizes.componentDim(0);
    g.bDims = static_cast<int64_t>(op.getBatchDims());
    g.check = g.oob == OobMode::Error && state->checksEnabled();

    g.data = flatView(b, loc, data);
    g.indices = flatView(b, loc, indices);
    g.result = flatView(b, loc, into);

    Value batch = product(b, loc, sizes.entrySizes(b, loc, 0, g.bDims));
    g.middle = product(b, loc, sizes.entrySizes(b, loc, g.bDims, axis));
    g.axisSize = sizes.componentSize(b, loc, 0);
    g.inner = sizes.rowLength(b, loc);
    g.perBatch = product(b, loc, sizes.entrySizes(b, loc, axis));
    Value numIndices = b.createOrFold<arith::MulIOp>(loc, batch, g.perBatch);
    Value outer = b.createOrFold<arith::MulIOp>(loc, batch, g.middle);
    Value rows = b.createOrFold<arith::MulIOp>(loc, outer, g.perBatch);
    Value one = constIndex(b, loc, 1);
    Value perRow = b.createOrFold<arith::AddIOp>(loc, g.inner, one);
    Value work = b.createOrFold<arith::MulIOp>(loc, rows, perRow);
    Value parts = state->numPartitions(b, loc, op, work, rows);
    g.elementType = resultType.getElementType();
    Value total = b.createOrFold<arith::MulIOp>(loc, rows, g.inner);
    g.streaming = streamsRows(b, loc, g.result, total, g.inner);

    // Rows of one element along an axis known to be non-empty move without
    // a branch.
    auto dataType = op.getData().getType();
    g.pointRows = llvm::all_of(dataType.getShape().drop_front(axis + 1),
                               [](int64_t d) { return d == 1; }) &&
                  !dataType.isDynamicDim(axis) && dataType.getDimSize(axis) > 0;
    // Rows shorter than a line are points to the out-of-order window, which
    // covers many of them without help.
    std::optional<int64_t> staticInner = getConstantIntValue(g.inner);
    g.prefetch =
        !g.pointRows && (!staticInner || !isVectorizable(g.elementType) ||
                         *staticInner >= vectorLength(g.elementType));

    auto partition = [&](OpBuilder &pb, Location ploc, Value p) {
      return gatherPartition(pb, ploc, *state, op, g, rows, parts, p);
    };
    auto reportFirstBad = [&](OpBuilder &nb, Location nloc) {
      reportFirstBadValue(*state, nb, nloc, op, g.indices, numIndices,
                          g.axisSize);
    };
    // No row is read when `rows` is 0: the indices are checked on their own
    // then (an empty `indices` has nothing to check).
    auto scanIndices = [&](OpBuilder &nb, Location nloc) {
      Value bound = rangeBound(nb, nloc, g.axisSize);
      Value zero = constIndex(nb, nloc, 0);
      return maxShifted(nb, nloc, g.indices, zero, numIndices, g.axisSize,
                        bound);
    };
    GatherPartitions partitions{g.check, parts, numIndices, partition,
                                reportFirstBad};
    buildScannedGather(b, loc, partitions, rows, scanIndices);
  }
};
} // namespace

void mlir::nd::lowering::populateGatherLowering(
    RewritePatternSet &patterns, std::shared_ptr<LoweringState> state) {
  patterns.add<GatherLowering>(patterns.getContext(), std::move(state));
}
