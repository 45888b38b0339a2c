//===- ScatterElements.cpp - lower nd.scatter_elements ----------*- C++ -*-===//
//
// Lowers nd.scatter_elements (ONNX ScatterElements, OpenVINO
// ScatterElementsUpdate-3/12) under every oob mode, every reduction and
// use_init_val, into a private function of its own (see LoweringState.h).
// Positions that differ off the axis never collide, so partitions own ranges
// of dim 0 (or of the last dim when the axis is 0) of `data` and each walks
// its positions of indices in row-major order (see Positions.h), applying
// their updates in that order. Where every dim but the axis is 1 the axis is
// cut among row owners instead (a row scatter of one-element rows, see
// RowScatter.h). Under `reduction<mean>` or `use_init_val(false)` each
// destination element keeps a tally (see Tallies.h), reset, applied and
// finished by the element's owner.
//
// Preconditions: the op verifies and its reduction is supported on its
// element type (otherwise the pattern does not match). Dynamic dims the
// verifier could not compare are checked at run time when bounds checking
// is on; so is every index value under oob<error>, before its update is
// applied (into a fresh result, a block of each fiber's row at a time; into
// data's own buffer, all of them before anything is written), a failed
// check reporting the first bad value in row-major order and leaving data as
// it was. Under oob<skip> a value out of
// range updates nothing; under oob<clamp> it is clamped into the axis.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "IndexChecks.h"
#include "OpLowerings.h"
#include "Parallel.h"
#include "Positions.h"
#include "RowScatter.h"
#include "Scalars.h"
#include "Tallies.h"

#include "nd/Conversion/RowSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

namespace {
/// The partitioned walk of a scatter_elements over the positions of its
/// indices ("fibers": partitions own ranges of dim `split` of data, 0 or,
/// when the axis is 0, the last dim, and walk their positions of indices in
/// row-major order).
struct FiberScatter {
  OobMode oob;
  ReductionKind reduction;
  const ElementTally *tally;
  /// The op's buffers.
  Value data, indices, updates;
  /// The dims of indices, their product, and the size of the axis.
  SmallVector<Value> indexDims;
  Value count, size;
  int64_t axis, rank, split;
  /// The size of dim `split` and the partitions of it; the positions of
  /// indices per index of dim `split` (where `split` is 0).
  Value extent, parts, perSlab;
  /// The row-major strides of data (with a tally only).
  SmallVector<Value> dataStrides;
  /// The index 0: where the flat positions and the columns start.
  Value zero;
};

/// What a walk over a partition's positions does with one that is not
/// skipped: `visit(pos, at, flat)`, with `pos` its flat position in indices,
/// `at` its coordinates in the partition's slice and `flat` its flat
/// position in data (with a tally).
using VisitFn =
    function_ref<void(OpBuilder &, Location, Value, ArrayRef<Value>, Value)>;
} // namespace

/// The slice of data partition `p` owns: its range of dim `split`.
static SliceRegion fiberRegion(OpBuilder &b, Location loc,
                               const FiberScatter &f, Value p) {
  std::pair<Value, Value> bounds = partRange(b, loc, f.extent, f.parts, p);
  Value lo = bounds.first, hi = bounds.second;
  SliceRegion region;
  for (int64_t d = 0; d < f.rank; ++d) {
    if (d == f.split) {
      region.offsets.push_back(lo);
      region.sizes.push_back(b.createOrFold<arith::SubIOp>(loc, hi, lo));
      continue;
    }
    region.offsets.push_back(b.getIndexAttr(0));
    region.sizes.push_back(memref::getMixedSize(b, loc, f.data, d));
  }
  return region;
}

