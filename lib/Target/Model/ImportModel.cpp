//===- ImportModel.cpp - read a model file of any kind nd takes -*- C++ -*-===//

#include "nd/Target/ImportModel.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "nd/Target/ONNX/ImportONNX.h"
#include "nd/Target/OpenVINO/ImportOpenVINO.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::nd;

void mlir::nd::registerModelImportDialects(DialectRegistry &registry) {
  registerONNXImportDialects(registry);
  registerOpenVINOImportDialects(registry);
}

bool mlir::nd::isOpenVINOModel(llvm::StringRef path) {
  return path.ends_with_insensitive(".xml");
}

OwningOpRef<ModuleOp> mlir::nd::importModel(llvm::StringRef path,
                                            MLIRContext &context,
                                            llvm::SourceMgr &sourceMgr,
                                            const ModelImportOptions &options,
                                            std::string &readError) {
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &readError);
  if (!file)
    return nullptr;
  if (path.ends_with_insensitive(".onnx"))
    return importONNXModel(file->getBuffer(), &context, path);
  unsigned id = sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (isOpenVINOModel(path)) {
    OpenVINOImportOptions importOptions;
    importOptions.weightsPath = options.weightsPath;
    return importOpenVINOModel(sourceMgr.getMemoryBuffer(id)->getBuffer(), path,
                               &context, importOptions);
  }
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}
