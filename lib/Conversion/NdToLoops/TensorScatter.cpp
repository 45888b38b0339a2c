//===- TensorScatter.cpp - lower nd.tensor_scatter --------------*- C++ -*-===//
//
// Lowers nd.tensor_scatter (ONNX TensorScatter-24, the KV-cache update) as a
// slice scatter, under both modes and every oob mode, into a private function
// of its own (see LoweringState.h).
//
// With `a` the axis, S = max_sequence_length, L = sequence_length and inner =
// prod(shape[a+1:]), every position `p` of the dims before the axis is a row
// of `S * inner` contiguous elements; the update's row `p` (batch entry
// `p[0]`, write index `w`) lands at columns `[w * inner, (w + L) * inner)` of
// it: one contiguous copy in linear mode, two in circular mode (up to the end
// of the row, then from its start). Writes never collide, so partitions own
// ranges of dim `a - 1` (an `scf.parallel` over views of the cache, see
// buildPartitionedUpdate) and every split gives the same result. Only the
// update's elements are touched: with a donated cache the update is in
// place and costs O(update).
//
// Preconditions: the op verifies. Dynamic dims the verifier could not
// compare and, under oob<error>, every write index are checked at run time
// before anything is written (there are only `batch` write indices), so a
// failed check leaves the cache untouched even when it is updated in place.
// Under oob<skip> a batch entry with a write index out of range writes
// nothing; under oob<clamp> its index is clamped into `[0, S - L]` (linear)
// or up to 0 (circular).
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "OpLowerings.h"
#include "Parallel.h"
#include "Scalars.h"
#include "nd/Dialect/Nd/Utils/CacheSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <string>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

namespace {
/// How the partitions cut the cache: a grid of `splitParts` ranges of dim
/// `split` (the one before the axis) by `seqParts` ranges of the positions
/// along the axis. Each position before the axis is a row of `maxSeq *
/// inner` elements; `outerRows` rows per index of dim `split`, and `chunk`
/// the elements of the update's row.
struct CacheGrid {
  int64_t axis, split;
  Value splitSize, outerRows, chunk, splitParts, seqParts;
  SmallVector<Value> outerDims;
};

/// A partition's block of the cache: a range of the dim before the axis and
/// a range of the positions along the axis.
struct CacheBlock {
  Value splitStart, splitCount, seqCount;
  std::pair<Value, Value> seqRange;
};
} // namespace

/// Partition `p`'s block of the cache.
static CacheBlock cacheBlock(OpBuilder &b, Location loc, const CacheSizes &c,
                             const CacheGrid &grid, Value p) {
  Value si = b.createOrFold<arith::DivUIOp>(loc, p, grid.seqParts);
  Value ai = b.createOrFold<arith::RemUIOp>(loc, p, grid.seqParts);
  std::pair<Value, Value> splitRange =
      partRange(b, loc, grid.splitSize, grid.splitParts, si);
  std::pair<Value, Value> seqRange =
      partRange(b, loc, c.maxSeq, grid.seqParts, ai);
  CacheBlock block;
  block.splitStart = splitRange.first;
  block.splitCount =
      b.createOrFold<arith::SubIOp>(loc, splitRange.second, splitRange.first);
  block.seqRange = seqRange;
  block.seqCount =
      b.createOrFold<arith::SubIOp>(loc, seqRange.second, seqRange.first);
  return block;
}

