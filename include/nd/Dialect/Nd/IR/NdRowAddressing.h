//===- NdRowAddressing.h - the rows an nd op reads and writes ---*- C++ -*-===//
//
// The second half of the model every nd op gives of itself (the first is its
// iteration space, NdIterationSpace.h): what the op does, backend neutral,
// so that the verifiers, the folder, the CPU lowering, the GPU lowering and
// the tiling interface's scalar implementation derive from one description
// instead of each keeping its own copy of every op's addressing and shape
// rules. `IterationSpaceOpInterface` (NdInterfaces.td) returns both halves.
// Three parts:
//
// 1. The index rules (`resolveIndexWith`, the write-index rule of
//    tensor_scatter): what an index value means under each `oob` mode,
//    written once over an index arithmetic `A` and interpreted twice: on
//    compile-time integers (`ConstantIndexArithmetic` below: the verifiers,
//    the folder, the iteration space's collision test) and on IR values
//    (`IndexBuilder` in nd/Dialect/Nd/Utils/IndexArithmetic.h: the
//    lowerings, `resolveIndex` of ElementSemantics.h). An arithmetic
//    provides `Index` and `Bool` types and
//      constant, constantBool, add, sub, mul, remU, select, minS, maxS,
//      lessThan (signed), greaterThan (signed), atLeastU (unsigned),
//      equal, orBool,
//    with the semantics of MLIR's `index` type (wrapping).
//
// 2. The row addressing (`RowAddressing`): an op is a list of *entries* (a
//    tuple of a scatter_nd / gather_nd, an element of the indices of the
//    Elements ops, a slice position of a gather, a row of a tensor_scatter's
//    update), one per position of its entry dims in row-major order. Entry
//    `e` moves one *row*: `rowLength` contiguous elements, row `e` of the
//    `rows` value (a scatter's updates, a gather's result) seen as
//    `[numEntries, rowLength]`, to or from one row of `data` (the value the
//    indices address: a scatter's destination, a gather's source) seen as
//    `[.., rowLength]`: its dims from `rowStart` on are the row, and each dim
//    before takes its coordinate from an entry dim, from a resolved index
//    component, or (tensor_scatter) from the resolved write index plus an
//    entry dim. A scatter writes its data row (combining under `reduction`)
//    from row `e` of `rows`; a gather reads it into row `e`. An entry whose
//    index is bad (`ResolvedIndexOf::bad`) moves nothing: under `oob<error>`
//    it is an error, under `skip` it is skipped (a gather reads zeros).
//
// 3. The shape constraints (`ShapeConstraint`): every pairwise dim rule of
//    the op, one ordered list per op. Where both sizes are static the
//    verifier decides it (its messages name the rule); where one is dynamic
//    the lowering checks it at run time, in the list's order, and reports
//    the first that fails (nd/Conversion/ShapeChecks.h walks the list for
//    both lowerings; nd/Conversion/CheckMessages.h words the message).
//
// How each consumer uses it:
// - the verifiers (NdOps.cpp) check the static constraints of the op's
//   list, group by group in the order of their diagnostics; they keep their
//   own checks of ranks and attributes, which come before any list exists;
// - the folder (NdFolding.cpp) folds only where every constraint is decided
//   statically (`isDecidedStatically`), and evaluates constant indices with
//   `evaluateRows` (the data row of every entry, or none where its index is
//   bad);
// - the CPU and GPU lowerings (lib/Conversion/NdToLoops, NdToGPU) check
//   the shape constraints through one walk of `getShapeConstraints()`
//   (`forEachRuntimeShapeCheck`, nd/Conversion/ShapeChecks.h): a run-time
//   check for each constraint where `needsRuntimeCheck` holds, in order,
//   with the names it carries. They resolve index values with the rules of
//   part 1 instantiated on `IndexBuilder`. They size their loops and
//   kernels from the model through `RowSizes` (nd/Conversion/RowSizes.h):
//   the entries, the row length, the data dim each index component
//   addresses and its size, where each lowering read the op's dims itself
//   before (tensor_scatter reads the same from `CacheSizes`,
//   nd/Dialect/Nd/Utils/CacheSizes.h). How an entry's index values are laid
//   out in the index operand (a tuple of k values, one value per entry)
//   and the row an entry moves are still computed by each backend's own
//   entry readers;
// - the tiling interface's scalar implementation (TilingInterfaceImpl.cpp)
//   reads `oob`, `reduction` and `use_init_val` from the model instead of
//   attributes by name, and resolves the write index of a tensor_scatter
//   point with `resolveWriteIndexWith` and `sequencePositionWith`; the CPU
//   and GPU lowerings of tensor_scatter check, clamp and place write indices
//   with the same pieces (the write-index rule has this one home).
// The pieces of the write-index rule are separate (the check, the clamp,
// the position), and every size a rule takes is a parameter, so that a
// lowering can hoist what does not change per entry (the last start, the
// sizes) and build only the piece its `oob` mode needs, as it does today.
// `IndexBuilder` folds as it builds (`createOrFold`), as the lowerings do;
// so does the scalar implementation.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDROWADDRESSING_H
#define ND_DIALECT_ND_IR_NDROWADDRESSING_H

