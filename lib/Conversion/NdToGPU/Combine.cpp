//===- Combine.cpp - the owners of destination rows on the GPU ---*- C++ -*-===//
//
// See Combine.h.
//
//===----------------------------------------------------------------------===//

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

/// Payloads each thread stages into shared memory for its group.
static constexpr int64_t kStagePerThread = 16;
/// Staged per loop step (loads in flight while staging).
static constexpr int64_t kStageUnroll = 4;
/// Shared words per group for the run's lookup.
static constexpr int64_t kInfoWords = kMaxTiles;
/// Update loads each thread keeps in flight while it walks a run.
static constexpr int64_t kLoadsInFlight = 8;
/// The longest run the owners' kernel of the large path walks; longer ones
/// (hub rows) are the long runs' kernel's.
static constexpr int64_t kLongRun = 64;

namespace {
/// One combine kernel: the scatter, its runs and the kernel's variant.
struct Combine {
  const RowScatter &s;
  const SortedRuns &runs;
  RowLayout layout;
  Type elementType;
  /// Entries whose updates are loaded before any is combined.
  int64_t batch = 1;
  bool tallied = false;
  /// The rows this kernel owns: runs of at most `atMost` entries (-1: any),
  /// or of more than `above` (-1: any).
  int64_t atMost = -1, above = -1;
};

/// A thread's view of its group in the kernel.
struct GroupView {
  /// The group's row (offset type) and, as an i32, for lookups.
  Value row, row32;
  Value lane, tpr;
  /// The group's first words in the shared buffers (i32).
  Value infoBase, stageBase;
  Value info, stage;
  /// Whether the row exists and no check of the call has failed.
  Value live;
};

/// The accumulators of a walk: one per unit of the thread, the count of
/// updates (mean) and whether one has been taken (no `use_init_val`).
struct RunState {
  SmallVector<Value> acc;
  Value count, started;
};
} // namespace

static Value lessThan(OpBuilder &b, Location loc, Value x, Value y) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, x, y);
}

static bool isIntegerMean(const Combine &c) {
  return c.s.reduction == ReductionKind::Mean &&
         !isa<FloatType>(c.elementType);
}

//===----------------------------------------------------------------------===//
// Runs
//===----------------------------------------------------------------------===//

/// The lower bounds of `row` and `row + 1` (i32) among the `count` sorted
/// keys: two binary searches in one loop, their loads in flight together.
static std::pair<Value, Value> runBounds(OpBuilder &b, Location loc,
                                         Value keys, Value count, Value row) {
  Type i32 = b.getI32Type();
  Value zero = i32Const(b, loc, 0);
  Value next = arith::AddIOp::create(b, loc, row, i32Const(b, loc, 1));
  Value targets[] = {row, next};
  Value init[] = {zero, count, zero, count};
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{i32, i32, i32, i32}, init,
      [&](OpBuilder &wb, Location wloc, ValueRange args) {
        Value first = lessThan(wb, wloc, args[0], args[1]);
        Value second = lessThan(wb, wloc, args[2], args[3]);
        Value more = orBool(wb, wloc, first, second);
        scf::ConditionOp::create(wb, wloc, more, args);
      },
      [&](OpBuilder &wb, Location wloc, ValueRange args) {
        SmallVector<Value> out;
        for (int64_t s = 0; s < 2; ++s) {
          Value lo = args[2 * s], hi = args[2 * s + 1];
          Value active = lessThan(wb, wloc, lo, hi);
          Value sum = arith::AddIOp::create(wb, wloc, lo, hi);
          Value one = i32Const(wb, wloc, 1);
          Value mid = arith::ShRUIOp::create(wb, wloc, sum, one);
          Value zero32 = i32Const(wb, wloc, 0);
          Value at = arith::SelectOp::create(wb, wloc, active, mid, zero32);
          Value key = loadAt(wb, wloc, keys, at);
          Value below = lessThan(wb, wloc, key, targets[s]);
          Value up = andBool(wb, wloc, active, below);
          Value down = andBool(wb, wloc, active, notBool(wb, wloc, below));
          Value after = arith::AddIOp::create(wb, wloc, mid, one);
          out.push_back(arith::SelectOp::create(wb, wloc, up, after, lo));
          out.push_back(arith::SelectOp::create(wb, wloc, down, mid, hi));
        }
        scf::YieldOp::create(wb, wloc, out);
      });
  return {loop.getResult(0), loop.getResult(2)};
}

