//===- NdOps.h - nd dialect ops ---------------------------------*- C++ -*-===//
//
// scatter_nd, gather_nd, scatter_elements and gather_elements.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDOPS_H
#define ND_DIALECT_ND_IR_NDOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdIterationSpace.h"

#include "nd/Dialect/Nd/IR/NdInterfaces.h.inc"

#define GET_OP_CLASSES
#include "nd/Dialect/Nd/IR/NdOps.h.inc"

#endif // ND_DIALECT_ND_IR_NDOPS_H
