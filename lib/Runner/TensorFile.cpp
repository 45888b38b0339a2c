//===- TensorFile.cpp - Tensor files of either format -----------*- C++ -*-===//
//
// Reading and writing `.npy` and `.pb` files by extension.
//
//===----------------------------------------------------------------------===//

#include "nd/Runner/TensorFile.h"
#include "RunnerSupport.h"

#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::detail;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

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
