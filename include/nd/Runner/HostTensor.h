//===- HostTensor.h - Dense tensors in host memory --------------*- C++ -*-===//
//
// A host-side tensor value (element type, shape, owned row-major bytes), the
// shape arithmetic every user of it needs, and its text form.
//
// Shapes come from untrusted files: every count and product here is
// overflow-checked, and a failure is an `llvm::Error` naming the shape.
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_HOSTTENSOR_H
#define ND_RUNNER_HOSTTENSOR_H

#include "nd/Runner/DType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace nd {

/// A dense tensor in host memory: dtype, shape and an owned, 64-byte aligned
/// buffer in row-major order. Bool elements take one byte each and hold 0 or
/// 1; f16 and bf16 elements hold their bit patterns; complex elements are
/// (real, imaginary) pairs. Move-only: copies are explicit (`clone`).
class HostTensor {
public:
  /// Alignment of the data buffer in bytes.
  static constexpr size_t kAlignment = 64;

  /// Allocates a zero-filled tensor. Fails on negative dimensions, on sizes
  /// that overflow and when the memory cannot be had.
  static llvm::Expected<HostTensor> create(DType dtype,
                                           llvm::ArrayRef<int64_t> shape);

  HostTensor() = default;
  HostTensor(HostTensor &&) = default;
  HostTensor &operator=(HostTensor &&) = default;
  HostTensor(const HostTensor &) = delete;
  HostTensor &operator=(const HostTensor &) = delete;

  /// A deep copy; fails only when the memory cannot be had.
  llvm::Expected<HostTensor> clone() const;

  DType getDType() const { return dtype; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getRank() const { return static_cast<int64_t>(shape.size()); }
  int64_t getNumElements() const { return numElements; }
  size_t getSizeInBytes() const { return sizeInBytes; }

  /// The row-major element bytes (aligned to `kAlignment`; never null).
  uint8_t *getData() { return buffer.get(); }
  const uint8_t *getData() const { return buffer.get(); }
  llvm::ArrayRef<uint8_t> getBytes() const {
    return llvm::ArrayRef<uint8_t>(buffer.get(), sizeInBytes);
  }
  llvm::MutableArrayRef<uint8_t> getMutableBytes() {
    return llvm::MutableArrayRef<uint8_t>(buffer.get(), sizeInBytes);
  }

  /// Element `index` (row-major) as a double: bools and integers exactly
  /// where representable, f16 and bf16 widened. Complex tensors return the
  /// real part; see `getComplexElement`.
  double getElementAsDouble(int64_t index) const;

  /// Element `index` of a complex tensor as (real, imaginary).
  std::pair<double, double> getComplexElement(int64_t index) const;

  /// Element `index` of a bool or integer tensor (0 for other dtypes);
  /// unsigned 64-bit values above INT64_MAX wrap (use `getElementAsUInt64`
  /// for those).
  int64_t getElementAsInt64(int64_t index) const;
  uint64_t getElementAsUInt64(int64_t index) const;

private:
  struct AlignedDeleter {
    void operator()(uint8_t *ptr) const;
  };

  DType dtype = DType::F32;
  llvm::SmallVector<int64_t, 4> shape;
  int64_t numElements = 0;
  size_t sizeInBytes = 0;
  std::unique_ptr<uint8_t[], AlignedDeleter> buffer;
};

/// The number of elements of `shape`, or an error when a dimension is
/// negative or the element count times `elementSize` overflows.
llvm::Expected<int64_t> getNumElements(llvm::ArrayRef<int64_t> shape,
                                       size_t elementSize);

/// The row-major strides of `shape` in elements, as an identity-layout
/// memref descriptor holds them: stride d is the product of the dims after d.
/// Fails when such a product overflows int64, which only a shape with a zero
/// dim and huge dims after it can make: (0, 2^62, 2^62) holds no element, yet
/// no 64-bit descriptor describes it.
llvm::Expected<llvm::SmallVector<int64_t, 4>>
getRowMajorStrides(llvm::ArrayRef<int64_t> shape);

/// Formats element `index` of `tensor` the way `printTensor` does: shortest
/// round-trip decimal for floats, `true`/`false` for bools, `(re, im)` for
/// complex numbers, `nan`/`inf`/`-inf` for special values.
std::string formatElement(const HostTensor &tensor, int64_t index);

/// Formats a row-major element index as a multi-dimensional one, "[1, 0, 2]".
std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t index);

/// Formats a shape as "[2, 3]" ("[]" for a scalar).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Prints the elements as nested brackets, "[[1, 2], [3, 4]]" (a bare value
/// for rank 0). A tensor without elements prints as "[]" whatever its shape,
/// as NumPy prints one: its output stays short for any dims.
void printTensor(llvm::raw_ostream &os, const HostTensor &tensor);

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_HOSTTENSOR_H
