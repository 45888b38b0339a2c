//===- Passes.h - nd conversion passes --------------------------*- C++ -*-===//

#ifndef ND_CONVERSION_PASSES_H
#define ND_CONVERSION_PASSES_H

#include "nd/Conversion/NdToGPU/NdToGPU.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Conversion/NdToLoops/NdToLoops.h"
#include "nd/Conversion/TensorToNd/TensorToNd.h"
#include "nd/Conversion/TosaToNd/TosaToNd.h"

namespace mlir::nd {

#define GEN_PASS_REGISTRATION
#include "nd/Conversion/Passes.h.inc"

} // namespace mlir::nd

#endif // ND_CONVERSION_PASSES_H
