//===- NdFolding.cpp - folders and canonicalizations of the nd ops -*- C++ -*-//
//
// Compile-time evaluation of the nd ops. A fold must never drop a run-time
// check that could still fail, so an op is folded only when
//  - every shape rule was decided by the verifier (the dims it compares are
//    static), so that the lowering would emit no run-time shape check, and
//  - no index value is left to check: there is none, the op's `oob` mode is
//    `skip` or `clamp` (every value has a meaning), or every one is a
//    constant within the static size of the dim it addresses.
// Under these conditions:
//  - a scatter that writes nothing is its `data`;
//  - a gather with an empty result is an empty constant (`tensor.empty` when
//    the result type has dynamic dims);
//  - a tensor_scatter whose update covers the whole cache from position 0 is
//    its update;
//  - a gather from a splat is that splat, and a scatter of a splat onto the
//    same splat under reduction none, max or min is its `data`, at any size;
//  - with all operands constant, the result is computed when it and the
//    updates have at most kMaxFoldedElements elements, with the arithmetic
//    the lowering uses (docs/Rationale.md).
// A canonicalization removes the updates that constant duplicate indices
// make dead under reduction none, and warns about the duplicates as it does:
// the warning is emitted once, by the rewrite that removes its cause.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include "NdIndexing.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

#include <complex>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::indexing;

//===----------------------------------------------------------------------===//
// Element arithmetic
//===----------------------------------------------------------------------===//

namespace {
/// Integer elements: wrapping arithmetic, signed or unsigned order, and i1 as
/// a boolean (add and max are `or`, mul and min are `and`, sub is `xor`).
struct IntElements {
  using ValueType = APInt;
  unsigned width;
  bool isUnsigned;

  APInt zero() const { return APInt(width, 0); }
  static bool equal(const APInt &a, const APInt &b) { return a == b; }

  /// `current = f(current, update)`; false where `kind` is not folded.
  bool combine(ReductionKind kind, APInt &current, const APInt &update) const {
    if (width == 1) {
      switch (kind) {
      case ReductionKind::Add:
      case ReductionKind::Max:
        current |= update;
        return true;
      case ReductionKind::Mul:
      case ReductionKind::Min:
        current &= update;
        return true;
      case ReductionKind::Sub:
        current ^= update;
        return true;
      default:
        return false;
      }
    }
    switch (kind) {
    case ReductionKind::Add:
      current += update;
      return true;
    case ReductionKind::Sub:
      current -= update;
      return true;
    case ReductionKind::Mul:
      current *= update;
      return true;
    case ReductionKind::Max:
      current = isUnsigned ? llvm::APIntOps::umax(current, update)
                           : llvm::APIntOps::smax(current, update);
      return true;
    case ReductionKind::Min:
      current = isUnsigned ? llvm::APIntOps::umin(current, update)
                           : llvm::APIntOps::smin(current, update);
      return true;
    default:
      return false;
    }
  }

  /// The mean of `values`, from their exact sum, rounded down (towards
  /// negative infinity).
  bool mean(ArrayRef<APInt> values, APInt &result) const {
    unsigned wide = width + 64;
    APInt sum(wide, 0);
    for (const APInt &value : values)
      sum += isUnsigned ? value.zext(wide) : value.sext(wide);
    APInt count(wide, values.size());
    APInt quotient =
        isUnsigned
            ? sum.udiv(count)
            : llvm::APIntOps::RoundingSDiv(sum, count, APInt::Rounding::DOWN);
    result = quotient.trunc(width);
    return true;
  }
};

/// Floating-point elements: IEEE arithmetic rounding to nearest even, and
/// IEEE 754-2019 maximum / minimum (NaN propagates, -0 < +0).
struct FloatElements {
  using ValueType = APFloat;
  const llvm::fltSemantics *semantics;

  APFloat zero() const { return APFloat::getZero(*semantics); }
  static bool equal(const APFloat &a, const APFloat &b) {
    return a.bitwiseIsEqual(b);
  }

  /// `current = f(current, update)`; false where `kind` is not folded.
  bool combine(ReductionKind kind, APFloat &current,
               const APFloat &update) const {
    switch (kind) {
    case ReductionKind::Add:
      current = current + update;
      return true;
    case ReductionKind::Sub:
      current = current - update;
      return true;
    case ReductionKind::Mul:
      current = current * update;
      return true;
    case ReductionKind::Max:
      current = llvm::maximum(current, update);
      return true;
    case ReductionKind::Min:
      current = llvm::minimum(current, update);
      return true;
    default:
      return false;
    }
  }

  /// The mean of `values`: their sum in order, in the element type, divided
  /// once by their count.
  bool mean(ArrayRef<APFloat> values, APFloat &result) const {
    APFloat sum = values.front();
    for (const APFloat &value : values.drop_front())
      sum = sum + value;
    APFloat count(*semantics);
    count.convertFromAPInt(APInt(64, values.size()), /*IsSigned=*/false,
                           APFloat::rmNearestTiesToEven);
    sum.divide(count, APFloat::rmNearestTiesToEven);
    result = sum;
    return true;
  }
};

/// Complex elements: componentwise add and sub; the textbook product, which
/// is what the lowering computes for finite operands (it recovers infinities
/// and NaNs in ways not reproduced here, so such products are not folded).
struct ComplexElements {
  using ValueType = std::complex<APFloat>;
  const llvm::fltSemantics *semantics;

  ValueType zero() const {
    return {APFloat::getZero(*semantics), APFloat::getZero(*semantics)};
  }
  static bool equal(const ValueType &a, const ValueType &b) {
    return a.real().bitwiseIsEqual(b.real()) &&
           a.imag().bitwiseIsEqual(b.imag());
  }

  /// `current = f(current, update)`; false where `kind` or the operands
  /// are not folded.
  bool combine(ReductionKind kind, ValueType &current,
               const ValueType &update) const {
    APFloat a = current.real(), b = current.imag();
    const APFloat &c = update.real(), &d = update.imag();
    switch (kind) {
    case ReductionKind::Add:
      current = ValueType(a + c, b + d);
      return true;
    case ReductionKind::Sub:
      current = ValueType(a - c, b - d);
      return true;
    case ReductionKind::Mul:
      if (!a.isFinite() || !b.isFinite() || !c.isFinite() || !d.isFinite())
        return false;
      current = ValueType(a * c - b * d, a * d + b * c);
      return true;
    default:
      return false;
    }
  }

