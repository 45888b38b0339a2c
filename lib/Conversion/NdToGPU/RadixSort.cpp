//===- RadixSort.cpp - a stable sort of scatter entries on the GPU -------===//
//
// See RadixSort.h.
//
//===----------------------------------------------------------------------===//

#include "RadixSort.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// Words of the sort's scratch: the histograms (kMaxPasses x kDigits), the
/// tickets (one per pass, padded to 8 words), then 256 look-back words per
/// tile.
static constexpr int64_t kTicketWord = kMaxPasses * kDigits;
static constexpr int64_t kFlagWord = kTicketWord + 8;
/// A look-back word: the count (bits 0-31), the pass + 1 (bits 32-61) and
/// the status (bits 62-63: 1 the tile's own count, 2 the inclusive count).
static constexpr int64_t kStatusShift = 62;
static constexpr int64_t kAggregate = 1;
static constexpr int64_t kInclusive = 2;

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

Value gpu_lowering::toI32(OpBuilder &b, Location loc, Value value) {
  return fromIndex(b, loc, b.getI32Type(), value);
}

Value gpu_lowering::threadId32(OpBuilder &b, Location loc,
                               const KernelIds &ids) {
  return toI32(b, loc, ids.threadX);
}

static Value atomic(OpBuilder &b, Location loc, arith::AtomicRMWKind kind,
                    Value value, Value buffer, Value at) {
  Value index = toIndex(b, loc, at);
  return memref::AtomicRMWOp::create(b, loc, kind, value, buffer,
                                     ValueRange{index});
}

/// `(key >> shift) & mask` on i32 values.
static Value bitsOf(OpBuilder &b, Location loc, Value key, Value shift,
                    int64_t mask) {
  Value shifted = b.createOrFold<arith::ShRUIOp>(loc, key, shift);
  Value maskValue = i32Const(b, loc, mask);
  return b.createOrFold<arith::AndIOp>(loc, shifted, maskValue);
}

//===----------------------------------------------------------------------===//
// Tile sort
//===----------------------------------------------------------------------===//

SmallVector<MemRefType> gpu_lowering::tileSortShared(MLIRContext *ctx) {
  Type i32 = IntegerType::get(ctx, 32);
  Type i64 = IntegerType::get(ctx, 64);
  return {sharedType(ctx, i32, kSortTile), sharedType(ctx, i32, kSortTile),
          sharedType(ctx, i64, scanScratchSize(kSortBlock))};
}

TileBuffers gpu_lowering::tileBuffers(const KernelIds &ids) {
  return {ids.shared[0], ids.shared[1], ids.shared[2]};
}

