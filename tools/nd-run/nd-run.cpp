//===- nd-run.cpp - run ONNX models and MLIR modules with nd ----*- C++ -*-===//
//
//   nd-run MODEL [INPUT...] [--expect OUTPUT...] [--output-dir DIR] [--pb]
//          [--bench N] [--no-check-bounds] [--entry NAME] [--quiet]
//
// MODEL is a .onnx model (imported with nd's ONNX importer) or a .mlir module
// with a tensor function @main. It is lowered with nd-to-llvm, JIT-compiled
// in process and called on the INPUT tensors (.npy or ONNX TensorProto .pb
// files, in the order of @main's arguments).
//
//===----------------------------------------------------------------------===//

#include "nd/ExecutionEngine/JitFunction.h"
#include "nd/Runner/TensorFile.h"
#include "nd/Support/Version.h"
#include "nd/Target/ONNX/ImportONNX.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::nd;

namespace {
struct Options {
  std::string model;
  std::vector<std::string> inputs;
  std::vector<std::string> expected;
  std::string outputDir;
  bool writePb = false;
  unsigned bench = 0;
  bool checkBounds = true;
  bool quiet = false;
  std::string entry = "main";
};
} // namespace

static const char *const kUsage =
    R"(usage: nd-run MODEL [INPUT...] [--expect OUTPUT...] [options]

Runs MODEL (an ONNX model, .onnx, or an MLIR module, .mlir, with a tensor
function @main) on the INPUT tensors, compiled to native code by nd.

  INPUT, OUTPUT        NumPy .npy or ONNX TensorProto .pb files, in the order
                       of the function's arguments / results
  --expect OUTPUT...   compare each result with an expected tensor (integers
                       and bools exactly, floats within a small tolerance);
                       exit 1 on the first mismatch
  --output-dir DIR     write the results as DIR/output_N.npy
  --pb                 with --output-dir, also write DIR/output_N.pb
  --bench N            after a warm-up run, time N runs and print the compile
                       time and the min/median run time
  --no-check-bounds    drop the run-time checks of index values and dynamic
                       shapes (only for inputs known to be valid)
  --entry NAME         call @NAME instead of @main
  --quiet              do not print the results
  --version            print nd's version and the LLVM/MLIR it was built with
)";

static int fail(const llvm::Twine &message) {
  llvm::errs() << "nd-run: error: " << message << "\n";
  return 1;
}

static int fail(llvm::Error error) {
  std::string message = llvm::toString(std::move(error));
  return fail(message);
}

/// Parses the command line; returns an error message on bad usage.
static std::optional<std::string> parseArgs(int argc, char **argv,
                                            Options &options) {
  bool afterExpect = false;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    auto value = [&](llvm::StringRef flag) -> std::optional<llvm::StringRef> {
      if (arg.consume_front(flag) && arg.consume_front("="))
        return arg;
      if (argv[i] == flag && i + 1 < argc)
        return llvm::StringRef(argv[++i]);
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h")
      return std::string();
    if (arg == "--version") {
      printVersion(llvm::outs());
      std::exit(0);
    }
    if (arg == "--expect") {
      afterExpect = true;
      continue;
    }
    if (arg == "--pb") {
      options.writePb = true;
      continue;
    }
    if (arg == "--no-check-bounds") {
      options.checkBounds = false;
      continue;
    }
    if (arg == "--quiet") {
      options.quiet = true;
      continue;
    }
    if (arg.starts_with("--output-dir")) {
      std::optional<llvm::StringRef> dir = value("--output-dir");
      if (!dir)
        return std::string("--output-dir needs a directory");
      options.outputDir = dir->str();
      continue;
    }
    if (arg.starts_with("--entry")) {
      std::optional<llvm::StringRef> name = value("--entry");
      if (!name || name->empty())
        return std::string("--entry needs a function name");
      options.entry = name->str();
      continue;
    }
    if (arg.starts_with("--bench")) {
      std::optional<llvm::StringRef> count = value("--bench");
      unsigned n = 0;
      if (!count || count->getAsInteger(10, n) || n == 0)
        return std::string("--bench needs a positive number of runs");
      options.bench = n;
      continue;
    }
    if (arg.starts_with("-") && arg != "-")
      return ("unknown option '" + arg + "'").str();
    if (options.model.empty())
      options.model = arg.str();
    else if (afterExpect)
      options.expected.push_back(arg.str());
    else
      options.inputs.push_back(arg.str());
  }
  if (options.model.empty())
    return std::string("no model given");
  if (options.writePb && options.outputDir.empty())
    return std::string("--pb needs --output-dir");
  return std::nullopt;
}

/// Reads MODEL into a module: an ONNX model by its extension, MLIR otherwise.
static OwningOpRef<ModuleOp> loadModel(const Options &options,
                                       MLIRContext &context,
                                       llvm::SourceMgr &sourceMgr) {
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(options.model, &errorMessage);
  if (!file) {
    fail("cannot read model '" + options.model + "': " + errorMessage);
    return nullptr;
  }
  if (llvm::StringRef(options.model).ends_with_insensitive(".onnx"))
    return importONNXModel(file->getBuffer(), &context, options.model);
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  return parseSourceFile<ModuleOp>(sourceMgr, &context);
}

