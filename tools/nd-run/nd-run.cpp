//===- nd-run.cpp - run models and MLIR modules with nd ---------*- C++ -*-===//
//
//   nd-run MODEL [INPUT...] [--expect OUTPUT...] [--output-dir DIR] [--pb]
//          [--bench N] [--check-bounds=false] [--entry NAME] [--quiet]
//          [--threads N] [--donate I]... [--carry-donated] [--weights FILE]
//
// MODEL is a .onnx model (imported with nd's ONNX importer), an OpenVINO IR
// .xml model (imported with nd's OpenVINO importer, its weights from the .bin
// file beside it or --weights) or a .mlir module with a tensor function
// @main. It is lowered with nd-to-llvm, JIT-compiled in process and called on
// the INPUT tensors (.npy or ONNX TensorProto .pb files, in the order of
// @main's arguments).
//
//===----------------------------------------------------------------------===//

#include "nd/ExecutionEngine/JitFunction.h"
#include "nd/Runner/Compare.h"
#include "nd/Runner/TensorFile.h"
#include "nd/Support/CommandLine.h"
#include "nd/Tools/ModelTool.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::nd;
namespace cl = llvm::cl;

static const char *const kOverview =
    R"(run a model compiled to native code by nd

MODEL is an ONNX model (.onnx), an OpenVINO IR model (.xml, with its weights
in the .bin file beside it or --weights FILE) or an MLIR module (.mlir) with a
tensor function @main. It is lowered with nd-to-llvm, JIT-compiled in process
and called on the INPUT tensors: NumPy .npy or ONNX TensorProto .pb files, in
the order of the function's arguments. The files after --expect are the
expected outputs, in the order of the results. Tensors of MLIR type index are
read and written as int64. bf16 has no NumPy dtype: its results are written as
.pb files only (--pb).
)";

/// Frees the name of an option libLLVM registers for its own tools, so that
/// nd-run can register an option of that name: libLLVM.so has a hidden
/// `-threads` that nd-run's `--threads` replaces on nd-run's command line.
static void releaseOptionName(llvm::StringRef name) {
  auto &registered = cl::getRegisteredOptions();
  auto it = registered.find(name);
  if (it != registered.end())
    it->second->removeArgument();
}

namespace {
/// The command line of nd-run. The options register themselves when the
/// struct is built, in main: nothing is registered by merely loading nd's
/// libraries.
struct Options {
  cl::OptionCategory category{"nd-run options"};

  cl::list<std::string> files{cl::Positional,
                              cl::desc("MODEL [INPUT...] [--expect OUTPUT...]"),
                              cl::cat(category)};
  // A flag, not an option with values: the positional files after it are
  // the expected outputs (see `finish`).
  cl::list<bool> expect{
      "expect",
      cl::desc("The files after this flag are expected outputs: compare each "
               "result with one (integers and bools exactly, floats within a "
               "small tolerance); exit 1 on the first mismatch"),
      cl::ValueDisallowed, cl::cat(category)};
  cl::opt<std::string> outputDir{
      "output-dir", cl::desc("Write the results as DIR/output_N.npy"),
      cl::value_desc("DIR"), cl::cat(category)};
  cl::opt<bool> writePb{
      "pb",
      cl::desc("With --output-dir, also write DIR/output_N.pb (bf16 "
               "results: only the .pb)"),
      cl::cat(category)};
  cl::opt<unsigned> bench{
      "bench",
      cl::desc("After a warm-up run, time N runs and print the compile time "
               "and the min/median/mean run time"),
      cl::value_desc("N"), cl::cat(category)};
  CheckBoundsOption checkBounds{category};
  cl::opt<std::string> entry{"entry", cl::desc("Call @NAME instead of @main"),
                             cl::value_desc("NAME"), cl::init("main"),
                             cl::cat(category)};
  cl::opt<bool> quiet{"quiet", cl::desc("Do not print the results"),
                      cl::cat(category)};
  cl::opt<unsigned> threads{
      "threads",
      cl::desc("Threads the compiled code may use (0: the default, all "
               "cores)"),
      cl::value_desc("N"), cl::init(0), cl::cat(category)};
  cl::list<unsigned> donate{
      "donate",
      cl::desc("Donate input I: the compiled code may update it in place "
               "(repeatable)"),
      cl::value_desc("I"), cl::cat(category)};
  cl::opt<bool> carryDonated{
      "carry-donated",
      cl::desc("With --bench: each timed run gets the donated inputs as the "
               "run before left them (a cache updated call after call) "
               "instead of their values from the input files"),
      cl::cat(category)};
  WeightsOption weights{category};

  /// The positional files, split at the first --expect.
  std::string model;
  std::vector<std::string> inputs;
  std::vector<std::string> expected;

