//===- RowOwners.cpp - row scatters by owners of blocks of rows -*- C++ -*-===//
//
// The row-owner partitioning of a row scatter (see RowScatter.h). The
// destination rows are cut into blocks of `2^shift` rows, at least one per
// owner partition and, where the entries outnumber the destination's cache
// lines, small enough to stay in a core's cache (kBlockBytes); the
// partitions own contiguous ranges of blocks. With one block, the one owner
// applies every entry as it reads it (checking first when it updates data's
// own buffer). With several, the entries are bucketed by block, a batch of
// at most kBatchEntries at a time:
//
// 1. a parallel counting pass counts the entries of each chunk of the batch
//    per block (and checks the indices when the batch is all of them;
//    otherwise one parallel check of every index comes first, before
//    anything is written);
// 2. a prefix sum over the counts, block-major then chunk order, gives each
//    (block, chunk) its first bucket slot;
// 3. a parallel filling pass records each entry's row in its block and, for
//    rows of one element, its update (otherwise its number) in its slot, so
//    that applying a block reads its bucket in order and touches nothing
//    outside the block;
// 4. each owner applies its blocks' buckets, which hold the entries in their
//    original order.
//
// A scatter_elements with a tally resets the tallies of its rows before the
// first batch and finishes them after the last. A failed check in any of the
// passes is reported once, after the batches.
//
//===----------------------------------------------------------------------===//

#include "RowScatter.h"

#include "Buffers.h"
#include "Parallel.h"
#include "Scalars.h"
#include "Tallies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

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

namespace {
/// How the destination rows are cut into blocks and the blocks among the
/// owners, fixed before any entry is read.
struct OwnerBlocks {
  /// A block has `2^shift` rows.
  Value shift;
  Value blocks;
  /// The owner partitions; each owns a contiguous range of blocks.
  Value owners;
  /// Whether there are several blocks, whose entries go through buckets
  /// (i1); with one block, its owner applies the entries as it reads them.
  Value bucketed;
  /// The buckets counted: `blocks`, and under skip one more after them for
  /// the skipped entries, which is never applied.
  Value countBlocks;
  /// The row of a skipped entry (past the blocks) and the last row.
  Value skippedRow, lastRow;
  /// Rows of one element: their bucket slots carry the update itself.
  bool carriesValues;
};

/// The entries are bucketed in batches of `size` entries, `count` of them.
struct EntryBatches {
  Value size, count;
  /// Whether there is at most one batch (i1).
  Value single;
};

/// The scratch buffers of the buckets: `counts[c * stride + t]`, the entries
/// of chunk c in block t, then the next bucket slot of each (each chunk's
/// counts start a cache line of their own: chunks run on different threads
/// and update their counts entry by entry); `starts[t]`, the first slot of
/// block t; slot i of the bucket: the entry's row in its block
/// (`rowInBlock`) and its update or number (`payload`), block by block, in
/// order.
struct Buckets {
  Value stride, counts, starts, rowInBlock, payload;
};

/// The entries `[first, last)` of one batch, and whether it is the first and
/// the last.
struct Batch {
  Value first, last, isFirst, isLast;
};
} // namespace

//===----------------------------------------------------------------------===//
// Sizes, fixed before any entry is read
//===----------------------------------------------------------------------===//

