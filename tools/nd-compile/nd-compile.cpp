//===- nd-compile.cpp - compile models to native libraries ------*- C++ -*-===//
//
//   nd-compile MODEL -o libNAME.so [--entry NAME] [--function NAME]
//              [--donate I]... [--check-bounds=false] [--cpu NAME] [-O N]
//              [--emit-header FILE] [--emit-object] [--weights FILE]
//              [--cc DRIVER] [--target=cpu|cuda] [--cuda-chips=sm_90,...]
//              [--cuda-toolkit DIR]
//
// MODEL is what nd-run takes (nd/Target/ImportModel.h). Its tensor function
// is compiled in process (nd/Compile/Compile.h) into a shared library, or an
// object file with --emit-object, that exports one C function and its
// description (include/nd-c/Runtime.h) and needs only libnd_runtime.so,
// LLVM's OpenMP runtime and the C library at run time; with --target=cuda,
// the entry's device and host forms (include/nd-c/CudaRuntime.h) and
// libnd_cuda_runtime.so.
//
//===----------------------------------------------------------------------===//

#include "nd/Compile/Compile.h"
#include "nd/Tools/ModelTool.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

using namespace mlir;
using namespace mlir::nd;
namespace cl = llvm::cl;

static const char *const kOverview =
    R"(compile a model to a native library with nd

MODEL is an ONNX model (.onnx), an OpenVINO IR model (.xml, with its weights
in the .bin file beside it or --weights FILE) or an MLIR module (.mlir) with a
tensor function @main (or --function NAME). It is lowered with nd-to-llvm,
optimized by LLVM for --cpu and compiled in process; the result, a shared
library (or, with --emit-object, an object file), exports one C function, the
entry, and its description NAME_signature (include/nd-c/Runtime.h says how to
call it). It needs libnd_runtime.so and LLVM's OpenMP runtime (libomp.so.5) at
run time, found beside the library, in ../lib from it, or on the system's
library path.

With --target=cuda the model is lowered with nd-to-gpu for NVIDIA GPUs (cubins
for --cuda-chips and PTX, assembled with the toolkit's ptxas and fatbinary);
the library exports the entry on device buffers and a CUstream, its host form
NAME_host on host buffers, and NAME_signature (include/nd-c/CudaRuntime.h),
and needs libnd_cuda_runtime.so, which loads the CUDA driver at run time.
)";

namespace {
/// The command line of nd-compile; the options register themselves when the
/// struct is built, in main.
struct Options {
  cl::OptionCategory category{"nd-compile options"};

  cl::opt<std::string> model{cl::Positional, cl::desc("MODEL"),
                             cl::cat(category)};
  cl::opt<std::string> output{
      "o",
      cl::desc("The library to write (libNAME.so), or the object file with "
               "--emit-object"),
      cl::value_desc("FILE"), cl::cat(category)};
  cl::opt<std::string> entry{
      "entry",
      cl::desc("The C name of the exported entry (default: NAME of "
               "libNAME.so or NAME.o)"),
      cl::value_desc("NAME"), cl::cat(category)};
  cl::opt<std::string> function{
      "function", cl::desc("The model's function to compile"),
      cl::value_desc("NAME"), cl::init("main"), cl::cat(category)};
  cl::list<unsigned> donate{
      "donate",
      cl::desc("Donate input I: the entry may update it in place and return "
               "it as an output (repeatable)"),
      cl::value_desc("I"), cl::cat(category)};
  CheckBoundsOption checkBounds{category};
  cl::opt<std::string> cpu{
      "cpu",
      cl::desc("The CPU to generate code for: an LLVM CPU name, or native "
               "for this machine's"),
      cl::value_desc("NAME"), cl::init(kDefaultCPU.str()), cl::cat(category)};
  cl::opt<unsigned> optLevel{"O", cl::desc("LLVM optimization level (0-3)"),
                             cl::Prefix, cl::init(3), cl::cat(category)};
  cl::opt<std::string> emitHeader{
      "emit-header",
      cl::desc("Also write a C header declaring the entry and describing its "
               "tensors"),
      cl::value_desc("FILE"), cl::cat(category)};
  cl::opt<bool> emitObject{
      "emit-object",
      cl::desc("Write the object file alone (to link statically, with "
               "libnd_runtime and libomp, or for --target=cuda "
               "libnd_cuda_runtime)"),
      cl::cat(category)};
  WeightsOption weights{category};
  cl::opt<std::string> driver{
      "cc", cl::desc("The C compiler driver that links the library"),
      cl::value_desc("DRIVER"), cl::init("cc"), cl::cat(category)};
  cl::opt<CompileTarget> target{
      "target", cl::desc("What to generate code for"),
      cl::values(clEnumValN(CompileTarget::CPU, "cpu", "the host's CPU"),
                 clEnumValN(CompileTarget::CUDA, "cuda", "NVIDIA GPUs")),
      cl::init(CompileTarget::CPU), cl::cat(category)};
  cl::list<std::string> cudaChips{
      "cuda-chips",
      cl::desc("--target=cuda: the GPUs to assemble code for (default "
               "sm_90,sm_80); PTX for the oldest runs on newer ones"),
      cl::value_desc("sm_NN,..."), cl::CommaSeparated, cl::cat(category)};
  cl::opt<std::string> cudaToolkit{
      "cuda-toolkit",
      cl::desc("--target=cuda: the CUDA toolkit's directory (bin/ptxas, "
               "bin/fatbinary)"),
      cl::value_desc("DIR"), cl::init(kDefaultCudaToolkit.str()),
      cl::cat(category)};

  /// The C name of the entry, once `finish` has checked the options.
  std::string symbol;

