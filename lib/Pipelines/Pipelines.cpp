//===- Pipelines.cpp - nd pass pipelines ------------------------*- C++ -*-===//
//
// `nd-to-llvm`: from tensor functions using nd ops (or upstream gathers and
// scatters, which it converts first) to the LLVM dialect, and the
// registration of every nd pipeline (`nd-sharded-to-llvm` is built in
// ShardPipeline.cpp, `nd-to-gpu` in GPUPipeline.cpp). Each conversion's own
// header is included rather than mlir/Conversion/Passes.h, which costs ~30 s
// and 2 GB per translation unit.
//
//===----------------------------------------------------------------------===//

#include "nd/Pipelines/Pipelines.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/BufferizationToMemRef/BufferizationToMemRef.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToSCF/TosaToSCF.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "nd/Bridges/Bridges.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Conversion/NdToLoops/NdToLoops.h"
#include "nd/Conversion/TensorToNd/TensorToNd.h"
#include "nd/Conversion/TosaToNd/TosaToNd.h"
#include "nd/Dialect/Nd/Transforms/Passes.h"

using namespace mlir;

/// The first stage: upstream's gathers and scatters into nd ops, and the
/// other ops of a TOSA program into tensor, linalg, arith and scf ops
/// through upstream's conversions, which would lower TOSA's gather and
/// scatter themselves if they came first. What follows takes nd ops.
static void addUpstreamConversions(OpPassManager &pm) {
  pm.addPass(nd::createConvertTensorToNd());
  pm.addPass(nd::createConvertTosaToNd());
  OpPassManager &functions = pm.nest<func::FuncOp>();
  functions.addPass(createTosaToSCFPass());
  functions.addPass(tosa::createTosaToLinalgNamed());
  functions.addPass(tosa::createTosaToLinalg());
  functions.addPass(createTosaToArithPass());
  functions.addPass(createTosaToTensorPass());
}

void mlir::nd::addNdDeallocationPasses(OpPassManager &pm) {
  // An expansion with several dynamic dims in a group (a model's reshape)
  // as a reinterpret_cast: expand-strided-metadata of MLIR 22 crashes on it
  // (a bridge, see its banner).
  pm.addPass(createNdFoldReshapes());
  // A function that returns a donated argument's buffer (updated in place)
  // returns it as it is, so that nothing clones it on return (upstream's
  // drop-equivalent-buffer-results, run where it has something to drop: a
  // bridge, see its banner).
  pm.addPass(createNdDropEquivalentBufferResults());
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
}

void mlir::nd::addNdBufferizationPasses(OpPassManager &pm, bool linearInOps) {
  // MLIR 22's canonicalizer crashes on a dim of a constant index out of
  // range where the GPU dialect is loaded (a bridge, see
  // --nd-check-dim-indices).
  pm.addPass(createNdCheckDimIndices());
  // Arguments the caller did not donate are never written.
  pm.addPass(createNdDonation());
  // Elementwise arith on tensors (e.g. arith.extf of a whole tensor) has no
  // bufferization of its own: turn it into linalg first. No canonicalization
  // before the nd ops are lowered: upstream's folds a `tensor.cast` into
  // every destination-style op's operands, which makes a shape mismatch that
  // nd checks at run time (a dynamic dim, known to differ only once the cast
  // folds) a compile-time error.
  pm.addPass(createConvertElementwiseToLinalgPass());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  if (linearInOps) {
    pm.addPass(createCSEPass());
    // One-shot bufferization decides where every op works, the nd ops
    // included (see BufferizableOpInterfaceImpl.cpp): a scatter in place on
    // its destination where it may be, on a copy where it may not. Tensors
    // that nothing writes are read through one buffer each, which keeps the
    // analysis linear in the number of ops that read them.
    pm.addPass(createNdShareReadBuffers());
    // The tensor constants' globals, as one-shot bufferization would make
    // them but in linear time (a bridge, see its banner).
    NdBufferizeConstantsOptions constantsOptions;
    constantsOptions.alignment = bufferizeOptions.bufferAlignment;
    pm.addPass(createNdBufferizeConstants(constantsOptions));
  }
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  pm.addPass(createNdStableConstantNames());
}

