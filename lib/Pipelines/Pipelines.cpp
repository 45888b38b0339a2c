//===- Pipelines.cpp - nd pass pipelines ------------------------*- C++ -*-===//
//
// `nd-to-llvm`: from tensor functions using nd ops to the LLVM dialect, and
// the registration of every nd pipeline (`nd-sharded-to-llvm` is built in
// ShardPipeline.cpp, `nd-to-gpu` in GPUPipeline.cpp). Each
// conversion's own header is included rather than mlir/Conversion/Passes.h,
// which costs ~30 s and 2 GB per translation unit.
//
//===----------------------------------------------------------------------===//

#include "nd/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Conversion/NdToLinalg/NdToLinalg.h"

using namespace mlir;

void mlir::nd::buildNdToLLVMPipeline(OpPassManager &pm,
                                     const NdToLLVMPipelineOptions &options) {
  // Arguments the caller did not donate are never written.
  pm.addPass(createNdDonation());
  LowerScatterOptions lowerOptions;
  lowerOptions.checkBounds = options.checkBounds;
  lowerOptions.grain = options.grain;
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
  // A scatter partition's slice, updated in place, is inserted back onto
  // itself (two identical subviews); CSE makes them one and the copy folds.
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  // A row scatter's view of its destination as rows and back is the
  // destination itself, even with several dynamic dims in a group.
  pm.addPass(createNdFoldReshapes());
  // The nd ops are outlined into private functions that update their data
  // argument in place (the caller copies it where it must): such a result
  // is the argument itself once canonicalized, and goes, so that nothing
  // clones it on return.
  pm.addPass(bufferization::createDropEquivalentBufferResultsPass());
  // Upstream's deallocation pipeline (buildBufferDeallocationPipeline), whose
  // simplification step runs only where it is cheap: it is quadratic in the
  // buffers a function frees, N for a function of N allocating nd ops.
  memref::ExpandReallocPassOptions expandReallocOptions;
  expandReallocOptions.emitDeallocs = false;
  pm.addPass(memref::createExpandReallocPass(expandReallocOptions));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createNdSimplifyDeallocations());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createNdReturnDonated());
  pm.addPass(createConvertBufferizationToMemRefPass());
  pm.addPass(createNdParallelCopy());

  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(createForallToParallelLoopPass());
  if (options.parallel) {
    pm.addPass(createConvertSCFToOpenMPPass());
    pm.addPass(createNdOpenMPIf());
    // The memref.alloca_scope around each loop body (the bodies allocate
    // nothing on the stack) must not hold several blocks once scf-to-cf has
    // run: inlined.
    pm.addPass(createNdInlineAllocaScopes());
    pm.addPass(createCanonicalizerPass());
  }
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createLoopInvariantCodeMotionPass());
  pm.addPass(createSCFToControlFlowPass());
  ConvertNdRuntimeToLLVMOptions runtimeOptions;
  runtimeOptions.parallel = options.parallel;
  pm.addPass(createConvertNdRuntimeToLLVM(runtimeOptions));
  if (options.runtimeAllocator) {
    FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
    memrefOptions.useGenericFunctions = true;
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  }
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::nd::registerNdPipelines() {
  PassPipelineRegistration<NdToLLVMPipelineOptions>(
      "nd-to-llvm",
      "Lower a module of tensor functions using nd ops to the LLVM dialect "
      "(donation, lower-scatter, one-shot bufferization, deallocation, "
      "OpenMP, LLVM)",
      buildNdToLLVMPipeline);
  PassPipelineRegistration<NdToGPUPipelineOptions>(
      "nd-to-gpu",
      "Lower a module of tensor functions using nd ops to the LLVM dialect "
      "for NVIDIA GPUs (donation, one-shot bufferization, GPU kernels, fat "
      "binaries of sm_90 and sm_80 cubins and PTX, host code calling nd's "
      "CUDA runtime)",
      buildNdToGPUPipeline);
  PassPipelineRegistration<>(
      "nd-sharded-to-llvm",
      "Lower a module with sharded functions to the LLVM dialect for MPI "
      "(nd-partition, nd-lower-shard-collectives, convert-shard-to-mpi, "
      "nd-to-llvm, nd-strip-shard-metadata), with their default options",
      buildNdShardedToLLVMPipeline);
}
