//===- NdOps.cpp - nd dialect ops -------------------------------*- C++ -*-===//
//
// Verifiers, type inference and shape reification of the nd ops. The shape
// rules of the ND pair (scatter_nd, gather_nd) live in one helper, those of the
// Elements pair (scatter_elements, gather_elements) in another, and the check
// of a gather's declared result type in a third, so that the sibling ops
// cannot drift apart. Rules are enforced where the dimensions involved are
// static; dynamic dimensions are checked at run time by the lowering.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdOps.h"

#include "NdIndexing.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

#include <string>

using namespace mlir;
using namespace mlir::nd;

using EmitErrorFn = function_ref<InFlightDiagnostic()>;

/// Both static and different: a mismatch the verifier can prove.
static bool staticallyDiffer(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

/// Returns an error emitter that produces op-style diagnostics ("'nd.x' op
/// ...") at `location`, or one that reports nothing when there is no location.
static std::function<InFlightDiagnostic()>
makeEmitter(std::optional<Location> location, StringRef opName) {
  if (!location)
    return [] { return InFlightDiagnostic(); };
  Location loc = *location;
  std::string name = opName.str();
  return [loc, name] { return emitError(loc) << "'" << name << "' op "; };
}

//===----------------------------------------------------------------------===//
// Index values known at compile time
//===----------------------------------------------------------------------===//

std::optional<SmallVector<int64_t>>
indexing::matchConstantIndices(Value indices, int64_t limit) {
  DenseIntElementsAttr attr;
  if (!matchPattern(indices, m_Constant(&attr)) ||
      attr.getType() != indices.getType() || attr.getNumElements() > limit)
    return std::nullopt;
  SmallVector<int64_t> values;
  if (attr.isSplat()) {
    values.assign(attr.getNumElements(),
                  attr.getSplatValue<APInt>().getSExtValue());
    return values;
  }
  values.reserve(attr.getNumElements());
  for (const APInt &value : attr.getValues<APInt>())
    values.push_back(value.getSExtValue());
  return values;
}

SmallVector<int64_t> indexing::getStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

SmallVector<int64_t> indexing::delinearize(int64_t flat,
                                           ArrayRef<int64_t> shape) {
  SmallVector<int64_t> position(shape.size(), 0);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] == 0)
      continue;
    position[d] = flat % shape[d];
    flat /= shape[d];
  }
  return position;
}

void indexing::forEachPosition(
    ArrayRef<int64_t> shape,
    function_ref<void(int64_t, ArrayRef<int64_t>)> fn) {
  int64_t count = ShapedType::getNumElements(shape);
  SmallVector<int64_t> position(shape.size(), 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    fn(flat, position);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++position[d] < shape[d])
        break;
      position[d] = 0;
    }
  }
}

/// The compile-time index check: where `indices` is a constant, each value
/// must lie in `[-d, d-1]` for the size `d` of the data dim it addresses,
/// `dimOf(position)` being that dim for the element at `position` in
/// `indices`. A value out of range would stop the program at run time;
/// known now, it is reported now, with its position. Dims that are dynamic
/// are left to the run-time check.
static LogicalResult
verifyConstantIndices(Operation *op, Value indices, ArrayRef<int64_t> dataShape,
                      function_ref<int64_t(ArrayRef<int64_t>)> dimOf) {
  std::optional<SmallVector<int64_t>> values =
      indexing::matchConstantIndices(indices, indexing::kMaxVerifiedIndices);
  if (!values)
    return success();
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(indices.getType()).getShape();
  LogicalResult result = success();
  indexing::forEachPosition(shape, [&](int64_t flat,
                                       ArrayRef<int64_t> position) {
    if (failed(result))
      return;
    int64_t dim = dimOf(position);
    int64_t size = dataShape[dim];
    int64_t value = (*values)[flat];
    if (ShapedType::isDynamic(size) || indexing::normalizeIndex(value, size))
      return;
    InFlightDiagnostic diag = op->emitOpError()
                              << "index " << value << " at position [";
    llvm::interleaveComma(position, diag);
    diag << "] of operand 'indices' is out of range for dim " << dim
         << " of operand 'data' (size " << size << ")";
    result = failure();
  });
  return result;
}

