//===- NdOps.cpp - nd dialect ops -------------------------------*- C++ -*-===//
//
// Verifiers, type inference and shape reification of the nd ops. The shape
// rules of the ND pair (scatter_nd, gather_nd) live in one helper, those of the
// Elements pair (scatter_elements, gather_elements) in another, and the check
// of a gather's declared result type in a third, so that the sibling ops
// cannot drift apart. The pairwise dim rules come from the ops' model (their
// shape constraints, NdRowAddressing.h), which the lowering checks at run
// time where the dimensions involved are dynamic; the verifiers decide them
// where they are static, in the order of their diagnostics.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdOps.h"

#include "NdIndexing.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
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

/// How a verifier message names a value of a shape constraint.
static void describeValue(InFlightDiagnostic &diag, StringRef name) {
  if (name == "result")
    diag << "result";
  else
    diag << "operand '" << name << "'";
}

/// Reports the constraint `c` that the static sizes `lhs` and `rhs` violate,
/// worded by its rule.
static LogicalResult reportViolation(EmitErrorFn emitError,
                                     const ShapeConstraint &c, int64_t lhs,
                                     int64_t rhs) {
  InFlightDiagnostic diag = emitError();
  describeValue(diag, c.lhsName);
  diag << (c.rule == ShapeRule::BatchDim ? " batch dim " : " dim ")
       << c.lhs.dim;
  if (c.rule == ShapeRule::SequenceLength)
    diag << " (sequence_length)";
  diag << (c.atMost ? " must not exceed " : " must match ");
  describeValue(diag, c.rhsName);
  diag << " dim " << c.rhs.dim;
  if (c.rule == ShapeRule::WithinData)
    diag << " (off the axis)";
  else if (c.rule == ShapeRule::SequenceLength)
    diag << " (max_sequence_length)";
  else if (c.rule == ShapeRule::BatchSize)
    diag << " (the batch size)";
  diag << ": expected " << (c.atMost ? "at most " : "") << rhs << ", got "
       << lhs;
  return diag;
}

/// Checks the constraints of `rules` among `constraints` whose sizes in
/// `shapes` (map order) are both static, in order, and reports the first
/// violated one. Dynamic sizes are left to the lowering's run-time checks.
static LogicalResult verifyStaticConstraints(
    EmitErrorFn emitError, ArrayRef<ShapeConstraint> constraints,
    ArrayRef<ArrayRef<int64_t>> shapes, ArrayRef<ShapeRule> rules) {
  for (const ShapeConstraint &constraint : constraints) {
    if (!llvm::is_contained(rules, constraint.rule))
      continue;
    auto [lhs, rhs] = getConstraintSizes(constraint, shapes);
    if (ShapedType::isDynamic(lhs) || ShapedType::isDynamic(rhs) ||
        !constraint.isViolated(lhs, rhs))
      continue;
    return reportViolation(emitError, constraint, lhs, rhs);
  }
  return success();
}

/// Checks `data.shape[:b] == indices.shape[:b]` where both dims are static:
/// the batch dims of the batched gathers.
static LogicalResult verifyBatchDims(EmitErrorFn emitError,
                                     ArrayRef<int64_t> dataShape,
                                     ArrayRef<int64_t> indicesShape,
                                     int64_t batchDims) {
  ShapeConstraints batch;
  appendBatchDims(batch, batchDims);
  SmallVector<ArrayRef<int64_t>> shapes = {dataShape, indicesShape};
  return verifyStaticConstraints(emitError, batch, shapes,
                                 {ShapeRule::BatchDim});
}