/// Rows per block: one block per owner partition (at most `ownerParts`), and
/// where the entries are at least as many as the destination's cache lines
/// (so that blocks that stay in the cache save reads of lines from memory),
/// the largest power of two of rows that fits kBlockBytes (one row at
/// least).
static OwnerBlocks sizeBlocks(OpBuilder &b, Location loc, const RowScatter &s,
                              Type elementType, Value ownerParts) {
  OwnerBlocks plan;
  Value one = constIndex(b, loc, 1);
  Value rows = maxIndex(b, loc, s.numRows, one);
  std::optional<int64_t> staticRow = getConstantIntValue(s.rowSize);
  plan.carriesValues = staticRow && *staticRow == 1;
  Value rowLen = maxIndex(b, loc, s.rowSize, one);
  Value bytesPerElement = constIndex(b, loc, elementBytes(elementType));
  Value rowBytes = b.createOrFold<arith::MulIOp>(loc, rowLen, bytesPerElement);
  Value blockBytes = constIndex(b, loc, kBlockBytes);
  Value rowsInBlockBytes =
      b.createOrFold<arith::DivUIOp>(loc, blockBytes, rowBytes);
  Value fitting = maxIndex(b, loc, rowsInBlockBytes, one);
  // Bucketing costs about three passes over the entries, applying one entry
  // of one element to a destination in the cache about one: such a scatter
  // splits among owners only when there are enough of them to win.
  if (plan.carriesValues) {
    Value destBytes = b.createOrFold<arith::MulIOp>(loc, rows, rowBytes);
    Value cachedBytes = constIndex(b, loc, kCachedDestBytes);
    Value cached = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ule,
                                                 destBytes, cachedBytes);
    Value minOwners = constIndex(b, loc, kMinCachedOwners);
    Value few = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ult,
                                              ownerParts, minOwners);
    Value alone = b.createOrFold<arith::AndIOp>(loc, cached, few);
    ownerParts = b.createOrFold<arith::SelectOp>(loc, alone, one, ownerParts);
  }
  Value rowsPerOwner = ceilDiv(b, loc, rows, ownerParts);
  Value ownerShift = ceilLog2(b, loc, rowsPerOwner);
  Value destBytes = b.createOrFold<arith::MulIOp>(loc, rows, rowBytes);
  Value lineBytes = constIndex(b, loc, kVectorBytes);
  Value destLines = b.createOrFold<arith::DivUIOp>(loc, destBytes, lineBytes);
  Value dense = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                              s.numEntries, destLines);
  Value fittingShift = floorLog2(b, loc, fitting);
  Value cacheShift = minIndex(b, loc, fittingShift, ownerShift);
  plan.shift =
      b.createOrFold<arith::SelectOp>(loc, dense, cacheShift, ownerShift);
  Value span = b.createOrFold<arith::ShLIOp>(loc, one, plan.shift);
  plan.blocks = ceilDiv(b, loc, rows, span);
  plan.bucketed = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt,
                                                plan.blocks, one);
  Value ownerBlocks = minIndex(b, loc, ownerParts, plan.blocks);
  plan.owners =
      b.createOrFold<arith::SelectOp>(loc, plan.bucketed, ownerBlocks, one);
  // Under skip, skipped entries go to one more block, after the others,
  // whose bucket is never applied: their row is `blocks << shift`.
  plan.countBlocks = plan.blocks;
  if (s.oob == OobMode::Skip)
    plan.countBlocks = b.createOrFold<arith::AddIOp>(loc, plan.blocks, one);
  plan.skippedRow = b.createOrFold<arith::ShLIOp>(loc, plan.blocks, plan.shift);
  plan.lastRow = b.createOrFold<arith::SubIOp>(loc, rows, one);
  return plan;
}

/// Batches of at most kBatchEntries entries.
static EntryBatches sizeBatches(OpBuilder &b, Location loc,
                                const RowScatter &s) {
  Value one = constIndex(b, loc, 1);
  Value maxBatch = constIndex(b, loc, kBatchEntries);
  Value fewer = minIndex(b, loc, s.numEntries, maxBatch);
  EntryBatches batches;
  batches.size = maxIndex(b, loc, fewer, one);
  batches.count = ceilDiv(b, loc, s.numEntries, batches.size);
  batches.single = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ule,
                                                 batches.count, one);
  return batches;
}

/// The buckets of `chunks` counting partitions for a batch of `batchSize`
/// entries; empty where there is one block.
static Buckets allocateBuckets(OpBuilder &b, Location loc,
                               const OwnerBlocks &plan, Value chunks,
                               Value batchSize, Type elementType) {
  Type index = b.getIndexType();
  Type i32 = b.getI32Type();
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  auto sized = [&](Value n) -> Value {
    return b.createOrFold<arith::SelectOp>(loc, plan.bucketed, n, zero);
  };
  Buckets buckets;
  Value lineOfCounts = constIndex(b, loc, 8);
  Value linesPerChunk = ceilDiv(b, loc, plan.countBlocks, lineOfCounts);
  buckets.stride =
      b.createOrFold<arith::MulIOp>(loc, linesPerChunk, lineOfCounts);
  Value allCounts = b.createOrFold<arith::MulIOp>(loc, chunks, buckets.stride);
  buckets.counts = allocScratch(b, loc, index, sized(allCounts));
  Value allStarts = b.createOrFold<arith::AddIOp>(loc, plan.countBlocks, one);
  buckets.starts = allocScratch(b, loc, index, sized(allStarts));
  buckets.rowInBlock = allocScratch(b, loc, i32, sized(batchSize));
  Type payloadType = plan.carriesValues ? elementType : i32;
  buckets.payload = allocScratch(b, loc, payloadType, sized(batchSize));
  return buckets;
}