//===----------------------------------------------------------------------===//
// Shared rules of the ND pair
//===----------------------------------------------------------------------===//

/// Checks the rules that scatter_nd and gather_nd share (rank of data and
/// indices, batch dims, index depth k) and returns the shape of the gathered
/// or scattered slices: `indices.shape[:-1] ++ data.shape[b+k:]`.
static FailureOr<SmallVector<int64_t>>
verifyNDIndexing(EmitErrorFn emitError, RankedTensorType dataType,
                 RankedTensorType indicesType, int64_t batchDims) {
  int64_t r = dataType.getRank();
  int64_t q = indicesType.getRank();
  if (r < 1)
    return emitError() << "operand 'data' must have rank >= 1, got rank " << r;
  if (q < 1)
    return emitError() << "operand 'indices' must have rank >= 1, got rank "
                       << q;
  int64_t minRank = std::min(q, r);
  if (batchDims < 0 || batchDims >= minRank)
    return emitError() << "batch_dims must be in [0, " << minRank
                       << ") (min(rank(data), rank(indices))), got "
                       << batchDims;

  ArrayRef<int64_t> dataShape = dataType.getShape();
  ArrayRef<int64_t> indicesShape = indicesType.getShape();
  for (int64_t d = 0; d < batchDims; ++d) {
    if (staticallyDiffer(dataShape[d], indicesShape[d]))
      return emitError() << "operand 'indices' batch dim " << d
                         << " must match operand 'data' dim " << d
                         << ": expected " << dataShape[d] << ", got "
                         << indicesShape[d];
  }

  int64_t k = indicesShape.back();
  if (ShapedType::isDynamic(k))
    return emitError() << "operand 'indices' last dim (the index depth k) "
                          "must be static";
  if (k < 1 || k > r - batchDims)
    return emitError() << "operand 'indices' last dim (the index depth k) "
                          "must be in [1, "
                       << r - batchDims << "] ("
                       << (batchDims == 0 ? "rank(data)"
                                          : "rank(data) - batch_dims")
                       << "), got " << k;

  SmallVector<int64_t> sliceShape(indicesShape.drop_back());
  // The batch dims of data and indices are equal: where indices leaves one
  // dynamic, the size in data is the more precise answer.
  for (int64_t d = 0; d < batchDims; ++d) {
    if (ShapedType::isDynamic(sliceShape[d]))
      sliceShape[d] = dataShape[d];
  }
  llvm::append_range(sliceShape, dataShape.drop_front(batchDims + k));
  return sliceShape;
}

//===----------------------------------------------------------------------===//
// Shared rules of the Elements pair
//===----------------------------------------------------------------------===//

/// Checks `shape[d] <= data.shape[d]` for every dim `d` off the axis where
/// both are static. `what` names the tensor of shape `shape` (an operand, or
/// the result): indices, updates and the result of a gather share the shape.
static LogicalResult verifyWithinDataOffAxis(EmitErrorFn emitError,
                                             StringRef what,
                                             ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> dataShape,
                                             int64_t normalizedAxis) {
  for (auto [d, got, bound] : llvm::enumerate(shape, dataShape)) {
    if (static_cast<int64_t>(d) == normalizedAxis ||
        ShapedType::isDynamic(got) || ShapedType::isDynamic(bound))
      continue;
    if (got > bound)
      return emitError() << what << " dim " << d
                         << " must not exceed operand 'data' dim " << d
                         << " (off the axis): expected at most " << bound
                         << ", got " << got;
  }
  return success();
}

