//===- LoweringSupport.cpp - building blocks of the nd lowering -*- C++ -*-===//
//
// See LoweringSupport.h.
//
//===----------------------------------------------------------------------===//

#include "LoweringSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

//===----------------------------------------------------------------------===//
// Scalars and index values
//===----------------------------------------------------------------------===//

/// The entry block of the function `LoweringState::outline` is building,
/// where constants go (null outside of it).
static thread_local Block *constantBlock = nullptr;

/// A constant of `attr`, shared within the function being built: reused
/// from the constants at the start of its entry block, or created there. The
/// lowering asks for the same few constants many times; sharing them keeps
/// its output, and the time later passes spend on it, small. (The insertion
/// block cannot tell: inside a region builder it is not attached yet.)
static Value sharedConstant(OpBuilder &b, Location loc, TypedAttr attr) {
  if (!constantBlock)
    return arith::ConstantOp::create(b, loc, attr);
  for (Operation &op : *constantBlock) {
    auto constant = dyn_cast<arith::ConstantOp>(op);
    if (!constant)
      break;
    if (constant.getValue() == attr)
      return constant;
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(constantBlock);
  return arith::ConstantOp::create(b, loc, attr);
}

Value lowering::constIndex(OpBuilder &b, Location loc, int64_t value) {
  return sharedConstant(b, loc, b.getIndexAttr(value));
}

Value lowering::constBool(OpBuilder &b, Location loc, bool value) {
  return sharedConstant(b, loc, b.getBoolAttr(value));
}

Value lowering::dimValue(OpBuilder &b, Location loc, Value shaped, int64_t d) {
  auto type = cast<ShapedType>(shaped.getType());
  if (!type.isDynamicDim(d))
    return constIndex(b, loc, type.getDimSize(d));
  if (isa<MemRefType>(type))
    return memref::DimOp::create(b, loc, shaped, d);
  return tensor::DimOp::create(b, loc, shaped, d);
}

Value lowering::product(OpBuilder &b, Location loc, ArrayRef<Value> values) {
  // Folded as built, so that static shapes give constants.
  Value result = constIndex(b, loc, 1);
  for (Value value : values)
    result = b.createOrFold<arith::MulIOp>(loc, result, value);
  return result;
}

Value lowering::ceilDiv(OpBuilder &b, Location loc, Value a, Value d) {
  return b.createOrFold<arith::CeilDivUIOp>(loc, a, d);
}

Value lowering::minIndex(OpBuilder &b, Location loc, Value a, Value c) {
  return b.createOrFold<arith::MinUIOp>(loc, a, c);
}

Value lowering::maxIndex(OpBuilder &b, Location loc, Value a, Value c) {
  return b.createOrFold<arith::MaxUIOp>(loc, a, c);
}

Value lowering::loadIndex(OpBuilder &b, Location loc, Value flat,
                          Value position) {
  Value raw = memref::LoadOp::create(b, loc, flat, ValueRange{position});
  if (raw.getType().isIndex())
    return raw;
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), raw);
}

Value lowering::normalizeIndex(OpBuilder &b, Location loc, Value index,
                               Value size) {
  Value zero = constIndex(b, loc, 0);
  Value isNegative = b.createOrFold<arith::CmpIOp>(
      loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = b.createOrFold<arith::AddIOp>(loc, index, size);
  return b.createOrFold<arith::SelectOp>(loc, isNegative, wrapped, index);
}

Value lowering::isOutOfRange(OpBuilder &b, Location loc, Value normalized,
                             Value size) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                       normalized, size);
}

Value lowering::clampIfBad(OpBuilder &b, Location loc, Value bad,
                           Value normalized) {
  Value zero = constIndex(b, loc, 0);
  return b.createOrFold<arith::SelectOp>(loc, bad, zero, normalized);
}

ResolvedIndex lowering::resolveIndex(OpBuilder &b, Location loc, OobMode oob,
                                     Value raw, Value size) {
  Value normalized = normalizeIndex(b, loc, raw, size);
  if (oob != OobMode::Clamp)
    return {normalized, isOutOfRange(b, loc, normalized, size)};
  // Below -size, the normalized value is still negative: 0.
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value last = b.createOrFold<arith::SubIOp>(loc, size, one);
  Value below = b.createOrFold<arith::MinSIOp>(loc, normalized, last);
  Value clamped = b.createOrFold<arith::MaxSIOp>(loc, below, zero);
  // A test loops can hoist.
  Value empty =
      b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, size, zero);
  return {clamped, empty};
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

bool lowering::isSupportedReduction(ReductionKind reduction, Type elementType) {
  if (reduction == ReductionKind::None)
    return true;
  // `mean` divides: integers (not i1) and floats; the scatter keeps a count
  // per element, `combine` never sees it.
  if (reduction == ReductionKind::Mean)
    return isa<FloatType>(elementType) ||
           (isa<IntegerType>(elementType) &&
            elementType.getIntOrFloatBitWidth() > 1);
  if (isa<FloatType, IntegerType>(elementType))
    return true;
  if (isa<ComplexType>(elementType))
    return reduction == ReductionKind::Add || reduction == ReductionKind::Mul ||
           reduction == ReductionKind::Sub;
  return false;
}

