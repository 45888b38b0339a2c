//===- Lowering.cpp - shape checks of one op's GPU lowering ---------------===//
//
// See Lowering.h.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "nd/Conversion/NdToGPU/GPUSupport.h"
#include "Semantics.h"

#include "nd/Conversion/CheckMessages.h"
#include "nd/Conversion/ShapeChecks.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

Value OpLowering::ok() {
  if (!allOk)
    allOk = constBool(b, loc, true);
  return allOk;
}

OpLowering::IndexChecks
OpLowering::takeIndexChecks(const RowAddressing &model) {
  IndexChecks checks;
  checks.checking = checksIndices(model.oob);
  if (!checks.checking)
    return checks;
  checks.slot = record->takeSlot();
  for (int64_t c = 0; c < model.numComponents; ++c) {
    int64_t code = record->addMessage(op, indexMessage(op, c));
    if (c == 0)
      checks.firstCode = code;
  }
  return checks;
}

void OpLowering::checkShapes() {
  if (!record)
    return;
  forEachRuntimeShapeCheck(
      b, loc, cast<IterationSpaceOpInterface>(op), op->getOperands(),
      [&](const RuntimeShapeCheck &check) {
        int64_t code = record->addMessage(op, check.message);
        // Only the first failing check of the op reports, as on the CPU.
        Value fire = andBool(b, loc, ok(), check.violated);
        record->recordFromHost(b, loc, fire, code, check.lhs, check.rhs);
        allOk = andBool(b, loc, ok(), notBool(b, loc, check.violated));
      });
}
