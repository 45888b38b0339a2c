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

LogicalResult NdDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attribute) {
  if (attribute.getName() != getDonatedAttrName())
    return op->emitError() << "unknown nd argument attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<UnitAttr>(attribute.getValue()))
    return op->emitError() << "'" << getDonatedAttrName()
                           << "' must be a unit attribute";
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || regionIndex != 0)
    return op->emitError() << "'" << getDonatedAttrName()
                           << "' applies to function arguments only";
  // A ranked tensor, or the buffer bufferization made of one.
  Type type = function.getArgumentTypes()[argIndex];
  if (!isa<RankedTensorType, MemRefType>(type))
    return op->emitError() << "'" << getDonatedAttrName() << "' argument #"
                           << argIndex << " must be a ranked tensor, got "
                           << type;
  return success();
}
