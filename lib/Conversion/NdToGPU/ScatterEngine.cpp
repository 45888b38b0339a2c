//===- ScatterEngine.cpp - deterministic scatters of rows on the GPU -----===//
//
// See ScatterEngine.h.
//
//===----------------------------------------------------------------------===//

#include "ScatterEngine.h"

#include "Combine.h"
#include "RadixSort.h"
#include "RowEngine.h"
#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// The most entries and rows (plus one for dropped entries) the 32-bit keys
/// of a scatter hold.
static constexpr int64_t kMaxKeys = std::numeric_limits<int32_t>::max();
/// The most entries a scatter under `none` has for the one-kernel path.
static constexpr int64_t kFewEntries = kBlockSize;
/// The most rows of the small sorted path (keys of 16 bits).
static constexpr int64_t kSmallRows = int64_t(1) << 16;
/// Blocks of the large path's key kernel (each adds its digit counts into
/// the histograms with atomics).
static constexpr int64_t kKeyBlocks = 512;

static Type elementTypeOf(const RowScatter &s) {
  return cast<MemRefType>(s.data.flat.getType()).getElementType();
}

/// In the first kernel of the scatter that writes: `body()` unless a check
/// of the call has failed; the first thread records the op's failure (see
/// ErrorRecord::failedOrFinalize).
static void unlessFailed(OpBuilder &b, Location loc, const RowScatter &s,
                         const KernelIds &ids,
                         function_ref<void(OpBuilder &, Location)> body) {
  if (!s.record) {
    body(b, loc);
    return;
  }
  Value failed;
  if (s.slot < 0) {
    failed = s.record->failed(b, loc);
  } else {
    Value first = isFirstThread(b, loc, ids);
    failed = s.record->failedOrFinalize(
        b, loc, first, s.slot,
        [&](OpBuilder &fb, Location floc, Value position) {
          return s.describe(fb, floc, position);
        });
  }
  buildIf(b, loc, notBool(b, loc, failed), body);
}

/// In a kernel: entry `e`'s key for the last-wins paths, its row or `rows`
/// where it is dropped (an i32), and its row as an index value.
static std::pair<Value, Value> lastWinsKey(OpBuilder &b, Location loc,
                                           const RowScatter &s, Value e,
                                           Value &dropped) {
  std::pair<Value, Value> entry = s.rowOf(b, loc, e);
  dropped = entry.second;
  Value key = select(b, loc, dropped, s.rows, entry.first);
  return {toI32(b, loc, key), entry.first};
}

/// The kernel variants of a row move from updates into data.
static void withRowVariants(
    OpBuilder &b, Location loc, const RowScatter &s,
    function_ref<void(OpBuilder &, Location, KernelVariant)> body) {
  Type elementType = elementTypeOf(s);
  Value canVector = canMoveVectors(b, loc, elementType, s.rowLen,
                                   {s.data.flat, s.updates.flat});
  Value dataSize = flatSize(b, loc, s.data.flat);
  Value updatesSize = flatSize(b, loc, s.updates.flat);
  Value small = fitsIn32Bits(b, loc, {dataSize, updatesSize});
  withVariants(b, loc, elementType, canVector, small, body);
}

//===----------------------------------------------------------------------===//
// Reduction `none`
//===----------------------------------------------------------------------===//

/// Step 1 of `none`: each entry's key (`rows` where dropped), checked, and
/// the atomic max of the entry numbers per row in `winners`.
static Value emitWinners(OpBuilder &b, Location loc, const RowScatter &s,
                         Value winners) {
  Type i32 = b.getI32Type();
  Value keys = allocFlat(b, loc, i32, s.entries);
  Value grid = gridFor(b, loc, s.entries, kBlockSize);
  launch(b, loc, grid, Value(), kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           gridStrideLoop(
               kb, kloc, ids, s.entries,
               [&](OpBuilder &lb, Location lloc, Value e) {
                 Value dropped;
                 std::pair<Value, Value> keyRow =
                     lastWinsKey(lb, lloc, s, e, dropped);
                 Value row = keyRow.second;
                 storeAt(lb, lloc, keyRow.first, keys, e);
                 buildIf(lb, lloc, notBool(lb, lloc, dropped),
                         [&](OpBuilder &nb, Location nloc) {
                           Value e32 = toI32(nb, nloc, e);
                           memref::AtomicRMWOp::create(
                               nb, nloc, arith::AtomicRMWKind::maxs, e32,
                               winners, ValueRange{row});
                         });
               });
         });
  return keys;
}

