//===- JitFunction.h - JIT-compiled tensor functions ------------*- C++ -*-===//
//
// Lowers a module of tensor functions (nd ops and the usual upstream ops
// around them) with the nd-to-llvm pipeline, JIT-compiles it with MLIR's
// ExecutionEngine, and calls its entry function on host tensors through the
// same run-time library as the code nd-compile builds (lib/Runtime/Call.h).
//
//===----------------------------------------------------------------------===//

#ifndef ND_EXECUTIONENGINE_JITFUNCTION_H
#define ND_EXECUTIONENGINE_JITFUNCTION_H

#include "nd/Runner/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir {
class ExecutionEngine;
class DialectRegistry;

namespace nd {

/// Element type and shape of one argument or result of the entry function;
/// dynamic dims are `ShapedType::kDynamic`.
struct TensorSignature {
  DType dtype;
  llvm::SmallVector<int64_t, 4> shape;
};

/// Options of `JitFunction::compile`.
struct JitOptions {
  /// The function to call.
  std::string entry = "main";
  /// Keep nd's run-time index and shape checks (see --lower-scatter).
  bool checkBounds = true;
  /// LLVM optimisation level of the generated code (0-3).
  unsigned optLevel = 3;
  /// Threads the parallel loops may use; 0 leaves the OpenMP runtime's
  /// default (OMP_NUM_THREADS, or every core).
  unsigned threads = 0;
  /// Positions of the arguments the caller donates: the compiled function
  /// may update their buffers in place and return them as results (the
  /// argument gets `nd.donated`). Every other argument is only read.
  llvm::SmallVector<unsigned> donated;
};

/// Timings of `JitFunction::benchmark`, in seconds.
struct BenchmarkResult {
  double min = 0;
  double median = 0;
  double mean = 0;
  unsigned iterations = 0;
};

/// A compiled entry function taking and returning ranked tensors.
class JitFunction {
public:
  ~JitFunction();

  /// Registers what `compile` needs in a context: every upstream dialect and
  /// extension, the nd dialect and the LLVM IR translations.
  static void registerDialects(DialectRegistry &registry);

  /// Lowers `module` in place and JIT-compiles it. The entry function must
  /// take and return ranked tensors of element types a `HostTensor` can hold.
  /// Diagnostics of the lowering go to the context's handler; the returned
  /// error says what failed.
  static llvm::Expected<std::unique_ptr<JitFunction>>
  compile(ModuleOp module, const JitOptions &options = {});

  llvm::ArrayRef<TensorSignature> getArguments() const { return arguments; }
  llvm::ArrayRef<TensorSignature> getResults() const { return results; }

  /// Checks count, element types, ranks and static dims of `inputs` against
  /// the arguments; the error names the first input that does not fit.
  llvm::Error checkInputs(llvm::ArrayRef<HostTensor> inputs) const;

  /// Calls the function once. Inputs at donated positions may be updated in
  /// place (their contents are unspecified afterwards); the others are never
  /// written. A run-time check that fails (an index out of range, a dynamic
  /// shape mismatch) makes the call return an error with the check's
  /// message instead of results; the function can be called again.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  run(llvm::MutableArrayRef<HostTensor> inputs);

  /// Runs `warmup` untimed calls, then `iterations` timed ones. With
  /// `refreshDonated`, donated inputs are refreshed from `inputs` before
  /// every call (outside the timed region); without it, each call gets the
  /// donated inputs as the previous call left them (a cache updated call
  /// after call, as a decoder does), and the first gets `inputs`. Fails with
  /// the first failed run-time check.
  llvm::Expected<BenchmarkResult> benchmark(llvm::ArrayRef<HostTensor> inputs,
                                            unsigned warmup,
                                            unsigned iterations,
                                            bool refreshDonated = true);

private:
  JitFunction() = default;
  struct Description;

  /// Runs the entry once on `inputs` (checked already); gives back the
  /// message of a failed call.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  call(llvm::MutableArrayRef<HostTensor> inputs);

  std::unique_ptr<ExecutionEngine> engine;
  void (*entryPoint)(void **) = nullptr;
  int (*getMaxThreads)() = nullptr;
  void (*setNumThreads)(int) = nullptr;
  unsigned threads = 0;
  llvm::SmallVector<unsigned> donated;
  llvm::SmallVector<TensorSignature> arguments;
  llvm::SmallVector<TensorSignature> results;
  /// The entry's signature as the run-time library reads it.
  std::unique_ptr<Description> description;
};

} // namespace nd
} // namespace mlir

#endif // ND_EXECUTIONENGINE_JITFUNCTION_H
