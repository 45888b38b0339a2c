//===- NdToGPU.h - nd on NVIDIA GPUs ----------------------------*- C++ -*-===//
//
// The passes of the `nd-to-gpu` pipeline: the nd ops on buffers become GPU
// kernels and their host code (`--convert-nd-to-gpu`), the buffers of host
// functions device buffers (`--nd-gpu-host-memory`), the kernels one module
// (`--nd-gpu-merge-modules`), the GPU work of a call one stream
// (`--nd-gpu-call-stream`), and the PTX of the kernels a fat
// binary for several chips (`--nd-gpu-module-to-fatbin`); and, for machines
// without a GPU, GPU code run on the host CPU (`--nd-gpu-run-on-host`).
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_NDTOGPU_NDTOGPU_H
#define ND_CONVERSION_NDTOGPU_NDTOGPU_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nd {

#define GEN_PASS_DECL_CONVERTNDTOGPU
#define GEN_PASS_DECL_NDGPUHOSTMEMORY
#define GEN_PASS_DECL_NDGPUMERGEMODULES
#define GEN_PASS_DECL_NDGPUCALLSTREAM
#define GEN_PASS_DECL_NDGPUMODULETOFATBIN
#define GEN_PASS_DECL_NDGPURUNONHOST
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
