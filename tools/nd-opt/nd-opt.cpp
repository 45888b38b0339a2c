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
#include "nd/Registration/Registration.h"
#include "nd/Support/Version.h"

int main(int argc, char **argv) {
  mlir::nd::registerVersionPrinter();
  mlir::registerAllPasses();
  mlir::nd::registerNdPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::nd::registerNdDialects(registry);

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nd optimizer driver\n", registry));
}