#include "nd/Dialect/Nd/IR/NdDialect.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace mlir::nd {

//===----------------------------------------------------------------------===//
// Index rules
//===----------------------------------------------------------------------===//

/// An index value resolved: the position it addresses and whether it
/// addresses nothing (`bad`). `position` is in range only where `bad` is
/// false.
template <typename A> struct ResolvedIndexOf {
  typename A::Index position;
  typename A::Bool bad;
};

/// `raw < 0 ? raw + size : raw` (`zero` is 0): negative values count from the
/// end; values outside `[-size, size)` stay outside `[0, size)`.
template <typename A>
typename A::Index normalizeIndexWith(A &a, typename A::Index raw,
                                     typename A::Index size,
                                     typename A::Index zero) {
  typename A::Bool negative = a.lessThan(raw, zero);
  typename A::Index wrapped = a.add(raw, size);
  return a.select(negative, wrapped, raw);
}

/// An index value `raw` into a dim of `size` under `oob`: normalized, and
/// bad outside `[-size, size)`; under `clamp`, clamped into `[0, size - 1]`
/// (below `-size` it becomes 0, at `size` or above `size - 1`) and bad only
/// where the dim is empty (nothing can be clamped into it).
template <typename A>
ResolvedIndexOf<A> resolveIndexWith(A &a, OobMode oob, typename A::Index raw,
                                    typename A::Index size) {
  typename A::Index zero = a.constant(0);
  typename A::Index normalized = normalizeIndexWith(a, raw, size, zero);
  if (oob != OobMode::Clamp) {
    typename A::Bool outside = a.atLeastU(normalized, size);
    return {normalized, outside};
  }
  // Below -size the normalized value is still negative: 0.
  typename A::Index one = a.constant(1);
  typename A::Index last = a.sub(size, one);
  typename A::Index below = a.minS(normalized, last);
  typename A::Index clamped = a.maxS(below, zero);
  typename A::Bool empty = a.equal(size, zero);
  return {clamped, empty};
}

/// tensor_scatter's write-index rule: write index `w` is out of range when
/// negative, or in linear mode past the last start `lastStart =
/// max_sequence_length - sequence_length` (the update must fit).
template <typename A>
typename A::Bool isBadWriteIndexWith(A &a, TensorScatterMode mode,
                                     typename A::Index w,
                                     typename A::Index lastStart) {
  typename A::Index zero = a.constant(0);
  typename A::Bool negative = a.lessThan(w, zero);
  if (mode == TensorScatterMode::Circular)
    return negative;
  typename A::Bool past = a.greaterThan(w, lastStart);
  return a.orBool(negative, past);
}

/// The write index `w` clamped under `oob<clamp>`: to `w >= 0`, and in
/// linear mode to `w <= lastStart`.
template <typename A>
typename A::Index clampWriteIndexWith(A &a, TensorScatterMode mode,
                                      typename A::Index w,
                                      typename A::Index lastStart) {
  typename A::Index zero = a.constant(0);
  typename A::Index start = a.maxS(w, zero);
  if (mode == TensorScatterMode::Circular)
    return start;
  return a.minS(start, lastStart);
}

/// The first position write index `w` writes at under `oob`: `w`, bad where
/// out of range; under `clamp`, `w` clamped and never bad.
template <typename A>
ResolvedIndexOf<A> resolveWriteIndexWith(A &a, TensorScatterMode mode,
                                         OobMode oob, typename A::Index w,
                                         typename A::Index lastStart) {
  if (oob == OobMode::Clamp) {
    typename A::Index start = clampWriteIndexWith(a, mode, w, lastStart);
    typename A::Bool never = a.constantBool(false);
    return {start, never};
  }
  typename A::Bool bad = isBadWriteIndexWith(a, mode, w, lastStart);
  return {w, bad};
}

/// The position along the sequence axis of row `s` of an update written from
/// `start`: `start + s`, modulo `maxSeq` in circular mode (only the position
/// along the axis wraps).
template <typename A>
typename A::Index
sequencePositionWith(A &a, TensorScatterMode mode, typename A::Index start,
                     typename A::Index s, typename A::Index maxSeq) {
  typename A::Index position = a.add(start, s);
  if (mode == TensorScatterMode::Circular)
    return a.remU(position, maxSeq);
  return position;
}

