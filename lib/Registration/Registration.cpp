//===- Registration.cpp - register nd's dialect and passes ------*- C++ -*-===//

#include "nd/Registration/Registration.h"

#include "mlir/IR/DialectRegistry.h"
#include "nd/Bridges/Bridges.h"
#include "nd/Conversion/Passes.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/Transforms/BufferizableOpInterfaceImpl.h"
#include "nd/Dialect/Nd/Transforms/Passes.h"
#include "nd/Dialect/Nd/Transforms/TilingInterfaceImpl.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"
#include "nd/Pipelines/Pipelines.h"
#include "nd/Target/CUDA/Passes.h"

void mlir::nd::registerNdDialects(DialectRegistry &registry) {
  registry.insert<NdDialect, rt::NdRuntimeDialect>();
  registerNdToLLVMInterfaces(registry);
  registerShardingInterfaceExternalModels(registry);
  registerTilingInterfaceExternalModels(registry);
  registerBufferizableOpInterfaceExternalModels(registry);
  registerMPIMemoryEffectsExternalModels(registry);
}

void mlir::nd::registerNdPasses() {
  registerNdBridgesPasses();
  registerNdConversionPasses();
  registerNdCUDAPasses();
  registerNdPipelines();
  registerNdTransformsPasses();
}
