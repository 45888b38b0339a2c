//===- ShapeChecks.h - the run-time checks of an op's shape rules -*- C++ -*-=//
//
// The one walk of an op's shape constraints (the model's list,
// `getShapeConstraints()`, NdRowAddressing.h) that both lowerings share: the
// CPU's (--lower-scatter) and the GPU's (--convert-nd-to-gpu) check each
// constraint a dynamic size leaves to run time, in the list's order, with
// the same sizes and the same message; they differ only in how a failure is
// reported (the CPU's check chain, the GPU's error record).
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_SHAPECHECKS_H
#define ND_CONVERSION_SHAPECHECKS_H

#include "nd/Dialect/Nd/IR/NdOps.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mlir::nd {

/// One constraint to check at run time: `lhs` must equal `rhs` (or be at
/// most `rhs`); `violated` is the i1 that holds where it does not, and
/// `message` (CheckMessages.h's dimMessage) then reports the two sizes.
struct RuntimeShapeCheck {
  Value lhs;
  Value rhs;
  Value violated;
  std::string message;
};

/// Walks `op`'s shape constraints in order and hands `check` each one that
/// needs a run-time check (a size of `values` is dynamic; the verifier has
/// decided the rest), its two sizes and their comparison built with `b` at
/// `loc`, in that order. `values` are the op's values in map order as the lowering sees
/// them (on buffers its operands, a gather's `into` in the result's place);
/// their types say which sizes are static.
void forEachRuntimeShapeCheck(
    OpBuilder &b, Location loc, IterationSpaceOpInterface op,
    ValueRange values, llvm::function_ref<void(const RuntimeShapeCheck &)> check);

} // namespace mlir::nd

#endif // ND_CONVERSION_SHAPECHECKS_H
