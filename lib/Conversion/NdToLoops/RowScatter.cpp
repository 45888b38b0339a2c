//===- RowScatter.cpp - scatters of entries into rows -----------*- C++ -*-===//
//
// See RowScatter.h. This file holds the passes over the entries that both
// partitionings use, the column partitions, and the choice between them;
// the row owners are in RowOwners.cpp.
//
//===----------------------------------------------------------------------===//

#include "RowScatter.h"

#include "Buffers.h"
#include "IndexChecks.h"
#include "LoweringState.h"
#include "Parallel.h"
#include "Scalars.h"
#include "Tallies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

/// Slices at least this many elements wide are split by column among the
/// partitions of a scatter_nd; narrower ones go to row owners.
static constexpr int64_t kMinSplitColumns = 64;

//===----------------------------------------------------------------------===//
// Passes over the entries
//===----------------------------------------------------------------------===//

/// Whether any of the per-component maxima in `maxima` is out of range.
static Value anyComponentBad(OpBuilder &b, Location loc, const RowScatter &s,
                             ValueRange maxima) {
  Value bad = constBool(b, loc, false);
  for (auto [max, bound] : llvm::zip_equal(maxima, s.bounds))
    bad = orBool(b, loc, bad, anyOutOfRange(b, loc, max, bound));
  return bad;
}

/// Entries per step of the lane-wise maxima of index tuples, and the most
/// components they take: more lanes than that (40 for b2's 5 components)
/// ran slower here than the check one entry at a time.
static constexpr int64_t kTupleCheckStep = 8;
static constexpr size_t kMaxTupleLaneComponents = 4;

/// The per-component maxima of `index + size` (see rangeBound) over the
/// entries `[lo, hi)`, starting from `init`, one entry at a time.
static SmallVector<Value> entryMaximaByEntry(OpBuilder &b, Location loc,
                                             const RowScatter &s, Value indices,
                                             Value lo, Value hi,
                                             ValueRange init) {
  Value one = constIndex(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, one, init,
      [&](OpBuilder &lb, Location lloc, Value e, ValueRange maxima) {
        EntryRow entry = s.readEntry(lb, lloc, indices, e);
        SmallVector<Value> next;
        for (auto [max, shifted] : llvm::zip_equal(maxima, entry.shifted))
          next.push_back(maxIndex(lb, lloc, max, shifted));
        scf::YieldOp::create(lb, lloc, next);
      });
  return SmallVector<Value>(loop.getResults());
}

/// The same for index tuples of `k > 1` components (`indices` flat, `k`
/// values per entry): the entries `kTupleCheckStep` at a time, each of the
/// step's `k * kTupleCheckStep` consecutive values kept in a maximum of its
/// own (lane `l` holds component `l % k`), so that the loads stay
/// consecutive and the pass vectorises without taking the tuples apart;
/// the lanes of a component are reduced after the loop, and the entries
/// that do not fill a step go one at a time.
static SmallVector<Value> tupleMaxima(OpBuilder &b, Location loc,
                                      const RowScatter &s, Value indices,
                                      Value lo, Value hi, ValueRange init) {
  int64_t k = static_cast<int64_t>(s.bounds.size());
  int64_t width = k * kTupleCheckStep;
  Value one = constIndex(b, loc, 1);
  SmallVector<Value> sizes;
  for (Value bound : s.bounds)
    sizes.push_back(b.createOrFold<arith::ShRUIOp>(loc, bound, one));
  Value step = constIndex(b, loc, kTupleCheckStep);
  Value count = b.createOrFold<arith::SubIOp>(loc, hi, lo);
  Value steps = b.createOrFold<arith::DivUIOp>(loc, count, step);
  Value covered = b.createOrFold<arith::MulIOp>(loc, steps, step);
  Value mid = b.createOrFold<arith::AddIOp>(loc, lo, covered);
  Value zero = constIndex(b, loc, 0);
  SmallVector<Value> lanes(width, zero);
  for (int64_t j = 0; j < k; ++j)
    lanes[j] = init[j];
  Value kValue = constIndex(b, loc, k);
  auto loop = scf::ForOp::create(
      b, loc, lo, mid, step, lanes,
      [&](OpBuilder &lb, Location lloc, Value e, ValueRange maxima) {
        Value base = lb.createOrFold<arith::MulIOp>(lloc, e, kValue);
        SmallVector<Value> next;
        for (int64_t l = 0; l < width; ++l) {
          Value at = lb.createOrFold<arith::AddIOp>(lloc, base,
                                                    constIndex(lb, lloc, l));
          Value raw = loadIndexValue(lb, lloc, indices, at);
          Value shifted =
              lb.createOrFold<arith::AddIOp>(lloc, raw, sizes[l % k]);
          next.push_back(maxIndex(lb, lloc, maxima[l], shifted));
        }
        scf::YieldOp::create(lb, lloc, next);
      });
  SmallVector<Value> maxima(loop.getResults().take_front(k));
  for (int64_t l = k; l < width; ++l)
    maxima[l % k] = maxIndex(b, loc, maxima[l % k], loop.getResult(l));
  return entryMaximaByEntry(b, loc, s, indices, mid, hi, maxima);
}

