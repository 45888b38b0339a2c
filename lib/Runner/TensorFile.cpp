//===- TensorFile.cpp - Host tensors and their file formats -----*- C++ -*-===//
//
// Readers and writers of NumPy `.npy` and ONNX `TensorProto` files, and the
// tolerance-based comparison used to check results against expected outputs.
//
// The readers treat their input as hostile: every size is validated against
// the bytes actually present before a buffer is allocated, every count and
// product is overflow-checked, and every failure is an `llvm::Error`.
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/TensorFile.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include "onnx/onnx_pb.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

using namespace mlir;
using namespace mlir::nd;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

static Error makeError(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Prefixes the message of `error` with `prefix` (a file name).
static Error prefixError(StringRef prefix, Error error) {
  std::string message = llvm::toString(std::move(error));
  return makeError(prefix + ": " + message);
}

//===----------------------------------------------------------------------===//
// DType
//===----------------------------------------------------------------------===//

size_t mlir::nd::getDTypeSize(DType dtype) {
  switch (dtype) {
  case DType::Bool:
  case DType::I8:
  case DType::U8:
    return 1;
  case DType::I16:
  case DType::U16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I32:
  case DType::U32:
  case DType::F32:
    return 4;
  case DType::I64:
  case DType::U64:
  case DType::F64:
  case DType::Complex64:
    return 8;
  case DType::Complex128:
    return 16;
  }
  llvm_unreachable("unknown dtype");
}

StringRef mlir::nd::stringifyDType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return "bool";
  case DType::I8:
    return "i8";
  case DType::I16:
    return "i16";
  case DType::I32:
    return "i32";
  case DType::I64:
    return "i64";
  case DType::U8:
    return "u8";
  case DType::U16:
    return "u16";
  case DType::U32:
    return "u32";
  case DType::U64:
    return "u64";
  case DType::F16:
    return "f16";
  case DType::BF16:
    return "bf16";
  case DType::F32:
    return "f32";
  case DType::F64:
    return "f64";
  case DType::Complex64:
    return "complex64";
  case DType::Complex128:
    return "complex128";
  }
  llvm_unreachable("unknown dtype");
}

std::optional<DType> mlir::nd::parseDType(StringRef name) {
  return llvm::StringSwitch<std::optional<DType>>(name)
      .Case("bool", DType::Bool)
      .Case("i8", DType::I8)
      .Case("i16", DType::I16)
      .Case("i32", DType::I32)
      .Case("i64", DType::I64)
      .Case("u8", DType::U8)
      .Case("u16", DType::U16)
      .Case("u32", DType::U32)
      .Case("u64", DType::U64)
      .Case("f16", DType::F16)
      .Case("bf16", DType::BF16)
      .Case("f32", DType::F32)
      .Case("f64", DType::F64)
      .Case("complex64", DType::Complex64)
      .Case("complex128", DType::Complex128)
      .Default(std::nullopt);
}

bool mlir::nd::isFloatDType(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16 || dtype == DType::F32 ||
         dtype == DType::F64;
}

bool mlir::nd::isComplexDType(DType dtype) {
  return dtype == DType::Complex64 || dtype == DType::Complex128;
}

int32_t mlir::nd::getONNXDataType(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return onnx::TensorProto_DataType_BOOL;
  case DType::I8:
    return onnx::TensorProto_DataType_INT8;
  case DType::I16:
    return onnx::TensorProto_DataType_INT16;
  case DType::I32:
    return onnx::TensorProto_DataType_INT32;
  case DType::I64:
    return onnx::TensorProto_DataType_INT64;
  case DType::U8:
    return onnx::TensorProto_DataType_UINT8;
  case DType::U16:
    return onnx::TensorProto_DataType_UINT16;
  case DType::U32:
    return onnx::TensorProto_DataType_UINT32;
  case DType::U64:
    return onnx::TensorProto_DataType_UINT64;
  case DType::F16:
    return onnx::TensorProto_DataType_FLOAT16;
  case DType::BF16:
    return onnx::TensorProto_DataType_BFLOAT16;
  case DType::F32:
    return onnx::TensorProto_DataType_FLOAT;
  case DType::F64:
    return onnx::TensorProto_DataType_DOUBLE;
  case DType::Complex64:
    return onnx::TensorProto_DataType_COMPLEX64;
  case DType::Complex128:
    return onnx::TensorProto_DataType_COMPLEX128;
  }
  llvm_unreachable("unknown dtype");
}