Value lowering::combine(OpBuilder &b, Location loc, ReductionKind reduction,
                        Value current, Value update) {
  if (reduction == ReductionKind::None)
    return update;
  Type type = current.getType();
  Type elementType = getElementTypeOrSelf(type);

  if (isa<FloatType>(elementType)) {
    switch (reduction) {
    case ReductionKind::Add:
      return arith::AddFOp::create(b, loc, current, update);
    case ReductionKind::Mul:
      return arith::MulFOp::create(b, loc, current, update);
    case ReductionKind::Max:
      return arith::MaximumFOp::create(b, loc, current, update);
    case ReductionKind::Min:
      return arith::MinimumFOp::create(b, loc, current, update);
    case ReductionKind::Sub:
      return arith::SubFOp::create(b, loc, current, update);
    case ReductionKind::None:
    case ReductionKind::Mean:
      break;
    }
    llvm_unreachable("reduction handled above or rejected");
  }

  if (isa<ComplexType>(elementType)) {
    if (reduction == ReductionKind::Add)
      return complex::AddOp::create(b, loc, current, update);
    if (reduction == ReductionKind::Sub)
      return complex::SubOp::create(b, loc, current, update);
    return complex::MulOp::create(b, loc, current, update);
  }

  // arith only takes signless integers: reinterpret unsigned ones around
  // the combining op (both are the same iN in LLVM).
  auto intType = cast<IntegerType>(elementType);
  bool isUnsigned = intType.isUnsigned();
  Type signlessElement = b.getIntegerType(intType.getWidth());
  Type signless = signlessElement;
  if (auto vectorType = dyn_cast<VectorType>(type))
    signless = vectorType.clone(signlessElement);
  auto toSignless = [&](Value v) -> Value {
    if (v.getType() == signless)
      return v;
    return UnrealizedConversionCastOp::create(b, loc, signless, v).getResult(0);
  };
  Value lhs = toSignless(current);
  Value rhs = toSignless(update);
  Value result;
  if (intType.getWidth() == 1) {
    bool isOr =
        reduction == ReductionKind::Add || reduction == ReductionKind::Max;
    if (reduction == ReductionKind::Sub)
      result = b.createOrFold<arith::XOrIOp>(loc, lhs, rhs);
    else if (isOr)
      result = b.createOrFold<arith::OrIOp>(loc, lhs, rhs);
    else
      result = b.createOrFold<arith::AndIOp>(loc, lhs, rhs);
  } else {
    switch (reduction) {
    case ReductionKind::Add:
      result = b.createOrFold<arith::AddIOp>(loc, lhs, rhs);
      break;
    case ReductionKind::Mul:
      result = b.createOrFold<arith::MulIOp>(loc, lhs, rhs);
      break;
    case ReductionKind::Max:
      result = isUnsigned ? Value(b.createOrFold<arith::MaxUIOp>(loc, lhs, rhs))
                          : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::Min:
      result = isUnsigned ? Value(b.createOrFold<arith::MinUIOp>(loc, lhs, rhs))
                          : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::Sub:
      result = b.createOrFold<arith::SubIOp>(loc, lhs, rhs);
      break;
    case ReductionKind::None:
    case ReductionKind::Mean:
      llvm_unreachable("reduction handled above or rejected");
    }
  }
  if (result.getType() == type)
    return result;
  return UnrealizedConversionCastOp::create(b, loc, type, result).getResult(0);
}

//===----------------------------------------------------------------------===//
// Buffers
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

/// `memref` (identity layout) as one row-major dimension.
static Value flatten(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  // Nothing is read or written through a buffer with a static 0 dim; a
  // collapse_shape of one does not survive canonicalization in MLIR 22 (it
  // infers a static 0 where the verifier requires a dynamic dim).
  if (llvm::is_contained(type.getShape(), 0)) {
    auto layout = StridedLayoutAttr::get(b.getContext(), 0, {1});
    auto emptyType = MemRefType::get({0}, type.getElementType(), layout);
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(0)};
    SmallVector<OpFoldResult> strides = {b.getIndexAttr(1)};
    return memref::ReinterpretCastOp::create(b, loc, emptyType, memref,
                                             b.getIndexAttr(0), sizes, strides);
  }
  if (type.getRank() == 0) {
    auto flatType = MemRefType::get({1}, type.getElementType());
    return memref::ExpandShapeOp::create(b, loc, flatType, memref,
                                         ArrayRef<ReassociationIndices>{});
  }
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  SmallVector<ReassociationIndices> groups = {all};
  auto flatType = MemRefType::get(collapsedShape(type.getShape(), groups),
                                  type.getElementType());
  return memref::CollapseShapeOp::create(b, loc, flatType, memref, groups);
}

Value lowering::flatReadBuffer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = bufferization::ToBufferOp::create(b, loc, memrefType, tensor,
                                                   /*read_only=*/true);
  return flatten(b, loc, buffer);
}

Allocation lowering::allocateResult(OpBuilder &b, Location loc,
                                    RankedTensorType type,
                                    ValueRange dynamicSizes) {
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Value buffer = memref::AllocOp::create(b, loc, memrefType, dynamicSizes,
                                         b.getI64IntegerAttr(64));
  Value tensor = bufferization::ToTensorOp::create(
      b, loc, type, buffer, /*restrict=*/true, /*writable=*/true);
  return {flatten(b, loc, buffer), tensor};
}

bool lowering::isVectorizable(Type elementType) {
  if (!isa<IntegerType, FloatType>(elementType))
    return false;
  unsigned width = elementType.getIntOrFloatBitWidth();
  return width == 8 || width == 16 || width == 32 || width == 64;
}

