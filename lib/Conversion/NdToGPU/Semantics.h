//===- Semantics.h - nd's element semantics inside GPU kernels --*- C++ -*-===//
//
// Internal to the NdToGPU library: what kernels need beyond nd's element
// semantics (nd/Dialect/Nd/Utils/ElementSemantics.h: index values,
// reductions, means) and the messages of failed checks, which the CPU
// lowering words alike (nd/Conversion/CheckMessages.h): vector widths.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H
#define ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H

#include "mlir/IR/Builders.h"
#include "nd/Conversion/CheckMessages.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/Utils/ElementSemantics.h"

#include <string>

namespace mlir::nd::gpu_lowering {

/// Elements of `elementType` per 16-byte vector (the widest load a thread
/// issues), where `isVectorizable` (ElementSemantics.h) holds.
int64_t vectorLength(Type elementType);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_SEMANTICS_H
