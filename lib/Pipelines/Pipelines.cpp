//===- Pipelines.cpp - nd pass pipelines ------------------------*- C++ -*-===//
//
// `nd-to-llvm`: from tensor functions using nd ops to the LLVM dialect. Each
// conversion's own header is included rather than mlir/Conversion/Passes.h,
// which costs ~30 s and 2 GB per translation unit.
//
//===----------------------------------------------------------------------===//

#include "nd/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "nd/Conversion/NdToLinalg/NdToLinalg.h"

using namespace mlir;

void mlir::nd::buildNdToLLVMPipeline(OpPassManager &pm,
                                     const NdToLLVMPipelineOptions &options) {
  LowerScatterOptions lowerOptions;
  lowerOptions.checkBounds = options.checkBounds;
  pm.addPass(createLowerScatter(lowerOptions));
  // Elementwise arith on tensors (e.g. arith.extf of a whole tensor) has no
  // bufferization of its own: turn it into linalg first.
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // A scatter's slice updated in place leaves a copy of the slice onto itself
  // (two identical subviews); CSE makes them one and the copy folds away.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());

  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::nd::registerNdPipelines() {
  PassPipelineRegistration<NdToLLVMPipelineOptions>(
      "nd-to-llvm",
      "Lower a module of tensor functions using nd ops to the LLVM dialect "
      "(lower-scatter, one-shot bufferization, deallocation, loops, LLVM)",
      buildNdToLLVMPipeline);
}
