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
// Each op is read through its model: its shape constraints decide whether
// every shape rule is static, its row addressing where constant indices read
// and write (NdRowAddressing.h); element values combine by nd's element
// semantics on constants (nd/Dialect/Nd/Utils/ElementSemantics.h).
// A canonicalization removes the updates that constant duplicate indices
// make dead under reduction none, and warns about the duplicates as it does:
// the warning is emitted once, by the rewrite that removes its cause.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include "NdIndexing.h"

#include "nd/Dialect/Nd/Utils/ElementSemantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::indexing;

//===----------------------------------------------------------------------===//
// Constant values
//===----------------------------------------------------------------------===//

/// Both constants are splats of the same value (bit for bit).
static bool isSameSplat(DenseElementsAttr a, DenseElementsAttr b) {
  if (!a || !b || !a.isSplat() || !b.isSplat())
    return false;
  return withConstantElements(a.getElementType(), [&](auto elements) {
    using T = typename decltype(elements)::ValueType;
    return elements.equal(a.getSplatValue<T>(), b.getSplatValue<T>());
  });
}

/// A splat of zero bits (what a gather reads for an index skipped).
static bool isZeroSplat(DenseElementsAttr attr) {
  if (!attr.isSplat())
    return false;
  return withConstantElements(attr.getElementType(), [&](auto elements) {
    using T = typename decltype(elements)::ValueType;
    return elements.equal(attr.getSplatValue<T>(), elements.zero());
  });
}

