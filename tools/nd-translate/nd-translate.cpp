//===- nd-translate.cpp - nd's translation driver ---------------*- C++ -*-===//
//
// mlir-translate with nd's translations: `--import-onnx` turns an ONNX model
// into a module of nd, arith, tensor and func ops.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "nd/Support/Version.h"
#include "nd/Target/ONNX/ImportONNX.h"

int main(int argc, char **argv) {
  mlir::nd::registerVersionPrinter();
  mlir::nd::registerImportONNXTranslation();
  return mlir::failed(
      mlir::mlirTranslateMain(argc, argv, "nd translation driver\n"));
}
