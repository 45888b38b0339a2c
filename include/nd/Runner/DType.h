//===- DType.h - Element types of host tensors ------------------*- C++ -*-===//
//
// The element types a host tensor can hold, generated from DTypes.def, and
// their properties. MLIR-free: the mapping to MLIR types lives in
// nd/Runner/ElementType.h, the one to ONNX data types in
// nd/Runner/TensorProto.h, the one to NumPy dtypes in nd/Runner/Npy.cpp; all
// of them read the same table.
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_DTYPE_H
#define ND_RUNNER_DTYPE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <optional>

namespace mlir {
namespace nd {

/// Element types a host tensor can hold.
enum class DType : uint8_t {
#define ND_DTYPE(ENUM, ...) ENUM,
#include "nd/Runner/DTypes.def"
};

/// The kind of values a dtype holds.
enum class DTypeKind : uint8_t { Bool, Signed, Unsigned, Float, Complex };

/// Every dtype, in the order of the table.
llvm::ArrayRef<DType> getAllDTypes();

/// The kind of `dtype`.
DTypeKind getDTypeKind(DType dtype);

/// Size in bytes of one element (1 for bool).
size_t getDTypeSize(DType dtype);

/// Short name of `dtype`: "bool", "i8", ..., "f32", "complex64".
llvm::StringRef stringifyDType(DType dtype);

/// The inverse of `stringifyDType`.
std::optional<DType> parseDType(llvm::StringRef name);

/// True for f16, bf16, f32, f64.
inline bool isFloatDType(DType dtype) {
  return getDTypeKind(dtype) == DTypeKind::Float;
}

/// True for complex64 and complex128.
inline bool isComplexDType(DType dtype) {
  return getDTypeKind(dtype) == DTypeKind::Complex;
}

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_DTYPE_H
