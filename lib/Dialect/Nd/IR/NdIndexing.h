//===- NdIndexing.h - index values of the nd ops ----------------*- C++ -*-===//
//
// What the verifiers and the folders share about index *values*: reading a
// constant index operand, row-major positions, and the limits on how much
// constant data the compiler inspects. What an index value means is the
// model's (the index rules of nd/Dialect/Nd/IR/NdRowAddressing.h). Private
// to the dialect library.
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