StringRef mlir::nd::stringifyONNXDataType(int32_t dataType) {
  // Spelled out up to the newest types so that a model from a later ONNX
  // release gets a message naming its type rather than a number.
  switch (dataType) {
  case 0:
    return "UNDEFINED";
  case 1:
    return "FLOAT";
  case 2:
    return "UINT8";
  case 3:
    return "INT8";
  case 4:
    return "UINT16";
  case 5:
    return "INT16";
  case 6:
    return "INT32";
  case 7:
    return "INT64";
  case 8:
    return "STRING";
  case 9:
    return "BOOL";
  case 10:
    return "FLOAT16";
  case 11:
    return "DOUBLE";
  case 12:
    return "UINT32";
  case 13:
    return "UINT64";
  case 14:
    return "COMPLEX64";
  case 15:
    return "COMPLEX128";
  case 16:
    return "BFLOAT16";
  case 17:
    return "FLOAT8E4M3FN";
  case 18:
    return "FLOAT8E4M3FNUZ";
  case 19:
    return "FLOAT8E5M2";
  case 20:
    return "FLOAT8E5M2FNUZ";
  case 21:
    return "UINT4";
  case 22:
    return "INT4";
  case 23:
    return "FLOAT4E2M1";
  case 24:
    return "FLOAT8E8M0";
  default:
    return "<unknown>";
  }
}

Expected<DType> mlir::nd::getDTypeFromONNX(int32_t dataType) {
  switch (dataType) {
  case onnx::TensorProto_DataType_FLOAT:
    return DType::F32;
  case onnx::TensorProto_DataType_UINT8:
    return DType::U8;
  case onnx::TensorProto_DataType_INT8:
    return DType::I8;
  case onnx::TensorProto_DataType_UINT16:
    return DType::U16;
  case onnx::TensorProto_DataType_INT16:
    return DType::I16;
  case onnx::TensorProto_DataType_INT32:
    return DType::I32;
  case onnx::TensorProto_DataType_INT64:
    return DType::I64;
  case onnx::TensorProto_DataType_BOOL:
    return DType::Bool;
  case onnx::TensorProto_DataType_FLOAT16:
    return DType::F16;
  case onnx::TensorProto_DataType_DOUBLE:
    return DType::F64;
  case onnx::TensorProto_DataType_UINT32:
    return DType::U32;
  case onnx::TensorProto_DataType_UINT64:
    return DType::U64;
  case onnx::TensorProto_DataType_COMPLEX64:
    return DType::Complex64;
  case onnx::TensorProto_DataType_COMPLEX128:
    return DType::Complex128;
  case onnx::TensorProto_DataType_BFLOAT16:
    return DType::BF16;
  case onnx::TensorProto_DataType_UNDEFINED:
    return makeError("undefined data type (UNDEFINED = 0)");
  case onnx::TensorProto_DataType_STRING:
    return makeError("STRING tensors are not supported");
  default:
    break;
  }
  StringRef name = stringifyONNXDataType(dataType);
  if (name == "<unknown>")
    return makeError("unknown data type " + Twine(dataType));
  return makeError("unsupported data type " + name + " (" + Twine(dataType) +
                   ")");
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
  int64_t next = 0;
  printDims(os, tensor, 0, next);
}

//===----------------------------------------------------------------------===//
// Byte order
//===----------------------------------------------------------------------===//