  /// mean is not defined on complex numbers (the verifier rejects it).
  bool mean(ArrayRef<ValueType>, ValueType &) const { return false; }
};
} // namespace

/// Calls `fn` with the element arithmetic of `elementType` (an nd element
/// type).
template <typename Fn> static auto withElements(Type elementType, Fn &&fn) {
  if (auto intType = dyn_cast<IntegerType>(elementType))
    return fn(IntElements{intType.getWidth(), intType.isUnsigned()});
  if (auto floatType = dyn_cast<FloatType>(elementType))
    return fn(FloatElements{&floatType.getFloatSemantics()});
  auto partType =
      cast<FloatType>(cast<ComplexType>(elementType).getElementType());
  return fn(ComplexElements{&partType.getFloatSemantics()});
}

/// Both constants are splats of the same value (bit for bit).
static bool isSameSplat(DenseElementsAttr a, DenseElementsAttr b) {
  if (!a || !b || !a.isSplat() || !b.isSplat())
    return false;
  return withElements(a.getElementType(), [&](auto elements) {
    using T = typename decltype(elements)::ValueType;
    return elements.equal(a.getSplatValue<T>(), b.getSplatValue<T>());
  });
}

/// A splat of zero bits (what a gather reads for an index skipped).
static bool isZeroSplat(DenseElementsAttr attr) {
  if (!attr.isSplat())
    return false;
  return withElements(attr.getElementType(), [&](auto elements) {
    using T = typename decltype(elements)::ValueType;
    return elements.equal(attr.getSplatValue<T>(), elements.zero());
  });
}

/// An empty constant of the static type `type`.
static DenseElementsAttr getEmptyConstant(RankedTensorType type) {
  return withElements(type.getElementType(), [&](auto elements) {
    using T = typename decltype(elements)::ValueType;
    return DenseElementsAttr::get(type, ArrayRef<T>());
  });
}

//===----------------------------------------------------------------------===//
// Where constant indices read and write
//===----------------------------------------------------------------------===//

namespace {
/// One element written by a scatter: its row-major position in the result
/// and that of its value in `updates`.
struct Write {
  int64_t target;
  int64_t source;
};

/// What the folders need of an op with constant indices: for each index
/// entry (a tuple of an ND op, an element of an Elements op, a slice of a
/// gather or a tensor_scatter) in row-major order, the row-major position in
/// data of the first element it addresses, nullopt where the index is out
/// of range (an error under `oob<error>`, a skipped entry otherwise), and
/// how many consecutive elements each entry reads or writes.
struct IndexEntries {
  SmallVector<std::optional<int64_t>> offsets;
  int64_t sliceSize;
};
} // namespace

/// Whether every offset is known (every index value is in range, or was
/// clamped into it).
static bool allInRange(ArrayRef<std::optional<int64_t>> offsets) {
  return llvm::all_of(
      offsets, [](const std::optional<int64_t> &o) { return o.has_value(); });
}

/// The data position each result element of a gather reads, -1 for a zero
/// (an entry without an offset, under `oob<skip>`).
static SmallVector<int64_t> getGatherSources(const IndexEntries &entries) {
  SmallVector<int64_t> sources;
  sources.reserve(entries.offsets.size() * entries.sliceSize);
  for (const std::optional<int64_t> &offset : entries.offsets)
    for (int64_t s = 0; s < entries.sliceSize; ++s)
      sources.push_back(offset ? *offset + s : -1);
  return sources;
}

/// The element writes of a scatter in row-major order of its index entries,
/// each writing `sliceSize` consecutive elements of `updates`. Entries
/// without an offset write nothing.
static SmallVector<Write> getScatterWrites(const IndexEntries &entries) {
  SmallVector<Write> writes;
  for (auto [entry, offset] : llvm::enumerate(entries.offsets)) {
    if (!offset)
      continue;
    for (int64_t s = 0; s < entries.sliceSize; ++s)
      writes.push_back(
          {*offset + s, static_cast<int64_t>(entry) * entries.sliceSize + s});
  }
  return writes;
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

/// `result[i] = data[sources[i]]`, zero where `sources[i]` is -1.
static DenseElementsAttr evaluateGather(DenseElementsAttr data,
                                        ArrayRef<int64_t> sources,
                                        RankedTensorType resultType) {
  return withElements(data.getElementType(), [&](auto elements) {
    using T = typename decltype(elements)::ValueType;
    auto values = data.getValues<T>();
    T zero = elements.zero();
    SmallVector<T> result;
    result.reserve(sources.size());
    for (int64_t source : sources)
      result.push_back(source < 0 ? zero : values[source]);
    return DenseElementsAttr::get(resultType, ArrayRef<T>(result));
  });
}

/// A copy of `data` with the `writes` applied in order under `reduction`
/// (with `useInitVal` false, an element written takes no part in its own
/// reduction); null where an element cannot be folded exactly.
static DenseElementsAttr evaluateScatter(DenseElementsAttr data,
                                         DenseElementsAttr updates,
                                         ArrayRef<Write> writes,
                                         ReductionKind reduction,
                                         bool useInitVal) {
  return withElements(
      data.getElementType(), [&](auto elements) -> DenseElementsAttr {
        using T = typename decltype(elements)::ValueType;
        auto dataValues = data.getValues<T>();
        SmallVector<T> result(dataValues.begin(), dataValues.end());
        auto updateValues = updates.getValues<T>();

        if (reduction == ReductionKind::Mean) {
          // The values each element written is the mean of, in order.
          llvm::MapVector<int64_t, SmallVector<T>> operands;
          for (const Write &write : writes) {
            auto [it, inserted] = operands.try_emplace(write.target);
            if (inserted && useInitVal)
              it->second.push_back(result[write.target]);
            it->second.push_back(updateValues[write.source]);
          }
          for (auto &[target, values] : operands)
            if (!elements.mean(values, result[target]))
              return {};
          return DenseElementsAttr::get(data.getType(), ArrayRef<T>(result));
        }

        llvm::DenseSet<int64_t> written;
        for (const Write &write : writes) {
          T update = updateValues[write.source];
          bool first = written.insert(write.target).second;
          if (reduction == ReductionKind::None || (first && !useInitVal))
            result[write.target] = update;
          else if (!elements.combine(reduction, result[write.target], update))
            return {};
        }
        return DenseElementsAttr::get(data.getType(), ArrayRef<T>(result));
      });
}

//===----------------------------------------------------------------------===//
// Shape rules decided at compile time
//===----------------------------------------------------------------------===//

static bool bothStatic(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b);
}