//===----------------------------------------------------------------------===//
// Checks before the batches
//===----------------------------------------------------------------------===//

/// With several batches, every index is checked before anything is written
/// (one batch is checked by its counting pass): whether all are good.
static Value checkBeforeBatches(OpBuilder &b, Location loc, const RowScatter &s,
                                const OwnerBlocks &plan,
                                const EntryBatches &batches, Value chunks) {
  Value several = notBool(b, loc, batches.single);
  Value checkFirst = b.createOrFold<arith::AndIOp>(loc, plan.bucketed, several);
  auto pre = scf::IfOp::create(
      b, loc, checkFirst,
      [&](OpBuilder &nb, Location nloc) {
        Value ok = forEachEntryChecked(
            nb, nloc, s, chunks, true, [](OpBuilder &, Location, Value) {},
            [](OpBuilder &, Location, Value, const EntryRow &, Value) {});
        scf::YieldOp::create(nb, nloc, ok);
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
      });
  return pre.getResult(0);
}

/// The failure flags of the owners, all clear: each owner partition that
/// runs stores its flag; those of a destination without elements never run.
static Value allocateOwnerFlags(OpBuilder &b, Location loc, Value owners) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value flags = allocScratch(b, loc, b.getI1Type(), owners);
  Value no = constBool(b, loc, false);
  scf::ForOp::create(b, loc, zero, owners, one, ValueRange{},
                     [&](OpBuilder &nb, Location nloc, Value t, ValueRange) {
                       memref::StoreOp::create(nb, nloc, no, flags, t);
                       scf::YieldOp::create(nb, nloc);
                     });
  return flags;
}

//===----------------------------------------------------------------------===//
// Bucketing one batch
//===----------------------------------------------------------------------===//

/// The row an entry is bucketed by: a bad entry's row may be anything, kept
/// in range until the check fails the whole op; a skipped entry's is past
/// the blocks.
static Value bucketRow(OpBuilder &b, Location loc, const RowScatter &s,
                       const OwnerBlocks &plan, const EntryRow &entry) {
  Value row = minIndex(b, loc, entry.row, plan.lastRow);
  if (s.oob == OobMode::Skip)
    row =
        b.createOrFold<arith::SelectOp>(loc, entry.skip, plan.skippedRow, row);
  return row;
}

/// Where chunk `c` counts the entries of the block of `row`.
static Value countSlot(OpBuilder &b, Location loc, const OwnerBlocks &plan,
                       const Buckets &buckets, Value c, Value row) {
  Value block = b.createOrFold<arith::ShRUIOp>(loc, row, plan.shift);
  Value base = b.createOrFold<arith::MulIOp>(loc, c, buckets.stride);
  return b.createOrFold<arith::AddIOp>(loc, base, block);
}

/// Counts `entry` in chunk `c`: returns its bucket row and the count of its
/// (chunk, block) before, which is its slot once the counts are turned into
/// the first slots (see sumBucketStarts).
static std::pair<Value, Value> takeSlot(OpBuilder &b, Location loc,
                                        const RowScatter &s,
                                        const OwnerBlocks &plan,
                                        const Buckets &buckets, Value c,
                                        const EntryRow &entry) {
  Value one = constIndex(b, loc, 1);
  Value row = bucketRow(b, loc, s, plan, entry);
  Value at = countSlot(b, loc, plan, buckets, c, row);
  Value count = memref::LoadOp::create(b, loc, buckets.counts, at);
  Value next = b.createOrFold<arith::AddIOp>(loc, count, one);
  memref::StoreOp::create(b, loc, next, buckets.counts, at);
  return {row, count};
}

/// The entries of batch `index`.
static Batch batchRange(OpBuilder &b, Location loc, const RowScatter &s,
                        const EntryBatches &batches, Value index) {
  Value zero = constIndex(b, loc, 0);
  Batch batch;
  batch.first = b.createOrFold<arith::MulIOp>(loc, index, batches.size);
  Value end = b.createOrFold<arith::AddIOp>(loc, batch.first, batches.size);
  batch.last = minIndex(b, loc, end, s.numEntries);
  batch.isFirst = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                batch.first, zero);
  batch.isLast = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                               batch.last, s.numEntries);
  return batch;
}