/// Checks the rules that scatter_elements and gather_elements share: equal
/// ranks, the axis range and `indices.shape[d] <= data.shape[d]` off the axis.
static LogicalResult verifyElementsIndexing(EmitErrorFn emitError,
                                            RankedTensorType dataType,
                                            RankedTensorType indicesType,
                                            int64_t axis) {
  int64_t r = dataType.getRank();
  if (r < 1)
    return emitError() << "operand 'data' must have rank >= 1, got rank " << r;
  if (indicesType.getRank() != r)
    return emitError() << "operand 'indices' must have the rank of operand "
                          "'data': expected "
                       << r << ", got " << indicesType.getRank();
  if (axis < -r || axis >= r)
    return emitError() << "axis must be in [" << -r << ", " << r - 1
                       << "], got " << axis;
  int64_t normalizedAxis = axis < 0 ? axis + r : axis;
  return verifyWithinDataOffAxis(emitError, "operand 'indices'",
                                 indicesType.getShape(), dataType.getShape(),
                                 normalizedAxis);
}

//===----------------------------------------------------------------------===//
// Shared rules of the scatter pair
//===----------------------------------------------------------------------===//

/// max and min need an order: they are not defined on complex numbers.
static LogicalResult verifyReduction(Operation *op, ReductionKind reduction,
                                     Type elementType) {
  bool ordered =
      reduction == ReductionKind::Max || reduction == ReductionKind::Min;
  if (ordered && isa<ComplexType>(elementType))
    return op->emitOpError()
           << "reduction '" << stringifyReductionKind(reduction)
           << "' is not defined for element type " << elementType;
  return success();
}

/// Dims of the result of a scatter: those of `data`.
static LogicalResult reifyLikeData(OpBuilder &builder, Operation *op,
                                   Value data,
                                   ReifiedRankedShapedTypeDims &shapes) {
  shapes.push_back(tensor::getMixedSizes(builder, op->getLoc(), data));
  return success();
}

//===----------------------------------------------------------------------===//
// Shared rules of the gather pair
//===----------------------------------------------------------------------===//

namespace {
/// The operand dim a dim of a gather's result equals: dim `dim` of `value`,
/// the operand called `name`.
struct DimSource {
  Value value;
  StringLiteral name;
  int64_t dim;
};
} // namespace

/// Dims of the result of a gather: static where the result type is, otherwise
/// taken from the operand dims in `sources`.
static LogicalResult reifyFromSources(OpBuilder &builder, Operation *op,
                                      ArrayRef<DimSource> sources,
                                      ReifiedRankedShapedTypeDims &shapes) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpFoldResult> dims;
  for (auto [i, source] : llvm::enumerate(sources)) {
    int64_t size = resultType.getDimSize(i);
    if (!ShapedType::isDynamic(size)) {
      dims.push_back(builder.getIndexAttr(size));
      continue;
    }
    dims.push_back(
        tensor::getMixedSize(builder, op->getLoc(), source.value, source.dim));
  }
  shapes.push_back(std::move(dims));
  return success();
}

/// Checks the declared result type of a gather against the `inferred` one:
/// the same element type and rank, and equal dims where both are static (a
/// result dim may be static where the inferred one is not). Checking here,
/// before the type-inference trait does, names the dim at fault; `sources`
/// says which operand dim each result dim comes from, `rankRule` how the
/// rank is formed.
static LogicalResult verifyGatherResult(Operation *op,
                                        RankedTensorType inferred,
                                        ArrayRef<DimSource> sources,
                                        StringRef rankRule) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (resultType.getElementType() != inferred.getElementType())
    return op->emitOpError()
           << "result element type must match operand 'data' element type: "
              "expected "
           << inferred.getElementType() << ", got "
           << resultType.getElementType();
  if (resultType.getRank() != inferred.getRank())
    return op->emitOpError()
           << "result must have rank " << inferred.getRank() << " (" << rankRule
           << "), got " << resultType.getRank();
  for (auto [d, want, got] :
       llvm::enumerate(inferred.getShape(), resultType.getShape())) {
    if (!staticallyDiffer(want, got))
      continue;
    const DimSource &source = sources[d];
    return op->emitOpError() << "result dim " << d << " must match operand '"
                             << source.name << "' dim " << source.dim
                             << ": expected " << want << ", got " << got;
  }
  return success();
}

