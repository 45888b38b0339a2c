//===- ImportModel.h - read a model file of any kind nd takes ---*- C++ -*-===//
//
// What nd-run and nd-compile accept as a model, by the file's extension: an
// ONNX model (.onnx), an OpenVINO IR model (.xml, with its weights in the
// .bin file beside it or another file), or an MLIR module of tensor
// functions (.mlir text, .mlirbc bytecode, or `-`, standard input). Any
// other name is refused with a message that lists these.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TARGET_IMPORTMODEL_H
#define ND_TARGET_IMPORTMODEL_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace nd {

/// Options of `importModel`.
struct ModelImportOptions {
  /// The weights file of an OpenVINO IR model (empty: the .bin file beside
  /// the .xml file). Only for .xml models.
  std::string weightsPath;
};

/// Registers the dialects the ONNX and OpenVINO importers build.
void registerModelImportDialects(DialectRegistry &registry);

/// The kinds of model nd reads.
enum class ModelKind { ONNX, OpenVINO, MLIR };

/// The kind of model `path` names by its extension (case-insensitive), or
/// nullopt for a name nd does not read.
std::optional<ModelKind> getModelKind(llvm::StringRef path);

/// Why `path` is not a model nd reads (getModelKind gave nullopt): its
/// extension and the kinds nd reads, with a hint for an OpenVINO IR model's
/// .bin weights given in place of its .xml.
std::string describeUnknownModelKind(llvm::StringRef path);

/// Whether `path` names an OpenVINO IR model, the one kind with weights.
bool isOpenVINOModel(llvm::StringRef path);

/// Reads the model at `path` into a module, by its kind (getModelKind).
/// Locations in the module name `path` as given. The file's text goes to
/// `sourceMgr`, so that a diagnostic handler on it shows the lines that
/// MLIR and OpenVINO IR diagnostics point at. A name of no kind nd reads,
/// or a file that cannot be read, sets `readError` and gives null; a model
/// that does not import gives null after its diagnostics.
OwningOpRef<ModuleOp> importModel(llvm::StringRef path, MLIRContext &context,
                                  llvm::SourceMgr &sourceMgr,
                                  const ModelImportOptions &options,
                                  std::string &readError);

} // namespace nd
} // namespace mlir

#endif // ND_TARGET_IMPORTMODEL_H