/// One round: the tile's entries split stably by the two key bits at
/// `shift`. Each thread takes kSortItems consecutive entries; their digits'
/// counts, 16 bits each in one i64, are scanned over the block; each entry
/// then goes after every entry of a smaller digit and every earlier entry
/// of its own.
static void splitRound(OpBuilder &b, Location loc, const KernelIds &ids,
                       const TileBuffers &tile, Value shift) {
  Type i64 = b.getI64Type();
  Value t = threadId32(b, loc, ids);
  Value first = arith::MulIOp::create(b, loc, t, i32Const(b, loc, kSortItems));
  Value one64 = i64Const(b, loc, 1);
  Value sixteen = i32Const(b, loc, 16);
  SmallVector<Value> keys, payloads, shifts;
  Value packed = i64Const(b, loc, 0);
  for (int64_t j = 0; j < kSortItems; ++j) {
    Value i = arith::AddIOp::create(b, loc, first, i32Const(b, loc, j));
    keys.push_back(loadAt(b, loc, tile.keys, i));
    payloads.push_back(loadAt(b, loc, tile.payloads, i));
    Value digit = bitsOf(b, loc, keys.back(), shift, 3);
    Value bit = arith::MulIOp::create(b, loc, digit, sixteen);
    shifts.push_back(arith::ExtUIOp::create(b, loc, i64, bit));
    Value term = arith::ShLIOp::create(b, loc, one64, shifts.back());
    packed = arith::AddIOp::create(b, loc, packed, term);
  }
  Value total;
  Value prefix = blockExclusiveScan(b, loc, ids, tile.scratch, kSortBlock,
                                    packed, total);
  // The digits' starts, packed alike: digit d starts after the totals of
  // the digits below it (no lane overflows: a tile has fewer than 2^16
  // entries).
  Value offset = prefix;
  for (int64_t lane = 1; lane < 4; ++lane) {
    Value by = i64Const(b, loc, 16 * lane);
    Value moved = arith::ShLIOp::create(b, loc, total, by);
    offset = arith::AddIOp::create(b, loc, offset, moved);
  }
  Value mask = i64Const(b, loc, 0xFFFF);
  for (int64_t j = 0; j < kSortItems; ++j) {
    Value place = arith::ShRUIOp::create(b, loc, offset, shifts[j]);
    place = arith::AndIOp::create(b, loc, place, mask);
    Value term = arith::ShLIOp::create(b, loc, one64, shifts[j]);
    offset = arith::AddIOp::create(b, loc, offset, term);
    storeAt(b, loc, keys[j], tile.keys, place);
    storeAt(b, loc, payloads[j], tile.payloads, place);
  }
  barrier(b, loc);
}

void gpu_lowering::sortTileRounds(OpBuilder &b, Location loc,
                                  const KernelIds &ids,
                                  const TileBuffers &tile, Value shift,
                                  int64_t rounds) {
  for (int64_t r = 0; r < rounds; ++r) {
    Value at = arith::AddIOp::create(b, loc, shift, i32Const(b, loc, 2 * r));
    splitRound(b, loc, ids, tile, at);
  }
}

//===----------------------------------------------------------------------===//
// Scratch and digit counts
//===----------------------------------------------------------------------===//

Value gpu_lowering::sortPasses(OpBuilder &b, Location loc, Value rows) {
  Type i64 = b.getI64Type();
  Value one = constIndex(b, loc, 1);
  Value maxRow = subIndex(b, loc, maxIndex(b, loc, rows, one), one);
  Value max64 = fromIndex(b, loc, i64, maxRow);
  Value leading = b.createOrFold<math::CountLeadingZerosOp>(loc, max64);
  Value sixtyFour = i64Const(b, loc, 64);
  Value width = b.createOrFold<arith::SubIOp>(loc, sixtyFour, leading);
  Value bits = toIndex(b, loc, width);
  Value passes = ceilDiv(b, loc, bits, constIndex(b, loc, kDigitBits));
  return maxIndex(b, loc, passes, one);
}

SortScratch gpu_lowering::allocSortScratch(OpBuilder &b, Location loc,
                                           Value count, Value rows) {
  SortScratch s;
  Value one = constIndex(b, loc, 1);
  Value tile = constIndex(b, loc, kSortTile);
  s.tiles = maxIndex(b, loc, ceilDiv(b, loc, count, tile), one);
  // No entries: no pass (nothing to sort, no tile to read).
  Value none = cmpIndex(b, loc, arith::CmpIPredicate::eq, count,
                        constIndex(b, loc, 0));
  Value passes = sortPasses(b, loc, rows);
  Value zeroPasses = constIndex(b, loc, 0);
  s.passes = select(b, loc, none, zeroPasses, passes);
  Value flags = mulIndex(b, loc, s.tiles, constIndex(b, loc, kDigits));
  Value words = addIndex(b, loc, flags, constIndex(b, loc, kFlagWord));
  Value bytes = mulIndex(b, loc, words, constIndex(b, loc, 8));
  s.bytes = allocFlat(b, loc, b.getI8Type(), bytes);
  Value zero = constIndex(b, loc, 0);
  auto halves = MemRefType::get({ShapedType::kDynamic}, b.getI32Type());
  Value halfCount = mulIndex(b, loc, words, constIndex(b, loc, 2));
  Value words32 = memref::ViewOp::create(b, loc, halves, s.bytes, zero,
                                         ValueRange{halfCount});
  fill32(b, loc, words32, 0);
  auto wordsType = MemRefType::get({ShapedType::kDynamic}, b.getI64Type());
  s.words = memref::ViewOp::create(b, loc, wordsType, s.bytes, zero,
                                   ValueRange{words});
  return s;
}