/// Step 1: counts the entries of the batch per chunk and block (zeroing the
/// chunk's counts first), checking them with `check`; with one block, does
/// nothing (its owner checks before it applies, see checkedApply). Returns
/// whether all were good.
static Value countBatch(OpBuilder &b, Location loc, const RowScatter &s,
                        const OwnerBlocks &plan, const Buckets &buckets,
                        Value chunks, const Batch &batch, bool check) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  auto counted = scf::IfOp::create(
      b, loc, plan.bucketed,
      [&](OpBuilder &nb, Location nloc) {
        Value ok = forEachEntryChecked(
            nb, nloc, s, chunks, check,
            [&](OpBuilder &pb, Location ploc, Value c) {
              Value base =
                  pb.createOrFold<arith::MulIOp>(ploc, c, buckets.stride);
              scf::ForOp::create(
                  pb, ploc, zero, plan.countBlocks, one, ValueRange{},
                  [&](OpBuilder &lb, Location lloc, Value t, ValueRange) {
                    Value at = lb.createOrFold<arith::AddIOp>(lloc, base, t);
                    memref::StoreOp::create(lb, lloc, zero, buckets.counts, at);
                    scf::YieldOp::create(lb, lloc);
                  });
            },
            [&](OpBuilder &lb, Location lloc, Value, const EntryRow &entry,
                Value c) { takeSlot(lb, lloc, s, plan, buckets, c, entry); },
            batch.first, batch.last);
        scf::YieldOp::create(nb, nloc, ok);
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
      });
  return counted.getResult(0);
}

/// Step 2: the prefix sum of the counts, block-major then chunk order, turns
/// each count into the first slot of its (block, chunk) and fills `starts`.
static void sumBucketStarts(OpBuilder &b, Location loc, const OwnerBlocks &plan,
                            const Buckets &buckets, Value chunks) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  auto prefix = scf::ForOp::create(
      b, loc, zero, plan.countBlocks, one, ValueRange{zero},
      [&](OpBuilder &nb, Location nloc, Value t, ValueRange running) {
        memref::StoreOp::create(nb, nloc, running[0], buckets.starts, t);
        auto chunkLoop = scf::ForOp::create(
            nb, nloc, zero, chunks, one, running,
            [&](OpBuilder &lb, Location lloc, Value c, ValueRange run) {
              Value base =
                  lb.createOrFold<arith::MulIOp>(lloc, c, buckets.stride);
              Value at = lb.createOrFold<arith::AddIOp>(lloc, base, t);
              Value n = memref::LoadOp::create(lb, lloc, buckets.counts, at);
              memref::StoreOp::create(lb, lloc, run[0], buckets.counts, at);
              Value next = lb.createOrFold<arith::AddIOp>(lloc, run[0], n);
              scf::YieldOp::create(lb, lloc, next);
            });
        scf::YieldOp::create(nb, nloc, chunkLoop.getResults());
      });
  memref::StoreOp::create(b, loc, prefix.getResult(0), buckets.starts,
                          plan.countBlocks);
}

/// Step 3: each entry's row in its block and its update or number into its
/// slot, in order within each chunk.
static void fillBuckets(OpBuilder &b, Location loc, const RowScatter &s,
                        const OwnerBlocks &plan, const Buckets &buckets,
                        Value chunks, const Batch &batch) {
  Type i32 = b.getI32Type();
  Value updates = flatView(b, loc, s.updates);
  forEachEntryChecked(
      b, loc, s, chunks, false, [](OpBuilder &, Location, Value) {},
      [&](OpBuilder &lb, Location lloc, Value e, const EntryRow &entry,
          Value c) {
        auto [row, slot] = takeSlot(lb, lloc, s, plan, buckets, c, entry);
        Value block = lb.createOrFold<arith::ShRUIOp>(lloc, row, plan.shift);
        Value blockStart =
            lb.createOrFold<arith::ShLIOp>(lloc, block, plan.shift);
        Value inBlock = lb.createOrFold<arith::SubIOp>(lloc, row, blockStart);
        Value narrow =
            lb.createOrFold<arith::IndexCastUIOp>(lloc, i32, inBlock);
        memref::StoreOp::create(lb, lloc, narrow, buckets.rowInBlock, slot);
        Value carried;
        if (plan.carriesValues) {
          carried = memref::LoadOp::create(lb, lloc, updates, e);
        } else {
          Value number = lb.createOrFold<arith::SubIOp>(lloc, e, batch.first);
          carried = lb.createOrFold<arith::IndexCastUIOp>(lloc, i32, number);
        }
        memref::StoreOp::create(lb, lloc, carried, buckets.payload, slot);
      },
      batch.first, batch.last);
}

