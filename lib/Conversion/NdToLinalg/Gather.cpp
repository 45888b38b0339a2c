//===- Gather.cpp - lower nd.gather ------------------------------*- C++
//-*-===//
//
// Lowers nd.gather (ONNX Gather, OpenVINO Gather-1/7/8) under every oob
// mode, into a private function of its own (see LoweringSupport.h).
//
// With `a` the axis and `b` the batch dims, `data` is seen as
// `[B, M, s, inner]` (B = prod(data.shape[:b]), M = prod(data.shape[b:a]),
// s = data.shape[a], inner = prod(data.shape[a+1:])), `indices` as `[B, I]`
// and the result as `[B, M, I, inner]`: result row `u = (bb * M + m) * I + i`
// is data row `(bb * M + m) * s + resolve(indices[bb, i])`. Partitions split
// the result rows; each row is one contiguous copy of `inner` elements, with
// vector loads and stores where the element type allows (rows of one
// element along a static non-empty axis move without a branch). The result
// is written once, so every split gives the same result.
//
// Preconditions: the op verifies. Dynamic dims the verifier could not
// compare are checked at run time when bounds checking is on. Index values:
// - oob<error>: each row's index is checked as it is read; a bad one reads
//   nothing and raises its partition's flag. A raised flag (or, when no row
//   exists to read, a scan of all the indices) leads to a serial rescan that
//   reports the first bad value in row-major order of `indices`: every index
//   value is checked, whether or not a row is read through it.
// - oob<skip>: the rows of a value out of range are zeros.
// - oob<clamp>: a value is clamped into `[0, s-1]` after negative values in
//   range are normalised; along an empty axis its rows are zeros.
//
//===----------------------------------------------------------------------===//

#include "LoweringSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

namespace {
/// result[p..., i..., s...] = data[p..., resolve(indices[p[:b]..., i...]),
/// s...]: partitions of the result rows, one row copy each.
struct GatherLowering : public NdLoweringPattern<GatherOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    int64_t axis = op.getNormalizedAxis();
    int64_t bDims = static_cast<int64_t>(op.getBatchDims());
    int64_t q = op.getIndices().getType().getRank();
    int64_t resultRank = resultType.getRank();
    // Result dims [axis, indexEnd) are indices dims [bDims, q).
    int64_t indexEnd = axis + q - bDims;
    SmallVector<Value> operands = {adaptor.getData(), adaptor.getIndices()};
    state->outline(
        rewriter, op, operands,
        [&](OpBuilder &b, Location loc, ValueRange args) -> Value {
          Value data = args[0], indices = args[1];
          // Where each result dim comes from.
          auto source = [&](int64_t d) -> std::pair<Value, int64_t> {
            if (d < axis)
              return {data, d};
            if (d < indexEnd)
              return {indices, d - axis + bDims};
            return {data, d - indexEnd + axis + 1};
          };
          SmallVector<Value> resultSizes;
          for (int64_t d = 0; d < resultRank; ++d) {
            if (!resultType.isDynamicDim(d))
              continue;
            std::pair<Value, int64_t> from = source(d);
            resultSizes.push_back(dimValue(b, loc, from.first, from.second));
          }
          LoweringState::CheckChain chain(*state, b, loc, op);
          for (int64_t d = 0; d < bDims; ++d)
            state->checkDims(chain, indices, "indices", d, data, "data", d);
          for (int64_t d = 0; d < resultRank; ++d) {
            std::pair<Value, int64_t> from = source(d);
            state->checkResultDim(chain, from.first,
                                  from.first == data ? "data" : "indices",
                                  from.second, d);
          }
          return buildIf(
              b, loc, chain.ok(), resultType,
              [&](OpBuilder &nb, Location nloc) {
                return gather(nb, nloc, op, data, indices, resultSizes);
              },
              [&](OpBuilder &nb, Location nloc) -> Value {
                return tensor::EmptyOp::create(nb, nloc, resultType,
                                               resultSizes);
              });
        });
    return success();
  }

