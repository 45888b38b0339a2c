//===- NdToLinalg.cpp - lower nd ops to upstream dialects -------*- C++ -*-===//
//
// Lowers scatter_nd, gather_nd, scatter_elements and gather_elements (every
// oob mode, every reduction, use_init_val) to tensor, bufferization, memref,
// scf, vector, arith and complex ops, each op into a private function of its
// own (see LoweringSupport.h for the overall shape); nd.gather and
// nd.tensor_scatter lower in Gather.cpp and TensorScatter.cpp.
//
// Preconditions: the ops verify. Dimensions the verifier could not compare
// (dynamic ones, a dynamic index depth) and, under oob<error>, every index
// value are checked at run time when bounds checking is on (under skip and
// clamp every index value has a meaning: no check). A failed check calls
// `__nd_report_error` with a message naming the op, its location, the
// operand, the value and the dimension; the op then writes nothing into
// `data` (a scatter) and returns. A scatter that updates data's own buffer
// checks every index before it writes; one that updates a copy of data
// checks as it writes (the copy is dropped on failure); a gather checks each
// index tuple as it reads it and never touches memory through a bad one.
//
// Parallelism. Every op splits its work into partitions that an
// `scf.parallel` or `scf.forall` runs; the number of partitions comes from
// the amount of work and the thread count at run time. Results are
// bit-identical for every partition count: gathers write disjoint parts of
// their result, and a scatter applies the updates of every destination
// element in row-major order of the update entries, because each partition
// owns a disjoint part of the destination:
//
// - scatter_nd with wide slices: partitions split the slice columns and each
//   applies every entry, in order, to its columns;
// - scatter_elements: positions that differ off the axis never collide, so
//   partitions split dim 0 (or the last dim when the axis is 0) and walk
//   their positions in row-major order;
// - otherwise (point scatters, narrow slices, 1-D scatter_elements) the
//   destination rows are cut into blocks, contiguous ranges of which have
//   one owner each: a parallel pass computes every entry's row (checking its
//   index) and counts entries per (chunk, block), a prefix sum gives
//   offsets, a parallel pass buckets the entries stably with their rows and
//   updates, and each owner applies exactly its blocks' entries in order.
//   Blocks fit a core's cache where the entries outnumber the destination's
//   lines; entries are bucketed in batches of bounded size.
//
// Unsigned element types are reinterpreted as signless around the arith ops
// that combine values with `builtin.unrealized_conversion_cast`; the LLVM
// type converter maps both to the same iN, so the casts fold away.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLinalg/NdToLinalg.h"

#include "LoweringSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include <functional>

namespace mlir::nd {
#define GEN_PASS_DEF_LOWERSCATTER
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

/// Slices at least this many elements wide are split by column among the
/// partitions of a scatter_nd; narrower ones go to row owners.
static constexpr int64_t kMinSplitColumns = 64;

//===----------------------------------------------------------------------===//
// Index values under an oob mode
//===----------------------------------------------------------------------===//

/// `flat[offset, offset + len) = 0`.
static void fillZeros(OpBuilder &b, Location loc, Value flat, Value offset,
                      Value len) {
  Type elementType = cast<MemRefType>(flat.getType()).getElementType();
  Value zero = zeroValue(b, loc, elementType);
  emitRowFill(b, loc, flat, ValueRange{offset}, zero, len);
}

/// `if (!skip) body()`, or just `body()` when `skip` is null (oob<error>).
static void unlessSkipped(OpBuilder &b, Location loc, Value skip,
                          function_ref<void(OpBuilder &, Location)> body) {
  if (!skip) {
    body(b, loc);
    return;
  }
  Value keep = notBool(b, loc, skip);
  auto ifOp = scf::IfOp::create(b, loc, keep, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body(b, loc);
}

/// The position `raw` addresses in a dim of `size` under `oob` (see
/// resolveIndex) and, under skip and clamp, whether its entry is skipped;
/// null under error, where a bad value is a run-time check's business.
static std::pair<Value, Value>
resolveOrSkip(OpBuilder &b, Location loc, OobMode oob, Value raw, Value size) {
  if (oob == OobMode::Error)
    return {normalizeIndex(b, loc, raw, size), Value()};
  ResolvedIndex index = resolveIndex(b, loc, oob, raw, size);
  return {index.position, index.bad};
}

//===----------------------------------------------------------------------===//
// Index tuples of the ND ops
//===----------------------------------------------------------------------===//

namespace {
/// How the ND ops address data rows: the sizes of the `k` indexed dims and
/// their row-major strides.
struct TupleSpace {
  SmallVector<Value> sizes, strides;
  int64_t firstDataDim = 0;
  OobMode oob = OobMode::Error;
};

/// One tuple as read: raw and resolved components, the linear row it
/// addresses (unchecked under oob<error>) and, per component, `raw + size`,
/// which is below `2 * size` (unsigned) exactly when the component is in
/// range. Under skip and clamp, `skip` says whether the tuple is skipped, and
/// `row` is then 0.
struct Tuple {
  SmallVector<Value> raw, normalized, shifted;
  Value row, skip;
};
} // namespace

/// Reads tuple `t` of the flat `[N, k]` index buffer.
static Tuple readTuple(OpBuilder &b, Location loc, Value indices, Value t,
                       const TupleSpace &space) {
  int64_t k = space.sizes.size();
  Tuple tuple;
  Value kValue = constIndex(b, loc, k);
  Value base = b.createOrFold<arith::MulIOp>(loc, t, kValue);
  Value row = constIndex(b, loc, 0);
  for (int64_t j = 0; j < k; ++j) {
    Value jValue = constIndex(b, loc, j);
    Value at = b.createOrFold<arith::AddIOp>(loc, base, jValue);
    Value raw = loadIndex(b, loc, indices, at);
    auto [normalized, skip] =
        resolveOrSkip(b, loc, space.oob, raw, space.sizes[j]);
    if (skip)
      tuple.skip = tuple.skip ? orBool(b, loc, tuple.skip, skip) : skip;
    tuple.raw.push_back(raw);
    tuple.normalized.push_back(normalized);
    tuple.shifted.push_back(
        b.createOrFold<arith::AddIOp>(loc, raw, space.sizes[j]));
    Value term =
        b.createOrFold<arith::MulIOp>(loc, normalized, space.strides[j]);
    row = b.createOrFold<arith::AddIOp>(loc, row, term);
  }
  tuple.row = tuple.skip ? clampIfBad(b, loc, tuple.skip, row) : row;
  return tuple;
}

static void reportFirstBadTuple(LoweringState &state, OpBuilder &b,
                                Location loc, Operation *op, Value indices,
                                Value numTuples, const TupleSpace &space) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  scf::ForOp::create(
      b, loc, zero, numTuples, one, ValueRange{no},
      [&](OpBuilder &nb, Location nloc, Value t, ValueRange found) {
        Tuple tuple = readTuple(nb, nloc, indices, t, space);
        Value done = found[0];
        for (auto [j, size] : llvm::enumerate(space.sizes)) {
          Value bad = isOutOfRange(nb, nloc, tuple.normalized[j], size);
          Value fire = nb.createOrFold<arith::AndIOp>(
              nloc, notBool(nb, nloc, done), bad);
          auto ifOp = scf::IfOp::create(nb, nloc, fire, false);
          {
            OpBuilder::InsertionGuard guard(nb);
            nb.setInsertionPointToStart(ifOp.thenBlock());
            state.report(nb, nloc, op,
                         LoweringState::indexMessage(space.firstDataDim + j),
                         tuple.raw[j], size);
          }
          done = orBool(nb, nloc, done, bad);
        }
        scf::YieldOp::create(nb, nloc, done);
      });
}

//===----------------------------------------------------------------------===//
// Positions of the Elements ops
//===----------------------------------------------------------------------===//

/// Walks the rows of a row-major tensor with dims `dims` (rank >= 1) that
/// hold flat positions in `[lo, hi)`, in row-major order, restricted to the
/// last coordinates in `[colLo, colHi)`: `segment(coords, rowStart, from,
/// to, carried)` gets the row's coordinates (the last one unset), its first
/// flat position, its columns `[from, to)` (possibly empty) and the
/// loop-carried values, and returns the new ones.
static SmallVector<Value> walkRowSegments(
    OpBuilder &b, Location loc, ArrayRef<Value> dims, Value lo, Value hi,
    Value colLo, Value colHi, ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Location,
                                    SmallVectorImpl<Value> &, Value, Value,
                                    Value, ValueRange)>
        segment) {
  int64_t rank = dims.size();
  Value one = constIndex(b, loc, 1);
  Value rowLen = dims.back();
  // A zero-length row means no positions; divide by at least 1.
  Value divisor = maxIndex(b, loc, rowLen, one);
  Value firstRow = b.createOrFold<arith::DivUIOp>(loc, lo, divisor);
  Value lastRow = ceilDiv(b, loc, hi, divisor);
  auto rows = scf::ForOp::create(
      b, loc, firstRow, lastRow, one, init,
      [&](OpBuilder &nb, Location nloc, Value row, ValueRange carried) {
        // Coordinates of the row: unflatten over dims[0, rank-1).
        SmallVector<Value> coords(rank);
        Value rest = row;
        for (int64_t d = rank - 2; d >= 0; --d) {
          coords[d] = nb.createOrFold<arith::RemUIOp>(nloc, rest, dims[d]);
          rest = nb.createOrFold<arith::DivUIOp>(nloc, rest, dims[d]);
        }
        Value rowStart = nb.createOrFold<arith::MulIOp>(nloc, row, rowLen);
        Value fromFlat = nb.createOrFold<arith::SubIOp>(
            nloc, maxIndex(nb, nloc, lo, rowStart), rowStart);
        Value rowEnd = nb.createOrFold<arith::AddIOp>(nloc, rowStart, rowLen);
        Value toFlat = nb.createOrFold<arith::SubIOp>(
            nloc, minIndex(nb, nloc, hi, rowEnd), rowStart);
        Value from = maxIndex(nb, nloc, fromFlat, colLo);
        Value to = minIndex(nb, nloc, toFlat, colHi);
        // An empty range may have from > to: start at most at the end.
        from = minIndex(nb, nloc, from, to);
        SmallVector<Value> next =
            segment(nb, nloc, coords, rowStart, from, to, carried);
        scf::YieldOp::create(nb, nloc, next);
      });
  return SmallVector<Value>(rows.getResults());
}

/// The columns `[from, to)` of a row segment (see walkRowSegments) one by
/// one: `body(coords, q, carried)` gets the coordinates, the flat position
/// and the loop-carried values and returns the new ones.
static SmallVector<Value> walkColumns(
    OpBuilder &b, Location loc, SmallVectorImpl<Value> &coords, Value rowStart,
    Value from, Value to, ValueRange carried,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ArrayRef<Value>,
                                    Value, ValueRange)>
        body) {
  Value one = constIndex(b, loc, 1);
  auto cols = scf::ForOp::create(
      b, loc, from, to, one, carried,
      [&](OpBuilder &cb, Location cloc, Value col, ValueRange inner) {
        coords.back() = col;
        Value q = cb.createOrFold<arith::AddIOp>(cloc, rowStart, col);
        SmallVector<Value> next = body(cb, cloc, coords, q, inner);
        scf::YieldOp::create(cb, cloc, next);
      });
  return SmallVector<Value>(cols.getResults());
}