//===----------------------------------------------------------------------===//
// The owners
//===----------------------------------------------------------------------===//

/// The rows of the destination from `lo` to the end of block `endBlock`
/// (exclusive) that exist, as `[lo, hi)` with `lo <= hi`.
static std::pair<Value, Value> existingRows(OpBuilder &b, Location loc,
                                            const RowScatter &s,
                                            const OwnerBlocks &plan, Value lo,
                                            Value endBlock) {
  Value end = b.createOrFold<arith::ShLIOp>(loc, endBlock, plan.shift);
  Value hi = minIndex(b, loc, end, s.numRows);
  lo = minIndex(b, loc, lo, hi);
  return {lo, hi};
}

/// The slice of the destination owner `t` updates: the rows of its blocks.
static SliceRegion ownerRegion(OpBuilder &b, Location loc, const RowScatter &s,
                               const OwnerBlocks &plan, Value t) {
  std::pair<Value, Value> ownBlocks =
      partRange(b, loc, plan.blocks, plan.owners, t);
  Value first = b.createOrFold<arith::ShLIOp>(loc, ownBlocks.first, plan.shift);
  std::pair<Value, Value> rows =
      existingRows(b, loc, s, plan, first, ownBlocks.second);
  Value lo = rows.first, hi = rows.second;
  SliceRegion region;
  region.offsets.push_back(lo);
  region.sizes.push_back(b.createOrFold<arith::SubIOp>(loc, hi, lo));
  if (!s.oneD) {
    region.offsets.push_back(b.getIndexAttr(0));
    region.sizes.push_back(s.rowSize);
  }
  return region;
}

