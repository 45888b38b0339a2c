//===- ImportModel.cpp - read a model file of any kind nd takes -*- C++ -*-===//

#include "nd/Target/ImportModel.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "nd/Target/ONNX/ImportONNX.h"
#include "nd/Target/OpenVINO/ImportOpenVINO.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::nd;

void mlir::nd::registerModelImportDialects(DialectRegistry &registry) {
  registerONNXImportDialects(registry);
  registerOpenVINOImportDialects(registry);
}

std::optional<ModelKind> mlir::nd::getModelKind(llvm::StringRef path) {
  if (path == "-")
    return ModelKind::MLIR;
  llvm::StringRef extension = llvm::sys::path::extension(path);
  if (extension.equals_insensitive(".onnx"))
    return ModelKind::ONNX;
  if (extension.equals_insensitive(".xml"))
    return ModelKind::OpenVINO;
  if (extension.equals_insensitive(".mlir") ||
      extension.equals_insensitive(".mlirbc"))
    return ModelKind::MLIR;
  return std::nullopt;
}

std::string mlir::nd::describeUnknownModelKind(llvm::StringRef path) {
  llvm::StringRef extension = llvm::sys::path::extension(path);
  std::string text = "nd reads ONNX (.onnx), OpenVINO IR (.xml, its weights "
                     "in a .bin file) and MLIR (.mlir, .mlirbc) models";
  text += extension.empty() ? std::string(", and the name has no extension")
                            : ", not '" + extension.str() + "' files";
  if (extension.equals_insensitive(".bin"))
    text += "; a .bin file holds the weights of an OpenVINO IR model: give "
            "the model's .xml";
  return text;
}

bool mlir::nd::isOpenVINOModel(llvm::StringRef path) {
  return getModelKind(path) == ModelKind::OpenVINO;
}

OwningOpRef<ModuleOp> mlir::nd::importModel(llvm::StringRef path,
                                            MLIRContext &context,
                                            llvm::SourceMgr &sourceMgr,
                                            const ModelImportOptions &options,
                                            std::string &readError) {
  std::optional<ModelKind> kind = getModelKind(path);
  if (!kind) {
    readError = describeUnknownModelKind(path);
    return nullptr;
  }
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &readError);
  if (!file)
    return nullptr;
  if (*kind == ModelKind::ONNX)
    return importONNXModel(file->getBuffer(), &context, path);
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (*kind == ModelKind::OpenVINO) {
    OpenVINOImportOptions importOptions;
    importOptions.weightsPath = options.weightsPath;
    return importOpenVINOModel(sourceMgr.getMemoryBuffer(id)->getBuffer(), path,
                               &context, importOptions);
  }
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}
