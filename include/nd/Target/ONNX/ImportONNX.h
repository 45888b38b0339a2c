//===- ImportONNX.h - ONNX model to MLIR ------------------------*- C++ -*-===//
//
// Imports an ONNX model (a serialized `onnx.ModelProto`) into a module with
// one `func.func` whose arguments are the graph inputs and whose results are
// the graph outputs. The scatter-gather family maps to the nd dialect,
// initializers and `Constant` nodes to `arith.constant`, `Identity` to its
// operand. Everything else, and every model the ONNX specification rejects
// for the opset it imports, is reported as an error diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TARGET_ONNX_IMPORTONNX_H
#define ND_TARGET_ONNX_IMPORTONNX_H

#include "nd/Target/Common/ImportSupport.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"

namespace mlir {
class DialectRegistry;
class MLIRContext;

namespace nd {

/// Options of `importONNXModel`: the name of the function (see
/// nd/Target/Common/ImportSupport.h).
using ONNXImportOptions = GraphImportOptions;

/// The ONNX names of the imported function's arguments and results, in
/// order: the graph inputs that have no initializer, and the graph outputs.
using ONNXGraphSignature = GraphSignature;

/// Imports the serialized ONNX model `bytes`. `sourceName` (usually the file
/// name) is the file of the locations of the imported ops and of the
/// diagnostics. Loads the dialects it builds ops of into `context`. Returns
/// null after emitting error diagnostics when the model is malformed or uses
/// anything the importer does not support. When `signature` is given, it
/// receives the names of the function's arguments and results.
OwningOpRef<ModuleOp> importONNXModel(llvm::StringRef bytes,
                                      MLIRContext *context,
                                      llvm::StringRef sourceName = "<onnx>",
                                      const ONNXImportOptions &options = {},
                                      ONNXGraphSignature *signature = nullptr);

/// Registers the dialects an imported module uses.
void registerONNXImportDialects(DialectRegistry &registry);

/// Registers the `import-onnx` translation with mlir-translate's registry.
void registerImportONNXTranslation();

} // namespace nd
} // namespace mlir

#endif // ND_TARGET_ONNX_IMPORTONNX_H
