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

namespace mlir::nd {

#define GEN_PASS_DECL_NDDONATION
#define GEN_PASS_DECL_NDRETURNDONATED
#define GEN_PASS_DECL_NDSHAREREADBUFFERS
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

} // namespace mlir::nd

#endif // ND_CONVERSION_NDTOLLVM_NDTOLLVM_H
