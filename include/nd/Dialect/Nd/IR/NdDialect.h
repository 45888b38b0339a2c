//===- NdDialect.h - nd dialect ---------------------------------*- C++ -*-===//
//
// The nd dialect: scatter and gather ops of ONNX and OpenVINO.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDDIALECT_H
#define ND_DIALECT_ND_IR_NDDIALECT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/Dialect.h"

#include "nd/Dialect/Nd/IR/NdDialect.h.inc"
#include "nd/Dialect/Nd/IR/NdEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "nd/Dialect/Nd/IR/NdAttrs.h.inc"

#endif // ND_DIALECT_ND_IR_NDDIALECT_H
