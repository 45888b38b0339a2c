//===- GatherND.cpp - lower nd.gather_nd ------------------------*- C++ -*-===//
//
// Lowers nd.gather_nd (ONNX GatherND, OpenVINO GatherND-5/8) under every
// oob mode, into a private function of its own (see LoweringState.h):
// result[p..., s...] = data[p[:b]..., resolve(indices[p..., :])..., s...].
// Partitions split the index tuples (see CheckedGather.h); each tuple is
// read and checked once, then its slice (the dims of data after the indexed
// ones) is copied as one contiguous row, prefetched two tuples ahead and
// streamed into a large result (see Buffers.h). The result is written once,
// so every split gives the same result.
//
// Preconditions: the op verifies. Dynamic dims the verifier could not
// compare (and a dynamic index depth) are checked at run time when bounds
// checking is on. Index values:
// - oob<error>: each tuple is checked as it is read; a bad one reads nothing
//   and raises its partition's flag, which leads to the report of the first
//   bad tuple in row-major order. An empty indexed dim makes every tuple bad.
// - oob<skip>: the slice of a tuple with a component out of range is zeros.
// - oob<clamp>: each component is clamped into its dim after negative values
//   in range are normalised; along an empty indexed dim every slice is
//   zeros.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "CheckedGather.h"
#include "IndexChecks.h"
#include "IndexTuples.h"
#include "OpLowerings.h"
#include "Parallel.h"
#include "Scalars.h"

#include "nd/Conversion/RowSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

namespace {
/// What the partitions of a gather_nd read and write.
struct TupleGather {
  OobMode oob;
  bool check;
  /// The flat buffers of data, indices and the result.
  Value data, indices, result;
  TupleSpace space;
  /// `2 * size` of each indexed dim (see rangeBound).
  SmallVector<Value> rangeBounds;
  /// Batch dims: the rows of data and the tuples per batch entry.
  int64_t bDims;
  Value rowsPerBatch, tuplesPerBatch;
  Value numTuples, sliceSize, parts;
  /// Whether the result is streamed (i1) and whether rows are prefetched.
  Value streaming;
  bool prefetch;
};
} // namespace

/// The data row of tuple `t` addressing `row` of its batch entry's rows
/// (unchecked).
static Value dataRow(OpBuilder &b, Location loc, const TupleGather &g, Value t,
                     Value row) {
  if (g.bDims == 0)
    return row;
  Value batch = b.createOrFold<arith::DivUIOp>(loc, t, g.tuplesPerBatch);
  Value batchRow = b.createOrFold<arith::MulIOp>(loc, batch, g.rowsPerBatch);
  return b.createOrFold<arith::AddIOp>(loc, batchRow, row);
}

/// Copies the slice of tuple `t` into the result, or zeros for a skipped
/// tuple; with checks, a bad tuple copies row 0 and is counted. Prefetches
/// the slice of the tuple `kPrefetchDistance` ahead (at most `last`).
/// Returns whether the tuple was bad (false without checks).
static Value gatherTuple(OpBuilder &b, Location loc, const TupleGather &g,
                         Value t, Value last, Value distance) {
  Tuple tuple = readTuple(b, loc, g.indices, t, g.space);
  Value row = tuple.row;
  Value bad = constBool(b, loc, false);
  if (g.check) {
    for (auto [shifted, bound] : llvm::zip_equal(tuple.shifted, g.rangeBounds))
      bad = orBool(b, loc, bad, anyOutOfRange(b, loc, shifted, bound));
    row = clampIfBad(b, loc, bad, row);
  }
  row = dataRow(b, loc, g, t, row);
  Value srcOffset = b.createOrFold<arith::MulIOp>(loc, row, g.sliceSize);
  Value dstOffset = b.createOrFold<arith::MulIOp>(loc, t, g.sliceSize);
  if (g.prefetch) {
    Value ahead = b.createOrFold<arith::AddIOp>(loc, t, distance);
    Value next = minIndex(b, loc, ahead, last);
    Tuple nextTuple = readTuple(b, loc, g.indices, next, g.space);
    Value nextRow = dataRow(b, loc, g, next, nextTuple.row);
    Value nextOffset = b.createOrFold<arith::MulIOp>(loc, nextRow, g.sliceSize);
    prefetchRow(b, loc, g.data, nextOffset, g.sliceSize);
  }
  // Under clamp only an empty dim skips: the guard handles it.
  Value skip = g.oob == OobMode::Skip ? tuple.skip : Value();
  if (!skip) {
    emitRowCopy(b, loc, g.result, dstOffset, g.data, srcOffset, g.sliceSize,
                g.streaming);
    return bad;
  }
  // A skipped tuple's slice reads zeros.
  scf::IfOp::create(
      b, loc, skip,
      [&](OpBuilder &zb, Location zloc) {
        fillZeros(zb, zloc, g.result, dstOffset, g.sliceSize);
        scf::YieldOp::create(zb, zloc);
      },
      [&](OpBuilder &cb, Location cloc) {
        emitRowCopy(cb, cloc, g.result, dstOffset, g.data, srcOffset,
                    g.sliceSize, g.streaming);
        scf::YieldOp::create(cb, cloc);
      });
  return bad;
}

