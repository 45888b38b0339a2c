//===- NdOps.cpp - nd dialect ops -------------------------------*- C++ -*-===//
//
// Verifiers, type inference and shape reification of the nd ops. The shape
// rules of the ND pair (scatter_nd, gather_nd) live in one helper, those of the
// Elements pair (scatter_elements, gather_elements) in another, so that the
// sibling ops cannot drift apart. Rules are enforced where the dimensions
// involved are static; dynamic dimensions are checked at run time by the
// lowering.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdOps.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
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
                       << r - batchDims << "] (rank(data) - batch_dims), got "
                       << k;

  SmallVector<int64_t> sliceShape(indicesShape.drop_back());
  llvm::append_range(sliceShape, dataShape.drop_front(batchDims + k));
  return sliceShape;
}

//===----------------------------------------------------------------------===//
// Shared rules of the Elements pair
//===----------------------------------------------------------------------===//

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

  ArrayRef<int64_t> dataShape = dataType.getShape();
  ArrayRef<int64_t> indicesShape = indicesType.getShape();
  for (int64_t d = 0; d < r; ++d) {
    if (d == normalizedAxis || ShapedType::isDynamic(dataShape[d]) ||
        ShapedType::isDynamic(indicesShape[d]))
      continue;
    if (indicesShape[d] > dataShape[d])
      return emitError() << "operand 'indices' dim " << d
                         << " must not exceed operand 'data' dim " << d
                         << " (off the axis): expected at most "
                         << dataShape[d] << ", got " << indicesShape[d];
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shared rules of the scatter pair
//===----------------------------------------------------------------------===//

/// max and min need an order: they are not defined on complex numbers.
static LogicalResult verifyReduction(Operation *op, ReductionKind reduction,
                                     Type elementType) {
  bool ordered = reduction == ReductionKind::Max ||
                 reduction == ReductionKind::Min;
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

/// Dims of the result of a gather: static where the result type is, otherwise
/// taken from the operand dims listed in `sources` as (value, dim) pairs.
static LogicalResult
reifyFromSources(OpBuilder &builder, Operation *op,
                 ArrayRef<std::pair<Value, int64_t>> sources,
                 ReifiedRankedShapedTypeDims &shapes) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  SmallVector<OpFoldResult> dims;
  for (auto [i, source] : llvm::enumerate(sources)) {
    int64_t size = resultType.getDimSize(i);
    if (!ShapedType::isDynamic(size)) {
      dims.push_back(builder.getIndexAttr(size));
      continue;
    }
    dims.push_back(tensor::getMixedSize(builder, op->getLoc(), source.first,
                                        source.second));
  }
  shapes.push_back(std::move(dims));
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

LogicalResult ScatterNDOp::verify() {
  RankedTensorType dataType = getData().getType();
  RankedTensorType indicesType = getIndices().getType();
  RankedTensorType updatesType = getUpdates().getType();
  FailureOr<SmallVector<int64_t>> expected = verifyNDIndexing(
      [&] { return emitOpError(); }, dataType, indicesType, /*batchDims=*/0);
  if (failed(expected))
    return failure();

  ArrayRef<int64_t> updatesShape = updatesType.getShape();
  // OpenVINO ScatterNDUpdate: a single-element update for a 0-D slice.
  bool singleElement = llvm::all_of(updatesShape, [](int64_t d) { return d == 1; });
  if (!(expected->empty() && singleElement)) {
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
      InFlightDiagnostic diag = emitOpError()
                                << "operand 'updates' dim " << dim
                                << " must match ";
      if (dim < q - 1)
        diag << "operand 'indices' dim " << dim;
      else
        diag << "operand 'data' dim " << k + dim - (q - 1);
      return diag << ": expected " << want << ", got " << got;
    }
  }
  return verifyReduction(*this, getReduction(), dataType.getElementType());
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
  auto emitError = makeEmitter(location, getOperationName());
  auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  auto indicesType = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
  if (!dataType || !indicesType)
    return emitError() << "operands 'data' and 'indices' must be ranked tensors";
  FailureOr<RankedTensorType> resultType =
      inferResultType(dataType, indicesType,
                      static_cast<int64_t>(adaptor.getBatchDims()), emitError);
  if (failed(resultType))
    return failure();
  inferredReturnTypes.push_back(*resultType);
  return success();
}

bool GatherNDOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleTensorTypes(l, r);
}

LogicalResult
GatherNDOp::reifyResultShapes(OpBuilder &builder,
                              ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<std::pair<Value, int64_t>> sources;
  int64_t q = getIndices().getType().getRank();
  int64_t r = getData().getType().getRank();
  for (int64_t d = 0; d < q - 1; ++d)
    sources.emplace_back(getIndices(), d);
  for (int64_t d = getBatchDims() + getIndexDepth(); d < r; ++d)
    sources.emplace_back(getData(), d);
  return reifyFromSources(builder, *this, sources, shapes);
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
  return verifyReduction(*this, getReduction(), dataType.getElementType());
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
  auto emitError = makeEmitter(location, getOperationName());
  auto dataType = dyn_cast<RankedTensorType>(adaptor.getData().getType());
  auto indicesType = dyn_cast<RankedTensorType>(adaptor.getIndices().getType());
  if (!dataType || !indicesType)
    return emitError() << "operands 'data' and 'indices' must be ranked tensors";
  FailureOr<RankedTensorType> resultType =
      inferResultType(dataType, indicesType,
                      static_cast<int64_t>(adaptor.getAxis()), emitError);
  if (failed(resultType))
    return failure();
  inferredReturnTypes.push_back(*resultType);
  return success();
}

bool GatherElementsOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleTensorTypes(l, r);
}

LogicalResult
GatherElementsOp::reifyResultShapes(OpBuilder &builder,
                                    ReifiedRankedShapedTypeDims &shapes) {
  SmallVector<std::pair<Value, int64_t>> sources;
  for (int64_t d = 0, e = getIndices().getType().getRank(); d < e; ++d)
    sources.emplace_back(getIndices(), d);
  return reifyFromSources(builder, *this, sources, shapes);
}

#define GET_OP_CLASSES
#include "nd/Dialect/Nd/IR/NdOps.cpp.inc"
