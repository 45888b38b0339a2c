//===- NdDialect.cpp - nd dialect -------------------------------*- C++ -*-===//

#include "nd/Dialect/Nd/IR/NdDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nd;

#include "nd/Dialect/Nd/IR/NdDialect.cpp.inc"
#include "nd/Dialect/Nd/IR/NdEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "nd/Dialect/Nd/IR/NdAttrs.cpp.inc"

void NdDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "nd/Dialect/Nd/IR/NdAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "nd/Dialect/Nd/IR/NdOps.cpp.inc"
      >();
}

/// `nd.dim_names` on a function's argument or result #`index` of type
/// `type`: one string per dim of a ranked tensor (or of its buffer).
static LogicalResult verifyDimNames(Operation *op, Type type, Attribute value,
                                    StringRef what, unsigned index) {
  StringLiteral name = NdDialect::getDimNamesAttrName();
  auto names = dyn_cast<ArrayAttr>(value);
  if (!names || !llvm::all_of(names, llvm::IsaPred<StringAttr>))
    return op->emitError() << "'" << name << "' must be an array of strings";
  auto shaped = dyn_cast<ShapedType>(type);
  if (!isa<RankedTensorType, MemRefType>(type))
    return op->emitError() << "'" << name << "' " << what << " #" << index
                           << " must be a ranked tensor, got " << type;
  if (static_cast<int64_t>(names.size()) != shaped.getRank())
    return op->emitError() << "'" << name << "' of " << what << " #" << index
                           << " has " << names.size() << " name(s) for rank "
                           << shaped.getRank();
  return success();
}

LogicalResult NdDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attribute) {
  bool dimNames = attribute.getName() == getDimNamesAttrName();
  if (attribute.getName() != getDonatedAttrName() && !dimNames)
    return op->emitError() << "unknown nd argument attribute '"
                           << attribute.getName().getValue() << "'";
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || regionIndex != 0)
    return op->emitError() << "'" << attribute.getName().getValue()
                           << "' applies to function arguments only";
  Type type = function.getArgumentTypes()[argIndex];
  if (dimNames)
    return verifyDimNames(op, type, attribute.getValue(), "argument", argIndex);
  if (!isa<UnitAttr>(attribute.getValue()))
    return op->emitError() << "'" << getDonatedAttrName()
                           << "' must be a unit attribute";
  // A ranked tensor, or the buffer bufferization made of one.
  if (!isa<RankedTensorType, MemRefType>(type))
    return op->emitError() << "'" << getDonatedAttrName() << "' argument #"
                           << argIndex << " must be a ranked tensor, got "
                           << type;
  return success();
}

LogicalResult NdDialect::verifyRegionResultAttribute(Operation *op,
                                                     unsigned regionIndex,
                                                     unsigned resultIndex,
                                                     NamedAttribute attribute) {
  if (attribute.getName() != getDimNamesAttrName())
    return op->emitError() << "unknown nd result attribute '"
                           << attribute.getName().getValue() << "'";
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || regionIndex != 0)
    return op->emitError() << "'" << getDimNamesAttrName()
                           << "' applies to function results only";
  return verifyDimNames(op, function.getResultTypes()[resultIndex],
                        attribute.getValue(), "result", resultIndex);
}
