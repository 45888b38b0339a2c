//===- NdIndexing.h - index values of the nd ops ----------------*- C++ -*-===//
//
// What the verifiers and the folders share about index *values*: reading a
// constant index operand, the meaning of an index value (negative values
// count from the end), and the limits on how much constant data the compiler
// inspects. Private to the dialect library.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_DIALECT_ND_IR_NDINDEXING_H
#define ND_LIB_DIALECT_ND_IR_NDINDEXING_H

#include "nd/Dialect/Nd/IR/NdDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace nd {
namespace indexing {

/// The verifiers check the values of a constant index operand with at most
/// this many elements (larger ones are checked at run time only, so that
/// verification, which runs after every pass, stays cheap).
constexpr int64_t kMaxVerifiedIndices = int64_t(1) << 20;

/// The folders compute a result only when it, and the updates that produce
/// it, have at most this many elements: constant folding must not turn a
/// small program into a huge one, nor take long.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 16;

/// The values of `indices` (i32 sign-extended, i64, index) when it is
/// produced by a constant with at most `limit` elements.
std::optional<SmallVector<int64_t>> matchConstantIndices(Value indices,
                                                         int64_t limit);

/// The position that index value `i` addresses in a dim of size `size`: `i`
/// itself, or `i + size` for a negative `i`; nullopt outside
/// `[-size, size - 1]`.
inline std::optional<int64_t> normalizeIndex(int64_t i, int64_t size) {
  if (i < -size || i >= size)
    return std::nullopt;
  return i < 0 ? i + size : i;
}

/// The position that index value `i` addresses in a dim of size `size` under
/// `oob`: as normalizeIndex, or, under `clamp`, `i` clamped into
/// `[0, size - 1]` (values in range keep their meaning). nullopt where the
/// access does not happen: an error under `error`, a dropped write or a zero
/// read under `skip`, and under `clamp` when `size` is 0.
inline std::optional<int64_t> resolveIndex(int64_t i, int64_t size,
                                           OobMode oob) {
  if (std::optional<int64_t> index = normalizeIndex(i, size))
    return index;
  if (oob != OobMode::Clamp || size == 0)
    return std::nullopt;
  return i < 0 ? 0 : size - 1;
}

/// Whether write index `w` of a tensor_scatter is in range: `w >= 0`, and in
/// linear mode `w + seqLen <= maxSeq`.
inline bool isValidWriteIndex(int64_t w, int64_t maxSeq, int64_t seqLen,
                              TensorScatterMode mode) {
  return w >= 0 &&
         (mode == TensorScatterMode::Circular || w <= maxSeq - seqLen);
}

/// The write index a tensor_scatter uses for `w` under `oob`: `w` when in
/// range; under `clamp` `w` clamped into `[0, maxSeq - seqLen]` (linear) or
/// to `w >= 0` (circular); nullopt otherwise (an error, or a dropped write).
inline std::optional<int64_t> resolveWriteIndex(int64_t w, int64_t maxSeq,
                                                int64_t seqLen,
                                                TensorScatterMode mode,
                                                OobMode oob) {
  if (isValidWriteIndex(w, maxSeq, seqLen, mode))
    return w;
  if (oob != OobMode::Clamp)
    return std::nullopt;
  if (w < 0)
    return 0;
  return maxSeq - seqLen;
}

/// Row-major strides of `shape`.
SmallVector<int64_t> getStrides(ArrayRef<int64_t> shape);

/// The multi-index of the element at row-major position `flat` of `shape`.
SmallVector<int64_t> delinearize(int64_t flat, ArrayRef<int64_t> shape);

/// Calls `fn(flat, position)` for every element of `shape` in row-major
/// order, `position` being the multi-index of element `flat`.
void forEachPosition(ArrayRef<int64_t> shape,
                     function_ref<void(int64_t, ArrayRef<int64_t>)> fn);

} // namespace indexing
} // namespace nd
} // namespace mlir

#endif // ND_LIB_DIALECT_ND_IR_NDINDEXING_H