/// Walks the positions of a row-major tensor with dims `dims` (rank >= 1)
/// whose flat position lies in `[lo, hi)` and whose last coordinate lies in
/// `[colLo, colHi)`, in row-major order. `body(coords, q, carried)` gets the
/// coordinates, the flat position and the loop-carried values and returns
/// the new ones.
static SmallVector<Value> walkPositions(
    OpBuilder &b, Location loc, ArrayRef<Value> dims, Value lo, Value hi,
    Value colLo, Value colHi, ValueRange init,
    function_ref<SmallVector<Value>(OpBuilder &, Location, ArrayRef<Value>,
                                    Value, ValueRange)>
        body) {
  return walkRowSegments(
      b, loc, dims, lo, hi, colLo, colHi, init,
      [&](OpBuilder &nb, Location nloc, SmallVectorImpl<Value> &coords,
          Value rowStart, Value from, Value to, ValueRange carried) {
        return walkColumns(nb, nloc, coords, rowStart, from, to, carried,
                           body);
      });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// One vector of positions `[pos, pos + vl)` of a gather_elements row (`vl`
/// the vector length of the element type): `result[pos + l] = data[base +
/// resolve(indices[pos + l]) * axisStride + (lastAxis ? 0 : col + l)]`, read
/// with one gather. Under oob<skip> a lane whose index is out of range
/// reads a zero; with `check`, such a lane reads nothing, and the returned
/// vector of i1 marks the lanes whose index is out of range (null without
/// `check`). The axis is not empty.
static Value gatherLanes(OpBuilder &b, Location loc, OobMode oob, bool check,
                         Value indices, Value data, Value result, Value pos,
                         Value base, Value col, Value size, Value axisStride,
                         bool lastAxis) {
  Type elementType = cast<MemRefType>(result.getType()).getElementType();
  int64_t vl = vectorLength(elementType);
  Type i64 = b.getI64Type();
  auto lanesOf = [&](Type type) { return VectorType::get({vl}, type); };
  auto splat = [&](Value scalar) -> Value {
    if (scalar.getType().isIndex())
      scalar = b.createOrFold<arith::IndexCastOp>(loc, i64, scalar);
    return vector::BroadcastOp::create(b, loc, lanesOf(i64), scalar);
  };
  // The raw index values, as i64.
  Type indexType = cast<MemRefType>(indices.getType()).getElementType();
  Value raw =
      vector::LoadOp::create(b, loc, lanesOf(indexType), indices, pos);
  if (indexType.isIndex())
    raw = arith::IndexCastOp::create(b, loc, lanesOf(i64), raw);
  else if (indexType.getIntOrFloatBitWidth() < 64)
    raw = arith::ExtSIOp::create(b, loc, lanesOf(i64), raw);
  Value sizes = splat(size);
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(lanesOf(i64), b.getI64IntegerAttr(0)));
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, raw, zeros);
  Value wrapped = arith::AddIOp::create(b, loc, raw, sizes);
  Value normalized =
      arith::SelectOp::create(b, loc, negative, wrapped, raw);
  Value allTrue = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(lanesOf(b.getI1Type()), true));
  Value mask = allTrue;
  Value badLanes;
  if (oob == OobMode::Clamp) {
    Value ones = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(lanesOf(i64), b.getI64IntegerAttr(1)));
    Value last = arith::SubIOp::create(b, loc, sizes, ones);
    Value below = arith::MinSIOp::create(b, loc, normalized, last);
    normalized = arith::MaxSIOp::create(b, loc, below, zeros);
  } else if (oob == OobMode::Skip || check) {
    // Out of range exactly when not below size as unsigned numbers.
    Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                      normalized, sizes);
    mask = arith::XOrIOp::create(b, loc, bad, allTrue);
    if (check)
      badLanes = bad;
  }
  Value offsets = arith::MulIOp::create(b, loc, normalized, splat(axisStride));
  offsets = arith::AddIOp::create(b, loc, offsets, splat(base));
  if (!lastAxis) {
    // The lanes' own columns: col + l.
    SmallVector<int64_t> steps(vl);
    for (int64_t l = 0; l < vl; ++l)
      steps[l] = l;
    Value columns = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(lanesOf(i64), ArrayRef<int64_t>(steps)));
    columns = arith::AddIOp::create(b, loc, columns, splat(col));
    offsets = arith::AddIOp::create(b, loc, offsets, columns);
  }
  Value zero = zeroValue(b, loc, elementType);
  Value passThrough =
      vector::BroadcastOp::create(b, loc, lanesOf(elementType), zero);
  Value c0 = constIndex(b, loc, 0);
  Value values = vector::GatherOp::create(b, loc, lanesOf(elementType), data,
                                          ValueRange{c0}, offsets, mask,
                                          passThrough);
  vector::StoreOp::create(b, loc, values, result, pos);
  return badLanes;
}

namespace {

//===----------------------------------------------------------------------===//
// gather_nd
//===----------------------------------------------------------------------===//

/// result[p..., s...] = data[p[:b]..., normalize(indices[p..., :])..., s...]:
/// partitions of the index tuples, each tuple read and checked once, then its
/// slice copied as a row.
struct GatherNDLowering : public NdLoweringPattern<GatherNDOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t bDims = static_cast<int64_t>(op.getBatchDims());
    int64_t k = op.getIndexDepth();
    int64_t q = op.getIndices().getType().getRank();
    int64_t r = op.getData().getType().getRank();
    int64_t resultRank = resultType.getRank();
    SmallVector<Value> operands = {adaptor.getData(), adaptor.getIndices()};
    state->outline(
        rewriter, op, operands,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value data = args[0], indices = args[1];
          // indices.shape[:-1] ++ data.shape[b+k:], where dynamic.
          SmallVector<Value> resultSizes;
          for (int64_t d = 0; d < resultRank; ++d) {
            if (!resultType.isDynamicDim(d))
              continue;
            resultSizes.push_back(
                d < q - 1 ? dimValue(b, loc, indices, d)
                          : dimValue(b, loc, data, bDims + k + d - (q - 1)));
          }
          LoweringState::CheckChain chain(*state, b, loc, op);
          state->checkIndexDepth(chain, indices, k);
          for (int64_t d = 0; d < bDims; ++d)
            state->checkDims(chain, indices, "indices", d, data, "data", d);
          for (int64_t d = 0; d < q - 1; ++d)
            state->checkResultDim(chain, indices, "indices", d, d);
          for (int64_t d = q - 1; d < resultRank; ++d)
            state->checkResultDim(chain, data, "data", bDims + k + d - (q - 1),
                                  d);
          return buildIf(
              b, loc, chain.ok(), resultType,
              [&](OpBuilder &nb, Location nloc) {
                return gather(nb, nloc, op, data, indices, resultSizes, bDims,
                              k, q, r);
              },
              [&](OpBuilder &nb, Location nloc) -> Value {
                return tensor::EmptyOp::create(nb, nloc, resultType,
                                               resultSizes);
              });
        });
    return success();
  }

private:
  Value gather(OpBuilder &b, Location loc, GatherNDOp op, Value data,
               Value indices, ValueRange resultSizes, int64_t bDims, int64_t k,
               int64_t q, int64_t r) const {
    OobMode oob = op.getOob();
    bool check = state->checksEnabled() && oob == OobMode::Error;
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Value dataFlat = flatReadBuffer(b, loc, data);
    Value indicesFlat = flatReadBuffer(b, loc, indices);
    Allocation result = allocateResult(b, loc, resultType, resultSizes);

    TupleSpace space;
    space.firstDataDim = bDims;
    space.oob = oob;
    space.sizes = dimValues(b, loc, data, bDims, bDims + k);
    space.strides = rowMajorStrides(b, loc, space.sizes);
    Value rowsPerBatch = product(b, loc, space.sizes);
    SmallVector<Value> sliceDims = dimValues(b, loc, data, bDims + k, r);
    Value sliceSize = product(b, loc, sliceDims);
    SmallVector<Value> tupleDims = dimValues(b, loc, indices, 0, q - 1);
    Value numTuples = product(b, loc, tupleDims);
    Value tuplesPerBatch =
        product(b, loc, ArrayRef<Value>(tupleDims).drop_front(bDims));

    Value kValue = constIndex(b, loc, k);
    Value perTuple = b.createOrFold<arith::AddIOp>(loc, sliceSize, kValue);
    Value work = b.createOrFold<arith::MulIOp>(loc, numTuples, perTuple);
    Value parts = state->numPartitions(b, loc, op, work, numTuples);
    Value total = b.createOrFold<arith::MulIOp>(loc, numTuples, sliceSize);
    Value streaming = streamsRows(b, loc, resultType.getElementType(), total,
                                  sliceSize);
    // Slices shorter than a line are points: the out-of-order window covers
    // many of them without help.
    std::optional<int64_t> staticSlice = getConstantIntValue(sliceSize);
    Type elementType = resultType.getElementType();
    bool prefetch =
        !staticSlice || !isVectorizable(elementType) ||
        *staticSlice >= vectorLength(elementType);
    SmallVector<Value> rangeBounds;
    for (Value size : space.sizes)
      rangeBounds.push_back(rangeBound(b, loc, size));
    // Every tuple is out of range when an indexed dim is empty: nothing may
    // be read then (under skip and clamp, every slice is zeros).
    Value zero = constIndex(b, loc, 0);
    Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                rowsPerBatch, zero);
    auto gatherIf = scf::IfOp::create(
        b, loc, empty,
        [&](OpBuilder &nb, Location nloc) {
          if (oob != OobMode::Error) {
            Value total =
                nb.createOrFold<arith::MulIOp>(nloc, numTuples, sliceSize);
            fillZeros(nb, nloc, result.flat, zero, total);
            scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
            return;
          }
          Value none = nb.createOrFold<arith::CmpIOp>(
              nloc, arith::CmpIPredicate::eq, numTuples, zero);
          scf::YieldOp::create(nb, nloc, none);
        },
        [&](OpBuilder &nb, Location nloc) {
          Value flags;
          if (check)
            flags = allocScratch(nb, nloc, nb.getI1Type(), parts);
          buildParallel(
              nb, nloc, parts, [&](OpBuilder &pb, Location ploc, Value p) {
                std::pair<Value, Value> bounds =
                    partRange(pb, ploc, numTuples, parts, p);
                Value lo = bounds.first, hi = bounds.second;
                Value one = constIndex(pb, ploc, 1);
                Value no = constBool(pb, ploc, false);
                // The data row of tuple `t` (unchecked).
                auto dataRow = [&](OpBuilder &lb, Location lloc, Value t,
                                   Value row) {
                  if (bDims == 0)
                    return row;
                  Value batch =
                      lb.createOrFold<arith::DivUIOp>(lloc, t, tuplesPerBatch);
                  Value batchRow =
                      lb.createOrFold<arith::MulIOp>(lloc, batch, rowsPerBatch);
                  return lb.createOrFold<arith::AddIOp>(lloc, batchRow, row);
                };
                Value last = pb.createOrFold<arith::SubIOp>(ploc, hi, one);
                Value distance = constIndex(pb, ploc, kPrefetchDistance);
                auto loop = scf::ForOp::create(
                    pb, ploc, lo, hi, one, ValueRange{no},
                    [&](OpBuilder &lb, Location lloc, Value t, ValueRange acc) {
                      Tuple tuple = readTuple(lb, lloc, indicesFlat, t, space);
                      Value row = tuple.row;
                      Value bad = constBool(lb, lloc, false);
                      if (check) {
                        for (auto [shifted, bound] :
                             llvm::zip_equal(tuple.shifted, rangeBounds))
                          bad = orBool(lb, lloc, bad,
                                       anyOutOfRange(lb, lloc, shifted, bound));
                        row = clampIfBad(lb, lloc, bad, row);
                      }
                      row = dataRow(lb, lloc, t, row);
                      Value srcOffset =
                          lb.createOrFold<arith::MulIOp>(lloc, row, sliceSize);
                      Value dstOffset =
                          lb.createOrFold<arith::MulIOp>(lloc, t, sliceSize);
                      if (prefetch) {
                        Value ahead =
                            lb.createOrFold<arith::AddIOp>(lloc, t, distance);
                        Value next = minIndex(lb, lloc, ahead, last);
                        Tuple nextTuple =
                            readTuple(lb, lloc, indicesFlat, next, space);
                        Value nextRow = dataRow(lb, lloc, next, nextTuple.row);
                        Value nextOffset = lb.createOrFold<arith::MulIOp>(
                            lloc, nextRow, sliceSize);
                        prefetchRow(lb, lloc, dataFlat, nextOffset, sliceSize);
                      }
                      // Under clamp only an empty dim skips: handled above.
                      Value skip = oob == OobMode::Skip ? tuple.skip : Value();
                      if (!skip) {
                        emitRowCopy(lb, lloc, result.flat, dstOffset, dataFlat,
                                    srcOffset, sliceSize, streaming);
                      } else {
                        // A skipped tuple's slice reads zeros.
                        scf::IfOp::create(
                            lb, lloc, skip,
                            [&](OpBuilder &zb, Location zloc) {
                              fillZeros(zb, zloc, result.flat, dstOffset,
                                        sliceSize);
                              scf::YieldOp::create(zb, zloc);
                            },
                            [&](OpBuilder &cb, Location cloc) {
                              emitRowCopy(cb, cloc, result.flat, dstOffset,
                                          dataFlat, srcOffset, sliceSize,
                                          streaming);
                              scf::YieldOp::create(cb, cloc);
                            });
                      }
                      scf::YieldOp::create(lb, lloc,
                                           orBool(lb, lloc, acc[0], bad));
                    });
                state->fenceStreamedStores(pb, ploc, op, streaming);
                if (check)
                  memref::StoreOp::create(pb, ploc, loop.getResult(0), flags,
                                          p);
              });
          Value ok = check ? notBool(nb, nloc, anyFlag(nb, nloc, flags, parts))
                           : constBool(nb, nloc, true);
          scf::YieldOp::create(nb, nloc, ok);
        });

    if (check) {
      Value ok = gatherIf.getResult(0);
      reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
        reportFirstBadTuple(*state, nb, nloc, op, indicesFlat, numTuples,
                            space);
      });
    }
    return result.tensor;
  }
};

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

