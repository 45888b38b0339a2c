//===- RunnerSupport.h - Helpers shared by the tensor libraries -*- C++ -*-===//
//
// Error construction, whole-file I/O and byte-order conversion, shared by the
// `.npy` and `TensorProto` libraries. Private to lib/Runner; defined in
// HostTensor.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_RUNNER_RUNNERSUPPORT_H
#define ND_LIB_RUNNER_RUNNERSUPPORT_H

#include "nd/Runner/HostTensor.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace nd {
namespace detail {

/// A string error with `message`.
llvm::Error makeError(const llvm::Twine &message);

/// Prefixes the message of `error` with `prefix` (a file name).
llvm::Error prefixError(llvm::StringRef prefix, llvm::Error error);

/// Reads the file at `path` and decodes it with `parse(bytes, path)`.
llvm::Expected<HostTensor>
readTensorWith(llvm::StringRef path,
               llvm::function_ref<llvm::Expected<HostTensor>(llvm::StringRef,
                                                             llvm::StringRef)>
                   parse);

/// Writes `bytes` to the file at `path`, replacing it.
llvm::Error writeFileBytes(llvm::StringRef path, llvm::StringRef bytes);

/// Converts little-endian file data to host order in place (a no-op on
/// little-endian hosts). Complex elements swap per component.
void littleEndianToHost(HostTensor &tensor);

/// The little-endian image of `tensor`'s elements.
std::string hostToLittleEndian(const HostTensor &tensor);

/// Bool elements are stored as 0/1 bytes; files may hold any non-zero byte.
void normalizeBools(HostTensor &tensor);

} // namespace detail
} // namespace nd
} // namespace mlir

#endif // ND_LIB_RUNNER_RUNNERSUPPORT_H
