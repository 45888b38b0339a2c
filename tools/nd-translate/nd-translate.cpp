//===- nd-translate.cpp - nd's translation driver ---------------*- C++ -*-===//
//
// mlir-translate with nd's translations: `--import-onnx` turns an ONNX model
// and `--import-openvino` an OpenVINO IR model (model.xml, with the weights
// of model.bin beside it or of `--weights FILE`) into a module of nd, arith,
// tensor, linalg and func ops.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "nd/Support/CommandLine.h"
#include "nd/Support/Version.h"
#include "nd/Target/ONNX/ImportONNX.h"
#include "nd/Target/OpenVINO/ImportOpenVINO.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace cl = llvm::cl;

/// What --help shows first: the two imports.
static const char *const kOverview =
    R"(nd translation driver: imports a model into a module of nd, arith,
tensor, linalg and func ops

  nd-translate --import-onnx MODEL.onnx [-o OUT.mlir]
  nd-translate --import-openvino MODEL.xml [--weights MODEL.bin] [-o OUT.mlir]
)";

namespace {
/// nd-translate's own options; they register themselves when the struct is
/// built, in main.
struct Options {
  cl::opt<std::string> weights{
      "weights",
      cl::desc("With --import-openvino: the weights file of the model "
               "(default: the .bin file beside the .xml file)"),
      cl::value_desc("FILE")};
};
} // namespace

int main(int argc, char **argv) {
  // --help shows the translations and the options registered from here on,
  // not the libraries' hundreds (--help-hidden does).
  mlir::nd::hideLibraryOptions();
  Options options;
  mlir::nd::registerVersionPrinter();
  mlir::nd::registerImportONNXTranslation();
  mlir::nd::registerImportOpenVINOTranslation([&options] {
    mlir::nd::OpenVINOImportOptions importOptions;
    importOptions.weightsPath = options.weights;
    return importOptions;
  });
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, kOverview));
}