/// result[p] = data[p with p[axis] = normalize(indices[p])]: partitions of
/// the flat positions of indices, each value read and checked once.
struct GatherElementsLowering : public NdLoweringPattern<GatherElementsOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t axis = op.getNormalizedAxis();
    int64_t rank = resultType.getRank();
    SmallVector<Value> operands = {adaptor.getData(), adaptor.getIndices()};
    state->outline(
        rewriter, op, operands,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value data = args[0], indices = args[1];
          // The shape of indices, where dynamic.
          SmallVector<Value> resultSizes;
          for (int64_t d = 0; d < rank; ++d) {
            if (resultType.isDynamicDim(d))
              resultSizes.push_back(dimValue(b, loc, indices, d));
          }
          LoweringState::CheckChain chain(*state, b, loc, op);
          for (int64_t d = 0; d < rank; ++d) {
            if (d != axis)
              state->checkDims(chain, indices, "indices", d, data, "data", d,
                               /*atMost=*/true);
          }
          for (int64_t d = 0; d < rank; ++d)
            state->checkResultDim(chain, indices, "indices", d, d);
          return buildIf(
              b, loc, chain.ok(), resultType,
              [&](OpBuilder &nb, Location nloc) {
                return gather(nb, nloc, op, data, indices, resultSizes, axis);
              },
              [&](OpBuilder &nb, Location nloc) -> Value {
                return tensor::EmptyOp::create(nb, nloc, resultType,
                                               resultSizes);
              });
        });
    return success();
  }

private:
  Value gather(OpBuilder &b, Location loc, GatherElementsOp op, Value data,
               Value indices, ValueRange resultSizes, int64_t axis) const {
    OobMode oob = op.getOob();
    bool check = state->checksEnabled() && oob == OobMode::Error;
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t rank = resultType.getRank();
    Value dataFlat = flatReadBuffer(b, loc, data);
    Value indicesFlat = flatReadBuffer(b, loc, indices);
    Allocation result = allocateResult(b, loc, resultType, resultSizes);

    SmallVector<Value> dataDims = dimValues(b, loc, data, 0, rank);
    SmallVector<Value> dataStrides = rowMajorStrides(b, loc, dataDims);
    SmallVector<Value> indexDims = dimValues(b, loc, indices, 0, rank);
    Value count = product(b, loc, indexDims);
    Value size = dataDims[axis];
    Value zero = constIndex(b, loc, 0);

    Value parts = state->numPartitions(b, loc, op, count, count);
    // Signless integers and floats of 32 and 64 bits move a vector of
    // positions at a time, read with a hardware gather.
    Type elementType = resultType.getElementType();
    bool vectorized =
        (elementType.isSignlessInteger() || isa<FloatType>(elementType)) &&
        (elementType.getIntOrFloatBitWidth() == 32 ||
         elementType.getIntOrFloatBitWidth() == 64);
    int64_t vl = vectorized ? vectorLength(elementType) : 1;
    // Every index is out of range when the axis is empty: nothing may be
    // read then (under skip and clamp, every value is a zero).
    Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                size, zero);
    auto gatherIf = scf::IfOp::create(
        b, loc, empty,
        [&](OpBuilder &nb, Location nloc) {
          if (oob != OobMode::Error) {
            fillZeros(nb, nloc, result.flat, zero, count);
            scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
            return;
          }
          Value none = nb.createOrFold<arith::CmpIOp>(
              nloc, arith::CmpIPredicate::eq, count, zero);
          scf::YieldOp::create(nb, nloc, none);
        },
        [&](OpBuilder &nb, Location nloc) {
          Value flags;
          if (check)
            flags = allocScratch(nb, nloc, nb.getI1Type(), parts);
          buildParallel(
              nb, nloc, parts, [&](OpBuilder &pb, Location ploc, Value p) {
                std::pair<Value, Value> bounds =
                    partRange(pb, ploc, count, parts, p);
                Value lo = bounds.first, hi = bounds.second;
                Value no = constBool(pb, ploc, false);
                auto element = [&](OpBuilder &eb, Location eloc,
                                   ArrayRef<Value> coords, Value pos,
                                   ValueRange acc) -> SmallVector<Value> {
                  Value raw = loadIndex(eb, eloc, indicesFlat, pos);
                  auto [normalized, skip] =
                      resolveOrSkip(eb, eloc, oob, raw, size);
                  Value isBad = constBool(eb, eloc, false);
                  // Under clamp, in a non-empty axis, nothing is skipped.
                  if (oob != OobMode::Skip)
                    skip = Value();
                  if (skip)
                    normalized = clampIfBad(eb, eloc, skip, normalized);
                  if (check) {
                    isBad = isOutOfRange(eb, eloc, normalized, size);
                    normalized = clampIfBad(eb, eloc, isBad, normalized);
                  }
                  Value offset = constIndex(eb, eloc, 0);
                  for (int64_t d = 0; d < rank; ++d) {
                    Value coord = d == axis ? normalized : coords[d];
                    Value term = eb.createOrFold<arith::MulIOp>(
                        eloc, coord, dataStrides[d]);
                    offset = eb.createOrFold<arith::AddIOp>(eloc, offset, term);
                  }
                  Value value = memref::LoadOp::create(eb, eloc, dataFlat,
                                                       ValueRange{offset});
                  if (skip) {
                    Value zeroElement = zeroValue(eb, eloc, value.getType());
                    value = arith::SelectOp::create(eb, eloc, skip,
                                                    zeroElement, value);
                  }
                  memref::StoreOp::create(eb, eloc, value, result.flat,
                                          ValueRange{pos});
                  return {orBool(eb, eloc, acc[0], isBad)};
                };
                SmallVector<Value> bad = walkRowSegments(
                    pb, ploc, indexDims, lo, hi, zero, indexDims.back(),
                    ValueRange{no},
                    [&](OpBuilder &sb, Location sloc,
                        SmallVectorImpl<Value> &coords, Value rowStart,
                        Value from, Value to,
                        ValueRange acc) -> SmallVector<Value> {
                      if (!vectorized)
                        return walkColumns(sb, sloc, coords, rowStart, from,
                                           to, acc, element);
                      // Whole vectors of columns, then the rest one by one.
                      Value lanes = constIndex(sb, sloc, vl);
                      Value span = sb.createOrFold<arith::SubIOp>(sloc, to, from);
                      Value rem = sb.createOrFold<arith::RemUIOp>(sloc, span, lanes);
                      Value vectorEnd = sb.createOrFold<arith::SubIOp>(sloc, to, rem);
                      // The offset of the row in data, but for the axis.
                      Value base = constIndex(sb, sloc, 0);
                      for (int64_t d = 0; d + 1 < rank; ++d) {
                        if (d == axis)
                          continue;
                        Value term = sb.createOrFold<arith::MulIOp>(
                            sloc, coords[d], dataStrides[d]);
                        base = sb.createOrFold<arith::AddIOp>(sloc, base, term);
                      }
                      // With checks, the vectors' out-of-range lanes
                      // accumulate in a vector, reduced once per segment.
                      SmallVector<Value> init(acc);
                      if (check)
                        init[0] = arith::ConstantOp::create(
                            sb, sloc,
                            DenseElementsAttr::get(
                                VectorType::get({vl}, sb.getI1Type()), false));
                      auto vectors = scf::ForOp::create(
                          sb, sloc, from, vectorEnd, lanes, init,
                          [&](OpBuilder &vb, Location vloc, Value col,
                              ValueRange vacc) {
                            Value pos = vb.createOrFold<arith::AddIOp>(
                                vloc, rowStart, col);
                            Value badLanes = gatherLanes(
                                vb, vloc, oob, check, indicesFlat, dataFlat,
                                result.flat, pos, base, col, size,
                                dataStrides[axis], axis == rank - 1);
                            Value next = vacc[0];
                            if (badLanes)
                              next = arith::OrIOp::create(vb, vloc, next,
                                                          badLanes);
                            scf::YieldOp::create(vb, vloc, next);
                          });
                      SmallVector<Value> carried(vectors.getResults());
                      if (check)
                        carried[0] = orBool(
                            sb, sloc, acc[0],
                            vector::ReductionOp::create(
                                sb, sloc, vector::CombiningKind::OR,
                                carried[0]));
                      return walkColumns(sb, sloc, coords, rowStart, vectorEnd,
                                         to, carried, element);
                    });
                if (check)
                  memref::StoreOp::create(pb, ploc, bad[0], flags, p);
              });
          Value ok = check ? notBool(nb, nloc, anyFlag(nb, nloc, flags, parts))
                           : constBool(nb, nloc, true);
          scf::YieldOp::create(nb, nloc, ok);
        });

    if (check) {
      Value ok = gatherIf.getResult(0);
      reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
        reportFirstBadElement(*state, nb, nloc, op, indicesFlat, count, size,
                              axis);
      });
    }
    return result.tensor;
  }
};

//===----------------------------------------------------------------------===//
// Per-element tallies (scatter_elements: mean, use_init_val(false))
//===----------------------------------------------------------------------===//

namespace {
/// What a scatter_elements under `mean` or `use_init_val(false)` keeps per
/// destination element beside its value, in scratch buffers indexed by the
/// flat position in data: `counts` (the updates it has taken, plus one for
/// data's value under `use_init_val`) and, for an integer mean, `sums`, the
/// exact sum in an integer at least 64 bits wider than the element. An
/// element's owner (one partition) resets the tally of its elements, applies
/// their updates in order, then finishes them (a mean divides), so the result
/// does not depend on the partitions.
struct ElementTally {
  ReductionKind reduction;
  bool useInit;
  Value counts, sums;
};
} // namespace

/// Whether `op` needs a tally.
static bool needsTally(ScatterElementsOp op) {
  ReductionKind reduction = op.getReduction();
  return reduction == ReductionKind::Mean ||
         (!op.getUseInitVal() && reduction != ReductionKind::None);
}

/// A signless integer type at least `extra` bits wider than the integer
/// `type`, of a power-of-two width: the memref lowering sizes buffers of
/// other widths differently from LLVM's layout of their elements.
static IntegerType widerInteger(Type type, unsigned extra) {
  unsigned width = cast<IntegerType>(type).getWidth() + extra;
  return IntegerType::get(type.getContext(), llvm::PowerOf2Ceil(width));
}

/// `value` (of the integer element type `type`, signed or unsigned) as an
/// integer of type `wide`.
static Value extendInteger(OpBuilder &b, Location loc, Value value,
                           IntegerType wide) {
  auto type = cast<IntegerType>(value.getType());
  Type signless = b.getIntegerType(type.getWidth());
  if (!type.isSignless())
    value = UnrealizedConversionCastOp::create(b, loc, signless, value)
                .getResult(0);
  if (type.isUnsigned())
    return arith::ExtUIOp::create(b, loc, wide, value);
  return arith::ExtSIOp::create(b, loc, wide, value);
}

static ElementTally allocateTally(OpBuilder &b, Location loc,
                                  ScatterElementsOp op, Value numElements) {
  ElementTally tally;
  tally.reduction = op.getReduction();
  tally.useInit = op.getUseInitVal();
  // Without a mean, a count only tells a written element: one byte. A mean
  // counts in i32 where the updates are statically fewer than 2^31 (the
  // size of the scratch buffers is most of the cost of a tally), in index
  // otherwise.
  Type countType = b.getI8Type();
  if (tally.reduction == ReductionKind::Mean) {
    auto indicesType = op.getIndices().getType();
    bool few = indicesType.hasStaticShape() &&
               indicesType.getNumElements() < (int64_t(1) << 31);
    countType = few ? Type(b.getI32Type()) : Type(b.getIndexType());
  }
  tally.counts = allocScratch(b, loc, countType, numElements);
  Type elementType = op.getData().getType().getElementType();
  if (tally.reduction == ReductionKind::Mean && isa<IntegerType>(elementType))
    tally.sums =
        allocScratch(b, loc, widerInteger(elementType, 64), numElements);
  return tally;
}

