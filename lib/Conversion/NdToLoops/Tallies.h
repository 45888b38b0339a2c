//===- Tallies.h - per-element tallies of scatter_elements ------*- C++ -*-===//
//
// Internal to the NdToLoops library: what a scatter_elements under
// `reduction<mean>` or `use_init_val(false)` keeps per destination element
// beside its value, in scratch buffers indexed by the flat position in data:
// `counts` (the updates it has taken, plus one for data's value under
// `use_init_val`) and, for an integer mean, `sums`, the exact sum in an
// integer at least 64 bits wider than the element. An element's owner (one
// partition) resets the tally of its elements, applies their updates in
// order, then finishes them (a mean divides), so the result does not depend
// on the partitions.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_TALLIES_H
#define ND_LIB_CONVERSION_NDTOLOOPS_TALLIES_H

#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

namespace mlir::nd::lowering {

/// The tally of a scatter_elements (see the file comment).
struct ElementTally {
  ReductionKind reduction;
  bool useInit;
  Value counts, sums;
};

/// Whether `op` needs a tally.
bool needsTally(ScatterElementsOp op);

/// The scratch buffers of the tally of `op` for a destination of
/// `numElements` elements.
ElementTally allocateTally(OpBuilder &b, Location loc, ScatterElementsOp op,
                           Value numElements);

/// Clears the tally of the element at flat position `flat`, before its first
/// update.
void resetTally(OpBuilder &b, Location loc, const ElementTally &tally,
                Value flat);

/// Applies `update` to the element at `at` of `dst` (flat position `flat`
/// in data).
void applyTallied(OpBuilder &b, Location loc, const ElementTally &tally,
                  Value dst, ValueRange at, Value flat, Value update);

/// Under mean, divides the element at `at` of `dst` (flat position `flat`)
/// by its count if it took an update, and clears the count (an element
/// addressed several times is finished once).
void finishTally(OpBuilder &b, Location loc, const ElementTally &tally,
                 Value dst, ValueRange at, Value flat);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_TALLIES_H
