//===- GatherElements.cpp - lower nd.gather_elements ------------*- C++ -*-===//
//
// Lowers nd.gather_elements (ONNX GatherElements, OpenVINO
// GatherElements-6) under every oob mode, into a private function of its
// own (see LoweringState.h): result[p] = data[p with p[axis] =
// resolve(indices[p])]. Partitions split the flat positions of indices (see
// CheckedGather.h) and walk them in row-major order (see Positions.h); each
// index value is read and checked once. Signless integers and floats of 32
// and 64 bits move a vector of positions at a time, read with a hardware
// gather; the rest of a row, and other element types, one position at a
// time. The result is written once, so every split gives the same result.
//
// Preconditions: the op verifies. Dynamic dims the verifier could not
// compare are checked at run time when bounds checking is on. Index values:
// - oob<error>: each value is checked as it is read; a bad one reads nothing
//   and raises its partition's flag, which leads to the report of the first
//   bad value in row-major order. An empty axis makes every value bad.
// - oob<skip>: a value out of range reads a zero.
// - oob<clamp>: a value is clamped into the axis after negative values in
//   range are normalised; along an empty axis every value reads a zero.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "CheckedGather.h"
#include "IndexChecks.h"
#include "OpLowerings.h"
#include "Parallel.h"
#include "Positions.h"
#include "Scalars.h"

#include "nd/Conversion/RowSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

namespace {
/// What the partitions of a gather_elements read and write.
struct ElementGather {
  OobMode oob;
  bool check;
  /// The flat buffers of data, indices and the result.
  Value data, indices, result;
  /// The row-major strides of data, the dims of indices, and the size of the
  /// axis.
  SmallVector<Value> dataStrides, indexDims;
  Value size;
  int64_t axis, rank;
  /// Positions move a vector of `vl` at a time where `vectorized`.
  bool vectorized;
  int64_t vl;
};
} // namespace

/// One vector of positions `[pos, pos + vl)` of a gather_elements row (`vl`
/// the vector length of the element type): `result[pos + l] = data[base +
/// resolve(indices[pos + l]) * axisStride + (lastAxis ? 0 : col + l)]`, read
/// with one gather. Under oob<skip> a lane whose index is out of range
/// reads a zero; with `check`, such a lane reads nothing, and the returned
/// vector of i1 marks the lanes whose index is out of range (null without
/// `check`). The axis is not empty.
static Value gatherLanes(OpBuilder &b, Location loc, OobMode oob, bool check,
                         Value indices, Value data, Value result, Value pos,
                         Value base, Value col, Value size, Value axisStride,
                         bool lastAxis) {
  Type elementType = cast<MemRefType>(result.getType()).getElementType();
  int64_t vl = vectorLength(elementType);
  Type i64 = b.getI64Type();
  auto lanesOf = [&](Type type) { return VectorType::get({vl}, type); };
  auto splat = [&](Value scalar) -> Value {
    if (scalar.getType().isIndex())
      scalar = b.createOrFold<arith::IndexCastOp>(loc, i64, scalar);
    return vector::BroadcastOp::create(b, loc, lanesOf(i64), scalar);
  };
  // The raw index values, as i64.
  Type indexType = cast<MemRefType>(indices.getType()).getElementType();
  Value raw = vector::LoadOp::create(b, loc, lanesOf(indexType), indices, pos);
  if (indexType.isIndex())
    raw = arith::IndexCastOp::create(b, loc, lanesOf(i64), raw);
  else if (indexType.getIntOrFloatBitWidth() < 64)
    raw = arith::ExtSIOp::create(b, loc, lanesOf(i64), raw);
  Value sizes = splat(size);
  Value zeros = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(lanesOf(i64), b.getI64IntegerAttr(0)));
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, raw, zeros);
  Value wrapped = arith::AddIOp::create(b, loc, raw, sizes);
  Value normalized = arith::SelectOp::create(b, loc, negative, wrapped, raw);
  Value allTrue = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(lanesOf(b.getI1Type()), true));
  Value mask = allTrue;
  Value badLanes;
  if (oob == OobMode::Clamp) {
    Value ones = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(lanesOf(i64), b.getI64IntegerAttr(1)));
    Value last = arith::SubIOp::create(b, loc, sizes, ones);
    Value below = arith::MinSIOp::create(b, loc, normalized, last);
    normalized = arith::MaxSIOp::create(b, loc, below, zeros);
  } else if (oob == OobMode::Skip || check) {
    // Out of range exactly when not below size as unsigned numbers.
    Value bad = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                      normalized, sizes);
    mask = arith::XOrIOp::create(b, loc, bad, allTrue);
    if (check)
      badLanes = bad;
  }
  Value offsets = arith::MulIOp::create(b, loc, normalized, splat(axisStride));
  offsets = arith::AddIOp::create(b, loc, offsets, splat(base));
  if (!lastAxis) {
    // The lanes' own columns: col + l.
    SmallVector<int64_t> steps(vl);
    for (int64_t l = 0; l < vl; ++l)
      steps[l] = l;
    Value columns = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(lanesOf(i64), ArrayRef<int64_t>(steps)));
    columns = arith::AddIOp::create(b, loc, columns, splat(col));
    offsets = arith::AddIOp::create(b, loc, offsets, columns);
  }
  Value zero = zeroValue(b, loc, elementType);
  Value passThrough =
      vector::BroadcastOp::create(b, loc, lanesOf(elementType), zero);
  Value c0 = constIndex(b, loc, 0);
  Value values =
      vector::GatherOp::create(b, loc, lanesOf(elementType), data,
                               ValueRange{c0}, offsets, mask, passThrough);
  vector::StoreOp::create(b, loc, values, result, pos);
  return badLanes;
}