namespace {
struct TensorScatterLowering : public NdBufferPattern<TensorScatterOp> {
  using NdBufferPattern::NdBufferPattern;

private:
  LogicalResult outline(TensorScatterOp op, ValueRange operands,
                        ConversionPatternRewriter &rewriter) const override {
    auto cacheType = op.getPastCache().getType();
    int64_t axis = op.getNormalizedAxis();
    bool hasWrites = static_cast<bool>(op.getWriteIndices());
    state->outline(
        rewriter, op, operands,
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value cache = args[0], update = args[1];
          Value writes = hasWrites ? args[2] : Value();
          LoweringState::CheckChain chain(*state, b, loc, op);
          state->checkShapes(chain, args);

          CacheSizes c = cacheSizesOf(b, loc, cache, update, axis,
                                       op.getMode(), op.getOob());
          Value ok = chain.ok();
          if (writes && c.oob == OobMode::Error && state->checksEnabled()) {
            // Only once the dims are known to be right: the last start is
            // not negative then.
            ok = buildIf(
                b, loc, ok, b.getI1Type(),
                [&](OpBuilder &nb, Location nloc) {
                  return checkWrites(nb, nloc, op, writes, c);
                },
                [&](OpBuilder &nb, Location nloc) {
                  return constBool(nb, nloc, false);
                });
          }
          // A static 0 dim leaves nothing to write (and no slice of the
          // cache survives canonicalization); the checks above still run.
          if (llvm::is_contained(cacheType.getShape(), 0) ||
              llvm::is_contained(op.getUpdate().getType().getShape(), 0))
            return;
          buildIf(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
            scatter(nb, nloc, op, cache, update, writes, c);
          });
        });
    return success();
  }

  /// Checks every write index in order, reports the first bad one, and
  /// returns whether all are good.
  Value checkWrites(OpBuilder &b, Location loc, TensorScatterOp op,
                    Value writes, const CacheSizes &c) const {
    Value flat = flatView(b, loc, writes);
    Value count = dimValue(b, loc, writes, 0);
    Value zero = constIndex(b, loc, 0);
    Value one = constIndex(b, loc, 1);
    Value yes = constBool(b, loc, true);
    std::string message = writeIndexMessage(op.getNormalizedAxis(), c.circular);
    Value limit = c.circular ? c.maxSeq : c.lastStart;
    auto loop = scf::ForOp::create(
        b, loc, zero, count, one, ValueRange{yes},
        [&](OpBuilder &lb, Location lloc, Value e, ValueRange acc) {
          Value w = loadIndexValue(lb, lloc, flat, e);
          Value bad = c.isBadWrite(lb, lloc, w);
          LoweringState::CheckChain chain(*state, lb, lloc, op, acc[0]);
          chain.check(bad, message, w, limit);
          scf::YieldOp::create(lb, lloc, chain.ok());
        });
    return loop.getResult(0);
  }

  void scatter(OpBuilder &b, Location loc, TensorScatterOp op, Value cache,
               Value update, Value writes, const CacheSizes &c) const {
    auto cacheType = op.getPastCache().getType();
    CacheGrid grid;
    grid.axis = op.getNormalizedAxis();
    int64_t r = cacheType.getRank();
    // Partitions own ranges of the dim just before the axis (the heads of
    // a [batch, heads, seq, dim] cache, the batch of [batch, seq, dim]) and,
    // where that dim has fewer entries than there are partitions, ranges of
    // the positions along the axis too; everything after the axis is whole.
    grid.split = grid.axis - 1;
    grid.splitSize = dimValue(b, loc, cache, grid.split);
    grid.outerRows = product(b, loc, dimValues(b, loc, cache, 0, grid.split));
    Value numRows =
        b.createOrFold<arith::MulIOp>(loc, grid.outerRows, grid.splitSize);
    grid.chunk = b.createOrFold<arith::MulIOp>(loc, c.seqLen, c.inner);
    Value work = b.createOrFold<arith::MulIOp>(loc, numRows, grid.chunk);
    Value units = b.createOrFold<arith::MulIOp>(loc, grid.splitSize, c.maxSeq);
    Value parts = state->numPartitions(b, loc, op, work, units);
    // A grid of splitParts x seqParts partitions (seqParts is 1 unless the
    // split dim is short).
    Value one = constIndex(b, loc, 1);
    Value splitRows = maxIndex(b, loc, grid.splitSize, one);
    grid.splitParts = minIndex(b, loc, parts, splitRows);
    grid.seqParts = b.createOrFold<arith::DivUIOp>(loc, parts, grid.splitParts);
    Value gridParts =
        b.createOrFold<arith::MulIOp>(loc, grid.splitParts, grid.seqParts);
    SmallVector<int64_t> dynamicShape(r, ShapedType::kDynamic);
    MemRefType sliceType =
        sliceMemRefType(cacheType.getElementType(), dynamicShape,
                        /*contiguousRows=*/true);
    SmallVector<OpFoldResult> cacheSizes = memref::getMixedSizes(b, loc, cache);
    grid.outerDims = dimValues(b, loc, cache, 0, grid.split);
    buildPartitionedUpdate(
        b, loc, cache, gridParts, sliceType,
        [&](OpBuilder &nb, Location nloc, Value p) {
          CacheBlock block = cacheBlock(nb, nloc, c, grid, p);
          SliceRegion region;
          region.offsets.assign(r, nb.getIndexAttr(0));
          region.offsets[grid.split] = block.splitStart;
          region.offsets[grid.axis] = block.seqRange.first;
          region.sizes = cacheSizes;
          region.sizes[grid.split] = block.splitCount;
          region.sizes[grid.axis] = block.seqCount;
          return region;
        },
        [&](OpBuilder &nb, Location nloc, Value p, Value slice) {
          updateBlock(nb, nloc, c, grid, update, writes, p, slice);
        });
  }

  /// Partition `p` writes the update into `slice`, its block of the cache:
  /// one row per position before the axis.
  static void updateBlock(OpBuilder &b, Location loc, const CacheSizes &c,
                          const CacheGrid &grid, Value update, Value writes,
                          Value p, Value slice) {
    Value updates = flatView(b, loc, update);
    Value writesFlat = writes ? flatView(b, loc, writes) : Value();
    CacheBlock block = cacheBlock(b, loc, c, grid, p);
    Value sliceRowLen =
        b.createOrFold<arith::MulIOp>(loc, block.seqCount, c.inner);
    Value rows = rowView(b, loc, slice, grid.split, sliceRowLen);
    Value zero = constIndex(b, loc, 0);
    Value one = constIndex(b, loc, 1);
    Value total =
        b.createOrFold<arith::MulIOp>(loc, grid.outerRows, block.splitCount);
    scf::ForOp::create(b, loc, zero, total, one, ValueRange{},
                       [&](OpBuilder &lb, Location lloc, Value t, ValueRange) {
                         writeBlockRow(lb, lloc, c, grid, block, rows, updates,
                                       writesFlat, t);
                         scf::YieldOp::create(lb, lloc);
                       });
  }

  /// Row `t` of a partition's block (`rows`, see rowView): the update's row
  /// at the batch entry's write index from `writesFlat` (0 without write
  /// indices), resolved under the oob mode.
  static void writeBlockRow(OpBuilder &b, Location loc, const CacheSizes &c,
                            const CacheGrid &grid, const CacheBlock &block,
                            Value rows, Value updates, Value writesFlat,
                            Value t) {
    Value zero = constIndex(b, loc, 0);
    Value count = block.splitCount;
    // t = outer * count + j: the row's coordinates in the slice.
    Value j = b.createOrFold<arith::RemUIOp>(loc, t, count);
    Value outer = b.createOrFold<arith::DivUIOp>(loc, t, count);
    SmallVector<Value> at(grid.split + 1);
    at[grid.split] = j;
    Value rest = outer;
    for (int64_t d = grid.split - 1; d >= 0; --d) {
      at[d] = b.createOrFold<arith::RemUIOp>(loc, rest, grid.outerDims[d]);
      rest = b.createOrFold<arith::DivUIOp>(loc, rest, grid.outerDims[d]);
    }
    Value first = b.createOrFold<arith::MulIOp>(loc, outer, grid.splitSize);
    Value shifted = b.createOrFold<arith::AddIOp>(loc, first, block.splitStart);
    Value row = b.createOrFold<arith::AddIOp>(loc, shifted, j);
    Value srcOffset = b.createOrFold<arith::MulIOp>(loc, row, grid.chunk);
    Value w = zero;
    if (writesFlat) {
      // Rows exist, so perBatch is not 0 here.
      Value batch = b.createOrFold<arith::DivUIOp>(loc, row, c.perBatch);
      w = loadIndexValue(b, loc, writesFlat, batch);
    }
    auto write = [&](OpBuilder &wb, Location wloc, Value start) {
      writeRow(wb, wloc, c, rows, at, block.seqRange, start, updates,
               srcOffset);
    };
    if (!writesFlat || c.oob == OobMode::Error) {
      write(b, loc, w);
      return;
    }
    if (c.oob == OobMode::Clamp) {
      Value start = c.clampWrite(b, loc, w);
      write(b, loc, start);
      return;
    }
    Value bad = c.isBadWrite(b, loc, w);
    Value good = notBool(b, loc, bad);
    auto ifOp = scf::IfOp::create(b, loc, good, false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    write(b, loc, w);
  }

  /// `slice` (rank r, its dims after the axis whole, so that its part of
  /// each row is contiguous) seen as `[dims[:split+1]..., rowLen]`, one row
  /// per position before the axis.
  static Value rowView(OpBuilder &b, Location loc, Value slice, int64_t split,
                       Value rowLen) {
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, slice);
    SmallVector<OpFoldResult> sizes, strides;
    for (int64_t d = 0; d <= split; ++d) {
      sizes.push_back(meta.getSizes()[d]);
      strides.push_back(meta.getStrides()[d]);
    }
    sizes.push_back(rowLen);
    strides.push_back(b.getIndexAttr(1));
    auto elementType = cast<MemRefType>(slice.getType()).getElementType();
    SmallVector<int64_t> shape(split + 2, ShapedType::kDynamic);
    MemRefType type = sliceMemRefType(elementType, shape,
                                      /*contiguousRows=*/true);
    OpFoldResult offset = meta.getOffset();
    return memref::ReinterpretCastOp::create(b, loc, type, meta.getBaseBuffer(),
                                             offset, sizes, strides);
  }

  /// Copies the part of update row `srcOffset` that lands in the positions
  /// `seqRange` (the slice's part of the axis) into the row at `prefix` of
  /// `rows`, the update starting at position `w`: one piece in linear mode,
  /// two in circular mode (up to the end of the axis, then from its start).
  static void writeRow(OpBuilder &b, Location loc, const CacheSizes &c,
                       Value rows, ArrayRef<Value> prefix,
                       std::pair<Value, Value> seqRange, Value w, Value updates,
                       Value srcOffset) {
    // Copies update positions [from, from + len) to positions
    // [start, start + len), clipped to seqRange.
    auto piece = [&](Value start, Value from, Value len) {
      Value end = b.createOrFold<arith::AddIOp>(loc, start, len);
      Value lo = maxIndex(b, loc, start, seqRange.first);
      Value hi = minIndex(b, loc, end, seqRange.second);
      hi = maxIndex(b, loc, hi, lo);
      Value count = b.createOrFold<arith::SubIOp>(loc, hi, lo);
      Value skipped = b.createOrFold<arith::SubIOp>(loc, lo, start);
      Value first = b.createOrFold<arith::AddIOp>(loc, from, skipped);
      Value srcShift = b.createOrFold<arith::MulIOp>(loc, first, c.inner);
      Value src = b.createOrFold<arith::AddIOp>(loc, srcOffset, srcShift);
      Value local = b.createOrFold<arith::SubIOp>(loc, lo, seqRange.first);
      Value column = b.createOrFold<arith::MulIOp>(loc, local, c.inner);
      Value elements = b.createOrFold<arith::MulIOp>(loc, count, c.inner);
      SmallVector<Value> at(prefix);
      at.push_back(column);
      emitRowUpdate(b, loc, ReductionKind::None, rows, at, updates, src,
                    elements);
    };
    Value zero = constIndex(b, loc, 0);
    if (!c.circular) {
      piece(w, zero, c.seqLen);
      return;
    }
    // The cache has elements here, so S is not 0. Row 0 of the update
    // goes to position `start`.
    Value start = c.position(b, loc, w, zero);
    Value room = b.createOrFold<arith::SubIOp>(loc, c.maxSeq, start);
    Value first = minIndex(b, loc, c.seqLen, room);
    Value rest = b.createOrFold<arith::SubIOp>(loc, c.seqLen, first);
    piece(start, zero, first);
    piece(zero, first, rest);
  }
};
} // namespace

void mlir::nd::lowering::populateTensorScatterLowering(
    RewritePatternSet &patterns, std::shared_ptr<LoweringState> state) {
  patterns.add<TensorScatterLowering>(patterns.getContext(), std::move(state));
}
