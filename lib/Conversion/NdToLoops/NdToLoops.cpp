//===- NdToLoops.cpp - lower nd ops to loops over buffers -------*- C++ -*-===//
//
// The pass `--lower-scatter` and `populateNdToLoopsPatterns`: the six nd ops
// (every oob mode, every reduction, use_init_val) to memref, scf, vector,
// arith, math and complex ops, each op into a private function of its own.
// The ops on buffers are lowered as they are: one-shot bufferization (as in
// --nd-to-llvm) has decided where each works (see
// BufferizableOpInterfaceImpl.cpp). An op on tensors, as users write it,
// first becomes its form on buffers on a buffer of its own (OnTensors.cpp),
// between `bufferization.to_buffer` and `to_tensor` ops that the rest of
// the program, still on tensors, bufferizes through.
//
// Preconditions: the ops verify. Dimensions the verifier could not compare
// (dynamic ones, a dynamic index depth) and, under oob<error>, every index
// value are checked at run time when bounds checking is on (under skip and
// clamp every index value has a meaning: no check). A failed check emits
// `nd_rt.report_at` with a message naming the op, its location, the
// operand, the value and the dimension; the op then writes nothing into
// `data` (a scatter) and returns. A scatter checks every index before it
// writes, unless its destination is `disposable` (a fresh copy nothing
// reads when it fails), where it checks a block of entries at a time just
// before it applies them (checkedApply, Parallel.h); a gather checks each
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
//   ScatterND.cpp, ScatterElements.cpp, TensorScatter.cpp (OpLowerings.h),
//   and OnTensors.cpp for the ops on tensors;
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
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

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
  populateOnTensorsLowering(patterns);
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

    ConversionTarget target(*ctx);
    target.addIllegalDialect<NdDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    // The pass lowers every op it is given: an op on constants is left to
    // the canonicalizer to fold, not folded here in place of its lowering.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