/// The position `pos` (coordinates `coords`) of the result, one element.
/// Returns `acc` with whether its index value was bad (with checks).
static SmallVector<Value> gatherElement(OpBuilder &b, Location loc,
                                        const ElementGather &g,
                                        ArrayRef<Value> coords, Value pos,
                                        ValueRange acc) {
  Value raw = loadIndexValue(b, loc, g.indices, pos);
  auto [normalized, skip] = resolveOrSkip(b, loc, g.oob, raw, g.size);
  Value isBad = constBool(b, loc, false);
  // Under clamp, in a non-empty axis, nothing is skipped.
  if (g.oob != OobMode::Skip)
    skip = Value();
  if (skip)
    normalized = clampIfBad(b, loc, skip, normalized);
  if (g.check) {
    isBad = isOutOfRange(b, loc, normalized, g.size);
    normalized = clampIfBad(b, loc, isBad, normalized);
  }
  Value offset = constIndex(b, loc, 0);
  for (int64_t d = 0; d < g.rank; ++d) {
    Value coord = d == g.axis ? normalized : coords[d];
    Value term = b.createOrFold<arith::MulIOp>(loc, coord, g.dataStrides[d]);
    offset = b.createOrFold<arith::AddIOp>(loc, offset, term);
  }
  Value value = memref::LoadOp::create(b, loc, g.data, ValueRange{offset});
  if (skip) {
    Value zeroElement = zeroValue(b, loc, value.getType());
    value = arith::SelectOp::create(b, loc, skip, zeroElement, value);
  }
  memref::StoreOp::create(b, loc, value, g.result, ValueRange{pos});
  return {orBool(b, loc, acc[0], isBad)};
}

/// The columns `[from, to)` of the row at `rowStart` (coordinates
/// `coords`): whole vectors of columns where vectorized, then the rest one
/// by one. Returns `acc` with whether an index value was bad (with checks).
static SmallVector<Value> gatherSegment(OpBuilder &b, Location loc,
                                        const ElementGather &g,
                                        SmallVectorImpl<Value> &coords,
                                        Value rowStart, Value from, Value to,
                                        ValueRange acc) {
  auto element = [&](OpBuilder &eb, Location eloc, ArrayRef<Value> at,
                     Value pos, ValueRange carried) {
    return gatherElement(eb, eloc, g, at, pos, carried);
  };
  if (!g.vectorized)
    return walkColumns(b, loc, coords, rowStart, from, to, acc, element);
  Value lanes = constIndex(b, loc, g.vl);
  Value span = b.createOrFold<arith::SubIOp>(loc, to, from);
  Value rem = b.createOrFold<arith::RemUIOp>(loc, span, lanes);
  Value vectorEnd = b.createOrFold<arith::SubIOp>(loc, to, rem);
  // The offset of the row in data, but for the axis.
  Value base = constIndex(b, loc, 0);
  for (int64_t d = 0; d + 1 < g.rank; ++d) {
    if (d == g.axis)
      continue;
    Value term =
        b.createOrFold<arith::MulIOp>(loc, coords[d], g.dataStrides[d]);
    base = b.createOrFold<arith::AddIOp>(loc, base, term);
  }
  // With checks, the vectors' out-of-range lanes accumulate in a vector,
  // reduced once per segment.
  SmallVector<Value> init(acc);
  if (g.check)
    init[0] = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(VectorType::get({g.vl}, b.getI1Type()), false));
  auto vectors = scf::ForOp::create(
      b, loc, from, vectorEnd, lanes, init,
      [&](OpBuilder &vb, Location vloc, Value col, ValueRange vacc) {
        Value pos = vb.createOrFold<arith::AddIOp>(vloc, rowStart, col);
        Value badLanes = gatherLanes(
            vb, vloc, g.oob, g.check, g.indices, g.data, g.result, pos, base,
            col, g.size, g.dataStrides[g.axis], g.axis == g.rank - 1);
        Value next = vacc[0];
        if (badLanes)
          next = arith::OrIOp::create(vb, vloc, next, badLanes);
        scf::YieldOp::create(vb, vloc, next);
      });
  SmallVector<Value> carried(vectors.getResults());
  if (g.check) {
    Value anyLane = vector::ReductionOp::create(
        b, loc, vector::CombiningKind::OR, carried[0]);
    carried[0] = orBool(b, loc, acc[0], anyLane);
  }
  return walkColumns(b, loc, coords, rowStart, vectorEnd, to, carried, element);
}

