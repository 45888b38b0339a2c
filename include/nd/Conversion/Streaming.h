//===- Streaming.h - when nd's generated code streams its stores -*- C++ -*-===//
//
// One home for the size above which the code nd generates writes memory
// with non-temporal (streaming) stores: large gather results (the lowering
// of --lower-scatter) and large copies (--nd-parallel-copy).
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_STREAMING_H
#define ND_CONVERSION_STREAMING_H

#include <cstdint>

namespace mlir::nd {

/// Buffers of at least this many bytes that are written once, front to
/// back, are streamed to memory with non-temporal stores: they would only
/// evict the caches' contents (the data still to be read among them), and a
/// store that misses costs a read of its line first.
inline constexpr int64_t kStreamingBytes = int64_t(16) << 20;

/// The bytes of a cache line, the unit non-temporal stores write whole.
inline constexpr int64_t kStreamingLineBytes = 64;

} // namespace mlir::nd

#endif // ND_CONVERSION_STREAMING_H