/// The count `value` in the element type of `tally.counts`.
static Value countValue(OpBuilder &b, Location loc, const ElementTally &tally,
                        int64_t value) {
  Type type = cast<MemRefType>(tally.counts.getType()).getElementType();
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

static void resetTally(OpBuilder &b, Location loc, const ElementTally &tally,
                       Value flat) {
  Value zero = countValue(b, loc, tally, 0);
  memref::StoreOp::create(b, loc, zero, tally.counts, ValueRange{flat});
}

/// Applies `update` to the element at `at` of `dst` (flat position `flat`
/// in data).
static void applyTallied(OpBuilder &b, Location loc, const ElementTally &tally,
                         Value dst, ValueRange at, Value flat, Value update) {
  Value zero = countValue(b, loc, tally, 0);
  Value one = countValue(b, loc, tally, 1);
  Value count = memref::LoadOp::create(b, loc, tally.counts, flat);
  Value first =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, count, zero);
  Value current = memref::LoadOp::create(b, loc, dst, at);
  if (tally.reduction != ReductionKind::Mean) {
    // use_init_val(false): the first update is taken as is.
    Value combined = combine(b, loc, tally.reduction, current, update);
    Value value = arith::SelectOp::create(b, loc, first, update, combined);
    memref::StoreOp::create(b, loc, value, dst, at);
    memref::StoreOp::create(b, loc, one, tally.counts, flat);
    return;
  }
  // The count before this update: data's value counts once under
  // use_init_val.
  Value before = count;
  if (tally.useInit)
    before = arith::SelectOp::create(b, loc, first, one, count);
  Value after = b.createOrFold<arith::AddIOp>(loc, before, one);
  memref::StoreOp::create(b, loc, after, tally.counts, flat);
  if (tally.sums) {
    auto wide = cast<IntegerType>(
        cast<MemRefType>(tally.sums.getType()).getElementType());
    Value running = memref::LoadOp::create(b, loc, tally.sums, flat);
    Value start = arith::ConstantOp::create(b, loc, b.getZeroAttr(wide));
    if (tally.useInit)
      start = extendInteger(b, loc, current, wide);
    Value base = arith::SelectOp::create(b, loc, first, start, running);
    Value term = extendInteger(b, loc, update, wide);
    Value sum = arith::AddIOp::create(b, loc, base, term);
    memref::StoreOp::create(b, loc, sum, tally.sums, flat);
    return;
  }
  // Floats sum in their own type, in place, data's value first.
  Value sum = arith::AddFOp::create(b, loc, current, update);
  Value value = sum;
  if (!tally.useInit)
    value = arith::SelectOp::create(b, loc, first, update, sum);
  memref::StoreOp::create(b, loc, value, dst, at);
}

/// Under mean, divides the element at `at` of `dst` (flat position `flat`)
/// by its count if it took an update, and clears the count (an element
/// addressed several times is finished once).
static void finishTally(OpBuilder &b, Location loc, const ElementTally &tally,
                        Value dst, ValueRange at, Value flat) {
  if (tally.reduction != ReductionKind::Mean)
    return;
  Value zero = countValue(b, loc, tally, 0);
  Value count = memref::LoadOp::create(b, loc, tally.counts, flat);
  Value taken =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, count, zero);
  auto ifOp = scf::IfOp::create(b, loc, taken, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Type elementType = cast<MemRefType>(dst.getType()).getElementType();
  Value count64 =
      count.getType().isIndex()
          ? Value(arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count))
          : Value(arith::ExtUIOp::create(b, loc, b.getI64Type(), count));
  Value mean;
  if (tally.sums) {
    auto intType = cast<IntegerType>(elementType);
    auto wide = cast<IntegerType>(
        cast<MemRefType>(tally.sums.getType()).getElementType());
    Value sum = memref::LoadOp::create(b, loc, tally.sums, flat);
    Value divisor = arith::ExtUIOp::create(b, loc, wide, count64);
    // Rounded towards negative infinity (the divisor is positive); the mean
    // fits the element type.
    Value quotient;
    if (intType.isUnsigned()) {
      quotient = arith::DivUIOp::create(b, loc, sum, divisor);
    } else {
      Value truncated = arith::DivSIOp::create(b, loc, sum, divisor);
      Value product = arith::MulIOp::create(b, loc, truncated, divisor);
      Value rest = arith::SubIOp::create(b, loc, sum, product);
      Value wideZero = arith::ConstantOp::create(b, loc, b.getZeroAttr(wide));
      Value below = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          rest, wideZero);
      Value borrow = arith::ExtUIOp::create(b, loc, wide, below);
      quotient = arith::SubIOp::create(b, loc, truncated, borrow);
    }
    Type signless = b.getIntegerType(intType.getWidth());
    mean = arith::TruncIOp::create(b, loc, signless, quotient);
    if (!intType.isSignless())
      mean = UnrealizedConversionCastOp::create(b, loc, elementType, mean)
                 .getResult(0);
  } else {
    Value sum = memref::LoadOp::create(b, loc, dst, at);
    Value divisor = arith::UIToFPOp::create(b, loc, elementType, count64);
    mean = arith::DivFOp::create(b, loc, sum, divisor);
  }
  memref::StoreOp::create(b, loc, mean, dst, at);
  memref::StoreOp::create(b, loc, zero, tally.counts, flat);
}

//===----------------------------------------------------------------------===//
// Row scatters (scatter_nd; scatter_elements along its only non-unit dim)
//===----------------------------------------------------------------------===//

namespace {
/// One entry of a row scatter as read from the indices: the destination row
/// (unchecked under oob<error>), per index component `index + size` (see
/// rangeBound), and under skip and clamp whether the entry is skipped (its
/// row is then 0).
struct EntryRow {
  Value row;
  SmallVector<Value> shifted;
  Value skip;
};

/// A scatter seen as entries that each update one row of a 2-D destination
/// `[numRows, rowSize]` (1-D `[numRows]` when `oneD`): entry `e` reads
/// `rowSize` values at `e * rowSize` of `updates`.
struct RowScatter {
  Value numEntries, numRows, rowSize;
  /// The updates tensor. Partitions read it through their own to_buffer:
  /// bufferization takes a to_buffer for the point where the buffer is read,
  /// and `updates` may be `data` itself.
  Value updates;
  ReductionKind reduction;
  OobMode oob;
  /// scatter_elements under mean or use_init_val(false) (`oneD` only): the
  /// destination rows are the flat positions of data.
  const ElementTally *tally = nullptr;
  bool oneD;
  /// Reads entry `e` from the indices buffer `indices`.
  std::function<EntryRow(OpBuilder &, Location, Value indices, Value e)>
      readEntry;
  /// The indices tensor, read like `updates`.
  Value indices;
  /// `2 * size` of every index component.
  SmallVector<Value> bounds;
  /// Finds the first bad entry in row-major order and reports it.
  std::function<void(OpBuilder &, Location, Value indices)> reportFirstBad;
};
} // namespace

/// Whether any of the per-component maxima in `maxima` is out of range.
static Value anyComponentBad(OpBuilder &b, Location loc, const RowScatter &s,
                             ValueRange maxima) {
  Value bad = constBool(b, loc, false);
  for (auto [max, bound] : llvm::zip_equal(maxima, s.bounds))
    bad = orBool(b, loc, bad, anyOutOfRange(b, loc, max, bound));
  return bad;
}

/// Whether the index checks of a row scatter run: with bounds checking, under
/// oob<error> (no index value is an error under skip and clamp).
static bool checksIndices(LoweringState &state, const RowScatter &s) {
  return state.checksEnabled() && s.oob == OobMode::Error;
}

/// A parallel pass over chunks of the entries `[first, last)` (all of them
/// when null): `prologue(c)` once per chunk, then `body(e)` for every entry,
/// and, with `check`, the per-component maxima of `index + size` reduced
/// into one flag per chunk. Returns whether every entry is in range (true
/// without `check`); reporting is the caller's.
static Value forEachEntryChecked(
    OpBuilder &b, Location loc, const RowScatter &s, Value chunks, bool check,
    function_ref<void(OpBuilder &, Location, Value)> prologue,
    function_ref<void(OpBuilder &, Location, Value, const EntryRow &, Value)>
        body,
    Value first = Value(), Value last = Value()) {
  if (!first) {
    first = constIndex(b, loc, 0);
    last = s.numEntries;
  }
  Value count = b.createOrFold<arith::SubIOp>(loc, last, first);
  Value flags;
  if (check)
    flags = allocScratch(b, loc, b.getI1Type(), chunks);
  Value indices = flatReadBuffer(b, loc, s.indices);
  buildParallel(b, loc, chunks, [&](OpBuilder &nb, Location nloc, Value c) {
    prologue(nb, nloc, c);
    std::pair<Value, Value> range = partRange(nb, nloc, count, chunks, c);
    Value lo = nb.createOrFold<arith::AddIOp>(nloc, first, range.first);
    Value hi = nb.createOrFold<arith::AddIOp>(nloc, first, range.second);
    Value one = constIndex(nb, nloc, 1);
    SmallVector<Value> init;
    if (check)
      init.assign(s.bounds.size(), constIndex(nb, nloc, 0));
    auto loop = scf::ForOp::create(
        nb, nloc, lo, hi, one, init,
        [&](OpBuilder &lb, Location lloc, Value e, ValueRange maxima) {
          EntryRow entry = s.readEntry(lb, lloc, indices, e);
          body(lb, lloc, e, entry, c);
          SmallVector<Value> next;
          for (auto [max, shifted] : llvm::zip(maxima, entry.shifted))
            next.push_back(maxIndex(lb, lloc, max, shifted));
          scf::YieldOp::create(lb, lloc, next);
        });
    if (check) {
      Value bad = anyComponentBad(nb, nloc, s, loop.getResults());
      memref::StoreOp::create(nb, nloc, bad, flags, c);
    }
  });
  if (!check)
    return constBool(b, loc, true);
  return notBool(b, loc, anyFlag(b, loc, flags, chunks));
}

/// `dst[row - rowLo, colLo .. colLo + width) ⊕= updates[e, colLo ..]`.
static void applyEntry(OpBuilder &b, Location loc, const RowScatter &s,
                       Value dst, Value updates, Value e, Value row,
                       Value rowLo, Value colLo, Value width) {
  Value local = b.createOrFold<arith::SubIOp>(loc, row, rowLo);
  if (s.tally) {
    Value value = memref::LoadOp::create(b, loc, updates, e);
    applyTallied(b, loc, *s.tally, dst, ValueRange{local}, row, value);
    return;
  }
  Value base = b.createOrFold<arith::MulIOp>(loc, e, s.rowSize);
  Value srcOffset = b.createOrFold<arith::AddIOp>(loc, base, colLo);
  SmallVector<Value> dstPos = {local};
  if (!s.oneD)
    dstPos.push_back(constIndex(b, loc, 0));
  emitRowUpdate(b, loc, s.reduction, dst, dstPos, updates, srcOffset, width);
}

/// Whether any entry of a row scatter is out of range: a serial pass over
/// all of them (the in-place half of `checkedApply`).
static Value anyEntryBad(OpBuilder &b, Location loc, const RowScatter &s,
                         Value indices) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  SmallVector<Value> init(s.bounds.size(), zero);
  auto loop = scf::ForOp::create(
      b, loc, zero, s.numEntries, one, init,
      [&](OpBuilder &lb, Location lloc, Value e, ValueRange maxima) {
        EntryRow entry = s.readEntry(lb, lloc, indices, e);
        SmallVector<Value> next;
        for (auto [max, shifted] : llvm::zip(maxima, entry.shifted))
          next.push_back(maxIndex(lb, lloc, max, shifted));
        scf::YieldOp::create(lb, lloc, next);
      });
  return anyComponentBad(b, loc, s, loop.getResults());
}

