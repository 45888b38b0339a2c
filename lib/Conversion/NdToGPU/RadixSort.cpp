//===- RadixSort.cpp - a stable sort of scatter entries on the GPU -*- C++
//-*-=//
//
// See RadixSort.h.
//
//===----------------------------------------------------------------------===//

#include "RadixSort.h"

#include "GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// Bits per digit and digits.
static constexpr int64_t kDigitBits = 4;
static constexpr int64_t kDigits = 1 << kDigitBits;
/// Entries per thread and per tile (a block) of a counting pass.
static constexpr int64_t kPerThread = 16;
static constexpr int64_t kTile = kBlockSize * kPerThread;
/// Threads of the block that scans the counts.
static constexpr int64_t kScanBlock = 1024;

/// In a kernel: the digit of `key` (i32) at `shift` (i32), as an index.
static Value digitOf(OpBuilder &b, Location loc, Value key, Value shift) {
  Value shifted = arith::ShRUIOp::create(b, loc, key, shift);
  Value mask = constInt(b, loc, b.getI32Type(), kDigits - 1);
  Value digit = arith::AndIOp::create(b, loc, shifted, mask);
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), digit);
}

/// Pass step 1: the digit counts of each tile, `counts[digit * tiles + tile]`.
static void emitCounts(OpBuilder &b, Location loc, Value keys, Value count,
                       Value shift, Value counts, Value tiles) {
  MemRefType shared = sharedType(b.getContext(), b.getI32Type(), kDigits);
  launch(b, loc, tiles, Value(), kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           Value cnt = ids.shared[0];
           Value t = ids.threadX;
           Value digits = constIndex(kb, kloc, kDigits);
           Value zero32 = constInt(kb, kloc, kb.getI32Type(), 0);
           Value one32 = constInt(kb, kloc, kb.getI32Type(), 1);
           Value isCounter =
               cmpIndex(kb, kloc, arith::CmpIPredicate::ult, t, digits);
           buildIf(kb, kloc, isCounter, [&](OpBuilder &nb, Location nloc) {
             memref::StoreOp::create(nb, nloc, zero32, cnt, t);
           });
           barrier(kb, kloc);
           Value tileStart =
               mulIndex(kb, kloc, ids.blockX, constIndex(kb, kloc, kTile));
           for (int64_t j = 0; j < kPerThread; ++j) {
             Value offset = constIndex(kb, kloc, j * kBlockSize);
             Value i =
                 addIndex(kb, kloc, addIndex(kb, kloc, tileStart, offset), t);
             Value inside =
                 cmpIndex(kb, kloc, arith::CmpIPredicate::ult, i, count);
             buildIf(kb, kloc, inside, [&](OpBuilder &nb, Location nloc) {
               Value key = memref::LoadOp::create(nb, nloc, keys, i);
               Value d = digitOf(nb, nloc, key, shift);
               memref::AtomicRMWOp::create(nb, nloc, arith::AtomicRMWKind::addi,
                                           one32, cnt, ValueRange{d});
             });
           }
           barrier(kb, kloc);
           buildIf(kb, kloc, isCounter, [&](OpBuilder &nb, Location nloc) {
             Value c = memref::LoadOp::create(nb, nloc, cnt, t);
             Value at =
                 addIndex(nb, nloc, mulIndex(nb, nloc, t, tiles), ids.blockX);
             memref::StoreOp::create(nb, nloc, c, counts, at);
           });
         },
         {shared});
}

/// Pass step 2: `counts` (of `length` i32) becomes its exclusive prefix sum,
/// in one block, each thread scanning a contiguous chunk.
static void emitScan(OpBuilder &b, Location loc, Value counts, Value length) {
  Value one = constIndex(b, loc, 1);
  Value threads = constIndex(b, loc, kScanBlock);
  Value chunk = ceilDiv(b, loc, length, threads);
  MemRefType shared = sharedType(b.getContext(), b.getI32Type(), kScanBlock);
  launch(b, loc, one, Value(), kScanBlock,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           Value t = ids.threadX;
           Value lo = minIndex(kb, kloc, mulIndex(kb, kloc, t, chunk), length);
           Value hi = minIndex(kb, kloc, addIndex(kb, kloc, lo, chunk), length);
           Value zero32 = constInt(kb, kloc, kb.getI32Type(), 0);
           Value oneIndex = constIndex(kb, kloc, 1);
           auto sumLoop = scf::ForOp::create(
               kb, kloc, lo, hi, oneIndex, ValueRange{zero32},
               [&](OpBuilder &lb, Location lloc, Value i, ValueRange acc) {
                 Value v = memref::LoadOp::create(lb, lloc, counts, i);
                 Value s = arith::AddIOp::create(lb, lloc, acc[0], v);
                 scf::YieldOp::create(lb, lloc, s);
               });
           Value total;
           Value prefix =
               blockExclusiveScan(kb, kloc, ids, ids.shared[0], kScanBlock,
                                  sumLoop.getResult(0), total);
           scf::ForOp::create(
               kb, kloc, lo, hi, oneIndex, ValueRange{prefix},
               [&](OpBuilder &lb, Location lloc, Value i, ValueRange acc) {
                 Value v = memref::LoadOp::create(lb, lloc, counts, i);
                 memref::StoreOp::create(lb, lloc, acc[0], counts, i);
                 Value s = arith::AddIOp::create(lb, lloc, acc[0], v);
                 scf::YieldOp::create(lb, lloc, s);
               });
         },
         {shared});
}

