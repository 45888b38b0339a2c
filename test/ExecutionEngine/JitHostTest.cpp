//===- JitHostTest.cpp - a host that embeds JitFunction ---------*- C++ -*-===//
//
// A program that embeds nd's JIT the way a host compiler or runtime would:
// a run-time check that fails in the generated code (an index out of range)
// makes `JitFunction::run` return an error carrying the message, and the
// process and the compiled function survive it: the same function then runs
// on good inputs and returns the right values. Inputs that are not donated
// are never written; a donated input is updated in place and returned. An
// entry that another function of its module calls compiles and runs.
//
// Prints what it sees, for FileCheck (test/ExecutionEngine/jit-host.test).
//
//===----------------------------------------------------------------------===//

#include "nd/ExecutionEngine/JitFunction.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::nd;

static const char *const kModule = R"mlir(
func.func @main(%data: tensor<8xf32>, %indices: tensor<4x1xi64>, %updates: tensor<4xf32>) -> tensor<8xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
  return %0 : tensor<8xf32>
}
)mlir";

template <typename T>
static HostTensor makeTensor(DType dtype, llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<T> values) {
  llvm::Expected<HostTensor> tensor = HostTensor::create(dtype, shape);
  if (!tensor) {
    llvm::errs() << llvm::toString(tensor.takeError()) << "\n";
    std::exit(2);
  }
  std::memcpy(tensor->getData(), values.data(), values.size() * sizeof(T));
  return std::move(*tensor);
}

/// A scatter large enough to bucket its entries in two batches by blocks of
/// rows.
static const char *const kBatchedModule = R"mlir(
func.func @main(%data: tensor<600000xf32>, %indices: tensor<1300000x1xi64>, %updates: tensor<1300000xf32>) -> tensor<600000xf32> {
  %0 = nd.scatter_nd %data[%indices], %updates reduction<add> : tensor<600000xf32>, tensor<1300000x1xi64>, tensor<1300000xf32>
  return %0 : tensor<600000xf32>
}
)mlir";

/// A module written for mlir-runner: its @main calls @f, the entry the host
/// compiles, which has no nd op.
static const char *const kCallerModule = R"mlir(
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = arith.addf %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @main() {
  %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %0 = call @f(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return
}
)mlir";

static std::unique_ptr<JitFunction> compile(MLIRContext &context,
                                            const JitOptions &options,
                                            const char *source = kModule) {
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  if (!module)
    std::exit(2);
  llvm::Expected<std::unique_ptr<JitFunction>> function =
      JitFunction::compile(*module, options);
  if (!function) {
    llvm::errs() << "compile: " << llvm::toString(function.takeError()) << "\n";
    std::exit(2);
  }
  return std::move(*function);
}

/// Runs `function` on `inputs` and prints the result or the error.
static void runAndPrint(JitFunction &function, llvm::StringRef what,
                        llvm::MutableArrayRef<HostTensor> inputs) {
  llvm::Expected<llvm::SmallVector<HostTensor>> results = function.run(inputs);
  llvm::outs() << what << ": ";
  if (!results) {
    llvm::outs() << "error: " << llvm::toString(results.takeError()) << "\n";
    return;
  }
  printTensor(llvm::outs(), (*results)[0]);
  llvm::outs() << "\n";
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  DialectRegistry registry;
  JitFunction::registerDialects(registry);
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  // The ScatterND reduction="add" example of ONNX, and the same with a bad
  // index (8 in a dim of size 8).
  std::vector<float> data = {1, 2, 3, 4, 5, 6, 7, 8};
  std::vector<float> updates = {9, 10, 11, 12};
  std::vector<int64_t> good = {4, 3, 1, 7};
  std::vector<int64_t> bad = {4, 3, 8, 7};

  JitOptions options;
  options.threads = 2;
  std::unique_ptr<JitFunction> function = compile(context, options);

  llvm::SmallVector<HostTensor> inputs;
  inputs.push_back(makeTensor<float>(DType::F32, {8}, data));
  inputs.push_back(makeTensor<int64_t>(DType::I64, {4, 1}, bad));
  inputs.push_back(makeTensor<float>(DType::F32, {4}, updates));
  runAndPrint(*function, "bad index", inputs);

  inputs[1] = makeTensor<int64_t>(DType::I64, {4, 1}, good);
  runAndPrint(*function, "good index", inputs);
  runAndPrint(*function, "again", inputs);
  llvm::outs() << "data afterwards: ";
  printTensor(llvm::outs(), inputs[0]);
  llvm::outs() << "\n";

  // Donated: the result is data's buffer, updated in place.
  options.donated = {0};
  std::unique_ptr<JitFunction> donating = compile(context, options);
  inputs[1] = makeTensor<int64_t>(DType::I64, {4, 1}, bad);
  runAndPrint(*donating, "donated, bad index", inputs);
  llvm::outs() << "donated data after the failed call: ";
  printTensor(llvm::outs(), inputs[0]);
  llvm::outs() << "\n";
  inputs[1] = makeTensor<int64_t>(DType::I64, {4, 1}, good);
  runAndPrint(*donating, "donated", inputs);
  llvm::outs() << "donated data afterwards: ";
  printTensor(llvm::outs(), inputs[0]);
  llvm::outs() << "\n";

  // A donated scatter whose entries are bucketed in two batches: an index
  // out of range in the second batch leaves data untouched.
  std::unique_ptr<JitFunction> batched =
      compile(context, options, kBatchedModule);
  std::vector<float> large(600000);
  for (size_t i = 0; i < large.size(); ++i)
    large[i] = static_cast<float>(i % 1000);
  std::vector<int64_t> spread(1300000);
  for (size_t e = 0; e < spread.size(); ++e)
    spread[e] = static_cast<int64_t>((e * 7919) % 600000);
  spread[1200000] = 600000;
  std::vector<float> ones(1300000, 1.0f);
  llvm::SmallVector<HostTensor> batchInputs;
  batchInputs.push_back(makeTensor<float>(DType::F32, {600000}, large));
  batchInputs.push_back(makeTensor<int64_t>(DType::I64, {1300000, 1}, spread));
  batchInputs.push_back(makeTensor<float>(DType::F32, {1300000}, ones));
  llvm::Expected<llvm::SmallVector<HostTensor>> failed =
      batched->run(batchInputs);
  llvm::outs() << "batched, bad index: "
               << (failed ? std::string("no error")
                          : llvm::toString(failed.takeError()))
               << "\n";
  bool untouched = std::memcmp(batchInputs[0].getData(), large.data(),
                               large.size() * sizeof(float)) == 0;
  llvm::outs() << "donated data after the failed batched call: "
               << (untouched ? "untouched" : "CHANGED") << "\n";

  // An entry that another function of the module calls.
  JitOptions callerOptions;
  callerOptions.entry = "f";
  std::unique_ptr<JitFunction> called =
      compile(context, callerOptions, kCallerModule);
  llvm::SmallVector<HostTensor> fInputs;
  fInputs.push_back(makeTensor<float>(DType::F32, {4}, {1, 2, 3, 4}));
  runAndPrint(*called, "entry called by @main", fInputs);
  return 0;
}
