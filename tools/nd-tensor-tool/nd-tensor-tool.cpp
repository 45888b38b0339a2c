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

#include "nd/Runner/TensorFile.h"
#include "nd/Support/Version.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir::nd;

static llvm::cl::list<std::string>
    positionals(llvm::cl::Positional, llvm::cl::desc("COMMAND FILE..."),
                llvm::cl::OneOrMore);

static llvm::cl::opt<double>
    rtolOption("rtol", llvm::cl::desc("relative tolerance of compare"),
               llvm::cl::init(-1.0));

static llvm::cl::opt<double>
    atolOption("atol", llvm::cl::desc("absolute tolerance of compare"),
               llvm::cl::init(-1.0));

static int fail(llvm::Error error) {
  llvm::WithColor::error(llvm::errs(), "nd-tensor-tool")
      << llvm::toString(std::move(error)) << "\n";
  return 1;
}

static int usage() {
  llvm::WithColor::error(llvm::errs(), "nd-tensor-tool")
      << "usage: nd-tensor-tool print FILE | convert IN OUT | "
         "compare ACTUAL EXPECTED\n";
  return 1;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerVersionPrinter();
  llvm::cl::ParseCommandLineOptions(argc, argv, "nd tensor file inspector\n");
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
    CompareOptions options;
    if (rtolOption >= 0)
      options.rtol = rtolOption;
    if (atolOption >= 0)
      options.atol = atolOption;
    if (llvm::Error error = compare(*actual, *expected, options))
      return fail(std::move(error));
    llvm::outs() << "match\n";
    return 0;
  }

  return usage();
}
