//===- NdToGPU.h - nd on NVIDIA GPUs ----------------------------*- C++ -*-===//
//
// The conversion of the `nd-to-gpu` pipeline: the nd ops on buffers become
// GPU kernels and their host code (`--convert-nd-to-gpu`); on the device,
// the kernels of a path the device did not choose return early
// (`--nd-gpu-skip-unchosen`). What the pipeline does after it without
// touching an nd op (device buffers, one kernel module, one stream, fat
// binaries, the run on the host CPU) is the CUDA target's
// (nd/Target/CUDA/Passes.h).
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_NDTOGPU_NDTOGPU_H
#define ND_CONVERSION_NDTOGPU_NDTOGPU_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nd {

#define GEN_PASS_DECL_CONVERTNDTOGPU
#define GEN_PASS_DECL_NDGPUSKIPUNCHOSEN
#include "nd/Conversion/Passes.h.inc"

/// Lowers every nd op on buffers of the host function `func` into GPU
/// kernels and their host code (what `--convert-nd-to-gpu` does per
/// function); with `checkBounds`, index values and dynamic shapes are checked
/// at run time and a failure is reported at the function's returns. Emits a
/// diagnostic and fails on an op it cannot lower (an op on tensors).
LogicalResult lowerNdOpsToGPU(func::FuncOp func, bool checkBounds);

} // namespace mlir::nd

#endif // ND_CONVERSION_NDTOGPU_NDTOGPU_H
