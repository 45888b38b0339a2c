//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Reading and writing host tensors as NumPy `.npy` files. The readers are
// meant to be fed untrusted files: every failure is an `llvm::Error` naming
// the problem, and sizes are checked against the data actually present
// before anything is allocated.
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_NPY_H
#define ND_RUNNER_NPY_H

#include "nd/Runner/HostTensor.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
namespace nd {

/// Decodes a `.npy` image (format 1.0, 2.0 or 3.0; little-endian or
/// byte-order free dtypes; C order). `name` prefixes error messages.
llvm::Expected<HostTensor> parseNpy(llvm::StringRef bytes,
                                    llvm::StringRef name = "<npy>");

/// Reads and decodes the `.npy` file at `path`.
llvm::Expected<HostTensor> readNpyFile(llvm::StringRef path);

/// True when NumPy has a dtype for `dtype` (every dtype but bf16).
bool hasNpyDType(DType dtype);

/// Encodes `tensor` as a `.npy` image (format 1.0, or 2.0 when the header
/// needs it). bf16 has no NumPy dtype and is an error.
llvm::Error writeNpy(const HostTensor &tensor, llvm::raw_ostream &os);

/// Writes `tensor` to the `.npy` file at `path`.
llvm::Error writeNpyFile(const HostTensor &tensor, llvm::StringRef path);

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_NPY_H
