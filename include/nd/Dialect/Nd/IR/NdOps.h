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

namespace mlir::nd {

/// The ranked tensor type with the shape and element type of a ranked tensor
/// or memref type: the verifiers' and the lowering's view of either form.
RankedTensorType getTensorType(Type shaped);

/// Whether an nd op works on buffers (memref operands, updated in place,
/// no result) rather than on tensors.
bool isOnBuffers(Operation *op);

/// The shape and element type of what an nd op produces: its result, or on
/// buffers the buffer it updates (a scatter's destination, a gather's
/// `into`), as a tensor type.
RankedTensorType getProducedType(Operation *op);

} // namespace mlir::nd

#endif // ND_DIALECT_ND_IR_NDOPS_H