void gpu_lowering::releaseSortScratch(OpBuilder &b, Location loc,
                                      const SortScratch &s) {
  dealloc(b, loc, s.bytes);
}

MemRefType gpu_lowering::digitCountShared(MLIRContext *ctx) {
  return sharedType(ctx, IntegerType::get(ctx, 32), kMaxPasses * kDigits);
}

void gpu_lowering::clearDigitCounts(OpBuilder &b, Location loc,
                                    const KernelIds &ids, Value counts) {
  Value t = threadId32(b, loc, ids);
  Value zero = i32Const(b, loc, 0);
  for (int64_t c = 0; c < kMaxPasses * kDigits; c += kBlockSize) {
    Value at = arith::AddIOp::create(b, loc, t, i32Const(b, loc, c));
    storeAt(b, loc, zero, counts, at);
  }
}

void gpu_lowering::noteDigits(OpBuilder &b, Location loc, Value counts,
                              Value key32, Value passes) {
  Value one = i32Const(b, loc, 1);
  for (int64_t p = 0; p < kMaxPasses; ++p) {
    Value inUse = cmpIndex(b, loc, arith::CmpIPredicate::ult,
                           constIndex(b, loc, p), passes);
    buildIf(b, loc, inUse, [&](OpBuilder &nb, Location nloc) {
      Value shift = i32Const(nb, nloc, p * kDigitBits);
      Value digit = bitsOf(nb, nloc, key32, shift, kDigits - 1);
      Value base = i32Const(nb, nloc, p * kDigits);
      Value at = arith::AddIOp::create(nb, nloc, base, digit);
      atomic(nb, nloc, arith::AtomicRMWKind::addi, one, counts, at);
    });
  }
}

void gpu_lowering::flushDigitCounts(OpBuilder &b, Location loc,
                                    const KernelIds &ids, Value counts,
                                    const SortScratch &scratch) {
  Value t = threadId32(b, loc, ids);
  Value zero = i32Const(b, loc, 0);
  for (int64_t c = 0; c < kMaxPasses * kDigits; c += kBlockSize) {
    Value at = arith::AddIOp::create(b, loc, t, i32Const(b, loc, c));
    Value count = loadAt(b, loc, counts, at);
    Value some = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count,
                                       zero);
    buildIf(b, loc, some, [&](OpBuilder &nb, Location nloc) {
      Value wide = arith::ExtUIOp::create(nb, nloc, nb.getI64Type(), count);
      atomic(nb, nloc, arith::AtomicRMWKind::addi, wide, scratch.words, at);
    });
  }
}

//===----------------------------------------------------------------------===//
// One pass
//===----------------------------------------------------------------------===//

namespace {
/// What a pass kernel reads and writes.
struct PassBuffers {
  Value keysIn, payloadsIn, keysOut, payloadsOut;
  Value count, pass;
  const SortScratch *scratch;
};
/// The pass kernel's shared buffers past the tile sort's.
struct PassShared {
  TileBuffers tile;
  Value counts, offsets, ticket;
};
} // namespace