/// Index arithmetic on compile-time integers, with the semantics of MLIR's
/// `index` type: wrapping, signed and unsigned comparisons.
struct ConstantIndexArithmetic {
  using Index = int64_t;
  using Bool = bool;

  static uint64_t u(Index x) { return static_cast<uint64_t>(x); }
  Index constant(int64_t value) const { return value; }
  Bool constantBool(bool value) const { return value; }
  Index add(Index x, Index y) const { return static_cast<Index>(u(x) + u(y)); }
  Index sub(Index x, Index y) const { return static_cast<Index>(u(x) - u(y)); }
  Index mul(Index x, Index y) const { return static_cast<Index>(u(x) * u(y)); }
  Index remU(Index x, Index y) const { return static_cast<Index>(u(x) % u(y)); }
  Index select(Bool c, Index x, Index y) const { return c ? x : y; }
  Index minS(Index x, Index y) const { return x < y ? x : y; }
  Index maxS(Index x, Index y) const { return x < y ? y : x; }
  Bool lessThan(Index x, Index y) const { return x < y; }
  Bool greaterThan(Index x, Index y) const { return x > y; }
  Bool atLeastU(Index x, Index y) const { return u(x) >= u(y); }
  Bool equal(Index x, Index y) const { return x == y; }
  Bool orBool(Bool x, Bool y) const { return x || y; }
};

/// The position index value `raw` addresses in a dim of `size` under `oob`,
/// nullopt where it addresses nothing.
std::optional<int64_t> resolveConstantIndex(int64_t raw, int64_t size,
                                            OobMode oob);

//===----------------------------------------------------------------------===//
// Row addressing
//===----------------------------------------------------------------------===//

/// A dim of one of an op's values, the values numbered in map order (the
/// operands, then the result; on buffers a gather's `into` takes the
/// result's number): see `IterationSpace::names`.
struct DimRef {
  unsigned value = 0;
  int64_t dim = 0;
};

/// Where a dim takes its coordinate for an entry.
enum class AddressKind {
  /// The coordinate of entry dim `entryDim`.
  Entry,
  /// Index component `component` (0 where index values are single values),
  /// resolved under `oob` against the size of the dim it addresses.
  Index,
  /// tensor_scatter: the batch entry's write index, resolved by the
  /// write-index rule, plus the coordinate of entry dim `entryDim`
  /// (`sequencePositionWith`).
  Sequence,
  /// A dim of `indices` only: the index component dim of the ND ops.
  Component,
};

struct DimAddress {
  AddressKind kind = AddressKind::Entry;
  int64_t entryDim = -1;
  int64_t component = -1;
};

/// The rows an op moves (see the file comment).
struct RowAddressing {
  /// The entry dims: one entry per position of these dims, row-major.
  SmallVector<DimRef> entryDims;
  /// The value index values address, and where each of its dims before
  /// `rowStart` takes its coordinate; dims `[rowStart, rank)` are the row.
  unsigned data = 0;
  SmallVector<DimAddress> dataDims;
  int64_t rowStart = 0;
  /// The value whose row `e` entry `e` moves: a scatter's updates, a
  /// gather's result (`into` on buffers).
  unsigned rows = 0;
  /// The operand that holds the index values, and where each of its dims
  /// takes its coordinate (Entry, or the Component dim); none for a
  /// tensor_scatter without `write_indices` (every write index is 0).
  std::optional<unsigned> indices;
  SmallVector<DimAddress> indexDims;
  /// Index components per entry (`k` of the ND ops, else 1).
  int64_t numComponents = 1;
  /// Whether entries read data rows (a gather) rather than write them.
  bool gather = false;
  OobMode oob = OobMode::Error;
  /// tensor_scatter's mode; Linear for the other ops.
  TensorScatterMode mode = TensorScatterMode::Linear;
  /// How a scatter combines a row into data (None for the gathers and
  /// tensor_scatter) and scatter_elements' `use_init_val`.
  ReductionKind reduction = ReductionKind::None;
  bool useInitVal = true;

  /// The data dim index component `c` addresses (what a message about a bad
  /// component names).
  int64_t dataDimOf(int64_t component) const;
};

/// The static shape of each value of `op`, in map order.
SmallVector<ArrayRef<int64_t>> getValueShapes(Operation *op);

/// The index entries at compile time: for each entry in row-major order, the
/// coordinates of its data row (data dims before `rowStart`), nullopt where
/// its index is bad. `shapes` are those of the op's values (map order),
/// `values` the index values (row-major; ignored without an index operand).
/// Fails unless the entry dims, the index operand and every data dim an
/// index addresses are static.
LogicalResult forEachConstantEntry(
    const RowAddressing &rows, ArrayRef<ArrayRef<int64_t>> shapes,
    ArrayRef<int64_t> values,
    function_ref<void(int64_t entry, std::optional<ArrayRef<int64_t>>)> fn);

