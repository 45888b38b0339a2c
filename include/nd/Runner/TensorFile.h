//===- TensorFile.h - Tensor files of either format -------------*- C++ -*-===//
//
// Reading and writing host tensors as `.npy` or ONNX `TensorProto` `.pb`
// files, the format chosen by the file's extension. Includes both formats'
// headers; code that needs one format only includes (and links) that one.
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_TENSORFILE_H
#define ND_RUNNER_TENSORFILE_H

#include "nd/Runner/HostTensor.h"
#include "nd/Runner/Npy.h"
#include "nd/Runner/TensorProto.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mlir {
namespace nd {

/// Reads a `.npy` or `.pb` file, chosen by the extension of `path`.
llvm::Expected<HostTensor> readTensorFile(llvm::StringRef path);

/// Writes a `.npy` or `.pb` file, chosen by the extension of `path`.
llvm::Error writeTensorFile(const HostTensor &tensor, llvm::StringRef path);

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_TENSORFILE_H
