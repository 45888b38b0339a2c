//===- NdFolding.cpp - folders and canonicalizations of the nd ops -*- C++ -*-//
//
// Compile-time evaluation of the nd ops. A fold must never drop a run-time
// check that could still fail, so an op is folded only when
//  - every shape rule was decided by the verifier (the dims it compares are
//    static), so that the lowering would emit no run-time shape check, and
//  - no index value is left to check: there is none, or every one is a
//    constant within the static size of the dim it addresses.
// Under these conditions:
//  - a scatter that writes nothing is its `data`;
//  - a gather with an empty result is an empty constant (`tensor.empty` when
//    the result type has dynamic dims);
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
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"

#include <complex>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::indexing;

//===----------------------------------------------------------------------===//
// Element arithmetic
//===----------------------------------------------------------------------===//

namespace {
/// Integer elements: wrapping arithmetic, signed or unsigned order, and i1 as
/// a boolean (add and max are `or`, mul and min are `and`).
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
      default:
        return false;
      }
    }
    switch (kind) {
    case ReductionKind::Add:
      current += update;
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
};

/// Complex elements: componentwise add; the textbook product, which is what
/// the lowering computes for finite operands (it recovers infinities and
/// NaNs in ways not reproduced here, so such products are not folded).
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
    case ReductionKind::Mul:
      if (!a.isFinite() || !b.isFinite() || !c.isFinite() || !d.isFinite())
        return false;
      current = ValueType(a * c - b * d, a * d + b * c);
      return true;
    default:
      return false;
    }
  }
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
} // namespace

/// For each index tuple of an ND op (row-major over `indices.shape[:-1]`),
/// the row-major position in data of the first element of the slice it
/// addresses, or nullopt where a component is out of range. Shapes are
/// static.
static SmallVector<std::optional<int64_t>>
getTupleOffsets(ArrayRef<int64_t> dataShape, ArrayRef<int64_t> indicesShape,
                ArrayRef<int64_t> values, int64_t batchDims) {
  int64_t k = indicesShape.back();
  SmallVector<int64_t> strides = getStrides(dataShape);
  SmallVector<std::optional<int64_t>> offsets;
  forEachPosition(
      indicesShape.drop_back(), [&](int64_t tuple, ArrayRef<int64_t> position) {
        int64_t offset = 0;
        for (int64_t d = 0; d < batchDims; ++d)
          offset += position[d] * strides[d];
        for (int64_t j = 0; j < k; ++j) {
          std::optional<int64_t> index =
              normalizeIndex(values[tuple * k + j], dataShape[batchDims + j]);
          if (!index) {
            offsets.push_back(std::nullopt);
            return;
          }
          offset += *index * strides[batchDims + j];
        }
        offsets.push_back(offset);
      });
  return offsets;
}

/// For each element of the `indices` of an Elements op (row-major), the
/// row-major position in data of the element it addresses along `axis`, or
/// nullopt where the value is out of range. Shapes are static.
static SmallVector<std::optional<int64_t>>
getElementOffsets(ArrayRef<int64_t> dataShape, ArrayRef<int64_t> indicesShape,
                  ArrayRef<int64_t> values, int64_t axis) {
  SmallVector<int64_t> strides = getStrides(dataShape);
  SmallVector<std::optional<int64_t>> offsets;
  forEachPosition(indicesShape, [&](int64_t flat, ArrayRef<int64_t> position) {
    std::optional<int64_t> index =
        normalizeIndex(values[flat], dataShape[axis]);
    if (!index) {
      offsets.push_back(std::nullopt);
      return;
    }
    int64_t offset = 0;
    for (auto [d, p] : llvm::enumerate(position))
      offset += (static_cast<int64_t>(d) == axis ? *index : p) * strides[d];
    offsets.push_back(offset);
  });
  return offsets;
}

/// Whether every offset is known (every index value is in range).
static bool allInRange(ArrayRef<std::optional<int64_t>> offsets) {
  return llvm::all_of(
      offsets, [](const std::optional<int64_t> &o) { return o.has_value(); });
}

/// The data position each result element of a gather reads, from the
/// offsets of its index entries (tuples or elements), each entry reading
/// `sliceSize` consecutive elements. All offsets are known.
static SmallVector<int64_t>
getGatherSources(ArrayRef<std::optional<int64_t>> offsets, int64_t sliceSize) {
  SmallVector<int64_t> sources;
  sources.reserve(offsets.size() * sliceSize);
  for (const std::optional<int64_t> &offset : offsets)
    for (int64_t s = 0; s < sliceSize; ++s)
      sources.push_back(*offset + s);
  return sources;
}

