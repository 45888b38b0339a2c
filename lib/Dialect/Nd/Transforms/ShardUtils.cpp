//===- ShardUtils.cpp - helpers of nd's sharding code ---------------------===//

#include "ShardUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

IntegerType mlir::nd::getBitsType(Type type) {
  bool isFloat = isa<FloatType>(type);
  if (!isFloat && !type.isSignlessInteger())
    return {};
  unsigned width = type.getIntOrFloatBitWidth();
  bool supported =
      width == 16 || width == 32 || width == 64 || (width == 8 && !isFloat);
  if (!supported)
    return {};
  return IntegerType::get(type.getContext(), width);
}

Value mlir::nd::mapElements(
    ImplicitLocOpBuilder &b, Value value, Type elementType,
    function_ref<Value(OpBuilder &, Location, Value)> fn) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, b.getLoc(), value);
  Value init = tensor::EmptyOp::create(b, sizes, elementType);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, init.getType(), ValueRange{value}, ValueRange{init},
      ArrayRef<AffineMap>{id, id}, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange args) {
        Value mapped = fn(nested, loc, args[0]);
        linalg::YieldOp::create(nested, loc, mapped);
      });
  return generic.getResult(0);
}

Value mlir::nd::bitcastElements(ImplicitLocOpBuilder &b, Value value,
                                Type elementType) {
  if (cast<RankedTensorType>(value.getType()).getElementType() == elementType)
    return value;
  return mapElements(b, value, elementType,
                     [&](OpBuilder &nested, Location loc, Value element) {
                       return arith::BitcastOp::create(nested, loc, elementType,
                                                       element)
                           .getResult();
                     });
}
