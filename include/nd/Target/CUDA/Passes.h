//===- Passes.h - nd's CUDA target ------------------------------*- C++ -*-===//
//
// The passes of include/nd/Target/CUDA/Passes.td (library NdCUDATarget):
// what `nd-to-gpu` does after `--convert-nd-to-gpu`
// (nd/Conversion/NdToGPU/NdToGPU.h) without touching an nd op. The buffers
// of host functions become device buffers (`--nd-gpu-host-memory`), the
// kernels one module (`--nd-gpu-merge-modules`), the GPU work of a call one
// stream of nd's CUDA runtime (`--nd-gpu-call-stream`), and the PTX of the
// kernels a fat binary for several chips (`--nd-gpu-module-to-fatbin`); for
// machines without a GPU, GPU code runs on the host CPU
// (`--nd-gpu-run-on-host`).
//
//===----------------------------------------------------------------------===//

#ifndef ND_TARGET_CUDA_PASSES_H
#define ND_TARGET_CUDA_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nd {

#define GEN_PASS_DECL
#include "nd/Target/CUDA/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nd/Target/CUDA/Passes.h.inc"

} // namespace mlir::nd

#endif // ND_TARGET_CUDA_PASSES_H