/// In a kernel: an entry's update row copied to its destination where
/// `writes` holds.
static void moveRow(OpBuilder &b, Location loc, const RowScatter &s,
                    const RowChunk &chunk, ValueRange values, int64_t vl) {
  Value skip = notBool(b, loc, values[2]);
  copyChunk(b, loc, chunk, s.updates.flat, values[0], s.data.flat, values[1],
            /*zero=*/Value(), skip, vl);
}

/// In a kernel: entry `e`'s source and destination rows (offsets) and
/// whether it writes, given its key (i32) and whether it wins.
static SmallVector<Value> rowMove(OpBuilder &b, Location loc,
                                  const RowScatter &s,
                                  const RowLayout &layout, Value e, Value key,
                                  Value wins) {
  Type type = layout.variant.offsets;
  Value rows32 = toI32(b, loc, s.rows);
  Value valid =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, key, rows32);
  Value zero = i32Const(b, loc, 0);
  Value at = arith::SelectOp::create(b, loc, valid, key, zero);
  Value rowLen = fromIndex(b, loc, type, s.rowLen);
  Value atOffset = fromIndex(b, loc, type, toIndex(b, loc, at));
  Value src = mulIndex(b, loc, e, rowLen);
  Value dst = mulIndex(b, loc, atOffset, rowLen);
  return {src, dst, andBool(b, loc, valid, wins)};
}

/// The few-entries kernel, phase 1: every entry's key into shared memory;
/// a bad one raises the block's flag.
static void fewKeys(OpBuilder &b, Location loc, const RowScatter &s,
                    const KernelIds &ids, bool checking) {
  Value keys = ids.shared[0], flag = ids.shared[1];
  Value zero = constIndex(b, loc, 0);
  Value mine = cmpIndex(b, loc, arith::CmpIPredicate::ult, ids.threadX,
                        s.entries);
  buildIf(b, loc, mine, [&](OpBuilder &nb, Location nloc) {
    Value dropped;
    Value key = lastWinsKey(nb, nloc, s, ids.threadX, dropped).first;
    storeAt(nb, nloc, key, keys, ids.threadX);
    if (!checking)
      return;
    buildIf(nb, nloc, dropped, [&](OpBuilder &fb, Location floc) {
      Value one32 = i32Const(fb, floc, 1);
      memref::StoreOp::create(fb, floc, one32, flag, zero);
    });
  });
}

/// The few-entries kernel, phase 2: whether the op or an earlier one failed
/// (the first thread of the grid records the first bad index, which its
/// block noted).
static Value fewFailed(OpBuilder &b, Location loc, const RowScatter &s,
                       const KernelIds &ids, bool checking) {
  Value failed = constBool(b, loc, false);
  if (s.record)
    failed = s.record->failed(b, loc);
  if (!checking)
    return failed;
  Value zero = constIndex(b, loc, 0);
  Value raised = memref::LoadOp::create(b, loc, ids.shared[1], zero);
  Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, raised,
                                    i32Const(b, loc, 0));
  Value first = isFirstThread(b, loc, ids);
  Value firstBad = andBool(b, loc, bad, first);
  Value noEarlier = notBool(b, loc, failed);
  Value report = andBool(b, loc, firstBad, noEarlier);
  buildIf(b, loc, report, [&](OpBuilder &nb, Location nloc) {
    s.record->finalizeHere(nb, nloc, s.slot,
                           [&](OpBuilder &fb, Location floc, Value position) {
                             return s.describe(fb, floc, position);
                           });
  });
  return orBool(b, loc, failed, bad);
}

