//===- HostTensor.cpp - Dense tensors in host memory ------------*- C++ -*-===//
//
// Host tensors and their element types: the dtype table, allocation, element
// access, shape arithmetic and the text form; and the byte-order and file
// helpers the `.npy` and `TensorProto` libraries share (RunnerSupport.h).
//
// Shapes come from untrusted files: every count and product is
// overflow-checked, and every failure is an `llvm::Error`.
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/HostTensor.h"
#include "RunnerSupport.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::detail;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

llvm::ArrayRef<DType> mlir::nd::getAllDTypes() {
  static constexpr DType kAll[] = {
#define ND_DTYPE(ENUM, ...) DType::ENUM,
#include "nd/Runner/DTypes.def"
  };
  return kAll;
}

DTypeKind mlir::nd::getDTypeKind(DType dtype) {
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, BYTES, KIND, ...)                                 \
  case DType::ENUM:                                                            \
    return DTypeKind::KIND;
#include "nd/Runner/DTypes.def"
  }
  llvm_unreachable("unknown dtype");
}

size_t mlir::nd::getDTypeSize(DType dtype) {
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, BYTES, ...)                                       \
  case DType::ENUM:                                                            \
    return BYTES;
#include "nd/Runner/DTypes.def"
  }
  llvm_unreachable("unknown dtype");
}

StringRef mlir::nd::stringifyDType(DType dtype) {
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, ...)                                              \
  case DType::ENUM:                                                            \
    return NAME;
#include "nd/Runner/DTypes.def"
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> mlir::nd::parseDType(StringRef name) {
  for (DType dtype : getAllDTypes()) {
    if (stringifyDType(dtype) == name)
      return dtype;
  }
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

void HostTensor::AlignedDeleter::operator()(uint8_t *ptr) const {
  ::operator delete(ptr, std::align_val_t(kAlignment));
}

Expected<int64_t> mlir::nd::getNumElements(llvm::ArrayRef<int64_t> shape,
                                           size_t elementSize) {
  for (auto [i, dim] : llvm::enumerate(shape)) {
    if (dim < 0)
      return makeError("dimension " + Twine(i) + " is negative (" + Twine(dim) +
                       ")");
  }
  // A zero dimension makes the tensor empty whatever the other dimensions.
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t count = 1;
  for (int64_t dim : shape) {
    std::optional<int64_t> product = llvm::checkedMul(count, dim);
    if (!product)
      return makeError("shape " + formatShape(shape) +
                       " has too many elements");
    count = *product;
  }
  if (std::optional<int64_t> bytes =
          llvm::checkedMul(count, static_cast<int64_t>(elementSize));
      !bytes || static_cast<uint64_t>(*bytes) > SIZE_MAX)
    return makeError("shape " + formatShape(shape) +
                     " is too large to hold in memory");
  return count;
}

Expected<llvm::SmallVector<int64_t, 4>>
mlir::nd::getRowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t, 4> strides(shape.size(), 1);
  int64_t running = 1;
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] < 0)
      return makeError("dimension " + Twine(d) + " is negative (" +
                       Twine(shape[d]) + ")");
    strides[d] = running;
    std::optional<int64_t> next = llvm::checkedMul(running, shape[d]);
    // The stride of dim 0 is the last one needed: the product of all dims
    // may overflow only when it is not needed.
    if (!next && d > 0)
      return makeError(
          "shape " + formatShape(shape) +
          " has no 64-bit row-major strides: the product of dims " + Twine(d) +
          " to " + Twine(shape.size() - 1) + " overflows int64");
    running = next.value_or(0);
  }
  return strides;
}

Expected<HostTensor> HostTensor::create(DType dtype,
                                        llvm::ArrayRef<int64_t> shape) {
  size_t elementSize = getDTypeSize(dtype);
  Expected<int64_t> count = mlir::nd::getNumElements(shape, elementSize);
  if (!count)
    return count.takeError();
  size_t bytes = static_cast<size_t>(*count) * elementSize;
  // Never a null buffer, even for empty tensors: callers may hand the pointer
  // to code that expects a valid address.
  size_t allocation = std::max(bytes, kAlignment);
  void *memory =
      ::operator new(allocation, std::align_val_t(kAlignment), std::nothrow);
  if (!memory)
    return makeError("cannot allocate " + Twine(bytes) + " bytes for a " +
                     formatShape(shape) + " tensor");
  std::memset(memory, 0, allocation);

  HostTensor tensor;
  tensor.dtype = dtype;
  tensor.shape.assign(shape.begin(), shape.end());
  tensor.numElements = *count;
  tensor.sizeInBytes = bytes;
  tensor.buffer.reset(static_cast<uint8_t *>(memory));
  return tensor;
}

Expected<HostTensor> HostTensor::clone() const {
  if (!buffer)
    return HostTensor();
  Expected<HostTensor> copy = create(dtype, shape);
  if (!copy)
    return copy.takeError();
  std::memcpy(copy->getData(), getData(), sizeInBytes);
  return copy;
}

