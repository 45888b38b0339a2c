//===- Buffers.cpp - buffers and row moves of the nd lowering ---*- C++ -*-===//
//
// See Buffers.h.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "nd/Conversion/Streaming.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

//===----------------------------------------------------------------------===//
// Buffers and shapes
//===----------------------------------------------------------------------===//

SmallVector<int64_t>
lowering::collapsedShape(ArrayRef<int64_t> shape,
                         ArrayRef<ReassociationIndices> groups) {
  SmallVector<int64_t> result;
  for (const ReassociationIndices &group : groups) {
    int64_t size = 1;
    for (int64_t d : group) {
      if (ShapedType::isDynamic(shape[d])) {
        size = ShapedType::kDynamic;
        break;
      }
      size *= shape[d];
    }
    result.push_back(size);
  }
  return result;
}

/// A view of `memref` (identity layout) with a static 0 dim, reshaped to
/// `shape`: nothing is read or written through it, and a collapse_shape of
/// such a buffer does not survive canonicalization in MLIR 22 (it infers a
/// static 0 where the verifier requires a dynamic dim).
static Value emptyView(OpBuilder &b, Location loc, Value memref,
                       ArrayRef<int64_t> shape) {
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> zeros(shape.size(), 0);
  SmallVector<int64_t> strides(shape.size(), 1);
  auto layout = StridedLayoutAttr::get(b.getContext(), 0, strides);
  auto emptyType = MemRefType::get(zeros, type.getElementType(), layout);
  SmallVector<OpFoldResult> sizes(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> unitStrides(shape.size(), b.getIndexAttr(1));
  return memref::ReinterpretCastOp::create(b, loc, emptyType, memref,
                                           b.getIndexAttr(0), sizes,
                                           unitStrides);
}

Value lowering::collapse(OpBuilder &b, Location loc, Value memref,
                         ArrayRef<ReassociationIndices> groups) {
  if (llvm::all_of(groups,
                   [](const ReassociationIndices &g) { return g.size() == 1; }))
    return memref;
  auto type = cast<MemRefType>(memref.getType());
  SmallVector<int64_t> shape = collapsedShape(type.getShape(), groups);
  if (llvm::is_contained(type.getShape(), 0))
    return emptyView(b, loc, memref, shape);
  auto collapsedType = MemRefType::get(shape, type.getElementType());
  return memref::CollapseShapeOp::create(b, loc, collapsedType, memref,
                                         groups);
}

Value lowering::flatView(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  if (type.getRank() == 0) {
    auto flatType = MemRefType::get({1}, type.getElementType());
    return memref::ExpandShapeOp::create(b, loc, flatType, memref,
                                         ArrayRef<ReassociationIndices>{});
  }
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return collapse(b, loc, memref, {all});
}

Value lowering::allocScratch(OpBuilder &b, Location loc, Type type,
                             Value size) {
  auto memrefType = MemRefType::get({ShapedType::kDynamic}, type);
  return memref::AllocOp::create(b, loc, memrefType, ValueRange{size},
                                 b.getI64IntegerAttr(64));
}

//===----------------------------------------------------------------------===//
// Row moves
//===----------------------------------------------------------------------===//

int64_t lowering::vectorLength(Type elementType) {
  // 64-byte vectors: one AVX-512 register, two AVX2 ones.
  return lanesPerVector(elementType, kVectorBytes);
}

/// The scalar loop `j in [from, len)` of `emitRowUpdate`.
static void emitScalarRow(OpBuilder &b, Location loc, ReductionKind reduction,
                          Value dst, ValueRange dstPos, Value src,
                          Value srcOffset, Value from, Value len) {
  Value one = constIndex(b, loc, 1);
  scf::ForOp::create(
      b, loc, from, len, one, ValueRange{},
      [&](OpBuilder &nb, Location nloc, Value j, ValueRange) {
        Value srcPos = nb.createOrFold<arith::AddIOp>(nloc, srcOffset, j);
        Value value = memref::LoadOp::create(nb, nloc, src, srcPos);
        SmallVector<Value> at(dstPos);
        at.back() = nb.createOrFold<arith::AddIOp>(nloc, at.back(), j);
        if (reduction != ReductionKind::None) {
          Value current = memref::LoadOp::create(nb, nloc, dst, at);
          value = combine(nb, nloc, reduction, current, value);
        }
        memref::StoreOp::create(nb, nloc, value, dst, at);
        scf::YieldOp::create(nb, nloc);
      });
}

void lowering::emitRowUpdate(OpBuilder &b, Location loc,
                             ReductionKind reduction, Value dst,
                             ValueRange dstPos, Value src, Value srcOffset,
                             Value len, bool nontemporal) {
  Type elementType = cast<MemRefType>(dst.getType()).getElementType();
  Value zero = constIndex(b, loc, 0);
  std::optional<int64_t> staticLen = getConstantIntValue(len);
  int64_t vl = isVectorizable(elementType) ? vectorLength(elementType) : 0;
  if (vl == 0 || (staticLen && *staticLen < vl)) {
    emitScalarRow(b, loc, reduction, dst, dstPos, src, srcOffset, zero, len);
    return;
  }

  Value vlValue = constIndex(b, loc, vl);
  Value rem = b.createOrFold<arith::RemUIOp>(loc, len, vlValue);
  Value vectorEnd = b.createOrFold<arith::SubIOp>(loc, len, rem);
  auto vectorType = VectorType::get({vl}, elementType);
  scf::ForOp::create(
      b, loc, zero, vectorEnd, vlValue, ValueRange{},
      [&](OpBuilder &nb, Location nloc, Value j, ValueRange) {
        Value srcPos = nb.createOrFold<arith::AddIOp>(nloc, srcOffset, j);
        Value value = vector::LoadOp::create(nb, nloc, vectorType, src, srcPos);
        SmallVector<Value> at(dstPos);
        at.back() = nb.createOrFold<arith::AddIOp>(nloc, at.back(), j);
        if (reduction != ReductionKind::None) {
          Value current = vector::LoadOp::create(nb, nloc, vectorType, dst, at);
          value = combine(nb, nloc, reduction, current, value);
        }
        // Non-temporal stores need the vector's alignment: x86 streams an
        // unaligned one as scalars.
        llvm::MaybeAlign alignment;
        if (nontemporal)
          alignment = llvm::Align(kVectorBytes);
        vector::StoreOp::create(nb, nloc, value, dst, at, nontemporal,
                                alignment);
        scf::YieldOp::create(nb, nloc);
      });
  if (staticLen && *staticLen % vl == 0)
    return;
  emitScalarRow(b, loc, reduction, dst, dstPos, src, srcOffset, vectorEnd, len);
}

void lowering::emitRowFill(OpBuilder &b, Location loc, Value dst,
                           ValueRange dstPos, Value value, Value len) {
  Type elementType = cast<MemRefType>(dst.getType()).getElementType();
  Value zero = constIndex(b, loc, 0);
  // Stores `stored` at columns [from, to) in steps of `step`.
  auto fill = [&](Value from, Value to, Value step, Value stored) {
    scf::ForOp::create(b, loc, from, to, step, ValueRange{},
                       [&](OpBuilder &nb, Location nloc, Value j, ValueRange) {
                         SmallVector<Value> at(dstPos);
                         at.back() =
                             nb.createOrFold<arith::AddIOp>(nloc, at.back(), j);
                         if (isa<VectorType>(stored.getType()))
                           vector::StoreOp::create(nb, nloc, stored, dst, at);
                         else
                           memref::StoreOp::create(nb, nloc, stored, dst, at);
                         scf::YieldOp::create(nb, nloc);
                       });
  };
  Value one = constIndex(b, loc, 1);
  std::optional<int64_t> staticLen = getConstantIntValue(len);
  int64_t vl = isVectorizable(elementType) ? vectorLength(elementType) : 0;
  if (vl == 0 || (staticLen && *staticLen < vl)) {
    fill(zero, len, one, value);
    return;
  }
  Value vlValue = constIndex(b, loc, vl);
  Value rem = b.createOrFold<arith::RemUIOp>(loc, len, vlValue);
  Value vectorEnd = b.createOrFold<arith::SubIOp>(loc, len, rem);
  auto vectorType = VectorType::get({vl}, elementType);
  Value splat = vector::BroadcastOp::create(b, loc, vectorType, value);
  fill(zero, vectorEnd, vlValue, splat);
  if (staticLen && *staticLen % vl == 0)
    return;
  fill(vectorEnd, len, one, value);
}

void lowering::fillZeros(OpBuilder &b, Location loc, Value flat, Value offset,
                         Value len) {
  Type elementType = cast<MemRefType>(flat.getType()).getElementType();
  Value zero = zeroValue(b, loc, elementType);
  emitRowFill(b, loc, flat, ValueRange{offset}, zero, len);
}

Value lowering::streamsRows(OpBuilder &b, Location loc, Value buffer,
                            Value numElements, Value rowLen) {
  Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
  if (!isVectorizable(elementType))
    return constBool(b, loc, false);
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  Value minElements = constIndex(b, loc, kStreamingBytes / bytes);
  Value large = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                              numElements, minElements);
  Value vl = constIndex(b, loc, vectorLength(elementType));
  Value rem = b.createOrFold<arith::RemUIOp>(loc, rowLen, vl);
  Value zero = constIndex(b, loc, 0);
  Value whole =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, rem, zero);
  // The buffer starts on a 64-byte boundary: bufferization's allocations do,
  // a buffer of the caller's may not.
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, b.getIndexType(), buffer);
  Value misalignment = b.createOrFold<arith::RemUIOp>(
      loc, base, constIndex(b, loc, kVectorBytes));
  Value aligned = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::eq, misalignment, zero);
  Value sized = b.createOrFold<arith::AndIOp>(loc, large, whole);
  return b.createOrFold<arith::AndIOp>(loc, sized, aligned);
}

