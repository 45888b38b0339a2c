//===- IndexChecks.h - run-time checks of index values ----------*- C++ -*-===//
//
// Internal to the NdToLoops library: the test of many index values against
// a dim at once, and the report of the first bad index value after a failed
// check.
//
// A raw index `i` is in `[-size, size)` iff `i + size` ("shifted") is below
// `2 * size` as an unsigned number, so that checking many indices is one
// unsigned max reduction (which vectorises) and one compare. Parallel checks
// only learn that some index is bad; the report then walks the indices
// serially, in row-major order, and names the first bad one, so that the
// message does not depend on the partitions.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_INDEXCHECKS_H
#define ND_LIB_CONVERSION_NDTOLOOPS_INDEXCHECKS_H

#include "mlir/IR/Builders.h"

namespace mlir::nd::lowering {

class LoweringState;
struct TupleSpace;

//===----------------------------------------------------------------------===//
// Range tests
//===----------------------------------------------------------------------===//

/// `2 * size`: a raw index `i` is in `[-size, size)` iff `i + size` is
/// below it as an unsigned number.
Value rangeBound(OpBuilder &b, Location loc, Value size);

/// Whether the unsigned maximum `shiftedMax` of `index + size` over some
/// indices shows one out of range.
Value anyOutOfRange(OpBuilder &b, Location loc, Value shiftedMax, Value bound);

/// Whether a value of `indices[lo, hi)` is out of range for a dim of
/// `size`: one unsigned max of `index + size` (see rangeBound).
Value maxShifted(OpBuilder &b, Location loc, Value indices, Value lo, Value hi,
                 Value size, Value bound);

//===----------------------------------------------------------------------===//
// The report of the first bad index
//===----------------------------------------------------------------------===//

/// One index value as the report reads it: the value, its normalized value
/// (see normalizeIndex), the size of the dim of data it addresses, and which
/// component of its entry it is (0 for single values).
struct IndexComponent {
  Value raw, normalized, size;
  int64_t component;
};

/// Reads the components of entry `e`: the values of an index tuple, or one
/// value.
using ReadIndexEntry =
    function_ref<SmallVector<IndexComponent>(OpBuilder &, Location, Value)>;

/// After a failed check: walks the entries `[0, numEntries)` in row-major
/// order, components in order, and reports the first component out of range
/// (indexMessage of nd/Conversion/CheckMessages.h for the data dim `op`'s
/// row addressing gives the component, with its value and the dim's size);
/// nothing more.
void reportFirstBadIndex(LoweringState &state, OpBuilder &b, Location loc,
                         Operation *op, Value numEntries, ReadIndexEntry read);

/// The same for single values: `indices` (a 1-D buffer of `count` values)
/// addressing a dim of data of `size` (gather_elements, scatter_elements,
/// gather).
void reportFirstBadValue(LoweringState &state, OpBuilder &b, Location loc,
                         Operation *op, Value indices, Value count,
                         Value size);

/// The same for the tuples of the flat `[numTuples, k]` buffer `indices`
/// (gather_nd, scatter_nd).
void reportFirstBadTuple(LoweringState &state, OpBuilder &b, Location loc,
                         Operation *op, Value indices, Value numTuples,
                         const TupleSpace &space);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_INDEXCHECKS_H