/// The rows of every entry at compile time (forEachConstantEntry, with the
/// dims of data before the row static as well).
struct ConstantRows {
  /// For each entry, its data row (row-major among data's rows of
  /// `rowLength` elements); nullopt where its index is bad.
  SmallVector<std::optional<int64_t>> dataRows;
  int64_t rowLength = 0;
};
std::optional<ConstantRows> evaluateRows(const RowAddressing &rows,
                                         ArrayRef<ArrayRef<int64_t>> shapes,
                                         ArrayRef<int64_t> values);

//===----------------------------------------------------------------------===//
// Shape constraints
//===----------------------------------------------------------------------===//

/// The rule a constraint belongs to: what a verifier message says about it.
enum class ShapeRule {
  /// A dynamic `indices.shape[-1]` of the ND ops against the index depth the
  /// ranks give (`depth`); run time only.
  IndexDepth,
  /// A batch dim: `indices` against `data`.
  BatchDim,
  /// An entry dim of `updates` against that of `indices`.
  EntryDim,
  /// A slice dim of scatter_nd's `updates` against the `data` dim it fills.
  SliceDim,
  /// A dim of the Elements ops off the axis: at most that of `data`.
  WithinData,
  /// A dim of a gather's result (`into` on buffers) against the operand dim
  /// it comes from; the verifier checks the result type by inference.
  ResultDim,
  /// tensor_scatter: an `update` dim off the axis against `past_cache`.
  CacheDim,
  /// tensor_scatter: `sequence_length` at most `max_sequence_length`.
  SequenceLength,
  /// tensor_scatter: `write_indices` has one value per batch entry.
  BatchSize,
};

/// One pairwise dim rule: `lhs` must equal `rhs` (at most `rhs` with
/// `atMost`); IndexDepth compares `lhs` with `depth`.
struct ShapeConstraint {
  ShapeRule rule;
  DimRef lhs;
  DimRef rhs;
  /// The names of the values of `lhs` and `rhs` ("indices", "data", ...).
  StringRef lhsName;
  StringRef rhsName;
  bool atMost = false;
  int64_t depth = 0;

  /// Whether the verifier has decided it from the static sizes `lhsSize` and
  /// `rhsSize` (kDynamic where dynamic): both static, or, for an upper
  /// bound, a lower side of 0; a result dim the result type leaves dynamic
  /// is what inference makes it.
  bool isDecidedStatically(int64_t lhsSize, int64_t rhsSize) const;
  /// Whether a lowering must check it at run time: one size is dynamic.
  bool needsRuntimeCheck(int64_t lhsSize, int64_t rhsSize) const;
  /// Whether static sizes violate it.
  bool isViolated(int64_t lhsSize, int64_t rhsSize) const;
};

using ShapeConstraints = SmallVector<ShapeConstraint>;

/// The static sizes of a constraint's two sides in `shapes` (map order).
std::pair<int64_t, int64_t>
getConstraintSizes(const ShapeConstraint &constraint,
                   ArrayRef<ArrayRef<int64_t>> shapes);

/// The groups the ops' lists are built from, each in the order the lowerings
/// check them (value numbers as in each op's map order).
void appendIndexDepth(ShapeConstraints &list, unsigned indices,
                      int64_t indicesRank, int64_t depth);
/// `indices.shape[d] == data.shape[d]` for `d < batchDims`.
void appendBatchDims(ShapeConstraints &list, int64_t batchDims);
/// `lhs.shape[d] <= data.shape[d]` for every `d != axis` of `rank`.
void appendWithinData(ShapeConstraints &list, unsigned lhs, StringRef lhsName,
                      int64_t rank, int64_t axis);

/// The list of each op, from its ranks and attributes (valid ones).
ShapeConstraints getScatterNDConstraints(int64_t dataRank, int64_t indicesRank,
                                         int64_t updatesRank, int64_t depth);
ShapeConstraints getGatherNDConstraints(int64_t indicesRank, int64_t batchDims,
                                        int64_t depth, int64_t resultRank);
ShapeConstraints getScatterElementsConstraints(int64_t rank, int64_t axis);
ShapeConstraints getGatherElementsConstraints(int64_t rank, int64_t axis);
ShapeConstraints getGatherConstraints(int64_t dataRank, int64_t indicesRank,
                                      int64_t axis, int64_t batchDims);
ShapeConstraints getTensorScatterConstraints(int64_t rank, int64_t axis,
                                             bool hasWriteIndices);

} // namespace mlir::nd

#endif // ND_DIALECT_ND_IR_NDROWADDRESSING_H
