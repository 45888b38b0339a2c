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
#include "nd/Dialect/Nd/IR/NdRowAddressing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

namespace mlir::nd {
namespace detail {
/// The effects and speculation every nd op shares (NdOpTrait).
void getNdEffects(
    Operation *op,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects);
Speculation::Speculatability getNdSpeculatability(Operation *op);

template <typename OpTy>
using DisposableAccessor = decltype(std::declval<OpTy &>().getDisposable());

/// `disposable` of a scatter; a gather has none.
template <typename OpTy> bool isDisposable(OpTy op) {
  if constexpr (llvm::is_detected<DisposableAccessor, OpTy>::value)
    return op.getDisposable();
  else
    return false;
}
template <typename OpTy> void setDisposable(OpTy op) {
  if constexpr (llvm::is_detected<DisposableAccessor, OpTy>::value)
    op.setDisposable(true);
  else
    llvm_unreachable("only a scatter is disposable");
}
} // namespace detail

/// What every nd op shares, whatever its operands: it reads the buffers
/// among its operands and on buffers writes the one it updates (a scatter's
/// destination, a gather's `into`); on tensors only, it may be hoisted.
template <typename ConcreteType>
class NdOpTrait : public OpTrait::TraitBase<ConcreteType, NdOpTrait> {
public:
  void
  getEffects(SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) {
    detail::getNdEffects(this->getOperation(), effects);
  }
  Speculation::Speculatability getSpeculatability() {
    return detail::getNdSpeculatability(this->getOperation());
  }
};

/// The ops with an `axis` into their first operand (`data`, `past_cache`).
template <typename ConcreteType>
class NdAxisOpTrait : public OpTrait::TraitBase<ConcreteType, NdAxisOpTrait> {
public:
  /// `axis` normalised to `[0, rank)`.
  int64_t getNormalizedAxis() {
    Operation *op = this->getOperation();
    auto axis = static_cast<int64_t>(cast<ConcreteType>(op).getAxis());
    int64_t rank = cast<ShapedType>(op->getOperand(0).getType()).getRank();
    return axis < 0 ? axis + rank : axis;
  }
};
} // namespace mlir::nd

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
