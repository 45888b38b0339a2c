//===- CacheSizes.h - a tensor_scatter's cache in its lowerings -*- C++ -*-===//
//
// The sizes of a tensor_scatter's past cache that its CPU and GPU lowerings
// work with (index values of the op's buffers), and the write-index rule
// of the op's model (NdRowAddressing.h) applied to them: one home for both
// backends.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_UTILS_CACHESIZES_H
#define ND_DIALECT_ND_UTILS_CACHESIZES_H

#include "nd/Dialect/Nd/IR/NdDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::nd {

/// A past cache `[batch, .., maxSeq (the axis), ..]` and an update of
/// `seqLen` positions along the axis.
struct CacheSizes {
  TensorScatterMode mode = TensorScatterMode::Linear;
  bool circular = false;
  OobMode oob = OobMode::Error;
  /// The positions along the axis, the update's, the elements of one
  /// position (the dims after the axis), the positions' rows per index of
  /// the batch dim (the dims between it and the axis), and the last start
  /// at which a linear update fits (`maxSeq - seqLen`).
  Value maxSeq, seqLen, inner, perBatch, lastStart;

  /// Whether write index `w` is out of range, and `w` clamped into range
  /// (the model's rule).
  Value isBadWrite(OpBuilder &b, Location loc, Value w) const;
  Value clampWrite(OpBuilder &b, Location loc, Value w) const;
  /// The position along the axis of the update's position `s` written from
  /// write index `w` (wrapping in a circular cache).
  Value position(OpBuilder &b, Location loc, Value w, Value s) const;
};

/// The sizes of the buffers `cache` (the past cache, or the result it is
/// updated into) and `update` of a tensor_scatter along `axis`.
CacheSizes cacheSizesOf(OpBuilder &b, Location loc, Value cache, Value update,
                        int64_t axis, TensorScatterMode mode, OobMode oob);

} // namespace mlir::nd

#endif // ND_DIALECT_ND_UTILS_CACHESIZES_H
