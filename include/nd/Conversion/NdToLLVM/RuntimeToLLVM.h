//===- RuntimeToLLVM.h - patterns of nd's run-time ops ----------*- C++ -*-===//
//
// The patterns of `--convert-nd-runtime-to-llvm`: each op of the nd_rt
// dialect (include/nd/Dialect/NdRuntime) to the LLVM dialect, for a pass
// of another compiler that lowers nd's run-time ops itself.
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_NDTOLLVM_RUNTIMETOLLVM_H
#define ND_CONVERSION_NDTOLLVM_RUNTIMETOLLVM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

#include <memory>

namespace mlir {
namespace nd {

/// What the patterns refer to: the module-level symbols of nd's run time
/// (the reporter's declaration, the message globals, the table of site
/// messages, the thread query's declaration), made in the module by
/// `buildNdRuntimeTables`.
class RuntimeTables;

/// Makes the run-time symbols of `module` for its nd_rt ops (with
/// `omp_get_max_threads` if `parallel`, the thread count 1 otherwise);
/// fails with a diagnostic on a site or a site report that breaks the
/// preconditions of `--convert-nd-runtime-to-llvm`.
FailureOr<std::shared_ptr<RuntimeTables>> buildNdRuntimeTables(ModuleOp module,
                                                               bool parallel);

/// Populates `patterns` with the lowering of each nd_rt op of the module
/// `tables` were built for to the LLVM dialect (one pattern per op).
void populateNdRuntimeToLLVMPatterns(
    RewritePatternSet &patterns, std::shared_ptr<const RuntimeTables> tables);

} // namespace nd
} // namespace mlir

#endif // ND_CONVERSION_NDTOLLVM_RUNTIMETOLLVM_H
