//===- ElementType.cpp - Host dtypes and MLIR element types -----*- C++ -*-===//
//
// The MLIR column of the dtype table (DTypes.def).
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/ElementType.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;
using namespace mlir::nd;

Type mlir::nd::getMLIRElementType(DType dtype, MLIRContext *ctx) {
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, BYTES, KIND, ONNX, ONNX_NAME, NPY, MLIR, ...)     \
  case DType::ENUM:                                                            \
    return MLIR;
#include "nd/Runner/DTypes.def"
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> mlir::nd::getDTypeOf(Type type) {
  for (DType dtype : getAllDTypes()) {
    if (getMLIRElementType(dtype, type.getContext()) == type)
      return dtype;
  }
  return std::nullopt;
}