void mlir::nd::addNdHostToLLVMPasses(OpPassManager &pm,
                                     const NdHostToLLVMOptions &options) {
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  if (options.hoistInvariants)
    pm.addPass(createLoopInvariantCodeMotionPass());
  // Each buffer freed after its last use, not at the end of its block.
  pm.addPass(createNdEarlyDeallocation());
  pm.addPass(createSCFToControlFlowPass());
  // The static buffers of the ops' functions passed as one pointer each,
  // and (nd's allocator) those only passed, copied and freed allocated as
  // one.
  NdBufferAddressesOptions addressOptions;
  addressOptions.allocations =
      options.finalizeMemRef && options.genericAllocator;
  pm.addPass(createNdBufferAddresses(addressOptions));
  ConvertNdRuntimeToLLVMOptions runtimeOptions;
  runtimeOptions.parallel = options.parallel;
  pm.addPass(createConvertNdRuntimeToLLVM(runtimeOptions));
  if (options.gpuRuntime)
    pm.addPass(createGpuToLLVMConversionPass());
  if (options.finalizeMemRef) {
    FinalizeMemRefToLLVMConversionPassOptions memrefOptions;
    // nd's allocator aligns what it returns: no rounding up in the
    // generated code, which every later pass would walk.
    memrefOptions.useGenericFunctions = options.genericAllocator;
    memrefOptions.useAlignedAlloc = options.genericAllocator;
    pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefOptions));
  }
  // convert-to-llvm, with the functions ahead of many globals while it
  // looks callees up (a bridge, see nd-functions-first's banner).
  if (options.functionsFirst)
    pm.addPass(createNdFunctionsFirst());
  pm.addPass(createConvertToLLVMPass());
  if (options.functionsFirst)
    pm.addPass(createNdRestoreOrder());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // A buffer that cannot be allocated ends the call with nd's report.
  if (options.checkAllocations)
    pm.addPass(createNdCheckAllocations());
  pm.addPass(createCanonicalizerPass());
}

void mlir::nd::buildNdToLLVMPipeline(OpPassManager &pm,
                                     const NdToLLVMPipelineOptions &options) {
  if (options.upstreamConversions)
    addUpstreamConversions(pm);
  addNdBufferizationPasses(pm, /*linearInOps=*/true);
  // The nd ops on buffers, each into a call of a function of its own.
  LowerScatterOptions lowerOptions;
  lowerOptions.checkBounds = options.checkBounds;
  lowerOptions.grain = options.grain;
  pm.addPass(createLowerScatter(lowerOptions));
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  addNdDeallocationPasses(pm);
  if (!options.resultDestinations.empty()) {
    NdResultDestinationsOptions destinationOptions;
    destinationOptions.function = options.resultDestinations;
    pm.addPass(createNdResultDestinations(destinationOptions));
  }
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
  NdHostToLLVMOptions hostOptions;
  hostOptions.parallel = options.parallel;
  hostOptions.hoistInvariants = true;
  hostOptions.finalizeMemRef = options.runtimeAllocator;
  hostOptions.genericAllocator = true;
  hostOptions.functionsFirst = true;
  hostOptions.checkAllocations = true;
  addNdHostToLLVMPasses(pm, hostOptions);
}

void mlir::nd::registerNdPipelines() {
  PassPipelineRegistration<NdToLLVMPipelineOptions>(
      "nd-to-llvm",
      "Lower a module of tensor functions using nd ops to the LLVM dialect "
      "(upstream gathers, scatters and TOSA ops converted first, donation, "
      "lower-scatter, one-shot bufferization, deallocation, OpenMP, LLVM)",
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
