//===- NdRuntime.h - the nd_rt dialect --------------------------*- C++ -*-===//
//
// nd's run-time contract as ops (see NdRuntimeOps.td).
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_NDRUNTIME_IR_NDRUNTIME_H
#define ND_DIALECT_NDRUNTIME_IR_NDRUNTIME_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "nd/Dialect/NdRuntime/IR/NdRuntimeDialect.h.inc"

namespace mlir::nd::rt {
/// Whether `type` is a buffer whose type says everything but where its
/// elements are: a memref of static shape, identity layout and the default
/// memory space (the type of `nd_rt.buffer_at`).
bool isStaticBuffer(Type type);
} // namespace mlir::nd::rt

#define GET_OP_CLASSES
#include "nd/Dialect/NdRuntime/IR/NdRuntimeOps.h.inc"

namespace mlir::nd::rt {
/// The unit attribute of the function `--lower-scatter` makes of an nd op
/// (see the dialect's description).
inline constexpr llvm::StringLiteral kOpFunctionAttrName = "nd_rt.op_function";
} // namespace mlir::nd::rt

#endif // ND_DIALECT_NDRUNTIME_IR_NDRUNTIME_H