int64_t lowering::vectorLength(Type elementType) {
  // 64-byte vectors: one AVX-512 register, two AVX2 ones.
  return kVectorBytes * 8 / elementType.getIntOrFloatBitWidth();
}

Value lowering::streamsRows(OpBuilder &b, Location loc, Type elementType,
                            Value numElements, Value rowLen) {
  if (!isVectorizable(elementType))
    return constBool(b, loc, false);
  int64_t bytes = elementType.getIntOrFloatBitWidth() / 8;
  Value minElements = constIndex(b, loc, kStreamingBytes / bytes);
  Value large = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                              numElements, minElements);
  Value vl = constIndex(b, loc, vectorLength(elementType));
  Value rem = b.createOrFold<arith::RemUIOp>(loc, rowLen, vl);
  Value zero = constIndex(b, loc, 0);
  Value whole = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::eq,
                                              rem, zero);
  return b.createOrFold<arith::AndIOp>(loc, large, whole);
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

//===----------------------------------------------------------------------===//
// Pieces shared by the patterns
//===----------------------------------------------------------------------===//

/// The dims `[from, to)` of `shaped` as index values.
SmallVector<Value> lowering::dimValues(OpBuilder &b, Location loc, Value shaped,
                                       int64_t from, int64_t to) {
  SmallVector<Value> dims;
  for (int64_t d = from; d < to; ++d)
    dims.push_back(dimValue(b, loc, shaped, d));
  return dims;
}

/// Row-major strides of `dims`: `strides[j] = prod(dims[j+1:])`.
SmallVector<Value> lowering::rowMajorStrides(OpBuilder &b, Location loc,
                                             ArrayRef<Value> dims) {
  SmallVector<Value> strides(dims.size());
  Value stride = constIndex(b, loc, 1);
  for (int64_t j = static_cast<int64_t>(dims.size()) - 1; j >= 0; --j) {
    strides[j] = stride;
    stride = b.createOrFold<arith::MulIOp>(loc, stride, dims[j]);
  }
  return strides;
}

/// `a | b` on i1.
Value lowering::orBool(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::OrIOp>(loc, x, y);
}

Value lowering::notBool(OpBuilder &b, Location loc, Value x) {
  Value yes = constBool(b, loc, true);
  return b.createOrFold<arith::XOrIOp>(loc, x, yes);
}

/// A scratch buffer of `size` elements of `type`.
Value lowering::allocScratch(OpBuilder &b, Location loc, Type type,
                             Value size) {
  auto memrefType = MemRefType::get({ShapedType::kDynamic}, type);
  return memref::AllocOp::create(b, loc, memrefType, ValueRange{size},
                                 b.getI64IntegerAttr(64));
}

/// The serial OR of `flags[0..count)`.
Value lowering::anyFlag(OpBuilder &b, Location loc, Value flags, Value count) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{no},
      [&](OpBuilder &nb, Location nloc, Value i, ValueRange acc) {
        Value flag = memref::LoadOp::create(nb, nloc, flags, ValueRange{i});
        Value any = orBool(nb, nloc, acc[0], flag);
        scf::YieldOp::create(nb, nloc, any);
      });
  return loop.getResult(0);
}

/// `scf.if cond -> type { then() } else { otherwise() }`, or just `then()`
/// when `cond` is the constant true.
Value lowering::buildIf(OpBuilder &b, Location loc, Value cond, Type type,
                        function_ref<Value(OpBuilder &, Location)> then,
                        function_ref<Value(OpBuilder &, Location)> otherwise) {
  if (std::optional<int64_t> known = getConstantIntValue(cond);
      known && *known != 0)
    return then(b, loc);
  // The result type is that of the yielded values.
  auto ifOp = scf::IfOp::create(
      b, loc, cond,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, then(nb, nloc));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, otherwise(nb, nloc));
      });
  assert(ifOp.getResult(0).getType() == type && "branches yield other types");
  return ifOp.getResult(0);
}

/// Emits `if (!ok) report()`.
void lowering::reportUnless(OpBuilder &b, Location loc, Value ok,
                            function_ref<void(OpBuilder &, Location)> report) {
  Value failed = notBool(b, loc, ok);
  auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  report(b, loc);
}

/// `tensor.collapse_shape` by `groups`, or `tensor` itself when every group
/// is one dim.
Value lowering::collapse(OpBuilder &b, Location loc, Value tensor,
                         ArrayRef<ReassociationIndices> groups) {
  if (llvm::all_of(groups,
                   [](const ReassociationIndices &g) { return g.size() == 1; }))
    return tensor;
  auto type = cast<RankedTensorType>(tensor.getType());
  auto collapsedType = RankedTensorType::get(
      collapsedShape(type.getShape(), groups), type.getElementType());
  return tensor::CollapseShapeOp::create(b, loc, collapsedType, tensor, groups);
}

/// The inverse of `collapse`, back to the type and dims of `like`: a
/// `tensor.expand_shape`, which bufferization sees as the same buffer as its
/// source (a `tensor.reshape` would not, and a donated or in-function
/// destination would be copied on return). Once bufferized, the expansion of
/// the collapse of a buffer folds back to the buffer.
Value lowering::expandLike(OpBuilder &b, Location loc, Value tensor, Value like,
                           ArrayRef<ReassociationIndices> groups) {
  if (tensor.getType() == like.getType())
    return tensor;
  auto likeType = cast<RankedTensorType>(like.getType());
  SmallVector<OpFoldResult> shape = tensor::getMixedSizes(b, loc, like);
  return tensor::ExpandShapeOp::create(b, loc, likeType, tensor, groups, shape);
}