/// In the few-entries kernel: whether an entry after `e` writes row `key`.
static Value overwritten(OpBuilder &b, Location loc, const RowScatter &s,
                         Value keys, Value e, Value key) {
  Value one = constIndex(b, loc, 1);
  Value next = addIndex(b, loc, toIndex(b, loc, e), one);
  Value no = constBool(b, loc, false);
  auto scan = scf::ForOp::create(
      b, loc, next, s.entries, one, ValueRange{no},
      [&](OpBuilder &lb, Location lloc, Value j, ValueRange acc) {
        Value other = memref::LoadOp::create(lb, lloc, keys, ValueRange{j});
        Value same = arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::eq,
                                           other, key);
        scf::YieldOp::create(lb, lloc, orBool(lb, lloc, acc[0], same));
      });
  return scan.getResult(0);
}

/// The few-entries kernel's body (see emitFewLastWins).
static void fewLastWinsBody(OpBuilder &b, Location loc, const KernelIds &ids,
                            const RowScatter &s, const RowLayout &layout,
                            bool checking) {
  Value zero = constIndex(b, loc, 0);
  Value isFirst = cmpIndex(b, loc, arith::CmpIPredicate::eq, ids.threadX, zero);
  buildIf(b, loc, isFirst, [&](OpBuilder &nb, Location nloc) {
    Value zero32 = i32Const(nb, nloc, 0);
    memref::StoreOp::create(nb, nloc, zero32, ids.shared[1], zero);
  });
  barrier(b, loc);
  fewKeys(b, loc, s, ids, checking);
  barrier(b, loc);
  Value failed = fewFailed(b, loc, s, ids, checking);
  int64_t vl = layout.variant.vectorLength;
  buildIf(b, loc, notBool(b, loc, failed), [&](OpBuilder &fb, Location floc) {
    forEachRowChunk(
        fb, floc, ids, layout,
        [&](OpBuilder &rb, Location rloc, Value e) {
          Value key = loadAt(rb, rloc, ids.shared[0], e);
          Value later = overwritten(rb, rloc, s, ids.shared[0], e, key);
          Value last = notBool(rb, rloc, later);
          return rowMove(rb, rloc, s, layout, e, key, last);
        },
        [&](OpBuilder &cb, Location cloc, Value, ValueRange values,
            const RowChunk &chunk) {
          moveRow(cb, cloc, s, chunk, values, vl);
        });
  });
}

/// Reduction `none` with at most kFewEntries entries (a KV-cache update):
/// one kernel. Each block computes and checks every entry's row into
/// workgroup memory; if none is bad, each group writes its entries that no
/// later entry overwrites. No scratch buffer.
static void emitFewLastWins(OpBuilder &b, Location loc, const RowScatter &s) {
  Type i32 = b.getI32Type();
  bool checking = s.record && s.slot >= 0;
  MLIRContext *ctx = b.getContext();
  SmallVector<MemRefType> shared = {sharedType(ctx, i32, kFewEntries),
                                    sharedType(ctx, i32, 1)};
  withRowVariants(
      b, loc, s, [&](OpBuilder &vb, Location vloc, KernelVariant variant) {
        int64_t units = unitsPerThreadFor(s.rowLen, variant.vectorLength);
        RowLayout layout =
            rowLayout(vb, vloc, s.entries, s.rowLen, variant, units);
        launchRows(
            vb, vloc, layout,
            [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
              fewLastWinsBody(kb, kloc, ids, s, layout, checking);
            },
            shared);
      });
}