/// Phase 1: this block's tile (an atomic ticket: tiles start in order).
static void takeTicket(OpBuilder &b, Location loc, const KernelIds &ids,
                       const PassBuffers &p, const PassShared &sh) {
  Value t = threadId32(b, loc, ids);
  Value zero = i32Const(b, loc, 0);
  Value isDigit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                                        i32Const(b, loc, kDigits));
  buildIf(b, loc, isDigit, [&](OpBuilder &nb, Location nloc) {
    storeAt(nb, nloc, zero, sh.counts, t);
  });
  Value isFirst =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, t, zero);
  buildIf(b, loc, isFirst, [&](OpBuilder &nb, Location nloc) {
    Value word = addIndex(nb, nloc, constIndex(nb, nloc, kTicketWord), p.pass);
    Value one = i64Const(nb, nloc, 1);
    Value ticket = atomic(nb, nloc, arith::AtomicRMWKind::addi, one,
                          p.scratch->words, word);
    Value ticket32 = arith::TruncIOp::create(nb, nloc, nb.getI32Type(), ticket);
    storeAt(nb, nloc, ticket32, sh.ticket, zero);
  });
}

/// The tile's start and its number of entries (i32 values).
static std::pair<Value, Value> tileExtent(OpBuilder &b, Location loc,
                                          const PassBuffers &p,
                                          const PassShared &sh) {
  Value zero = i32Const(b, loc, 0);
  Value tile = loadAt(b, loc, sh.ticket, zero);
  Value start = arith::MulIOp::create(b, loc, tile, i32Const(b, loc, kSortTile));
  Value count = toI32(b, loc, p.count);
  Value rest = arith::SubIOp::create(b, loc, count, start);
  Value full = i32Const(b, loc, kSortTile);
  Value valid = b.createOrFold<arith::MinSIOp>(loc, rest, full);
  return {start, valid};
}

/// Phase 2: the tile's entries into shared memory, coalesced, and its digit
/// counts. The first pass takes the dropped mark off the key into the
/// payload, whose other bits are the entry's number.
static void loadPassTile(OpBuilder &b, Location loc, const KernelIds &ids,
                         const PassBuffers &p, const PassShared &sh,
                         Value shift) {
  auto [start, valid] = tileExtent(b, loc, p, sh);
  Value t = threadId32(b, loc, ids);
  Value firstPass = cmpIndex(b, loc, arith::CmpIPredicate::eq, p.pass,
                             constIndex(b, loc, 0));
  Value none = i32Const(b, loc, -1);
  Value low = i32Const(b, loc, kDroppedBit - 1);
  Value mark = i32Const(b, loc, kDroppedBit);
  for (int64_t j = 0; j < kSortItems; ++j) {
    Value i = arith::AddIOp::create(b, loc, t, i32Const(b, loc, j * kSortBlock));
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, valid);
    Value e = arith::AddIOp::create(b, loc, start, i);
    Value safe = arith::SelectOp::create(b, loc, inside, e, start);
    Value raw = loadAt(b, loc, p.keysIn, safe);
    auto given = scf::IfOp::create(b, loc, TypeRange{b.getI32Type()},
                                   firstPass, /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(given.thenBlock());
      scf::YieldOp::create(b, loc, none);
      b.setInsertionPointToStart(given.elseBlock());
      Value loaded = loadAt(b, loc, p.payloadsIn, safe);
      scf::YieldOp::create(b, loc, loaded);
    }
    Value cleared = arith::AndIOp::create(b, loc, raw, low);
    Value dropped = arith::AndIOp::create(b, loc, raw, mark);
    Value numbered = arith::OrIOp::create(b, loc, e, dropped);
    Value key = arith::SelectOp::create(b, loc, firstPass, cleared, raw);
    key = arith::SelectOp::create(b, loc, inside, key, none);
    Value payload = arith::SelectOp::create(b, loc, firstPass, numbered,
                                            given.getResult(0));
    storeAt(b, loc, key, sh.tile.keys, i);
    storeAt(b, loc, payload, sh.tile.payloads, i);
    buildIf(b, loc, inside, [&](OpBuilder &nb, Location nloc) {
      Value digit = bitsOf(nb, nloc, key, shift, kDigits - 1);
      Value one = i32Const(nb, nloc, 1);
      atomic(nb, nloc, arith::AtomicRMWKind::addi, one, sh.counts, digit);
    });
  }
}

