//===- TensorProto.cpp - ONNX TensorProto .pb files -------------*- C++ -*-===//
//
// ONNX data types and `TensorProto`s, decoded and encoded with ONNX's own
// protobuf classes (libonnx-dev). The data type mapping comes from the dtype
// table (DTypes.def).
//
// The reader treats its input as hostile: the element count the dims
// announce is checked against the values present before a buffer is
// allocated, and every narrowing of a typed field is range-checked.
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/TensorProto.h"
#include "RunnerSupport.h"

#include "llvm/ADT/STLExtras.h"

#include "onnx/onnx_pb.h"

#include <climits>
#include <cstring>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::detail;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;
using llvm::Twine;

//===----------------------------------------------------------------------===//
// ONNX data types
//===----------------------------------------------------------------------===//

int32_t mlir::nd::getONNXDataType(DType dtype) {
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, BYTES, KIND, ONNX, ...)                           \
  case DType::ENUM:                                                            \
    return onnx::TensorProto_DataType_##ONNX;
#include "nd/Runner/DTypes.def"
  }
  llvm_unreachable("unknown dtype");
}

StringRef mlir::nd::getONNXTypeString(DType dtype) {
  switch (dtype) {
#define ND_DTYPE(ENUM, NAME, BYTES, KIND, ONNX, ONNX_NAME, ...)                \
  case DType::ENUM:                                                            \
    return ONNX_NAME;
#include "nd/Runner/DTypes.def"
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
  for (DType dtype : getAllDTypes()) {
    if (getONNXDataType(dtype) == dataType)
      return dtype;
  }
  if (dataType == onnx::TensorProto_DataType_UNDEFINED)
    return makeError("undefined data type (UNDEFINED = 0)");
  if (dataType == onnx::TensorProto_DataType_STRING)
    return makeError("STRING tensors are not supported");
  StringRef name = stringifyONNXDataType(dataType);
  if (name == "<unknown>")
    return makeError("unknown data type " + Twine(dataType));
  return makeError("unsupported data type " + name + " (" + Twine(dataType) +
                   ")");
}

//===----------------------------------------------------------------------===//
// TensorProto
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

namespace {
/// One of the TensorProto fields that may hold the values.
struct ValueField {
  StringRef name;
  int size;
};
} // namespace

/// The number of values in each of the TensorProto's typed fields.
static llvm::SmallVector<ValueField, 6>
valueFields(const onnx::TensorProto &proto) {
  return {{"float_data", proto.float_data_size()},
          {"int32_data", proto.int32_data_size()},
          {"string_data", proto.string_data_size()},
          {"int64_data", proto.int64_data_size()},
          {"double_data", proto.double_data_size()},
          {"uint64_data", proto.uint64_data_size()}};
}

/// Exactly one place may hold the values: raw_data or the field of `dtype`.
static Error checkValueFields(const onnx::TensorProto &proto,
                              llvm::ArrayRef<ValueField> fields,
                              StringRef expectedField) {
  for (const ValueField &field : fields) {
    if (field.size == 0)
      continue;
    if (proto.has_raw_data())
      return makeError("both raw_data and " + field.name + " are set");
    if (field.name != expectedField)
      return makeError(field.name + " cannot hold " +
                       stringifyONNXDataType(proto.data_type()) +
                       " values (expected " + expectedField + ")");
  }
  return Error::success();
}

/// The tensor of `raw_data`, which must hold exactly its bytes.
static Expected<HostTensor> fromRawData(const onnx::TensorProto &proto,
                                        DType dtype,
                                        llvm::ArrayRef<int64_t> shape,
                                        int64_t count) {
  uint64_t expectedBytes = static_cast<uint64_t>(count) * getDTypeSize(dtype);
  const std::string &raw = proto.raw_data();
  if (raw.size() != expectedBytes)
    return makeError("raw_data holds " + Twine(raw.size()) +
                     " bytes, but dims " + formatShape(shape) + " of " +
                     stringifyDType(dtype) + " need " + Twine(expectedBytes));
  Expected<HostTensor> tensor = HostTensor::create(dtype, shape);
  if (!tensor)
    return tensor.takeError();
  std::memcpy(tensor->getData(), raw.data(), raw.size());
  littleEndianToHost(*tensor);
  normalizeBools(*tensor);
  return std::move(*tensor);
}

/// uint64_data into u32 values: uint64_data may hold values past INT64_MAX,
/// so the range check is unsigned.
static Error copyU32Field(HostTensor &tensor, const onnx::TensorProto &proto) {
  for (auto [i, value] : llvm::enumerate(proto.uint64_data())) {
    if (value > UINT32_MAX)
      return makeError("uint64_data[" + Twine(i) + "] = " + Twine(value) +
                       " is out of range for u32");
    uint32_t narrow = static_cast<uint32_t>(value);
    std::memcpy(tensor.getData() + i * 4, &narrow, 4);
  }
  return Error::success();
}

/// The values of the typed field of `tensor`'s dtype into `tensor`, each
/// checked where the field is wider than the dtype.
static Error copyTypedField(HostTensor &tensor,
                            const onnx::TensorProto &proto) {
  switch (tensor.getDType()) {
  case DType::F32:
  case DType::Complex64:
    copyField<float>(tensor, proto.float_data());
    return Error::success();
  case DType::F64:
  case DType::Complex128:
    copyField<double>(tensor, proto.double_data());
    return Error::success();
  case DType::I64:
    copyField<int64_t>(tensor, proto.int64_data());
    return Error::success();
  case DType::U64:
    copyField<uint64_t>(tensor, proto.uint64_data());
    return Error::success();
  case DType::U32:
    return copyU32Field(tensor, proto);
  case DType::I32:
    copyField<int32_t>(tensor, proto.int32_data());
    return Error::success();
  case DType::I16:
    return copyCheckedField<int16_t>(tensor, proto.int32_data(), "int32_data",
                                     INT16_MIN, INT16_MAX);
  case DType::I8:
    return copyCheckedField<int8_t>(tensor, proto.int32_data(), "int32_data",
                                    INT8_MIN, INT8_MAX);
  case DType::U8:
    return copyCheckedField<uint8_t>(tensor, proto.int32_data(), "int32_data",
                                     0, UINT8_MAX);
  case DType::Bool:
    return copyCheckedField<uint8_t>(tensor, proto.int32_data(), "int32_data",
                                     0, 1);
  case DType::U16:
  case DType::F16:
  case DType::BF16:
    // int32_data carries the 16-bit patterns, zero-extended.
    return copyCheckedField<uint16_t>(tensor, proto.int32_data(), "int32_data",
                                      0, UINT16_MAX);
  }
  return Error::success();
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

  llvm::SmallVector<ValueField, 6> fields = valueFields(proto);
  StringRef expectedField = getTypedFieldName(*dtype);
  if (Error error = checkValueFields(proto, fields, expectedField))
    return std::move(error);
  if (proto.has_raw_data())
    return fromRawData(proto, *dtype, shape, *count);

  // Typed fields: complex values are stored as (real, imaginary) pairs.
  int64_t perElement = isComplexDType(*dtype) ? 2 : 1;
  int64_t present = 0;
  for (const ValueField &field : fields) {
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
  if (Error error = copyTypedField(*tensor, proto))
    return std::move(error);
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
  return readTensorWith(path, parseTensorProto);
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
