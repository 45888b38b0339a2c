//===- Optimize.cpp - LLVM IR optimization of generated code ----*- C++ -*-===//
//
// The LLVM IR stage that the JIT and nd-compile share: LLVM's optimization
// pipeline for the target machine (which `llc` alone does not run), then
// the guard that keeps code generation linear in huge straight-line blocks.
//
//===----------------------------------------------------------------------===//

#include "nd/Compile/Compile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/IR/Module.h"

using namespace mlir;

/// A basic block longer than this is straight-line glue (a function that
/// calls thousands of nd ops and gathers their results), never a loop body.
static constexpr size_t kHugeBlock = 4096;

/// Code generation schedules each basic block in time quadratic in its
/// length: a function with a huge block is generated without optimization
/// (`optnone`), after the IR optimizations have run on it. Its code only
/// calls the ops' functions, which keep their optimized code.
static void markHugeFunctionsOptNone(llvm::Module &llvmModule) {
  for (llvm::Function &function : llvmModule) {
    if (function.isDeclaration() ||
        function.hasFnAttribute(llvm::Attribute::OptimizeNone))
      continue;
    bool huge = llvm::any_of(function, [](const llvm::BasicBlock &block) {
      return block.size() > kHugeBlock;
    });
    if (!huge)
      continue;
    function.removeFnAttr(llvm::Attribute::AlwaysInline);
    function.addFnAttr(llvm::Attribute::NoInline);
    function.addFnAttr(llvm::Attribute::OptimizeNone);
  }
}

llvm::Error mlir::nd::optimizeLLVMModule(llvm::Module &module,
                                         llvm::TargetMachine &machine,
                                         unsigned optLevel) {
  auto optimize = makeOptimizingTransformer(std::min(optLevel, 3u),
                                            /*sizeLevel=*/0, &machine);
  if (llvm::Error error = optimize(&module))
    return error;
  markHugeFunctionsOptNone(module);
  return llvm::Error::success();
}
