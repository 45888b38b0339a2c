//===- GPUPipeline.cpp - the nd-to-gpu pipeline ----------------*- C++ -*-===//
//
// `nd-to-gpu`: from tensor functions using nd ops to the LLVM dialect with
// the GPU kernels embedded as fat binaries (sm_90 and sm_80 cubins and PTX),
// their launches calling the `mgpu*` entry points of nd's CUDA runtime
// (lib/Runtime/CUDA).
//
//===----------------------------------------------------------------------===//

#include "nd/Pipelines/Pipelines.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "nd/Bridges/Bridges.h"
#include "nd/Conversion/NdToGPU/NdToGPU.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/Nd/Transforms/Passes.h"
#include "nd/Target/CUDA/Passes.h"

using namespace mlir;

void mlir::nd::buildNdToGPUPipeline(OpPassManager &pm,
                                    const NdToGPUPipelineOptions &options) {
  // Value semantics to buffers, as nd-to-llvm does, with the nd ops left in
  // place on buffers. The input is not folded (as in nd-to-llvm, that is
  // the caller's choice): the pipeline lowers what it is given.
  addNdBufferizationPasses(pm, /*linearInOps=*/false);
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  addNdDeallocationPasses(pm);

  // Kernels: nd's ops, then elementwise linalg ops through upstream's
  // mapping of parallel loops; the host's buffers on the device.
  ConvertNdToGPUOptions ndOptions;
  ndOptions.checkBounds = options.checkBounds;
  pm.addPass(createConvertNdToGPU(ndOptions));
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createGpuMapParallelLoopsPass());
  pm.addNestedPass<func::FuncOp>(createConvertParallelLoopToGpuPass());
  pm.addPass(createNdGPUHostMemory());
  // Outlining needs canonical IR (no unrealized casts across the boundary).
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  if (options.runOnHost) {
    pm.addPass(createNdGPURunOnHost());
    pm.addPass(createCanonicalizerPass());
    NdHostToLLVMOptions hostOptions;
    hostOptions.parallel = false;
    addNdHostToLLVMPasses(pm, hostOptions);
    return;
  }
  // Constants and sizes computed from them go into the kernels (the
  // canonicalizer hoisted them out of the launch regions): static sizes
  // compile into the kernels instead of reaching them as parameters.
  pm.addPass(createGpuLaunchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());
  pm.addPass(createNdGPUMergeModules());
  pm.addPass(createNdGPUCallStream());

  // The device: NVVM, PTX, a fat binary per module.
  GpuNVVMAttachTargetOptions targetOptions;
  targetOptions.chip = options.ptxChip;
  targetOptions.features = options.ptxFeatures;
  targetOptions.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(targetOptions));
  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  device.addPass(createNdGPUSkipUnchosen());
  device.addPass(createSCFToControlFlowPass());
  device.addPass(createConvertGpuOpsToNVVMOps());
  device.addPass(createCanonicalizerPass());
  device.addPass(createCSEPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions binaryOptions;
  binaryOptions.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(binaryOptions));
  NdGPUModuleToFatbinOptions fatbinOptions;
  fatbinOptions.chips.assign(options.chips.begin(), options.chips.end());
  fatbinOptions.toolkit = options.toolkit;
  pm.addPass(createNdGPUModuleToFatbin(fatbinOptions));

  // The host: LLVM, with nd's error reports and the GPU runtime calls.
  NdHostToLLVMOptions hostOptions;
  hostOptions.gpuRuntime = true;
  addNdHostToLLVMPasses(pm, hostOptions);
}
