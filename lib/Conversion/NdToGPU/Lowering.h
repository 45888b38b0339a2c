//===- Lowering.h - the GPU lowering of one nd op ---------------*- C++ -*-===//
//
// Internal to the NdToGPU library: what the lowering of each op (one file per
// op family: Gathers.cpp, Scatters.cpp, TensorScatter.cpp) gets, and the
// entry point of each.
//
// Preconditions of every lowering: the op is on buffers (memrefs, no result;
// a gather writes `into`), inside a host function; its buffers are device
// memory. The lowering builds, before the op, the host code that checks
// dynamic shapes and launches the op's kernels, then erases the op.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_LOWERING_H
#define ND_LIB_CONVERSION_NDTOGPU_LOWERING_H

#include "ErrorRecord.h"

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/IR/NdRowAddressing.h"

namespace mlir::nd::gpu_lowering {

/// The lowering of one op: its builder (before the op), the function's error
/// record (null without run-time checks) and the op's shape checks.
class OpLowering {
public:
  OpLowering(OpBuilder &b, Operation *op, ErrorRecord *record)
      : b(b), loc(op->getLoc()), op(op), record(record) {}

  OpBuilder &b;
  Location loc;
  Operation *op;
  ErrorRecord *record;

  /// Whether index values under `oob` are checked (oob<error> with checks).
  bool checksIndices(OobMode oob) const {
    return record && oob == OobMode::Error;
  }

  /// Checks the op's shape constraints that its dynamic sizes leave to run
  /// time (nd/Conversion/ShapeChecks.h, on its operands, in the model's
  /// order): a failure is recorded with the CPU lowering's message and
  /// clears `ok()`.
  void checkShapes();

  /// Whether every shape check so far holds (an i1 on the host).
  Value ok();

  /// The run-time checks of the op's index values, as its model gives them
  /// (`oob`, the components of an entry): under oob<error> with checks, a
  /// slot of the record and the message of a bad value of each component
  /// (indexMessage), in component order.
  struct IndexChecks {
    bool checking = false;
    int64_t slot = -1;
    /// The message of component 0; component c's is `firstCode + c`.
    int64_t firstCode = 0;
  };
  IndexChecks takeIndexChecks(const RowAddressing &model);

private:
  Value allOk;
};

LogicalResult lowerGatherND(OpLowering &lowering, GatherNDOp op);
LogicalResult lowerGather(OpLowering &lowering, GatherOp op);
LogicalResult lowerGatherElements(OpLowering &lowering, GatherElementsOp op);
LogicalResult lowerScatterND(OpLowering &lowering, ScatterNDOp op);
LogicalResult lowerScatterElements(OpLowering &lowering, ScatterElementsOp op);
LogicalResult lowerTensorScatter(OpLowering &lowering, TensorScatterOp op);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_LOWERING_H