/// The look-back word of `tile` for digit `digit` (i32 values).
static Value flagWord(OpBuilder &b, Location loc, Value tile, Value digit) {
  Value perTile = arith::MulIOp::create(b, loc, tile, i32Const(b, loc, kDigits));
  Value at = arith::AddIOp::create(b, loc, perTile, digit);
  Value base = i32Const(b, loc, kFlagWord);
  return arith::AddIOp::create(b, loc, at, base);
}

/// Publishes `count` (i32) with `status` for `digit` of `tile`.
static void publish(OpBuilder &b, Location loc, const PassBuffers &p,
                    Value tile, Value digit, Value count, int64_t status) {
  Type i64 = b.getI64Type();
  Value value = arith::ExtUIOp::create(b, loc, i64, count);
  Value pass = fromIndex(b, loc, i64, p.pass);
  Value tag = arith::AddIOp::create(b, loc, pass, i64Const(b, loc, 1));
  tag = arith::ShLIOp::create(b, loc, tag, i64Const(b, loc, 32));
  Value statusBits = i64Const(b, loc, status << kStatusShift);
  Value word = arith::OrIOp::create(b, loc, value, tag);
  word = arith::OrIOp::create(b, loc, word, statusBits);
  Value at = flagWord(b, loc, tile, digit);
  atomic(b, loc, arith::AtomicRMWKind::assign, word, p.scratch->words, at);
}

/// In one thread per digit: the entries of `digit` in the tiles before
/// `tile` (an i32), read from their look-back words, waiting for each until
/// its pass has written it and stopping at the first inclusive count.
static Value lookBack(OpBuilder &b, Location loc, const PassBuffers &p,
                      Value tile, Value digit) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Value pass = fromIndex(b, loc, i64, p.pass);
  Value expected = arith::AddIOp::create(b, loc, pass, i64Const(b, loc, 1));
  Value start = arith::SubIOp::create(b, loc, tile, i32Const(b, loc, 1));
  Value init[] = {start, i32Const(b, loc, 0), constBool(b, loc, false)};
  auto loop = scf::WhileOp::create(
      b, loc, TypeRange{i32, i32, b.getI1Type()}, init,
      [&](OpBuilder &wb, Location wloc, ValueRange args) {
        Value zero = i32Const(wb, wloc, 0);
        Value more = arith::CmpIOp::create(wb, wloc, arith::CmpIPredicate::sge,
                                           args[0], zero);
        more = andBool(wb, wloc, more, notBool(wb, wloc, args[2]));
        scf::ConditionOp::create(wb, wloc, more, args);
      },
      [&](OpBuilder &wb, Location wloc, ValueRange args) {
        Value at = flagWord(wb, wloc, args[0], digit);
        Value zero64 = i64Const(wb, wloc, 0);
        Value word = atomic(wb, wloc, arith::AtomicRMWKind::ori, zero64,
                            p.scratch->words, at);
        Value tag = arith::ShRUIOp::create(wb, wloc, word, i64Const(wb, wloc, 32));
        tag = arith::AndIOp::create(wb, wloc, tag,
                                    i64Const(wb, wloc, (1 << 30) - 1));
        Value ready = arith::CmpIOp::create(wb, wloc, arith::CmpIPredicate::eq,
                                            tag, expected);
        Value status = arith::ShRUIOp::create(wb, wloc, word,
                                              i64Const(wb, wloc, kStatusShift));
        Value inclusive = arith::CmpIOp::create(
            wb, wloc, arith::CmpIPredicate::eq, status,
            i64Const(wb, wloc, kInclusive));
        Value count = arith::TruncIOp::create(wb, wloc, i32, word);
        Value sum = arith::AddIOp::create(wb, wloc, args[1], count);
        Value previous =
            arith::SubIOp::create(wb, wloc, args[0], i32Const(wb, wloc, 1));
        Value nextTile = arith::SelectOp::create(wb, wloc, ready, previous,
                                                 args[0]);
        Value nextSum = arith::SelectOp::create(wb, wloc, ready, sum, args[1]);
        Value done = andBool(wb, wloc, ready, inclusive);
        scf::YieldOp::create(wb, wloc, ValueRange{nextTile, nextSum, done});
      });
  return loop.getResult(1);
}