/// InferTypeOpInterface of a gather: `OpTy::inferResultType` on operands
/// that may not have been verified yet, reporting at `location` as the op
/// would. `attr` is batch_dims or axis.
template <typename OpTy>
static LogicalResult
inferGatherReturnType(std::optional<Location> location, Value data,
                      Value indices, int64_t attr,
                      SmallVectorImpl<Type> &inferredReturnTypes) {
  auto emitError = makeEmitter(location, OpTy::getOperationName());
  auto dataType = dyn_cast<RankedTensorType>(data.getType());
  auto indicesType = dyn_cast<RankedTensorType>(indices.getType());
  if (!dataType || !indicesType)
    return emitError()
           << "operands 'data' and 'indices' must be ranked tensors";
  FailureOr<RankedTensorType> resultType =
      OpTy::inferResultType(dataType, indicesType, attr, emitError);
  if (failed(resultType))
    return failure();
  inferredReturnTypes.push_back(*resultType);
  return success();
}

/// Result types of the gathers may refine the inferred one (static where the
/// inferred type is dynamic) but must agree with it on every static dim.
static bool areCompatibleTensorTypes(TypeRange inferred, TypeRange actual) {
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto lhs = dyn_cast<RankedTensorType>(inferred.front());
  auto rhs = dyn_cast<RankedTensorType>(actual.front());
  return lhs && rhs && lhs.getElementType() == rhs.getElementType() &&
         succeeded(verifyCompatibleShape(lhs, rhs));
}

//===----------------------------------------------------------------------===//
// ScatterNDOp
//===----------------------------------------------------------------------===//

/// The rules of a scatter_nd past its shapes: the reduction and the values
/// of constant indices.
static LogicalResult verifyScatterNDValues(ScatterNDOp op) {
  RankedTensorType dataType = op.getData().getType();
  if (failed(verifyReduction(op, op.getReduction(), dataType.getElementType())))
    return failure();
  return verifyConstantIndices(
      op, op.getIndices(), dataType.getShape(),
      [](ArrayRef<int64_t> position) { return position.back(); });
}

LogicalResult ScatterNDOp::verify() {
  RankedTensorType dataType = getData().getType();
  RankedTensorType indicesType = getIndices().getType();
  RankedTensorType updatesType = getUpdates().getType();
  FailureOr<SmallVector<int64_t>> expected = verifyNDIndexing(
      [&] { return emitOpError(); }, dataType, indicesType, /*batchDims=*/0);
  if (failed(expected))
    return failure();

  ArrayRef<int64_t> updatesShape = updatesType.getShape();
  if (expected->empty()) {
    // OpenVINO ScatterNDUpdate: the one addressed slice is a single element,
    // and an update of any rank that statically holds one element fits it.
    // A dynamic dim is refused: the lowering relies on the count being known.
    if (!llvm::all_of(updatesShape, [](int64_t d) { return d == 1; }))
      return emitOpError()
             << "operand 'updates' must be 0-D or have every dim 1 (the single "
                "element addressed when rank(indices) == 1 and k == "
                "rank(data)), got "
             << updatesType;
    return verifyScatterNDValues(*this);
  }

  int64_t q = indicesType.getRank();
  int64_t k = getIndexDepth();
  if (updatesType.getRank() != static_cast<int64_t>(expected->size()))
    return emitOpError() << "operand 'updates' must have rank "
                         << expected->size()
                         << " (rank(indices) - 1 + rank(data) - k), got "
                         << updatesType.getRank();
  for (auto [d, want, got] :
       llvm::enumerate(ArrayRef<int64_t>(*expected), updatesShape)) {
    if (!staticallyDiffer(want, got))
      continue;
    int64_t dim = static_cast<int64_t>(d);
    InFlightDiagnostic diag = emitOpError() << "operand 'updates' dim " << dim
                                            << " must match ";
    if (dim < q - 1)
      diag << "operand 'indices' dim " << dim;
    else
      diag << "operand 'data' dim " << k + dim - (q - 1);
    return diag << ": expected " << want << ", got " << got;
  }
  return verifyScatterNDValues(*this);
}

