//===- Semantics.h - nd's element semantics inside GPU kernels --*- C++ -*-===//
//
// Internal to the NdToGPU library: what kernels need beyond nd's element
// semantics (nd/Dialect/Nd/Transforms/ElementSemantics.h: index values,
// reductions, means): vector widths, and the messages of failed checks as the
// CPU lowering words them (lib/Conversion/NdToLinalg), so that a failure on
// the GPU reads as it does on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H
#define ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/Transforms/ElementSemantics.h"

#include <string>

namespace mlir::nd::gpu_lowering {

/// Whether elements of `elementType` move as 16-byte vectors (integers and
/// floats of 8 to 64 bits).
bool isVectorizable(Type elementType);

/// Elements of `elementType` per 16-byte vector.
int64_t vectorLength(Type elementType);

/// The messages of failed run-time checks, as the CPU lowering words them
/// (printf formats with two `%lld`).
std::string indexMessage(int64_t dataDim);
std::string dimMessage(StringRef lhsName, int64_t lhsDim, StringRef rhsText,
                       bool atMost);
std::string writeIndexMessage(int64_t axis, bool circular);

/// "file:line:col" of an op (an imported node: "file (node)"), with '%'
/// escaped for printf: what a message names as the op's location.
std::string describeLocation(Operation *op);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H