  /// Checks what the parser cannot; returns an error message on bad usage.
  std::optional<std::string> finish();
};
} // namespace

/// NAME of libNAME.so, NAME.so or NAME.o, as a C identifier.
static std::string defaultSymbol(llvm::StringRef output) {
  llvm::StringRef stem = llvm::sys::path::stem(output);
  if (llvm::sys::path::extension(output) == ".so")
    stem.consume_front("lib");
  std::string symbol;
  for (char c : stem)
    symbol.push_back(llvm::isAlnum(c) || c == '_' ? c : '_');
  if (symbol.empty() || llvm::isDigit(symbol.front()))
    symbol.insert(symbol.begin(), '_');
  return symbol;
}

std::optional<std::string> Options::finish() {
  if (model.empty())
    return std::string("no model given");
  if (output.empty())
    return std::string("no output given (-o libNAME.so, or -o NAME.o with "
                       "--emit-object)");
  symbol = entry.empty() ? defaultSymbol(output) : entry.getValue();
  if (!isCIdentifier(symbol))
    return "--entry '" + symbol + "' is not a C identifier";
  if (llvm::StringRef(symbol).starts_with("nd_") ||
      llvm::StringRef(symbol).starts_with("__nd") ||
      llvm::StringRef(symbol).starts_with("_mlir"))
    return "--entry '" + symbol +
           "' is reserved: nd's run-time names start with nd_, __nd and "
           "_mlir";
  if (optLevel > 3)
    return std::string("-O takes a level from 0 to 3");
  if (std::optional<std::string> checkBoundsError = checkBounds.check())
    return checkBoundsError;
  if (std::optional<std::string> weightsError = weights.check(model))
    return weightsError;
  if (target == CompileTarget::CUDA && cpu.getNumOccurrences())
    return std::string("--cpu is for --target=cpu (the host code of "
                       "--target=cuda is built for ") +
           kDefaultCPU.str() + ")";
  if (target != CompileTarget::CUDA &&
      (cudaChips.getNumOccurrences() || cudaToolkit.getNumOccurrences()))
    return std::string("--cuda-chips and --cuda-toolkit are for "
                       "--target=cuda");
  return std::nullopt;
}

/// Writes `bytes` to `path`.
static llvm::Error writeFile(llvm::StringRef path, llvm::StringRef bytes) {
  std::string message;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &message);
  if (!file)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "cannot write '" + path + "': " + message);
  file->os() << bytes;
  file->keep();
  return llvm::Error::success();
}

/// Where libnd_runtime.so is: lib/ beside the bin/ that holds nd-compile, in
/// the build tree and in an installed tree alike.
static std::string runtimeDirectory(const char *argv0) {
  static int anchor;
  std::string executable = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  llvm::SmallString<256> dir(llvm::sys::path::parent_path(executable));
  llvm::sys::path::append(dir, "..", "lib");
  llvm::sys::path::remove_dots(dir, /*remove_dot_dot=*/true);
  return dir.str().str();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  ModelTool tool("nd-compile");
  Options options;
  cl::HideUnrelatedOptions(options.category);
  if (!tool.parseCommandLine(argc, argv, kOverview,
                             [&] { return options.finish(); }))
    return 1;
  // Before the compilation, which takes seconds: the files it will write.
  for (const std::string *path : {&options.output.getValue(),
                                  &options.emitHeader.getValue()}) {
    if (path->empty())
      continue;
    if (llvm::Error error = checkOutputPath(*path))
      return tool.fail(std::move(error));
  }

  DialectRegistry registry;
  registerCompileDialects(registry);
  MLIRContext &context = tool.createContext(registry);
  // Diagnostics point at the model's lines; the IR of a failed pass would
  // only bury them.
  context.printOpOnDiagnostic(false);

  OwningOpRef<ModuleOp> module = tool.loadModel(options.model, options.weights);
  if (!module)
    return 1;

  CompileOptions compileOptions;
  compileOptions.function = options.function;
  compileOptions.symbol = options.symbol;
  compileOptions.checkBounds = options.checkBounds.isEnabled();
  compileOptions.cpu = options.cpu;
  compileOptions.optLevel = options.optLevel;
  compileOptions.donated.assign(options.donate.begin(), options.donate.end());
  compileOptions.target = options.target;
  compileOptions.cudaChips.assign(options.cudaChips.begin(),
                                  options.cudaChips.end());
  compileOptions.cudaToolkit = options.cudaToolkit;
  llvm::Expected<CompiledEntry> compiled =
      compileModule(*module, compileOptions);
  if (!compiled)
    return tool.fail(compiled.takeError());

  if (options.emitObject) {
    if (llvm::Error error = writeFile(options.output, compiled->object))
      return tool.fail(std::move(error));
  } else {
    llvm::SmallString<128> objectPath;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("nd-compile", "o", objectPath))
      return tool.fail("cannot create a temporary file: " + ec.message());
    llvm::scope_exit removeObject([&] { llvm::sys::fs::remove(objectPath); });
    if (llvm::Error error = writeFile(objectPath, compiled->object))
      return tool.fail(std::move(error));
    LinkOptions linkOptions;
    linkOptions.driver = options.driver;
    linkOptions.runtimeDir = runtimeDirectory(argv[0]);
    linkOptions.openmpDir = ND_OPENMP_DIR;
    if (llvm::Error error = linkSharedLibrary(objectPath, options.output,
                                              *compiled, linkOptions))
      return tool.fail(std::move(error));
  }

  if (!options.emitHeader.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    nd::emitHeader(*compiled, llvm::sys::path::filename(options.model), os);
    if (llvm::Error error = writeFile(options.emitHeader, text))
      return tool.fail(std::move(error));
  }
  return 0;
}