LogicalResult
ScatterNDOp::reifyResultShapes(OpBuilder &builder,
                               ReifiedRankedShapedTypeDims &shapes) {
  return reifyLikeData(builder, *this, getData(), shapes);
}

//===----------------------------------------------------------------------===//
// GatherNDOp
//===----------------------------------------------------------------------===//

FailureOr<RankedTensorType>
GatherNDOp::inferResultType(RankedTensorType dataType,
                            RankedTensorType indicesType, int64_t batchDims,
                            EmitErrorFn emitError) {
  FailureOr<SmallVector<int64_t>> shape =
      verifyNDIndexing(emitError, dataType, indicesType, batchDims);
  if (failed(shape))
    return failure();
  return RankedTensorType::get(*shape, dataType.getElementType());
}

LogicalResult
GatherNDOp::inferReturnTypes(MLIRContext *context,
                             std::optional<Location> location, Adaptor adaptor,
                             SmallVectorImpl<Type> &inferredReturnTypes) {
  return inferGatherReturnType<GatherNDOp>(
      location, adaptor.getData(), adaptor.getIndices(),
      static_cast<int64_t>(adaptor.getBatchDims()), inferredReturnTypes);
}

bool GatherNDOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleTensorTypes(l, r);
}

/// The operand dim behind each result dim of a gather_nd with valid operands:
/// `indices.shape[:-1] ++ data.shape[b+k:]`, a batch dim taken from data
/// where only data knows its size.
static SmallVector<DimSource> getResultSources(GatherNDOp op) {
  ArrayRef<int64_t> dataShape = op.getData().getType().getShape();
  ArrayRef<int64_t> indicesShape = op.getIndices().getType().getShape();
  auto batchDims = static_cast<int64_t>(op.getBatchDims());
  SmallVector<DimSource> sources;
  for (int64_t d = 0, e = indicesShape.size() - 1; d < e; ++d) {
    if (d < batchDims && ShapedType::isDynamic(indicesShape[d]) &&
        !ShapedType::isDynamic(dataShape[d]))
      sources.push_back({op.getData(), "data", d});
    else
      sources.push_back({op.getIndices(), "indices", d});
  }
  for (int64_t d = batchDims + op.getIndexDepth(), e = dataShape.size(); d < e;
       ++d)
    sources.push_back({op.getData(), "data", d});
  return sources;
}

LogicalResult GatherNDOp::verify() {
  FailureOr<RankedTensorType> inferred = inferResultType(
      getData().getType(), getIndices().getType(),
      static_cast<int64_t>(getBatchDims()), [&] { return emitOpError(); });
  if (failed(inferred))
    return failure();
  if (failed(verifyGatherResult(
          *this, *inferred, getResultSources(*this),
          "rank(indices) - 1 + rank(data) - batch_dims - k")))
    return failure();
  auto batchDims = static_cast<int64_t>(getBatchDims());
  return verifyConstantIndices(
      *this, getIndices(), getData().getType().getShape(),
      [&](ArrayRef<int64_t> position) { return batchDims + position.back(); });
}

LogicalResult
GatherNDOp::reifyResultShapes(OpBuilder &builder,
                              ReifiedRankedShapedTypeDims &shapes) {
  return reifyFromSources(builder, *this, getResultSources(*this), shapes);
}

//===----------------------------------------------------------------------===//
// ScatterElementsOp
//===----------------------------------------------------------------------===//