void lowering::emitRowCopy(OpBuilder &b, Location loc, Value dst,
                           Value dstOffset, Value src, Value srcOffset,
                           Value len, Value streaming) {
  auto copy = [&](OpBuilder &cb, Location cloc, bool nontemporal) {
    emitRowUpdate(cb, cloc, ReductionKind::None, dst, ValueRange{dstOffset},
                  src, srcOffset, len, nontemporal);
  };
  std::optional<int64_t> known = getConstantIntValue(streaming);
  if (known) {
    copy(b, loc, *known != 0);
    return;
  }
  scf::IfOp::create(
      b, loc, streaming,
      [&](OpBuilder &nb, Location nloc) {
        copy(nb, nloc, true);
        scf::YieldOp::create(nb, nloc);
      },
      [&](OpBuilder &nb, Location nloc) {
        copy(nb, nloc, false);
        scf::YieldOp::create(nb, nloc);
      });
}

void lowering::prefetchRow(OpBuilder &b, Location loc, Value buffer,
                           Value offset, Value len) {
  Type elementType = cast<MemRefType>(buffer.getType()).getElementType();
  int64_t bytes = isVectorizable(elementType)
                      ? elementType.getIntOrFloatBitWidth() / 8
                      : int64_t(1);
  // One prefetch per 64-byte line (per element for wider element types).
  Value step = constIndex(b, loc, std::max<int64_t>(kVectorBytes / bytes, 1));
  Value cap = constIndex(b, loc, kPrefetchLines * kVectorBytes / bytes);
  Value end = minIndex(b, loc, len, cap);
  Value zero = constIndex(b, loc, 0);
  scf::ForOp::create(
      b, loc, zero, end, step, ValueRange{},
      [&](OpBuilder &nb, Location nloc, Value j, ValueRange) {
        Value at = nb.createOrFold<arith::AddIOp>(nloc, offset, j);
        memref::PrefetchOp::create(nb, nloc, buffer, ValueRange{at},
                                   /*isWrite=*/false, /*localityHint=*/3,
                                   /*isDataCache=*/true);
        scf::YieldOp::create(nb, nloc);
      });
}