/// The element writes of a scatter in row-major order of its index entries
/// (tuples or elements), each writing `sliceSize` consecutive elements of
/// `updates`. Entries without an offset write nothing.
static SmallVector<Write>
getScatterWrites(ArrayRef<std::optional<int64_t>> offsets, int64_t sliceSize) {
  SmallVector<Write> writes;
  for (auto [entry, offset] : llvm::enumerate(offsets)) {
    if (!offset)
      continue;
    for (int64_t s = 0; s < sliceSize; ++s)
      writes.push_back(
          {*offset + s, static_cast<int64_t>(entry) * sliceSize + s});
  }
  return writes;
}

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

/// `result[i] = data[sources[i]]`.
static DenseElementsAttr evaluateGather(DenseElementsAttr data,
                                        ArrayRef<int64_t> sources,
                                        RankedTensorType resultType) {
  return withElements(data.getElementType(), [&](auto elements) {
    using T = typename decltype(elements)::ValueType;
    auto values = data.getValues<T>();
    SmallVector<T> result;
    result.reserve(sources.size());
    for (int64_t source : sources)
      result.push_back(values[source]);
    return DenseElementsAttr::get(resultType, ArrayRef<T>(result));
  });
}

/// A copy of `data` with the `writes` applied in order under `reduction`;
/// null where an element cannot be folded exactly.
static DenseElementsAttr evaluateScatter(DenseElementsAttr data,
                                         DenseElementsAttr updates,
                                         ArrayRef<Write> writes,
                                         ReductionKind reduction) {
  return withElements(
      data.getElementType(), [&](auto elements) -> DenseElementsAttr {
        using T = typename decltype(elements)::ValueType;
        auto dataValues = data.getValues<T>();
        SmallVector<T> result(dataValues.begin(), dataValues.end());
        auto updateValues = updates.getValues<T>();
        for (const Write &write : writes) {
          T update = updateValues[write.source];
          if (reduction == ReductionKind::None)
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
  ArrayRef<int64_t> dataShape = op.getData().getType().getShape();
  ArrayRef<int64_t> indicesShape = op.getIndices().getType().getShape();
  ArrayRef<int64_t> updatesShape = op.getUpdates().getType().getShape();
  int64_t r = dataShape.size(), q = indicesShape.size();
  int64_t k = op.getIndexDepth();
  if (ShapedType::isDynamic(k))
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
  RankedTensorType dataType = op.getData().getType();
  RankedTensorType indicesType = op.getIndices().getType();
  auto batchDims = static_cast<int64_t>(op.getBatchDims());
  if (ShapedType::isDynamic(op.getIndexDepth()))
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
  ArrayRef<int64_t> dataShape = op.getData().getType().getShape();
  ArrayRef<int64_t> indicesShape = op.getIndices().getType().getShape();
  ArrayRef<int64_t> updatesShape = op.getUpdates().getType().getShape();
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
  RankedTensorType dataType = op.getData().getType();
  RankedTensorType indicesType = op.getIndices().getType();
  int64_t axis = op.getNormalizedAxis();
  for (auto [d, data, indices] :
       llvm::enumerate(dataType.getShape(), indicesType.getShape()))
    if (static_cast<int64_t>(d) != axis && !boundIsStatic(indices, data))
      return false;
  auto inferred =
      RankedTensorType::get(indicesType.getShape(), dataType.getElementType());
  return refinesNothing(op.getResult().getType(), inferred);
}

//===----------------------------------------------------------------------===//
// What each op reads and writes
//===----------------------------------------------------------------------===//

namespace {
/// What the folders need of an op with constant indices: the offset of each
/// index entry in data (nullopt where out of range), and how many
/// consecutive elements each entry reads or writes.
struct IndexEntries {
  SmallVector<std::optional<int64_t>> offsets;
  int64_t sliceSize;
};
} // namespace

/// Whether `type` has a static dim of size 0.
static bool hasZeroDim(ArrayRef<int64_t> shape) {
  return llvm::is_contained(shape, 0);
}

/// The index entries of an ND op with static data and indices shapes.
static std::optional<IndexEntries> getNDEntries(RankedTensorType dataType,
                                                RankedTensorType indicesType,
                                                ArrayRef<int64_t> values,
                                                int64_t batchDims) {
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape())
    return std::nullopt;
  int64_t k = indicesType.getShape().back();
  return IndexEntries{getTupleOffsets(dataType.getShape(),
                                      indicesType.getShape(), values,
                                      batchDims),
                      ShapedType::getNumElements(
                          dataType.getShape().drop_front(batchDims + k))};
}

/// The index entries of an Elements op with static data and indices shapes.
static std::optional<IndexEntries>
getElementsEntries(RankedTensorType dataType, RankedTensorType indicesType,
                   ArrayRef<int64_t> values, int64_t axis) {
  if (!dataType.hasStaticShape() || !indicesType.hasStaticShape())
    return std::nullopt;
  return IndexEntries{getElementOffsets(dataType.getShape(),
                                        indicesType.getShape(), values, axis),
                      1};
}

static std::optional<IndexEntries> getEntries(ScatterNDOp op,
                                              ArrayRef<int64_t> values) {
  return getNDEntries(op.getData().getType(), op.getIndices().getType(), values,
                      /*batchDims=*/0);
}

static std::optional<IndexEntries> getEntries(GatherNDOp op,
                                              ArrayRef<int64_t> values) {
  return getNDEntries(op.getData().getType(), op.getIndices().getType(), values,
                      static_cast<int64_t>(op.getBatchDims()));
}

static std::optional<IndexEntries> getEntries(ScatterElementsOp op,
                                              ArrayRef<int64_t> values) {
  return getElementsEntries(op.getData().getType(), op.getIndices().getType(),
                            values, op.getNormalizedAxis());
}

static std::optional<IndexEntries> getEntries(GatherElementsOp op,
                                              ArrayRef<int64_t> values) {
  return getElementsEntries(op.getData().getType(), op.getIndices().getType(),
                            values, op.getNormalizedAxis());
}

/// Whether the op has no index value at all (an index entry count of 0).
static bool hasNoIndexValues(ScatterNDOp op) {
  return hasZeroDim(op.getIndices().getType().getShape().drop_back());
}
static bool hasNoIndexValues(GatherNDOp op) {
  return hasZeroDim(op.getIndices().getType().getShape().drop_back());
}
static bool hasNoIndexValues(ScatterElementsOp op) {
  return hasZeroDim(op.getIndices().getType().getShape());
}
static bool hasNoIndexValues(GatherElementsOp op) {
  return hasZeroDim(op.getIndices().getType().getShape());
}

/// The index entries of `op` when its indices are constant; nullopt when
/// they are not, or when shapes are not static.
template <typename OpTy>
static std::optional<IndexEntries> getConstantEntries(OpTy op) {
  std::optional<SmallVector<int64_t>> values =
      matchConstantIndices(op.getIndices(), kMaxVerifiedIndices);
  if (!values)
    return std::nullopt;
  return getEntries(op, *values);
}

/// Whether the run-time index check of `op` can no longer fail: there is no
/// index value, or every one is a constant in range.
template <typename OpTy>
static bool indicesAreSafe(OpTy op,
                           const std::optional<IndexEntries> &entries) {
  return hasNoIndexValues(op) || (entries && allInRange(entries->offsets));
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
  // Every element read is in range: a splat reads its value everywhere.
  if (data.isSplat())
    return data.resizeSplat(resultType);
  if (!entries || resultType.getNumElements() > kMaxFoldedElements)
    return {};
  return evaluateGather(
      data, getGatherSources(entries->offsets, entries->sliceSize), resultType);
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
  RankedTensorType updatesType = op.getUpdates().getType();
  if (hasZeroDim(updatesType.getShape()))
    return op.getData();

  auto data = dyn_cast_if_present<DenseElementsAttr>(dataAttr);
  auto updates = dyn_cast_if_present<DenseElementsAttr>(updatesAttr);
  ReductionKind reduction = op.getReduction();
  // Every write stores the value already in place.
  if (isSameSplat(data, updates) &&
      (reduction == ReductionKind::None || reduction == ReductionKind::Max ||
       reduction == ReductionKind::Min))
    return op.getData();

  RankedTensorType dataType = op.getData().getType();
  if (!data || !updates || !entries || !dataType.hasStaticShape() ||
      !updatesType.hasStaticShape() ||
      dataType.getNumElements() > kMaxFoldedElements ||
      updatesType.getNumElements() > kMaxFoldedElements)
    return {};
  SmallVector<Write> writes =
      getScatterWrites(entries->offsets, entries->sliceSize);
  // Duplicates under reduction none are left to the canonicalization, which
  // warns about them.
  if (reduction == ReductionKind::None && hasDuplicateTargets(writes))
    return {};
  return evaluateScatter(data, updates, writes, reduction);
}

OpFoldResult ScatterNDOp::fold(FoldAdaptor adaptor) {
  return foldScatter(*this, adaptor.getData(), adaptor.getUpdates());
}

OpFoldResult GatherNDOp::fold(FoldAdaptor adaptor) {
  return foldGather(*this, adaptor.getData());
}

OpFoldResult ScatterElementsOp::fold(FoldAdaptor adaptor) {
  return foldScatter(*this, adaptor.getData(), adaptor.getUpdates());
}

OpFoldResult GatherElementsOp::fold(FoldAdaptor adaptor) {
  return foldGather(*this, adaptor.getData());
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
    int64_t sliceSize =
        ShapedType::getNumElements(updatesType.getShape().drop_front(depth));
    SmallVector<std::optional<int64_t>> offsets;
    for (int64_t entry : kept)
      offsets.push_back(entry * sliceSize);
    DenseElementsAttr slices = evaluateGather(
        constant, getGatherSources(offsets, sliceSize), resultType);
    return arith::ConstantOp::create(rewriter, loc, resultType, slices);
  }

  SmallVector<int64_t> positions;
  for (int64_t entry : kept)
    llvm::append_range(positions, delinearize(entry, entryShape));
  Value indices = createIndexConstant(rewriter, loc, positions,
                                      static_cast<int64_t>(kept.size()), depth);
  return GatherNDOp::create(rewriter, loc, resultType, updates, indices,
                            rewriter.getI64IntegerAttr(0));
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

namespace {
/// scatter_nd with constant indices holding duplicate tuples under
/// reduction none: only the last tuple of each group writes anything that
/// survives. The other tuples and their update slices are dropped (the
/// updates are gathered, constant-folded where constant), with a warning.
struct DropOverwrittenSlices : public OpRewritePattern<ScatterNDOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterNDOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getReduction() != ReductionKind::None || !hasStaticShapeRules(op))
      return rewriter.notifyMatchFailure(op, "not a plain scatter");
    std::optional<SmallVector<int64_t>> values =
        matchConstantIndices(op.getIndices(), kMaxVerifiedIndices);
    if (!values)
      return rewriter.notifyMatchFailure(op, "indices are not constant");
    std::optional<IndexEntries> entries = getEntries(op, *values);
    if (!entries || entries->sliceSize == 0 || !allInRange(entries->offsets))
      return rewriter.notifyMatchFailure(op, "no slice is written");
    SmallVector<std::pair<int64_t, int64_t>> overwritten =
        getOverwrittenEntries(entries->offsets);
    if (overwritten.empty())
      return rewriter.notifyMatchFailure(op, "no duplicate tuple");

    RankedTensorType indicesType = op.getIndices().getType();
    ArrayRef<int64_t> tupleShape = indicesType.getShape().drop_back();
    warnAboutDuplicates(op, "index tuples", tupleShape, overwritten);
    SmallVector<int64_t> kept = getKeptEntries(entries->offsets, overwritten);

    Location loc = op.getLoc();
    int64_t k = op.getIndexDepth();
    SmallVector<int64_t> keptValues;
    for (int64_t entry : kept)
      llvm::append_range(keptValues,
                         ArrayRef<int64_t>(*values).slice(entry * k, k));
    auto keptType = RankedTensorType::get(
        {static_cast<int64_t>(kept.size()), k}, indicesType.getElementType());
    SmallVector<APInt> keptBits;
    unsigned width = indicesType.getElementType().isIndex()
                         ? IndexType::kInternalStorageBitWidth
                         : indicesType.getElementType().getIntOrFloatBitWidth();
    for (int64_t value : keptValues)
      keptBits.push_back(APInt(width, value, /*isSigned=*/true));
    Value indices = arith::ConstantOp::create(
        rewriter, loc, keptType, DenseElementsAttr::get(keptType, keptBits));
    Value updates =
        gatherKeptUpdates(rewriter, loc, op.getUpdates(), tupleShape, kept);
    rewriter.replaceOpWithNewOp<ScatterNDOp>(op, op.getType(), op.getData(),
                                             indices, updates,
                                             op.getReductionAttr());
    return success();
  }
};

/// scatter_elements with constant indices holding duplicates under
/// reduction none, all shapes static: the surviving writes become a
/// scatter_nd of whole-coordinate tuples without duplicates (the updates
/// gathered, constant-folded where constant), with a warning.
struct DropOverwrittenElements : public OpRewritePattern<ScatterElementsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ScatterElementsOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType dataType = op.getData().getType();
    RankedTensorType indicesType = op.getIndices().getType();
    if (op.getReduction() != ReductionKind::None ||
        !dataType.hasStaticShape() ||
        !op.getUpdates().getType().hasStaticShape() || !hasStaticShapeRules(op))
      return rewriter.notifyMatchFailure(op, "not a static plain scatter");
    std::optional<IndexEntries> entries = getConstantEntries(op);
    if (!entries || !allInRange(entries->offsets))
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
        op, op.getType(), op.getData(), indices, updates,
        ReductionKindAttr::get(op.getContext(), ReductionKind::None));
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

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

Operation *NdDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                          Type type, Location loc) {
  if (!arith::ConstantOp::isBuildableWith(value, type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, cast<TypedAttr>(value));
}