/// Phase 4: where the tile's entries of each digit go: after every entry of
/// a smaller digit (the pass's histogram) and of this digit in earlier
/// tiles (look-back), less the digit's start within the tile.
static void placeDigits(OpBuilder &b, Location loc, const KernelIds &ids,
                        const PassBuffers &p, const PassShared &sh) {
  Type i64 = b.getI64Type();
  Value t = threadId32(b, loc, ids);
  Value zero = i32Const(b, loc, 0);
  Value tile = loadAt(b, loc, sh.ticket, zero);
  Value isDigit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, t,
                                        i32Const(b, loc, kDigits));
  Value digit = arith::SelectOp::create(b, loc, isDigit, t, zero);
  Value count = loadAt(b, loc, sh.counts, digit);
  count = arith::SelectOp::create(b, loc, isDigit, count, zero);
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{b.getI32Type()}, isDigit,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value before = lookBack(b, loc, p, tile, digit);
    Value inclusive = arith::AddIOp::create(b, loc, before, count);
    publish(b, loc, p, tile, digit, inclusive, kInclusive);
    scf::YieldOp::create(b, loc, before);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, zero);
  }
  Value before = ifOp.getResult(0);
  // One scan for two sums: the pass's digit totals (high half) and the
  // tile's digit counts (low half, below 2^13: no carry).
  Value histogram = mulIndex(b, loc, p.pass, constIndex(b, loc, kDigits));
  Value digitIndex = toIndex(b, loc, digit);
  Value word = addIndex(b, loc, histogram, digitIndex);
  Value totalOfDigit = memref::LoadOp::create(b, loc, p.scratch->words,
                                              ValueRange{word});
  Value zero64 = i64Const(b, loc, 0);
  totalOfDigit = arith::SelectOp::create(b, loc, isDigit, totalOfDigit, zero64);
  Value high = arith::ShLIOp::create(b, loc, totalOfDigit, i64Const(b, loc, 32));
  Value low = arith::ExtUIOp::create(b, loc, i64, count);
  Value packed = arith::OrIOp::create(b, loc, high, low);
  Value total;
  Value prefix =
      blockExclusiveScan(b, loc, ids, sh.tile.scratch, kSortBlock, packed, total);
  Value base = arith::ShRUIOp::create(b, loc, prefix, i64Const(b, loc, 32));
  Value local = arith::AndIOp::create(b, loc, prefix,
                                      i64Const(b, loc, 0xFFFFFFFF));
  Value start = arith::AddIOp::create(b, loc, base,
                                      arith::ExtUIOp::create(b, loc, i64, before));
  Value offset64 = arith::SubIOp::create(b, loc, start, local);
  Value offset = arith::TruncIOp::create(b, loc, b.getI32Type(), offset64);
  buildIf(b, loc, isDigit, [&](OpBuilder &nb, Location nloc) {
    storeAt(nb, nloc, offset, sh.offsets, digit);
  });
}

