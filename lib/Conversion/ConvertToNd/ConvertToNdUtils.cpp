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
#include "nd/Dialect/Nd/IR/NdDialect.h"

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

nd::Unconvertible mlir::nd::checkScatterResultType(RankedTensorType resultType,
                                                   RankedTensorType dataType,
                                                   StringRef dataName) {
  std::optional<RankedTensorType> joined = joinTypes(dataType, resultType);
  if (joined && *joined == dataType)
    return std::nullopt;
  return ("result type " + quoted(resultType) + " is neither the type of '" +
          dataName + "' (" + quoted(dataType) +
          ") nor a less static version of it")
      .str();
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

Value mlir::nd::castIfNeeded(OpBuilder &b, Location loc, Value value,
                             Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(b, loc, type, value);
}

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

/// The reassociation that collapses `from` into `to`, two shapes that differ
/// only in unit dims (`to` has fewer), or none where `to` has a unit dim that
/// no unit dim of `from` can supply in place. Each dim of `to` takes the next
/// dim of `from` that has its size; the unit dims of `from` left over join
/// the group after them (the last group for trailing ones).
static std::optional<SmallVector<ReassociationIndices>>
collapseUnitDims(ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  SmallVector<ReassociationIndices> groups;
  size_t next = 0;
  for (int64_t size : to) {
    ReassociationIndices group;
    // Spare unit dims before a non-unit dim of `to` are its own.
    if (size != 1)
      while (next < from.size() && from[next] == 1)
        group.push_back(next++);
    if (next == from.size() || from[next] != size)
      return std::nullopt;
    group.push_back(next++);
    groups.push_back(group);
  }
  // Trailing unit dims join the last group; with no group at all (`to` is
  // 0-D), the empty reassociation drops them.
  for (; next < from.size(); ++next) {
    if (from[next] != 1)
      return std::nullopt;
    if (!groups.empty())
      groups.back().push_back(next);
  }
  return groups;
}

/// The sizes of `type`, whose non-unit dims are those of `value` in order.
static SmallVector<OpFoldResult> sizesFrom(OpBuilder &b, Location loc,
                                           Value value, RankedTensorType type) {
  ArrayRef<int64_t> valueShape =
      cast<RankedTensorType>(value.getType()).getShape();
  SmallVector<OpFoldResult> sizes;
  size_t next = 0;
  for (int64_t size : type.getShape()) {
    if (size == 1) {
      sizes.push_back(b.getIndexAttr(1));
      continue;
    }
    while (valueShape[next] == 1)
      ++next;
    OpFoldResult valueSize = tensor::getMixedSize(b, loc, value, next++);
    sizes.push_back(valueSize);
  }
  return sizes;
}

/// `value` collapsed or expanded to `type` by one reshape, or null where one
/// reshape cannot do it.
static Value reshapeOnce(OpBuilder &b, Location loc, Value value,
                         RankedTensorType type) {
  auto valueType = cast<RankedTensorType>(value.getType());
  if (valueType.getRank() > type.getRank()) {
    std::optional<SmallVector<ReassociationIndices>> groups =
        collapseUnitDims(valueType.getShape(), type.getShape());
    if (!groups)
      return Value();
    return tensor::CollapseShapeOp::create(b, loc, type, value, *groups);
  }
  if (valueType.getRank() < type.getRank()) {
    std::optional<SmallVector<ReassociationIndices>> groups =
        collapseUnitDims(type.getShape(), valueType.getShape());
    if (!groups)
      return Value();
    SmallVector<OpFoldResult> sizes = sizesFrom(b, loc, value, type);
    return tensor::ExpandShapeOp::create(b, loc, type, value, *groups, sizes);
  }
  return Value();
}

Value mlir::nd::reshapeUnitDims(OpBuilder &b, Location loc, Value value,
                                RankedTensorType type) {
  auto valueType = cast<RankedTensorType>(value.getType());
  if (valueType == type)
    return value;
  assert(differOnlyInUnitDims(valueType, type) &&
         "reshapeUnitDims changes more than unit dims");
  if (Value reshaped = reshapeOnce(b, loc, value, type))
    return reshaped;
  // The unit dims sit elsewhere: drop them all, then insert those of `type`.
  // (Neither type is the core type here, or one reshape would have done.)
  auto coreType = RankedTensorType::get(nonUnitDims(type.getShape()),
                                        type.getElementType());
  Value core = reshapeOnce(b, loc, value, coreType);
  return reshapeOnce(b, loc, core, type);
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

void mlir::nd::addNdConversionLegality(ConversionTarget &target) {
  target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect, NdDialect,
                         tensor::TensorDialect>();
}

LogicalResult mlir::nd::convertToNd(
    Operation *root, const ConversionTarget &target,
    const FrozenRewritePatternSet &patterns,
    function_ref<Unconvertible(Operation *)> whyUnconvertible,
    bool *converted) {
  bool failed = false;
  bool illegal = false;
  root->walk([&](Operation *op) {
    if (!target.isIllegal(op))
      return;
    illegal = true;
    if (Unconvertible reason = whyUnconvertible(op)) {
      op->emitOpError("cannot be converted to nd: ") << *reason;
      failed = true;
    }
  });
  if (converted)
    *converted = illegal;
  if (failed)
    return failure();
  if (!illegal)
    return success();
  return applyPartialConversion(root, target, patterns);
}
