//===- JitFunction.h - JIT-compiled tensor functions ------------*- C++ -*-===//
//
// Lowers a module of tensor functions (nd ops and the usual upstream ops
// around them) with the nd-to-llvm pipeline, JIT-compiles it with MLIR's
// ExecutionEngine, and calls its entry function on host tensors.
//
//===----------------------------------------------------------------------===//

#ifndef ND_EXECUTIONENGINE_JITFUNCTION_H
#define ND_EXECUTIONENGINE_JITFUNCTION_H

#include "nd/Runner/HostTensor.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <memory>
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
  /// Threads the compiled code may use; 0 leaves the choice to the runtime.
  unsigned threads = 0;
  /// Positions of the inputs the caller donates: the compiled code may
  /// update them in place.
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

  /// Calls the function once. The compiled code may update inputs in place
  /// (a scatter whose `data` is a dead argument), so callers that need the
  /// inputs again pass copies.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  run(llvm::MutableArrayRef<HostTensor> inputs);

  /// Runs `warmup` untimed calls, then `iterations` timed ones; every call
  /// gets fresh copies of `inputs` (copied outside the timed region).
  llvm::Expected<BenchmarkResult> benchmark(llvm::ArrayRef<HostTensor> inputs,
                                            unsigned warmup,
                                            unsigned iterations);

private:
  JitFunction() = default;

  struct CallFrame;

  /// Fills `frame` with the packed arguments of a call on `inputs` (checked
  /// already); the call itself is `entryPoint(frame.args.data())`.
  llvm::Error prepareCall(llvm::MutableArrayRef<HostTensor> inputs,
                          CallFrame &frame) const;

  /// Copies results out of their descriptors and frees their buffers.
  llvm::Expected<llvm::SmallVector<HostTensor>>
  collectResults(llvm::ArrayRef<int64_t> resultStorage,
                 llvm::ArrayRef<HostTensor> inputs, bool copy);

  std::unique_ptr<ExecutionEngine> engine;
  void (*entryPoint)(void **) = nullptr;
  llvm::SmallVector<TensorSignature> arguments;
  llvm::SmallVector<TensorSignature> results;
};

} // namespace nd
} // namespace mlir

#endif // ND_EXECUTIONENGINE_JITFUNCTION_H