/// One walk over the positions of indices whose flat position is in
/// `[flatLo, flatHi)` and whose last coordinate is in `[colLo, colHi)`,
/// calling `visit` for each that is not skipped; `lo` is the first index of
/// the partition's range of dim `split`. With `checkBound` (`2 * size`, see
/// rangeBound) the walk checks the indices as it goes, a block of each row
/// at a time (checkedApply: a bad block visits nothing), and returns whether
/// one was bad; without, it checks nothing and returns null.
static Value walkFiber(OpBuilder &b, Location loc, const FiberScatter &f,
                       Value indicesFlat, Value lo, Value flatLo, Value flatHi,
                       Value colLo, Value colHi, VisitFn visit,
                       Value checkBound = Value()) {
  auto position = [&](OpBuilder &eb, Location eloc, ArrayRef<Value> coords,
                      Value pos, ValueRange) -> SmallVector<Value> {
    Value raw = loadIndexValue(eb, eloc, indicesFlat, pos);
    auto [normalized, skip] = resolveOrSkip(eb, eloc, f.oob, raw, f.size);
    SmallVector<Value> at(coords);
    at[f.axis] = normalized;
    Value flat;
    if (f.tally) {
      flat = constIndex(eb, eloc, 0);
      for (int64_t d = 0; d < f.rank; ++d) {
        Value term =
            eb.createOrFold<arith::MulIOp>(eloc, at[d], f.dataStrides[d]);
        flat = eb.createOrFold<arith::AddIOp>(eloc, flat, term);
      }
    }
    at[f.split] = eb.createOrFold<arith::SubIOp>(eloc, at[f.split], lo);
    unlessSkipped(eb, eloc, skip, [&](OpBuilder &sb, Location sloc) {
      visit(sb, sloc, pos, at, flat);
    });
    return {};
  };
  if (!checkBound) {
    walkPositions(b, loc, f.indexDims, flatLo, flatHi, colLo, colHi,
                  ValueRange{}, position);
    return Value();
  }
  auto segment = [&](OpBuilder &nb, Location nloc,
                     SmallVectorImpl<Value> &coords, Value rowStart, Value from,
                     Value to, ValueRange failed) -> SmallVector<Value> {
    auto check = [&](OpBuilder &cb, Location cloc, Value first, Value last) {
      Value start = cb.createOrFold<arith::AddIOp>(cloc, rowStart, first);
      Value end = cb.createOrFold<arith::AddIOp>(cloc, rowStart, last);
      return maxShifted(cb, cloc, indicesFlat, start, end, f.size, checkBound);
    };
    auto apply = [&](OpBuilder &ab, Location aloc, Value first, Value last) {
      walkColumns(ab, aloc, coords, rowStart, first, last, ValueRange{},
                  position);
    };
    // After a bad block, no later row is checked or applied either.
    return {checkedApply(nb, nloc, /*inPlace=*/false, from, to, check, apply,
                         failed[0])};
  };
  Value no = constBool(b, loc, false);
  return walkRowSegments(b, loc, f.indexDims, flatLo, flatHi, colLo, colHi,
                         ValueRange{no}, segment)
      .front();
}

/// Applies the update at `pos` to the element at `at` of `slice` (flat
/// position `flat` in data, with a tally).
static void applyFiberUpdate(OpBuilder &b, Location loc, const FiberScatter &f,
                             Value slice, Value updatesFlat, Value pos,
                             ArrayRef<Value> at, Value flat) {
  Value value = memref::LoadOp::create(b, loc, updatesFlat, ValueRange{pos});
  if (f.tally) {
    applyTallied(b, loc, *f.tally, slice, at, flat, value);
    return;
  }
  if (f.reduction != ReductionKind::None) {
    Value current = memref::LoadOp::create(b, loc, slice, at);
    value = combine(b, loc, f.reduction, current, value);
  }
  memref::StoreOp::create(b, loc, value, slice, at);
}

/// Partition `p` updates `slice`, its part of data: one walk over its
/// positions, and with a tally one before (reset) and, for a mean, one after
/// (finish). With `flags` (no tally), the walk checks its indices as it goes
/// and stores whether one was bad into `flags[p]`.
static void updateFibers(OpBuilder &b, Location loc, const FiberScatter &f,
                         Value p, Value slice, Value flags) {
  Value indicesFlat = flatView(b, loc, f.indices);
  Value updatesFlat = flatView(b, loc, f.updates);
  std::pair<Value, Value> bounds = partRange(b, loc, f.extent, f.parts, p);
  Value lo = bounds.first, hi = bounds.second;
  Value flatLo = f.zero, flatHi = f.count, colLo = f.zero,
        colHi = f.indexDims.back();
  if (f.split == 0) {
    flatLo = b.createOrFold<arith::MulIOp>(loc, lo, f.perSlab);
    flatHi = b.createOrFold<arith::MulIOp>(loc, hi, f.perSlab);
  } else {
    colLo = lo;
    colHi = hi;
  }
  auto walk = [&](VisitFn visit, Value checkBound = Value()) {
    return walkFiber(b, loc, f, indicesFlat, lo, flatLo, flatHi, colLo, colHi,
                     visit, checkBound);
  };
  if (f.tally)
    walk([&](OpBuilder &sb, Location sloc, Value, ArrayRef<Value>, Value flat) {
      resetTally(sb, sloc, *f.tally, flat);
    });
  Value bound = flags ? rangeBound(b, loc, f.size) : Value();
  Value bad = walk(
      [&](OpBuilder &sb, Location sloc, Value pos, ArrayRef<Value> at,
          Value flat) {
        applyFiberUpdate(sb, sloc, f, slice, updatesFlat, pos, at, flat);
      },
      bound);
  if (flags)
    memref::StoreOp::create(b, loc, bad, flags, p);
  if (f.tally && f.tally->reduction == ReductionKind::Mean)
    walk([&](OpBuilder &sb, Location sloc, Value, ArrayRef<Value> at,
             Value flat) { finishTally(sb, sloc, *f.tally, slice, at, flat); });
}