/// Partition `p`: its range of the flat positions of indices, in row-major
/// order. Returns whether an index value was bad (null without checks).
static Value gatherPartition(OpBuilder &b, Location loc, const ElementGather &g,
                             Value count, Value parts, Value p) {
  std::pair<Value, Value> bounds = partRange(b, loc, count, parts, p);
  Value lo = bounds.first, hi = bounds.second;
  Value no = constBool(b, loc, false);
  Value zero = constIndex(b, loc, 0);
  SmallVector<Value> bad = walkRowSegments(
      b, loc, g.indexDims, lo, hi, zero, g.indexDims.back(), ValueRange{no},
      [&](OpBuilder &sb, Location sloc, SmallVectorImpl<Value> &coords,
          Value rowStart, Value from, Value to, ValueRange acc) {
        return gatherSegment(sb, sloc, g, coords, rowStart, from, to, acc);
      });
  return g.check ? bad[0] : Value();
}

namespace {
/// result[p] = data[p with p[axis] = normalize(indices[p])]: partitions of
/// the flat positions of indices, each value read and checked once.
struct GatherElementsLowering : public NdGatherPattern<GatherElementsOp> {
  using NdGatherPattern::NdGatherPattern;

private:
  void gather(OpBuilder &b, Location loc, GatherElementsOp op, Value data,
              Value indices, Value into) const override {
    // The model: an entry per position of indices, which reads data at that
    // position with its index value on the axis (rows of one element).
    RowSizes sizes(op, {data, indices, into});
    int64_t axis = sizes.componentDim(0);
    ElementGather g;
    g.oob = sizes.addressing().oob;
    g.check = state->checksEnabled() && g.oob == OobMode::Error;
    RankedTensorType resultType = getProducedType(op);
    g.rank = resultType.getRank();
    g.axis = axis;
    g.data = flatView(b, loc, data);
    g.indices = flatView(b, loc, indices);
    g.result = flatView(b, loc, into);

    SmallVector<Value> dataDims = sizes.rowIndexSizes(b, loc);
    g.dataStrides = rowMajorStrides(b, loc, dataDims);
    g.indexDims = sizes.entrySizes(b, loc);
    Value count = product(b, loc, g.indexDims);
    g.size = dataDims[axis];
    Value zero = constIndex(b, loc, 0);

    Value parts = state->numPartitions(b, loc, op, count, count);
    // Signless integers and floats of 32 and 64 bits move a vector of
    // positions at a time, read with a hardware gather.
    Type elementType = resultType.getElementType();
    g.vectorized =
        (elementType.isSignlessInteger() || isa<FloatType>(elementType)) &&
        (elementType.getIntOrFloatBitWidth() == 32 ||
         elementType.getIntOrFloatBitWidth() == 64);
    g.vl = g.vectorized ? vectorLength(elementType) : 1;
    // Every index is out of range when the axis is empty: nothing may be
    // read then (under skip and clamp, every value is a zero).
    Value empty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                                g.size, zero);

    auto partition = [&](OpBuilder &pb, Location ploc, Value p) {
      return gatherPartition(pb, ploc, g, count, parts, p);
    };
    auto reportFirstBad = [&](OpBuilder &nb, Location nloc) {
      reportFirstBadValue(*state, nb, nloc, op, g.indices, count, g.size);
    };
    auto zeroResult = [&](OpBuilder &nb, Location nloc) {
      fillZeros(nb, nloc, g.result, zero, count);
    };
    GatherPartitions partitions{g.check, parts, count, partition,
                                reportFirstBad};
    buildGuardedGather(b, loc, partitions, empty, g.oob, zeroResult);
  }
};
} // namespace

void mlir::nd::lowering::populateGatherElementsLowering(
    RewritePatternSet &patterns, std::shared_ptr<LoweringState> state) {
  patterns.add<GatherElementsLowering>(patterns.getContext(), std::move(state));
}
