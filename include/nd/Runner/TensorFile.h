//===- TensorFile.h - Host tensors and their file formats -------*- C++ -*-===//
//
// A host-side tensor value (element type, shape, owned row-major bytes) and
// the two file formats test data comes in: NumPy `.npy` and ONNX
// `TensorProto` `.pb` files. The decoding of a `TensorProto` is shared with the
// ONNX importer, which turns initializers and `Constant` nodes into MLIR
// constants through it.
//
// Every reader is meant to be fed untrusted files: all failures come back as
// `llvm::Error`s with a message that names the problem; sizes are checked
// against the data actually present before anything is allocated.
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_TENSORFILE_H
#define ND_RUNNER_TENSORFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace onnx {
class TensorProto;
} // namespace onnx

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace nd {

/// Element types a host tensor can hold.
enum class DType : uint8_t {
  Bool,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  Complex64,
  Complex128,
};

/// Size in bytes of one element (1 for bool).
size_t getDTypeSize(DType dtype);

/// Short name of `dtype`: "bool", "i8", ..., "f32", "complex64".
llvm::StringRef stringifyDType(DType dtype);

/// The inverse of `stringifyDType`.
std::optional<DType> parseDType(llvm::StringRef name);

/// True for f16, bf16, f32, f64.
bool isFloatDType(DType dtype);

/// True for complex64 and complex128.
bool isComplexDType(DType dtype);

/// The ONNX `TensorProto::DataType` value of `dtype`.
int32_t getONNXDataType(DType dtype);

/// The dtype of an ONNX `TensorProto::DataType` value, or an error naming the
/// type when nd does not support it (STRING, UNDEFINED, the float8 and 4-bit
/// types, unknown values).
llvm::Expected<DType> getDTypeFromONNX(int32_t dataType);

/// The ONNX spelling of a `TensorProto::DataType` value ("FLOAT", "INT64",
/// ...), or "<unknown>" for values ONNX does not define.
llvm::StringRef stringifyONNXDataType(int32_t dataType);

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

/// Formats element `index` of `tensor` the way `printTensor` does: shortest
/// round-trip decimal for floats, `true`/`false` for bools, `(re, im)` for
/// complex numbers, `nan`/`inf`/`-inf` for special values.
std::string formatElement(const HostTensor &tensor, int64_t index);

/// Formats a row-major element index as a multi-dimensional one, "[1, 0, 2]".
std::string formatIndex(llvm::ArrayRef<int64_t> shape, int64_t index);

/// Formats a shape as "[2, 3]" ("[]" for a scalar).
std::string formatShape(llvm::ArrayRef<int64_t> shape);

/// Prints the elements as nested brackets, "[[1, 2], [3, 4]]" (a bare value
/// for rank 0).
void printTensor(llvm::raw_ostream &os, const HostTensor &tensor);

//===----------------------------------------------------------------------===//
// NumPy .npy
//===----------------------------------------------------------------------===//

/// Decodes a `.npy` image (format 1.0, 2.0 or 3.0; little-endian or
/// byte-order free dtypes; C order). `name` prefixes error messages.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                    llvm::StringRef name = "<npy>");

/// Reads and decodes the `.npy` file at `path`.
llvm::Expected<HostTensor> readNpyFile(llvm::StringRef path);

/// Encodes `tensor` as a `.npy` image (format 1.0, or 2.0 when the header
/// needs it). bf16 has no NumPy dtype and is an error.
llvm::Error writeNpy(const HostTensor &tensor, llvm::raw_ostream &os);

/// Writes `tensor` to the `.npy` file at `path`.
llvm::Error writeNpyFile(const HostTensor &tensor, llvm::StringRef path);

//===----------------------------------------------------------------------===//
// ONNX TensorProto .pb
//===----------------------------------------------------------------------===//

/// Converts a `TensorProto` to a host tensor: `raw_data` or the typed field
/// the data type stores its values in (`float_data`, `int32_data` for the
/// narrow integer, bool, f16 and bf16 types, `int64_data`, `double_data`,
/// `uint64_data`; complex values as pairs). STRING, external data, segments,
/// unknown data types, out-of-range values and element counts that disagree
/// with `dims` are errors.
llvm::Expected<HostTensor> convertTensorProto(const onnx::TensorProto &proto);

/// Decodes a serialized `TensorProto` (the `.pb` files of ONNX test data).
/// `name` prefixes error messages.
llvm::Expected<HostTensor> parseTensorProto(llvm::StringRef bytes,
                                            llvm::StringRef name = "<pb>");

/// Reads and decodes the `TensorProto` file at `path`.
llvm::Expected<HostTensor> readTensorProtoFile(llvm::StringRef path);

/// Serializes `tensor` as a `TensorProto` with `raw_data`, named `name`.
llvm::Expected<std::string> serializeTensorProto(const HostTensor &tensor,
                                                 llvm::StringRef name = "");

/// Writes `tensor` to the `TensorProto` file at `path`.
llvm::Error writeTensorProtoFile(const HostTensor &tensor, llvm::StringRef path,
                                 llvm::StringRef name = "");

//===----------------------------------------------------------------------===//
// Format-independent helpers
//===----------------------------------------------------------------------===//

/// Reads a `.npy` or `.pb` file, chosen by the extension of `path`.
llvm::Expected<HostTensor> readTensorFile(llvm::StringRef path);

/// Writes a `.npy` or `.pb` file, chosen by the extension of `path`.
llvm::Error writeTensorFile(const HostTensor &tensor, llvm::StringRef path);

/// Tolerances of `compare`; unset fields take the per-dtype defaults
/// (f32/f64/complex: rtol 1e-5, atol 1e-6; f16: rtol 1e-3, atol 1e-5; bf16:
/// rtol 1e-2, atol 1e-5).
struct CompareOptions {
  std::optional<double> rtol;
  std::optional<double> atol;
};

/// Checks that `actual` matches `expected`: same dtype and shape, integers
/// and bools exactly, floating-point and complex elements within
/// `|a - e| <= atol + rtol * |e|` (NaN matches NaN, infinities match
/// themselves). On a mismatch the error names the first differing
/// multi-dimensional index, both values and the number of differing elements.
llvm::Error compare(const HostTensor &actual, const HostTensor &expected,
                    const CompareOptions &options = {});

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_TENSORFILE_H
