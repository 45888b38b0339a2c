//===- Buffers.h - buffers and row moves of the nd lowering -----*- C++ -*-===//
//
// Internal to the NdToLoops library: how the lowerings see their operands
// and results as buffers, and how they move data through them.
//
// - the operands are buffers with the identity layout (see
//   LoweringState::outline), read and written as 1-D row-major views
//   (`flatView`) or as views of rows (`collapse`);
// - scratch buffers (flags, counts, buckets, tallies) are plain allocations;
// - rows (contiguous runs of elements) move with 64-byte vector loads and
//   stores where the element type allows, the rest one element at a time;
//   large fresh results are written with non-temporal stores, and row
//   gathers prefetch the rows they will read next.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_BUFFERS_H
#define ND_LIB_CONVERSION_NDTOLOOPS_BUFFERS_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/Utils/ElementSemantics.h"

namespace mlir::nd::lowering {

//===----------------------------------------------------------------------===//
// Buffers and shapes
//===----------------------------------------------------------------------===//

/// The shape of `shape` collapsed by `groups`: a group is dynamic when one
/// of its dims is (even with a static 0 beside it, as the collapse_shape
/// verifiers demand).
SmallVector<int64_t> collapsedShape(ArrayRef<int64_t> shape,
                                    ArrayRef<ReassociationIndices> groups);

/// `memref.collapse_shape` of `memref` (identity layout) by `groups`, or
/// `memref` itself when every group is one dim.
Value collapse(OpBuilder &b, Location loc, Value memref,
               ArrayRef<ReassociationIndices> groups);

/// A 1-D row-major view of `memref` (identity layout; rank 0 gives one
/// element).
Value flatView(OpBuilder &b, Location loc, Value memref);

/// A scratch buffer of `size` elements of `type`.
Value allocScratch(OpBuilder &b, Location loc, Type type, Value size);

//===----------------------------------------------------------------------===//
// Row moves
//===----------------------------------------------------------------------===//

/// Bytes per vector (and per cache line).
inline constexpr int64_t kVectorBytes = 64;

/// Number of elements per vector for `elementType`, where rows of it move
/// with vector loads and stores (`isVectorizable`, ElementSemantics.h).
int64_t vectorLength(Type elementType);

/// `dst[dstPos..., j] = combine(dst[dstPos..., j], src[srcOffset + j])` for
/// `j` in `[0, len)`, where `dst` is a memref whose last dim is contiguous
/// (`dstPos` gives the leading indices and the start column) and `src` a
/// 1-D buffer; vector loads and stores where the element type allows.
/// `nontemporal` stores bypass the caches (results written once); they need
/// `dst[dstPos...]` on a 64-byte boundary and `len` a whole number of
/// vectors (see streamsRows).
void emitRowUpdate(OpBuilder &b, Location loc, ReductionKind reduction,
                   Value dst, ValueRange dstPos, Value src, Value srcOffset,
                   Value len, bool nontemporal = false);

/// Fills `dst[dstPos..., j]` with `value` for `j` in `[0, len)` (`dst` as in
/// `emitRowUpdate`), with vector stores where the element type allows.
void emitRowFill(OpBuilder &b, Location loc, Value dst, ValueRange dstPos,
                 Value value, Value len);

/// `flat[offset, offset + len) = 0`.
void fillZeros(OpBuilder &b, Location loc, Value flat, Value offset, Value len);

/// Whether a result of `numElements` elements, written in rows of `rowLen`
/// elements into `buffer` (a memref), is streamed: at least
/// kStreamingBytes (nd/Conversion/Streaming.h), the buffer on a 64-byte
/// boundary and every row a whole number of 64-byte vectors (so that each
/// row starts on a 64-byte boundary). An i1, checked at run time where the
/// sizes or the address are not known.
Value streamsRows(OpBuilder &b, Location loc, Value buffer, Value numElements,
                  Value rowLen);

/// `dst[dstOffset + j] = src[srcOffset + j]` for `j` in `[0, len)` (1-D
/// buffers), with non-temporal stores where `streaming` (see streamsRows)
/// holds at run time.
void emitRowCopy(OpBuilder &b, Location loc, Value dst, Value dstOffset,
                 Value src, Value srcOffset, Value len, Value streaming);

/// Asks for the first lines (at most kPrefetchLines) of the `len` elements at
/// `buffer[offset]` (1-D) to be loaded into the caches. A gather that copies
/// rows from addresses it learns one index at a time prefetches the row a
/// few indices ahead: the out-of-order window covers one long row at most,
/// so the first lines of the next row would miss one after the other.
/// Prefetches never fault: `offset` need not be in range.
void prefetchRow(OpBuilder &b, Location loc, Value buffer, Value offset,
                 Value len);
inline constexpr int64_t kPrefetchLines = 32;
/// How many index values ahead a row gather prefetches.
inline constexpr int64_t kPrefetchDistance = 2;

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_BUFFERS_H
