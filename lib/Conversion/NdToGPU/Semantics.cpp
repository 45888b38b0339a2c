//===- Semantics.cpp - nd's element semantics inside GPU kernels ---------===//
//
// See Semantics.h.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include "nd/Conversion/NdToGPU/GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

int64_t gpu_lowering::vectorLength(Type elementType) {
  return lanesPerVector(elementType, 16);
}