/// With a tally, where `when` holds: `body(row, local)` for each row of the
/// owner's blocks `ownBlocks` (whose first row is `rowLo`), `local` being the
/// row in the owner's slice.
static void
forOwnRows(OpBuilder &b, Location loc, const RowScatter &s,
           const OwnerBlocks &plan, std::pair<Value, Value> ownBlocks,
           Value rowLo, Value when,
           function_ref<void(OpBuilder &, Location, Value, Value)> body) {
  Value one = constIndex(b, loc, 1);
  auto ifOp = scf::IfOp::create(b, loc, when, false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  std::pair<Value, Value> rows =
      existingRows(b, loc, s, plan, rowLo, ownBlocks.second);
  Value lo = rows.first, hi = rows.second;
  scf::ForOp::create(b, loc, lo, hi, one, ValueRange{},
                     [&](OpBuilder &lb, Location lloc, Value row, ValueRange) {
                       Value local =
                           lb.createOrFold<arith::SubIOp>(lloc, row, lo);
                       body(lb, lloc, row, local);
                       scf::YieldOp::create(lb, lloc);
                     });
}

/// Applies `value`, the update a bucket slot carries, to `row` of `slice`
/// (whose first row is `rowLo`).
static void applyCarriedValue(OpBuilder &b, Location loc, const RowScatter &s,
                              Value slice, Value row, Value rowLo,
                              Value value) {
  Value local = b.createOrFold<arith::SubIOp>(loc, row, rowLo);
  if (s.tally) {
    applyTallied(b, loc, *s.tally, slice, ValueRange{local}, row, value);
    return;
  }
  SmallVector<Value> at = {local};
  if (!s.oneD)
    at.push_back(constIndex(b, loc, 0));
  if (s.reduction != ReductionKind::None) {
    Value old = memref::LoadOp::create(b, loc, slice, at);
    value = combine(b, loc, s.reduction, old, value);
  }
  memref::StoreOp::create(b, loc, value, slice, at);
}

/// Step 4: the buckets of the owner's blocks `ownBlocks`, each in order,
/// into `slice` (whose first row is `rowLo`); entries that carry no value
/// go through `applyRow`.
static void applyOwnBuckets(OpBuilder &b, Location loc, const RowScatter &s,
                            const OwnerBlocks &plan, const Buckets &buckets,
                            const Batch &batch,
                            std::pair<Value, Value> ownBlocks, Value slice,
                            Value rowLo, ApplyRowFn applyRow) {
  Type index = b.getIndexType();
  Value one = constIndex(b, loc, 1);
  scf::ForOp::create(
      b, loc, ownBlocks.first, ownBlocks.second, one, ValueRange{},
      [&](OpBuilder &kb, Location kloc, Value block, ValueRange) {
        Value blockStart =
            kb.createOrFold<arith::ShLIOp>(kloc, block, plan.shift);
        Value from = memref::LoadOp::create(kb, kloc, buckets.starts, block);
        Value blockNext = kb.createOrFold<arith::AddIOp>(kloc, block, one);
        Value to = memref::LoadOp::create(kb, kloc, buckets.starts, blockNext);
        scf::ForOp::create(
            kb, kloc, from, to, one, ValueRange{},
            [&](OpBuilder &lb, Location lloc, Value i, ValueRange) {
              Value narrow =
                  memref::LoadOp::create(lb, lloc, buckets.rowInBlock, i);
              Value inBlock =
                  lb.createOrFold<arith::IndexCastUIOp>(lloc, index, narrow);
              Value row =
                  lb.createOrFold<arith::AddIOp>(lloc, blockStart, inBlock);
              Value carried =
                  memref::LoadOp::create(lb, lloc, buckets.payload, i);
              if (plan.carriesValues) {
                applyCarriedValue(lb, lloc, s, slice, row, rowLo, carried);
              } else {
                Value number =
                    lb.createOrFold<arith::IndexCastUIOp>(lloc, index, carried);
                Value e =
                    lb.createOrFold<arith::AddIOp>(lloc, batch.first, number);
                applyRow(lb, lloc, e, row);
              }
              scf::YieldOp::create(lb, lloc);
            });
        scf::YieldOp::create(kb, kloc);
      });
}

/// Owner `t` applies the batch to `slice`, its part of the destination:
/// from its buckets or, with one block, every entry as read (checked, see
/// applyAllEntriesChecked); with a tally, it resets its rows' tallies before
/// the first batch and finishes them after the last. Stores its failure flag
/// into `flags[t]` (with `check`).
static void applyOwner(OpBuilder &b, Location loc, const RowScatter &s,
                       const OwnerBlocks &plan, const Buckets &buckets,
                       const Batch &batch, bool check, Value flags, Value t,
                       Value slice, bool inPlace) {
  Value updates = flatView(b, loc, s.updates);
  std::pair<Value, Value> ownBlocks =
      partRange(b, loc, plan.blocks, plan.owners, t);
  Value rowLo = b.createOrFold<arith::ShLIOp>(loc, ownBlocks.first, plan.shift);
  Value colLo = constIndex(b, loc, 0);
  if (s.tally)
    forOwnRows(b, loc, s, plan, ownBlocks, rowLo, batch.isFirst,
               [&](OpBuilder &lb, Location lloc, Value row, Value) {
                 resetTally(lb, lloc, *s.tally, row);
               });
  auto applyRow = [&](OpBuilder &lb, Location lloc, Value e, Value row) {
    applyEntry(lb, lloc, s, slice, updates, e, row, rowLo, colLo, s.rowSize);
  };
  auto ifOp = scf::IfOp::create(b, loc, plan.bucketed, true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    applyOwnBuckets(b, loc, s, plan, buckets, batch, ownBlocks, slice, rowLo,
                    applyRow);
    if (check) {
      Value no = constBool(b, loc, false);
      memref::StoreOp::create(b, loc, no, flags, t);
    }
    // One block: every entry, as read from the indices.
    b.setInsertionPointToStart(ifOp.elseBlock());
    applyAllEntriesChecked(b, loc, s, check, inPlace, flags, t, applyRow);
  }
  if (s.tally)
    forOwnRows(b, loc, s, plan, ownBlocks, rowLo, batch.isLast,
               [&](OpBuilder &lb, Location lloc, Value row, Value local) {
                 finishTally(lb, lloc, *s.tally, slice, ValueRange{local}, row);
               });
}

/// One batch whose indices passed the checks: buckets it (steps 2 and 3)
/// and lets the owners apply it to `dest`.
static void bucketAndApply(OpBuilder &b, Location loc, const RowScatter &s,
                           const OwnerBlocks &plan, const Buckets &buckets,
                           const Batch &batch, Value chunks, bool check,
                           Value flags, Value dest, bool inPlace) {
  auto fill = scf::IfOp::create(b, loc, plan.bucketed, false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(fill.thenBlock());
    sumBucketStarts(b, loc, plan, buckets, chunks);
    fillBuckets(b, loc, s, plan, buckets, chunks, batch);
  }
  buildPartitionedUpdate(
      b, loc, dest, plan.owners, rowSliceType(s, dest),
      [&](OpBuilder &nb, Location nloc, Value t) {
        return ownerRegion(nb, nloc, s, plan, t);
      },
      [&](OpBuilder &nb, Location nloc, Value t, Value slice) {
        applyOwner(nb, nloc, s, plan, buckets, batch, check, flags, t, slice,
                   inPlace);
      });
}

/// After the batches, with checks: one report for a failed pre-check
/// (`preOk`), count (`batchesOk`) or owner (`flags`), or for entries into a
/// destination without rows (whose owner never runs).
static void reportOwnerFailures(OpBuilder &b, Location loc, const RowScatter &s,
                                Value preOk, Value batchesOk, Value flags,
                                Value owners) {
  Value zero = constIndex(b, loc, 0);
  Value counted = b.createOrFold<arith::AndIOp>(loc, preOk, batchesOk);
  auto failed = scf::IfOp::create(
      b, loc, counted,
      [&](OpBuilder &nb, Location nloc) {
        Value noRows = nb.createOrFold<arith::CmpIOp>(
            nloc, arith::CmpIPredicate::eq, s.numRows, zero);
        Value someEntries = nb.createOrFold<arith::CmpIOp>(
            nloc, arith::CmpIPredicate::ne, s.numEntries, zero);
        Value lost = nb.createOrFold<arith::AndIOp>(nloc, noRows, someEntries);
        Value any = anyFlag(nb, nloc, flags, owners);
        scf::YieldOp::create(nb, nloc, orBool(nb, nloc, lost, any));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
      });
  Value ok = notBool(b, loc, failed.getResult(0));
  reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
    Value indices = flatView(nb, nloc, s.indices);
    s.reportFirstBad(nb, nloc, indices);
  });
}