/// Applies every entry through `applyRow(e, row)`; with `check`, a bad
/// entry's row becomes 0 (a valid row: `numRows` is not 0 here) and the
/// returned flag says whether there was one.
static Value
applyEntries(OpBuilder &b, Location loc, const RowScatter &s, Value indices,
             bool check,
             function_ref<void(OpBuilder &, Location, Value, Value)> applyRow) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  auto loop = scf::ForOp::create(
      b, loc, zero, s.numEntries, one, ValueRange{no},
      [&](OpBuilder &lb, Location lloc, Value e, ValueRange acc) {
        EntryRow entry = s.readEntry(lb, lloc, indices, e);
        Value row = entry.row;
        Value bad = constBool(lb, lloc, false);
        if (check) {
          bad = anyComponentBad(lb, lloc, s, entry.shifted);
          row = clampIfBad(lb, lloc, bad, row);
        }
        unlessSkipped(lb, lloc, entry.skip, [&](OpBuilder &ab, Location aloc) {
          applyRow(ab, aloc, e, row);
        });
        scf::YieldOp::create(lb, lloc, orBool(lb, lloc, acc[0], bad));
      });
  return loop.getResult(0);
}

/// The body of a partition of a row scatter that applies every entry (one
/// row owner, or a column partition): checks fused with the work, or first
/// (see `checkedApply`). Stores the partition's failure flag into
/// `flags[p]` (with checks). An empty destination takes no entry.
static void applyAllEntriesChecked(
    OpBuilder &b, Location loc, const RowScatter &s, bool check, Value inPlace,
    Value flags, Value p,
    function_ref<void(OpBuilder &, Location, Value, Value)> applyRow) {
  Value indices = flatReadBuffer(b, loc, s.indices);
  if (!check) {
    applyEntries(b, loc, s, indices, false, applyRow);
    return;
  }
  Value zero = constIndex(b, loc, 0);
  Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                              s.numRows, zero);
  auto ifEmpty = scf::IfOp::create(
      b, loc, empty,
      [&](OpBuilder &nb, Location nloc) {
        Value any = nb.createOrFold<arith::CmpIOp>(
            nloc, arith::CmpIPredicate::ne, s.numEntries, zero);
        scf::YieldOp::create(nb, nloc, any);
      },
      [&](OpBuilder &nb, Location nloc) {
        Value bad = checkedApply(
            nb, nloc, inPlace,
            [&](OpBuilder &cb, Location cloc) {
              return anyEntryBad(cb, cloc, s, indices);
            },
            [&](OpBuilder &ab, Location aloc) {
              return applyEntries(ab, aloc, s, indices, true, applyRow);
            });
        scf::YieldOp::create(nb, nloc, bad);
      });
  memref::StoreOp::create(b, loc, ifEmpty.getResult(0), flags, p);
}

/// After a partitioned update with per-partition failure flags: reports the
/// first bad entry if a partition failed.
static void reportFailedPartitions(OpBuilder &b, Location loc,
                                   const RowScatter &s, Value flags,
                                   Value parts) {
  Value ok = notBool(b, loc, anyFlag(b, loc, flags, parts));
  reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
    Value indices = flatReadBuffer(nb, nloc, s.indices);
    s.reportFirstBad(nb, nloc, indices);
  });
}

/// `ceil(log2(x))` for x >= 1, as an index value.
static Value ceilLog2(OpBuilder &b, Location loc, Value x) {
  Value one = constIndex(b, loc, 1);
  Value xm1 = b.createOrFold<arith::SubIOp>(loc, x, one);
  Value asI64 = b.createOrFold<arith::IndexCastUIOp>(loc, b.getI64Type(), xm1);
  Value lz = math::CountLeadingZerosOp::create(b, loc, asI64);
  Value width = b.createOrFold<arith::ConstantIntOp>(loc, 64, 64);
  Value bits = b.createOrFold<arith::SubIOp>(loc, width, lz);
  return b.createOrFold<arith::IndexCastUIOp>(loc, b.getIndexType(), bits);
}

/// The slice memref type of a partition of a `[rows, rowSize]` or `[rows]`
/// destination.
static MemRefType rowSliceType(const RowScatter &s, Value dest) {
  auto destType = cast<RankedTensorType>(dest.getType());
  SmallVector<int64_t> shape(destType.getRank(), ShapedType::kDynamic);
  return sliceMemRefType(destType.getElementType(), shape,
                         /*contiguousRows=*/true);
}

/// Where a row scatter has more entries than its destination has cache
/// lines, its rows form blocks of at most this many bytes (one row at
/// least), which stay in a core's cache while the block's entries are
/// applied.
static constexpr int64_t kBlockBytes = int64_t(256) << 10;
/// A row scatter of one-element rows into a destination of at most this many
/// bytes (which stays in the cache) is split among owners only when at least
/// kMinCachedOwners partitions are available.
static constexpr int64_t kCachedDestBytes = int64_t(1) << 20;
static constexpr int64_t kMinCachedOwners = 4;
/// A row scatter buckets at most this many entries at a time: its scratch
/// buffers do not grow with the number of updates beyond that.
static constexpr int64_t kBatchEntries = int64_t(1) << 20;

/// `floor(log2(x))` for x >= 1, as an index value.
static Value floorLog2(OpBuilder &b, Location loc, Value x) {
  Value asI64 = b.createOrFold<arith::IndexCastUIOp>(loc, b.getI64Type(), x);
  Value lz = math::CountLeadingZerosOp::create(b, loc, asI64);
  Value top = b.createOrFold<arith::ConstantIntOp>(loc, 63, 64);
  Value bits = b.createOrFold<arith::SubIOp>(loc, top, lz);
  return b.createOrFold<arith::IndexCastUIOp>(loc, b.getIndexType(), bits);
}

/// Bytes an element of `type` takes in memory (at least 1).
static int64_t elementBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type))
    return 2 * elementBytes(complex.getElementType());
  return std::max<int64_t>(1, (type.getIntOrFloatBitWidth() + 7) / 8);
}

