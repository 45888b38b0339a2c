//===- ConvertToNdUtils.cpp - helpers of the conversions into nd ----------===//
//
// Shared by --convert-tensor-to-nd and --convert-tosa-to-nd: nd's type rules,
// copy-free reshapes, transposes, index extension and the conversion driver.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/ConvertToNd/ConvertToNdUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace mlir::nd {
#include "nd/Conversion/ConvertToNd/NdTypes.cpp.inc"
} // namespace mlir::nd

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static std::string quoted(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << type << "'";
  return text;
}

nd::Unconvertible mlir::nd::checkNdDataType(Type type, StringRef name) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return ("'" + name + "' is unranked (" + quoted(type) + ")").str();
  if (!isNdElementType(ranked.getElementType()))
    return ("element type " + quoted(ranked.getElementType()) + " of '" + name +
            "' is not supported by nd")
        .str();
  return std::nullopt;
}

nd::Unconvertible mlir::nd::checkIndicesType(Type type, StringRef name) {
  auto ranked = dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return ("'" + name + "' is unranked (" + quoted(type) + ")").str();
  Type element = ranked.getElementType();
  if (element.isIndex() || element.getIntOrFloatBitWidth() <= 64)
    return std::nullopt;
  return ("index element type " + quoted(element) + " of '" + name +
          "' is wider than 64 bits")
      .str();
}

std::optional<RankedTensorType> mlir::nd::joinTypes(RankedTensorType a,
                                                    RankedTensorType b) {
  if (a.getElementType() != b.getElementType() || a.getRank() != b.getRank())
    return std::nullopt;
  SmallVector<int64_t> shape;
  for (auto [x, y] : llvm::zip_equal(a.getShape(), b.getShape())) {
    if (!ShapedType::isDynamic(x) && !ShapedType::isDynamic(y) && x != y)
      return std::nullopt;
    shape.push_back(ShapedType::isDynamic(x) ? y : x);
  }
  return RankedTensorType::get(shape, a.getElementType());
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Location mlir::nd::getReplacementLoc(Operation *op) {
  return NameLoc::get(op->getName().getIdentifier(), op->getLoc());
}

Value mlir::nd::extendIndicesForNd(OpBuilder &b, Location loc, Value indices) {
  auto type = cast<RankedTensorType>(indices.getType());
  if (isNdIndexTensorType(type))
    return indices;
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  Type wide = b.getIntegerType(width < 32 ? 32 : 64);
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, indices);
  Value init = tensor::EmptyOp::create(b, loc, sizes, wide);
  auto map = linalg::MapOp::create(
      b, loc, ValueRange{indices}, init,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value extended =
            arith::ExtSIOp::create(nested, nestedLoc, wide, args[0]);
        linalg::YieldOp::create(nested, nestedLoc, extended);
      });
  return map->getResult(0);
}

/// The dims of `shape` other than those of static size 1, in order.
static SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> dims;
  for (int64_t size : shape)
    if (size != 1)
      dims.push_back(size);
  return dims;
}

bool mlir::nd::differOnlyInUnitDims(RankedTensorType a, RankedTensorType b) {
  return a.getElementType() == b.getElementType() &&
         nonUnitDims(a.getShape()) == nonUnitDims(b.getShape());
}

/// Groups the dims of `shape` around its non-unit dims: each group holds one
/// non-unit dim and the unit dims after it (the first group also those
/// before it). With no non-unit dim there is no group (rank 0).
static SmallVector<ReassociationIndices>
groupsAroundNonUnitDims(ArrayRef<int64_t> shape) {
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices current;
  bool hasNonUnit = false;
  for (auto [dim, size] : llvm::enumerate(shape)) {
    if (size != 1 && hasNonUnit) {
      groups.push_back(current);
      current.clear();
    }
    hasNonUnit |= size != 1;
    current.push_back(dim);
  }
  if (hasNonUnit)
    groups.push_back(current);
  return groups;
}

Value mlir::nd::reshapeUnitDims(OpBuilder &b, Location loc, Value value,
                                RankedTensorType type) {
  auto valueType = cast<RankedTensorType>(value.getType());
  if (valueType == type)
    return value;
  assert(differOnlyInUnitDims(valueType, type) &&
         "reshapeUnitDims changes more than unit dims");
  SmallVector<int64_t> core = nonUnitDims(type.getShape());
  Value result = value;
  if (valueType.getRank() != static_cast<int64_t>(core.size())) {
    auto coreType = RankedTensorType::get(core, type.getElementType());
    result = tensor::CollapseShapeOp::create(
        b, loc, coreType, result,
        groupsAroundNonUnitDims(valueType.getShape()));
  }
  if (type.getRank() != static_cast<int64_t>(core.size()))
    result = tensor::ExpandShapeOp::create(
        b, loc, type, result, groupsAroundNonUnitDims(type.getShape()));
  return result;
}

Value mlir::nd::permuteDims(OpBuilder &b, Location loc, Value value,
                            ArrayRef<int64_t> permutation) {
  if (isIdentityPermutation(permutation))
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape = applyPermutation(type.getShape(), permutation);
  auto permutedType = RankedTensorType::get(shape, type.getElementType());
  // Moving only unit dims keeps the other dims in order: the elements stay
  // where they are. (Equal shapes are not enough: two dynamic dims swapped
  // look the same.)
  SmallVector<int64_t> moved;
  for (int64_t dim : permutation)
    if (type.getDimSize(dim) != 1)
      moved.push_back(dim);
  if (llvm::is_sorted(moved))
    return reshapeUnitDims(b, loc, value, permutedType);
  SmallVector<OpFoldResult> valueSizes = tensor::getMixedSizes(b, loc, value);
  SmallVector<OpFoldResult> sizes = applyPermutation(valueSizes, permutation);
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  auto transpose =
      linalg::TransposeOp::create(b, loc, value, init, permutation);
  return transpose->getResult(0);
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

LogicalResult mlir::nd::convertToNd(
    Operation *root, const ConversionTarget &target,
    const FrozenRewritePatternSet &patterns,
    function_ref<Unconvertible(Operation *)> whyUnconvertible) {
  bool failed = false;
  root->walk([&](Operation *op) {
    if (!target.isIllegal(op))
      return;
    if (Unconvertible reason = whyUnconvertible(op)) {
      op->emitOpError("cannot be converted to nd: ") << *reason;
      failed = true;
    }
  });
  if (failed)
    return failure();
  return applyPartialConversion(root, target, patterns);
}
