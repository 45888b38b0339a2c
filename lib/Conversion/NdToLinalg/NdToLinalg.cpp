//===- NdToLinalg.cpp - lower nd ops to upstream dialects -------*- C++ -*-===//
//
// Lowers scatter_nd, gather_nd, scatter_elements and gather_elements (under
// oob<error>, every reduction but mean) to tensor, bufferization, memref,
// scf, vector, arith and complex ops, each op into a private function of its
// own (see LoweringSupport.h for the overall shape). What the dialect accepts
// but this lowering does not implement yet is reported by name.
//
// Preconditions: the ops verify. Dimensions the verifier could not compare
// (dynamic ones, a dynamic index depth) and every index value are checked at
// run time when bounds checking is on. A failed check calls
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
//   destination rows are cut into contiguous ranges, one owner each: a
//   parallel pass computes every entry's row (checking its index), counts
//   entries per (chunk, owner), a prefix sum gives offsets, entries are
//   bucketed stably and each owner applies exactly its entries in order.
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
#include "llvm/ADT/TypeSwitch.h"

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
// Index tuples of the ND ops
//===----------------------------------------------------------------------===//

namespace {
/// How the ND ops address data rows: the sizes of the `k` indexed dims and
/// their row-major strides.
struct TupleSpace {
  SmallVector<Value> sizes, strides;
  int64_t firstDataDim = 0;
};

/// One tuple as read: raw and normalized components, the linear row it
/// addresses (unchecked) and, per component, `raw + size`, which is below
/// `2 * size` (unsigned) exactly when the component is in range.
struct Tuple {
  SmallVector<Value> raw, normalized, shifted;
  Value row;
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
    Value normalized = normalizeIndex(b, loc, raw, space.sizes[j]);
    tuple.raw.push_back(raw);
    tuple.normalized.push_back(normalized);
    tuple.shifted.push_back(
        b.createOrFold<arith::AddIOp>(loc, raw, space.sizes[j]));
    Value term =
        b.createOrFold<arith::MulIOp>(loc, normalized, space.strides[j]);
    row = b.createOrFold<arith::AddIOp>(loc, row, term);
  }
  tuple.row = row;
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
        auto cols = scf::ForOp::create(
            nb, nloc, from, to, one, carried,
            [&](OpBuilder &cb, Location cloc, Value col, ValueRange inner) {
              coords[rank - 1] = col;
              Value q = cb.createOrFold<arith::AddIOp>(cloc, rowStart, col);
              SmallVector<Value> next = body(cb, cloc, coords, q, inner);
              scf::YieldOp::create(cb, cloc, next);
            });
        scf::YieldOp::create(nb, nloc, cols.getResults());
      });
  return SmallVector<Value>(rows.getResults());
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// What the lowering does not implement yet in `op`, as the end of an
/// error message; nothing when it lowers `op`.
static std::optional<std::string> unloweredFeature(Operation *op) {
  std::optional<OobMode> oob =
      llvm::TypeSwitch<Operation *, std::optional<OobMode>>(op)
          .Case<ScatterNDOp, GatherNDOp, ScatterElementsOp, GatherElementsOp>(
              [](auto ndOp) { return ndOp.getOob(); })
          .Default([](Operation *) { return std::nullopt; });
  if (oob && *oob != OobMode::Error)
    return ("oob<" + stringifyOobMode(*oob) + "> is not lowered yet").str();
  if (auto scatter = dyn_cast<ScatterElementsOp>(op)) {
    if (scatter.getReduction() == ReductionKind::Mean)
      return std::string("reduction<mean> is not lowered yet");
    if (!scatter.getUseInitVal() &&
        scatter.getReduction() != ReductionKind::None)
      return std::string("use_init_val(false) is not lowered yet");
  }
  return std::nullopt;
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
    if (std::optional<std::string> feature = unloweredFeature(op))
      return rewriter.notifyMatchFailure(op, *feature);
    auto resultType = cast<RankedTensorType>(op.getType());
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
    bool check = state->checksEnabled();
    auto resultType = cast<RankedTensorType>(op.getType());
    Value dataFlat = flatReadBuffer(b, loc, data);
    Value indicesFlat = flatReadBuffer(b, loc, indices);
    Allocation result = allocateResult(b, loc, resultType, resultSizes);

    TupleSpace space;
    space.firstDataDim = bDims;
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
    SmallVector<Value> rangeBounds;
    for (Value size : space.sizes)
      rangeBounds.push_back(rangeBound(b, loc, size));
    // Every tuple is out of range when an indexed dim is empty: nothing may
    // be read then.
    Value zero = constIndex(b, loc, 0);
    Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                rowsPerBatch, zero);
    auto gatherIf = scf::IfOp::create(
        b, loc, empty,
        [&](OpBuilder &nb, Location nloc) {
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
                      if (bDims > 0) {
                        Value batch = lb.createOrFold<arith::DivUIOp>(
                            lloc, t, tuplesPerBatch);
                        Value batchRow = lb.createOrFold<arith::MulIOp>(
                            lloc, batch, rowsPerBatch);
                        row =
                            lb.createOrFold<arith::AddIOp>(lloc, batchRow, row);
                      }
                      Value srcOffset =
                          lb.createOrFold<arith::MulIOp>(lloc, row, sliceSize);
                      Value dstOffset =
                          lb.createOrFold<arith::MulIOp>(lloc, t, sliceSize);
                      emitRowUpdate(lb, lloc, ReductionKind::None, result.flat,
                                    ValueRange{dstOffset}, dataFlat, srcOffset,
                                    sliceSize);
                      scf::YieldOp::create(lb, lloc,
                                           orBool(lb, lloc, acc[0], bad));
                    });
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
    if (std::optional<std::string> feature = unloweredFeature(op))
      return rewriter.notifyMatchFailure(op, *feature);
    auto resultType = cast<RankedTensorType>(op.getType());
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
    bool check = state->checksEnabled();
    auto resultType = cast<RankedTensorType>(op.getType());
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
    // Every index is out of range when the axis is empty: nothing may be
    // read then.
    Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                size, zero);
    auto gatherIf = scf::IfOp::create(
        b, loc, empty,
        [&](OpBuilder &nb, Location nloc) {
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
                SmallVector<Value> bad = walkPositions(
                    pb, ploc, indexDims, lo, hi, zero, indexDims.back(),
                    ValueRange{no},
                    [&](OpBuilder &eb, Location eloc, ArrayRef<Value> coords,
                        Value pos, ValueRange acc) -> SmallVector<Value> {
                      Value raw = loadIndex(eb, eloc, indicesFlat, pos);
                      Value normalized = normalizeIndex(eb, eloc, raw, size);
                      Value isBad = constBool(eb, eloc, false);
                      if (check) {
                        isBad = isOutOfRange(eb, eloc, normalized, size);
                        normalized = clampIfBad(eb, eloc, isBad, normalized);
                      }
                      Value offset = constIndex(eb, eloc, 0);
                      for (int64_t d = 0; d < rank; ++d) {
                        Value coord = d == axis ? normalized : coords[d];
                        Value term = eb.createOrFold<arith::MulIOp>(
                            eloc, coord, dataStrides[d]);
                        offset =
                            eb.createOrFold<arith::AddIOp>(eloc, offset, term);
                      }
                      Value value = memref::LoadOp::create(eb, eloc, dataFlat,
                                                           ValueRange{offset});
                      memref::StoreOp::create(eb, eloc, value, result.flat,
                                              ValueRange{pos});
                      return {orBool(eb, eloc, acc[0], isBad)};
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
// Row scatters (scatter_nd; scatter_elements along its only non-unit dim)
//===----------------------------------------------------------------------===//

namespace {
/// One entry of a row scatter as read from the indices: the destination row
/// (unchecked) and, per index component, `index + size` (see rangeBound).
struct EntryRow {
  Value row;
  SmallVector<Value> shifted;
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

/// A parallel pass over chunks of the entries: `prologue(c)` once per chunk,
/// then `body(e)` for every entry, and, with `check`, the per-component
/// maxima of `index + size` reduced into one flag per chunk. Returns whether
/// every entry is in range (true without `check`); reporting is the
/// caller's.
static Value forEachEntryChecked(
    OpBuilder &b, Location loc, const RowScatter &s, Value chunks, bool check,
    function_ref<void(OpBuilder &, Location, Value)> prologue,
    function_ref<void(OpBuilder &, Location, Value, const EntryRow &, Value)>
        body) {
  Value flags;
  if (check)
    flags = allocScratch(b, loc, b.getI1Type(), chunks);
  Value indices = flatReadBuffer(b, loc, s.indices);
  buildParallel(b, loc, chunks, [&](OpBuilder &nb, Location nloc, Value c) {
    prologue(nb, nloc, c);
    std::pair<Value, Value> range =
        partRange(nb, nloc, s.numEntries, chunks, c);
    Value lo = range.first, hi = range.second;
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
        applyRow(lb, lloc, e, row);
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

/// Name of the function shared by the row scatters of a module that buckets
/// their entries by owner once they are counted.
static constexpr StringLiteral kBucketEntriesFn = "__nd_bucket_entries";

/// The body of `__nd_bucket_entries(rows, counts, starts, bucket, numEntries,
/// chunks, owners, shift)`: `counts[c * owners + t]` holds the number of
/// entries of chunk `c` (a contiguous range of entries) whose row `rows[e]`
/// belongs to owner `t = rows[e] >> shift`. A prefix sum, owner-major then
/// chunk order, turns the counts into bucket slots (and `starts[t]` into the
/// first slot of owner `t`, `starts[owners]` into `numEntries`); a parallel
/// pass over the chunks then fills `bucket` with the entries, each owner's in
/// their original order.
static void buildBucketEntries(OpBuilder &b, Location loc, ValueRange args) {
  Value rows = args[0], counts = args[1], starts = args[2], bucket = args[3];
  Value numEntries = args[4], chunks = args[5], owners = args[6];
  Value shift = args[7];
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  auto prefix = scf::ForOp::create(
      b, loc, zero, owners, one, ValueRange{zero},
      [&](OpBuilder &nb, Location nloc, Value t, ValueRange running) {
        memref::StoreOp::create(nb, nloc, running[0], starts, t);
        auto chunkLoop = scf::ForOp::create(
            nb, nloc, zero, chunks, one, running,
            [&](OpBuilder &lb, Location lloc, Value c, ValueRange run) {
              Value base = lb.createOrFold<arith::MulIOp>(lloc, c, owners);
              Value at = lb.createOrFold<arith::AddIOp>(lloc, base, t);
              Value n = memref::LoadOp::create(lb, lloc, counts, at);
              memref::StoreOp::create(lb, lloc, run[0], counts, at);
              Value next = lb.createOrFold<arith::AddIOp>(lloc, run[0], n);
              scf::YieldOp::create(lb, lloc, next);
            });
        scf::YieldOp::create(nb, nloc, chunkLoop.getResults());
      });
  memref::StoreOp::create(b, loc, prefix.getResult(0), starts, owners);
  buildParallel(b, loc, chunks, [&](OpBuilder &nb, Location nloc, Value c) {
    Value base = nb.createOrFold<arith::MulIOp>(nloc, c, owners);
    std::pair<Value, Value> range = partRange(nb, nloc, numEntries, chunks, c);
    scf::ForOp::create(
        nb, nloc, range.first, range.second, one, ValueRange{},
        [&](OpBuilder &lb, Location lloc, Value e, ValueRange) {
          Value row = memref::LoadOp::create(lb, lloc, rows, e);
          Value owner = lb.createOrFold<arith::ShRUIOp>(lloc, row, shift);
          Value at = lb.createOrFold<arith::AddIOp>(lloc, base, owner);
          Value slot = memref::LoadOp::create(lb, lloc, counts, at);
          memref::StoreOp::create(lb, lloc, e, bucket, slot);
          Value next = lb.createOrFold<arith::AddIOp>(lloc, slot, one);
          memref::StoreOp::create(lb, lloc, next, counts, at);
          scf::YieldOp::create(lb, lloc);
        });
  });
  func::ReturnOp::create(b, loc);
}

/// Row owners: `ownerParts` partitions own contiguous ranges of 2^shift rows.
/// With more than one owner, a counting pass (which also checks the indices
/// and records every entry's row), a prefix sum and a filling pass bucket
/// the entries by owner in a stable order, and each owner applies exactly its
/// entries; with one, a check pass runs and the owner applies every entry.
/// Returns the updated `dest`, or `dest` itself when a check fails.
static Value scatterByRowOwners(OpBuilder &b, Location loc,
                                LoweringState &state, Operation *op,
                                const RowScatter &s, Value dest,
                                Value dataPointer, Value ownerParts,
                                Value chunks) {
  bool check = state.checksEnabled();
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value rowsPerOwner =
      ceilDiv(b, loc, maxIndex(b, loc, s.numRows, one), ownerParts);
  Value shift = ceilLog2(b, loc, rowsPerOwner);
  Value span = b.createOrFold<arith::ShLIOp>(loc, one, shift);
  Value owners = ceilDiv(b, loc, maxIndex(b, loc, s.numRows, one), span);
  Value bucketed = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt,
                                                 owners, one);
  auto sized = [&](Value n) -> Value {
    return b.createOrFold<arith::SelectOp>(loc, bucketed, n, zero);
  };

  // rows[e]: the row of entry e; counts[c * owners + t]: entries of chunk c
  // owned by t, then the next bucket slot of each; starts[t]: first bucket
  // slot of owner t; bucket: the entries, owner by owner, in order.
  Value countSize = b.createOrFold<arith::MulIOp>(loc, chunks, owners);
  Value ownersPlusOne = b.createOrFold<arith::AddIOp>(loc, owners, one);
  Value rows = allocScratch(b, loc, b.getIndexType(), sized(s.numEntries));
  Value counts = allocScratch(b, loc, b.getIndexType(), sized(countSize));
  Value starts = allocScratch(b, loc, b.getIndexType(), sized(ownersPlusOne));
  Value bucket = allocScratch(b, loc, b.getIndexType(), sized(s.numEntries));

  auto countRow = [&](OpBuilder &nb, Location nloc, Value c) -> Value {
    return nb.createOrFold<arith::MulIOp>(nloc, c, owners);
  };
  auto checked = scf::IfOp::create(
      b, loc, bucketed,
      [&](OpBuilder &nb, Location nloc) {
        // Count (zeroing the chunk's counts first), check, record the rows.
        Value ok = forEachEntryChecked(
            nb, nloc, s, chunks, check,
            [&](OpBuilder &pb, Location ploc, Value c) {
              Value base = countRow(pb, ploc, c);
              scf::ForOp::create(
                  pb, ploc, zero, owners, one, ValueRange{},
                  [&](OpBuilder &lb, Location lloc, Value t, ValueRange) {
                    Value at = lb.createOrFold<arith::AddIOp>(lloc, base, t);
                    memref::StoreOp::create(lb, lloc, zero, counts, at);
                    scf::YieldOp::create(lb, lloc);
                  });
            },
            [&](OpBuilder &lb, Location lloc, Value e, const EntryRow &entry,
                Value c) {
              // A bad entry's row may be anything: keep it in range until
              // the check fails the whole op.
              Value row = minIndex(
                  lb, lloc, entry.row,
                  lb.createOrFold<arith::SubIOp>(lloc, s.numRows, one));
              memref::StoreOp::create(lb, lloc, row, rows, e);
              Value owner = lb.createOrFold<arith::ShRUIOp>(lloc, row, shift);
              Value base = countRow(lb, lloc, c);
              Value at = lb.createOrFold<arith::AddIOp>(lloc, base, owner);
              Value n = memref::LoadOp::create(lb, lloc, counts, at);
              Value n1 = lb.createOrFold<arith::AddIOp>(lloc, n, one);
              memref::StoreOp::create(lb, lloc, n1, counts, at);
            });
        scf::YieldOp::create(nb, nloc, ok);
      },
      [&](OpBuilder &nb, Location nloc) {
        // One owner checks in its partition (see applyAllEntriesChecked).
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
      });
  Value ok = checked.getResult(0);

  Value flags;
  if (check)
    flags = allocScratch(b, loc, b.getI1Type(), owners);
  auto apply = [&](OpBuilder &ab, Location aloc) -> Value {
    auto fill = scf::IfOp::create(ab, aloc, bucketed, false);
    {
      OpBuilder::InsertionGuard guard(ab);
      ab.setInsertionPointToStart(fill.thenBlock());
      Type index = ab.getIndexType();
      auto scratch = MemRefType::get({ShapedType::kDynamic}, index);
      auto type = ab.getFunctionType(
          {scratch, scratch, scratch, scratch, index, index, index, index}, {});
      state.callShared(
          ab, aloc, op, kBucketEntriesFn, type,
          {rows, counts, starts, bucket, s.numEntries, chunks, owners, shift},
          buildBucketEntries);
    }
    Value updated = buildPartitionedUpdate(
        ab, aloc, dest, dataPointer, owners, rowSliceType(s, dest),
        [&](OpBuilder &nb, Location nloc, Value t) {
          Value lo = nb.createOrFold<arith::ShLIOp>(nloc, t, shift);
          Value end = nb.createOrFold<arith::AddIOp>(nloc, lo, span);
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
        [&](OpBuilder &nb, Location nloc, Value t, Value slice, Value inPlace) {
          Value updates = flatReadBuffer(nb, nloc, s.updates);
          Value rowLo = nb.createOrFold<arith::ShLIOp>(nloc, t, shift);
          Value colLo = constIndex(nb, nloc, 0);
          auto applyRow = [&](OpBuilder &lb, Location lloc, Value e,
                              Value row) {
            applyEntry(lb, lloc, s, slice, updates, e, row, rowLo, colLo,
                       s.rowSize);
          };
          auto ifOp = scf::IfOp::create(nb, nloc, bucketed, true);
          OpBuilder::InsertionGuard guard(nb);
          nb.setInsertionPointToStart(ifOp.thenBlock());
          // Rows recorded and checked by the counting pass.
          Value first = memref::LoadOp::create(nb, nloc, starts, t);
          Value tNext = nb.createOrFold<arith::AddIOp>(nloc, t, one);
          Value last = memref::LoadOp::create(nb, nloc, starts, tNext);
          scf::ForOp::create(
              nb, nloc, first, last, one, ValueRange{},
              [&](OpBuilder &lb, Location lloc, Value i, ValueRange) {
                Value e = memref::LoadOp::create(lb, lloc, bucket, i);
                Value row = memref::LoadOp::create(lb, lloc, rows, e);
                applyRow(lb, lloc, e, row);
                scf::YieldOp::create(lb, lloc);
              });
          if (check) {
            Value no = constBool(nb, nloc, false);
            memref::StoreOp::create(nb, nloc, no, flags, t);
          }
          // One owner: every entry, rows read again from the indices.
          nb.setInsertionPointToStart(ifOp.elseBlock());
          applyAllEntriesChecked(nb, nloc, s, check, inPlace, flags, t,
                                 applyRow);
        });
    return updated;
  };
  Value result = buildIf(b, loc, ok, dest.getType(), apply,
                         [&](OpBuilder &, Location) { return dest; });
  if (check) {
    // One report for a failed count or a failed partition.
    auto failed = scf::IfOp::create(
        b, loc, ok,
        [&](OpBuilder &nb, Location nloc) {
          scf::YieldOp::create(nb, nloc, anyFlag(nb, nloc, flags, owners));
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
  bool check = state.checksEnabled();
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
    if (std::optional<std::string> feature = unloweredFeature(op))
      return rewriter.notifyMatchFailure(op, *feature);
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
    space->sizes = dimValues(b, loc, data, 0, k);
    space->strides = rowMajorStrides(b, loc, space->sizes);

    RowScatter s;
    s.numRows = product(b, loc, space->sizes);
    s.rowSize = product(b, loc, dimValues(b, loc, data, k, r));
    s.numEntries = product(b, loc, dimValues(b, loc, indices, 0, q - 1));
    s.updates = updates;
    s.indices = indices;
    s.reduction = op.getReduction();
    s.oneD = k == r;
    for (Value size : space->sizes)
      s.bounds.push_back(rangeBound(b, loc, size));
    s.readEntry = [space](OpBuilder &nb, Location nloc, Value flat,
                          Value e) -> EntryRow {
      Tuple tuple = readTuple(nb, nloc, flat, e, *space);
      return {tuple.row, tuple.shifted};
    };
    Value numEntries = s.numEntries;
    LoweringState *state = this->state.get();
    s.reportFirstBad = [state, op, space,
                        numEntries](OpBuilder &nb, Location nloc, Value flat) {
      reportFirstBadTuple(*state, nb, nloc, op, flat, numEntries, *space);
    };

    // A dim of static size 0 leaves nothing to write; the indices are still
    // checked.
    if (llvm::is_contained(op.getData().getType().getShape(), 0)) {
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
    if (std::optional<std::string> feature = unloweredFeature(op))
      return rewriter.notifyMatchFailure(op, *feature);
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
    bool check = state->checksEnabled();
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t r = dataType.getRank();
    Value indicesFlat = flatReadBuffer(b, loc, indices);
    SmallVector<Value> indexDims = dimValues(b, loc, indices, 0, r);
    Value count = product(b, loc, indexDims);
    Value size = dimValue(b, loc, data, axis);

    // Off-axis dims all statically 1: the positions are the axis.
    bool alongAxis = llvm::all_of(llvm::seq<int64_t>(0, r), [&](int64_t d) {
      return d == axis || dataType.getDimSize(d) == 1;
    });
    if (alongAxis)
      return scatterAlongAxis(b, loc, op, data, indices, updates, dataPointer,
                              count, size);

    Value flags, parts;
    Value result =
        applyByFibers(b, loc, op, data, indices, updates, dataPointer,
                      indexDims, count, size, axis, flags, parts);
    if (check) {
      Value ok = notBool(b, loc, anyFlag(b, loc, flags, parts));
      reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
        reportFirstBadElement(*state, nb, nloc, op, indicesFlat, count, size,
                              axis);
      });
    }
    return result;
  }

  /// The partitioned walk over the positions of indices, in `parts`
  /// partitions. With checks, `flags` receives one failure flag per
  /// partition (see checkedApply).
  Value applyByFibers(OpBuilder &b, Location loc, ScatterElementsOp op,
                      Value data, Value indices, Value updates,
                      Value dataPointer, ArrayRef<Value> indexDims, Value count,
                      Value size, int64_t axis, Value &flags,
                      Value &parts) const {
    bool check = state->checksEnabled();
    auto dataType = cast<RankedTensorType>(data.getType());
    int64_t r = dataType.getRank();
    ReductionKind reduction = op.getReduction();
    Value zero = constIndex(b, loc, 0);
    Value one = constIndex(b, loc, 1);
    // Split dim 0 unless it is the axis; then the last dim.
    int64_t split = axis != 0 ? 0 : r - 1;
    Value extent = indexDims[split];
    parts = state->numPartitions(b, loc, op, count, extent);
    Value perSlab = b.createOrFold<arith::DivUIOp>(
        loc, count, maxIndex(b, loc, extent, one));
    Value bound = rangeBound(b, loc, size);
    if (check)
      flags = allocScratch(b, loc, b.getI1Type(), parts);
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
          // The partition's positions, checked as they go with `fused`.
          auto walk = [&](OpBuilder &wb, Location wloc, bool fused) -> Value {
            Value no = constBool(wb, wloc, false);
            SmallVector<Value> bad = walkPositions(
                wb, wloc, indexDims, flatLo, flatHi, colLo, colHi,
                ValueRange{no},
                [&](OpBuilder &eb, Location eloc, ArrayRef<Value> coords,
                    Value pos, ValueRange acc) -> SmallVector<Value> {
                  Value raw = loadIndex(eb, eloc, indicesFlat, pos);
                  Value normalized = normalizeIndex(eb, eloc, raw, size);
                  Value isBad = constBool(eb, eloc, false);
                  if (fused) {
                    isBad = isOutOfRange(eb, eloc, normalized, size);
                    normalized = clampIfBad(eb, eloc, isBad, normalized);
                  }
                  SmallVector<Value> at(coords);
                  at[axis] = normalized;
                  at[split] =
                      eb.createOrFold<arith::SubIOp>(eloc, at[split], lo);
                  Value value = memref::LoadOp::create(eb, eloc, updatesFlat,
                                                       ValueRange{pos});
                  if (reduction != ReductionKind::None) {
                    Value current = memref::LoadOp::create(eb, eloc, slice, at);
                    value = combine(eb, eloc, reduction, current, value);
                  }
                  memref::StoreOp::create(eb, eloc, value, slice, at);
                  return {orBool(eb, eloc, acc[0], isBad)};
                });
            return bad[0];
          };
          if (!check) {
            walk(nb, nloc, false);
            return;
          }
          // An empty axis takes no position: all are out of range.
          Value empty = nb.createOrFold<arith::CmpIOp>(
              nloc, arith::CmpIPredicate::eq, size, zero);
          auto ifEmpty = scf::IfOp::create(
              nb, nloc, empty,
              [&](OpBuilder &eb, Location eloc) {
                Value any = eb.createOrFold<arith::CmpIOp>(
                    eloc, arith::CmpIPredicate::ne, count, zero);
                scf::YieldOp::create(eb, eloc, any);
              },
              [&](OpBuilder &eb, Location eloc) {
                Value bad = checkedApply(
                    eb, eloc, inPlace,
                    [&](OpBuilder &cb, Location cloc) {
                      return maxShifted(cb, cloc, indicesFlat, zero, count,
                                        size, bound);
                    },
                    [&](OpBuilder &ab, Location aloc) {
                      return walk(ab, aloc, true);
                    });
                scf::YieldOp::create(eb, eloc, bad);
              });
          memref::StoreOp::create(nb, nloc, ifEmpty.getResult(0), flags, p);
        });
  }

  /// Every off-axis dim is 1: row owners over the axis positions.
  Value scatterAlongAxis(OpBuilder &b, Location loc, ScatterElementsOp op,
                         Value data, Value indices, Value updates,
                         Value dataPointer, Value count, Value size) const {
    int64_t r = cast<RankedTensorType>(data.getType()).getRank();
    int64_t axis = op.getNormalizedAxis();
    RowScatter s;
    s.numEntries = count;
    s.numRows = size;
    s.rowSize = constIndex(b, loc, 1);
    s.updates = updates;
    s.indices = indices;
    s.reduction = op.getReduction();
    s.oneD = true;
    s.bounds.push_back(rangeBound(b, loc, size));
    s.readEntry = [size](OpBuilder &nb, Location nloc, Value flat,
                         Value e) -> EntryRow {
      Value raw = loadIndex(nb, nloc, flat, e);
      Value row = normalizeIndex(nb, nloc, raw, size);
      Value shifted = nb.createOrFold<arith::AddIOp>(nloc, raw, size);
      return {row, {shifted}};
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

    // What the patterns do not lower is reported by name, not as a failure
    // to legalize.
    bool unlowered = false;
    getOperation()->walk([&](Operation *op) {
      if (op->getDialect() != op->getContext()->getLoadedDialect<NdDialect>())
        return;
      if (std::optional<std::string> feature = unloweredFeature(op)) {
        op->emitOpError(*feature);
        unlowered = true;
      }
    });
    if (unlowered)
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addIllegalDialect<NdDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