/// The group's row word of tile `w` (an i32).
static Value tileWord(OpBuilder &b, Location loc, const GroupView &g,
                      Value w) {
  Value at = arith::AddIOp::create(b, loc, g.infoBase, w);
  return loadAt(b, loc, g.info, at);
}

/// `init` folded over the group's words of the tiles, in tile order:
/// `step(w, word, acc)`. A loop, not unrolled: it runs where a run is
/// looked up, not per update.
static SmallVector<Value>
foldTiles(OpBuilder &b, Location loc, const Combine &c, const GroupView &g,
          ValueRange init,
          function_ref<SmallVector<Value>(OpBuilder &, Location, Value, Value,
                                          ValueRange)>
              step) {
  Value zero = i32Const(b, loc, 0);
  Value one = i32Const(b, loc, 1);
  Value tiles = toI32(b, loc, c.runs.tiles);
  auto loop = scf::ForOp::create(
      b, loc, zero, tiles, one, init,
      [&](OpBuilder &lb, Location lloc, Value w, ValueRange acc) {
        Value word = tileWord(lb, lloc, g, w);
        scf::YieldOp::create(lb, lloc, step(lb, lloc, w, word, acc));
      });
  return loop.getResults();
}

/// Phase 1, in the group's first thread: the run's start and length
/// (sorted keys), or the row's word of each tile (tiled), into shared
/// memory.
static void lookupRun(OpBuilder &b, Location loc, const Combine &c,
                      const GroupView &g) {
  Value zero = i32Const(b, loc, 0);
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      g.lane, zero);
  Value mine = andBool(b, loc, g.live, first);
  buildIf(b, loc, mine, [&](OpBuilder &nb, Location nloc) {
    if (!c.runs.tiled) {
      Value count = toI32(nb, nloc, c.s.entries);
      auto [lo, hi] = runBounds(nb, nloc, c.runs.keys, count, g.row32);
      Value length = arith::SubIOp::create(nb, nloc, hi, lo);
      Value second = arith::AddIOp::create(nb, nloc, g.infoBase,
                                           i32Const(nb, nloc, 1));
      storeAt(nb, nloc, lo, g.info, g.infoBase);
      storeAt(nb, nloc, length, g.info, second);
      return;
    }
    Value rows = toI32(nb, nloc, c.s.rows);
    for (int64_t w = 0; w < kMaxTiles; ++w) {
      Value inUse = cmpIndex(nb, nloc, arith::CmpIPredicate::ult,
                             constIndex(nb, nloc, w), c.runs.tiles);
      buildIf(nb, nloc, inUse, [&](OpBuilder &tb, Location tloc) {
        Value column = arith::MulIOp::create(tb, tloc, i32Const(tb, tloc, w),
                                             rows);
        Value at = arith::AddIOp::create(tb, tloc, column, g.row32);
        Value word = loadAt(tb, tloc, c.runs.table, at);
        Value slot = arith::AddIOp::create(tb, tloc, g.infoBase,
                                           i32Const(tb, tloc, w));
        storeAt(tb, tloc, word, g.info, slot);
      });
    }
  });
}

/// The number of entries of the group's row (i32), from shared memory.
static Value runLength(OpBuilder &b, Location loc, const Combine &c,
                       const GroupView &g) {
  if (!c.runs.tiled) {
    Value second =
        arith::AddIOp::create(b, loc, g.infoBase, i32Const(b, loc, 1));
    return loadAt(b, loc, g.info, second);
  }
  Value zero = i32Const(b, loc, 0);
  SmallVector<Value> sum = foldTiles(
      b, loc, c, g, ValueRange{zero},
      [](OpBuilder &lb, Location lloc, Value, Value word, ValueRange acc) {
        Value mask = i32Const(lb, lloc, 0xFFFF);
        Value part = arith::AndIOp::create(lb, lloc, word, mask);
        Value next = arith::AddIOp::create(lb, lloc, acc[0], part);
        return SmallVector<Value>{next};
      });
  return sum[0];
}