/// Partition `p`: its range of the tuples, in order. Returns whether one was
/// bad (null without checks).
static Value gatherPartition(OpBuilder &b, Location loc, LoweringState &state,
                             Operation *op, const TupleGather &g, Value p) {
  std::pair<Value, Value> bounds = partRange(b, loc, g.numTuples, g.parts, p);
  Value lo = bounds.first, hi = bounds.second;
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  Value last = b.createOrFold<arith::SubIOp>(loc, hi, one);
  Value distance = constIndex(b, loc, kPrefetchDistance);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{no},
      [&](OpBuilder &lb, Location lloc, Value t, ValueRange acc) {
        Value bad = gatherTuple(lb, lloc, g, t, last, distance);
        scf::YieldOp::create(lb, lloc, orBool(lb, lloc, acc[0], bad));
      });
  state.fenceStreamedStores(b, loc, op, g.streaming);
  return g.check ? loop.getResult(0) : Value();
}

namespace {
/// result[p..., s...] = data[p[:b]..., normalize(indices[p..., :])..., s...]:
/// partitions of the index tuples, each tuple read and checked once, then its
/// slice copied as a row.
struct GatherNDLowering : public NdGatherPattern<GatherNDOp> {
  using NdGatherPattern::NdGatherPattern;

private:
  void gather(OpBuilder &b, Location loc, GatherNDOp op, Value data,
              Value indices, Value into) const override {
    // The model: the entries are indices.shape[:-1], the first bDims of
    // them batch dims shared with data; component c addresses data dim
    // bDims + c, and the row is data.shape[bDims + k:].
    RowSizes sizes(op, {data, indices, into});
    int64_t bDims = static_cast<int64_t>(op.getBatchDims());
    int64_t k = sizes.numComponents();
    TupleGather g;
    g.oob = sizes.addressing().oob;
    g.check = state->checksEnabled() && g.oob == OobMode::Error;
    g.bDims = bDims;
    Type elementType = getProducedType(op).getElementType();
    g.data = flatView(b, loc, data);
    g.indices = flatView(b, loc, indices);
    g.result = flatView(b, loc, into);

    g.space = tupleSpaceOf(b, loc, sizes);
    g.rowsPerBatch = product(b, loc, g.space.sizes);
    g.sliceSize = sizes.rowLength(b, loc);
    SmallVector<Value> tupleDims = sizes.entrySizes(b, loc);
    g.numTuples = product(b, loc, tupleDims);
    g.tuplesPerBatch =
        product(b, loc, ArrayRef<Value>(tupleDims).drop_front(bDims));

    Value kValue = constIndex(b, loc, k);
    Value perTuple = b.createOrFold<arith::AddIOp>(loc, g.sliceSize, kValue);
    Value work = b.createOrFold<arith::MulIOp>(loc, g.numTuples, perTuple);
    g.parts = state->numPartitions(b, loc, op, work, g.numTuples);
    Value total = b.createOrFold<arith::MulIOp>(loc, g.numTuples, g.sliceSize);
    g.streaming = streamsRows(b, loc, g.result, total, g.sliceSize);
    // Slices shorter than a line are points: the out-of-order window covers
    // many of them without help.
    std::optional<int64_t> staticSlice = getConstantIntValue(g.sliceSize);
    g.prefetch = !staticSlice || !isVectorizable(elementType) ||
                 *staticSlice >= vectorLength(elementType);
    for (Value size : g.space.sizes)
      g.rangeBounds.push_back(rangeBound(b, loc, size));
    // Every tuple is out of range when an indexed dim is empty: nothing may
    // be read then (under skip and clamp, every slice is zeros).
    Value zero = constIndex(b, loc, 0);
    Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                g.rowsPerBatch, zero);

    auto partition = [&](OpBuilder &pb, Location ploc, Value p) {
      return gatherPartition(pb, ploc, *state, op, g, p);
    };
    auto reportFirstBad = [&](OpBuilder &nb, Location nloc) {
      reportFirstBadTuple(*state, nb, nloc, op, g.indices, g.numTuples,
                          g.space);
    };
    auto zeroResult = [&](OpBuilder &nb, Location nloc) {
      Value all =
          nb.createOrFold<arith::MulIOp>(nloc, g.numTuples, g.sliceSize);
      fillZeros(nb, nloc, g.result, zero, all);
    };
    GatherPartitions partitions{g.check, g.parts, g.numTuples, partition,
                                reportFirstBad};
    buildGuardedGather(b, loc, partitions, empty, g.oob, zeroResult);
  }
};
} // namespace

void mlir::nd::lowering::populateGatherNDLowering(
    RewritePatternSet &patterns, std::shared_ptr<LoweringState> state) {
  patterns.add<GatherNDLowering>(patterns.getContext(), std::move(state));
}
