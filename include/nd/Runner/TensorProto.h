//===- TensorProto.h - ONNX TensorProto .pb files ---------------*- C++ -*-===//
//
// ONNX data types and `TensorProto`s (the `.pb` files of ONNX test data, and
// the initializers and `Constant` values of models): conversion to and from
// host tensors with ONNX's own protobuf classes. The ONNX importer turns
// initializers into MLIR constants through `convertTensorProto`.
//
// Every reader is meant to be fed untrusted data: all failures come back as
// `llvm::Error`s with a message that names the problem; sizes are checked
// against the data actually present before anything is allocated.
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_TENSORPROTO_H
#define ND_RUNNER_TENSORPROTO_H

#include "nd/Runner/HostTensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>

namespace onnx {
class TensorProto;
} // namespace onnx

namespace mlir {
namespace nd {

/// The ONNX `TensorProto::DataType` value of `dtype`.
int32_t getONNXDataType(DType dtype);

/// The dtype of an ONNX `TensorProto::DataType` value, or an error naming the
/// type when nd does not support it (STRING, UNDEFINED, the float8 and 4-bit
/// types, unknown values).
llvm::Expected<DType> getDTypeFromONNX(int32_t dataType);

/// The ONNX spelling of a `TensorProto::DataType` value ("FLOAT", "INT64",
/// ...), or "<unknown>" for values ONNX does not define.
llvm::StringRef stringifyONNXDataType(int32_t dataType);

/// ONNX's type string of `dtype`, as in "tensor(float)": "float", "int64",
/// "bfloat16", ...
llvm::StringRef getONNXTypeString(DType dtype);

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

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_TENSORPROTO_H