template <typename T> static T loadElement(const uint8_t *data, int64_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

static double halfBitsToDouble(uint16_t bits) {
  llvm::APFloat value(llvm::APFloat::IEEEhalf(), llvm::APInt(16, bits));
  return value.convertToFloat();
}

static double bfloatBitsToDouble(uint16_t bits) {
  uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &wide, sizeof(value));
  return value;
}

/// Element `index` of a bool or integer buffer of `dtype`, converted to `R`;
/// nullopt for the floating-point and complex dtypes.
template <typename R>
static std::optional<R> loadIntegerAs(DType dtype, const uint8_t *data,
                                      int64_t index) {
  switch (dtype) {
  case DType::Bool:
  case DType::U8:
    return static_cast<R>(loadElement<uint8_t>(data, index));
  case DType::I8:
    return static_cast<R>(loadElement<int8_t>(data, index));
  case DType::I16:
    return static_cast<R>(loadElement<int16_t>(data, index));
  case DType::I32:
    return static_cast<R>(loadElement<int32_t>(data, index));
  case DType::I64:
    return static_cast<R>(loadElement<int64_t>(data, index));
  case DType::U16:
    return static_cast<R>(loadElement<uint16_t>(data, index));
  case DType::U32:
    return static_cast<R>(loadElement<uint32_t>(data, index));
  case DType::U64:
    return static_cast<R>(loadElement<uint64_t>(data, index));
  default:
    return std::nullopt;
  }
}

double HostTensor::getElementAsDouble(int64_t index) const {
  const uint8_t *data = getData();
  if (std::optional<double> value = loadIntegerAs<double>(dtype, data, index))
    return *value;
  switch (dtype) {
  case DType::F16:
    return halfBitsToDouble(loadElement<uint16_t>(data, index));
  case DType::BF16:
    return bfloatBitsToDouble(loadElement<uint16_t>(data, index));
  case DType::F32:
    return loadElement<float>(data, index);
  case DType::F64:
    return loadElement<double>(data, index);
  case DType::Complex64:
  case DType::Complex128:
    return getComplexElement(index).first;
  default:
    llvm_unreachable("integer dtypes are handled above");
  }
}

std::pair<double, double> HostTensor::getComplexElement(int64_t index) const {
  const uint8_t *data = getData();
  if (dtype == DType::Complex64)
    return {loadElement<float>(data, 2 * index),
            loadElement<float>(data, 2 * index + 1)};
  if (dtype == DType::Complex128)
    return {loadElement<double>(data, 2 * index),
            loadElement<double>(data, 2 * index + 1)};
  return {getElementAsDouble(index), 0.0};
}

int64_t HostTensor::getElementAsInt64(int64_t index) const {
  // Converting a float could overflow; integers only, as documented.
  return loadIntegerAs<int64_t>(dtype, getData(), index).value_or(0);
}

uint64_t HostTensor::getElementAsUInt64(int64_t index) const {
  return loadIntegerAs<uint64_t>(dtype, getData(), index).value_or(0);
}

//===----------------------------------------------------------------------===//
// Formatting
//===----------------------------------------------------------------------===//

/// The shortest "%.Ng" rendering of `value` that `roundTrips` accepts.
static std::string formatShortest(double value, int maxDigits,
                                  llvm::function_ref<bool(double)> roundTrips) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value < 0 ? "-inf" : "inf";
  char text[64];
  int digits = 1;
  for (; digits < maxDigits; ++digits) {
    std::snprintf(text, sizeof(text), "%.*g", digits, value);
    if (roundTrips(std::strtod(text, nullptr)))
      break;
  }
  std::snprintf(text, sizeof(text), "%.*g", digits, value);
  // "%g" switches to an exponent as soon as the digits run out (65500 with
  // three digits is "6.55e+04"); keep moderate magnitudes positional, as
  // NumPy prints them.
  double shortest = std::strtod(text, nullptr);
  double magnitude = std::fabs(shortest);
  if (!std::strchr(text, 'e') || magnitude < 1e-4 || magnitude >= 1e16)
    return text;
  int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
  int decimals = std::max(0, digits - 1 - exponent);
  std::snprintf(text, sizeof(text), "%.*f", decimals, shortest);
  return text;
}

/// Rounds `value` to the format of `semantics` and returns its bits.
static uint64_t roundToBits(double value, const llvm::fltSemantics &semantics) {
  llvm::APFloat rounded(value);
  bool losesInfo = false;
  rounded.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return rounded.bitcastToAPInt().getZExtValue();
}

static std::string formatFloatElement(DType dtype, double value) {
  switch (dtype) {
  case DType::F16: {
    uint64_t bits = roundToBits(value, llvm::APFloat::IEEEhalf());
    return formatShortest(value, 9, [&](double parsed) {
      return roundToBits(parsed, llvm::APFloat::IEEEhalf()) == bits;
    });
  }
  case DType::BF16: {
    uint64_t bits = roundToBits(value, llvm::APFloat::BFloat());
    return formatShortest(value, 9, [&](double parsed) {
      return roundToBits(parsed, llvm::APFloat::BFloat()) == bits;
    });
  }
  case DType::F32:
  case DType::Complex64: {
    float narrow = static_cast<float>(value);
    return formatShortest(value, 9, [&](double parsed) {
      return static_cast<float>(parsed) == narrow;
    });
  }
  default:
    return formatShortest(value, 17,
                          [&](double parsed) { return parsed == value; });
  }
}

