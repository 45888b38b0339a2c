//===- NdToLLVM.h - nd's LLVM stage -----------------------------*- C++ -*-===//
//
// The passes that take lowered nd ops from tensors to the LLVM dialect next to
// upstream's (donation and shared read buffers around bufferization are the
// dialect's transforms, nd/Dialect/Nd/Transforms/Passes.h; the bridges over
// gaps of MLIR 22 are nd/Bridges/Bridges.h): parallel copies, the OpenMP
// `if` clause, buffers freed after their last use, static buffers passed to
// the functions of nd ops as addresses, the test of every allocation and
// the run-time calls (error reporting, thread count, store fences); and
// the passes that prepare an entry of the lowered module for a host (results
// computed into the caller's buffers and returned through a pointer, the
// per-call error state, the exported C interface of `nd-compile`). The
// run-time names they use live in nd-c/RuntimeABI.h.
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_NDTOLLVM_NDTOLLVM_H
#define ND_CONVERSION_NDTOLLVM_NDTOLLVM_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "nd-c/RuntimeABI.h"

#include <optional>

namespace mlir {
class DialectRegistry;
class Location;
class OpBuilder;
class Value;

namespace nd {

#define GEN_PASS_DECL_NDPARALLELCOPY
#define GEN_PASS_DECL_NDRESULTDESTINATIONS
#define GEN_PASS_DECL_NDOPENMPIF
#define GEN_PASS_DECL_CONVERTNDRUNTIMETOLLVM
#define GEN_PASS_DECL_NDRETURNTHROUGHPOINTER
#define GEN_PASS_DECL_NDCALLSTATE
#define GEN_PASS_DECL_NDRECORDSIGNATURE
#define GEN_PASS_DECL_NDEXPORTENTRY
#define GEN_PASS_DECL_NDBUFFERADDRESSES
#define GEN_PASS_DECL_NDEARLYDEALLOCATION
#define GEN_PASS_DECL_NDCHECKALLOCATIONS
#include "nd/Conversion/Passes.h.inc"

/// The host function a failed run-time check calls (nd-c/RuntimeABI.h).
inline constexpr llvm::StringLiteral kHostReportErrorFn =
    ND_ABI_NAME(ND_ABI_REPORT_ERROR);

/// The host function a failed allocation of the generated code calls
/// (nd-c/RuntimeABI.h; `--nd-check-allocations`).
inline constexpr llvm::StringLiteral kHostReportOutOfMemoryFn =
    ND_ABI_NAME(ND_ABI_REPORT_OUT_OF_MEMORY);

/// Emits, at `builder`'s insertion point, the run-time report of a failed
/// check that `--convert-nd-runtime-to-llvm` lowers to a call of the host's
/// `nd_report_error(format, a, b)` (`a` and `b` are i64 values; `format` a
/// printf format with at most two `%lld`, any other `%` doubled): an
/// `nd_rt.report` op. The host decides what
/// follows: libnd_runner_utils.so ends the process with status 1.
void createRuntimeErrorReport(OpBuilder &builder, Location loc,
                              llvm::StringRef format, Value a, Value b);

/// The attribute of an entry function that `--nd-return-through-pointer`
/// sets: per result, the argument whose buffer it is, or -1.
inline constexpr llvm::StringLiteral kResultBuffersAttr = "nd.result_buffers";

/// The attribute `--nd-result-destinations` sets on the entry it rewrote: the
/// number of destinations it added after the entry's arguments.
inline constexpr llvm::StringLiteral kResultDestinationsAttr =
    "nd.result_destinations";

/// The module attribute that `--nd-record-signature` sets.
inline constexpr llvm::StringLiteral kSignatureAttr = "nd.signature";

/// One input or output of an exported entry (`nd_tensor_type` of
/// nd-c/Runtime.h).
struct ExportedTensor {
  /// An nd_dtype.
  int32_t dtype = 0;
  /// ND_DYNAMIC (-1) for a dynamic dim.
  SmallVector<int64_t> dims;
  std::string name;
  bool donated = false;
  /// The input whose buffer an output is, or -1.
  int32_t alias = -1;
  /// The name of each dim ("" for none: `nd.dim_names`), or none at all.
  SmallVector<std::string> dimNames;
};

/// The nd_dtype a host exchanges tensors of `elementType` as (`index` as
/// i64), or none where nd-c/Runtime.h has no dtype for it.
std::optional<int32_t> getExportedDType(Type elementType);

/// Whether `name` is a C identifier (an exported entry's name must be).
bool isCIdentifier(llvm::StringRef name);

/// The signature of an exported entry.
struct ExportedSignature {
  /// The entry function.
  std::string function;
  SmallVector<ExportedTensor> inputs;
  SmallVector<ExportedTensor> outputs;
  /// Whether the entry takes a destination per output
  /// (`--nd-result-destinations`).
  bool destinations = false;
};

/// The signature that `--nd-record-signature` recorded on `module`, with the
/// outputs' aliases from the lowered entry, once `--nd-return-through-pointer`
/// and `--nd-call-state` have run (what `--nd-export-entry` exports). Fails
/// with a diagnostic where the module is not there yet.
FailureOr<ExportedSignature> readExportedSignature(ModuleOp module);

/// For each result of the LLVM function `entry` that
/// `--nd-return-through-pointer` rewrote, the input whose buffer it is (a
/// donated input updated in place), or -1 for a fresh buffer: its
/// `nd.result_buffers` names argument positions, and input i's descriptor
/// starts at position sum_{j<i}(3 + 2 * inputRanks[j]). Fails with a
/// diagnostic where the attribute is missing or names no donated input.
FailureOr<SmallVector<int32_t>> getResultAliases(Operation *entry,
                                                 ArrayRef<int64_t> inputRanks,
                                                 ArrayRef<bool> donated);

/// Attaches the LLVM stage's hooks to the nd dialect: its printer names large
/// literal LLVM structs (see `--convert-nd-runtime-to-llvm`). Every tool that
/// prints what nd-to-llvm makes registers them (registerNdDialects does).
void registerNdToLLVMInterfaces(DialectRegistry &registry);

} // namespace nd
} // namespace mlir

#endif // ND_CONVERSION_NDTOLLVM_NDTOLLVM_H