/// `a <= b` is decided statically: both are static, or `a` is 0.
static bool boundIsStatic(int64_t a, int64_t b) {
  return a == 0 || bothStatic(a, b);
}

/// A gather's result dims that are static where the inferred ones are not
/// are checked at run time.
static bool refinesNothing(RankedTensorType result, RankedTensorType inferred) {
  return llvm::all_of(
      llvm::zip_equal(result.getShape(), inferred.getShape()), [](auto dims) {
        auto [declared, known] = dims;
        return ShapedType::isDynamic(declared) || !ShapedType::isDynamic(known);
      });
}

static bool hasStaticShapeRules(ScatterNDOp op) {
  ArrayRef<int64_t> dataShape = getTensorType(op.getData().getType()).getShape();
  ArrayRef<int64_t> indicesShape = getTensorType(op.getIndices().getType()).getShape();
  ArrayRef<int64_t> updatesShape = getTensorType(op.getUpdates().getType()).getShape();
  int64_t r = dataShape.size(), q = indicesShape.size();
  int64_t k = op.getIndexDepth();
  if (op.hasDynamicIndexDepth())
    return false;
  // The OpenVINO single-element form: updates dims are all a static 1.
  if (static_cast<int64_t>(updatesShape.size()) != q - 1 + r - k)
    return true;
  for (int64_t d = 0; d < q - 1; ++d)
    if (!bothStatic(updatesShape[d], indicesShape[d]))
      return false;
  for (int64_t d = k; d < r; ++d)
    if (!bothStatic(updatesShape[q - 1 + d - k], dataShape[d]))
      return false;
  return true;
}

static bool hasStaticShapeRules(GatherNDOp op) {
  RankedTensorType dataType = getTensorType(op.getData().getType());
  RankedTensorType indicesType = getTensorType(op.getIndices().getType());
  auto batchDims = static_cast<int64_t>(op.getBatchDims());
  if (op.hasDynamicIndexDepth())
    return false;
  for (int64_t d = 0; d < batchDims; ++d)
    if (!bothStatic(dataType.getDimSize(d), indicesType.getDimSize(d)))
      return false;
  FailureOr<RankedTensorType> inferred =
      GatherNDOp::inferResultType(dataType, indicesType, batchDims, nullptr);
  return succeeded(inferred) &&
         refinesNothing(op.getResult().getType(), *inferred);
}

static bool hasStaticShapeRules(ScatterElementsOp op) {
  ArrayRef<int64_t> dataShape = getTensorType(op.getData().getType()).getShape();
  ArrayRef<int64_t> indicesShape = getTensorType(op.getIndices().getType()).getShape();
  ArrayRef<int64_t> updatesShape = getTensorType(op.getUpdates().getType()).getShape();
  int64_t axis = op.getNormalizedAxis();
  for (auto [d, data, indices, updates] :
       llvm::enumerate(dataShape, indicesShape, updatesShape)) {
    if (!bothStatic(indices, updates))
      return false;
    if (static_cast<int64_t>(d) != axis &&
        (!boundIsStatic(indices, data) || !boundIsStatic(updates, data)))
      return false;
  }
  return true;
}

static bool hasStaticShapeRules(GatherElementsOp op) {
  RankedTensorType dataType = getTensorType(op.getData().getType());
  RankedTensorType indicesType = getTensorType(op.getIndices().getType());
  int64_t axis = op.getNormalizedAxis();
  for (auto [d, data, indices] :
       llvm::enumerate(dataType.getShape(), indicesType.getShape()))
    if (static_cast<int64_t>(d) != axis && !boundIsStatic(indices, data))
      return false;
  auto inferred =
      RankedTensorType::get(indicesType.getShape(), dataType.getElementType());
  return refinesNothing(op.getResult().getType(), inferred);
}

static bool hasStaticShapeRules(GatherOp op) {
  RankedTensorType dataType = getTensorType(op.getData().getType());
  RankedTensorType indicesType = getTensorType(op.getIndices().getType());
  auto batchDims = static_cast<int64_t>(op.getBatchDims());
  for (int64_t d = 0; d < batchDims; ++d)
    if (!bothStatic(dataType.getDimSize(d), indicesType.getDimSize(d)))
      return false;
  FailureOr<RankedTensorType> inferred = GatherOp::inferResultType(
      dataType, indicesType, static_cast<int64_t>(op.getAxis()), batchDims,
      nullptr);
  return succeeded(inferred) &&
         refinesNothing(op.getResult().getType(), *inferred);
}

static bool hasStaticShapeRules(TensorScatterOp op) {
  RankedTensorType cacheType = getTensorType(op.getPastCache().getType());
  ArrayRef<int64_t> cacheShape = cacheType.getShape();
  ArrayRef<int64_t> updateShape = getTensorType(op.getUpdate().getType()).getShape();
  int64_t axis = op.getNormalizedAxis();
  for (auto [d, cache, update] : llvm::enumerate(cacheShape, updateShape)) {
    bool decided = static_cast<int64_t>(d) == axis
                       ? boundIsStatic(update, cache)
                       : bothStatic(update, cache);
    if (!decided)
      return false;
  }
  Value writeIndices = op.getWriteIndices();
  return !writeIndices ||
         bothStatic(
             cast<RankedTensorType>(writeIndices.getType()).getDimSize(0),
             cacheType.getDimSize(0));
}