LogicalResult ScatterElementsOp::verify() {
  RankedTensorType dataType = getData().getType();
  RankedTensorType indicesType = getIndices().getType();
  RankedTensorType updatesType = getUpdates().getType();
  if (failed(verifyElementsIndexing([&] { return emitOpError(); }, dataType,
                                    indicesType,
                                    static_cast<int64_t>(getAxis()))))
    return failure();
  if (updatesType.getRank() != indicesType.getRank())
    return emitOpError() << "operand 'updates' must have the rank of operand "
                            "'indices': expected "
                         << indicesType.getRank() << ", got "
                         << updatesType.getRank();
  for (auto [d, want, got] :
       llvm::enumerate(indicesType.getShape(), updatesType.getShape())) {
    if (staticallyDiffer(want, got))
      return emitOpError() << "operand 'updates' dim " << d
                           << " must match operand 'indices' dim " << d
                           << ": expected " << want << ", got " << got;
  }
  // Where indices leaves a dim dynamic, updates may still pin it down.
  if (failed(verifyWithinDataOffAxis(
          [&] { return emitOpError(); }, "operand 'updates'",
          updatesType.getShape(), dataType.getShape(), getNormalizedAxis())) ||
      failed(verifyReduction(*this, getReduction(), dataType.getElementType())))
    return failure();
  int64_t axis = getNormalizedAxis();
  return verifyConstantIndices(*this, getIndices(), dataType.getShape(),
                               [&](ArrayRef<int64_t>) { return axis; });
}

LogicalResult
ScatterElementsOp::reifyResultShapes(OpBuilder &builder,
                                     ReifiedRankedShapedTypeDims &shapes) {
  return reifyLikeData(builder, *this, getData(), shapes);
}

//===----------------------------------------------------------------------===//
// GatherElementsOp
//===----------------------------------------------------------------------===//

FailureOr<RankedTensorType>
GatherElementsOp::inferResultType(RankedTensorType dataType,
                                  RankedTensorType indicesType, int64_t axis,
                                  EmitErrorFn emitError) {
  if (failed(verifyElementsIndexing(emitError, dataType, indicesType, axis)))
    return failure();
  return RankedTensorType::get(indicesType.getShape(),
                               dataType.getElementType());
}

LogicalResult GatherElementsOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, Adaptor adaptor,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  return inferGatherReturnType<GatherElementsOp>(
      location, adaptor.getData(), adaptor.getIndices(),
      static_cast<int64_t>(adaptor.getAxis()), inferredReturnTypes);
}

bool GatherElementsOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleTensorTypes(l, r);
}

/// The operand dim behind each result dim of a gather_elements: those of
/// indices.
static SmallVector<DimSource> getResultSources(GatherElementsOp op) {
  SmallVector<DimSource> sources;
  for (int64_t d = 0, e = op.getIndices().getType().getRank(); d < e; ++d)
    sources.push_back({op.getIndices(), "indices", d});
  return sources;
}

LogicalResult GatherElementsOp::verify() {
  FailureOr<RankedTensorType> inferred = inferResultType(
      getData().getType(), getIndices().getType(),
      static_cast<int64_t>(getAxis()), [&] { return emitOpError(); });
  if (failed(inferred) ||
      failed(verifyGatherResult(*this, *inferred, getResultSources(*this),
                                "rank(indices)")))
    return failure();
  // Where indices leaves a dim dynamic, a static result dim must still fit
  // in data off the axis.
  if (failed(verifyWithinDataOffAxis([&] { return emitOpError(); }, "result",
                                     getResult().getType().getShape(),
                                     getData().getType().getShape(),
                                     getNormalizedAxis())))
    return failure();
  int64_t axis = getNormalizedAxis();
  return verifyConstantIndices(*this, getIndices(),
                               getData().getType().getShape(),
                               [&](ArrayRef<int64_t>) { return axis; });
}

LogicalResult
GatherElementsOp::reifyResultShapes(OpBuilder &builder,
                                    ReifiedRankedShapedTypeDims &shapes) {
  return reifyFromSources(builder, *this, getResultSources(*this), shapes);
}

#define GET_OP_CLASSES
#include "nd/Dialect/Nd/IR/NdOps.cpp.inc"
