//===- NdToLoops.cpp - lower nd ops to loops over buffers -------*- C++ -*-===//
//
// The pass `--lower-scatter` and `populateNdToLoopsPatterns`: the six nd ops
// on buffers (every oob mode, every reduction, use_init_val) to memref, scf,
// vector, arith, math and complex ops, each op into a private function of
// its own. It runs after bufferization (one-shot bufferization turns the ops
// on tensors into ops on buffers, see BufferizableOpInterfaceImpl.cpp) and
// emits nothing that bufferizes.
//
// Preconditions: the ops verify and work on buffers; an op on tensors is
// reported (bufferize first). Dimensions the verifier could not compare
// (dynamic ones, a dynamic index depth) and, under oob<error>, every index
// value are checked at run time when bounds checking is on (under skip and
// clamp every index value has a meaning: no check). A failed check calls
// `__nd_report_error_at` with a message naming the op, its location, the
// operand, the value and the dimension; the op then writes nothing into
// `data` (a scatter) and returns. A scatter checks every index before it
// writes, unless its destination is `disposable` (a fresh copy nothing
// reads when it fails), where it checks as it writes; a gather checks each
// index as it reads it and never touches memory through a bad one.
//
// Parallelism. Every op splits its work into partitions that an
// `scf.parallel` runs; the number of partitions comes from
// the amount of work and the thread count at run time. Results are
// bit-identical for every partition count: gathers write disjoint parts of
// their result, and a scatter applies the updates of every destination
// element in row-major order of the update entries, because each partition
// owns a disjoint part of the destination.
//
// Unsigned element types are reinterpreted as signless around the arith ops
// that combine values with `builtin.unrealized_conversion_cast`; the LLVM
// type converter maps both to the same iN, so the casts fold away.
//
// Layout of the library:
// - one file per op: GatherND.cpp, GatherElements.cpp, Gather.cpp,
//   ScatterND.cpp, ScatterElements.cpp, TensorScatter.cpp (OpLowerings.h);
// - the engines they share: CheckedGather (the gathers' partitions, checks
//   and report), RowScatter and RowOwners (scatters of entries into rows),
//   Tallies (scatter_elements' mean and use_init_val(false)), IndexChecks
//   (range tests and the report of the first bad index), IndexTuples and
//   Positions (how indices are read and walked);
// - the building blocks: Scalars, Reductions, Buffers, Parallel, and
//   LoweringState (outlining in Outlining.cpp, run-time calls and checks in
//   RuntimeCalls.cpp).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLoops/NdToLoops.h"

#include "LoweringState.h"
#include "OpLowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"

namespace mlir::nd {
#define GEN_PASS_DEF_LOWERSCATTER
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

void mlir::nd::populateNdToLoopsPatterns(RewritePatternSet &patterns,
                                         const NdLoweringOptions &options) {
  auto state = std::make_shared<LoweringState>(options.checkBounds,
                                               options.parallelGrain);
  populateGatherNDLowering(patterns, state);
  populateGatherElementsLowering(patterns, state);
  populateScatterNDLowering(patterns, state);
  populateScatterElementsLowering(patterns, state);
  populateGatherLowering(patterns, state);
  populateTensorScatterLowering(patterns, state);
}

namespace {
struct LowerScatterPass
    : public mlir::nd::impl::LowerScatterBase<LowerScatterPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    NdLoweringOptions options;
    options.checkBounds = checkBounds;
    options.parallelGrain = grain;
    populateNdToLoopsPatterns(patterns, options);

    // The ops on tensors are bufferization's to turn into ops on buffers.
    WalkResult onTensors = getOperation()->walk([](Operation *op) {
      if (!isa<NdDialect>(op->getDialect()) || isOnBuffers(op))
        return WalkResult::advance();
      op->emitOpError()
          << "on tensors: --lower-scatter takes nd ops on buffers; bufferize "
             "first (--one-shot-bufferize, as --nd-to-llvm does)";
      return WalkResult::interrupt();
    });
    if (onTensors.wasInterrupted())
      return signalPassFailure();

    ConversionTarget target(*ctx);
    target.addIllegalDialect<NdDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
