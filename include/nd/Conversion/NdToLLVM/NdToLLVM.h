//===- NdToLLVM.h - passes of the nd-to-llvm pipeline -----------*- C++ -*-===//
//
// The passes that take lowered nd ops from tensors to the LLVM dialect next to
// upstream's: argument donation around bufferization, folded reshapes of
// buffers, the simplification of small functions' deallocations, parallel
// copies, the OpenMP `if` clause, the alloca scopes of parallel loop bodies
// and the run-time calls (error reporting, thread count, store fences).
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_NDTOLLVM_NDTOLLVM_H
#define ND_CONVERSION_NDTOLLVM_NDTOLLVM_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class Location;
class OpBuilder;
class Value;
} // namespace mlir

namespace mlir::nd {

#define GEN_PASS_DECL_NDDONATION
#define GEN_PASS_DECL_NDRETURNDONATED
#define GEN_PASS_DECL_NDFOLDRESHAPES
#define GEN_PASS_DECL_NDPARALLELCOPY
#define GEN_PASS_DECL_NDSIMPLIFYDEALLOCATIONS
#define GEN_PASS_DECL_NDOPENMPIF
#define GEN_PASS_DECL_NDINLINEALLOCASCOPES
#define GEN_PASS_DECL_CONVERTNDRUNTIMETOLLVM
#include "nd/Conversion/Passes.h.inc"

/// Name of the host function a failed run-time check calls:
/// `void nd_report_error(const char *format, int64_t a, int64_t b)`, where
/// `format` is a printf format with two `%lld` conversions.
inline constexpr llvm::StringLiteral kHostReportErrorFn = "nd_report_error";

/// Emits, at `builder`'s insertion point, the run-time report of a failed
/// check that `--convert-nd-runtime-to-llvm` lowers to a call of the host's
/// `nd_report_error(format, a, b)` (`a` and `b` are i64 values; `format` a
/// printf format with at most two `%lld`, any other `%` doubled), and
/// declares what it calls in the enclosing module. The host decides what
/// follows: libnd_runner_utils.so ends the process with status 1.
void createRuntimeErrorReport(OpBuilder &builder, Location loc,
                              llvm::StringRef format, Value a, Value b);

} // namespace mlir::nd

#endif // ND_CONVERSION_NDTOLLVM_NDTOLLVM_H