/// The apply kernel's body of `none`: each entry that wins its row writes
/// it.
static void lastWinsBody(OpBuilder &b, Location loc, const KernelIds &ids,
                         const RowScatter &s, const RowLayout &layout,
                         Value keys, Value winners) {
  int64_t vl = layout.variant.vectorLength;
  unlessFailed(b, loc, s, ids, [&](OpBuilder &fb, Location floc) {
    forEachRowChunk(
        fb, floc, ids, layout,
        [&](OpBuilder &rb, Location rloc, Value e) {
          Value key = loadAt(rb, rloc, keys, e);
          Value rows32 = toI32(rb, rloc, s.rows);
          Value valid = arith::CmpIOp::create(
              rb, rloc, arith::CmpIPredicate::ne, key, rows32);
          Value zero = i32Const(rb, rloc, 0);
          Value at = arith::SelectOp::create(rb, rloc, valid, key, zero);
          Value winner = loadAt(rb, rloc, winners, at);
          Value e32 = toI32(rb, rloc, toIndex(rb, rloc, e));
          Value wins = arith::CmpIOp::create(
              rb, rloc, arith::CmpIPredicate::eq, winner, e32);
          return rowMove(rb, rloc, s, layout, e, key, wins);
        },
        [&](OpBuilder &cb, Location cloc, Value, ValueRange values,
            const RowChunk &chunk) {
          moveRow(cb, cloc, s, chunk, values, vl);
        });
  });
}

/// Reduction `none`: the last entry of each row writes it.
static void emitLastWins(OpBuilder &b, Location loc, const RowScatter &s) {
  Type i32 = b.getI32Type();
  Value one = constIndex(b, loc, 1);
  Value winners = allocFlat(b, loc, i32, maxIndex(b, loc, s.rows, one));
  fill32(b, loc, winners, -1);
  Value keys = emitWinners(b, loc, s, winners);
  withRowVariants(
      b, loc, s, [&](OpBuilder &vb, Location vloc, KernelVariant variant) {
        int64_t units = unitsPerThreadFor(s.rowLen, variant.vectorLength);
        RowLayout layout =
            rowLayout(vb, vloc, s.entries, s.rowLen, variant, units);
        launchRows(vb, vloc, layout,
                   [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
                     lastWinsBody(kb, kloc, ids, s, layout, keys, winners);
                   });
      });
  dealloc(b, loc, winners);
  dealloc(b, loc, keys);
}

//===----------------------------------------------------------------------===//
// Reductions: the small path
//===----------------------------------------------------------------------===//

/// The rounds of 2 bits that sort keys below `rows` (at most 65536): from
/// the row count where it is static, 8 otherwise.
static int64_t smallRounds(Value rows) {
  std::optional<int64_t> known = getConstantIntValue(rows);
  if (!known)
    return 8;
  int64_t bits = llvm::Log2_64_Ceil(std::max<int64_t>(*known, 2));
  return std::max<int64_t>(1, (bits + 1) / 2);
}

/// Phase 1 of the tile kernel: the keys of the block's tile, checked, with
/// their payloads (entry numbers, bit 31 for a dropped entry), into shared
/// memory; entries past the end get key 0xFFFFFFFF.
static void loadTileEntries(OpBuilder &b, Location loc, const RowScatter &s,
                            const KernelIds &ids, const TileBuffers &tile) {
  Type i32 = b.getI32Type();
  Value t = threadId32(b, loc, ids);
  Value block = toI32(b, loc, ids.blockX);
  Value start = arith::MulIOp::create(b, loc, block, i32Const(b, loc, kSortTile));
  Value count = toI32(b, loc, s.entries);
  for (int64_t j = 0; j < kSortItems; ++j) {
    Value i = arith::AddIOp::create(b, loc, t, i32Const(b, loc, j * kSortBlock));
    Value e = arith::AddIOp::create(b, loc, start, i);
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, e, count);
    Value zero = i32Const(b, loc, 0);
    Value none = i32Const(b, loc, -1);
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{i32, i32}, inside,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      auto [row, dropped] = s.rowOf(b, loc, toIndex(b, loc, e));
      Value row32 = toI32(b, loc, row);
      Value key = arith::SelectOp::create(b, loc, dropped, zero, row32);
      Value mark = i32Const(b, loc, kDroppedBit);
      Value flag = arith::SelectOp::create(b, loc, dropped, mark, zero);
      Value payload = arith::OrIOp::create(b, loc, e, flag);
      scf::YieldOp::create(b, loc, ValueRange{key, payload});
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, loc, ValueRange{none, zero});
    }
    storeAt(b, loc, ifOp.getResult(0), tile.keys, i);
    storeAt(b, loc, ifOp.getResult(1), tile.payloads, i);
  }
}