/// The per-component maxima of `index + size` (see rangeBound) over the
/// entries `[lo, hi)`, starting from `init`: a pass over their indices
/// alone, which vectorises.
static SmallVector<Value> entryMaxima(OpBuilder &b, Location loc,
                                      const RowScatter &s, Value indices,
                                      Value lo, Value hi, ValueRange init) {
  if (s.bounds.size() > 1 && s.bounds.size() <= kMaxTupleLaneComponents)
    return tupleMaxima(b, loc, s, indices, lo, hi, init);
  return entryMaximaByEntry(b, loc, s, indices, lo, hi, init);
}

bool lowering::checksIndices(LoweringState &state, const RowScatter &s) {
  return state.checksEnabled() && s.oob == OobMode::Error;
}

Value lowering::forEachEntryChecked(
    OpBuilder &b, Location loc, const RowScatter &s, Value chunks, bool check,
    function_ref<void(OpBuilder &, Location, Value)> prologue,
    function_ref<void(OpBuilder &, Location, Value, const EntryRow &, Value)>
        body,
    Value first, Value last) {
  if (!first) {
    first = constIndex(b, loc, 0);
    last = s.numEntries;
  }
  Value count = b.createOrFold<arith::SubIOp>(loc, last, first);
  Value flags;
  if (check)
    flags = allocScratch(b, loc, b.getI1Type(), chunks);
  Value indices = flatView(b, loc, s.indices);
  buildParallel(b, loc, chunks, [&](OpBuilder &nb, Location nloc, Value c) {
    prologue(nb, nloc, c);
    std::pair<Value, Value> range = partRange(nb, nloc, count, chunks, c);
    Value lo = nb.createOrFold<arith::AddIOp>(nloc, first, range.first);
    Value hi = nb.createOrFold<arith::AddIOp>(nloc, first, range.second);
    Value one = constIndex(nb, nloc, 1);
    // `body` over `[from, to)`.
    auto walk = [&](OpBuilder &wb, Location wloc, Value from, Value to) {
      scf::ForOp::create(wb, wloc, from, to, one, ValueRange{},
                         [&](OpBuilder &lb, Location lloc, Value e, ValueRange) {
                           EntryRow entry = s.readEntry(lb, lloc, indices, e);
                           body(lb, lloc, e, entry, c);
                           scf::YieldOp::create(lb, lloc);
                         });
    };
    if (!check) {
      walk(nb, nloc, lo, hi);
      return;
    }
    // A block of entries at a time: the maxima over its indices (a pass of
    // its own, which vectorises), then `body` over it while the indices are
    // in cache.
    Value block = constIndex(nb, nloc, kCheckBlockEntries);
    SmallVector<Value> init(s.bounds.size(), constIndex(nb, nloc, 0));
    auto blocks = scf::ForOp::create(
        nb, nloc, lo, hi, block, init,
        [&](OpBuilder &bb, Location bloc, Value from, ValueRange maxima) {
          Value end = bb.createOrFold<arith::AddIOp>(bloc, from, block);
          Value to = minIndex(bb, bloc, end, hi);
          SmallVector<Value> next =
              entryMaxima(bb, bloc, s, indices, from, to, maxima);
          walk(bb, bloc, from, to);
          scf::YieldOp::create(bb, bloc, next);
        });
    Value bad = anyComponentBad(nb, nloc, s, blocks.getResults());
    memref::StoreOp::create(nb, nloc, bad, flags, c);
  });
  if (!check)
    return constBool(b, loc, true);
  return notBool(b, loc, anyFlag(b, loc, flags, chunks));
}