/// Pass step 3: each thread writes its 16 entries, in order, at their
/// digit's offset.
static void emitScatterPass(OpBuilder &b, Location loc, Value keys,
                            Value positions, Value outKeys, Value outPositions,
                            Value count, Value shift, Value offsets,
                            Value tiles, Value firstPass) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  MemRefType table = sharedType(ctx, i32, kDigits * kBlockSize);
  MemRefType sums = sharedType(ctx, i32, kBlockSize);
  MemRefType bases = sharedType(ctx, i32, kDigits);
  launch(
      b, loc, tiles, Value(), kBlockSize,
      [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
        Value f = ids.shared[0], scratch = ids.shared[1], base = ids.shared[2];
        Value t = ids.threadX;
        Value block = constIndex(kb, kloc, kBlockSize);
        Value zero32 = constInt(kb, kloc, i32, 0);
        Value one32 = constInt(kb, kloc, i32, 1);
        Value tileStart =
            mulIndex(kb, kloc, ids.blockX, constIndex(kb, kloc, kTile));
        Value first =
            addIndex(kb, kloc, tileStart,
                     mulIndex(kb, kloc, t, constIndex(kb, kloc, kPerThread)));
        // This thread's column of (digit, thread) counts.
        auto column = [&](OpBuilder &cb, Location cloc, Value d) {
          return addIndex(cb, cloc, mulIndex(cb, cloc, d, block), t);
        };
        for (int64_t d = 0; d < kDigits; ++d) {
          Value at = column(kb, kloc, constIndex(kb, kloc, d));
          memref::StoreOp::create(kb, kloc, zero32, f, at);
        }
        for (int64_t j = 0; j < kPerThread; ++j) {
          Value i = addIndex(kb, kloc, first, constIndex(kb, kloc, j));
          Value inside =
              cmpIndex(kb, kloc, arith::CmpIPredicate::ult, i, count);
          buildIf(kb, kloc, inside, [&](OpBuilder &nb, Location nloc) {
            Value key = memref::LoadOp::create(nb, nloc, keys, i);
            Value at = column(nb, nloc, digitOf(nb, nloc, key, shift));
            Value c = memref::LoadOp::create(nb, nloc, f, at);
            Value c1 = arith::AddIOp::create(nb, nloc, c, one32);
            memref::StoreOp::create(nb, nloc, c1, f, at);
          });
        }
        barrier(kb, kloc);
        // Offsets within the tile: an exclusive scan of the counts in
        // (digit, thread) order, each thread taking 16 consecutive counts.
        Value chunkStart =
            mulIndex(kb, kloc, t, constIndex(kb, kloc, kPerThread));
        Value local = zero32;
        for (int64_t m = 0; m < kPerThread; ++m) {
          Value at = addIndex(kb, kloc, chunkStart, constIndex(kb, kloc, m));
          Value v = memref::LoadOp::create(kb, kloc, f, at);
          local = arith::AddIOp::create(kb, kloc, local, v);
        }
        Value total;
        Value run = blockExclusiveScan(kb, kloc, ids, scratch, kBlockSize,
                                       local, total);
        for (int64_t m = 0; m < kPerThread; ++m) {
          Value at = addIndex(kb, kloc, chunkStart, constIndex(kb, kloc, m));
          Value v = memref::LoadOp::create(kb, kloc, f, at);
          memref::StoreOp::create(kb, kloc, run, f, at);
          run = arith::AddIOp::create(kb, kloc, run, v);
        }
        barrier(kb, kloc);
        // Where each digit of the tile goes: its global offset less the
        // tile's own start of the digit.
        Value digits = constIndex(kb, kloc, kDigits);
        Value isDigit =
            cmpIndex(kb, kloc, arith::CmpIPredicate::ult, t, digits);
        buildIf(kb, kloc, isDigit, [&](OpBuilder &nb, Location nloc) {
          Value at =
              addIndex(nb, nloc, mulIndex(nb, nloc, t, tiles), ids.blockX);
          Value global = memref::LoadOp::create(nb, nloc, offsets, at);
          Value startAt = mulIndex(nb, nloc, t, block);
          Value start = memref::LoadOp::create(nb, nloc, f, startAt);
          Value delta = arith::SubIOp::create(nb, nloc, global, start);
          memref::StoreOp::create(nb, nloc, delta, base, t);
        });
        barrier(kb, kloc);
        for (int64_t j = 0; j < kPerThread; ++j) {
          Value i = addIndex(kb, kloc, first, constIndex(kb, kloc, j));
          Value inside =
              cmpIndex(kb, kloc, arith::CmpIPredicate::ult, i, count);
          buildIf(kb, kloc, inside, [&](OpBuilder &nb, Location nloc) {
            Value key = memref::LoadOp::create(nb, nloc, keys, i);
            Value d = digitOf(nb, nloc, key, shift);
            Value at = column(nb, nloc, d);
            Value c = memref::LoadOp::create(nb, nloc, f, at);
            Value c1 = arith::AddIOp::create(nb, nloc, c, one32);
            memref::StoreOp::create(nb, nloc, c1, f, at);
            Value delta = memref::LoadOp::create(nb, nloc, base, d);
            Value pos32 = arith::AddIOp::create(nb, nloc, delta, c);
            Value pos = arith::IndexCastUIOp::create(nb, nloc,
                                                     nb.getIndexType(), pos32);
            Value i32Position = arith::IndexCastUIOp::create(nb, nloc, i32, i);
            Value position = arith::SelectOp::create(
                nb, nloc, firstPass, i32Position,
                memref::LoadOp::create(nb, nloc, positions, i));
            memref::StoreOp::create(nb, nloc, key, outKeys, pos);
            memref::StoreOp::create(nb, nloc, position, outPositions, pos);
          });
        }
      },
      {table, sums, bases});
}

