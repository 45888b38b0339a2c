//===- ModelTool.cpp - the front end of nd's model tools --------*- C++ -*-===//

#include "nd/Tools/ModelTool.h"

#include "nd/Support/Version.h"
#include "nd/Target/Common/ImportSupport.h"
#include "nd/Target/ImportModel.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::nd;

ModelTool::ModelTool(llvm::StringRef name) : name(name.str()) {}

ModelTool::~ModelTool() = default;

int ModelTool::fail(const llvm::Twine &message) const {
  llvm::errs() << name << ": error: " << message << "\n";
  return 1;
}

int ModelTool::fail(llvm::Error error) const {
  std::string message = llvm::toString(std::move(error));
  return fail(message);
}

bool ModelTool::parseCommandLine(
    int argc, char **argv, const char *overview,
    llvm::function_ref<std::optional<std::string>()> check) const {
  registerVersionPrinter();
  std::string parseErrors;
  llvm::raw_string_ostream parseErrorStream(parseErrors);
  if (!llvm::cl::ParseCommandLineOptions(argc, argv, overview,
                                         &parseErrorStream)) {
    llvm::errs() << parseErrors;
    return false;
  }
  if (std::optional<std::string> usageError = check()) {
    fail(*usageError + " (" + name + " --help lists the options)");
    return false;
  }
  return true;
}

MLIRContext &ModelTool::createContext(const DialectRegistry &registry) {
  DialectRegistry withImporters;
  registry.appendTo(withImporters);
  registerModelImportDialects(withImporters);
  context = std::make_unique<MLIRContext>(withImporters);
  context->loadAllAvailableDialects();
  diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
  fileDiagnostics =
      std::make_unique<FileLevelDiagnosticHandler>(context.get(), llvm::errs());
  errorCounter = std::make_unique<ScopedDiagnosticHandler>(
      context.get(), [this](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          ++numErrors;
        return failure();
      });
  return *context;
}

OwningOpRef<ModuleOp> ModelTool::loadModel(llvm::StringRef path,
                                           llvm::StringRef weightsPath) {
  ModelImportOptions importOptions;
  importOptions.weightsPath = weightsPath.str();
  unsigned errorsBefore = numErrors;
  std::string readError;
  OwningOpRef<ModuleOp> module =
      importModel(path, *context, sourceMgr, importOptions, readError);
  if (!readError.empty()) {
    fail("cannot read model '" + path + "': " + readError);
    return nullptr;
  }
  // The diagnostics name the file and what in it is wrong; a line saying
  // that the model did not load would only repeat them.
  if (!module && numErrors == errorsBefore)
    fail("cannot load model '" + path + "'");
  return module;
}

WeightsOption::WeightsOption(llvm::cl::OptionCategory &category)
    : llvm::cl::opt<std::string>(
          "weights",
          llvm::cl::desc("The weights file of an OpenVINO IR model (default: "
                         "the .bin file beside the .xml file)"),
          llvm::cl::value_desc("FILE"), llvm::cl::cat(category)) {}

std::optional<std::string> WeightsOption::check(llvm::StringRef model) const {
  if (!getValue().empty() && !isOpenVINOModel(model))
    return std::string("--weights is for OpenVINO IR (.xml) models");
  return std::nullopt;
}

CheckBoundsOption::CheckBoundsOption(llvm::cl::OptionCategory &category)
    : checkBounds("check-bounds",
                  llvm::cl::desc("Check index values and dynamic shapes at "
                                 "run time (=false: no checks, only for "
                                 "inputs known to be valid)"),
                  llvm::cl::init(true), llvm::cl::cat(category)),
      noCheckBounds("no-check-bounds",
                    llvm::cl::desc("The old spelling of --check-bounds=false"),
                    llvm::cl::Hidden, llvm::cl::cat(category)) {}

bool CheckBoundsOption::isEnabled() const {
  return checkBounds && !noCheckBounds;
}

std::optional<std::string> CheckBoundsOption::check() const {
  if (noCheckBounds && checkBounds.getNumOccurrences())
    return std::string("--no-check-bounds is the old spelling of "
                       "--check-bounds=false: give one of them");
  return std::nullopt;
}