/// The end of the run of `key` that starts at `from` among the `valid`
/// sorted keys of the tile (a binary search in shared memory).
static Value runEnd(OpBuilder &b, Location loc, Value keys, Value from,
                    Value valid, Value key) {
  Type i32 = b.getI32Type();
  Value one = i32Const(b, loc, 1);
  Value lo = arith::AddIOp::create(b, loc, from, one);
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{i32, i32}, ValueRange{lo, valid},
      [&](OpBuilder &wb, Location wloc, ValueRange args) {
        Value more = arith::CmpIOp::create(wb, wloc, arith::CmpIPredicate::slt,
                                           args[0], args[1]);
        scf::ConditionOp::create(wb, wloc, more, args);
      },
      [&](OpBuilder &wb, Location wloc, ValueRange args) {
        Value sum = arith::AddIOp::create(wb, wloc, args[0], args[1]);
        Value mid = arith::ShRUIOp::create(wb, wloc, sum, one);
        Value other = loadAt(wb, wloc, keys, mid);
        Value same = arith::CmpIOp::create(wb, wloc, arith::CmpIPredicate::eq,
                                           other, key);
        Value after = arith::AddIOp::create(wb, wloc, mid, one);
        Value newLo = arith::SelectOp::create(wb, wloc, same, after, args[0]);
        Value newHi = arith::SelectOp::create(wb, wloc, same, args[1], mid);
        scf::YieldOp::create(wb, wloc, ValueRange{newLo, newHi});
      });
  return loop.getResult(0);
}

namespace {
/// The small path's buffers.
struct TileOutput {
  Value payloads, table;
};
} // namespace

/// Phase 3 of the tile kernel: the block's column of the table cleared.
static void clearTableColumn(OpBuilder &b, Location loc, const RowScatter &s,
                             const KernelIds &ids, const TileOutput &out) {
  Value t = threadId32(b, loc, ids);
  Value block = toI32(b, loc, ids.blockX);
  Value rows = toI32(b, loc, s.rows);
  Value column = arith::MulIOp::create(b, loc, block, rows);
  Value zero = i32Const(b, loc, 0);
  Value step = i32Const(b, loc, kSortBlock);
  buildFor(b, loc, t, rows, step, [&](OpBuilder &lb, Location lloc, Value r) {
    Value at = arith::AddIOp::create(lb, lloc, column, r);
    storeAt(lb, lloc, zero, out.table, at);
  });
}

