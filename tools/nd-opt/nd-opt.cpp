//===- nd-opt.cpp - nd's optimizer driver -----------------------*- C++ -*-===//
//
// mlir-opt with the nd dialect and its passes registered next to every
// upstream dialect, extension and pass.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
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
  // gpu-module-to-binary (the nd-to-gpu pipeline) translates kernels to LLVM
  // IR in process.
  mlir::registerAllToLLVMIRTranslations(registry);
  // The nd dialect's printer names large LLVM structs (the results of a
  // function with many of them): loaded with the LLVM dialect, it does so
  // for LLVM IR that nd-opt reads as well as for what nd's passes lower.
  registry.addExtension(
      +[](mlir::MLIRContext *context, mlir::LLVM::LLVMDialect *) {
        context->getOrLoadDialect<mlir::nd::NdDialect>();
      });

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nd optimizer driver\n", registry));
}
