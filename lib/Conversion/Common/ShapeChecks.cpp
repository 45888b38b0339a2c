//===- ShapeChecks.cpp - the run-time checks of an op's shape rules -------===//
//
// See nd/Conversion/ShapeChecks.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/ShapeChecks.h"

#include "nd/Conversion/CheckMessages.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace mlir::nd;

/// What a failure of `constraint` names as the size `lhs` was compared with.
static std::string describeRhs(const ShapeConstraint &constraint) {
  switch (constraint.rule) {
  case ShapeRule::IndexDepth:
    return "the index depth the ranks give";
  case ShapeRule::ResultDim:
    return ("result dim " + Twine(constraint.rhs.dim)).str();
  default:
    return ("operand '" + constraint.rhsName + "' dim " +
            Twine(constraint.rhs.dim))
        .str();
  }
}

static int64_t staticSize(ValueRange values, const DimRef &ref) {
  return cast<ShapedType>(values[ref.value].getType()).getDimSize(ref.dim);
}

void mlir::nd::forEachRuntimeShapeCheck(
    OpBuilder &b, Location loc, IterationSpaceOpInterface op, ValueRange values,
    llvm::function_ref<void(const RuntimeShapeCheck &)> check) {
  for (const ShapeConstraint &constraint : op.getShapeConstraints()) {
    bool depth = constraint.rule == ShapeRule::IndexDepth;
    int64_t lhsStatic = staticSize(values, constraint.lhs);
    int64_t rhsStatic =
        depth ? constraint.depth : staticSize(values, constraint.rhs);
    if (!constraint.needsRuntimeCheck(lhsStatic, rhsStatic))
      continue;
    RuntimeShapeCheck runtime;
    // Each size is bound in turn: the IR comes out in the list's order.
    runtime.lhs =
        dimValue(b, loc, values[constraint.lhs.value], constraint.lhs.dim);
    runtime.rhs = depth ? constIndex(b, loc, constraint.depth)
                        : dimValue(b, loc, values[constraint.rhs.value],
                                   constraint.rhs.dim);
    runtime.violated = b.createOrFold<arith::CmpIOp>(
        loc,
        constraint.atMost ? arith::CmpIPredicate::ugt
                          : arith::CmpIPredicate::ne,
        runtime.lhs, runtime.rhs);
    runtime.message = dimMessage(constraint.lhsName, constraint.lhs.dim,
                                 describeRhs(constraint), constraint.atMost);
    check(runtime);
  }
}