  /// Splits the positional files and checks what the parser cannot; returns
  /// an error message on bad usage.
  std::optional<std::string> finish();
};
} // namespace

std::optional<std::string> Options::finish() {
  // Every file after the first --expect is an expected output.
  unsigned expectPosition =
      expect.empty() ? ~0u : expect.getPosition(/*optnum=*/0);
  for (auto [i, file] : llvm::enumerate(files)) {
    if (i == 0)
      model = file;
    else if (files.getPosition(i) > expectPosition)
      expected.push_back(file);
    else
      inputs.push_back(file);
  }
  if (model.empty())
    return std::string("no model given");
  if (files.getPosition(0) > expectPosition)
    return std::string("the model must come before --expect");
  if (entry.empty())
    return std::string("--entry needs a function name");
  if (bench.getNumOccurrences() && bench == 0)
    return std::string("--bench needs a positive number of runs");
  if (carryDonated && (!bench || donate.empty()))
    return std::string("--carry-donated needs --bench and --donate");
  if (writePb && outputDir.empty())
    return std::string("--pb needs --output-dir");
  if (std::optional<std::string> checkBoundsError = checkBounds.check())
    return checkBoundsError;
  return weights.check(model);
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
  releaseOptionName("threads");
  hideLibraryOptions();
  ModelTool tool("nd-run");
  Options options;
  if (!tool.parseCommandLine(argc, argv, kOverview,
                             [&] { return options.finish(); }))
    return 1;

  DialectRegistry registry;
  JitFunction::registerDialects(registry);
  tool.createContext(registry);

  // Inputs first: a missing file should not wait for a compilation.
  llvm::SmallVector<HostTensor> inputs, expected;
  if (llvm::Error error = readTensors(options.inputs, inputs))
    return tool.fail(std::move(error));
  if (llvm::Error error = readTensors(options.expected, expected))
    return tool.fail(std::move(error));

  auto compileStart = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = tool.loadModel(options.model, options.weights);
  if (!module)
    return 1;
  JitOptions jitOptions;
  jitOptions.entry = options.entry;
  jitOptions.checkBounds = options.checkBounds.isEnabled();
  jitOptions.threads = options.threads;
  jitOptions.donated.assign(options.donate.begin(), options.donate.end());
  llvm::Expected<std::unique_ptr<JitFunction>> function =
      JitFunction::compile(*module, jitOptions);
  if (!function)
    return tool.fail(function.takeError());
  double compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();

  if (!expected.empty() && expected.size() != (*function)->getResults().size())
    return tool.fail(llvm::formatv("--expect got {0} file(s) but the function "
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
        return tool.fail(copy.takeError());
      benchInputs.push_back(std::move(*copy));
    }
  }

  llvm::Expected<llvm::SmallVector<HostTensor>> outputs =
      (*function)->run(inputs);
  if (!outputs)
    return tool.fail(outputs.takeError());

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
    // Checked before anything is written.
    for (auto [i, output] : llvm::enumerate(*outputs)) {
      if (!hasNpyDType(output.getDType()) && !options.writePb)
        return tool.fail(llvm::formatv("output {0} is {1}, which has no NumPy "
                                       "dtype: pass --pb to write it as "
                                       "output_{0}.pb",
                                       i, stringifyDType(output.getDType())));
    }
    if (std::error_code ec =
            llvm::sys::fs::create_directories(options.outputDir))
      return tool.fail("cannot create '" + options.outputDir +
                       "': " + ec.message());
    for (auto [i, output] : llvm::enumerate(*outputs)) {
      llvm::SmallString<256> path(options.outputDir);
      llvm::sys::path::append(path, llvm::formatv("output_{0}.npy", i).str());
      if (hasNpyDType(output.getDType())) {
        if (llvm::Error error = writeNpyFile(output, path))
          return tool.fail(std::move(error));
      }
      if (!options.writePb)
        continue;
      llvm::sys::path::replace_extension(path, "pb");
      if (llvm::Error error = writeTensorProtoFile(
              output, path, llvm::formatv("output_{0}", i).str()))
        return tool.fail(std::move(error));
    }
  }

  int status = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    if (llvm::Error error = compare((*outputs)[i], expected[i])) {
      tool.fail(llvm::formatv("output {0} does not match '{1}': {2}", i,
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
        (*function)->benchmark(benchInputs, /*warmup=*/1, options.bench,
                               /*refreshDonated=*/!options.carryDonated);
    if (!timing)
      return tool.fail(timing.takeError());
    llvm::outs() << "compile: " << formatDuration(compileSeconds) << "\n"
                 << "run (" << timing->iterations << " runs): min "
                 << formatDuration(timing->min) << ", median "
                 << formatDuration(timing->median) << ", mean "
                 << formatDuration(timing->mean) << "\n";
  }
  return status;
}
