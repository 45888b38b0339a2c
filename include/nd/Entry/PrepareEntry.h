//===- PrepareEntry.h - an entry function prepared for a host --*- C++ -*-===//
//
// The one way an entry function of a module of tensor functions becomes
// what a host calls, for the JIT (nd/ExecutionEngine/JitFunction.h) and for
// nd-compile's libraries (nd/Compile/Compile.h) alike: find the function
// (or say which the module has), check it, mark the arguments the caller
// donates (`nd.donated`), record its signature (`--nd-record-signature`),
// lower the module with the target's pipeline (nd-to-llvm, or nd-to-gpu
// for CUDA), prepare the entry's ABI (`--nd-return-through-pointer`,
// `--nd-call-state`), read the signature back with the outputs' aliases
// (`ExportedSignature`: what the `nd_signature` of nd-c/Runtime.h is made
// from, a library's or the JIT's) and, for a library, export the entry
// (`--nd-export-entry`). What stays with each caller: the ExecutionEngine
// and the run-time symbols (the JIT); the object file, the link and the C
// header (nd-compile).
//
//===----------------------------------------------------------------------===//

#ifndef ND_ENTRY_PREPAREENTRY_H
#define ND_ENTRY_PREPAREENTRY_H

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace nd {

/// What an entry is prepared for.
enum class EntryTarget {
  /// The JIT: nd-to-llvm, each result in a buffer of its own; the
  /// ExecutionEngine's packed wrapper calls the entry.
  CPUJit,
  /// A library for the host's CPU: nd-to-llvm with the results computed
  /// into the caller's buffers (`--nd-result-destinations`), the entry
  /// exported with nd's C interface.
  CPULibrary,
  /// A library for NVIDIA GPUs: nd-to-gpu, the entry exported in its device
  /// and host forms.
  CUDALibrary,
};

/// Options of `findEntry`, `lowerEntry` and `prepareEntry`.
struct EntryOptions {
  EntryTarget target = EntryTarget::CPUJit;
  /// The entry function.
  std::string function = "main";
  /// What the caller's user writes to name another function, said after the
  /// module's functions when `function` is not there (e.g. "--function NAME
  /// compiles one"); empty: nothing.
  std::string functionHint;
  /// Positions of the arguments the caller donates (see JitOptions).
  llvm::SmallVector<unsigned> donated;
  /// Keep nd's run-time index and shape checks (see --lower-scatter).
  bool checkBounds = true;
  /// CPU targets: run the parallel loops on OpenMP's threads.
  bool parallel = true;
  /// Libraries: the C name of the exported entry (a C identifier; empty:
  /// the function's name).
  std::string symbol;
  /// CUDA: the chips to assemble cubins for (empty: nd-to-gpu's default),
  /// the chip the PTX is for (empty: nd-to-gpu's default) and the toolkit's
  /// directory, all checked by the caller.
  llvm::SmallVector<std::string> cudaChips;
  std::string ptxChip;
  std::string cudaToolkit;
};

/// Finds `options.function` with a body in `module` (or fails naming the
/// functions the module has), checks it for the target, and marks the
/// donated arguments. The JIT's entry takes and returns ranked tensors of
/// element types a host tensor holds (the error names the first that is
/// not); a library's entry is checked by `--nd-record-signature` in
/// `lowerEntry`, with a diagnostic at the function.
llvm::Expected<func::FuncOp> findEntry(ModuleOp module,
                                       const EntryOptions &options);

/// Lowers `module`, whose entry `findEntry` prepared, for `options.target`
/// and returns the entry's signature. A CUDA library's module must not be
/// sharded. Diagnostics go to the context's handler; the error says which
/// step failed.
llvm::Expected<ExportedSignature> lowerEntry(ModuleOp module,
                                             const EntryOptions &options);

/// `findEntry`, then `lowerEntry`.
llvm::Expected<ExportedSignature> prepareEntry(ModuleOp module,
                                               const EntryOptions &options);

} // namespace nd
} // namespace mlir

#endif // ND_ENTRY_PREPAREENTRY_H