//===----------------------------------------------------------------------===//
// What each op reads and writes
//===----------------------------------------------------------------------===//

/// Whether `shape` has a static dim of size 0.
static bool hasZeroDim(ArrayRef<int64_t> shape) {
  return llvm::is_contained(shape, 0);
}

/// The index entries of an ND op: its tuples.
static std::optional<IndexEntries>
getNDEntries(RankedTensorType dataType, RankedTensorType indicesType,
             ArrayRef<int64_t> values, int64_t batchDims, OobMode oob) {
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> dataShape = dataType.getShape();
  int64_t k = indicesType.getShape().back();
  SmallVector<int64_t> strides = getStrides(dataShape);
  IndexEntries entries;
  entries.sliceSize =
      ShapedType::getNumElements(dataShape.drop_front(batchDims + k));
  forEachPosition(indicesType.getShape().drop_back(),
                  [&](int64_t tuple, ArrayRef<int64_t> position) {
                    int64_t offset = 0;
                    for (int64_t d = 0; d < batchDims; ++d)
                      offset += position[d] * strides[d];
                    for (int64_t j = 0; j < k; ++j) {
                      std::optional<int64_t> index = resolveIndex(
                          values[tuple * k + j], dataShape[batchDims + j], oob);
                      if (!index) {
                        entries.offsets.push_back(std::nullopt);
                        return;
                      }
                      offset += *index * strides[batchDims + j];
                    }
                    entries.offsets.push_back(offset);
                  });
  return entries;
}

/// The index entries of an Elements op: each element of its indices.
static std::optional<IndexEntries>
getElementsEntries(RankedTensorType dataType, RankedTensorType indicesType,
                   ArrayRef<int64_t> values, int64_t axis, OobMode oob) {
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> dataShape = dataType.getShape();
  SmallVector<int64_t> strides = getStrides(dataShape);
  IndexEntries entries;
  entries.sliceSize = 1;
  forEachPosition(
      indicesType.getShape(), [&](int64_t flat, ArrayRef<int64_t> position) {
        std::optional<int64_t> index =
            resolveIndex(values[flat], dataShape[axis], oob);
        if (!index) {
          entries.offsets.push_back(std::nullopt);
          return;
        }
        int64_t offset = 0;
        for (auto [d, p] : llvm::enumerate(position))
          offset += (static_cast<int64_t>(d) == axis ? *index : p) * strides[d];
        entries.offsets.push_back(offset);
      });
  return entries;
}

static std::optional<IndexEntries> getEntries(ScatterNDOp op,
                                              ArrayRef<int64_t> values) {
  return getNDEntries(getTensorType(op.getData().getType()), getTensorType(op.getIndices().getType()), values,
                      /*batchDims=*/0, op.getOob());
}

static std::optional<IndexEntries> getEntries(GatherNDOp op,
                                              ArrayRef<int64_t> values) {
  return getNDEntries(getTensorType(op.getData().getType()), getTensorType(op.getIndices().getType()), values,
                      static_cast<int64_t>(op.getBatchDims()), op.getOob());
}

static std::optional<IndexEntries> getEntries(ScatterElementsOp op,
                                              ArrayRef<int64_t> values) {
  return getElementsEntries(getTensorType(op.getData().getType()), getTensorType(op.getIndices().getType()),
                            values, op.getNormalizedAxis(), op.getOob());
}

static std::optional<IndexEntries> getEntries(GatherElementsOp op,
                                              ArrayRef<int64_t> values) {
  return getElementsEntries(getTensorType(op.getData().getType()), getTensorType(op.getIndices().getType()),
                            values, op.getNormalizedAxis(), op.getOob());
}

/// The entries of a gather: one slice `data[p..., index, :...]` per position
/// `(p, i)` of `data.shape[:axis] ++ indices.shape[b:]`, the index being
/// `indices[p[:b]..., i...]`.
static std::optional<IndexEntries> getEntries(GatherOp op,
                                              ArrayRef<int64_t> values) {
  RankedTensorType dataType = getTensorType(op.getData().getType());
  RankedTensorType indicesType = getTensorType(op.getIndices().getType());
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> dataShape = dataType.getShape();
  ArrayRef<int64_t> indicesShape = indicesType.getShape();
  int64_t axis = op.getNormalizedAxis();
  auto batchDims = static_cast<int64_t>(op.getBatchDims());
  SmallVector<int64_t> strides = getStrides(dataShape);
  SmallVector<int64_t> indicesStrides = getStrides(indicesShape);
  SmallVector<int64_t> entryShape(dataShape.take_front(axis));
  llvm::append_range(entryShape, indicesShape.drop_front(batchDims));

  IndexEntries entries;
  entries.sliceSize =
      ShapedType::getNumElements(dataShape.drop_front(axis + 1));
  forEachPosition(entryShape, [&](int64_t, ArrayRef<int64_t> position) {
    ArrayRef<int64_t> outer = position.take_front(axis);
    ArrayRef<int64_t> inner = position.drop_front(axis);
    int64_t flat = 0;
    for (int64_t d = 0; d < batchDims; ++d)
      flat += outer[d] * indicesStrides[d];
    for (auto [j, i] : llvm::enumerate(inner))
      flat += i * indicesStrides[batchDims + j];
    std::optional<int64_t> index =
        resolveIndex(values[flat], dataShape[axis], op.getOob());
    if (!index) {
      entries.offsets.push_back(std::nullopt);
      return;
    }
    int64_t offset = *index * strides[axis];
    for (auto [d, p] : llvm::enumerate(outer))
      offset += p * strides[d];
    entries.offsets.push_back(offset);
  });
  return entries;
}