/// Reads the .npy / .pb files at `paths` in order.
static llvm::Error readTensors(llvm::ArrayRef<std::string> paths,
                               llvm::SmallVectorImpl<HostTensor> &tensors) {
  for (const std::string &path : paths) {
    llvm::Expected<HostTensor> tensor = readTensorFile(path);
    if (!tensor)
      return tensor.takeError();
    tensors.push_back(std::move(*tensor));
  }
  return llvm::Error::success();
}

/// "12.3 us", "4.56 ms", "1.23 s": three significant digits where possible.
static std::string formatDuration(double seconds) {
  if (seconds < 1e-3)
    return llvm::formatv("{0:F2} us", seconds * 1e6).str();
  if (seconds < 1)
    return llvm::formatv("{0:F3} ms", seconds * 1e3).str();
  return llvm::formatv("{0:F3} s", seconds).str();
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  Options options;
  if (std::optional<std::string> usageError = parseArgs(argc, argv, options)) {
    if (usageError->empty()) {
      llvm::outs() << kUsage;
      return 0;
    }
    llvm::errs() << "nd-run: error: " << *usageError << "\n" << kUsage;
    return 1;
  }

  DialectRegistry registry;
  JitFunction::registerDialects(registry);
  registerONNXImportDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);

  // Inputs first: a missing file should not wait for a compilation.
  llvm::SmallVector<HostTensor> inputs, expected;
  if (llvm::Error error = readTensors(options.inputs, inputs))
    return fail(std::move(error));
  if (llvm::Error error = readTensors(options.expected, expected))
    return fail(std::move(error));

  auto compileStart = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = loadModel(options, context, sourceMgr);
  if (!module)
    return fail("cannot load model '" + options.model + "'");
  JitOptions jitOptions;
  jitOptions.entry = options.entry;
  jitOptions.checkBounds = options.checkBounds;
  llvm::Expected<std::unique_ptr<JitFunction>> function =
      JitFunction::compile(*module, jitOptions);
  if (!function)
    return fail(function.takeError());
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();

  if (!expected.empty() && expected.size() != (*function)->getResults().size())
    return fail(llvm::formatv("--expect got {0} file(s) but the function "
                              "returns {1} result(s)",
                              expected.size(),
                              (*function)->getResults().size()));

  // The compiled code may update its inputs in place: keep pristine copies
  // for the benchmark.
  llvm::SmallVector<HostTensor> benchInputs;
  if (options.bench) {
    for (const HostTensor &input : inputs) {
      llvm::Expected<HostTensor> copy = input.clone();
      if (!copy)
        return fail(copy.takeError());
      benchInputs.push_back(std::move(*copy));
    }
  }

  llvm::Expected<llvm::SmallVector<HostTensor>> outputs =
      (*function)->run(inputs);
  if (!outputs)
    return fail(outputs.takeError());

  if (!options.quiet) {
    for (auto [i, output] : llvm::enumerate(*outputs)) {
      llvm::outs() << "output " << i << ": "
                   << stringifyDType(output.getDType()) << " "
                   << formatShape(output.getShape()) << "\n";
      if (output.getNumElements() <= 4096) {
        printTensor(llvm::outs(), output);
        llvm::outs() << "\n";
      } else {
        llvm::outs() << "(" << output.getNumElements()
                     << " elements; --output-dir saves them)\n";
      }
    }
  }

  if (!options.outputDir.empty()) {
    if (std::error_code ec =
            llvm::sys::fs::create_directories(options.outputDir))
      return fail("cannot create '" + options.outputDir + "': " + ec.message());
    for (auto [i, output] : llvm::enumerate(*outputs)) {
      llvm::SmallString<256> path(options.outputDir);
      llvm::sys::path::append(path, llvm::formatv("output_{0}.npy", i).str());
      if (llvm::Error error = writeNpyFile(output, path))
        return fail(std::move(error));
      if (!options.writePb)
        continue;
      llvm::sys::path::replace_extension(path, "pb");
      if (llvm::Error error = writeTensorProtoFile(
              output, path, llvm::formatv("output_{0}", i).str()))
        return fail(std::move(error));
    }
  }

  int status = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (llvm::Error error = compare((*outputs)[i], expected[i])) {
      fail(llvm::formatv("output {0} does not match '{1}': {2}", i,
                         options.expected[i],
                         llvm::toString(std::move(error))));
      status = 1;
      break;
    }
    llvm::outs() << "output " << i << ": matches " << options.expected[i]
                 << "\n";
  }

  if (options.bench) {
    llvm::Expected<BenchmarkResult> timing =
        (*function)->benchmark(benchInputs, /*warmup=*/1, options.bench);
    if (!timing)
      return fail(timing.takeError());
    llvm::outs() << "compile: " << formatDuration(compileSeconds) << "\n"
                 << "run (" << timing->iterations << " runs): min "
                 << formatDuration(timing->min) << ", median "
                 << formatDuration(timing->median) << ", mean "
                 << formatDuration(timing->mean) << "\n";
  }
  return status;
}