/// Phase 5: the sorted tile out, coalesced: entry i of the sorted tile goes
/// to its digit's offset plus i.
static void writePassTile(OpBuilder &b, Location loc, const KernelIds &ids,
                          const PassBuffers &p, const PassShared &sh,
                          Value shift) {
  Value valid = tileExtent(b, loc, p, sh).second;
  Value t = threadId32(b, loc, ids);
  for (int64_t j = 0; j < kSortItems; ++j) {
    Value i = arith::AddIOp::create(b, loc, t, i32Const(b, loc, j * kSortBlock));
    Value inside =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, valid);
    buildIf(b, loc, inside, [&](OpBuilder &nb, Location nloc) {
      Value key = loadAt(nb, nloc, sh.tile.keys, i);
      Value payload = loadAt(nb, nloc, sh.tile.payloads, i);
      Value digit = bitsOf(nb, nloc, key, shift, kDigits - 1);
      Value offset = loadAt(nb, nloc, sh.offsets, digit);
      Value at = arith::AddIOp::create(nb, nloc, offset, i);
      storeAt(nb, nloc, key, p.keysOut, at);
      storeAt(nb, nloc, payload, p.payloadsOut, at);
    });
  }
}

/// The kernel of one pass (see the file header).
static void emitPass(OpBuilder &b, Location loc, const PassBuffers &p) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  SmallVector<MemRefType> shared = tileSortShared(ctx);
  shared.push_back(sharedType(ctx, i32, kDigits));
  shared.push_back(sharedType(ctx, i32, kDigits));
  shared.push_back(sharedType(ctx, i32, 1));
  launch(
      b, loc, p.scratch->tiles, Value(), kSortBlock,
      [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
        PassShared sh{tileBuffers(ids), ids.shared[3], ids.shared[4],
                      ids.shared[5]};
        Value shiftIndex =
            mulIndex(kb, kloc, p.pass, constIndex(kb, kloc, kDigitBits));
        Value shift = toI32(kb, kloc, shiftIndex);
        takeTicket(kb, kloc, ids, p, sh);
        barrier(kb, kloc);
        loadPassTile(kb, kloc, ids, p, sh, shift);
        barrier(kb, kloc);
        // The tile's own counts go out first, so that later tiles need not
        // wait for its look-back.
        Value t = threadId32(kb, kloc, ids);
        Value isDigit = arith::CmpIOp::create(
            kb, kloc, arith::CmpIPredicate::ult, t, i32Const(kb, kloc, kDigits));
        buildIf(kb, kloc, isDigit, [&](OpBuilder &nb, Location nloc) {
          Value tile = loadAt(nb, nloc, sh.ticket, i32Const(nb, nloc, 0));
          Value count = loadAt(nb, nloc, sh.counts, t);
          publish(nb, nloc, p, tile, t, count, kAggregate);
        });
        sortTileRounds(kb, kloc, ids, sh.tile, shift, kDigitBits / 2);
        placeDigits(kb, kloc, ids, p, sh);
        barrier(kb, kloc);
        writePassTile(kb, kloc, ids, p, sh, shift);
      },
      shared);
}

SortedEntries gpu_lowering::emitRadixSort(OpBuilder &b, Location loc,
                                          Value keys, Value count,
                                          const SortScratch &scratch) {
  Type i32 = b.getI32Type();
  Value spareKeys = allocFlat(b, loc, i32, count);
  Value payloads = allocFlat(b, loc, i32, count);
  Value sparePayloads = allocFlat(b, loc, i32, count);
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, zero, scratch.passes, one,
      ValueRange{keys, payloads, spareKeys, sparePayloads},
      [&](OpBuilder &lb, Location lloc, Value pass, ValueRange buffers) {
        PassBuffers p{buffers[0], buffers[1], buffers[2], buffers[3],
                      count,      pass,       &scratch};
        emitPass(lb, lloc, p);
        scf::YieldOp::create(
            lb, lloc,
            ValueRange{buffers[2], buffers[3], buffers[0], buffers[1]});
      });
  SortedEntries sorted;
  sorted.keys = loop.getResult(0);
  sorted.payloads = loop.getResult(1);
  sorted.buffers = {keys, spareKeys, payloads, sparePayloads};
  return sorted;
}

void gpu_lowering::releaseSort(OpBuilder &b, Location loc,
                               const SortedEntries &sorted) {
  for (Value buffer : sorted.buffers)
    dealloc(b, loc, buffer);
}