std::string mlir::nd::formatElement(const HostTensor &tensor, int64_t index) {
  DType dtype = tensor.getDType();
  if (dtype == DType::Bool)
    return tensor.getElementAsInt64(index) ? "true" : "false";
  if (dtype == DType::U64)
    return std::to_string(tensor.getElementAsUInt64(index));
  if (isComplexDType(dtype)) {
    auto [re, im] = tensor.getComplexElement(index);
    return "(" + formatFloatElement(dtype, re) + ", " +
           formatFloatElement(dtype, im) + ")";
  }
  if (isFloatDType(dtype))
    return formatFloatElement(dtype, tensor.getElementAsDouble(index));
  return std::to_string(tensor.getElementAsInt64(index));
}

std::string mlir::nd::formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(shape, os);
  os << "]";
  return text;
}

std::string mlir::nd::formatIndex(llvm::ArrayRef<int64_t> shape,
                                  int64_t index) {
  llvm::SmallVector<int64_t> coords(shape.size(), 0);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
    if (shape[d] == 0)
      continue;
    coords[d] = index % shape[d];
    index /= shape[d];
  }
  return formatShape(coords);
}

static void printDims(llvm::raw_ostream &os, const HostTensor &tensor,
                      int64_t dim, int64_t &next) {
  llvm::ArrayRef<int64_t> shape = tensor.getShape();
  if (dim == tensor.getRank()) {
    os << formatElement(tensor, next++);
    return;
  }
  os << "[";
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i)
      os << ", ";
    printDims(os, tensor, dim + 1, next);
  }
  os << "]";
}

void mlir::nd::printTensor(llvm::raw_ostream &os, const HostTensor &tensor) {
  // Nested brackets would print one "[]" per index of the dims before the
  // first zero dim: 2^62 of them for a (2^62, 0) tensor.
  if (tensor.getRank() > 0 && tensor.getNumElements() == 0) {
    os << "[]";
    return;
  }
  int64_t next = 0;
  printDims(os, tensor, 0, next);
}

//===----------------------------------------------------------------------===//
// Support shared by the file formats
//===----------------------------------------------------------------------===//

Error mlir::nd::detail::makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

Error mlir::nd::detail::prefixError(StringRef prefix, Error error) {
  std::string message = llvm::toString(std::move(error));
  return makeError(prefix + ": " + message);
}

void mlir::nd::detail::littleEndianToHost(HostTensor &tensor) {
  if constexpr (llvm::sys::IsLittleEndianHost)
    return;
  size_t width = getDTypeSize(tensor.getDType());
  if (isComplexDType(tensor.getDType()))
    width /= 2;
  if (width == 1)
    return;
  uint8_t *data = tensor.getData();
  for (size_t offset = 0; offset < tensor.getSizeInBytes(); offset += width)
    std::reverse(data + offset, data + offset + width);
}

std::string mlir::nd::detail::hostToLittleEndian(const HostTensor &tensor) {
  std::string bytes(reinterpret_cast<const char *>(tensor.getData()),
                    tensor.getSizeInBytes());
  if constexpr (llvm::sys::IsLittleEndianHost)
    return bytes;
  size_t width = getDTypeSize(tensor.getDType());
  if (isComplexDType(tensor.getDType()))
    width /= 2;
  if (width > 1) {
    for (size_t offset = 0; offset < bytes.size(); offset += width)
      std::reverse(bytes.begin() + offset, bytes.begin() + offset + width);
  }
  return bytes;
}

void mlir::nd::detail::normalizeBools(HostTensor &tensor) {
  if (tensor.getDType() != DType::Bool)
    return;
  for (uint8_t &byte : tensor.getMutableBytes())
    byte = byte ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// File access
//===----------------------------------------------------------------------===//

/// The bytes of the file at `path`.
static Expected<std::unique_ptr<llvm::MemoryBuffer>>
readFileBytes(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!file)
    return makeError("cannot read '" + path +
                     "': " + file.getError().message());
  return std::move(*file);
}

Expected<HostTensor> mlir::nd::detail::readTensorWith(
    StringRef path,
    llvm::function_ref<Expected<HostTensor>(StringRef, StringRef)> parse) {
  Expected<std::unique_ptr<llvm::MemoryBuffer>> file = readFileBytes(path);
  if (!file)
    return file.takeError();
  return parse((*file)->getBuffer(), path);
}

Error mlir::nd::detail::writeFileBytes(StringRef path, StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << bytes;
  os.close();
  if (os.has_error()) {
    std::error_code writeError = os.error();
    // Cleared so that the stream does not abort on destruction.
    os.clear_error();
    return makeError("cannot write '" + path + "': " + writeError.message());
  }
  return Error::success();
}