/// The payload of the row's `j`-th entry (i32), from global memory.
static Value payloadOf(OpBuilder &b, Location loc, const Combine &c,
                       const GroupView &g, Value j) {
  if (!c.runs.tiled) {
    Value start = loadAt(b, loc, g.info, g.infoBase);
    Value at = arith::AddIOp::create(b, loc, start, j);
    return loadAt(b, loc, c.runs.payloads, at);
  }
  // The tile holding entry j: the tiles' runs follow one another in tile
  // order, which is the entries' order.
  Value zero = i32Const(b, loc, 0);
  SmallVector<Value> found = foldTiles(
      b, loc, c, g, ValueRange{zero, zero},
      [&](OpBuilder &lb, Location lloc, Value w, Value word, ValueRange acc) {
        Value before = acc[0];
        Value mask = i32Const(lb, lloc, 0xFFFF);
        Value length = arith::AndIOp::create(lb, lloc, word, mask);
        Value sixteen = i32Const(lb, lloc, 16);
        Value start = arith::ShRUIOp::create(lb, lloc, word, sixteen);
        Value end = arith::AddIOp::create(lb, lloc, before, length);
        Value from = arith::CmpIOp::create(lb, lloc, arith::CmpIPredicate::sge,
                                           j, before);
        Value below = lessThan(lb, lloc, j, end);
        Value here = andBool(lb, lloc, from, below);
        Value offset = arith::SubIOp::create(lb, lloc, j, before);
        Value tileSize = i32Const(lb, lloc, kSortTile);
        Value tileStart = arith::MulIOp::create(lb, lloc, w, tileSize);
        Value inTile = arith::AddIOp::create(lb, lloc, start, offset);
        Value position = arith::AddIOp::create(lb, lloc, tileStart, inTile);
        Value at = arith::SelectOp::create(lb, lloc, here, position, acc[1]);
        return SmallVector<Value>{end, at};
      });
  return loadAt(b, loc, c.runs.payloads, found[1]);
}

/// Phase 2: the group's threads stage the payloads of the run's first
/// entries into shared memory, several loads in flight each.
static void stagePayloads(OpBuilder &b, Location loc, const Combine &c,
                          const GroupView &g) {
  Value one = i32Const(b, loc, 1);
  Value shared = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                       g.tpr, one);
  Value work = andBool(b, loc, g.live, shared);
  buildIf(b, loc, work, [&](OpBuilder &nb, Location nloc) {
    Value n = runLength(nb, nloc, c, g);
    Value room = arith::MulIOp::create(nb, nloc, g.tpr,
                                       i32Const(nb, nloc, kStagePerThread));
    Value limit = nb.createOrFold<arith::MinSIOp>(nloc, n, room);
    Value zero = i32Const(nb, nloc, 0);
    Value steps = i32Const(nb, nloc, kStagePerThread);
    Value step = i32Const(nb, nloc, kStageUnroll);
    buildFor(nb, nloc, zero, steps, step,
             [&](OpBuilder &lb, Location lloc, Value m) {
               for (int64_t q = 0; q < kStageUnroll; ++q) {
                 Value mq = arith::AddIOp::create(lb, lloc, m,
                                                  i32Const(lb, lloc, q));
                 Value spread = arith::MulIOp::create(lb, lloc, mq, g.tpr);
                 Value j = arith::AddIOp::create(lb, lloc, g.lane, spread);
                 Value inside = lessThan(lb, lloc, j, limit);
                 buildIf(lb, lloc, inside, [&](OpBuilder &sb, Location sloc) {
                   Value payload = payloadOf(sb, sloc, c, g, j);
                   Value at = arith::AddIOp::create(sb, sloc, g.stageBase, j);
                   storeAt(sb, sloc, payload, g.stage, at);
                 });
               }
             });
  });
}