/// A batch dim of a gather's result, which `data` and `indices` share: the
/// size in `shape` where static, else the (possibly static) one in `other`.
static void refineBatchDims(MutableArrayRef<int64_t> shape,
                            ArrayRef<int64_t> other, int64_t batchDims) {
  for (int64_t d = 0; d < batchDims; ++d) {
    if (ShapedType::isDynamic(shape[d]))
      shape[d] = other[d];
  }
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
// Tensors and buffers
//===----------------------------------------------------------------------===//

RankedTensorType nd::getTensorType(Type shaped) {
  if (auto tensor = dyn_cast<RankedTensorType>(shaped))
    return tensor;
  auto memref = cast<MemRefType>(shaped);
  return RankedTensorType::get(memref.getShape(), memref.getElementType());
}

bool nd::isOnBuffers(Operation *op) { return op->getNumResults() == 0; }

/// The operand an nd op on buffers updates: a scatter's destination (its
/// destination-style init), a gather's `into` (its last operand).
static OpOperand &getUpdatedOperand(Operation *op) {
  if (auto dps = dyn_cast<DestinationStyleOpInterface>(op))
    return *dps.getDpsInitOperand(0);
  return op->getOpOperands().back();
}

RankedTensorType nd::getProducedType(Operation *op) {
  if (op->getNumResults() == 1)
    return cast<RankedTensorType>(op->getResult(0).getType());
  return getTensorType(getUpdatedOperand(op).get().getType());
}

/// The two forms of an nd op. On buffers (no result) every operand is a
/// memref, and a gather writes into its `into` operand, which only that form
/// has. On tensors (one result, the tensor the op produces) a scatter's
/// destination is a tensor too; the operands it only reads may also be
/// buffers (a tensor that nothing writes, read by many ops through one
/// shared buffer: see --nd-share-read-buffers).
static LogicalResult verifyForm(Operation *op, bool isGather) {
  bool onBuffers = isOnBuffers(op);
  bool hasInto = isGather && op->getNumOperands() == 3;
  if (onBuffers) {
    for (auto [i, operand] : llvm::enumerate(op->getOperands()))
      if (!isa<MemRefType>(operand.getType()))
        return op->emitOpError()
               << "on buffers (without a result) takes memrefs only, got "
               << operand.getType() << " for operand #" << i;
    if (isGather && !hasInto)
      return op->emitOpError()
             << "on buffers needs an 'into' buffer to write its result to";
    return success();
  }
  if (hasInto)
    return op->emitOpError()
           << "on tensors takes no 'into' operand: its result is a new tensor";
  return success();
}

/// Memory effects of an nd op: it reads the buffers among its operands (on
/// tensors, those it reads through a shared buffer), and on buffers writes
/// the one it updates.
void nd::detail::getNdEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  OpOperand *updated = isOnBuffers(op) ? &getUpdatedOperand(op) : nullptr;
  bool readsUpdated = isa<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    // A scatter reads the values it updates; a gather only writes `into`.
    if (&operand != updated || readsUpdated)
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
    if (&operand == updated)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

/// An nd op on tensors only may be hoisted; one that touches memory may not.
Speculation::Speculatability nd::detail::getNdSpeculatability(Operation *op) {
  bool touchesMemory = llvm::any_of(op->getOperandTypes(), [](Type type) {
    return isa<MemRefType>(type);
  });
  return touchesMemory ? Speculation::NotSpeculatable
                       : Speculation::Speculatable;
}

/// The result type of a scatter in the custom form: that of the destination
/// for a scatter on tensors, none on memrefs.
static ParseResult parseDestinationResult(OpAsmParser &parser,
                                          Type destinationType,
                                          Type &resultType) {
  if (isa<RankedTensorType>(destinationType))
    resultType = destinationType;
  return success();
}

static void printDestinationResult(OpAsmPrinter &, Operation *, Type, Type) {}

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

/// The data dim the index value at `position` of the index operand
/// addresses: that of its component (the index component dim of the ND ops;
/// component 0 where index values are single values).
static int64_t getAddressedDim(const RowAddressing &rows,
                               ArrayRef<int64_t> position) {
  int64_t component = 0;
  for (auto [d, address] : llvm::enumerate(rows.indexDims))
    if (address.kind == AddressKind::Component)
      component = position[d];
  return rows.dataDimOf(component);
}

/// The compile-time index check under `oob<error>`: where `indices` is a
/// constant, each value must lie in `[-d, d-1]` for the size `d` of the data
/// dim it addresses (the op's row addressing says which). A value out of
/// range would stop the program at run time; known now, it is reported now,
/// with its position. Dims that are dynamic are left to the run-time check.
static LogicalResult verifyConstantIndices(IterationSpaceOpInterface op) {
  // Under skip and clamp, a value out of range has a meaning.
  if (op.getOobMode() != OobMode::Error)
    return success();
  RowAddressing rows = op.getRowAddressing();
  Value indices = op->getOperand(*rows.indices);
  std::optional<SmallVector<int64_t>> values =
      indexing::matchConstantIndices(indices, indexing::kMaxVerifiedIndices);
  if (!values)
    return success();
  ArrayRef<int64_t> shape =
      cast<RankedTensorType>(indices.getType()).getShape();
  ArrayRef<int64_t> dataShape =
      cast<ShapedType>(op->getOperand(rows.data).getType()).getShape();
  LogicalResult result = success();
  indexing::forEachPosition(shape, [&](int64_t flat,
                                       ArrayRef<int64_t> position) {
    if (failed(result))
      return;
    int64_t dim = getAddressedDim(rows, position);
    int64_t size = dataShape[dim];
    int64_t value = (*values)[flat];
    if (ShapedType::isDynamic(size) ||
        resolveConstantIndex(value, size, OobMode::Error))
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

namespace {
/// Where the index depth k of an ND op comes from when `indices.shape[-1]` is
/// dynamic: the rank of the tensor of slices (`updates` of a scatter_nd, the
/// result of a gather_nd), which is `rank(indices) - 1 + rank(data) - b - k`.
struct SlicesRank {
  int64_t rank;
  StringLiteral what;
};
} // namespace

/// The index depth of an ND op: `indices.shape[-1]` where static, else the
/// depth the rank of the slices gives (kDynamic when there is none).
static int64_t getIndexDepth(RankedTensorType dataType,
                             RankedTensorType indicesType, int64_t batchDims,
                             std::optional<int64_t> slicesRank) {
  int64_t k = indicesType.getShape().back();
  if (!ShapedType::isDynamic(k) || !slicesRank)
    return k;
  return indicesType.getRank() - 1 + dataType.getRank() - batchDims -
         *slicesRank;
}

/// Checks the rules that scatter_nd and gather_nd share (rank of data and
/// indices, batch dims, index depth k) and returns the shape of the gathered
/// or scattered slices: `indices.shape[:-1] ++ data.shape[b+k:]`. A dynamic
/// `indices.shape[-1]` takes k from `slices` (an error without).
static FailureOr<SmallVector<int64_t>>
verifyNDIndexing(EmitErrorFn emitError, RankedTensorType dataType,
                 RankedTensorType indicesType, int64_t batchDims,
                 std::optional<SlicesRank> slices) {
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
  if (failed(verifyBatchDims(emitError, dataShape, indicesShape, batchDims)))
    return failure();

  int64_t k = indicesShape.back();
  if (ShapedType::isDynamic(k)) {
    if (!slices)
      return emitError() << "operand 'indices' last dim (the index depth k) "
                            "is dynamic: the result type, whose rank fixes "
                            "k, cannot be inferred";
    k = getIndexDepth(dataType, indicesType, batchDims, slices->rank);
    if (k < 1 || k > r - batchDims)
      return emitError() << "operand 'indices' last dim (the index depth k) "
                            "is dynamic and the rank of "
                         << slices->what << " (" << slices->rank
                         << ") gives k = " << k << ", which must be in [1, "
                         << r - batchDims << "]";
  }
  if (k < 1 || k > r - batchDims)
    return emitError() << "operand 'indices' last dim (the index depth k) "
                          "must be in [1, "
                       << r - batchDims << "] ("
                       << (batchDims == 0 ? "rank(data)"
                                          : "rank(data) - batch_dims")
                       << "), got " << k;

  SmallVector<int64_t> sliceShape(indicesShape.drop_back());
  refineBatchDims(sliceShape, dataShape, batchDims);
  llvm::append_range(sliceShape, dataShape.drop_front(batchDims + k));
  return sliceShape;
}

//===----------------------------------------------------------------------===//
// Shared rules of the Elements pair
//===----------------------------------------------------------------------===//

/// Checks `shape[d] <= data.shape[d]` for every dim `d` off the axis where
/// both are static (the model's WithinData rule). `value` and `name` number
/// and name the value of shape `shape` (an operand, or the result): indices,
/// updates and the result of a gather share the shape, and the rule.
static LogicalResult verifyWithinDataOffAxis(EmitErrorFn emitError,
                                             unsigned value, StringRef name,
                                             ArrayRef<int64_t> shape,
                                             ArrayRef<int64_t> dataShape,
                                             int64_t normalizedAxis) {
  ShapeConstraints within;
  appendWithinData(within, value, name, dataShape.size(), normalizedAxis);
  SmallVector<ArrayRef<int64_t>> shapes(value + 1);
  shapes[0] = dataShape;
  shapes[value] = shape;
  return verifyStaticConstraints(emitError, within, shapes,
                                 {ShapeRule::WithinData});
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
  return verifyWithinDataOffAxis(emitError, 1, "indices",
                                 indicesType.getShape(), dataType.getShape(),
                                 normalizedAxis);
}

//===----------------------------------------------------------------------===//
// Shared rules of the scatter pair
//===----------------------------------------------------------------------===//

/// The reductions each scatter defines, and the element types they need:
/// `sub` is OpenVINO ScatterNDUpdate-15's and `mean` ScatterElementsUpdate-12's
/// (no other spec defines them); max and min need an order, so complex numbers
/// have none; mean divides, which neither `i1` (the spec excludes boolean) nor
/// complex numbers (no spec defines it) have.
static LogicalResult verifyReduction(Operation *op, ReductionKind reduction,
                                     Type elementType) {
  StringRef name = stringifyReductionKind(reduction);
  if (reduction == ReductionKind::Sub && !isa<ScatterNDOp>(op))
    return op->emitOpError() << "reduction 'sub' is only defined for "
                                "'nd.scatter_nd' (OpenVINO ScatterNDUpdate-15)";
  if (reduction == ReductionKind::Mean && !isa<ScatterElementsOp>(op))
    return op->emitOpError()
           << "reduction 'mean' is only defined for 'nd.scatter_elements' "
              "(OpenVINO ScatterElementsUpdate-12)";
  bool needsOrder =
      reduction == ReductionKind::Max || reduction == ReductionKind::Min;
  bool needsDivision = reduction == ReductionKind::Mean;
  if ((needsOrder || needsDivision) && isa<ComplexType>(elementType))
    return op->emitOpError()
           << "reduction '" << name << "' is not defined for element type "
           << elementType;
  if (needsDivision && elementType.isInteger(1))
    return op->emitOpError() << "reduction 'mean' is not defined for element "
                                "type 'i1' (ONNX bool)";
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

/// The source of a batch dim `d` of a gather's result: `preferred`'s dim, or
/// `other`'s where only `other` knows the size (as refineBatchDims decides).
static DimSource getBatchDimSource(Value preferred, StringLiteral preferredName,
                                   Value other, StringLiteral otherName,
                                   int64_t d) {
  int64_t size = cast<ShapedType>(preferred.getType()).getDimSize(d);
  int64_t otherSize = cast<ShapedType>(other.getType()).getDimSize(d);
  if (ShapedType::isDynamic(size) && !ShapedType::isDynamic(otherSize))
    return {other, otherName, d};
  return {preferred, preferredName, d};
}

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
    // A gather on tensors may read an operand through a buffer.
    if (isa<MemRefType>(source.value.getType()))
      dims.push_back(memref::getMixedSize(builder, op->getLoc(), source.value,
                                          source.dim));
    else
      dims.push_back(tensor::getMixedSize(builder, op->getLoc(), source.value,
                                          source.dim));
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
  RankedTensorType resultType = getProducedType(op);
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

/// InferTypeOpInterface of a gather: `infer` (the op's inferResultType) on
/// operands that may not have been verified yet, reporting at `location` as
/// the op would.
static LogicalResult inferGatherReturnType(
    std::optional<Location> location, StringRef opName, Value data,
    Value indices, Value into,
    function_ref<FailureOr<RankedTensorType>(RankedTensorType, RankedTensorType,
                                             EmitErrorFn)>
        infer,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  // On buffers (writing into `into`) a gather has no result.
  if (into)
    return success();
  auto emitError = makeEmitter(location, opName);
  // Operands a gather on tensors reads through buffers have the same
  // shapes.
  auto isRanked = [](Type type) {
    return isa<RankedTensorType, MemRefType>(type);
  };
  if (!isRanked(data.getType()) || !isRanked(indices.getType()))
    return emitError()
           << "operands 'data' and 'indices' must be ranked tensors";
  RankedTensorType dataType = getTensorType(data.getType());
  RankedTensorType indicesType = getTensorType(indices.getType());
  FailureOr<RankedTensorType> resultType =
      infer(dataType, indicesType, emitError);
  if (failed(resultType))
    return failure();
  inferredReturnTypes.push_back(*resultType);
  return success();
}

/// Result types of the gathers may refine the inferred one (static where the
/// inferred type is dynamic) but must agree with it on every static dim. An
/// unranked inferred type (a gather_nd with a dynamic index depth, whose
/// result rank only the result type knows) fixes the element type only; the
/// verifier checks the rest.
static bool areCompatibleTensorTypes(TypeRange inferred, TypeRange actual) {
  // A gather on buffers: no result.
  if (inferred.empty() && actual.empty())
    return true;
  if (inferred.size() != 1 || actual.size() != 1)
    return false;
  auto rhs = dyn_cast<RankedTensorType>(actual.front());
  if (auto unranked = dyn_cast<UnrankedTensorType>(inferred.front()))
    return rhs && unranked.getElementType() == rhs.getElementType();
  auto lhs = dyn_cast<RankedTensorType>(inferred.front());
  return lhs && rhs && lhs.getElementType() == rhs.getElementType() &&
         succeeded(verifyCompatibleShape(lhs, rhs));
}

//===----------------------------------------------------------------------===//
// ScatterNDOp
//===----------------------------------------------------------------------===//

/// The rules of a scatter_nd past its shapes: the reduction and the values
/// of constant indices.
static LogicalResult verifyScatterNDValues(ScatterNDOp op) {
  RankedTensorType dataType = getTensorType(op.getData().getType());
  if (failed(verifyReduction(op, op.getReduction(), dataType.getElementType())))
    return failure();
  return verifyConstantIndices(op);
}

int64_t ScatterNDOp::getIndexDepth() {
  return ::getIndexDepth(getTensorType(getData().getType()),
                         getTensorType(getIndices().getType()),
                         /*batchDims=*/0, getUpdates().getType().getRank());
}

LogicalResult ScatterNDOp::verify() {
  if (failed(verifyForm(*this, /*isGather=*/false)))
    return failure();
  RankedTensorType dataType = getTensorType(getData().getType());
  RankedTensorType indicesType = getTensorType(getIndices().getType());
  RankedTensorType updatesType = getTensorType(getUpdates().getType());
  FailureOr<SmallVector<int64_t>> expected = verifyNDIndexing(
      [&] { return emitOpError(); }, dataType, indicesType, /*batchDims=*/0,
      SlicesRank{updatesType.getRank(), "operand 'updates'"});
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

  if (updatesType.getRank() != static_cast<int64_t>(expected->size()))
    return emitOpError() << "operand 'updates' must have rank "
                         << expected->size()
                         << " (rank(indices) - 1 + rank(data) - k), got "
                         << updatesType.getRank();
  // updates.shape == indices.shape[:-1] ++ data.shape[k:].
  if (failed(verifyStaticConstraints(
          [&] { return emitOpError(); }, getShapeConstraints(),
          getValueShapes(*this), {ShapeRule::EntryDim, ShapeRule::SliceDim})))
    return failure();
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
  FailureOr<SmallVector<int64_t>> shape = verifyNDIndexing(
      emitError, dataType, indicesType, batchDims, std::nullopt);
  if (failed(shape))
    return failure();
  return RankedTensorType::get(*shape, dataType.getElementType());
}

LogicalResult
GatherNDOp::inferReturnTypes(MLIRContext *context,
                             std::optional<Location> location, Adaptor adaptor,
                             SmallVectorImpl<Type> &inferredReturnTypes) {
  // With a dynamic index depth, only the result type knows the result rank:
  // inference gives the element type, the verifier checks the rest. On
  // buffers there is no result.
  if (adaptor.getInto())
    return success();
  auto dataType = dyn_cast<ShapedType>(adaptor.getData().getType());
  auto indicesType = dyn_cast<ShapedType>(adaptor.getIndices().getType());
  if (dataType && dataType.hasRank() && indicesType && indicesType.hasRank() &&
      indicesType.getRank() >= 1 &&
      ShapedType::isDynamic(indicesType.getShape().back())) {
    inferredReturnTypes.push_back(
        UnrankedTensorType::get(dataType.getElementType()));
    return success();
  }
  auto batchDims = static_cast<int64_t>(adaptor.getBatchDims());
  return inferGatherReturnType(
      location, getOperationName(), adaptor.getData(), adaptor.getIndices(),
      adaptor.getInto(),
      [&](RankedTensorType data, RankedTensorType indices,
          EmitErrorFn emitError) {
        return inferResultType(data, indices, batchDims, emitError);
      },
      inferredReturnTypes);
}

int64_t GatherNDOp::getIndexDepth() {
  return ::getIndexDepth(getTensorType(getData().getType()),
                         getTensorType(getIndices().getType()),
                         static_cast<int64_t>(getBatchDims()),
                         getProducedType(*this).getRank());
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
    if (d < batchDims)
      sources.push_back(getBatchDimSource(op.getIndices(), "indices",
                                          op.getData(), "data", d));
    else
      sources.push_back({op.getIndices(), "indices", d});
  }
  for (int64_t d = batchDims + op.getIndexDepth(), e = dataShape.size(); d < e;
       ++d)
    sources.push_back({op.getData(), "data", d});
  return sources;
}

LogicalResult GatherNDOp::verify() {
  if (failed(verifyForm(*this, /*isGather=*/true)))
    return failure();
  RankedTensorType dataType = getTensorType(getData().getType());
  auto batchDims = static_cast<int64_t>(getBatchDims());
  FailureOr<SmallVector<int64_t>> shape = verifyNDIndexing(
      [&] { return emitOpError(); }, dataType,
      getTensorType(getIndices().getType()), batchDims,
      SlicesRank{getProducedType(*this).getRank(), "the result"});
  if (failed(shape))
    return failure();
  auto inferred = RankedTensorType::get(*shape, dataType.getElementType());
  if (failed(verifyGatherResult(
          *this, inferred, getResultSources(*this),
          "rank(indices) - 1 + rank(data) - batch_dims - k")))
    return failure();
  return verifyConstantIndices(*this);
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
  if (failed(verifyForm(*this, /*isGather=*/false)))
    return failure();
  RankedTensorType dataType = getTensorType(getData().getType());
  RankedTensorType indicesType = getTensorType(getIndices().getType());
  RankedTensorType updatesType = getTensorType(getUpdates().getType());
  if (failed(verifyElementsIndexing([&] { return emitOpError(); }, dataType,
                                    indicesType,
                                    static_cast<int64_t>(getAxis()))))
    return failure();
  if (updatesType.getRank() != indicesType.getRank())
    return emitOpError() << "operand 'updates' must have the rank of operand "
                            "'indices': expected "
                         << indicesType.getRank() << ", got "
                         << updatesType.getRank();
  auto emitError = [&] { return emitOpError(); };
  if (failed(verifyStaticConstraints(emitError, getShapeConstraints(),
                                     getValueShapes(*this),
                                     {ShapeRule::EntryDim})))
    return failure();
  // Where indices leaves a dim dynamic, updates may still pin it down.
  if (failed(verifyWithinDataOffAxis(
          emitError, 2, "updates", updatesType.getShape(), dataType.getShape(),
          getNormalizedAxis())) ||
      failed(verifyReduction(*this, getReduction(), dataType.getElementType())))
    return failure();
  return verifyConstantIndices(*this);
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
  auto axis = static_cast<int64_t>(adaptor.getAxis());
  return inferGatherReturnType(
      location, getOperationName(), adaptor.getData(), adaptor.getIndices(),
      adaptor.getInto(),
      [&](RankedTensorType data, RankedTensorType indices,
          EmitErrorFn emitError) {
        return inferResultType(data, indices, axis, emitError);
      },
      inferredReturnTypes);
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
  if (failed(verifyForm(*this, /*isGather=*/true)))
    return failure();
  FailureOr<RankedTensorType> inferred = inferResultType(
      getTensorType(getData().getType()), getTensorType(getIndices().getType()),
      static_cast<int64_t>(getAxis()), [&] { return emitOpError(); });
  if (failed(inferred) ||
      failed(verifyGatherResult(*this, *inferred, getResultSources(*this),
                                "rank(indices)")))
    return failure();
  // Where indices leaves a dim dynamic, a static result dim must still fit
  // in data off the axis.
  if (failed(verifyWithinDataOffAxis([&] { return emitOpError(); }, 2, "result",
                                     getProducedType(*this).getShape(),
                                     getData().getType().getShape(),
                                     getNormalizedAxis())))
    return failure();
  return verifyConstantIndices(*this);
}

LogicalResult
GatherElementsOp::reifyResultShapes(OpBuilder &builder,
                                    ReifiedRankedShapedTypeDims &shapes) {
  return reifyFromSources(builder, *this, getResultSources(*this), shapes);
}

//===----------------------------------------------------------------------===//
// GatherOp
//===----------------------------------------------------------------------===//

FailureOr<RankedTensorType>
GatherOp::inferResultType(RankedTensorType dataType,
                          RankedTensorType indicesType, int64_t axis,
                          int64_t batchDims, EmitErrorFn emitError) {
  int64_t r = dataType.getRank();
  int64_t q = indicesType.getRank();
  if (r < 1)
    return emitError() << "operand 'data' must have rank >= 1, got rank " << r;
  if (axis < -r || axis >= r)
    return emitError() << "axis must be in [" << -r << ", " << r - 1
                       << "], got " << axis;
  int64_t normalizedAxis = axis < 0 ? axis + r : axis;
  int64_t maxBatchDims = std::min(q, normalizedAxis);
  if (batchDims < 0 || batchDims > maxBatchDims)
    return emitError() << "batch_dims must be in [0, " << maxBatchDims
                       << "] (min(rank(indices), axis)), got " << batchDims;

  ArrayRef<int64_t> dataShape = dataType.getShape();
  ArrayRef<int64_t> indicesShape = indicesType.getShape();
  if (failed(verifyBatchDims(emitError, dataShape, indicesShape, batchDims)))
    return failure();
  SmallVector<int64_t> shape(dataShape.take_front(normalizedAxis));
  refineBatchDims(shape, indicesShape, batchDims);
  llvm::append_range(shape, indicesShape.drop_front(batchDims));
  llvm::append_range(shape, dataShape.drop_front(normalizedAxis + 1));
  return RankedTensorType::get(shape, dataType.getElementType());
}

LogicalResult
GatherOp::inferReturnTypes(MLIRContext *context,
                           std::optional<Location> location, Adaptor adaptor,
                           SmallVectorImpl<Type> &inferredReturnTypes) {
  auto axis = static_cast<int64_t>(adaptor.getAxis());
  auto batchDims = static_cast<int64_t>(adaptor.getBatchDims());
  return inferGatherReturnType(
      location, getOperationName(), adaptor.getData(), adaptor.getIndices(),
      adaptor.getInto(),
      [&](RankedTensorType data, RankedTensorType indices,
          EmitErrorFn emitError) {
        return inferResultType(data, indices, axis, batchDims, emitError);
      },
      inferredReturnTypes);
}

bool GatherOp::isCompatibleReturnTypes(TypeRange l, TypeRange r) {
  return areCompatibleTensorTypes(l, r);
}

/// The operand dim behind each result dim of a gather with valid operands:
/// `data.shape[:a] ++ indices.shape[b:] ++ data.shape[a+1:]`, a batch dim
/// taken from indices where only indices knows its size.
static SmallVector<DimSource> getResultSources(GatherOp op) {
  ArrayRef<int64_t> dataShape = op.getData().getType().getShape();
  ArrayRef<int64_t> indicesShape = op.getIndices().getType().getShape();
  auto batchDims = static_cast<int64_t>(op.getBatchDims());
  int64_t axis = op.getNormalizedAxis();
  SmallVector<DimSource> sources;
  for (int64_t d = 0; d < axis; ++d) {
    if (d < batchDims)
      sources.push_back(getBatchDimSource(op.getData(), "data", op.getIndices(),
                                          "indices", d));
    else
      sources.push_back({op.getData(), "data", d});
  }
  for (int64_t d = batchDims, e = indicesShape.size(); d < e; ++d)
    sources.push_back({op.getIndices(), "indices", d});
  for (int64_t d = axis + 1, e = dataShape.size(); d < e; ++d)
    sources.push_back({op.getData(), "data", d});
  return sources;
}

LogicalResult GatherOp::verify() {
  if (failed(verifyForm(*this, /*isGather=*/true)))
    return failure();
  FailureOr<RankedTensorType> inferred = inferResultType(
      getTensorType(getData().getType()), getTensorType(getIndices().getType()),
      static_cast<int64_t>(getAxis()), static_cast<int64_t>(getBatchDims()),
      [&] { return emitOpError(); });
  if (failed(inferred) ||
      failed(verifyGatherResult(*this, *inferred, getResultSources(*this),
                                "rank(data) - 1 + rank(indices) - batch_dims")))
    return failure();
  return verifyConstantIndices(*this);
}

LogicalResult GatherOp::reifyResultShapes(OpBuilder &builder,
                                          ReifiedRankedShapedTypeDims &shapes) {
  return reifyFromSources(builder, *this, getResultSources(*this), shapes);
}

//===----------------------------------------------------------------------===//
// TensorScatterOp
//===----------------------------------------------------------------------===//

/// The compile-time check of constant write indices under `oob<error>`, where
/// the sequence lengths are static.
static LogicalResult verifyConstantWriteIndices(TensorScatterOp op) {
  Value writeIndices = op.getWriteIndices();
  if (!writeIndices || op.getOob() != OobMode::Error)
    return success();
  int64_t axis = op.getNormalizedAxis();
  int64_t maxSeq = op.getPastCache().getType().getDimSize(axis);
  int64_t seqLen = op.getUpdate().getType().getDimSize(axis);
  bool linear = op.getMode() == TensorScatterMode::Linear;
  if (linear &&
      (ShapedType::isDynamic(maxSeq) || ShapedType::isDynamic(seqLen)))
    return success();
  std::optional<SmallVector<int64_t>> values = indexing::matchConstantIndices(
      writeIndices, indexing::kMaxVerifiedIndices);
  if (!values)
    return success();
  ConstantIndexArithmetic a;
  int64_t lastStart = a.sub(maxSeq, seqLen);
  for (auto [b, w] : llvm::enumerate(*values)) {
    if (!isBadWriteIndexWith(a, op.getMode(), w, lastStart))
      continue;
    InFlightDiagnostic diag = op.emitOpError()
                              << "write index " << w << " at position [" << b
                              << "] of operand 'write_indices' is out of "
                                 "range: ";
    if (!linear)
      return diag << "circular mode needs w >= 0";
    return diag << "linear mode needs 0 <= w <= max_sequence_length - "
                   "sequence_length = "
                << maxSeq - seqLen << " (operand 'past_cache' dim " << axis
                << " is " << maxSeq << ", operand 'update' dim " << axis
                << " is " << seqLen << ")";
  }
  return success();
}

LogicalResult TensorScatterOp::verify() {
  if (failed(verifyForm(*this, /*isGather=*/false)))
    return failure();
  RankedTensorType cacheType = getTensorType(getPastCache().getType());
  RankedTensorType updateType = getTensorType(getUpdate().getType());
  int64_t r = cacheType.getRank();
  if (r < 2)
    return emitOpError() << "operand 'past_cache' must have rank >= 2 (a batch "
                            "dim and a sequence dim), got rank "
                         << r;
  int64_t axis = getAxis();
  if (axis < -r || axis >= r)
    return emitOpError() << "axis must be in [" << -r << ", " << r - 1
                         << "], got " << axis;
  int64_t normalizedAxis = getNormalizedAxis();
  if (normalizedAxis == 0)
    return emitOpError() << "axis must not be the batch axis 0, got " << axis;
  if (updateType.getRank() != r)
    return emitOpError() << "operand 'update' must have the rank of operand "
                            "'past_cache': expected "
                         << r << ", got " << updateType.getRank();
  auto emitError = [&] { return emitOpError(); };
  ShapeConstraints constraints = getShapeConstraints();
  SmallVector<ArrayRef<int64_t>> shapes = getValueShapes(*this);
  if (failed(verifyStaticConstraints(
          emitError, constraints, shapes,
          {ShapeRule::CacheDim, ShapeRule::SequenceLength})))
    return failure();
  if (Value writeIndices = getWriteIndices()) {
    RankedTensorType indicesType = getTensorType(writeIndices.getType());
    if (indicesType.getRank() != 1)
      return emitOpError() << "operand 'write_indices' must have rank 1, got "
                              "rank "
                           << indicesType.getRank();
    if (failed(verifyStaticConstraints(emitError, constraints, shapes,
                                       {ShapeRule::BatchSize})))
      return failure();
  }
  return verifyConstantWriteIndices(*this);
}

LogicalResult
TensorScatterOp::reifyResultShapes(OpBuilder &builder,
                                   ReifiedRankedShapedTypeDims &shapes) {
  return reifyLikeData(builder, *this, getPastCache(), shapes);
}

#define GET_OP_CLASSES
#include "nd/Dialect/Nd/IR/NdOps.cpp.inc"