void lowering::scatterByRowOwners(OpBuilder &b, Location loc,
                                  LoweringState &state, const RowScatter &s,
                                  Value dest, bool inPlace, Value ownerParts,
                                  Value chunks) {
  bool check = checksIndices(state, s);
  Type elementType = cast<MemRefType>(dest.getType()).getElementType();
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  OwnerBlocks plan = sizeBlocks(b, loc, s, elementType, ownerParts);
  EntryBatches batches = sizeBatches(b, loc, s);
  Buckets buckets =
      allocateBuckets(b, loc, plan, chunks, batches.size, elementType);
  Value preOk = constBool(b, loc, true);
  if (check)
    preOk = checkBeforeBatches(b, loc, s, plan, batches, chunks);
  Value flags;
  if (check)
    flags = allocateOwnerFlags(b, loc, plan.owners);

  // The batches, in order (nothing runs when the pre-check failed); one
  // block takes every entry at once. Each counts (and checks), then buckets
  // and applies if its indices are good.
  Value atMostOne = minIndex(b, loc, batches.count, one);
  Value runs = b.createOrFold<arith::SelectOp>(loc, plan.bucketed,
                                               batches.count, atMostOne);
  runs = b.createOrFold<arith::SelectOp>(loc, preOk, runs, zero);
  Value yes = constBool(b, loc, true);
  auto loop = scf::ForOp::create(
      b, loc, zero, runs, one, ValueRange{yes},
      [&](OpBuilder &nb, Location nloc, Value index, ValueRange carried) {
        Batch batch = batchRange(nb, nloc, s, batches, index);
        Value ok = countBatch(nb, nloc, s, plan, buckets, chunks, batch, check);
        buildIf(nb, nloc, ok, [&](OpBuilder &ab, Location aloc) {
          bucketAndApply(ab, aloc, s, plan, buckets, batch, chunks, check,
                         flags, dest, inPlace);
        });
        Value allOk = nb.createOrFold<arith::AndIOp>(nloc, carried[0], ok);
        scf::YieldOp::create(nb, nloc, ValueRange{allOk});
      });
  if (check)
    reportOwnerFailures(b, loc, s, preOk, loop.getResult(0), flags,
                        plan.owners);
}