/// In the walk: the payloads of entries `j0 .. j0 + batch - 1` (i32), as
/// straight-line loads: from shared memory where the whole batch is staged,
/// from global memory otherwise (one branch per batch, not per entry, so
/// that the batch's loads are in flight together). Entries past `n` read
/// the last entry's payload (their loads stay inside the run) and are
/// marked dropped.
static SmallVector<Value> batchPayloads(OpBuilder &b, Location loc,
                                        const Combine &c, const GroupView &g,
                                        Value n, Value j0) {
  Type i32 = b.getI32Type();
  Value one = i32Const(b, loc, 1);
  Value last = arith::SubIOp::create(b, loc, n, one);
  SmallVector<Value> js, clamped;
  for (int64_t i = 0; i < c.batch; ++i) {
    Value j = arith::AddIOp::create(b, loc, j0, i32Const(b, loc, i));
    js.push_back(j);
    clamped.push_back(arith::MinSIOp::create(b, loc, j, last));
  }
  Value staging = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                        g.tpr, one);
  Value room = arith::MulIOp::create(b, loc, g.tpr,
                                     i32Const(b, loc, kStagePerThread));
  Value end = arith::AddIOp::create(b, loc, j0, i32Const(b, loc, c.batch));
  Value fits = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end,
                                     room);
  Value staged = andBool(b, loc, staging, fits);
  SmallVector<Type> types(c.batch, i32);
  auto ifStaged = scf::IfOp::create(b, loc, types, staged,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifStaged.thenBlock());
    SmallVector<Value> loaded;
    for (Value j : clamped) {
      Value at = arith::AddIOp::create(b, loc, g.stageBase, j);
      loaded.push_back(loadAt(b, loc, g.stage, at));
    }
    scf::YieldOp::create(b, loc, loaded);
    b.setInsertionPointToStart(ifStaged.elseBlock());
    loaded.clear();
    for (Value j : clamped)
      loaded.push_back(payloadOf(b, loc, c, g, j));
    scf::YieldOp::create(b, loc, loaded);
  }
  SmallVector<Value> payloads;
  Value mark = i32Const(b, loc, kDroppedBit);
  for (int64_t i = 0; i < c.batch; ++i) {
    Value live = lessThan(b, loc, js[i], n);
    Value payload = ifStaged.getResult(i);
    Value dropped = arith::OrIOp::create(b, loc, payload, mark);
    payloads.push_back(arith::SelectOp::create(b, loc, live, payload, dropped));
  }
  return payloads;
}

//===----------------------------------------------------------------------===//
// The walk
//===----------------------------------------------------------------------===//

static RunState initialState(OpBuilder &b, Location loc, const Combine &c,
                             ArrayRef<Value> current) {
  RunState st;
  Type i64 = b.getI64Type();
  if (isIntegerMean(c)) {
    IntegerType wide = widerInteger(c.elementType, 64);
    for (Value v : current) {
      Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(wide));
      st.acc.push_back(c.s.useInit ? extendInteger(b, loc, v, wide) : zero);
    }
  } else {
    st.acc.assign(current.begin(), current.end());
  }
  if (c.s.reduction == ReductionKind::Mean)
    st.count = constInt(b, loc, i64, c.s.useInit ? 1 : 0);
  if (!c.s.useInit && !isIntegerMean(c))
    st.started = constBool(b, loc, false);
  return st;
}

static SmallVector<Value> flatten(const RunState &st) {
  SmallVector<Value> values(st.acc);
  if (st.count)
    values.push_back(st.count);
  if (st.started)
    values.push_back(st.started);
  return values;
}

static RunState unflatten(ValueRange values, const RunState &like) {
  RunState st;
  size_t n = like.acc.size();
  st.acc.assign(values.begin(), values.begin() + n);
  if (like.count)
    st.count = values[n++];
  if (like.started)
    st.started = values[n];
  return st;
}