/// Row owners. The destination rows are cut into blocks of `2^shift` rows,
/// at least one per owner partition and, where the entries outnumber the
/// destination's cache lines, small enough to stay in a core's cache
/// (kBlockBytes); the partitions own contiguous ranges of blocks. With one
/// block, the one owner applies every entry as it reads it (checking first
/// when it updates data's own buffer). With several, the entries are
/// bucketed by block, a batch of at most kBatchEntries at a time: a parallel
/// counting pass (which also checks the indices, when the batch is all of
/// them; otherwise one parallel check of every index comes first, before
/// anything is written), a prefix sum and a parallel filling pass that
/// records each entry's row in its block and, for rows of one element, its
/// update (otherwise its number), so that applying a block reads its bucket
/// in order and touches nothing outside the block. Each owner applies its
/// blocks' entries in their original order. Returns the updated `dest`, or
/// `dest` itself when a check fails.
static Value scatterByRowOwners(OpBuilder &b, Location loc,
                                LoweringState &state, Operation *op,
                                const RowScatter &s, Value dest,
                                Value dataPointer, Value ownerParts,
                                Value chunks) {
  bool check = checksIndices(state, s);
  auto destType = cast<RankedTensorType>(dest.getType());
  Type elementType = destType.getElementType();
  Type index = b.getIndexType();
  Type i32 = b.getI32Type();
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value rows = maxIndex(b, loc, s.numRows, one);
  // Rows of one element carry their update in the bucket.
  std::optional<int64_t> staticRow = getConstantIntValue(s.rowSize);
  bool carriesValues = staticRow && *staticRow == 1;
  // Rows per block: one block per owner partition, and where the entries
  // are at least as many as the destination's cache lines (so that blocks
  // that stay in the cache save reads of lines from memory), the largest
  // power of two of rows that fits kBlockBytes (one row at least).
  Value rowBytes = b.createOrFold<arith::MulIOp>(
      loc, maxIndex(b, loc, s.rowSize, one),
      constIndex(b, loc, elementBytes(elementType)));
  Value fitting = maxIndex(
      b, loc,
      b.createOrFold<arith::DivUIOp>(loc, constIndex(b, loc, kBlockBytes),
                                     rowBytes),
      one);
  // Bucketing costs about three passes over the entries, applying one entry
  // of one element to a destination in the cache about one: such a scatter
  // splits among owners only when there are enough of them to win.
  if (carriesValues) {
    Value destBytes = b.createOrFold<arith::MulIOp>(loc, rows, rowBytes);
    Value cached = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ule, destBytes,
        constIndex(b, loc, kCachedDestBytes));
    Value few = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ult, ownerParts,
        constIndex(b, loc, kMinCachedOwners));
    Value alone = b.createOrFold<arith::AndIOp>(loc, cached, few);
    ownerParts = b.createOrFold<arith::SelectOp>(loc, alone, one, ownerParts);
  }
  Value ownerShift = ceilLog2(b, loc, ceilDiv(b, loc, rows, ownerParts));
  Value destLines = b.createOrFold<arith::DivUIOp>(
      loc, b.createOrFold<arith::MulIOp>(loc, rows, rowBytes),
      constIndex(b, loc, kVectorBytes));
  Value dense = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                              s.numEntries, destLines);
  Value shift = b.createOrFold<arith::SelectOp>(
      loc, dense, minIndex(b, loc, floorLog2(b, loc, fitting), ownerShift),
      ownerShift);
  Value span = b.createOrFold<arith::ShLIOp>(loc, one, shift);
  Value blocks = ceilDiv(b, loc, rows, span);
  Value bucketed = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt,
                                                 blocks, one);
  Value owners = b.createOrFold<arith::SelectOp>(
      loc, bucketed, minIndex(b, loc, ownerParts, blocks), one);
  auto sized = [&](Value n) -> Value {
    return b.createOrFold<arith::SelectOp>(loc, bucketed, n, zero);
  };
  // Under skip, skipped entries go to one more block, after the others,
  // whose bucket is never applied: their row is `blocks << shift`.
  Value countBlocks = blocks;
  if (s.oob == OobMode::Skip)
    countBlocks = b.createOrFold<arith::AddIOp>(loc, blocks, one);
  Value skippedRow = b.createOrFold<arith::ShLIOp>(loc, blocks, shift);
  Value lastRow = b.createOrFold<arith::SubIOp>(loc, rows, one);

  // Batches of entries.
  Value batch = maxIndex(
      b, loc, minIndex(b, loc, s.numEntries, constIndex(b, loc, kBatchEntries)),
      one);
  Value batches = ceilDiv(b, loc, s.numEntries, batch);
  Value oneBatch = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ule,
                                                 batches, one);

  // counts[c * stride + t]: the entries of chunk c in block t, then the next
  // bucket slot of each (each chunk's counts start a cache line of their
  // own: chunks run on different threads and update their counts entry by
  // entry); starts[t]: the first slot of block t; slot i of the bucket: the
  // entry's row in its block (`rowInBlock`) and its update or number
  // (`payload`), block by block, in order.
  Value lineOfCounts = constIndex(b, loc, 8);
  Value stride = b.createOrFold<arith::MulIOp>(
      loc, ceilDiv(b, loc, countBlocks, lineOfCounts), lineOfCounts);
  Value counts = allocScratch(
      b, loc, index,
      sized(b.createOrFold<arith::MulIOp>(loc, chunks, stride)));
  Value starts = allocScratch(
      b, loc, index,
      sized(b.createOrFold<arith::AddIOp>(loc, countBlocks, one)));
  Value rowInBlock = allocScratch(b, loc, i32, sized(batch));
  Value payload = allocScratch(b, loc, carriesValues ? elementType : i32,
                               sized(batch));

  // The row an entry is bucketed by: a bad entry's row may be anything, kept
  // in range until the check fails the whole op; a skipped entry's is past
  // the blocks.
  auto bucketRow = [&](OpBuilder &lb, Location lloc, const EntryRow &entry) {
    Value row = minIndex(lb, lloc, entry.row, lastRow);
    if (s.oob == OobMode::Skip)
      row = lb.createOrFold<arith::SelectOp>(lloc, entry.skip, skippedRow, row);
    return row;
  };
  auto countAt = [&](OpBuilder &lb, Location lloc, Value c, Value row) {
    Value block = lb.createOrFold<arith::ShRUIOp>(lloc, row, shift);
    Value base = lb.createOrFold<arith::MulIOp>(lloc, c, stride);
    return lb.createOrFold<arith::AddIOp>(lloc, base, block);
  };

  // With several batches, every index is checked before anything is
  // written; one batch is checked by its counting pass.
  Value preOk = constBool(b, loc, true);
  if (check) {
    auto pre = scf::IfOp::create(
        b, loc, b.createOrFold<arith::AndIOp>(loc, bucketed,
                                             notBool(b, loc, oneBatch)),
        [&](OpBuilder &nb, Location nloc) {
          Value ok = forEachEntryChecked(
              nb, nloc, s, chunks, true, [](OpBuilder &, Location, Value) {},
              [](OpBuilder &, Location, Value, const EntryRow &, Value) {});
          scf::YieldOp::create(nb, nloc, ok);
        },
        [&](OpBuilder &nb, Location nloc) {
          scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
        });
    preOk = pre.getResult(0);
  }
  // Each owner partition that runs stores its flag; those of a destination
  // without elements never run.
  Value flags;
  if (check) {
    flags = allocScratch(b, loc, b.getI1Type(), owners);
    Value no = constBool(b, loc, false);
    scf::ForOp::create(b, loc, zero, owners, one, ValueRange{},
                       [&](OpBuilder &nb, Location nloc, Value t, ValueRange) {
                         memref::StoreOp::create(nb, nloc, no, flags, t);
                         scf::YieldOp::create(nb, nloc);
                       });
  }

  // One batch: count (and check), bucket, apply. Returns the updated
  // destination and whether the batch's indices were all in range.
  auto applyBatch = [&](OpBuilder &ab, Location aloc, Value batchIndex,
                        Value current) -> std::pair<Value, Value> {
    Value first = ab.createOrFold<arith::MulIOp>(aloc, batchIndex, batch);
    Value last = minIndex(ab, aloc,
                          ab.createOrFold<arith::AddIOp>(aloc, first, batch),
                          s.numEntries);
    Value isFirst = ab.createOrFold<arith::CmpIOp>(
        aloc, arith::CmpIPredicate::eq, first, zero);
    Value isLast = ab.createOrFold<arith::CmpIOp>(
        aloc, arith::CmpIPredicate::eq, last, s.numEntries);
    auto counted = scf::IfOp::create(
        ab, aloc, bucketed,
        [&](OpBuilder &nb, Location nloc) {
          // Count (zeroing the chunk's counts first), check a single batch.
          Value ok = forEachEntryChecked(
              nb, nloc, s, chunks, check,
              [&](OpBuilder &pb, Location ploc, Value c) {
                Value base = pb.createOrFold<arith::MulIOp>(ploc, c, stride);
                scf::ForOp::create(
                    pb, ploc, zero, countBlocks, one, ValueRange{},
                    [&](OpBuilder &lb, Location lloc, Value t, ValueRange) {
                      Value at = lb.createOrFold<arith::AddIOp>(lloc, base, t);
                      memref::StoreOp::create(lb, lloc, zero, counts, at);
                      scf::YieldOp::create(lb, lloc);
                    });
              },
              [&](OpBuilder &lb, Location lloc, Value, const EntryRow &entry,
                  Value c) {
                Value at = countAt(lb, lloc, c, bucketRow(lb, lloc, entry));
                Value n = memref::LoadOp::create(lb, lloc, counts, at);
                Value n1 = lb.createOrFold<arith::AddIOp>(lloc, n, one);
                memref::StoreOp::create(lb, lloc, n1, counts, at);
              },
              first, last);
          scf::YieldOp::create(nb, nloc, ok);
        },
        [&](OpBuilder &nb, Location nloc) {
          // One block: its owner checks as it applies.
          scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
        });
    Value ok = counted.getResult(0);

    auto apply = [&](OpBuilder &pb, Location ploc) -> Value {
      auto fill = scf::IfOp::create(pb, ploc, bucketed, false);
      {
        OpBuilder::InsertionGuard guard(pb);
        pb.setInsertionPointToStart(fill.thenBlock());
        // Prefix sum, block-major then chunk order.
        auto prefix = scf::ForOp::create(
            pb, ploc, zero, countBlocks, one, ValueRange{zero},
            [&](OpBuilder &nb, Location nloc, Value t, ValueRange running) {
              memref::StoreOp::create(nb, nloc, running[0], starts, t);
              auto chunkLoop = scf::ForOp::create(
                  nb, nloc, zero, chunks, one, running,
                  [&](OpBuilder &lb, Location lloc, Value c, ValueRange run) {
                    Value base = lb.createOrFold<arith::MulIOp>(lloc, c, stride);
                    Value at = lb.createOrFold<arith::AddIOp>(lloc, base, t);
                    Value n = memref::LoadOp::create(lb, lloc, counts, at);
                    memref::StoreOp::create(lb, lloc, run[0], counts, at);
                    Value next = lb.createOrFold<arith::AddIOp>(lloc, run[0], n);
                    scf::YieldOp::create(lb, lloc, next);
                  });
              scf::YieldOp::create(nb, nloc, chunkLoop.getResults());
            });
        memref::StoreOp::create(pb, ploc, prefix.getResult(0), starts,
                                countBlocks);
        // Fill: each entry's row in its block and its update or number, in
        // order within each chunk.
        Value updates = flatReadBuffer(pb, ploc, s.updates);
        forEachEntryChecked(
            pb, ploc, s, chunks, false, [](OpBuilder &, Location, Value) {},
            [&](OpBuilder &lb, Location lloc, Value e, const EntryRow &entry,
                Value c) {
              Value row = bucketRow(lb, lloc, entry);
              Value at = countAt(lb, lloc, c, row);
              Value slot = memref::LoadOp::create(lb, lloc, counts, at);
              Value next = lb.createOrFold<arith::AddIOp>(lloc, slot, one);
              memref::StoreOp::create(lb, lloc, next, counts, at);
              Value block = lb.createOrFold<arith::ShRUIOp>(lloc, row, shift);
              Value blockStart =
                  lb.createOrFold<arith::ShLIOp>(lloc, block, shift);
              Value inBlock =
                  lb.createOrFold<arith::SubIOp>(lloc, row, blockStart);
              Value narrow =
                  lb.createOrFold<arith::IndexCastUIOp>(lloc, i32, inBlock);
              memref::StoreOp::create(lb, lloc, narrow, rowInBlock, slot);
              Value carried;
              if (carriesValues) {
                carried = memref::LoadOp::create(lb, lloc, updates, e);
              } else {
                Value number = lb.createOrFold<arith::SubIOp>(lloc, e, first);
                carried =
                    lb.createOrFold<arith::IndexCastUIOp>(lloc, i32, number);
              }
              memref::StoreOp::create(lb, lloc, carried, payload, slot);
            },
            first, last);
      }
      return buildPartitionedUpdate(
          pb, ploc, current, dataPointer, owners, rowSliceType(s, current),
          [&](OpBuilder &nb, Location nloc, Value t) {
            std::pair<Value, Value> range =
                partRange(nb, nloc, blocks, owners, t);
            Value lo = nb.createOrFold<arith::ShLIOp>(nloc, range.first, shift);
            Value end =
                nb.createOrFold<arith::ShLIOp>(nloc, range.second, shift);
            Value hi = minIndex(nb, nloc, end, s.numRows);
            lo = minIndex(nb, nloc, lo, hi);
            SliceRegion region;
            region.offsets.push_back(lo);
            region.sizes.push_back(nb.createOrFold<arith::SubIOp>(nloc, hi, lo));
            if (!s.oneD) {
              region.offsets.push_back(nb.getIndexAttr(0));
              region.sizes.push_back(s.rowSize);
            }
            return region;
          },
          [&](OpBuilder &nb, Location nloc, Value t, Value slice,
              Value inPlace) {
            Value updates = flatReadBuffer(nb, nloc, s.updates);
            std::pair<Value, Value> range =
                partRange(nb, nloc, blocks, owners, t);
            Value rowLo =
                nb.createOrFold<arith::ShLIOp>(nloc, range.first, shift);
            Value colLo = constIndex(nb, nloc, 0);
            // With a tally: reset those of the owner's rows before the first
            // batch, finish them after the last.
            auto forOwnRows =
                [&](Value when,
                    function_ref<void(OpBuilder &, Location, Value, Value)>
                        body) {
                  auto ifOp = scf::IfOp::create(nb, nloc, when, false);
                  OpBuilder::InsertionGuard guard(nb);
                  nb.setInsertionPointToStart(ifOp.thenBlock());
                  Value end = nb.createOrFold<arith::ShLIOp>(
                      nloc, range.second, shift);
                  Value hi = minIndex(nb, nloc, end, s.numRows);
                  Value lo = minIndex(nb, nloc, rowLo, hi);
                  scf::ForOp::create(
                      nb, nloc, lo, hi, one, ValueRange{},
                      [&](OpBuilder &lb, Location lloc, Value row, ValueRange) {
                        Value local =
                            lb.createOrFold<arith::SubIOp>(lloc, row, lo);
                        body(lb, lloc, row, local);
                        scf::YieldOp::create(lb, lloc);
                      });
                };
            if (s.tally)
              forOwnRows(isFirst, [&](OpBuilder &lb, Location lloc, Value row,
                                      Value) {
                resetTally(lb, lloc, *s.tally, row);
              });
            auto applyRow = [&](OpBuilder &lb, Location lloc, Value e,
                                Value row) {
              applyEntry(lb, lloc, s, slice, updates, e, row, rowLo, colLo,
                         s.rowSize);
            };
            auto ifOp = scf::IfOp::create(nb, nloc, bucketed, true);
            OpBuilder::InsertionGuard guard(nb);
            nb.setInsertionPointToStart(ifOp.thenBlock());
            // The owner's blocks, each bucket in order.
            scf::ForOp::create(
                nb, nloc, range.first, range.second, one, ValueRange{},
                [&](OpBuilder &kb, Location kloc, Value block, ValueRange) {
                  Value blockStart =
                      kb.createOrFold<arith::ShLIOp>(kloc, block, shift);
                  Value from = memref::LoadOp::create(kb, kloc, starts, block);
                  Value blockNext =
                      kb.createOrFold<arith::AddIOp>(kloc, block, one);
                  Value to = memref::LoadOp::create(kb, kloc, starts, blockNext);
                  scf::ForOp::create(
                      kb, kloc, from, to, one, ValueRange{},
                      [&](OpBuilder &lb, Location lloc, Value i, ValueRange) {
                        Value narrow =
                            memref::LoadOp::create(lb, lloc, rowInBlock, i);
                        Value inBlock = lb.createOrFold<arith::IndexCastUIOp>(
                            lloc, index, narrow);
                        Value row = lb.createOrFold<arith::AddIOp>(
                            lloc, blockStart, inBlock);
                        Value carried =
                            memref::LoadOp::create(lb, lloc, payload, i);
                        if (!carriesValues) {
                          Value number = lb.createOrFold<arith::IndexCastUIOp>(
                              lloc, index, carried);
                          Value e =
                              lb.createOrFold<arith::AddIOp>(lloc, first, number);
                          applyRow(lb, lloc, e, row);
                          scf::YieldOp::create(lb, lloc);
                          return;
                        }
                        Value local =
                            lb.createOrFold<arith::SubIOp>(lloc, row, rowLo);
                        if (s.tally) {
                          applyTallied(lb, lloc, *s.tally, slice,
                                       ValueRange{local}, row, carried);
                        } else {
                          SmallVector<Value> at = {local};
                          if (!s.oneD)
                            at.push_back(constIndex(lb, lloc, 0));
                          Value value = carried;
                          if (s.reduction != ReductionKind::None) {
                            Value old =
                                memref::LoadOp::create(lb, lloc, slice, at);
                            value = combine(lb, lloc, s.reduction, old, value);
                          }
                          memref::StoreOp::create(lb, lloc, value, slice, at);
                        }
                        scf::YieldOp::create(lb, lloc);
                      });
                  scf::YieldOp::create(kb, kloc);
                });
            if (check) {
              Value no = constBool(nb, nloc, false);
              memref::StoreOp::create(nb, nloc, no, flags, t);
            }
            // One block: every entry, as read from the indices.
            nb.setInsertionPointToStart(ifOp.elseBlock());
            applyAllEntriesChecked(nb, nloc, s, check, inPlace, flags, t,
                                   applyRow);
            nb.setInsertionPointAfter(ifOp);
            if (s.tally)
              forOwnRows(isLast, [&](OpBuilder &lb, Location lloc, Value row,
                                     Value local) {
                finishTally(lb, lloc, *s.tally, slice, ValueRange{local}, row);
              });
          });
    };
    Value updated = buildIf(ab, aloc, ok, current.getType(), apply,
                            [&](OpBuilder &, Location) { return current; });
    return {updated, ok};
  };

  // The batches, in order (nothing runs when the pre-check failed); one
  // block takes every entry at once.
  Value runs = b.createOrFold<arith::SelectOp>(
      loc, bucketed, batches, minIndex(b, loc, batches, one));
  runs = b.createOrFold<arith::SelectOp>(loc, preOk, runs, zero);
  Value yes = constBool(b, loc, true);
  auto loop = scf::ForOp::create(
      b, loc, zero, runs, one, ValueRange{dest, yes},
      [&](OpBuilder &nb, Location nloc, Value batchIndex, ValueRange carried) {
        std::pair<Value, Value> done =
            applyBatch(nb, nloc, batchIndex, carried[0]);
        Value ok = nb.createOrFold<arith::AndIOp>(nloc, carried[1], done.second);
        scf::YieldOp::create(nb, nloc, ValueRange{done.first, ok});
      });
  Value result = loop.getResult(0);
  if (check) {
    // One report for a failed pre-check, count or partition, or for entries
    // into a destination without rows (whose owner never runs).
    Value counted = b.createOrFold<arith::AndIOp>(loc, preOk, loop.getResult(1));
    auto failed = scf::IfOp::create(
        b, loc, counted,
        [&](OpBuilder &nb, Location nloc) {
          Value noRows = nb.createOrFold<arith::CmpIOp>(
              nloc, arith::CmpIPredicate::eq, s.numRows, zero);
          Value someEntries = nb.createOrFold<arith::CmpIOp>(
              nloc, arith::CmpIPredicate::ne, s.numEntries, zero);
          Value lost =
              nb.createOrFold<arith::AndIOp>(nloc, noRows, someEntries);
          Value any = anyFlag(nb, nloc, flags, owners);
          scf::YieldOp::create(nb, nloc, orBool(nb, nloc, lost, any));
        },
        [&](OpBuilder &nb, Location nloc) {
          scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
        });
    reportUnless(b, loc, notBool(b, loc, failed.getResult(0)),
                 [&](OpBuilder &nb, Location nloc) {
                   Value indices = flatReadBuffer(nb, nloc, s.indices);
                   s.reportFirstBad(nb, nloc, indices);
                 });
  }
  return result;
}

