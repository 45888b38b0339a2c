//===- RowScatter.h - scatters of entries into rows -------------*- C++ -*-===//
//
// Internal to the NdToLoops library: the engine behind scatter_nd and the
// 1-D case of scatter_elements. The scatter is seen as entries that each
// update one row of a 2-D destination `[numRows, rowSize]` (1-D `[numRows]`
// for rows of one element), in the row-major order of the entries, and the
// destination is split among partitions that each own a disjoint part of it,
// so that every destination element receives its updates in that order
// whatever the number of partitions:
//
// - wide rows (at least kMinSplitColumns, or of dynamic size) are split by
//   column: each partition applies every entry to its columns
//   (RowScatter.cpp);
// - otherwise the rows are cut into blocks owned by the partitions, and the
//   entries are bucketed by block before each owner applies its blocks'
//   entries (RowOwners.cpp).
//
// With checks (bounds checking on, oob<error>), a scatter that updates
// data's own buffer checks every index before it writes; one that updates a
// copy of data checks a block of entries, then applies it while its indices
// are in cache (see checkedApply). A failed check reports the first bad
// entry in row-major order, and the op writes nothing into data.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_ROWSCATTER_H
#define ND_LIB_CONVERSION_NDTOLOOPS_ROWSCATTER_H

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include <functional>

namespace mlir::nd::lowering {

class LoweringState;
struct ElementTally;

//===----------------------------------------------------------------------===//
// What the scatter lowerings use
//===----------------------------------------------------------------------===//

/// One entry of a row scatter as read from the indices: the destination row
/// (unchecked under oob<error>), per index component `index + size` (see
/// rangeBound), and under skip and clamp whether the entry is skipped (its
/// row is then 0).
struct EntryRow {
  Value row;
  SmallVector<Value> shifted;
  Value skip;
};

/// A scatter seen as entries that each update one row of a 2-D destination
/// `[numRows, rowSize]` (1-D `[numRows]` when `oneD`): entry `e` reads
/// `rowSize` values at `e * rowSize` of `updates`.
struct RowScatter {
  Value numEntries, numRows, rowSize;
  /// The updates buffer.
  Value updates;
  ReductionKind reduction;
  OobMode oob;
  /// scatter_elements under mean or use_init_val(false) (`oneD` only): the
  /// destination rows are the flat positions of data.
  const ElementTally *tally = nullptr;
  bool oneD;
  /// Reads entry `e` from the indices buffer `indices`.
  std::function<EntryRow(OpBuilder &, Location, Value indices, Value e)>
      readEntry;
  /// The indices buffer.
  Value indices;
  /// `2 * size` of every index component.
  SmallVector<Value> bounds;
  /// Finds the first bad entry in row-major order and reports it.
  std::function<void(OpBuilder &, Location, Value indices)> reportFirstBad;
};

/// Whether the index checks of a row scatter run: with bounds checking, under
/// oob<error> (no index value is an error under skip and clamp).
bool checksIndices(LoweringState &state, const RowScatter &s);

/// The row scatter `s` on the buffer `data` viewed through `groups` (as
/// `[rows, slice]`, or `[rows]` when `oneD`): picks the partitioning and the
/// number of partitions, and updates data in place (not at all when a check
/// fails and `inPlace`, see checkedApply).
void scatterRows(OpBuilder &b, Location loc, LoweringState &state,
                 Operation *op, RowScatter &s, Value data, bool inPlace,
                 ArrayRef<ReassociationIndices> groups);

/// A parallel pass over chunks of the entries `[first, last)` (all of them
/// when null): `prologue(c)` once per chunk, then `body(e)` for every entry,
/// and, with `check`, the per-component maxima of `index + size` reduced
/// into one flag per chunk. Returns whether every entry is in range (true
/// without `check`); reporting is the caller's.
Value forEachEntryChecked(
    OpBuilder &b, Location loc, const RowScatter &s, Value chunks, bool check,
    function_ref<void(OpBuilder &, Location, Value)> prologue,
    function_ref<void(OpBuilder &, Location, Value, const EntryRow &, Value)>
        body,
    Value first = Value(), Value last = Value());

//===----------------------------------------------------------------------===//
// Between the engine's files
//===----------------------------------------------------------------------===//

/// Applies entry `e` (of row `row`) through `applyRow(e, row)`.
using ApplyRowFn = function_ref<void(OpBuilder &, Location, Value, Value)>;

/// `dst[row - rowLo, colLo .. colLo + width) ⊕= updates[e, colLo ..]`, or
/// through the tally.
void applyEntry(OpBuilder &b, Location loc, const RowScatter &s, Value dst,
                Value updates, Value e, Value row, Value rowLo, Value colLo,
                Value width);

/// The body of a partition of a row scatter that applies every entry (one
/// row owner, or a column partition): checks a block at a time before the
/// block's work, or all first (see `checkedApply`). Stores the partition's
/// failure flag into `flags[p]` (with checks). An empty destination takes no
/// entry.
void applyAllEntriesChecked(OpBuilder &b, Location loc, const RowScatter &s,
                            bool check, bool inPlace, Value flags, Value p,
                            ApplyRowFn applyRow);

/// The slice memref type of a partition of a `[rows, rowSize]` or `[rows]`
/// destination.
MemRefType rowSliceType(const RowScatter &s, Value dest);

/// Row owners (RowOwners.cpp): `ownerParts` partitions at most own blocks of
/// the rows of the buffer `dest`, which they update in place; `chunks`
/// partitions count and bucket the entries.
void scatterByRowOwners(OpBuilder &b, Location loc, LoweringState &state,
                        const RowScatter &s, Value dest, bool inPlace,
                        Value ownerParts, Value chunks);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_ROWSCATTER_H