/// One entry's units (`values`) combined into the state where `valid`.
static RunState step(OpBuilder &b, Location loc, const Combine &c,
                     const RunState &st, ArrayRef<Value> values, Value valid) {
  RunState out = st;
  for (auto [k, v] : llvm::enumerate(values)) {
    Value next;
    if (isIntegerMean(c)) {
      auto wide = cast<IntegerType>(st.acc[k].getType());
      Value term = extendInteger(b, loc, v, wide);
      next = arith::AddIOp::create(b, loc, st.acc[k], term);
    } else {
      next = combine(b, loc, c.s.reduction, st.acc[k], v);
      if (st.started)
        next = arith::SelectOp::create(b, loc, st.started, next, v);
    }
    out.acc[k] = arith::SelectOp::create(b, loc, valid, next, st.acc[k]);
  }
  if (st.count) {
    Value one = arith::ExtUIOp::create(b, loc, b.getI64Type(), valid);
    out.count = arith::AddIOp::create(b, loc, st.count, one);
  }
  if (st.started)
    out.started = orBool(b, loc, st.started, valid);
  return out;
}

/// The units to store: the combination, a mean, or data's value where a
/// mean has no update.
static SmallVector<Value> finalUnits(OpBuilder &b, Location loc,
                                     const Combine &c, const RunState &st,
                                     ArrayRef<Value> current) {
  if (c.s.reduction != ReductionKind::Mean)
    return st.acc;
  Type i64 = b.getI64Type();
  Value zero = constInt(b, loc, i64, 0);
  Value none = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                     st.count, zero);
  Value one = constInt(b, loc, i64, 1);
  Value divisor = arith::MaxUIOp::create(b, loc, st.count, one);
  SmallVector<Value> out;
  for (auto [k, acc] : llvm::enumerate(st.acc)) {
    Value mean = isIntegerMean(c)
                     ? integerMean(b, loc, c.elementType, acc, divisor)
                     : floatMean(b, loc, acc, divisor);
    out.push_back(arith::SelectOp::create(b, loc, none, current[k], mean));
  }
  return out;
}

/// Phase 3 for one chunk of the row: the run walked in batches, each
/// batch's units loaded before any is combined.
static void walkChunk(OpBuilder &b, Location loc, const Combine &c,
                      const GroupView &g, Value n, const RowChunk &chunk) {
  const RowScatter &s = c.s;
  Type type = c.layout.variant.offsets;
  int64_t vl = c.layout.variant.vectorLength;
  Value rowLen = fromIndex(b, loc, type, s.rowLen);
  Value base = mulIndex(b, loc, g.row, rowLen);
  Value origin = s.source ? s.source : s.data.flat;
  SmallVector<Value> current =
      loadChunk(b, loc, origin, base, chunk, Value(), vl);
  RunState init = initialState(b, loc, c, current);
  Value zero = i32Const(b, loc, 0);
  Value batch = i32Const(b, loc, c.batch);
  auto loop = scf::ForOp::create(
      b, loc, zero, n, batch, flatten(init),
      [&](OpBuilder &lb, Location lloc, Value j0, ValueRange args) {
        RunState st = unflatten(args, init);
        SmallVector<Value> sources;
        Value mark = i32Const(lb, lloc, kDroppedBit);
        Value low = i32Const(lb, lloc, kDroppedBit - 1);
        SmallVector<Value> payloads = batchPayloads(lb, lloc, c, g, n, j0);
        // The dropped entries, one bit each in one word: a flag per entry
        // live across the loads would take a register each.
        Value droppedBits = i32Const(lb, lloc, 0);
        for (auto [i, payload] : llvm::enumerate(payloads)) {
          Value flag = arith::AndIOp::create(lb, lloc, payload, mark);
          Value shift = i32Const(lb, lloc, 31 - int64_t(i));
          Value bit = arith::ShRUIOp::create(lb, lloc, flag, shift);
          droppedBits = arith::OrIOp::create(lb, lloc, droppedBits, bit);
          Value entry = arith::AndIOp::create(lb, lloc, payload, low);
          Value entryOffset = fromIndex(lb, lloc, type, toIndex(lb, lloc, entry));
          sources.push_back(mulIndex(lb, lloc, entryOffset, rowLen));
        }
        // Every entry number is one of the scatter's (a dropped entry keeps
        // its own, a padding one the run's last): the loads need no guard,
        // and the batch's loads go out together; `step` leaves out the
        // invalid ones.
        SmallVector<SmallVector<Value>> units;
        for (int64_t i = 0; i < c.batch; ++i)
          units.push_back(loadChunk(lb, lloc, s.updates.flat, sources[i],
                                    chunk, Value(), vl));
        Value zero32 = i32Const(lb, lloc, 0);
        for (int64_t i = 0; i < c.batch; ++i) {
          Value bit = i32Const(lb, lloc, int64_t(1) << i);
          Value dropped = arith::AndIOp::create(lb, lloc, droppedBits, bit);
          Value valid = arith::CmpIOp::create(
              lb, lloc, arith::CmpIPredicate::eq, dropped, zero32);
          st = step(lb, lloc, c, st, units[i], valid);
        }
        scf::YieldOp::create(lb, lloc, flatten(st));
      });
  RunState last = unflatten(loop.getResults(), init);
  SmallVector<Value> out = finalUnits(b, loc, c, last, current);
  storeChunk(b, loc, out, s.data.flat, base, chunk, Value(), vl);
}