/// Column partitions: every partition applies every entry to its columns
/// (aligned to vectors) of `dest` (`[rows, rowSize]`).
static Value scatterByColumns(OpBuilder &b, Location loc, LoweringState &state,
                              const RowScatter &s, Value dest,
                              Value dataPointer, Value parts) {
  bool check = checksIndices(state, s);
  auto destType = cast<RankedTensorType>(dest.getType());
  Type elementType = destType.getElementType();
  Value one = constIndex(b, loc, 1);
  int64_t align =
      isVectorizable(elementType) ? vectorLength(elementType) : int64_t(1);
  Value alignValue = constIndex(b, loc, align);
  Value perPart = ceilDiv(b, loc, s.rowSize, parts);
  Value width = b.createOrFold<arith::MulIOp>(
      loc, ceilDiv(b, loc, perPart, alignValue), alignValue);
  width = maxIndex(b, loc, width, one);
  Value used = ceilDiv(b, loc, s.rowSize, width);
  auto columns = [&](OpBuilder &nb, Location nloc, Value p) {
    Value start = nb.createOrFold<arith::MulIOp>(nloc, p, width);
    Value lo = minIndex(nb, nloc, start, s.rowSize);
    Value end = nb.createOrFold<arith::AddIOp>(nloc, lo, width);
    Value hi = minIndex(nb, nloc, end, s.rowSize);
    return std::make_pair(lo, hi);
  };
  Value flags;
  if (check)
    flags = allocScratch(b, loc, b.getI1Type(), used);
  Value updated = buildPartitionedUpdate(
      b, loc, dest, dataPointer, used, rowSliceType(s, dest),
      [&](OpBuilder &nb, Location nloc, Value p) {
        std::pair<Value, Value> cols = columns(nb, nloc, p);
        Value cut =
            nb.createOrFold<arith::SubIOp>(nloc, cols.second, cols.first);
        SliceRegion region;
        region.offsets = {nb.getIndexAttr(0), cols.first};
        region.sizes = {s.numRows, cut};
        return region;
      },
      [&](OpBuilder &nb, Location nloc, Value p, Value slice, Value inPlace) {
        Value updates = flatReadBuffer(nb, nloc, s.updates);
        std::pair<Value, Value> cols = columns(nb, nloc, p);
        Value cut =
            nb.createOrFold<arith::SubIOp>(nloc, cols.second, cols.first);
        Value zero = constIndex(nb, nloc, 0);
        applyAllEntriesChecked(
            nb, nloc, s, check, inPlace, flags, p,
            [&](OpBuilder &lb, Location lloc, Value e, Value row) {
              applyEntry(lb, lloc, s, slice, updates, e, row, zero, cols.first,
                         cut);
            });
      });
  if (check)
    reportFailedPartitions(b, loc, s, flags, used);
  return updated;
}

/// The partition counts of a row scatter and the scatter itself on `data`
/// viewed through `groups` (as `[rows, slice]`, or `[rows]` when `oneD`).
static Value scatterRows(OpBuilder &b, Location loc, LoweringState &state,
                         Operation *op, RowScatter &s, Value data,
                         Value dataPointer,
                         ArrayRef<ReassociationIndices> groups) {
  Value k = constIndex(b, loc, s.bounds.size());
  Value indexWork = b.createOrFold<arith::MulIOp>(loc, s.numEntries, k);
  Value chunks = state.numPartitions(b, loc, op, indexWork, s.numEntries);
  Value work = b.createOrFold<arith::MulIOp>(loc, s.numEntries, s.rowSize);
  Value dest = collapse(b, loc, data, groups);
  std::optional<int64_t> staticRow = getConstantIntValue(s.rowSize);
  bool wide = !s.oneD && (!staticRow || *staticRow >= kMinSplitColumns);
  Value updated;
  if (wide) {
    Value maxParts =
        ceilDiv(b, loc, s.rowSize, constIndex(b, loc, kMinSplitColumns));
    Value parts = state.numPartitions(b, loc, op, work, maxParts);
    updated = scatterByColumns(b, loc, state, s, dest, dataPointer, parts);
  } else {
    Value parts = state.numPartitions(b, loc, op, work, s.numRows);
    updated = scatterByRowOwners(b, loc, state, op, s, dest, dataPointer, parts,
                                 chunks);
  }
  return expandLike(b, loc, updated, data, groups);
}

//===----------------------------------------------------------------------===//
// scatter_nd
//===----------------------------------------------------------------------===//

/// Entries are the index tuples; each updates a slice of `data` (a row of
/// `data` seen as `[prod(shape[:k]), prod(shape[k:])]`).
struct ScatterNDLowering : public NdLoweringPattern<ScatterNDOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = op.getData().getType();
    auto updatesType = op.getUpdates().getType();
    int64_t r = dataType.getRank();
    int64_t q = op.getIndices().getType().getRank();
    int64_t k = op.getIndexDepth();
    if (!isSupportedReduction(op.getReduction(), dataType.getElementType()))
      return rewriter.notifyMatchFailure(
          op, "reduction is not supported for this element type");
    // OpenVINO: one element for a 0-D slice, at any rank of all-ones dims.
    bool singleElement = k == r && q == 1 && updatesType.getRank() != 0;
    // The caller's data buffer, to tell an in-place update from a copy.
    Value dataPointer = basePointer(rewriter, op.getLoc(), adaptor.getData());
    SmallVector<Value> operands = {adaptor.getData(), adaptor.getIndices(),
                                   adaptor.getUpdates(), dataPointer};
    state->outline(rewriter, op, operands,
                   [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                     Value data = args[0], indices = args[1], updates = args[2];
                     LoweringState::CheckChain chain(*state, b, loc, op);
                     state->checkIndexDepth(chain, indices, k);
                     if (!singleElement) {
                       for (int64_t d = 0; d < q - 1; ++d)
                         state->checkDims(chain, updates, "updates", d, indices,
                                          "indices", d);
                       for (int64_t d = k; d < r; ++d)
                         state->checkDims(chain, updates, "updates",
                                          q - 1 + d - k, data, "data", d);
                     }
                     return buildIf(
                         b, loc, chain.ok(), dataType,
                         [&](OpBuilder &nb, Location nloc) {
                           return scatter(nb, nloc, op, data, indices, updates,
                                          args[3], r, q, k);
                         },
                         [&](OpBuilder &, Location) { return data; });
                   });
    return success();
  }

private:
  Value scatter(OpBuilder &b, Location loc, ScatterNDOp op, Value data,
                Value indices, Value updates, Value dataPointer, int64_t r,
                int64_t q, int64_t k) const {
    auto space = std::make_shared<TupleSpace>();
    space->oob = op.getOob();
    space->sizes = dimValues(b, loc, data, 0, k);
    space->strides = rowMajorStrides(b, loc, space->sizes);

    RowScatter s;
    s.numRows = product(b, loc, space->sizes);
    s.rowSize = product(b, loc, dimValues(b, loc, data, k, r));
    s.numEntries = product(b, loc, dimValues(b, loc, indices, 0, q - 1));
    s.updates = updates;
    s.indices = indices;
    s.reduction = op.getReduction();
    s.oob = op.getOob();
    s.oneD = k == r;
    for (Value size : space->sizes)
      s.bounds.push_back(rangeBound(b, loc, size));
    s.readEntry = [space](OpBuilder &nb, Location nloc, Value flat,
                          Value e) -> EntryRow {
      Tuple tuple = readTuple(nb, nloc, flat, e, *space);
      return {tuple.row, tuple.shifted, tuple.skip};
    };
    Value numEntries = s.numEntries;
    LoweringState *state = this->state.get();
    s.reportFirstBad = [state, op, space,
                        numEntries](OpBuilder &nb, Location nloc, Value flat) {
      reportFirstBadTuple(*state, nb, nloc, op, flat, numEntries, *space);
    };

    // A dim of static size 0 leaves nothing to write; the indices are still
    // checked (under oob<error>).
    if (llvm::is_contained(op.getData().getType().getShape(), 0)) {
      if (!checksIndices(*state, s))
        return data;
      Value chunks = state->numPartitions(b, loc, op, s.numEntries);
      Value ok = forEachEntryChecked(
          b, loc, s, chunks, state->checksEnabled(),
          [](OpBuilder &, Location, Value) {},
          [](OpBuilder &, Location, Value, const EntryRow &, Value) {});
      reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
        Value flat = flatReadBuffer(nb, nloc, indices);
        s.reportFirstBad(nb, nloc, flat);
      });
      return data;
    }
    // The destination as [rows, slice] (or [rows]).
    SmallVector<ReassociationIndices> groups(1);
    for (int64_t d = 0; d < k; ++d)
      groups[0].push_back(d);
    if (k < r) {
      groups.emplace_back();
      for (int64_t d = k; d < r; ++d)
        groups[1].push_back(d);
    }
    return scatterRows(b, loc, *state, op, s, data, dataPointer, groups);
  }
};

//===----------------------------------------------------------------------===//
// scatter_elements
//===----------------------------------------------------------------------===//

/// Positions that differ off the axis never collide: partitions own ranges
/// of dim 0 (or of the last dim when the axis is 0) and walk their positions
/// in row-major order. Where every dim but the axis is 1, the axis is cut
/// among row owners instead.
struct ScatterElementsLowering : public NdLoweringPattern<ScatterElementsOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto dataType = op.getData().getType();
    int64_t axis = op.getNormalizedAxis();
    int64_t r = dataType.getRank();
    if (!isSupportedReduction(op.getReduction(), dataType.getElementType()))
      return rewriter.notifyMatchFailure(
          op, "reduction is not supported for this element type");
    // The caller's data buffer, to tell an in-place update from a copy.
    Value dataPointer = basePointer(rewriter, op.getLoc(), adaptor.getData());
    SmallVector<Value> operands = {adaptor.getData(), adaptor.getIndices(),
                                   adaptor.getUpdates(), dataPointer};
    state->outline(rewriter, op, operands,
                   [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
                     Value data = args[0], indices = args[1], updates = args[2];
                     LoweringState::CheckChain chain(*state, b, loc, op);
                     for (int64_t d = 0; d < r; ++d)
                       state->checkDims(chain, updates, "updates", d, indices,
                                        "indices", d);
                     for (int64_t d = 0; d < r; ++d) {
                       if (d != axis)
                         state->checkDims(chain, indices, "indices", d, data,
                                          "data", d,
                                          /*atMost=*/true);
                     }
                     return buildIf(
                         b, loc, chain.ok(), dataType,
                         [&](OpBuilder &nb, Location nloc) {
                           return scatter(nb, nloc, op, data, indices, updates,
                                          args[3], axis);
                         },
                         [&](OpBuilder &, Location) { return data; });
                   });
    return success();
  }

