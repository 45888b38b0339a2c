//===- nd-opt.cpp - nd's optimizer driver -----------------------*- C++ -*-===//
//
// mlir-opt with the nd dialect and its passes registered next to every
// upstream dialect, extension and pass; --help shows nd's passes and
// pipelines first (nd/Tools/PassHelp.h).
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Registration/Registration.h"
#include "nd/Support/CommandLine.h"
#include "nd/Support/Version.h"
#include "nd/Tools/PassHelp.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

static const char *const kOverview =
    "nd optimizer driver: mlir-opt with nd's dialect, its passes and its "
    "pipelines (listed first) among upstream's";

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  nd::registerVersionPrinter();
  // nd's first: what is registered before upstream's is nd's in --help.
  nd::registerNdPasses();
  std::vector<std::string> ndPasses = nd::getRegisteredPassArguments();
  registerAllPasses();

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  nd::registerNdDialects(registry);
  // gpu-module-to-binary (the nd-to-gpu pipeline) translates kernels to LLVM
  // IR in process.
  registerAllToLLVMIRTranslations(registry);

  // --help shows the passes and mlir-opt's options, which register next,
  // not libLLVM's code generation flags (--help-hidden does).
  nd::hideLibraryOptions();
  nd::GroupedPassHelp help(kOverview, "nd-opt [options] <input file>",
                           registry, ndPasses, "nd's passes and pipelines");
  auto [inputFilename, outputFilename] =
      registerAndParseCLIOptions(argc, argv, kOverview, registry);
  // The nd dialect's printer names large LLVM structs (the results of a
  // function with many of them), in LLVM IR that nd-opt reads as well as in
  // what nd's passes lower: each buffer's context loads it before its
  // passes run. Not from a dialect extension: a dialect loaded while another
  // one is still being constructed (upstream's convert-to-llvm loads the
  // LLVM dialect from inside the constructors of the dialects it converts)
  // must not load that one again, and nd's dependencies reach most of them.
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  MlirOptMainConfig requested = config;
  config.setPassPipelineSetupFn([requested](PassManager &pm) {
    pm.getContext()->getOrLoadDialect<nd::NdDialect>();
    return requested.setupPassPipeline(pm);
  });

  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