//===----------------------------------------------------------------------===//
// The kernel
//===----------------------------------------------------------------------===//

/// Phase 0: the thread's group, its row, and whether it has work (the first
/// thread of the grid records the op's failed check).
static GroupView groupView(OpBuilder &b, Location loc, const KernelIds &ids,
                           const Combine &c) {
  GroupView g;
  auto [row, exists] = groupRow(b, loc, ids, c.layout);
  g.row = row;
  g.row32 = toI32(b, loc, toIndex(b, loc, row));
  g.lane = toI32(b, loc, toIndex(b, loc, groupLane(b, loc, ids, c.layout)));
  g.tpr = toI32(b, loc, c.layout.threadsPerRow);
  Value t = threadId32(b, loc, ids);
  Value groupStart = arith::SubIOp::create(b, loc, t, g.lane);
  Value log = toI32(b, loc, c.layout.logThreadsPerRow);
  Value group = arith::ShRUIOp::create(b, loc, t, log);
  g.infoBase = arith::MulIOp::create(b, loc, group,
                                     i32Const(b, loc, kInfoWords));
  g.stageBase = arith::MulIOp::create(b, loc, groupStart,
                                      i32Const(b, loc, kStagePerThread));
  g.info = ids.shared[0];
  g.stage = ids.shared[1];
  g.live = exists;
  const RowScatter &s = c.s;
  if (!s.record)
    return g;
  Value failed;
  if (s.slot >= 0) {
    Value first = isFirstThread(b, loc, ids);
    failed = s.record->failedOrFinalize(
        b, loc, first, s.slot,
        [&](OpBuilder &fb, Location floc, Value position) {
          return s.describe(fb, floc, position);
        });
  } else {
    failed = s.record->failed(b, loc);
  }
  g.live = andBool(b, loc, exists, notBool(b, loc, failed));
  return g;
}

static void combineBody(OpBuilder &b, Location loc, const KernelIds &ids,
                        const Combine &c) {
  GroupView g = groupView(b, loc, ids, c);
  lookupRun(b, loc, c, g);
  barrier(b, loc);
  stagePayloads(b, loc, c, g);
  barrier(b, loc);
  Value n = runLength(b, loc, c, g);
  Value work = g.live;
  if (c.atMost >= 0) {
    Value limit = i32Const(b, loc, c.atMost);
    Value mine =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, n, limit);
    work = andBool(b, loc, work, mine);
  }
  if (c.above >= 0) {
    Value limit = i32Const(b, loc, c.above);
    Value mine =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, n, limit);
    work = andBool(b, loc, work, mine);
  }
  if (!c.s.source) {
    // In place, a row without entries stays as it is.
    Value zero = i32Const(b, loc, 0);
    Value some =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, n, zero);
    work = andBool(b, loc, work, some);
  }
  buildIf(b, loc, work, [&](OpBuilder &wb, Location wloc) {
    forEachChunk(wb, wloc, ids, c.layout,
                 [&](OpBuilder &cb, Location cloc, const RowChunk &chunk) {
                   walkChunk(cb, cloc, c, g, n, chunk);
                 });
  });
}