void lowering::applyEntry(OpBuilder &b, Location loc, const RowScatter &s,
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

/// Whether an entry of `[lo, hi)` of a row scatter is out of range: a pass
/// over their indices alone, one max reduction per component.
static Value anyEntryBad(OpBuilder &b, Location loc, const RowScatter &s,
                         Value indices, Value lo, Value hi) {
  SmallVector<Value> init(s.bounds.size(), constIndex(b, loc, 0));
  SmallVector<Value> maxima = entryMaxima(b, loc, s, indices, lo, hi, init);
  return anyComponentBad(b, loc, s, maxima);
}

/// Applies the entries `[lo, hi)` through `applyRow(e, row)`, unchecked.
static void applyEntries(OpBuilder &b, Location loc, const RowScatter &s,
                         Value indices, Value lo, Value hi,
                         ApplyRowFn applyRow) {
  Value one = constIndex(b, loc, 1);
  scf::ForOp::create(b, loc, lo, hi, one, ValueRange{},
                     [&](OpBuilder &lb, Location lloc, Value e, ValueRange) {
                       EntryRow entry = s.readEntry(lb, lloc, indices, e);
                       unlessSkipped(lb, lloc, entry.skip,
                                     [&](OpBuilder &ab, Location aloc) {
                                       applyRow(ab, aloc, e, entry.row);
                                     });
                       scf::YieldOp::create(lb, lloc);
                     });
}

void lowering::applyAllEntriesChecked(OpBuilder &b, Location loc,
                                      const RowScatter &s, bool check,
                                      bool inPlace, Value flags, Value p,
                                      ApplyRowFn applyRow) {
  Value indices = flatView(b, loc, s.indices);
  Value zero = constIndex(b, loc, 0);
  if (!check) {
    applyEntries(b, loc, s, indices, zero, s.numEntries, applyRow);
    return;
  }
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
        auto checkRange = [&](OpBuilder &cb, Location cloc, Value lo,
                              Value hi) {
          return anyEntryBad(cb, cloc, s, indices, lo, hi);
        };
        auto applyRange = [&](OpBuilder &ab, Location aloc, Value lo,
                              Value hi) {
          applyEntries(ab, aloc, s, indices, lo, hi, applyRow);
        };
        Value bad = checkedApply(nb, nloc, inPlace, zero, s.numEntries,
                                 checkRange, applyRange);
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
    Value indices = flatView(nb, nloc, s.indices);
    s.reportFirstBad(nb, nloc, indices);
  });
}

MemRefType lowering::rowSliceType(const RowScatter &s, Value dest) {
  auto destType = cast<MemRefType>(dest.getType());
  SmallVector<int64_t> shape(destType.getRank(), ShapedType::kDynamic);
  return sliceMemRefType(destType.getElementType(), shape,
                         /*contiguousRows=*/true);
}

//===----------------------------------------------------------------------===//
// Column partitions, and the choice of a partitioning
//===----------------------------------------------------------------------===//

/// Column partitions: every partition applies every entry to its columns
/// (aligned to vectors) of `dest` (`[rows, rowSize]`).
static void scatterByColumns(OpBuilder &b, Location loc, LoweringState &state,
                             const RowScatter &s, Value dest, bool inPlace,
                             Value parts) {
  bool check = checksIndices(state, s);
  auto destType = cast<MemRefType>(dest.getType());
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
  buildPartitionedUpdate(
      b, loc, dest, used, rowSliceType(s, dest),
      [&](OpBuilder &nb, Location nloc, Value p) {
        std::pair<Value, Value> cols = columns(nb, nloc, p);
        Value cut =
            nb.createOrFold<arith::SubIOp>(nloc, cols.second, cols.first);
        SliceRegion region;
        region.offsets = {nb.getIndexAttr(0), cols.first};
        region.sizes = {s.numRows, cut};
        return region;
      },
      [&](OpBuilder &nb, Location nloc, Value p, Value slice) {
        Value updates = flatView(nb, nloc, s.updates);
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
}

void lowering::scatterRows(OpBuilder &b, Location loc, LoweringState &state,
                           Operation *op, RowScatter &s, Value data,
                           bool inPlace, ArrayRef<ReassociationIndices> groups) {
  Value k = constIndex(b, loc, s.bounds.size());
  Value indexWork = b.createOrFold<arith::MulIOp>(loc, s.numEntries, k);
  Value chunks = state.numPartitions(b, loc, op, indexWork, s.numEntries);
  Value work = b.createOrFold<arith::MulIOp>(loc, s.numEntries, s.rowSize);
  Value dest = collapse(b, loc, data, groups);
  std::optional<int64_t> staticRow = getConstantIntValue(s.rowSize);
  bool wide = !s.oneD && (!staticRow || *staticRow >= kMinSplitColumns);
  if (wide) {
    Value maxParts =
        ceilDiv(b, loc, s.rowSize, constIndex(b, loc, kMinSplitColumns));
    Value parts = state.numPartitions(b, loc, op, work, maxParts);
    scatterByColumns(b, loc, state, s, dest, inPlace, parts);
    return;
  }
  Value parts = state.numPartitions(b, loc, op, work, s.numRows);
  scatterByRowOwners(b, loc, state, s, dest, inPlace, parts, chunks);
}
