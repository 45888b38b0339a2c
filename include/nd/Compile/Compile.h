//===- Compile.h - ahead-of-time compilation --------------------*- C++ -*-===//
//
// What `nd-compile` does, as a library: lower a module of tensor functions
// with nd-to-llvm, prepare its entry for hosts and export it with nd's C
// interface (include/nd-c/Runtime.h), translate it to LLVM IR, keep only the
// entry and its description visible, optimize with LLVM's pipeline for the
// chosen CPU and emit an object file, all in process; then, for a shared
// library, link that object with the system's C compiler driver. The LLVM IR
// optimization is the JIT's too (`optimizeLLVMModule`). For NVIDIA GPUs
// (`CompileTarget::CUDA`) the module goes through nd-to-gpu instead, the
// kernels embedded as fat binaries, and the entry has a device and a host
// form (include/nd-c/CudaRuntime.h) that call libnd_cuda_runtime.so.
//
//===----------------------------------------------------------------------===//

#ifndef ND_COMPILE_COMPILE_H
#define ND_COMPILE_COMPILE_H

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
class raw_ostream;
} // namespace llvm

namespace mlir {
class DialectRegistry;

namespace nd {

/// LLVM's optimization pipeline at `optLevel` (0-3) for `machine`'s target
/// (its vector width and cost model), then, so that code generation stays
/// linear, `optnone` on functions with a basic block of thousands of
/// instructions (straight-line glue calling thousands of nd ops).
llvm::Error optimizeLLVMModule(llvm::Module &module,
                               llvm::TargetMachine &machine, unsigned optLevel);

/// The CPU nd-compile generates code for by default: a portable x86-64 level
/// (AVX2, FMA, BMI2: x86 processors since 2013-2015).
inline constexpr llvm::StringLiteral kDefaultCPU = "x86-64-v3";

/// What `compileModule` generates code for.
enum class CompileTarget {
  /// The host's CPU: nd-to-llvm, libnd_runtime.so and OpenMP.
  CPU,
  /// NVIDIA GPUs: nd-to-gpu (the host code for the host's CPU), with
  /// libnd_cuda_runtime.so.
  CUDA,
};

/// The CUDA toolkit nd-compile uses by default (ptxas, fatbinary).
inline constexpr llvm::StringLiteral kDefaultCudaToolkit = "/usr/local/cuda";

/// Options of `compileModule`.
struct CompileOptions {
  CompileTarget target = CompileTarget::CPU;
  /// The tensor function to export.
  std::string function = "main";
  /// The C name of the exported entry (a C identifier).
  std::string symbol;
  /// Keep nd's run-time index and shape checks (see --lower-scatter).
  bool checkBounds = true;
  /// An LLVM CPU name, or "native" for the host's CPU and features.
  std::string cpu = kDefaultCPU.str();
  /// LLVM optimization level (0-3).
  unsigned optLevel = 3;
  /// Positions of the arguments the caller donates (see JitOptions).
  llvm::SmallVector<unsigned> donated;
  /// CUDA: the chips to assemble cubins for (sm_NN; empty: nd-to-gpu's
  /// default, sm_90 and sm_80); the PTX is generated for the oldest.
  llvm::SmallVector<std::string> cudaChips;
  /// CUDA: the toolkit's directory, with bin/ptxas and bin/fatbinary.
  std::string cudaToolkit = kDefaultCudaToolkit.str();
};

/// An entry compiled to an object file.
struct CompiledEntry {
  /// The ELF object.
  llvm::SmallString<0> object;
  /// The C name of the entry; its description is `<symbol>_signature`
  /// (and, for CUDA, its host form `<symbol>_host`).
  std::string symbol;
  ExportedSignature signature;
  CompileTarget target = CompileTarget::CPU;

  /// The symbols the library exports.
  llvm::SmallVector<std::string> getExportedSymbols() const;
};

/// Registers what `compileModule` needs in a context: every upstream dialect
/// and extension, the nd dialect and the LLVM IR translations.
void registerCompileDialects(DialectRegistry &registry);

/// Lowers `module` in place and compiles `options.function` to an object
/// file exporting `options.symbol` and its description, every other symbol
/// internal. Diagnostics go to the context's handler; the error says which
/// step failed.
llvm::Expected<CompiledEntry> compileModule(ModuleOp module,
                                            const CompileOptions &options);

/// Writes a C header that declares `entry`'s function and description and
/// documents its inputs and outputs; `source` names the model.
void emitHeader(const CompiledEntry &entry, llvm::StringRef source,
                llvm::raw_ostream &os);

/// Options of `linkSharedLibrary`.
struct LinkOptions {
  /// The C compiler driver (cc, clang, gcc): a path or a name on PATH.
  std::string driver = "cc";
  /// Where libnd_runtime.so (and libnd_cuda_runtime.so) is.
  std::string runtimeDir;
  /// Where LLVM's OpenMP runtime (libomp.so) is.
  std::string openmpDir;
};

/// Links the object file `objectPath` of `entry` into the shared library
/// `outputPath`: it needs libnd_runtime.so and libomp (CUDA:
/// libnd_cuda_runtime.so alone; found at run time through RPATH `$ORIGIN`
/// and `$ORIGIN/../lib`, or the system's search path), libc and, as needed,
/// libm, and exports the entry's symbols only. A failed link is an error
/// whose first line names `outputPath` and the driver's exit status; the
/// driver's own lines (the linker's messages) follow, indented.
llvm::Error linkSharedLibrary(llvm::StringRef objectPath,
                              llvm::StringRef outputPath,
                              const CompiledEntry &entry,
                              const LinkOptions &options);

/// Checks, before anything is compiled, that a file can be written at
/// `path` (`-`: standard output, always): it is not a directory, its
/// directory exists and a file can be created there (tried with a
/// temporary file, removed at once). The error names `path` and the reason.
llvm::Error checkOutputPath(llvm::StringRef path);

} // namespace nd
} // namespace mlir

#endif // ND_COMPILE_COMPILE_H
