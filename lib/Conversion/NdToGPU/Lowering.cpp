//===- Lowering.cpp - shape checks of one op's GPU lowering ------*- C++
//-*-===//
//
// See Lowering.h.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "GPUSupport.h"
#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

Value OpLowering::ok() {
  if (!allOk)
    allOk = constBool(b, loc, true);
  return allOk;
}

void OpLowering::compare(Value lhs, StringRef lhsName, int64_t lhsDim,
                         Value rhs, StringRef rhsText, bool atMost) {
  Value bad = cmpIndex(
      b, loc, atMost ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ne,
      lhs, rhs);
  int64_t code =
      record->addMessage(op, dimMessage(lhsName, lhsDim, rhsText, atMost));
  // Only the first failing check of the op reports, as on the CPU.
  Value fire = andBool(b, loc, ok(), bad);
  record->recordFromHost(b, loc, fire, code, lhs, rhs);
  allOk = andBool(b, loc, ok(), notBool(b, loc, bad));
}

void OpLowering::checkDims(Value lhs, StringRef lhsName, int64_t lhsDim,
                           Value rhs, StringRef rhsName, int64_t rhsDim,
                           bool atMost) {
  if (!record)
    return;
  auto lhsType = cast<ShapedType>(lhs.getType());
  auto rhsType = cast<ShapedType>(rhs.getType());
  if (!lhsType.isDynamicDim(lhsDim) && !rhsType.isDynamicDim(rhsDim))
    return;
  std::string rhsText =
      ("operand '" + rhsName + "' dim " + Twine(rhsDim)).str();
  Value lhsSize = dimValue(b, loc, lhs, lhsDim);
  Value rhsSize = dimValue(b, loc, rhs, rhsDim);
  compare(lhsSize, lhsName, lhsDim, rhsSize, rhsText, atMost);
}

void OpLowering::checkIndexDepth(Value indices, int64_t depth) {
  auto type = cast<ShapedType>(indices.getType());
  int64_t last = type.getRank() - 1;
  if (!record || !type.isDynamicDim(last))
    return;
  Value actual = dimValue(b, loc, indices, last);
  Value expected = constIndex(b, loc, depth);
  compare(actual, "indices", last, expected, "the index depth the ranks give",
          /*atMost=*/false);
}

void OpLowering::checkResultDim(Value operand, StringRef operandName,
                                int64_t operandDim, Value into,
                                int64_t intoDim) {
  if (!record)
    return;
  auto operandType = cast<ShapedType>(operand.getType());
  auto intoType = cast<ShapedType>(into.getType());
  if (!operandType.isDynamicDim(operandDim) && !intoType.isDynamicDim(intoDim))
    return;
  std::string resultText = ("result dim " + Twine(intoDim)).str();
  Value actual = dimValue(b, loc, operand, operandDim);
  Value declared = dimValue(b, loc, into, intoDim);
  compare(actual, operandName, operandDim, declared, resultText,
          /*atMost=*/false);
}
