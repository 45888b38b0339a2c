//===- nd-opt.cpp - nd's optimizer driver -----------------------*- C++ -*-===//
//
// mlir-opt with the nd dialect and its passes registered next to every
// upstream dialect, extension and pass.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "nd/Conversion/Passes.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Pipelines/Pipelines.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::nd::registerNdConversionPasses();
  mlir::nd::registerNdPipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::nd::NdDialect>();

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nd optimizer driver\n", registry));
}
