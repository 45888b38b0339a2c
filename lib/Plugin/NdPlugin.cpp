//===- NdPlugin.cpp - nd as a plugin of mlir-opt ----------------*- C++ -*-===//
//
// NdPlugin.so, loaded by a stock mlir-opt (one that links libMLIR.so, as
// Debian's does) with
//
//   mlir-opt --load-dialect-plugin=NdPlugin.so --load-pass-plugin=NdPlugin.so
//     --pass-pipeline='builtin.module(lower-scatter,nd-to-llvm)'
//
// Both entry points hand off to nd's registration functions, so the plugin
// offers exactly what nd-opt adds to mlir-opt. Passes loaded from a plugin are
// reached through --pass-pipeline, not through flags of their own.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "nd/Registration/Registration.h"
#include "nd/Version.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "nd", ND_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::nd::registerNdDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "nd", ND_VERSION_STRING,
          []() { mlir::nd::registerNdPasses(); }};
}