/// The entries of a tensor_scatter: one slice `result[p..., pos, :...]` per
/// position `(p, s)` of `past_cache.shape[:axis] ++ [sequence_length]`, the
/// position being `w + s` (modulo `max_sequence_length` in circular mode)
/// for the write index `w` of batch entry `p[0]` (`values`, one per batch
/// entry).
static std::optional<IndexEntries> getEntries(TensorScatterOp op,
                                              ArrayRef<int64_t> values) {
  RankedTensorType cacheType = getTensorType(op.getPastCache().getType());
  RankedTensorType updateType = getTensorType(op.getUpdate().getType());
  if (!cacheType.hasStaticShape() || !updateType.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> cacheShape = cacheType.getShape();
  int64_t axis = op.getNormalizedAxis();
  int64_t maxSeq = cacheShape[axis];
  int64_t seqLen = updateType.getDimSize(axis);
  bool circular = op.getMode() == TensorScatterMode::Circular;
  SmallVector<int64_t> strides = getStrides(cacheShape);
  SmallVector<int64_t> entryShape(cacheShape.take_front(axis));
  entryShape.push_back(seqLen);

  IndexEntries entries;
  entries.sliceSize =
      ShapedType::getNumElements(cacheShape.drop_front(axis + 1));
  forEachPosition(entryShape, [&](int64_t, ArrayRef<int64_t> position) {
    std::optional<int64_t> start = resolveWriteIndex(
        values[position.front()], maxSeq, seqLen, op.getMode(), op.getOob());
    if (!start) {
      entries.offsets.push_back(std::nullopt);
      return;
    }
    int64_t sequencePosition = *start + position.back();
    if (circular)
      sequencePosition %= maxSeq;
    int64_t offset = sequencePosition * strides[axis];
    for (int64_t d = 0; d < axis; ++d)
      offset += position[d] * strides[d];
    entries.offsets.push_back(offset);
  });
  return entries;
}

/// Whether the op has no index value at all (an index entry count of 0).
static bool hasNoIndexValues(ScatterNDOp op) {
  return hasZeroDim(getTensorType(op.getIndices().getType()).getShape().drop_back());
}
static bool hasNoIndexValues(GatherNDOp op) {
  return hasZeroDim(getTensorType(op.getIndices().getType()).getShape().drop_back());
}
static bool hasNoIndexValues(ScatterElementsOp op) {
  return hasZeroDim(getTensorType(op.getIndices().getType()).getShape());
}
static bool hasNoIndexValues(GatherElementsOp op) {
  return hasZeroDim(getTensorType(op.getIndices().getType()).getShape());
}
static bool hasNoIndexValues(GatherOp op) {
  return hasZeroDim(getTensorType(op.getIndices().getType()).getShape());
}
/// Without write_indices every write starts at 0, which the shape rules
/// already place in range.
static bool hasNoIndexValues(TensorScatterOp op) {
  Value writeIndices = op.getWriteIndices();
  return !writeIndices ||
         hasZeroDim(cast<RankedTensorType>(writeIndices.getType()).getShape());
}

/// The index values of `op` when they are constant.
template <typename OpTy>
static std::optional<SmallVector<int64_t>> getConstantIndexValues(OpTy op) {
  return matchConstantIndices(op.getIndices(), kMaxVerifiedIndices);
}
/// The write indices of a tensor_scatter, zeros where absent.
static std::optional<SmallVector<int64_t>>
getConstantIndexValues(TensorScatterOp op) {
  if (Value writeIndices = op.getWriteIndices())
    return matchConstantIndices(writeIndices, kMaxVerifiedIndices);
  int64_t batch = getTensorType(op.getPastCache().getType()).getDimSize(0);
  if (ShapedType::isDynamic(batch))
    return std::nullopt;
  return SmallVector<int64_t>(batch, 0);
}

/// The index entries of `op` when its indices are constant; nullopt when
/// they are not, or when shapes are not static.
template <typename OpTy>
static std::optional<IndexEntries> getConstantEntries(OpTy op) {
  std::optional<SmallVector<int64_t>> values = getConstantIndexValues(op);
  if (!values)
    return std::nullopt;
  return getEntries(op, *values);
}

/// Whether the run-time index check of `op` can no longer fail: there is no
/// index value, no value is an error (`oob` skip or clamp), or every one is
/// a constant in range.
template <typename OpTy>
static bool indicesAreSafe(OpTy op,
                           const std::optional<IndexEntries> &entries) {
  return hasNoIndexValues(op) || op.getOob() != OobMode::Error ||
         (entries && allInRange(entries->offsets));
}

/// Whether every index of a gather with unknown index values reads data:
/// under `clamp`, unless a dim it addresses may be empty.
static bool alwaysReadsData(GatherNDOp op) {
  if (op.getOob() != OobMode::Clamp || op.hasDynamicIndexDepth())
    return false;
  ArrayRef<int64_t> dataShape = getTensorType(op.getData().getType()).getShape();
  auto batchDims = static_cast<int64_t>(op.getBatchDims());
  ArrayRef<int64_t> addressed = dataShape.slice(batchDims, op.getIndexDepth());
  return llvm::all_of(
      addressed, [](int64_t d) { return !ShapedType::isDynamic(d) && d > 0; });
}
template <typename OpTy> static bool alwaysReadsData(OpTy op) {
  int64_t size = getTensorType(op.getData().getType()).getDimSize(op.getNormalizedAxis());
  return op.getOob() == OobMode::Clamp && !ShapedType::isDynamic(size) &&
         size > 0;
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

/// Folds a gather (see the file comment). `dataAttr` is the constant value
/// of `data`, if any.
template <typename OpTy>
static OpFoldResult foldGather(OpTy op, Attribute dataAttr) {
  RankedTensorType resultType = op.getResult().getType();
  if (!resultType.hasStaticShape() || !hasStaticShapeRules(op))
    return {};
  std::optional<IndexEntries> entries = getConstantEntries(op);
  if (!indicesAreSafe(op, entries))
    return {};
  if (resultType.getNumElements() == 0)
    return getEmptyConstant(resultType);
  auto data = dyn_cast_if_present<DenseElementsAttr>(dataAttr);
  if (!data)
    return {};
  // Every element read is the splat value: reads in data, and zeros where
  // the splat is zero.
  bool readsData = entries
                       ? allInRange(entries->offsets)
                       : (op.getOob() == OobMode::Error || alwaysReadsData(op));
  if (data.isSplat() && data.getNumElements() > 0 &&
      (readsData || isZeroSplat(data)))
    return data.resizeSplat(resultType);
  if (!entries || resultType.getNumElements() > kMaxFoldedElements)
    return {};
  return evaluateGather(data, getGatherSources(*entries), resultType);
}

namespace {
/// What the scatter folders need of a scatter, whatever its kind.
struct ScatterParts {
  Value data;
  Value updates;
  ReductionKind reduction;
  bool useInitVal;
};
} // namespace

static ScatterParts getScatterParts(ScatterNDOp op) {
  return {op.getData(), op.getUpdates(), op.getReduction(), true};
}
static ScatterParts getScatterParts(ScatterElementsOp op) {
  return {op.getData(), op.getUpdates(), op.getReduction(), op.getUseInitVal()};
}
static ScatterParts getScatterParts(TensorScatterOp op) {
  return {op.getPastCache(), op.getUpdate(), ReductionKind::None, true};
}

/// Whether two writes of `writes` have the same target.
static bool hasDuplicateTargets(ArrayRef<Write> writes) {
  llvm::DenseSet<int64_t> targets;
  return llvm::any_of(writes, [&](const Write &write) {
    return !targets.insert(write.target).second;
  });
}

/// Folds a scatter (see the file comment). `dataAttr` and `updatesAttr` are
/// the constant values of `data` and `updates`, if any.
template <typename OpTy>
static OpFoldResult foldScatter(OpTy op, Attribute dataAttr,
                                Attribute updatesAttr) {
  if (!hasStaticShapeRules(op))
    return {};
  std::optional<IndexEntries> entries = getConstantEntries(op);
  if (!indicesAreSafe(op, entries))
    return {};
  ScatterParts parts = getScatterParts(op);
  auto updatesType = cast<RankedTensorType>(parts.updates.getType());
  if (hasZeroDim(updatesType.getShape()))
    return parts.data;

  auto data = dyn_cast_if_present<DenseElementsAttr>(dataAttr);
  auto updates = dyn_cast_if_present<DenseElementsAttr>(updatesAttr);
  // Every write stores the value already in place.
  if (isSameSplat(data, updates) && (parts.reduction == ReductionKind::None ||
                                     parts.reduction == ReductionKind::Max ||
                                     parts.reduction == ReductionKind::Min))
    return parts.data;

  auto dataType = cast<RankedTensorType>(parts.data.getType());
  if (!data || !updates || !entries || !dataType.hasStaticShape() ||
      !updatesType.hasStaticShape() ||
      dataType.getNumElements() > kMaxFoldedElements ||
      updatesType.getNumElements() > kMaxFoldedElements)
    return {};
  SmallVector<Write> writes = getScatterWrites(*entries);
  // Duplicates under reduction none are left to the canonicalization, which
  // warns about them.
  if (parts.reduction == ReductionKind::None && hasDuplicateTargets(writes))
    return {};
  return evaluateScatter(data, updates, writes, parts.reduction,
                         parts.useInitVal);
}

/// Whether `op` verifies, without reporting anything. A pattern of another
/// dialect may have made it invalid (upstream's canonicalization folds a
/// `tensor.cast` into the operands of every destination-style op, however
/// its shape rules relate them): such an op is left to the verifier, which
/// names what is wrong, and never evaluated.
static bool verifiesQuietly(Operation *op) {
  ScopedDiagnosticHandler quiet(op->getContext(),
                                [](Diagnostic &) { return success(); });
  return succeeded(mlir::verify(op, /*verifyRecursively=*/false));
}

/// The fold of an op with an optional result: nothing on buffers, otherwise
/// `fold()` of the op on tensors.
static LogicalResult foldOnTensors(Operation *op,
                                   SmallVectorImpl<OpFoldResult> &results,
                                   function_ref<OpFoldResult()> fold) {
  if (isOnBuffers(op) || !verifiesQuietly(op))
    return failure();
  OpFoldResult folded = fold();
  if (!folded)
    return failure();
  results.push_back(folded);
  return success();
}

LogicalResult ScatterNDOp::fold(FoldAdaptor adaptor,
                                SmallVectorImpl<OpFoldResult> &results) {
  return foldOnTensors(*this, results, [&] {
    return foldScatter(*this, adaptor.getData(), adaptor.getUpdates());
  });
}

LogicalResult GatherNDOp::fold(FoldAdaptor adaptor,
                               SmallVectorImpl<OpFoldResult> &results) {
  return foldOnTensors(*this, results,
                       [&] { return foldGather(*this, adaptor.getData()); });
}

LogicalResult ScatterElementsOp::fold(FoldAdaptor adaptor,
                                      SmallVectorImpl<OpFoldResult> &results) {
  return foldOnTensors(*this, results, [&] {
    return foldScatter(*this, adaptor.getData(), adaptor.getUpdates());
  });
}

LogicalResult GatherElementsOp::fold(FoldAdaptor adaptor,
                                     SmallVectorImpl<OpFoldResult> &results) {
  return foldOnTensors(*this, results,
                       [&] { return foldGather(*this, adaptor.getData()); });
}

LogicalResult GatherOp::fold(FoldAdaptor adaptor,
                             SmallVectorImpl<OpFoldResult> &results) {
  return foldOnTensors(*this, results,
                       [&] { return foldGather(*this, adaptor.getData()); });
}

LogicalResult TensorScatterOp::fold(FoldAdaptor adaptor,
                                    SmallVectorImpl<OpFoldResult> &results) {
  return foldOnTensors(*this, results, [&]() -> OpFoldResult {
    // An update of the cache's own shape written from position 0 (no write
    // indices, or constant zeros) replaces every element, in either mode.
    if (getUpdate().getType() == getPastCache().getType() &&
        hasStaticShapeRules(*this)) {
      std::optional<SmallVector<int64_t>> starts =
          getConstantIndexValues(*this);
      if (starts && llvm::all_of(*starts, [](int64_t w) { return w == 0; }))
        return getUpdate();
    }
    return foldScatter(*this, adaptor.getPastCache(), adaptor.getUpdate());
  });
}

//===----------------------------------------------------------------------===//
// Canonicalization: empty gathers of dynamic type
//===----------------------------------------------------------------------===//

namespace {
/// A gather with an empty result of a type with dynamic dims (the static
/// case folds) becomes a `tensor.empty` of the reified shape.
template <typename OpTy>
struct EmptyGatherToTensorEmpty : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (isOnBuffers(op) || !verifiesQuietly(op))
      return rewriter.notifyMatchFailure(op, "on buffers, or invalid");
    RankedTensorType resultType = op.getResult().getType();
    if (resultType.hasStaticShape() || !hasZeroDim(resultType.getShape()) ||
        !hasStaticShapeRules(op) || !indicesAreSafe(op, getConstantEntries(op)))
      return rewriter.notifyMatchFailure(op, "not a safe empty gather");
    ReifiedRankedShapedTypeDims shapes;
    if (failed(reifyResultShapes(rewriter, op, shapes)))
      return rewriter.notifyMatchFailure(op, "cannot reify the result shape");
    rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, shapes.front(),
                                                 resultType.getElementType());
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Canonicalization: duplicate constant indices under reduction none
//===----------------------------------------------------------------------===//

/// The entries of `offsets` that a later entry with the same offset
/// overwrites under reduction none (entries without an offset write
/// nothing), as (overwritten, overwriting) pairs in row-major order.
static SmallVector<std::pair<int64_t, int64_t>>
getOverwrittenEntries(ArrayRef<std::optional<int64_t>> offsets) {
  llvm::DenseMap<int64_t, int64_t> last;
  for (auto [entry, offset] : llvm::enumerate(offsets))
    if (offset)
      last[*offset] = static_cast<int64_t>(entry);
  SmallVector<std::pair<int64_t, int64_t>> overwritten;
  for (auto [entry, offset] : llvm::enumerate(offsets))
    if (offset && last[*offset] != static_cast<int64_t>(entry))
      overwritten.push_back({static_cast<int64_t>(entry), last[*offset]});
  return overwritten;
}

/// "[1, 0]": the position of index entry `entry` in `shape`.
static std::string formatPosition(int64_t entry, ArrayRef<int64_t> shape) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(delinearize(entry, shape), os);
  os << "]";
  return text;
}

/// The warning about duplicate constant indices under reduction none, once
/// per op, as the rewrite that drops the dead updates is applied.
static void
warnAboutDuplicates(Operation *op, StringRef entryKind,
                    ArrayRef<int64_t> entryShape,
                    ArrayRef<std::pair<int64_t, int64_t>> overwritten) {
  auto [first, winner] = overwritten.front();
  op->emitWarning() << "'" << op->getName() << "' op operand 'indices' has "
                    << "duplicate " << entryKind
                    << " under reduction 'none' (the one at position "
                    << formatPosition(first, entryShape)
                    << " is overwritten by the one at position "
                    << formatPosition(winner, entryShape) << "; "
                    << overwritten.size()
                    << " overwritten in all): the ONNX and OpenVINO "
                       "specifications leave the result undefined, nd keeps "
                       "the update that comes last in row-major order";
}

/// A constant i64 tensor of shape `rows x columns` holding `values`.
static Value createIndexConstant(PatternRewriter &rewriter, Location loc,
                                 ArrayRef<int64_t> values, int64_t rows,
                                 int64_t columns) {
  auto type = RankedTensorType::get({rows, columns}, rewriter.getI64Type());
  auto attr = DenseElementsAttr::get(type, values);
  return arith::ConstantOp::create(rewriter, loc, type, attr);
}

/// The slices of `updates` at the positions `kept` (row-major positions in
/// `entryShape`, the leading dims of updates), stacked: a constant when
/// updates is one, otherwise an nd.gather_nd with constant indices.
static Value gatherKeptUpdates(PatternRewriter &rewriter, Location loc,
                               Value updates, ArrayRef<int64_t> entryShape,
                               ArrayRef<int64_t> kept) {
  auto updatesType = cast<RankedTensorType>(updates.getType());
  auto depth = static_cast<int64_t>(entryShape.size());
  SmallVector<int64_t> shape = {static_cast<int64_t>(kept.size())};
  llvm::append_range(shape, updatesType.getShape().drop_front(depth));
  auto resultType = RankedTensorType::get(shape, updatesType.getElementType());

  DenseElementsAttr constant;
  if (matchPattern(updates, m_Constant(&constant)) &&
      updatesType.hasStaticShape()) {
    IndexEntries slices;
    slices.sliceSize =
        ShapedType::getNumElements(updatesType.getShape().drop_front(depth));
    for (int64_t entry : kept)
      slices.offsets.push_back(entry * slices.sliceSize);
    DenseElementsAttr values =
        evaluateGather(constant, getGatherSources(slices), resultType);
    return arith::ConstantOp::create(rewriter, loc, resultType, values);
  }

  SmallVector<int64_t> positions;
  for (int64_t entry : kept)
    llvm::append_range(positions, delinearize(entry, entryShape));
  Value indices = createIndexConstant(rewriter, loc, positions,
                                      static_cast<int64_t>(kept.size()), depth);
  return GatherNDOp::create(rewriter, loc, resultType, updates, indices,
                            /*batch_dims=*/0, OobMode::Error)
      .getResult();
}

/// The entries of `offsets` that are written and not overwritten later.
static SmallVector<int64_t>
getKeptEntries(ArrayRef<std::optional<int64_t>> offsets,
               ArrayRef<std::pair<int64_t, int64_t>> overwritten) {
  llvm::DenseSet<int64_t> dropped;
  for (auto [entry, winner] : overwritten)
    dropped.insert(entry);
  SmallVector<int64_t> kept;
  for (auto [entry, offset] : llvm::enumerate(offsets))
    if (offset && !dropped.contains(static_cast<int64_t>(entry)))
      kept.push_back(static_cast<int64_t>(entry));
  return kept;
}

/// Whether `entries` leaves no index to check at run time: every value in
/// range, or a mode under which none is an error.
static bool isResolved(const IndexEntries &entries, OobMode oob) {
  return oob != OobMode::Error || allInRange(entries.offsets);
}

namespace {
/// scatter_nd with constant indices holding duplicate tuples under
/// reduction none: only the last tuple of each group writes anything that
/// survives. The other tuples (and those `oob<skip>` drops) and their update
/// slices are removed (the updates are gathered, constant-folded where
/// constant), with a warning.
struct DropOverwrittenSlices : public OpRewritePattern<ScatterNDOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterNDOp op,
                                PatternRewriter &rewriter) const override {
    if (isOnBuffers(op) || op.getReduction() != ReductionKind::None ||
        !hasStaticShapeRules(op) || !verifiesQuietly(op))
      return rewriter.notifyMatchFailure(op, "not a plain scatter");
    std::optional<SmallVector<int64_t>> values = getConstantIndexValues(op);
    if (!values)
      return rewriter.notifyMatchFailure(op, "indices are not constant");
    std::optional<IndexEntries> entries = getEntries(op, *values);
    if (!entries || entries->sliceSize == 0 ||
        !isResolved(*entries, op.getOob()))
      return rewriter.notifyMatchFailure(op, "no slice is written");
    SmallVector<std::pair<int64_t, int64_t>> overwritten =
        getOverwrittenEntries(entries->offsets);
    if (overwritten.empty())
      return rewriter.notifyMatchFailure(op, "no duplicate tuple");

    RankedTensorType indicesType = getTensorType(op.getIndices().getType());
    ArrayRef<int64_t> tupleShape = indicesType.getShape().drop_back();
    warnAboutDuplicates(op, "index tuples", tupleShape, overwritten);
    SmallVector<int64_t> kept = getKeptEntries(entries->offsets, overwritten);

    Location loc = op.getLoc();
    int64_t k = op.getIndexDepth();
    auto keptType = RankedTensorType::get(
        {static_cast<int64_t>(kept.size()), k}, indicesType.getElementType());
    unsigned width = indicesType.getElementType().isIndex()
                         ? IndexType::kInternalStorageBitWidth
                         : indicesType.getElementType().getIntOrFloatBitWidth();
    SmallVector<APInt> keptValues;
    for (int64_t entry : kept)
      for (int64_t value : ArrayRef<int64_t>(*values).slice(entry * k, k))
        keptValues.push_back(APInt(width, value, /*isSigned=*/true));
    Value indices = arith::ConstantOp::create(
        rewriter, loc, keptType, DenseElementsAttr::get(keptType, keptValues));
    Value updates =
        gatherKeptUpdates(rewriter, loc, op.getUpdates(), tupleShape, kept);
    rewriter.replaceOpWithNewOp<ScatterNDOp>(
        op, op.getResult().getType(), op.getData(), indices, updates,
        op.getReductionAttr(), op.getOobAttr());
    return success();
  }
};

