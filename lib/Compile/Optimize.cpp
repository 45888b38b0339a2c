//===- Optimize.cpp - LLVM IR optimization of generated code ----*- C++ -*-===//
//
// The LLVM IR stage that the JIT and nd-compile share: LLVM's optimization
// pipeline for the target machine (which `llc` alone does not run), then
// the guard that keeps code generation linear in huge straight-line blocks.
//
//===----------------------------------------------------------------------===//

#include "nd/Compile/Compile.h"

#include "mlir/ExecutionEngine/OptUtils.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Module.h"

using namespace mlir;

/// A basic block longer than this is straight-line glue (a function that
/// calls thousands of nd ops and gathers their results), never a loop body;
/// so is a function without loops longer than this.
static constexpr size_t kHugeBlock = 4096;

/// Whether `function` is glue: a huge block, or huge and without a loop.
static bool isHugeGlue(const llvm::Function &function) {
  size_t total = 0;
  for (const llvm::BasicBlock &block : function) {
    if (block.size() > kHugeBlock)
      return true;
    total += block.size();
  }
  if (total <= kHugeBlock)
    return false;
  SmallVector<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>>
      backEdges;
  llvm::FindFunctionBackedges(function, backEdges);
  return backEdges.empty();
}

/// Code generation schedules each basic block in time quadratic in its
/// length, and allocates the registers of a function in time that grows
/// faster than its length: huge glue (a function that calls thousands of nd
/// ops, each call in a few blocks of its own: the tests of the failure
/// flag) is generated without optimization (`optnone`), after the IR
/// optimizations have run on it. Its code only calls the ops' functions,
/// which keep their optimized code.
static void markHugeFunctionsOptNone(llvm::Module &llvmModule) {
  for (llvm::Function &function : llvmModule) {
    if (function.isDeclaration() ||
        function.hasFnAttribute(llvm::Attribute::OptimizeNone))
      continue;
    if (!isHugeGlue(function))
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
