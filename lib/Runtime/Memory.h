//===- Memory.h - buffers of generated code ---------------------*- C++ -*-===//
//
// The allocator behind the buffers nd's generated code allocates
// (`_mlir_memref_to_llvm_alloc` / `_mlir_memref_to_llvm_free`, which the
// nd-to-llvm pipeline calls instead of malloc and free). Small buffers come
// from malloc. Large ones are mapped on 2 MiB boundaries with transparent
// huge pages requested, and a freed large buffer is kept for the next
// allocation that fits it: a function called again on inputs of the same
// sizes reuses its result and scratch buffers instead of faulting fresh
// pages in 4 KiB at a time.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_RUNTIME_MEMORY_H
#define ND_LIB_RUNTIME_MEMORY_H

#include <cstddef>

namespace nd::runtime {

/// A buffer of `size` bytes aligned to 16 bytes at least.
void *allocate(size_t size);

/// A buffer of `size` bytes aligned to `alignment` (a power of two).
void *allocateAligned(size_t alignment, size_t size);

/// Releases a buffer from `allocate` or `allocateAligned`; null is ignored.
void release(void *buffer);

/// Unmaps every cached large buffer.
void releaseCache();

} // namespace nd::runtime

#endif // ND_LIB_RUNTIME_MEMORY_H
