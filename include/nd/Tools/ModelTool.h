//===- ModelTool.h - the front end of nd's model tools ----------*- C++ -*-===//
//
// nd-run and nd-compile take the same kind of command line (a model file, a
// few options checked after parsing) and read the same models into the same
// kind of context; they report every error on stderr as "TOOL: error: ..."
// and exit with status 1. This is that front end, once.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TOOLS_MODELTOOL_H
#define ND_TOOLS_MODELTOOL_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/SourceMgr.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
class DialectRegistry;

namespace nd {
class FileLevelDiagnosticHandler;

/// One run of a tool that reads a model (nd/Target/ImportModel.h). It owns
/// the MLIR context the model is read into; a module it loads must not
/// outlive it.
class ModelTool {
public:
  /// `name` prefixes every message the tool prints ("nd-run: error: ...").
  explicit ModelTool(llvm::StringRef name);
  ~ModelTool();

  /// Prints "NAME: error: MESSAGE" on stderr; returns 1, the exit status of
  /// a tool that failed.
  int fail(const llvm::Twine &message) const;
  int fail(llvm::Error error) const;

  /// Parses the command line, with nd's --version, then runs `check`, which
  /// returns an error message where the options parsed but do not go
  /// together. Returns false after printing the parser's errors or the
  /// message of `check` (which points at --help).
  bool parseCommandLine(
      int argc, char **argv, const char *overview,
      llvm::function_ref<std::optional<std::string>()> check) const;

  /// Creates the tool's context with the dialects of `registry` and those
  /// the model importers build, all loaded. Diagnostics are shown with the
  /// lines of the model file they point at, or as "FILE: error: ..." where
  /// they name no line (a binary model: ONNX).
  MLIRContext &createContext(const DialectRegistry &registry);

  /// Reads the model at `path`, an OpenVINO IR model's weights from
  /// `weightsPath` (empty: the .bin file beside it), into the context of
  /// `createContext`. Returns null after reporting why it could not: the
  /// importer's or parser's diagnostics alone where it gave some.
  OwningOpRef<ModuleOp> loadModel(llvm::StringRef path,
                                  llvm::StringRef weightsPath);

private:
  // In this order: the handlers refer to the context and the source
  // manager, and go first (the last registered is asked first).
  std::string name;
  llvm::SourceMgr sourceMgr;
  std::unique_ptr<MLIRContext> context;
  std::unique_ptr<SourceMgrDiagnosticHandler> diagnostics;
  std::unique_ptr<FileLevelDiagnosticHandler> fileDiagnostics;
  std::unique_ptr<ScopedDiagnosticHandler> errorCounter;
  /// The error diagnostics reported so far.
  unsigned numErrors = 0;
};

/// --weights FILE, the weights file of an OpenVINO IR model, as a member of
/// a tool's options: `WeightsOption weights{category};`.
class WeightsOption : public llvm::cl::opt<std::string> {
public:
  explicit WeightsOption(llvm::cl::OptionCategory &category);

  /// The usage check: the option is for OpenVINO IR models alone. Returns
  /// the error message, if any.
  std::optional<std::string> check(llvm::StringRef model) const;
};

/// --check-bounds[=false], the run-time checks of index values and dynamic
/// shapes (the pipelines' option `check-bounds`), as a member of a tool's
/// options: `CheckBoundsOption checkBounds{category};`. Every tool spells it
/// so; `--no-check-bounds`, nd-run's old spelling, still works, hidden.
class CheckBoundsOption {
public:
  explicit CheckBoundsOption(llvm::cl::OptionCategory &category);

  /// Whether the checks are on (the default).
  bool isEnabled() const;

  /// The usage check: the old spelling with the new one. Returns the error
  /// message, if any.
  std::optional<std::string> check() const;

private:
  llvm::cl::opt<bool> checkBounds;
  llvm::cl::opt<bool> noCheckBounds;
};

} // namespace nd
} // namespace mlir

#endif // ND_TOOLS_MODELTOOL_H