/// `2 * size`: a raw index `i` is in `[-size, size)` iff `i + size` is
/// below it as an unsigned number, so that checking many indices is one
/// unsigned max reduction (which vectorises) and one compare.
Value lowering::rangeBound(OpBuilder &b, Location loc, Value size) {
  Value two = constIndex(b, loc, 2);
  return b.createOrFold<arith::MulIOp>(loc, size, two);
}

/// Whether the unsigned maximum `shiftedMax` of `index + size` over some
/// indices shows one out of range.
Value lowering::anyOutOfRange(OpBuilder &b, Location loc, Value shiftedMax,
                              Value bound) {
  return b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::uge,
                                       shiftedMax, bound);
}

/// After a failed parallel check: finds the first tuple in row-major order
/// with a component out of range and reports it.
/// After a failed parallel check: finds the first position of `indices` in
/// row-major order whose value is out of range for dim `axis` and reports
/// it.
void lowering::reportFirstBadElement(LoweringState &state, OpBuilder &b,
                                     Location loc, Operation *op, Value indices,
                                     Value count, Value size, int64_t axis) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{no},
      [&](OpBuilder &nb, Location nloc, Value q, ValueRange found) {
        Value raw = loadIndex(nb, nloc, indices, q);
        Value normalized = normalizeIndex(nb, nloc, raw, size);
        Value bad = isOutOfRange(nb, nloc, normalized, size);
        Value fire = nb.createOrFold<arith::AndIOp>(
            nloc, notBool(nb, nloc, found[0]), bad);
        auto ifOp = scf::IfOp::create(nb, nloc, fire, false);
        {
          OpBuilder::InsertionGuard guard(nb);
          nb.setInsertionPointToStart(ifOp.thenBlock());
          state.report(nb, nloc, op, LoweringState::indexMessage(axis), raw,
                       size);
        }
        Value done = orBool(nb, nloc, found[0], bad);
        scf::YieldOp::create(nb, nloc, done);
      });
}

/// Whether a value of `indices[lo, hi)` is out of range for a dim of
/// `size`: one unsigned max of `index + size` (see rangeBound).
Value lowering::maxShifted(OpBuilder &b, Location loc, Value indices, Value lo,
                           Value hi, Value size, Value bound) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{zero},
      [&](OpBuilder &lb, Location lloc, Value q, ValueRange acc) {
        Value raw = loadIndex(lb, lloc, indices, q);
        Value shifted = lb.createOrFold<arith::AddIOp>(lloc, raw, size);
        scf::YieldOp::create(lb, lloc, maxIndex(lb, lloc, acc[0], shifted));
      });
  return anyOutOfRange(b, loc, loop.getResult(0), bound);
}

Value lowering::zeroValue(OpBuilder &b, Location loc, Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType)) {
    auto part = cast<FloatType>(complex.getElementType());
    Attribute zero = b.getFloatAttr(part, 0.0);
    auto parts = b.getArrayAttr({zero, zero});
    return complex::ConstantOp::create(b, loc, complex, parts);
  }
  // Unsigned integers are stored as signless ones of the same width.
  Type storage = elementType;
  if (auto integer = dyn_cast<IntegerType>(elementType);
      integer && !integer.isSignless())
    storage = b.getIntegerType(integer.getWidth());
  Value zero = sharedConstant(b, loc, cast<TypedAttr>(b.getZeroAttr(storage)));
  if (storage == elementType)
    return zero;
  return UnrealizedConversionCastOp::create(b, loc, elementType, zero)
      .getResult(0);
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

//===----------------------------------------------------------------------===//
// Parallel structure
//===----------------------------------------------------------------------===//

std::pair<Value, Value> lowering::partRange(OpBuilder &b, Location loc, Value n,
                                            Value parts, Value p) {
  // lo(p) = p * (n / parts) + min(p, n % parts): no overflow for any n.
  Value base = b.createOrFold<arith::DivUIOp>(loc, n, parts);
  Value extra = b.createOrFold<arith::RemUIOp>(loc, n, parts);
  auto start = [&](Value part) -> Value {
    Value full = b.createOrFold<arith::MulIOp>(loc, part, base);
    Value bonus = minIndex(b, loc, part, extra);
    return b.createOrFold<arith::AddIOp>(loc, full, bonus);
  };
  Value one = constIndex(b, loc, 1);
  Value next = b.createOrFold<arith::AddIOp>(loc, p, one);
  Value lo = start(p);
  Value hi = start(next);
  return {lo, hi};
}

void lowering::buildParallel(
    OpBuilder &b, Location loc, Value parts,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{parts},
                          ValueRange{one},
                          [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                            body(nb, nloc, ivs[0]);
                          });
}

MemRefType lowering::sliceMemRefType(Type elementType, ArrayRef<int64_t> shape,
                                     bool contiguousRows) {
  SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
  if (contiguousRows && !strides.empty())
    strides.back() = 1;
  auto layout = StridedLayoutAttr::get(elementType.getContext(),
                                       ShapedType::kDynamic, strides);
  return MemRefType::get(shape, elementType, layout);
}

/// The natural alignment of `elementType` in bytes (that of its parts for a
/// complex type).
static int64_t naturalAlignment(Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType))
    elementType = complex.getElementType();
  if (!elementType.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
}