private:
  Value scatter(OpBuilder &b, Location loc, ScatterElementsOp op, Value data,
                Value indices, Value updates, Value dataPointer,
                int64_t axis) const {
    bool check = state->checksEnabled() && op.getOob() == OobMode::Error;
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t r = dataType.getRank();
    Value indicesFlat = flatReadBuffer(b, loc, indices);
    SmallVector<Value> indexDims = dimValues(b, loc, indices, 0, r);
    Value count = product(b, loc, indexDims);
    Value size = dimValue(b, loc, data, axis);

    // A dim of static size 0 leaves nothing to write (and no slice to give a
    // partition); under oob<error> the indices are still checked: with an
    // empty axis every one is out of range, with another empty dim there is
    // none.
    if (llvm::is_contained(dataType.getShape(), 0)) {
      if (check) {
        Value zero = constIndex(b, loc, 0);
        Value bound = rangeBound(b, loc, size);
        Value any = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                                  count, zero);
        Value outside =
            maxShifted(b, loc, indicesFlat, zero, count, size, bound);
        Value bad = b.createOrFold<arith::AndIOp>(loc, any, outside);
        reportUnless(b, loc, notBool(b, loc, bad),
                     [&](OpBuilder &nb, Location nloc) {
                       reportFirstBadElement(*state, nb, nloc, op, indicesFlat,
                                             count, size, axis);
                     });
      }
      return data;
    }

    std::optional<ElementTally> tally;
    if (needsTally(op)) {
      Value numElements = product(b, loc, dimValues(b, loc, data, 0, r));
      tally = allocateTally(b, loc, op, numElements);
    }
    const ElementTally *tallyPtr = tally ? &*tally : nullptr;

    // Off-axis dims all statically 1: the positions are the axis.
    bool alongAxis = llvm::all_of(llvm::seq<int64_t>(0, r), [&](int64_t d) {
      return d == axis || dataType.getDimSize(d) == 1;
    });
    if (alongAxis)
      return scatterAlongAxis(b, loc, op, data, indices, updates, dataPointer,
                              count, size, tallyPtr);

    auto applyAll = [&](OpBuilder &nb, Location nloc) {
      return applyByFibers(nb, nloc, op, data, indices, updates, dataPointer,
                           indexDims, count, size, axis, tallyPtr);
    };
    if (!check)
      return applyAll(b, loc);
    // Every index is checked before anything is written, by a parallel pass
    // over contiguous ranges of the indices (one vectorised maximum each),
    // and the fibers then update unchecked: their elements land at random,
    // where a check fused into the walk costs a compare and a select per
    // random access (workload f: 25 to 35 %), and a check per partition of
    // its own columns reads every line of the indices once per partition.
    Value chunks = state->numPartitions(b, loc, op, count, count);
    Value bound = rangeBound(b, loc, size);
    Value flags = allocScratch(b, loc, b.getI1Type(), chunks);
    buildParallel(b, loc, chunks, [&](OpBuilder &nb, Location nloc, Value c) {
      std::pair<Value, Value> range = partRange(nb, nloc, count, chunks, c);
      Value bad = maxShifted(nb, nloc, indicesFlat, range.first, range.second,
                             size, bound);
      // An empty range checks nothing (its maximum, 0, is out of range for
      // an empty axis).
      Value any = nb.createOrFold<arith::CmpIOp>(
          nloc, arith::CmpIPredicate::ult, range.first, range.second);
      bad = nb.createOrFold<arith::AndIOp>(nloc, bad, any);
      memref::StoreOp::create(nb, nloc, bad, flags, c);
    });
    Value ok = notBool(b, loc, anyFlag(b, loc, flags, chunks));
    reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
      reportFirstBadElement(*state, nb, nloc, op, indicesFlat, count, size,
                            axis);
    });
    return buildIf(b, loc, ok, dataType, applyAll,
                   [&](OpBuilder &, Location) { return data; });
  }

  /// The partitioned walk over the positions of indices, which checks
  /// nothing: under oob<error> the caller has checked every index.
  Value applyByFibers(OpBuilder &b, Location loc, ScatterElementsOp op,
                      Value data, Value indices, Value updates,
                      Value dataPointer, ArrayRef<Value> indexDims, Value count,
                      Value size, int64_t axis,
                      const ElementTally *tally) const {
    OobMode oob = op.getOob();
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t r = dataType.getRank();
    ReductionKind reduction = op.getReduction();
    Value zero = constIndex(b, loc, 0);
    Value one = constIndex(b, loc, 1);
    // Split dim 0 unless it is the axis; then the last dim.
    int64_t split = axis != 0 ? 0 : r - 1;
    Value extent = indexDims[split];
    Value parts = state->numPartitions(b, loc, op, count, extent);
    Value perSlab = b.createOrFold<arith::DivUIOp>(
        loc, count, maxIndex(b, loc, extent, one));
    SmallVector<Value> dataStrides;
    if (tally)
      dataStrides = rowMajorStrides(b, loc, dimValues(b, loc, data, 0, r));
    MemRefType sliceType =
        sliceMemRefType(dataType.getElementType(),
                        SmallVector<int64_t>(r, ShapedType::kDynamic),
                        /*contiguousRows=*/false);
    auto range = [&](OpBuilder &nb, Location nloc, Value p) {
      return partRange(nb, nloc, extent, parts, p);
    };
    return buildPartitionedUpdate(
        b, loc, data, dataPointer, parts, sliceType,
        [&](OpBuilder &nb, Location nloc, Value p) {
          std::pair<Value, Value> bounds = range(nb, nloc, p);
          Value lo = bounds.first, hi = bounds.second;
          SliceRegion region;
          for (int64_t d = 0; d < r; ++d) {
            if (d == split) {
              region.offsets.push_back(lo);
              region.sizes.push_back(
                  nb.createOrFold<arith::SubIOp>(nloc, hi, lo));
              continue;
            }
            region.offsets.push_back(nb.getIndexAttr(0));
            region.sizes.push_back(tensor::getMixedSize(nb, nloc, data, d));
          }
          return region;
        },
        [&](OpBuilder &nb, Location nloc, Value p, Value slice, Value inPlace) {
          // Read where they are used (see RowScatter::updates).
          Value indicesFlat = flatReadBuffer(nb, nloc, indices);
          Value updatesFlat = flatReadBuffer(nb, nloc, updates);
          std::pair<Value, Value> bounds = range(nb, nloc, p);
          Value lo = bounds.first, hi = bounds.second;
          Value flatLo = zero, flatHi = count, colLo = zero,
                colHi = indexDims.back();
          if (split == 0) {
            flatLo = nb.createOrFold<arith::MulIOp>(nloc, lo, perSlab);
            flatHi = nb.createOrFold<arith::MulIOp>(nloc, hi, perSlab);
          } else {
            colLo = lo;
            colHi = hi;
          }
          // One walk over the partition's positions: `visit(pos, at,
          // flat)` for each that is not skipped, with `at` its coordinates
          // in the slice and `flat` its flat position in data (with a
          // tally).
          using Visit = function_ref<void(OpBuilder &, Location, Value,
                                          ArrayRef<Value>, Value)>;
          auto walkWith = [&](OpBuilder &wb, Location wloc, Visit visit) {
            walkPositions(
                wb, wloc, indexDims, flatLo, flatHi, colLo, colHi, ValueRange{},
                [&](OpBuilder &eb, Location eloc, ArrayRef<Value> coords,
                    Value pos, ValueRange) -> SmallVector<Value> {
                  Value raw = loadIndex(eb, eloc, indicesFlat, pos);
                  auto [normalized, skip] =
                      resolveOrSkip(eb, eloc, oob, raw, size);
                  SmallVector<Value> at(coords);
                  at[axis] = normalized;
                  Value flat;
                  if (tally) {
                    flat = constIndex(eb, eloc, 0);
                    for (int64_t d = 0; d < r; ++d) {
                      Value term = eb.createOrFold<arith::MulIOp>(
                          eloc, at[d], dataStrides[d]);
                      flat = eb.createOrFold<arith::AddIOp>(eloc, flat, term);
                    }
                  }
                  at[split] =
                      eb.createOrFold<arith::SubIOp>(eloc, at[split], lo);
                  unlessSkipped(eb, eloc, skip,
                                [&](OpBuilder &sb, Location sloc) {
                                  visit(sb, sloc, pos, at, flat);
                                });
                  return {};
                });
          };
          auto apply = [&](OpBuilder &sb, Location sloc, Value pos,
                           ArrayRef<Value> at, Value flat) {
            Value value =
                memref::LoadOp::create(sb, sloc, updatesFlat, ValueRange{pos});
            if (tally) {
              applyTallied(sb, sloc, *tally, slice, at, flat, value);
              return;
            }
            if (reduction != ReductionKind::None) {
              Value current = memref::LoadOp::create(sb, sloc, slice, at);
              value = combine(sb, sloc, reduction, current, value);
            }
            memref::StoreOp::create(sb, sloc, value, slice, at);
          };
          // With a tally: reset the tallies of the partition's elements,
          // apply, then finish them.
          if (tally)
            walkWith(nb, nloc,
                     [&](OpBuilder &sb, Location sloc, Value, ArrayRef<Value>,
                         Value flat) { resetTally(sb, sloc, *tally, flat); });
          walkWith(nb, nloc, apply);
          if (tally && tally->reduction == ReductionKind::Mean)
            walkWith(nb, nloc,
                     [&](OpBuilder &sb, Location sloc, Value,
                         ArrayRef<Value> at, Value flat) {
                       finishTally(sb, sloc, *tally, slice, at, flat);
                     });
        });
  }

  /// Every off-axis dim is 1: row owners over the axis positions.
  Value scatterAlongAxis(OpBuilder &b, Location loc, ScatterElementsOp op,
                         Value data, Value indices, Value updates,
                         Value dataPointer, Value count, Value size,
                         const ElementTally *tally) const {
    int64_t r = cast<RankedTensorType>(data.getType()).getRank();
    int64_t axis = op.getNormalizedAxis();
    RowScatter s;
    s.numEntries = count;
    s.numRows = size;
    s.rowSize = constIndex(b, loc, 1);
    s.updates = updates;
    s.indices = indices;
    s.reduction = op.getReduction();
    s.oob = op.getOob();
    s.tally = tally;
    s.oneD = true;
    s.bounds.push_back(rangeBound(b, loc, size));
    OobMode oob = s.oob;
    s.readEntry = [size, oob](OpBuilder &nb, Location nloc, Value flat,
                              Value e) -> EntryRow {
      Value raw = loadIndex(nb, nloc, flat, e);
      auto [row, skip] = resolveOrSkip(nb, nloc, oob, raw, size);
      if (skip)
        row = clampIfBad(nb, nloc, skip, row);
      Value shifted = nb.createOrFold<arith::AddIOp>(nloc, raw, size);
      return {row, {shifted}, skip};
    };
    LoweringState *state = this->state.get();
    s.reportFirstBad = [state, op, count, size,
                        axis](OpBuilder &nb, Location nloc, Value flat) {
      reportFirstBadElement(*state, nb, nloc, op, flat, count, size, axis);
    };
    SmallVector<ReassociationIndices> groups(1);
    for (int64_t d = 0; d < r; ++d)
      groups[0].push_back(d);
    return scatterRows(b, loc, *state, op, s, data, dataPointer, groups);
  }
};
} // namespace

void mlir::nd::populateNdToLinalgPatterns(RewritePatternSet &patterns,
                                          const NdLoweringOptions &options) {
  auto state = std::make_shared<LoweringState>(options.checkBounds,
                                               options.parallelGrain);
  patterns.add<GatherNDLowering, GatherElementsLowering, ScatterNDLowering,
               ScatterElementsLowering>(patterns.getContext(), state);
  populateGatherPatterns(patterns, state);
  populateTensorScatterPatterns(patterns, state);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct LowerScatterPass
    : public mlir::nd::impl::LowerScatterBase<LowerScatterPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    NdLoweringOptions options;
    options.checkBounds = checkBounds;
    options.parallelGrain = grain;
    populateNdToLinalgPatterns(patterns, options);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<NdDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