/// Phase 4 of the tile kernel: the sorted payloads out, coalesced, and the
/// start and length of each row's run, written by the run's first entry.
static void writeTile(OpBuilder &b, Location loc, const RowScatter &s,
                      const KernelIds &ids, const TileBuffers &tile,
                      const TileOutput &out) {
  Value t = threadId32(b, loc, ids);
  Value block = toI32(b, loc, ids.blockX);
  Value start = arith::MulIOp::create(b, loc, block, i32Const(b, loc, kSortTile));
  Value count = toI32(b, loc, s.entries);
  Value rest = arith::SubIOp::create(b, loc, count, start);
  Value full = i32Const(b, loc, kSortTile);
  Value valid = b.createOrFold<arith::MinSIOp>(loc, rest, full);
  Value rows = toI32(b, loc, s.rows);
  Value column = arith::MulIOp::create(b, loc, block, rows);
  for (int64_t j = 0; j < kSortItems; ++j) {
    Value i = arith::AddIOp::create(b, loc, t, i32Const(b, loc, j * kSortBlock));
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, valid);
    buildIf(b, loc, inside, [&](OpBuilder &nb, Location nloc) {
      Value payload = loadAt(nb, nloc, tile.payloads, i);
      Value at = arith::AddIOp::create(nb, nloc, start, i);
      storeAt(nb, nloc, payload, out.payloads, at);
      Value key = loadAt(nb, nloc, tile.keys, i);
      Value zero = i32Const(nb, nloc, 0);
      Value one = i32Const(nb, nloc, 1);
      Value first = arith::CmpIOp::create(nb, nloc, arith::CmpIPredicate::eq,
                                          i, zero);
      Value before = arith::SubIOp::create(nb, nloc, i, one);
      Value safe = arith::SelectOp::create(nb, nloc, first, zero, before);
      Value previous = loadAt(nb, nloc, tile.keys, safe);
      Value differs = arith::CmpIOp::create(
          nb, nloc, arith::CmpIPredicate::ne, previous, key);
      buildIf(nb, nloc, orBool(nb, nloc, first, differs),
              [&](OpBuilder &hb, Location hloc) {
                Value end = runEnd(hb, hloc, tile.keys, i, valid, key);
                Value length = arith::SubIOp::create(hb, hloc, end, i);
                Value sixteen = i32Const(hb, hloc, 16);
                Value high = arith::ShLIOp::create(hb, hloc, i, sixteen);
                Value word = arith::OrIOp::create(hb, hloc, high, length);
                Value slot = arith::AddIOp::create(hb, hloc, column, key);
                storeAt(hb, hloc, word, out.table, slot);
              });
    });
  }
}

/// The small path: the tile kernel, then the owners (two kernels).
static void emitSmallSorted(OpBuilder &b, Location loc, const RowScatter &s) {
  Type i32 = b.getI32Type();
  Value one = constIndex(b, loc, 1);
  Value tile = constIndex(b, loc, kSortTile);
  Value tiles = maxIndex(b, loc, ceilDiv(b, loc, s.entries, tile), one);
  TileOutput out;
  out.payloads = allocFlat(b, loc, i32, mulIndex(b, loc, tiles, tile));
  Value rows = maxIndex(b, loc, s.rows, one);
  out.table = allocFlat(b, loc, i32, mulIndex(b, loc, tiles, rows));
  int64_t rounds = smallRounds(s.rows);
  launch(
      b, loc, tiles, Value(), kSortBlock,
      [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
        TileBuffers buffers = tileBuffers(ids);
        loadTileEntries(kb, kloc, s, ids, buffers);
        barrier(kb, kloc);
        Value shift = i32Const(kb, kloc, 0);
        sortTileRounds(kb, kloc, ids, buffers, shift, rounds);
        clearTableColumn(kb, kloc, s, ids, out);
        barrier(kb, kloc);
        writeTile(kb, kloc, s, ids, buffers, out);
      },
      tileSortShared(b.getContext()));
  SortedRuns runs;
  runs.tiled = true;
  runs.payloads = out.payloads;
  runs.table = out.table;
  runs.tiles = tiles;
  emitCombine(b, loc, s, runs);
  dealloc(b, loc, out.payloads);
  dealloc(b, loc, out.table);
}

//===----------------------------------------------------------------------===//
// Reductions: the large path
//===----------------------------------------------------------------------===//

