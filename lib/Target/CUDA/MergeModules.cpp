//===- MergeModules.cpp - the nd-gpu-merge-modules pass ---------*- C++ -*-===//
//
// `--nd-gpu-merge-modules`: the kernels `gpu-kernel-outlining` put in a module
// each, moved into one module that carries NVPTX's data layout (see the pass
// description).
//
//===----------------------------------------------------------------------===//

#include "nd/Target/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPUMERGEMODULES
#include "nd/Target/CUDA/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// NVPTX's data layout as far as loads and stores need it. Without one, the
/// translation to LLVM IR takes LLVM's default, in which a 64-bit integer is
/// 4-byte aligned, and NVPTX splits each 8-byte integer load into two 4-byte
/// loads (the target machine's layout comes too late, after translation).
static constexpr llvm::StringLiteral kNvptxDataLayout =
    "e-i64:64-i128:128-v16:16-v32:32-n16:32:64";

/// Whether `module` is a plain module of outlined kernels: no targets, no
/// attributes but its name, symbols that are GPU functions.
static bool isPlain(gpu::GPUModuleOp module) {
  if (module.getTargetsAttr() || module.getOffloadingHandlerAttr())
    return false;
  for (NamedAttribute attr : module->getAttrs())
    if (attr.getName() != SymbolTable::getSymbolAttrName())
      return false;
  return llvm::all_of(module.getBody()->without_terminator(),
                      [](Operation &op) { return isa<gpu::GPUFuncOp>(op); });
}

namespace {
struct NdGPUMergeModulesPass
    : public mlir::nd::impl::NdGPUMergeModulesBase<NdGPUMergeModulesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<gpu::GPUModuleOp> plain;
    for (auto gpuModule : module.getOps<gpu::GPUModuleOp>())
      if (isPlain(gpuModule))
        plain.push_back(gpuModule);
    if (plain.empty())
      return;
    gpu::GPUModuleOp target = plain.front();
    target->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    StringAttr::get(&getContext(), kNvptxDataLayout));
    if (plain.size() < 2)
      return;
    SymbolTable targetSymbols(target);
    llvm::StringMap<StringAttr> moved;
    for (gpu::GPUModuleOp source : ArrayRef(plain).drop_front()) {
      for (auto func :
           llvm::make_early_inc_range(source.getOps<gpu::GPUFuncOp>())) {
        std::string key = (source.getName() + "::" + func.getName()).str();
        func->remove();
        // Renamed where the name is taken.
        targetSymbols.insert(func);
        moved[key] = func.getNameAttr();
      }
    }
    StringAttr targetName = target.getNameAttr();
    module.walk([&](gpu::LaunchFuncOp launch) {
      StringRef moduleName = launch.getKernelModuleName().getValue();
      StringRef kernelName = launch.getKernelName().getValue();
      auto it = moved.find((moduleName + "::" + kernelName).str());
      if (it == moved.end())
        return;
      launch.setKernelAttr(
          SymbolRefAttr::get(targetName, {FlatSymbolRefAttr::get(it->second)}));
    });
    for (gpu::GPUModuleOp source : ArrayRef(plain).drop_front())
      source.erase();
  }
};
} // namespace