Value lowering::basePointer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  MemRefType probeType = sliceMemRefType(type.getElementType(), type.getShape(),
                                         /*contiguousRows=*/false);
  Value buffer = bufferization::ToBufferOp::create(b, loc, probeType, tensor,
                                                   /*read_only=*/true);
  return memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, b.getIndexType(), buffer);
}

Value lowering::buildPartitionedUpdate(
    OpBuilder &b, Location loc, Value dest, Value dataPointer, Value parts,
    MemRefType sliceType,
    function_ref<SliceRegion(OpBuilder &, Location, Value)> region,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  auto destType = cast<RankedTensorType>(dest.getType());
  // A destination without elements is not partitioned: canonicalization
  // of scf.forall slices of a tensor with a static zero dim (known only
  // once a tensor.cast folds, say) builds invalid IR, and the guard folds
  // away first.
  SmallVector<Value> dims;
  for (int64_t d = 0; d < destType.getRank(); ++d)
    dims.push_back(dimValue(b, loc, dest, d));
  Value numElements = product(b, loc, dims);
  Value zero = constIndex(b, loc, 0);
  Value nonEmpty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                                 numElements, zero);
  auto guard = scf::IfOp::create(b, loc, TypeRange{destType}, nonEmpty,
                                 /*withElseRegion=*/true);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(guard.elseBlock());
  scf::YieldOp::create(b, loc, dest);
  b.setInsertionPointToStart(guard.thenBlock());
  SmallVector<OpFoldResult> ubs = {parts};
  auto forall = scf::ForallOp::create(
      b, loc, ubs, ValueRange{dest}, /*mapping=*/std::nullopt,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value p = args[0];
        Value shared = args[1];
        SliceRegion slice = region(nb, nloc, p);
        SmallVector<OpFoldResult> strides(destType.getRank(),
                                          nb.getIndexAttr(1));
        auto part = tensor::ExtractSliceOp::create(
            nb, nloc, shared, slice.offsets, slice.sizes, strides);
        auto partType = cast<RankedTensorType>(part.getType());
        auto bufferType =
            MemRefType::get(partType.getShape(), partType.getElementType(),
                            sliceType.getLayout());
        Value buffer =
            bufferization::ToBufferOp::create(nb, nloc, bufferType, part);
        // Canonicalization rewrites a memref.load of a to_buffer into a
        // tensor.extract of its tensor, which reads the slice as it was
        // before this partition's writes; the body reads and writes through
        // this alias instead (an alignment every element has anyway).
        Value access = memref::AssumeAlignmentOp::create(
            nb, nloc, buffer,
            nb.getI32IntegerAttr(naturalAlignment(partType.getElementType())));
        Value slicePointer = memref::ExtractAlignedPointerAsIndexOp::create(
            nb, nloc, nb.getIndexType(), buffer);
        Value inPlace = nb.createOrFold<arith::CmpIOp>(
            nloc, arith::CmpIPredicate::eq, slicePointer, dataPointer);
        body(nb, nloc, p, access, inPlace);
        Value updated = bufferization::ToTensorOp::create(
            nb, nloc, partType, buffer, /*restrict=*/true, /*writable=*/true);
        auto inParallel = scf::InParallelOp::create(nb, nloc);
        OpBuilder::InsertionGuard guard(nb);
        nb.setInsertionPointToStart(inParallel.getBody());
        tensor::ParallelInsertSliceOp::create(
            nb, nloc, updated, shared, slice.offsets, slice.sizes, strides);
      });
  scf::YieldOp::create(b, loc, forall.getResult(0));
  return guard.getResult(0);
}

Value lowering::checkedApply(
    OpBuilder &b, Location loc, Value inPlace,
    function_ref<Value(OpBuilder &, Location)> checkAll,
    function_ref<Value(OpBuilder &, Location)> applyFused) {
  auto pre = scf::IfOp::create(
      b, loc, inPlace,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, checkAll(nb, nloc));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, false));
      });
  Value preBad = pre.getResult(0);
  auto work = scf::IfOp::create(
      b, loc, preBad,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, applyFused(nb, nloc));
      });
  return work.getResult(0);
}

//===----------------------------------------------------------------------===//
// Run-time support
//===----------------------------------------------------------------------===//

std::string lowering::describeLocation(Operation *op) {
  FileLineColLoc fileLoc;
  NameLoc nameLoc;
  op->getLoc()->walk([&](Location nested) {
    if (!fileLoc)
      fileLoc = dyn_cast<FileLineColLoc>(nested);
    if (!nameLoc)
      nameLoc = dyn_cast<NameLoc>(nested);
    return WalkResult::advance();
  });
  std::string text;
  llvm::raw_string_ostream os(text);
  if (fileLoc) {
    os << fileLoc.getFilename().getValue();
    // Line 0 means "somewhere in the file", as for imported models.
    if (fileLoc.getLine() != 0)
      os << ":" << fileLoc.getLine() << ":" << fileLoc.getColumn();
  } else {
    os << "<unknown location>";
  }
  if (nameLoc)
    os << " (" << nameLoc.getName().getValue() << ")";
  std::string escaped;
  for (char c : text) {
    escaped += c;
    if (c == '%')
      escaped += '%';
  }
  return escaped;
}

SymbolTable &LoweringState::symbols(ModuleOp module) {
  std::unique_ptr<SymbolTable> &table = tables[module.getOperation()];
  if (!table)
    table = std::make_unique<SymbolTable>(module);
  return *table;
}