/// The key kernel: each entry's key (bit 31 where dropped), checked, and
/// the digit counts of every pass.
static Value emitSortKeys(OpBuilder &b, Location loc, const RowScatter &s,
                          const SortScratch &scratch) {
  Type i32 = b.getI32Type();
  Value keys = allocFlat(b, loc, i32, s.entries);
  Value per = constIndex(b, loc, kBlockSize);
  Value grid = gridFor(b, loc, s.entries, per, kKeyBlocks);
  MemRefType counts = digitCountShared(b.getContext());
  launch(
      b, loc, grid, Value(), kBlockSize,
      [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
        Value shared = ids.shared[0];
        clearDigitCounts(kb, kloc, ids, shared);
        barrier(kb, kloc);
        gridStrideLoop(
            kb, kloc, ids, s.entries,
            [&](OpBuilder &lb, Location lloc, Value e) {
              auto [row, dropped] = s.rowOf(lb, lloc, e);
              Value row32 = toI32(lb, lloc, row);
              Value zero = i32Const(lb, lloc, 0);
              Value key = arith::SelectOp::create(lb, lloc, dropped, zero,
                                                  row32);
              Value mark = i32Const(lb, lloc, kDroppedBit);
              Value word = arith::SelectOp::create(lb, lloc, dropped, mark,
                                                   row32);
              memref::StoreOp::create(lb, lloc, word, keys, ValueRange{e});
              noteDigits(lb, lloc, shared, key, scratch.passes);
            });
        barrier(kb, kloc);
        flushDigitCounts(kb, kloc, ids, shared, scratch);
      },
      {counts});
  return keys;
}

/// The large path: a memset, the key kernel, one kernel per digit, the
/// owners.
static void emitLargeSorted(OpBuilder &b, Location loc, const RowScatter &s) {
  SortScratch scratch = allocSortScratch(b, loc, s.entries, s.rows);
  Value keys = emitSortKeys(b, loc, s, scratch);
  SortedEntries sorted = emitRadixSort(b, loc, keys, s.entries, scratch);
  SortedRuns runs;
  runs.keys = sorted.keys;
  runs.payloads = sorted.payloads;
  emitCombine(b, loc, s, runs);
  releaseSort(b, loc, sorted);
  releaseSortScratch(b, loc, scratch);
}

//===----------------------------------------------------------------------===//
// The engine
//===----------------------------------------------------------------------===//

void gpu_lowering::emitRowScatter(OpBuilder &b, Location loc,
                                  const RowScatter &s) {
  // 32-bit keys and entry numbers: at most 2^31 - 1 of each, a row number
  // of 2^31 - 1 marking dropped entries of `none`.
  Value limit = constIndex(b, loc, kMaxKeys);
  Value manyEntries =
      cmpIndex(b, loc, arith::CmpIPredicate::ugt, s.entries, limit);
  Value manyRows = cmpIndex(b, loc, arith::CmpIPredicate::uge, s.rows, limit);
  Value tooMany = orBool(b, loc, manyEntries, manyRows);
  if (s.record) {
    int64_t code = s.record->addMessage(
        s.op, "the GPU lowering takes at most 2147483647 update entries "
              "(%lld) and 2147483646 destination rows (%lld)");
    s.record->recordFromHost(b, loc, tooMany, code, s.entries, s.rows);
  }
  buildIf(b, loc, notBool(b, loc, tooMany), [&](OpBuilder &hb, Location hloc) {
    if (s.reduction == ReductionKind::None) {
      assert(!s.source && "the copy is folded under reductions only");
      Value few = cmpIndex(hb, hloc, arith::CmpIPredicate::ule, s.entries,
                           constIndex(hb, hloc, kFewEntries));
      buildIfElse(
          hb, hloc, few,
          [&](OpBuilder &nb, Location nloc) { emitFewLastWins(nb, nloc, s); },
          [&](OpBuilder &nb, Location nloc) { emitLastWins(nb, nloc, s); });
      return;
    }
    Value fewEntries = cmpIndex(hb, hloc, arith::CmpIPredicate::ule, s.entries,
                                constIndex(hb, hloc, kMaxTiles * kSortTile));
    Value fewRows = cmpIndex(hb, hloc, arith::CmpIPredicate::ule, s.rows,
                             constIndex(hb, hloc, kSmallRows));
    buildIfElse(
        hb, hloc, andBool(hb, hloc, fewEntries, fewRows),
        [&](OpBuilder &nb, Location nloc) { emitSmallSorted(nb, nloc, s); },
        [&](OpBuilder &nb, Location nloc) { emitLargeSorted(nb, nloc, s); });
  });
}