/// Converts little-endian file data to host order in place (a no-op on
/// little-endian hosts). Complex elements swap per component.
static void littleEndianToHost(HostTensor &tensor) {
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

/// The little-endian image of `tensor`'s elements.
static std::string hostToLittleEndian(const HostTensor &tensor) {
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

/// Bool elements are stored as 0/1 bytes; files may hold any non-zero byte.
static void normalizeBools(HostTensor &tensor) {
  if (tensor.getDType() != DType::Bool)
    return;
  for (uint8_t &byte : tensor.getMutableBytes())
    byte = byte ? 1 : 0;
}

//===----------------------------------------------------------------------===//
// File access
//===----------------------------------------------------------------------===//

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

static Error writeFileBytes(StringRef path, StringRef bytes) {
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

//===----------------------------------------------------------------------===//
// NumPy .npy
//===----------------------------------------------------------------------===//

namespace {
/// The fields of a `.npy` header.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
};

/// Parses the Python dict literal of a `.npy` header, e.g.
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`.
class NpyHeaderParser {
public:
  explicit NpyHeaderParser(StringRef text) : text(text) {}

  Expected<NpyHeader> parse() {
    NpyHeader header;
    bool seenDescr = false, seenOrder = false, seenShape = false;
    if (!consume('{'))
      return makeError("header is not a dict literal");
    while (!peek('}')) {
      Expected<std::string> key = parseString();
      if (!key)
        return key.takeError();
      if (!consume(':'))
        return makeError("expected ':' after key '" + *key + "'");
      if (*key == "descr") {
        if (peek('['))
          return makeError("structured dtypes are not supported");
        Expected<std::string> descr = parseString();
        if (!descr)
          return descr.takeError();
        header.descr = *descr;
        seenDescr = true;
      } else if (*key == "fortran_order") {
        Expected<bool> value = parseBool();
        if (!value)
          return value.takeError();
        header.fortranOrder = *value;
        seenOrder = true;
      } else if (*key == "shape") {
        if (Error error = parseShape(header.shape))
          return std::move(error);
        seenShape = true;
      } else {
        return makeError("unexpected key '" + *key + "' in header");
      }
      if (!consume(','))
        break;
    }
    if (!consume('}'))
      return makeError("header dict is not closed");
    skipSpace();
    if (pos != text.size())
      return makeError("unexpected text after the header dict");
    if (!seenDescr || !seenOrder || !seenShape)
      return makeError(
          "header lacks one of 'descr', 'fortran_order' and 'shape'");
    return header;
  }

private:
  void skipSpace() {
    while (pos < text.size() && llvm::isSpace(text[pos]))
      ++pos;
  }

  bool peek(char c) {
    skipSpace();
    return pos < text.size() && text[pos] == c;
  }

  bool consume(char c) {
    if (!peek(c))
      return false;
    ++pos;
    return true;
  }

  Expected<std::string> parseString() {
    skipSpace();
    if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
      return makeError("expected a string in the header");
    char quote = text[pos++];
    size_t end = text.find(quote, pos);
    if (end == StringRef::npos)
      return makeError("unterminated string in the header");
    std::string value = text.slice(pos, end).str();
    pos = end + 1;
    return value;
  }

  Expected<bool> parseBool() {
    skipSpace();
    StringRef rest = text.drop_front(pos);
    if (rest.starts_with("True")) {
      pos += 4;
      return true;
    }
    if (rest.starts_with("False")) {
      pos += 5;
      return false;
    }
    return makeError("expected True or False for 'fortran_order'");
  }

  Error parseShape(llvm::SmallVectorImpl<int64_t> &shape) {
    if (!consume('('))
      return makeError("expected a tuple for 'shape'");
    while (!peek(')')) {
      skipSpace();
      size_t start = pos;
      while (pos < text.size() && llvm::isDigit(text[pos]))
        ++pos;
      int64_t dim;
      if (start == pos || text.slice(start, pos).getAsInteger(10, dim))
        return makeError("expected a non-negative integer in 'shape'");
      // Python 2 wrote longs with a suffix.
      if (pos < text.size() && text[pos] == 'L')
        ++pos;
      shape.push_back(dim);
      if (!consume(','))
        break;
    }
    if (!consume(')'))
      return makeError("'shape' tuple is not closed");
    return Error::success();
  }

  StringRef text;
  size_t pos = 0;
};
} // namespace

/// Maps a NumPy type string ("<f4", "|b1", ...) to a dtype.
static Expected<DType> parseNpyDescr(StringRef descr) {
  if (descr.size() < 3)
    return makeError("unsupported dtype '" + descr + "'");
  char order = descr[0];
  StringRef type = descr.drop_front();
  std::optional<DType> dtype = llvm::StringSwitch<std::optional<DType>>(type)
                                   .Case("b1", DType::Bool)
                                   .Case("i1", DType::I8)
                                   .Case("i2", DType::I16)
                                   .Case("i4", DType::I32)
                                   .Case("i8", DType::I64)
                                   .Case("u1", DType::U8)
                                   .Case("u2", DType::U16)
                                   .Case("u4", DType::U32)
                                   .Case("u8", DType::U64)
                                   .Case("f2", DType::F16)
                                   .Case("f4", DType::F32)
                                   .Case("f8", DType::F64)
                                   .Case("c8", DType::Complex64)
                                   .Case("c16", DType::Complex128)
                                   .Default(std::nullopt);
  if (!dtype || (order != '<' && order != '>' && order != '|' && order != '='))
    return makeError("unsupported dtype '" + descr + "'");
  size_t size = getDTypeSize(*dtype);
  if (size > 1 && order == '>')
    return makeError("big-endian data ('" + descr + "') is not supported");
  if (size > 1 && order == '|')
    return makeError("dtype '" + descr + "' lacks a byte order");
  if (size > 1 && order == '=' && llvm::sys::IsBigEndianHost)
    return makeError("big-endian data ('" + descr + "') is not supported");
  return *dtype;
}

static Expected<HostTensor> parseNpyImpl(StringRef bytes) {
  if (bytes.empty())
    return makeError("empty file");
  static constexpr StringRef kMagic("\x93NUMPY", 6);
  if (!bytes.starts_with(kMagic))
    return makeError("not a .npy file (bad magic string)");
  if (bytes.size() < 10)
    return makeError("truncated header");
  uint8_t major = bytes[6];
  uint8_t minor = bytes[7];
  if (major < 1 || major > 3)
    return makeError("unsupported .npy format version " +
                     Twine(static_cast<unsigned>(major)) + "." +
                     Twine(static_cast<unsigned>(minor)));
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t prefix = 8 + lengthBytes;
  if (bytes.size() < prefix)
    return makeError("truncated header");
  uint64_t headerLength = 0;
  for (size_t i = 0; i < lengthBytes; ++i)
    headerLength |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[8 + i]))
                    << (8 * i);
  if (headerLength > bytes.size() - prefix)
    return makeError("truncated header: " + Twine(headerLength) +
                     " header bytes announced, " +
                     Twine(bytes.size() - prefix) + " present");
  StringRef headerText = bytes.substr(prefix, headerLength);
  if (!headerText.ends_with("\n"))
    return makeError("bad header: it does not end with a newline");

  Expected<NpyHeader> header = NpyHeaderParser(headerText).parse();
  if (!header)
    return makeError("bad header: " + llvm::toString(header.takeError()));
  if (header->fortranOrder)
    return makeError("Fortran-order arrays are not supported");
  Expected<DType> dtype = parseNpyDescr(header->descr);
  if (!dtype)
    return dtype.takeError();

  Expected<int64_t> count =
      mlir::nd::getNumElements(header->shape, getDTypeSize(*dtype));
  if (!count)
    return count.takeError();
  // Checked against the bytes present before allocating, so that a header
  // announcing a huge shape cannot make us allocate it.
  uint64_t expected = static_cast<uint64_t>(*count) * getDTypeSize(*dtype);
  StringRef data = bytes.drop_front(prefix + headerLength);
  if (data.size() < expected)
    return makeError("truncated data: shape " + formatShape(header->shape) +
                     " of " + stringifyDType(*dtype) + " needs " +
                     Twine(expected) + " bytes, " + Twine(data.size()) +
                     " present");
  if (data.size() > expected)
    return makeError(Twine(data.size() - expected) +
                     " unexpected bytes after the array data");

  Expected<HostTensor> tensor = HostTensor::create(*dtype, header->shape);
  if (!tensor)
    return tensor.takeError();
  std::memcpy(tensor->getData(), data.data(), data.size());
  littleEndianToHost(*tensor);
  normalizeBools(*tensor);
  return std::move(*tensor);
}

Expected<HostTensor> mlir::nd::parseNpy(StringRef bytes, StringRef name) {
  Expected<HostTensor> tensor = parseNpyImpl(bytes);
  if (!tensor)
    return prefixError(name, tensor.takeError());
  return tensor;
}

Expected<HostTensor> mlir::nd::readNpyFile(StringRef path) {
  Expected<std::unique_ptr<llvm::MemoryBuffer>> file = readFileBytes(path);
  if (!file)
    return file.takeError();
  return parseNpy((*file)->getBuffer(), path);
}

/// The NumPy type string of `dtype`; bf16 has none.
static Expected<StringRef> getNpyDescr(DType dtype) {
  switch (dtype) {
  case DType::Bool:
    return StringRef("|b1");
  case DType::I8:
    return StringRef("|i1");
  case DType::U8:
    return StringRef("|u1");
  case DType::I16:
    return StringRef("<i2");
  case DType::U16:
    return StringRef("<u2");
  case DType::I32:
    return StringRef("<i4");
  case DType::U32:
    return StringRef("<u4");
  case DType::I64:
    return StringRef("<i8");
  case DType::U64:
    return StringRef("<u8");
  case DType::F16:
    return StringRef("<f2");
  case DType::F32:
    return StringRef("<f4");
  case DType::F64:
    return StringRef("<f8");
  case DType::Complex64:
    return StringRef("<c8");
  case DType::Complex128:
    return StringRef("<c16");
  case DType::BF16:
    break;
  }
  return makeError("bf16 has no NumPy dtype; write a .pb file instead");
}

Error mlir::nd::writeNpy(const HostTensor &tensor, llvm::raw_ostream &os) {
  Expected<StringRef> descr = getNpyDescr(tensor.getDType());
  if (!descr)
    return descr.takeError();

  std::string dict;
  llvm::raw_string_ostream dictOS(dict);
  dictOS << "{'descr': '" << *descr << "', 'fortran_order': False, 'shape': (";
  llvm::interleaveComma(tensor.getShape(), dictOS);
  if (tensor.getRank() == 1)
    dictOS << ",";
  dictOS << "), }";

  // NumPy pads the header with spaces so that the data starts on a 64-byte
  // boundary, and ends it with a newline. Format 1.0 stores the header
  // length in two bytes, 2.0 in four.
  size_t lengthBytes = 2;
  size_t headerLength = llvm::alignTo(10 + dict.size() + 1, 64) - 10;
  if (headerLength > UINT16_MAX) {
    lengthBytes = 4;
    headerLength = llvm::alignTo(12 + dict.size() + 1, 64) - 12;
  }
  dict.append(headerLength - dict.size() - 1, ' ');
  dict.push_back('\n');

  os << StringRef("\x93NUMPY", 6);
  os << static_cast<char>(lengthBytes == 2 ? 1 : 2) << static_cast<char>(0);
  for (size_t i = 0; i < lengthBytes; ++i)
    os << static_cast<char>((headerLength >> (8 * i)) & 0xff);
  os << dict;
  os << hostToLittleEndian(tensor);
  return Error::success();
}

Error mlir::nd::writeNpyFile(const HostTensor &tensor, StringRef path) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (Error error = writeNpy(tensor, os))
    return prefixError(path, std::move(error));
  return writeFileBytes(path, bytes);
}

//===----------------------------------------------------------------------===//
// ONNX TensorProto
//===----------------------------------------------------------------------===//

/// Copies `values` (one per element, or per component for complex types) into
/// `tensor`, narrowing each to `T` after checking it is in `[lo, hi]`.
template <typename T, typename FieldT>
static Error copyCheckedField(HostTensor &tensor, const FieldT &values,
                              StringRef fieldName, int64_t lo, int64_t hi) {
  for (auto [i, value] : llvm::enumerate(values)) {
    int64_t wide = static_cast<int64_t>(value);
    if (wide < lo || wide > hi)
      return makeError(fieldName + "[" + Twine(i) + "] = " + Twine(wide) +
                       " is out of range for " +
                       stringifyDType(tensor.getDType()));
    T narrow = static_cast<T>(value);
    std::memcpy(tensor.getData() + i * sizeof(T), &narrow, sizeof(T));
  }
  return Error::success();
}

/// Copies `values` into `tensor` as `T`, for fields whose value type holds
/// every `T` (and floating-point fields, converted as C++ does).
template <typename T, typename FieldT>
static void copyField(HostTensor &tensor, const FieldT &values) {
  for (auto [i, value] : llvm::enumerate(values)) {
    T narrow = static_cast<T>(value);
    std::memcpy(tensor.getData() + i * sizeof(T), &narrow, sizeof(T));
  }
}

/// The name of the typed field `dtype` stores its values in.
static StringRef getTypedFieldName(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::Complex64:
    return "float_data";
  case DType::F64:
  case DType::Complex128:
    return "double_data";
  case DType::I64:
    return "int64_data";
  case DType::U32:
  case DType::U64:
    return "uint64_data";
  default:
    return "int32_data";
  }
}

static Expected<HostTensor>
convertTensorProtoImpl(const onnx::TensorProto &proto) {
  if (proto.data_location() == onnx::TensorProto_DataLocation_EXTERNAL ||
      proto.external_data_size() > 0)
    return makeError("external data is not supported");
  if (proto.has_segment())
    return makeError("segmented tensors are not supported");
  Expected<DType> dtype = getDTypeFromONNX(proto.data_type());
  if (!dtype)
    return dtype.takeError();

  llvm::SmallVector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  Expected<int64_t> count =
      mlir::nd::getNumElements(shape, getDTypeSize(*dtype));
  if (!count)
    return count.takeError();

  // Exactly one place may hold the values.
  struct Field {
    StringRef name;
    int size;
  };
  Field fields[] = {{"float_data", proto.float_data_size()},
                    {"int32_data", proto.int32_data_size()},
                    {"string_data", proto.string_data_size()},
                    {"int64_data", proto.int64_data_size()},
                    {"double_data", proto.double_data_size()},
                    {"uint64_data", proto.uint64_data_size()}};
  StringRef expectedField = getTypedFieldName(*dtype);
  for (const Field &field : fields) {
    if (field.size == 0)
      continue;
    if (proto.has_raw_data())
      return makeError("both raw_data and " + field.name + " are set");
    if (field.name != expectedField)
      return makeError(field.name + " cannot hold " +
                       stringifyONNXDataType(proto.data_type()) +
                       " values (expected " + expectedField + ")");
  }

  size_t elementSize = getDTypeSize(*dtype);
  uint64_t expectedBytes = static_cast<uint64_t>(*count) * elementSize;
  if (proto.has_raw_data()) {
    const std::string &raw = proto.raw_data();
    if (raw.size() != expectedBytes)
      return makeError("raw_data holds " + Twine(raw.size()) +
                       " bytes, but dims " + formatShape(shape) + " of " +
                       stringifyDType(*dtype) + " need " +
                       Twine(expectedBytes));
    Expected<HostTensor> tensor = HostTensor::create(*dtype, shape);
    if (!tensor)
      return tensor.takeError();
    std::memcpy(tensor->getData(), raw.data(), raw.size());
    littleEndianToHost(*tensor);
    normalizeBools(*tensor);
    return std::move(*tensor);
  }

  // Typed fields: complex values are stored as (real, imaginary) pairs.
  int64_t perElement = isComplexDType(*dtype) ? 2 : 1;
  int64_t present = 0;
  for (const Field &field : fields) {
    if (field.name == expectedField)
      present = field.size;
  }
  // Compared before multiplying: `count` may be huge for hostile dims.
  if (present % perElement != 0 || present / perElement != *count)
    return makeError(expectedField + " holds " + Twine(present) +
                     " values, but dims " + formatShape(shape) + " of " +
                     stringifyDType(*dtype) + " need " + Twine(*count) +
                     (perElement == 2 ? " pairs" : ""));

  Expected<HostTensor> tensor = HostTensor::create(*dtype, shape);
  if (!tensor)
    return tensor.takeError();
  switch (*dtype) {
  case DType::F32:
  case DType::Complex64:
    copyField<float>(*tensor, proto.float_data());
    break;
  case DType::F64:
  case DType::Complex128:
    copyField<double>(*tensor, proto.double_data());
    break;
  case DType::I64:
    copyField<int64_t>(*tensor, proto.int64_data());
    break;
  case DType::U64:
    copyField<uint64_t>(*tensor, proto.uint64_data());
    break;
  case DType::U32: {
    // uint64_data may hold values past INT64_MAX: range-check unsigned.
    for (auto [i, value] : llvm::enumerate(proto.uint64_data())) {
      if (value > UINT32_MAX)
        return makeError("uint64_data[" + Twine(i) + "] = " + Twine(value) +
                         " is out of range for u32");
      uint32_t narrow = static_cast<uint32_t>(value);
      std::memcpy(tensor->getData() + i * 4, &narrow, 4);
    }
    break;
  }
  case DType::I32:
    copyField<int32_t>(*tensor, proto.int32_data());
    break;
  case DType::I16:
    if (Error error = copyCheckedField<int16_t>(
            *tensor, proto.int32_data(), "int32_data", INT16_MIN, INT16_MAX))
      return std::move(error);
    break;
  case DType::I8:
    if (Error error = copyCheckedField<int8_t>(
            *tensor, proto.int32_data(), "int32_data", INT8_MIN, INT8_MAX))
      return std::move(error);
    break;
  case DType::U8:
    if (Error error = copyCheckedField<uint8_t>(*tensor, proto.int32_data(),
                                                "int32_data", 0, UINT8_MAX))
      return std::move(error);
    break;
  case DType::Bool:
    if (Error error = copyCheckedField<uint8_t>(*tensor, proto.int32_data(),
                                                "int32_data", 0, 1))
      return std::move(error);
    break;
  case DType::U16:
  case DType::F16:
  case DType::BF16:
    // int32_data carries the 16-bit patterns, zero-extended.
    if (Error error = copyCheckedField<uint16_t>(*tensor, proto.int32_data(),
                                                 "int32_data", 0, UINT16_MAX))
      return std::move(error);
    break;
  }
  return std::move(*tensor);
}

Expected<HostTensor>
mlir::nd::convertTensorProto(const onnx::TensorProto &proto) {
  Expected<HostTensor> tensor = convertTensorProtoImpl(proto);
  if (!tensor && proto.has_name() && !proto.name().empty())
    return prefixError("tensor '" + proto.name() + "'", tensor.takeError());
  return tensor;
}

Expected<HostTensor> mlir::nd::parseTensorProto(StringRef bytes,
                                                StringRef name) {
  if (bytes.empty())
    return makeError(name + ": empty file");
  if (bytes.size() > static_cast<size_t>(INT_MAX))
    return makeError(name + ": file too large for a TensorProto (> 2 GiB)");
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
    return makeError(name + ": malformed or truncated TensorProto");
  Expected<HostTensor> tensor = convertTensorProto(proto);
  if (!tensor)
    return prefixError(name, tensor.takeError());
  return tensor;
}

Expected<HostTensor> mlir::nd::readTensorProtoFile(StringRef path) {
  Expected<std::unique_ptr<llvm::MemoryBuffer>> file = readFileBytes(path);
  if (!file)
    return file.takeError();
  return parseTensorProto((*file)->getBuffer(), path);
}

Expected<std::string> mlir::nd::serializeTensorProto(const HostTensor &tensor,
                                                     StringRef name) {
  onnx::TensorProto proto;
  for (int64_t dim : tensor.getShape())
    proto.add_dims(dim);
  proto.set_data_type(getONNXDataType(tensor.getDType()));
  if (!name.empty())
    proto.set_name(name.str());
  proto.set_raw_data(hostToLittleEndian(tensor));
  std::string bytes;
  if (!proto.SerializeToString(&bytes))
    return makeError("cannot serialize a TensorProto of " +
                     Twine(tensor.getSizeInBytes()) + " bytes");
  return bytes;
}

Error mlir::nd::writeTensorProtoFile(const HostTensor &tensor, StringRef path,
                                     StringRef name) {
  Expected<std::string> bytes = serializeTensorProto(tensor, name);
  if (!bytes)
    return prefixError(path, bytes.takeError());
  return writeFileBytes(path, *bytes);
}

//===----------------------------------------------------------------------===//
// Format-independent helpers
//===----------------------------------------------------------------------===//

Expected<HostTensor> mlir::nd::readTensorFile(StringRef path) {
  StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".npy")
    return readNpyFile(path);
  if (extension == ".pb")
    return readTensorProtoFile(path);
  return makeError(path + ": unknown tensor file extension '" + extension +
                   "' (expected .npy or .pb)");
}

Error mlir::nd::writeTensorFile(const HostTensor &tensor, StringRef path) {
  StringRef extension = llvm::sys::path::extension(path);
  if (extension == ".npy")
    return writeNpyFile(tensor, path);
  if (extension == ".pb")
    return writeTensorProtoFile(tensor, path);
  return makeError(path + ": unknown tensor file extension '" + extension +
                   "' (expected .npy or .pb)");
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

/// numpy.isclose with equal_nan: NaN matches NaN, infinities match only
/// themselves.
static bool isClose(double actual, double expected, double rtol, double atol) {
  if (std::isnan(actual) || std::isnan(expected))
    return std::isnan(actual) && std::isnan(expected);
  if (actual == expected)
    return true;
  if (std::isinf(actual) || std::isinf(expected))
    return false;
  return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
}

static bool isComplexClose(std::pair<double, double> actual,
                           std::pair<double, double> expected, double rtol,
                           double atol) {
  auto isFinite = [](std::pair<double, double> z) {
    return std::isfinite(z.first) && std::isfinite(z.second);
  };
  // Special values compare per component; finite ones by magnitude, as
  // numpy does for complex numbers.
  if (!isFinite(actual) || !isFinite(expected))
    return isClose(actual.first, expected.first, rtol, atol) &&
           isClose(actual.second, expected.second, rtol, atol);
  double diff = std::hypot(actual.first - expected.first,
                           actual.second - expected.second);
  return diff <= atol + rtol * std::hypot(expected.first, expected.second);
}

Error mlir::nd::compare(const HostTensor &actual, const HostTensor &expected,
                        const CompareOptions &options) {
  if (actual.getDType() != expected.getDType())
    return makeError("dtype mismatch: got " +
                     stringifyDType(actual.getDType()) + ", expected " +
                     stringifyDType(expected.getDType()));
  if (actual.getShape() != expected.getShape())
    return makeError("shape mismatch: got " + formatShape(actual.getShape()) +
                     ", expected " + formatShape(expected.getShape()));

  DType dtype = actual.getDType();
  double rtol = 1e-5, atol = 1e-6;
  if (dtype == DType::F16) {
    rtol = 1e-3;
    atol = 1e-5;
  } else if (dtype == DType::BF16) {
    rtol = 1e-2;
    atol = 1e-5;
  }
  rtol = options.rtol.value_or(rtol);
  atol = options.atol.value_or(atol);

  int64_t firstMismatch = -1, mismatches = 0;
  for (int64_t i = 0, e = actual.getNumElements(); i < e; ++i) {
    bool same;
    if (isComplexDType(dtype))
      same = isComplexClose(actual.getComplexElement(i),
                            expected.getComplexElement(i), rtol, atol);
    else if (isFloatDType(dtype))
      same = isClose(actual.getElementAsDouble(i),
                     expected.getElementAsDouble(i), rtol, atol);
    else
      same = actual.getElementAsUInt64(i) == expected.getElementAsUInt64(i);
    if (same)
      continue;
    if (firstMismatch < 0)
      firstMismatch = i;
    ++mismatches;
  }
  if (firstMismatch < 0)
    return Error::success();
  return makeError("value mismatch at index " +
                   formatIndex(actual.getShape(), firstMismatch) + ": got " +
                   formatElement(actual, firstMismatch) + ", expected " +
                   formatElement(expected, firstMismatch) + " (" +
                   Twine(mismatches) + " of " + Twine(actual.getNumElements()) +
                   " elements differ)");
}