SortedEntries gpu_lowering::emitRadixSort(OpBuilder &b, Location loc,
                                          Value keys, Value count,
                                          Value maxKey) {
  Type i32 = b.getI32Type();
  Type i64 = b.getI64Type();
  Value positions = allocFlat(b, loc, i32, count);
  Value spareKeys = allocFlat(b, loc, i32, count);
  Value sparePositions = allocFlat(b, loc, i32, count);
  Value tiles = gridFor(b, loc, count, constIndex(b, loc, kTile),
                        std::numeric_limits<int32_t>::max());
  Value digits = constIndex(b, loc, kDigits);
  Value length = mulIndex(b, loc, digits, tiles);
  Value offsets = allocFlat(b, loc, i32, length);

  // Passes: one per digit of the largest key, at least one.
  Value max64 = arith::IndexCastUIOp::create(b, loc, i64, maxKey);
  Value leading = math::CountLeadingZerosOp::create(b, loc, max64);
  Value width =
      arith::SubIOp::create(b, loc, constInt(b, loc, i64, 64), leading);
  Value bits = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), width);
  Value one = constIndex(b, loc, 1);
  Value passes = ceilDiv(b, loc, bits, constIndex(b, loc, kDigitBits));
  passes = maxIndex(b, loc, passes, one);

  Value zero = constIndex(b, loc, 0);
  auto loop = scf::ForOp::create(
      b, loc, zero, passes, one,
      ValueRange{keys, positions, spareKeys, sparePositions},
      [&](OpBuilder &lb, Location lloc, Value pass, ValueRange buffers) {
        Value shiftIndex =
            mulIndex(lb, lloc, pass, constIndex(lb, lloc, kDigitBits));
        Value shift = arith::IndexCastUIOp::create(lb, lloc, i32, shiftIndex);
        Value firstPass =
            cmpIndex(lb, lloc, arith::CmpIPredicate::eq, pass, zero);
        emitCounts(lb, lloc, buffers[0], count, shift, offsets, tiles);
        emitScan(lb, lloc, offsets, length);
        emitScatterPass(lb, lloc, buffers[0], buffers[1], buffers[2],
                        buffers[3], count, shift, offsets, tiles, firstPass);
        scf::YieldOp::create(
            lb, lloc,
            ValueRange{buffers[2], buffers[3], buffers[0], buffers[1]});
      });
  dealloc(b, loc, offsets);
  return {loop.getResult(0), loop.getResult(1), loop.getResult(2),
          loop.getResult(3)};
}

void gpu_lowering::releaseSort(OpBuilder &b, Location loc,
                               const SortedEntries &sorted) {
  dealloc(b, loc, sorted.keys);
  dealloc(b, loc, sorted.positions);
  dealloc(b, loc, sorted.spareKeys);
  dealloc(b, loc, sorted.sparePositions);
}