/// scatter_elements with constant indices holding duplicates under
/// reduction none, all shapes static: the surviving writes become a
/// scatter_nd of whole-coordinate tuples without duplicates, resolved under
/// the op's `oob` mode (the updates gathered, constant-folded where
/// constant), with a warning.
struct DropOverwrittenElements : public OpRewritePattern<ScatterElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterElementsOp op,
                                PatternRewriter &rewriter) const override {
    if (isOnBuffers(op) || !verifiesQuietly(op))
      return rewriter.notifyMatchFailure(op, "on buffers, or invalid");
    RankedTensorType dataType = getTensorType(op.getData().getType());
    RankedTensorType indicesType = getTensorType(op.getIndices().getType());
    if (op.getReduction() != ReductionKind::None ||
        !dataType.hasStaticShape() ||
        !getTensorType(op.getUpdates().getType()).hasStaticShape() || !hasStaticShapeRules(op))
      return rewriter.notifyMatchFailure(op, "not a static plain scatter");
    std::optional<IndexEntries> entries = getConstantEntries(op);
    if (!entries || !isResolved(*entries, op.getOob()))
      return rewriter.notifyMatchFailure(op, "indices are not constant");
    SmallVector<std::pair<int64_t, int64_t>> overwritten =
        getOverwrittenEntries(entries->offsets);
    if (overwritten.empty())
      return rewriter.notifyMatchFailure(op, "no duplicate index");

    ArrayRef<int64_t> indicesShape = indicesType.getShape();
    warnAboutDuplicates(op, "index values", indicesShape, overwritten);
    SmallVector<int64_t> kept = getKeptEntries(entries->offsets, overwritten);

    Location loc = op.getLoc();
    SmallVector<int64_t> coordinates;
    for (int64_t entry : kept)
      llvm::append_range(coordinates, delinearize(*entries->offsets[entry],
                                                  dataType.getShape()));
    Value indices = createIndexConstant(rewriter, loc, coordinates,
                                        static_cast<int64_t>(kept.size()),
                                        dataType.getRank());
    Value updates =
        gatherKeptUpdates(rewriter, loc, op.getUpdates(), indicesShape, kept);
    rewriter.replaceOpWithNewOp<ScatterNDOp>(
        op, op.getResult().getType(), op.getData(), indices, updates,
        ReductionKindAttr::get(op.getContext(), ReductionKind::None),
        OobModeAttr::get(op.getContext(), OobMode::Error));
    return success();
  }
};
} // namespace

void ScatterNDOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<DropOverwrittenSlices>(context);
}

void GatherNDOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                             MLIRContext *context) {
  results.add<EmptyGatherToTensorEmpty<GatherNDOp>>(context);
}

void ScatterElementsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                    MLIRContext *context) {
  results.add<DropOverwrittenElements>(context);
}

void GatherElementsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                                   MLIRContext *context) {
  results.add<EmptyGatherToTensorEmpty<GatherElementsOp>>(context);
}

void GatherOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                           MLIRContext *context) {
  results.add<EmptyGatherToTensorEmpty<GatherOp>>(context);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Operation *NdDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  if (!arith::ConstantOp::isBuildableWith(value, type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, cast<TypedAttr>(value));
}