private:
  Value gather(OpBuilder &b, Location loc, GatherOp op, Value data,
               Value indices, ValueRange resultSizes) const {
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    OobMode oob = op.getOob();
    int64_t axis = op.getNormalizedAxis();
    int64_t bDims = static_cast<int64_t>(op.getBatchDims());
    int64_t q = op.getIndices().getType().getRank();
    int64_t r = op.getData().getType().getRank();
    bool check = oob == OobMode::Error && state->checksEnabled();

    Value dataFlat = flatReadBuffer(b, loc, data);
    Value indicesFlat = flatReadBuffer(b, loc, indices);
    Allocation result = allocateResult(b, loc, resultType, resultSizes);

    Value batch = product(b, loc, dimValues(b, loc, data, 0, bDims));
    Value middle = product(b, loc, dimValues(b, loc, data, bDims, axis));
    Value axisSize = dimValue(b, loc, data, axis);
    Value inner = product(b, loc, dimValues(b, loc, data, axis + 1, r));
    Value perBatch = product(b, loc, dimValues(b, loc, indices, bDims, q));
    Value numIndices = b.createOrFold<arith::MulIOp>(loc, batch, perBatch);
    Value outer = b.createOrFold<arith::MulIOp>(loc, batch, middle);
    Value rows = b.createOrFold<arith::MulIOp>(loc, outer, perBatch);
    Value one = constIndex(b, loc, 1);
    Value perRow = b.createOrFold<arith::AddIOp>(loc, inner, one);
    Value work = b.createOrFold<arith::MulIOp>(loc, rows, perRow);
    Value parts = state->numPartitions(b, loc, op, work, rows);
    Type elementType = resultType.getElementType();
    Value total = b.createOrFold<arith::MulIOp>(loc, rows, inner);
    Value streaming = streamsRows(b, loc, elementType, total, inner);

    // Rows of one element along an axis known to be non-empty move without
    // a branch.
    auto dataType = op.getData().getType();
    bool pointRows = llvm::all_of(dataType.getShape().drop_front(axis + 1),
                                  [](int64_t d) { return d == 1; }) &&
                     !dataType.isDynamicDim(axis) &&
                     dataType.getDimSize(axis) > 0;
    // Rows shorter than a line are points to the out-of-order window, which
    // covers many of them without help.
    std::optional<int64_t> staticInner = getConstantIntValue(inner);
    bool prefetch = !pointRows &&
                    (!staticInner || !isVectorizable(elementType) ||
                     *staticInner >= vectorLength(elementType));
    Value flags;
    if (check)
      flags = allocScratch(b, loc, b.getI1Type(), parts);
    buildParallel(b, loc, parts, [&](OpBuilder &pb, Location ploc, Value p) {
      std::pair<Value, Value> bounds = partRange(pb, ploc, rows, parts, p);
      Value step = constIndex(pb, ploc, 1);
      Value no = constBool(pb, ploc, false);
      Value zero =
          oob == OobMode::Error ? Value() : zeroValue(pb, ploc, elementType);
      // The partition's rows [lo, hi) as (outer row, index value) pairs:
      // the outer rows' loop does the divisions, the inner loop none.
      Value lo = bounds.first, hi = bounds.second;
      Value firstOuter = pb.createOrFold<arith::DivUIOp>(ploc, lo, perBatch);
      Value lastOuter = ceilDiv(pb, ploc, hi, perBatch);
      auto loop = scf::ForOp::create(
          pb, ploc, firstOuter, lastOuter, step, ValueRange{no},
          [&](OpBuilder &ob, Location oloc, Value outerRow, ValueRange outAcc) {
            // Rows exist, so perBatch and middle are not 0 here.
            Value rowStart =
                ob.createOrFold<arith::MulIOp>(oloc, outerRow, perBatch);
            Value from = ob.createOrFold<arith::SubIOp>(
                oloc, maxIndex(ob, oloc, lo, rowStart), rowStart);
            Value rowEnd =
                ob.createOrFold<arith::AddIOp>(oloc, rowStart, perBatch);
            Value to = ob.createOrFold<arith::SubIOp>(
                oloc, minIndex(ob, oloc, hi, rowEnd), rowStart);
            Value indexStart = constIndex(ob, oloc, 0);
            if (bDims > 0) {
              Value bb =
                  ob.createOrFold<arith::DivUIOp>(oloc, outerRow, middle);
              indexStart = ob.createOrFold<arith::MulIOp>(oloc, bb, perBatch);
            }
            Value base =
                ob.createOrFold<arith::MulIOp>(oloc, outerRow, axisSize);
            Value last = ob.createOrFold<arith::SubIOp>(oloc, to, step);
            Value distance = constIndex(ob, oloc, kPrefetchDistance);
            // The data offset of the row of index value `i` (unchecked).
            auto sourceOffset = [&](OpBuilder &lb, Location lloc, Value i) {
              Value position =
                  lb.createOrFold<arith::AddIOp>(lloc, indexStart, i);
              Value raw = loadIndex(lb, lloc, indicesFlat, position);
              ResolvedIndex index = resolveIndex(lb, lloc, oob, raw, axisSize);
              Value srcRow =
                  lb.createOrFold<arith::AddIOp>(lloc, base, index.position);
              Value srcOffset =
                  lb.createOrFold<arith::MulIOp>(lloc, srcRow, inner);
              return std::make_pair(index, srcOffset);
            };
            auto indexLoop = scf::ForOp::create(
                ob, oloc, from, to, step, outAcc,
                [&](OpBuilder &lb, Location lloc, Value i, ValueRange acc) {
                  std::pair<ResolvedIndex, Value> source =
                      sourceOffset(lb, lloc, i);
                  ResolvedIndex index = source.first;
                  Value srcOffset = source.second;
                  Value u = lb.createOrFold<arith::AddIOp>(lloc, rowStart, i);
                  Value dstOffset =
                      lb.createOrFold<arith::MulIOp>(lloc, u, inner);
                  if (prefetch) {
                    Value ahead =
                        lb.createOrFold<arith::AddIOp>(lloc, i, distance);
                    Value next = minIndex(lb, lloc, ahead, last);
                    Value nextOffset = sourceOffset(lb, lloc, next).second;
                    prefetchRow(lb, lloc, dataFlat, nextOffset, inner);
                  }
                  auto copyRow = [&](OpBuilder &cb, Location cloc) {
                    emitRowCopy(cb, cloc, result.flat, dstOffset, dataFlat,
                                srcOffset, inner, streaming);
                  };
                  Value bad = acc[0];
                  if (pointRows) {
                    // One element per row along a non-empty axis: a bad
                    // index reads a safe element, dropped or replaced by
                    // zero without a branch.
                    Value safe = clampIfBad(lb, lloc, index.bad, srcOffset);
                    Value value =
                        memref::LoadOp::create(lb, lloc, dataFlat, safe);
                    if (oob == OobMode::Skip)
                      value = arith::SelectOp::create(lb, lloc, index.bad, zero,
                                                      value);
                    memref::StoreOp::create(lb, lloc, value, result.flat,
                                            dstOffset);
                    if (check)
                      bad = orBool(lb, lloc, bad, index.bad);
                  } else if (oob == OobMode::Error && !check) {
                    // Trusted indices: no check at all.
                    copyRow(lb, lloc);
                  } else {
                    Value good = notBool(lb, lloc, index.bad);
                    bool fill = oob != OobMode::Error;
                    auto ifOp = scf::IfOp::create(lb, lloc, good,
                                                  /*withElseRegion=*/fill);
                    {
                      OpBuilder::InsertionGuard guard(lb);
                      lb.setInsertionPointToStart(ifOp.thenBlock());
                      copyRow(lb, lloc);
                      if (fill) {
                        lb.setInsertionPointToStart(ifOp.elseBlock());
                        emitRowFill(lb, lloc, result.flat,
                                    ValueRange{dstOffset}, zero, inner);
                      }
                    }
                    if (check)
                      bad = orBool(lb, lloc, bad, index.bad);
                  }
                  scf::YieldOp::create(lb, lloc, bad);
                });
            scf::YieldOp::create(ob, oloc, indexLoop.getResults());
          });
      state->fenceStreamedStores(pb, ploc, op, streaming);
      if (check)
        memref::StoreOp::create(pb, ploc, loop.getResult(0), flags, p);
    });
    if (!check)
      return result.tensor;

    // No row was read when `rows` is 0: the indices are checked on their own
    // then (an empty `indices` has nothing to check).
    Value zeroIndex = constIndex(b, loc, 0);
    Value noRows = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                 rows, zeroIndex);
    Value someIndices = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ne, numIndices, zeroIndex);
    Value scanAll = b.createOrFold<arith::AndIOp>(loc, noRows, someIndices);
    auto scan = scf::IfOp::create(
        b, loc, scanAll,
        [&](OpBuilder &nb, Location nloc) {
          Value bound = rangeBound(nb, nloc, axisSize);
          Value zero = constIndex(nb, nloc, 0);
          Value any = maxShifted(nb, nloc, indicesFlat, zero, numIndices,
                                 axisSize, bound);
          scf::YieldOp::create(nb, nloc, any);
        },
        [&](OpBuilder &nb, Location nloc) {
          scf::YieldOp::create(nb, nloc, anyFlag(nb, nloc, flags, parts));
        });
    Value ok = notBool(b, loc, scan.getResult(0));
    reportUnless(b, loc, ok, [&](OpBuilder &nb, Location nloc) {
      reportFirstBadElement(*state, nb, nloc, op, indicesFlat, numIndices,
                            axisSize, axis);
    });
    return result.tensor;
  }
};
} // namespace

void mlir::nd::lowering::populateGatherPatterns(
    RewritePatternSet &patterns, std::shared_ptr<LoweringState> state) {
  patterns.add<GatherLowering>(patterns.getContext(), std::move(state));
}