void LoweringState::declare(OpBuilder &b, Operation *op, StringRef name,
                            FunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module || !declared.insert({module.getOperation(), name}).second)
    return;
  if (symbols(module).lookup(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  symbols(module).insert(fn);
}

void LoweringState::callShared(
    OpBuilder &b, Location loc, Operation *op, StringRef name,
    FunctionType type, ValueRange operands,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto module = op->getParentOfType<ModuleOp>();
  if (declared.insert({module.getOperation(), name}).second &&
      !symbols(module).lookup(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
    fn.setPrivate();
    symbols(module).insert(fn);
    SmallVector<Location> locs(type.getNumInputs(), module.getLoc());
    Block *entry = b.createBlock(&fn.getBody(), {}, type.getInputs(), locs);
    b.setInsertionPointToStart(entry);
    Block *outer = constantBlock;
    Value outerSite = site;
    constantBlock = entry;
    site = Value();
    body(b, module.getLoc(), entry->getArguments());
    constantBlock = outer;
    site = outerSite;
  }
  func::CallOp::create(b, loc, name, type.getResults(), operands);
}

/// The operand an op updates, which its result is an updated copy of: the
/// data of the scatters.
static std::optional<unsigned> updatedOperand(Operation *op) {
  if (isa<ScatterNDOp, ScatterElementsOp, TensorScatterOp>(op))
    return 0;
  return std::nullopt;
}

/// Whether nothing ever writes the buffer of `value`: a constant, or an
/// argument of a function that one-shot bufferization may not write
/// (`bufferization.writable = false`, as nd-donation marks every argument
/// not donated). Such a buffer can be read through one `to_buffer` for all
/// the ops that read it.
static bool isNeverWritten(Value value) {
  if (value.getDefiningOp<arith::ConstantOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!function)
    return false;
  auto writable = function.getArgAttrOfType<BoolAttr>(
      arg.getArgNumber(),
      bufferization::BufferizationDialect::kWritableAttrName);
  return writable && !writable.getValue();
}

Value LoweringState::sharedReadBuffer(OpBuilder &b, Value tensor) {
  Value &buffer = readBuffers[tensor];
  if (buffer)
    return buffer;
  OpBuilder::InsertionGuard guard(b);
  if (auto arg = dyn_cast<BlockArgument>(tensor))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfter(tensor.getDefiningOp());
  auto type = cast<RankedTensorType>(tensor.getType());
  auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
  buffer = bufferization::ToBufferOp::create(b, tensor.getLoc(), bufferType,
                                             tensor, /*read_only=*/true);
  return buffer;
}

void LoweringState::outline(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange operands,
    function_ref<Value(OpBuilder &, Location, ValueRange)> lower) {
  Location loc = op->getLoc();
  std::optional<unsigned> destination = updatedOperand(op);
  auto module = op->getParentOfType<ModuleOp>();
  Type resultType = op->getResult(0).getType();
  // The operands as the function takes them: read-only tensors that nothing
  // writes as one shared buffer each (so that one-shot bufferization does
  // not compare every op that reads them with every other), the rest as
  // they are.
  SmallVector<Value> callOperands(operands);
  for (auto [i, operand] : llvm::enumerate(callOperands)) {
    if (destination && i == *destination)
      continue;
    if (isa<RankedTensorType>(operand.getType()) && isNeverWritten(operand))
      operand = sharedReadBuffer(rewriter, operand);
  }
  auto type =
      rewriter.getFunctionType(ValueRange(callOperands).getTypes(), resultType);
  // Everything the body may depend on (see the declaration).
  Attribute key = rewriter.getArrayAttr(
      {op->getName().getIdentifier(), op->getAttrDictionary(),
       TypeAttr::get(type),
       rewriter.getI64IntegerAttr(destination ? *destination : -1)});
  // The destination's buffer: identity layout, as function boundaries have.
  MemRefType bufferType;
  if (destination) {
    auto tensorType = cast<RankedTensorType>(resultType);
    bufferType =
        MemRefType::get(tensorType.getShape(), tensorType.getElementType());
  }
  func::FuncOp &fn = outlined[{module.getOperation(), key}];
  if (!fn) {
    std::string name = "__" + op->getName().getStringRef().str();
    std::replace(name.begin(), name.end(), '.', '_');
    SmallVector<Type> inputs(type.getInputs());
    if (destination)
      inputs[*destination] = bufferType;
    if (checkBounds)
      inputs.push_back(rewriter.getI64Type());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToEnd(module.getBody());
    fn = func::FuncOp::create(rewriter, loc, name,
                              rewriter.getFunctionType(inputs, resultType));
    fn.setPrivate();
    // Renamed on a clash (one symbol table per module and pass run).
    symbols(module).insert(fn);
    SmallVector<Location> locs(inputs.size(), loc);
    Block *entry = rewriter.createBlock(&fn.getBody(), {}, inputs, locs);
    rewriter.setInsertionPointToStart(entry);
    Block *outer = constantBlock;
    constantBlock = entry;
    site = checkBounds ? entry->getArguments().back() : Value();
    SmallVector<Value> args(entry->getArguments().take_front(operands.size()));
    // The body sees tensors: the destination writable, the others read-only.
    for (auto [i, arg] : llvm::enumerate(args)) {
      if (!isa<MemRefType>(arg.getType()) ||
          isa<MemRefType>(operands[i].getType()))
        continue;
      bool updated = destination && i == *destination;
      arg = bufferization::ToTensorOp::create(
          rewriter, loc, operands[i].getType(), arg, /*restrict=*/true,
          /*writable=*/updated);
    }
    Value result = lower(rewriter, loc, args);
    constantBlock = outer;
    site = Value();
    func::ReturnOp::create(rewriter, loc, result);
    // A lowering that checks nothing at run time needs no site.
    if (checkBounds && entry->getArguments().back().use_empty())
      (void)fn.eraseArgument(operands.size());
  }
  // A scatter's data goes in as a buffer: to one-shot bufferization the
  // caller writes that buffer (in place, or into a copy where the tensor is
  // read later or is not writable), and the function returns a new tensor
  // (which is the buffer it was given: drop-equivalent-buffer-results drops
  // it after bufferization). The alias sets the analysis compares stay one op
  // long, where a call that updated its tensor operand in place would join
  // the whole chain of updates into one set (time cubic in its length).
  // Each such buffer carries an id of its own (`nd.update`): the op is pure,
  // and CSE would otherwise make the buffers of two updates of one tensor
  // one.
  // Canonicalization rewrites the `to_buffer` of a `tensor.cast` into a
  // new `to_buffer` (without the id) of the cast's source: the buffer is
  // taken of that source here, and cast.
  if (destination) {
    Value source = callOperands[*destination];
    while (auto castOp = source.getDefiningOp<tensor::CastOp>()) {
      if (!isa<RankedTensorType>(castOp.getSource().getType()))
        break;
      source = castOp.getSource();
    }
    auto sourceType = cast<RankedTensorType>(source.getType());
    auto sourceBufferType =
        MemRefType::get(sourceType.getShape(), sourceType.getElementType());
    Value operand;
    if (isNeverWritten(source)) {
      // Data that nothing may write (a constant, an argument not donated) is
      // copied here, from the buffer all its readers share: the analysis
      // would copy it too, after comparing each use of that data with every
      // other (time quadratic in the number of ops that update one
      // argument).
      Value shared = sharedReadBuffer(rewriter, source);
      SmallVector<Value> sizes;
      for (auto [d, size] : llvm::enumerate(sourceType.getShape()))
        if (ShapedType::isDynamic(size))
          sizes.push_back(memref::DimOp::create(rewriter, loc, shared, d));
      operand = memref::AllocOp::create(rewriter, loc, sourceBufferType, sizes,
                                        rewriter.getI64IntegerAttr(64));
      memref::CopyOp::create(rewriter, loc, shared, operand);
    } else {
      // It also folds the `to_buffer` of a `to_tensor` into the memref,
      // which the update would then write unseen by the analysis: such data
      // is copied first.
      if (source.getDefiningOp<bufferization::ToTensorOp>())
        source = bufferization::AllocTensorOp::create(
            rewriter, loc, sourceType, ValueRange{}, source);
      auto buffer = bufferization::ToBufferOp::create(rewriter, loc,
                                                      sourceBufferType, source);
      buffer->setAttr(kUpdateAttr, rewriter.getI64IntegerAttr(updates++));
      operand = buffer;
    }
    if (sourceBufferType != bufferType)
      operand = memref::CastOp::create(rewriter, loc, bufferType, operand);
    callOperands[*destination] = operand;
  }
  if (fn.getNumArguments() > operands.size()) {
    declare(rewriter, op, kSiteFn,
            rewriter.getFunctionType({}, {rewriter.getI64Type()}));
    auto where = func::CallOp::create(
        rewriter, loc, kSiteFn, TypeRange{rewriter.getI64Type()}, ValueRange{});
    where->setAttr(kSiteAttr, rewriter.getStringAttr(describeLocation(op)));
    callOperands.push_back(where.getResult(0));
  }
  auto call = func::CallOp::create(rewriter, loc, fn, callOperands);
  rewriter.replaceOp(op, call.getResults());
}

Value LoweringState::numPartitions(OpBuilder &b, Location loc, Operation *op,
                                   Value work, Value limit) {
  declare(b, op, kMaxThreadsFn, b.getFunctionType({}, {b.getIndexType()}));
  auto threads = func::CallOp::create(
      b, loc, kMaxThreadsFn, TypeRange{b.getIndexType()}, ValueRange{});
  Value grainValue = constIndex(b, loc, grain);
  Value one = constIndex(b, loc, 1);
  // min(max(work / grain, 1), threads[, max(limit, 1)]): at least 1, and
  // never a constant, so that canonicalization keeps the loops (and the
  // scatters' scf.forall) whatever the static sizes.
  Value byWork = b.createOrFold<arith::DivUIOp>(loc, work, grainValue);
  byWork = maxIndex(b, loc, byWork, one);
  Value parts = minIndex(b, loc, byWork, threads.getResult(0));
  if (limit)
    parts = minIndex(b, loc, parts, maxIndex(b, loc, limit, one));
  return parts;
}

void LoweringState::fenceStreamedStores(OpBuilder &b, Location loc,
                                        Operation *op, Value streamed) {
  std::optional<int64_t> known = getConstantIntValue(streamed);
  if (known && *known == 0)
    return;
  declare(b, op, kStoreFenceFn, b.getFunctionType({}, {}));
  auto ifOp = scf::IfOp::create(b, loc, streamed, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  func::CallOp::create(b, loc, kStoreFenceFn, TypeRange{}, ValueRange{});
}

void LoweringState::report(OpBuilder &b, Location loc, Operation *op,
                           StringRef text, Value a, Value b2) {
  std::string message = (op->getName().getStringRef() + ": " + text).str();
  auto toI64 = [&](Value v) -> Value {
    if (v.getType().isInteger(64))
      return v;
    return b.createOrFold<arith::IndexCastOp>(loc, b.getI64Type(), v);
  };
  Value lhs = toI64(a);
  Value rhs = toI64(b2);
  Type i64 = b.getI64Type();
  func::CallOp call;
  if (site) {
    declare(b, op, kReportErrorAtFn, b.getFunctionType({i64, i64, i64}, {}));
    call = func::CallOp::create(b, loc, kReportErrorAtFn, TypeRange{},
                                ValueRange{site, lhs, rhs});
  } else {
    declare(b, op, kReportErrorFn, b.getFunctionType({i64, i64}, {}));
    message = describeLocation(op) + ": " + message;
    call = func::CallOp::create(b, loc, kReportErrorFn, TypeRange{},
                                ValueRange{lhs, rhs});
  }
  call->setAttr(kMessageAttr, b.getStringAttr(message));
}

LoweringState::CheckChain::CheckChain(LoweringState &state, OpBuilder &b,
                                      Location loc, Operation *op)
    : state(state), b(b), loc(loc), op(op), allOk(constBool(b, loc, true)) {}

void LoweringState::CheckChain::check(Value bad, StringRef text, Value a,
                                      Value b2) {
  Value fire = b.createOrFold<arith::AndIOp>(loc, allOk, bad);
  auto ifOp = scf::IfOp::create(b, loc, fire, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    state.report(b, loc, op, text, a, b2);
  }
  Value good = b.createOrFold<arith::XOrIOp>(loc, bad, constBool(b, loc, true));
  allOk = b.createOrFold<arith::AndIOp>(loc, allOk, good);
}

/// Emits the check of `lhs` (dim `lhsDim` of operand `lhsName`) against
/// `rhs`, described by `rhsText`.
static void compareDims(LoweringState::CheckChain &chain, OpBuilder &b,
                        Location loc, Value lhs, StringRef lhsName,
                        int64_t lhsDim, Value rhs, StringRef rhsText,
                        bool atMost) {
  Value bad = b.createOrFold<arith::CmpIOp>(
      loc, atMost ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ne, lhs,
      rhs);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "operand '" << lhsName << "' dim " << lhsDim << " (%lld) "
     << (atMost ? "exceeds" : "does not match") << " " << rhsText << " (%lld)";
  chain.check(bad, text, lhs, rhs);
}

void LoweringState::checkDims(CheckChain &chain, Value lhs, StringRef lhsName,
                              int64_t lhsDim, Value rhs, StringRef rhsName,
                              int64_t rhsDim, bool atMost) {
  if (!checkBounds)
    return;
  int64_t lhsStatic = cast<ShapedType>(lhs.getType()).getDimSize(lhsDim);
  int64_t rhsStatic = cast<ShapedType>(rhs.getType()).getDimSize(rhsDim);
  if (!ShapedType::isDynamic(lhsStatic) && !ShapedType::isDynamic(rhsStatic))
    return; // The verifier has checked it.
  OpBuilder &b = chain.builder();
  Location loc = chain.location();
  std::string rhsText =
      ("operand '" + rhsName + "' dim " + Twine(rhsDim)).str();
  // Each value is bound before the call: C++ leaves the evaluation order of
  // call arguments unspecified.
  Value lhsSize = dimValue(b, loc, lhs, lhsDim);
  Value rhsSize = dimValue(b, loc, rhs, rhsDim);
  compareDims(chain, b, loc, lhsSize, lhsName, lhsDim, rhsSize, rhsText,
              atMost);
}

void LoweringState::checkIndexDepth(CheckChain &chain, Value indices,
                                    int64_t depth) {
  auto type = cast<ShapedType>(indices.getType());
  int64_t last = type.getRank() - 1;
  if (!checkBounds || !type.isDynamicDim(last))
    return; // Unchecked, or the verifier has checked it.
  OpBuilder &b = chain.builder();
  Location loc = chain.location();
  Value actual = dimValue(b, loc, indices, last);
  Value expected = constIndex(b, loc, depth);
  compareDims(chain, b, loc, actual, "indices", last, expected,
              "the index depth the ranks give", /*atMost=*/false);
}

void LoweringState::checkResultDim(CheckChain &chain, Value operand,
                                   StringRef operandName, int64_t operandDim,
                                   int64_t resultDim) {
  if (!checkBounds)
    return;
  Operation *op = chain.operation();
  int64_t size =
      cast<ShapedType>(op->getResult(0).getType()).getDimSize(resultDim);
  if (ShapedType::isDynamic(size) ||
      !cast<ShapedType>(operand.getType()).isDynamicDim(operandDim))
    return; // Nothing declared, or the verifier has checked it.
  OpBuilder &b = chain.builder();
  Location loc = chain.location();
  std::string resultText = ("result dim " + Twine(resultDim)).str();
  Value actual = dimValue(b, loc, operand, operandDim);
  Value declared = constIndex(b, loc, size);
  compareDims(chain, b, loc, actual, operandName, operandDim, declared,
              resultText, /*atMost=*/false);
}

std::string LoweringState::indexMessage(int64_t dataDim) {
  return ("index %lld in operand 'indices' is out of range for dim " +
          Twine(dataDim) + " of operand 'data' (size %lld)")
      .str();
}