/// Whether every value of the `count` values of `indices` is in range for a
/// dim of `size`: a parallel pass over `chunks` contiguous ranges of them,
/// one vectorised maximum each (see maxShifted).
static Value checkInChunks(OpBuilder &b, Location loc, Value indices,
                           Value count, Value size, Value chunks) {
  Value bound = rangeBound(b, loc, size);
  Value flags = allocScratch(b, loc, b.getI1Type(), chunks);
  buildParallel(b, loc, chunks, [&](OpBuilder &nb, Location nloc, Value c) {
    std::pair<Value, Value> range = partRange(nb, nloc, count, chunks, c);
    Value bad =
        maxShifted(nb, nloc, indices, range.first, range.second, size, bound);
    // An empty range checks nothing (its maximum, 0, is out of range for an
    // empty axis).
    Value any = nb.createOrFold<arith::CmpIOp>(nloc, arith::CmpIPredicate::ult,
                                               range.first, range.second);
    bad = nb.createOrFold<arith::AndIOp>(nloc, bad, any);
    memref::StoreOp::create(nb, nloc, bad, flags, c);
  });
  Value failed = anyFlag(b, loc, flags, chunks);
  return notBool(b, loc, failed);
}

namespace {
/// Positions that differ off the axis never collide: partitions own ranges
/// of dim 0 (or of the last dim when the axis is 0) and walk their positions
/// in row-major order. Where every dim but the axis is 1, the axis is cut
/// among row owners instead.
struct ScatterElementsLowering : public NdScatterPattern<ScatterElementsOp> {
  using NdScatterPattern::NdScatterPattern;

private:
  void scatter(OpBuilder &b, Location loc, ScatterElementsOp op, Value data,
               Value indices, Value updates, bool inPlace) const override {
    // The model: an entry per position of indices, which addresses data at
    // that position with its index value on the axis.
    RowSizes sizes(op, {data, indices, updates});
    int64_t axis = sizes.componentDim(0);
    bool check =
        state->checksEnabled() && sizes.addressing().oob == OobMode::Error;
    auto dataType = cast<MemRefType>(data.getType());
    int64_t r = dataType.getRank();
    Value indicesFlat = flatView(b, loc, indices);
    SmallVector<Value> indexDims = sizes.entrySizes(b, loc);
    Value count = product(b, loc, indexDims);
    Value size = sizes.componentSize(b, loc, 0);

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
                       reportFirstBadValue(*state, nb, nloc, op, indicesFlat,
                                           count, size);
                     });
      }
      return;
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
    if (alongAxis) {
      scatterAlongAxis(b, loc, op, data, indices, updates, inPlace, count,
                       size, tallyPtr);
      return;
    }

    auto applyAll = [&](OpBuilder &nb, Location nloc, bool fuseChecks) {
      return applyByFibers(nb, nloc, op, data, indices, updates, indexDims,
                           count, size, axis, tallyPtr, fuseChecks);
    };
    if (!check) {
      applyAll(b, loc, false);
      return;
    }
    auto report = [&](OpBuilder &nb, Location nloc) {
      reportFirstBadValue(*state, nb, nloc, op, indicesFlat, count, size);
    };
    // Every index is checked before its update is applied: the fibers'
    // elements land at random, where a check fused into the walk would cost
    // a compare and a select per random access (workload f: 25 to 35 %).
    // Where the destination is a fresh buffer nothing reads if the op fails
    // (and no tally is reset from unchecked indices first), each fiber
    // checks a block of its row of indices at a time, one vectorised
    // maximum, and applies it while the block is in cache (checkedApply);
    // a destination without elements has no fibers, and its indices are
    // checked on their own.
    auto checkAll = [&](OpBuilder &nb, Location nloc) {
      Value chunks = state->numPartitions(nb, nloc, op, count, count);
      return checkInChunks(nb, nloc, indicesFlat, count, size, chunks);
    };
    if (!inPlace && !tallyPtr) {
      Value ok = buildIf(
          b, loc, hasElements(b, loc, data), b.getI1Type(),
          [&](OpBuilder &nb, Location nloc) { return applyAll(nb, nloc, true); },
          checkAll);
      reportUnless(b, loc, ok, report);
      return;
    }
    // Elsewhere a parallel pass over contiguous ranges of the indices (one
    // vectorised maximum each) checks them all before anything is written,
    // and the fibers update unchecked.
    Value ok = checkAll(b, loc);
    reportUnless(b, loc, ok, report);
    buildIf(b, loc, ok,
            [&](OpBuilder &nb, Location nloc) { applyAll(nb, nloc, false); });
  }

  /// The partitioned walk over the positions of indices. With `fuseChecks`
  /// (no tally) each fiber checks its indices as it goes and the result is
  /// whether all were in range; otherwise it checks nothing (under
  /// oob<error> the caller has checked every index) and the result is null.
  Value applyByFibers(OpBuilder &b, Location loc, ScatterElementsOp op,
                      Value data, Value indices, Value updates,
                      ArrayRef<Value> indexDims, Value count, Value size,
                      int64_t axis, const ElementTally *tally,
                      bool fuseChecks) const {
    FiberScatter f;
    f.oob = op.getOob();
    f.reduction = op.getReduction();
    f.tally = tally;
    f.data = data;
    f.indices = indices;
    f.updates = updates;
    f.indexDims.assign(indexDims.begin(), indexDims.end());
    f.count = count;
    f.size = size;
    f.axis = axis;
    auto dataType = cast<MemRefType>(data.getType());
    f.rank = dataType.getRank();
    f.zero = constIndex(b, loc, 0);
    Value one = constIndex(b, loc, 1);
    // Split dim 0 unless it is the axis; then the last dim.
    f.split = axis != 0 ? 0 : f.rank - 1;
    f.extent = indexDims[f.split];
    f.parts = state->numPartitions(b, loc, op, count, f.extent);
    Value extent = maxIndex(b, loc, f.extent, one);
    f.perSlab = b.createOrFold<arith::DivUIOp>(loc, count, extent);
    if (tally)
      f.dataStrides =
          rowMajorStrides(b, loc, dimValues(b, loc, data, 0, f.rank));
    Value flags;
    if (fuseChecks)
      flags = allocScratch(b, loc, b.getI1Type(), f.parts);
    MemRefType sliceType =
        sliceMemRefType(dataType.getElementType(),
                        SmallVector<int64_t>(f.rank, ShapedType::kDynamic),
                        /*contiguousRows=*/false);
    buildPartitionedUpdate(
        b, loc, data, f.parts, sliceType,
        [&](OpBuilder &nb, Location nloc, Value p) {
          return fiberRegion(nb, nloc, f, p);
        },
        [&](OpBuilder &nb, Location nloc, Value p, Value slice) {
          updateFibers(nb, nloc, f, p, slice, flags);
        });
    if (!fuseChecks)
      return Value();
    return notBool(b, loc, anyFlag(b, loc, flags, f.parts));
  }

  /// Every off-axis dim is 1: row owners over the axis positions.
  void scatterAlongAxis(OpBuilder &b, Location loc, ScatterElementsOp op,
                        Value data, Value indices, Value updates, bool inPlace,
                        Value count, Value size,
                        const ElementTally *tally) const {
    int64_t r = cast<MemRefType>(data.getType()).getRank();
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
      Value raw = loadIndexValue(nb, nloc, flat, e);
      auto [row, skip] = resolveOrSkip(nb, nloc, oob, raw, size);
      if (skip)
        row = clampIfBad(nb, nloc, skip, row);
      Value shifted = nb.createOrFold<arith::AddIOp>(nloc, raw, size);
      return {row, {shifted}, skip};
    };
    LoweringState *state = this->state.get();
    s.reportFirstBad = [state, op, count, size](OpBuilder &nb, Location nloc,
                                                Value flat) {
      reportFirstBadValue(*state, nb, nloc, op, flat, count, size);
    };
    SmallVector<ReassociationIndices> groups(1);
    for (int64_t d = 0; d < r; ++d)
      groups[0].push_back(d);
    scatterRows(b, loc, *state, op, s, data, inPlace, groups);
  }
};
} // namespace

void mlir::nd::lowering::populateScatterElementsLowering(
    RewritePatternSet &patterns, std::shared_ptr<LoweringState> state) {
  patterns.add<ScatterElementsLowering>(patterns.getContext(),
                                        std::move(state));
}