/// Units per thread of the owners: as few as cover the row with a block's
/// threads (up to four), so that each thread keeps the most entries in
/// flight; two where the row length is dynamic.
static int64_t combineUnitsPerThread(Value rowLen, int64_t vectorLength) {
  std::optional<int64_t> known = getConstantIntValue(rowLen);
  if (!known)
    return 2;
  int64_t units = *known / vectorLength;
  return std::clamp<int64_t>(llvm::divideCeil(units, kBlockSize), 1, 4);
}

/// Launches the owners' kernel `c` (its layout set) over every row.
static void launchOwners(OpBuilder &b, Location loc, const Combine &c) {
  assert(c.batch <= 32 && "a batch's dropped entries are bits of one i32");
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  SmallVector<MemRefType> shared = {
      sharedType(ctx, i32, kBlockSize * kInfoWords),
      sharedType(ctx, i32, kBlockSize * kStagePerThread)};
  Value gridX = rowGrid(b, loc, c.layout);
  launch(b, loc, gridX, c.layout.gridY, kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           combineBody(kb, kloc, ids, c);
         },
         shared);
}

/// Entries a thread of the long runs' kernel loads before it combines them:
/// 48 registers' worth of their elements and offsets (all live at once
/// between a batch's loads and its combinations), at least 8. For f32 with
/// 32-bit offsets, 24 entries and 64 registers on sm_90.
static int64_t longBatch(Type elementType, Type offsetType) {
  auto words = [](Type type) -> int64_t {
    int64_t bits = 64;
    if (type.isIntOrFloat())
      bits = type.getIntOrFloatBitWidth();
    else if (auto complex = dyn_cast<ComplexType>(type))
      bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
    return llvm::divideCeil(bits, 32);
  };
  int64_t offsetWords = isa<IndexType>(offsetType) ? 2 : words(offsetType);
  return std::max<int64_t>(8, 48 / (words(elementType) + offsetWords));
}

void gpu_lowering::emitCombine(OpBuilder &b, Location loc, const RowScatter &s,
                               const SortedRuns &runs) {
  Type elementType = cast<MemRefType>(s.data.flat.getType()).getElementType();
  bool tallied = s.reduction == ReductionKind::Mean || !s.useInit;
  SmallVector<Value> buffers = {s.data.flat, s.updates.flat};
  if (s.source)
    buffers.push_back(s.source);
  Value canVector = canMoveVectors(b, loc, elementType, s.rowLen, buffers);
  if (tallied)
    canVector = constBool(b, loc, false);
  Value dataSize = flatSize(b, loc, s.data.flat);
  Value updatesSize = flatSize(b, loc, s.updates.flat);
  Value small = fitsIn32Bits(b, loc, {dataSize, updatesSize});
  withVariants(
      b, loc, elementType, canVector, small,
      [&](OpBuilder &vb, Location vloc, KernelVariant variant) {
        int64_t units = combineUnitsPerThread(s.rowLen, variant.vectorLength);
        RowLayout layout =
            rowLayout(vb, vloc, s.rows, s.rowLen, variant, units);
        Combine c{s, runs, layout, elementType};
        c.batch = std::max<int64_t>(1, kLoadsInFlight / units);
        c.tallied = tallied;
        if (!runs.tiled)
          c.atMost = kLongRun;
        launchOwners(vb, vloc, c);
      });
  if (runs.tiled)
    return;
  // The long runs (a hub row): one element a thread and many entries in
  // flight each, so that a hub's chain of combinations waits for a DRAM
  // latency every `longBatch` entries instead of every few.
  withOffsetVariants(
      b, loc, small, [&](OpBuilder &vb, Location vloc, KernelVariant variant) {
        RowLayout layout = rowLayout(vb, vloc, s.rows, s.rowLen, variant, 1);
        Combine c{s, runs, layout, elementType};
        c.batch = longBatch(elementType, variant.offsets);
        c.tallied = tallied;
        c.above = kLongRun;
        launchOwners(vb, vloc, c);
      });
}
