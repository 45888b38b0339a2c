//===- NdDialect.cpp - nd dialect -------------------------------*- C++ -*-===//

#include "nd/Dialect/Nd/IR/NdDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
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
