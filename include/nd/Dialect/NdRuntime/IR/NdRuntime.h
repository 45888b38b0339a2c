//===- NdRuntime.h - the nd_rt dialect --------------------------*- C++ -*-===//
//
// nd's run-time contract as ops (see NdRuntimeOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_NDRUNTIME_IR_NDRUNTIME_H
#define ND_DIALECT_NDRUNTIME_IR_NDRUNTIME_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "nd/Dialect/NdRuntime/IR/NdRuntimeDialect.h.inc"

#define GET_OP_CLASSES
#include "nd/Dialect/NdRuntime/IR/NdRuntimeOps.h.inc"

#endif // ND_DIALECT_NDRUNTIME_IR_NDRUNTIME_H
