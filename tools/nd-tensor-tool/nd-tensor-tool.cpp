//===- nd-tensor-tool.cpp - Inspect, convert, compare tensors ---*- C++ -*-===//
//
// A thin command-line face of the TensorFile library, used by the tests and
// handy for looking at test data:
//
//   nd-tensor-tool print FILE              dtype, shape and values
//   nd-tensor-tool convert IN OUT          .npy <-> .pb, by extension
//   nd-tensor-tool compare ACTUAL EXPECTED [--rtol=R] [--atol=A]
//
// Exits with 1 and a message on stderr when a file cannot be read or written,
// and when `compare` finds a mismatch.
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/Compare.h"
#include "nd/Runner/TensorFile.h"
#include "nd/Support/CommandLine.h"
#include "nd/Support/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::nd;

namespace cl = llvm::cl;

/// What --help shows first: the commands.
static const char *const kOverview =
    R"(inspect, convert and compare tensor files (.npy, ONNX TensorProto .pb)

COMMANDS:
  print FILE                dtype, shape and values
  convert IN OUT            .npy <-> .pb, by the files' extensions
  compare ACTUAL EXPECTED   integers and bools exactly, floats within
                            --rtol/--atol; exit 1 with the first mismatch
)";

namespace {
/// The command line, registered when main builds it.
struct Options {
  cl::OptionCategory category{"nd-tensor-tool options"};
  cl::list<std::string> positionals{cl::Positional, cl::desc("COMMAND FILE..."),
                                    cl::OneOrMore, cl::cat(category)};
  cl::opt<double> rtol{"rtol", cl::desc("relative tolerance of compare"),
                       cl::init(-1.0), cl::cat(category)};
  cl::opt<double> atol{"atol", cl::desc("absolute tolerance of compare"),
                       cl::init(-1.0), cl::cat(category)};
};
} // namespace

static int fail(llvm::Error error) {
  llvm::WithColor::error(llvm::errs(), "nd-tensor-tool")
      << llvm::toString(std::move(error)) << "\n";
  return 1;
}

static int usage() {
  llvm::WithColor::error(llvm::errs(), "nd-tensor-tool")
      << "usage: nd-tensor-tool print FILE | convert IN OUT | "
         "compare ACTUAL EXPECTED [--rtol=R] [--atol=A] (nd-tensor-tool "
         "--help describes them)\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  hideLibraryOptions();
  Options options;
  registerVersionPrinter();
  cl::ParseCommandLineOptions(argc, argv, kOverview);
  cl::list<std::string> &positionals = options.positionals;
  llvm::StringRef command = positionals.front();
  size_t numFiles = positionals.size() - 1;

  if (command == "print" && numFiles == 1) {
    llvm::Expected<HostTensor> tensor = readTensorFile(positionals[1]);
    if (!tensor)
      return fail(tensor.takeError());
    llvm::outs() << "dtype: " << stringifyDType(tensor->getDType()) << "\n"
                 << "shape: " << formatShape(tensor->getShape()) << "\n"
                 << "values: ";
    printTensor(llvm::outs(), *tensor);
    llvm::outs() << "\n";
    return 0;
  }

  if (command == "convert" && numFiles == 2) {
    llvm::Expected<HostTensor> tensor = readTensorFile(positionals[1]);
    if (!tensor)
      return fail(tensor.takeError());
    if (llvm::Error error = writeTensorFile(*tensor, positionals[2]))
      return fail(std::move(error));
    return 0;
  }

  if (command == "compare" && numFiles == 2) {
    llvm::Expected<HostTensor> actual = readTensorFile(positionals[1]);
    if (!actual)
      return fail(actual.takeError());
    llvm::Expected<HostTensor> expected = readTensorFile(positionals[2]);
    if (!expected)
      return fail(expected.takeError());
    CompareOptions tolerances;
    if (options.rtol >= 0)
      tolerances.rtol = options.rtol;
    if (options.atol >= 0)
      tolerances.atol = options.atol;
    if (llvm::Error error = compare(*actual, *expected, tolerances))
      return fail(std::move(error));
    llvm::outs() << "match\n";
    return 0;
  }

  return usage();
}