/// An empty constant of the static type `type`.
static DenseElementsAttr getEmptyConstant(RankedTensorType type) {
  return withConstantElements(type.getElementType(), [&](auto elements) {
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
/// how many consecutive elements each entry reads or writes: the op's rows
/// (evaluateRows of its row addressing).
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
  return withConstantElements(data.getElementType(), [&](auto elements) {
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
  return withConstantElements(
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

/// Whether the verifier decided every shape rule of `op`: no constraint of
/// its model is left to a run-time check (a result dim the result type leaves
/// dynamic is what inference makes it).
static bool hasStaticShapeRules(IterationSpaceOpInterface op) {
  SmallVector<ArrayRef<int64_t>> shapes = getValueShapes(op);
  return llvm::all_of(op.getShapeConstraints(), [&](const ShapeConstraint &c) {
    auto [lhs, rhs] = getConstraintSizes(c, shapes);
    return c.isDecidedStatically(lhs, rhs);
  });
}

//===----------------------------------------------------------------------===//
// What each op reads and writes
//===----------------------------------------------------------------------===//

/// Whether `shape` has a static dim of size 0.
static bool hasZeroDim(ArrayRef<int64_t> shape) {
  return llvm::is_contained(shape, 0);
}

/// The index entries of `op` for the index values `values` (its rows, see
/// IndexEntries); nullopt unless the shapes they depend on are static.
static std::optional<IndexEntries> getEntries(IterationSpaceOpInterface op,
                                              ArrayRef<int64_t> values) {
  std::optional<ConstantRows> rows =
      evaluateRows(op.getRowAddressing(), getValueShapes(op), values);
  if (!rows)
    return std::nullopt;
  IndexEntries entries;
  entries.sliceSize = rows->rowLength;
  for (const std::optional<int64_t> &row : rows->dataRows)
    entries.offsets.push_back(
        row ? std::optional<int64_t>(*row * rows->rowLength) : std::nullopt);
  return entries;
}

/// Whether the op has no index value at all: no index operand (a
/// tensor_scatter without write indices starts every write at 0, which the
/// shape rules already place in range), or one with a zero dim other than
/// the index components.
static bool hasNoIndexValues(IterationSpaceOpInterface op,
                             const RowAddressing &rows) {
  if (!rows.indices)
    return true;
  ArrayRef<int64_t> shape =
      cast<ShapedType>(op->getOperand(*rows.indices).getType()).getShape();
  for (auto [size, address] : llvm::zip_equal(shape, rows.indexDims))
    if (address.kind != AddressKind::Component && size == 0)
      return true;
  return false;
}

/// The index values of `op` when they are constant; the write indices of a
/// tensor_scatter without them are zeros.
static std::optional<SmallVector<int64_t>>
getConstantIndexValues(IterationSpaceOpInterface op,
                       const RowAddressing &rows) {
  if (rows.indices)
    return matchConstantIndices(op->getOperand(*rows.indices),
                                kMaxVerifiedIndices);
  int64_t batch = cast<ShapedType>(op->getOperand(0).getType()).getDimSize(0);
  if (ShapedType::isDynamic(batch))
    return std::nullopt;
  return SmallVector<int64_t>(batch, 0);
}

/// The index entries of `op` when its indices are constant; nullopt when
/// they are not, or when shapes are not static.
static std::optional<IndexEntries>
getConstantEntries(IterationSpaceOpInterface op) {
  std::optional<SmallVector<int64_t>> values =
      getConstantIndexValues(op, op.getRowAddressing());
  if (!values)
    return std::nullopt;
  return getEntries(op, *values);
}

/// Whether the run-time index check of `op` can no longer fail: there is no
/// index value, no value is an error (`oob` skip or clamp), or every one is
/// a constant in range.
static bool indicesAreSafe(IterationSpaceOpInterface op,
                           const std::optional<IndexEntries> &entries) {
  return hasNoIndexValues(op, op.getRowAddressing()) ||
         op.getOobMode() != OobMode::Error ||
         (entries && allInRange(entries->offsets));
}

/// Whether every index of a gather with unknown index values reads data:
/// under `clamp`, unless a dim it addresses may be empty.
static bool alwaysReadsData(IterationSpaceOpInterface op) {
  RowAddressing rows = op.getRowAddressing();
  if (rows.oob != OobMode::Clamp)
    return false;
  ArrayRef<int64_t> dataShape =
      cast<ShapedType>(op->getOperand(rows.data).getType()).getShape();
  for (auto [size, address] : llvm::zip(dataShape, rows.dataDims))
    if (address.kind == AddressKind::Index &&
        (ShapedType::isDynamic(size) || size == 0))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

/// Folds a gather (see the file comment). `dataAttr` is the constant value
/// of `data`, if any.
static OpFoldResult foldGather(IterationSpaceOpInterface op,
                               Attribute dataAttr) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
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
  bool readsData =
      entries ? allInRange(entries->offsets)
              : (op.getOobMode() == OobMode::Error || alwaysReadsData(op));
  if (data.isSplat() && data.getNumElements() > 0 &&
      (readsData || isZeroSplat(data)))
    return data.resizeSplat(resultType);
  if (!entries || resultType.getNumElements() > kMaxFoldedElements)
    return {};
  return evaluateGather(data, getGatherSources(*entries), resultType);
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
static OpFoldResult foldScatter(IterationSpaceOpInterface op,
                                Attribute dataAttr, Attribute updatesAttr) {
  if (!hasStaticShapeRules(op))
    return {};
  std::optional<IndexEntries> entries = getConstantEntries(op);
  if (!indicesAreSafe(op, entries))
    return {};
  // The value index values address and the one the rows come from.
  RowAddressing parts = op.getRowAddressing();
  Value dataValue = op->getOperand(parts.data);
  auto updatesType =
      cast<RankedTensorType>(op->getOperand(parts.rows).getType());
  if (hasZeroDim(updatesType.getShape()))
    return dataValue;

  auto data = dyn_cast_if_present<DenseElementsAttr>(dataAttr);
  auto updates = dyn_cast_if_present<DenseElementsAttr>(updatesAttr);
  // Every write stores the value already in place.
  if (isSameSplat(data, updates) && (parts.reduction == ReductionKind::None ||
                                     parts.reduction == ReductionKind::Max ||
                                     parts.reduction == ReductionKind::Min))
    return dataValue;

  auto dataType = cast<RankedTensorType>(dataValue.getType());
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
          getConstantIndexValues(*this, getRowAddressing());
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
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
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
        !verifiesQuietly(op) || !hasStaticShapeRules(op))
      return rewriter.notifyMatchFailure(op, "not a plain scatter");
    std::optional<SmallVector<int64_t>> values =
        getConstantIndexValues(op, op.getRowAddressing());
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
        !getTensorType(op.getUpdates().getType()).hasStaticShape() ||
        !hasStaticShapeRules(op))
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
