//===- ImportOpenVINO.h - OpenVINO IR to MLIR -------------------*- C++ -*-===//
//
// Imports an OpenVINO IR model (IR v10 or v11: a `model.xml` graph and the
// `model.bin` weights its Const layers point into) into a module with one
// `func.func` whose arguments are the Parameter layers and whose results are
// the Result layers. The scatter-gather family maps to the nd dialect,
// Const layers to `arith.constant`, Convert to element-wise conversions;
// reshapes, transposes and broadcasts that some layers need around their nd
// op are tensor and linalg ops. Every model that is malformed, that the
// OpenVINO operation specifications reject, or that uses a layer, version,
// attribute value or element type nd does not import, is reported as an
// error diagnostic naming the file, the layer id and the layer name.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TARGET_OPENVINO_IMPORTOPENVINO_H
#define ND_TARGET_OPENVINO_IMPORTOPENVINO_H

#include "nd/Target/Common/ImportSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace nd {

/// Options of `importOpenVINOModel`: those of every importer (see
/// nd/Target/Common/ImportSupport.h) and the weights file.
struct OpenVINOImportOptions : GraphImportOptions {
  /// The weights file. Empty: the `.bin` file beside the `.xml` file, with
  /// the same name. It is read only when the model has Const layers.
  std::string weightsPath;
};

/// The names of the imported function's arguments and results, in order:
/// the Parameter layers and the Result layers, in the order of the file.
using OpenVINOGraphSignature = GraphSignature;

/// Imports the OpenVINO IR `xml` read from `xmlPath` (the file of the
/// locations and of the diagnostics, and the default place of the weights).
/// Loads the dialects it builds ops of into `context`. Returns null after
/// emitting error diagnostics when the model is malformed or uses anything
/// the importer does not support; nothing is half-imported. When `signature`
/// is given, it receives the names of the function's arguments and results.
OwningOpRef<ModuleOp>
importOpenVINOModel(llvm::StringRef xml, llvm::StringRef xmlPath,
                    MLIRContext *context,
                    const OpenVINOImportOptions &options = {},
                    OpenVINOGraphSignature *signature = nullptr);

/// Registers the dialects an imported module uses.
void registerOpenVINOImportDialects(DialectRegistry &registry);

/// Registers the `import-openvino` translation with mlir-translate's
/// registry. `getOptions`, when given, is called at each translation for the
/// options (a tool's `--weights` flag); otherwise the defaults apply.
void registerImportOpenVINOTranslation(
    std::function<OpenVINOImportOptions()> getOptions = {});

} // namespace nd
} // namespace mlir

#endif // ND_TARGET_OPENVINO_IMPORTOPENVINO_H
