//===- NdIterationSpace.h - the loops of an nd op ---------------*- C++ -*-===//
//
// One model of what every nd op iterates over, asked by sharding, tiling,
// bufferization and the lowering alike (the `IterationSpaceOpInterface` of
// NdInterfaces.td returns it). The other half of the model, the rows the
// op's index entries read and write and its shape constraints, is in
// NdRowAddressing.h.
//
// An op is a set of loops, as a linalg op is, with one indexing map per
// operand and one for the result: each map is a projected permutation that
// gives, for every dim of the value, the loop that runs over it. Loops come
// in two groups:
//
// - the *iterated* loops (a prefix of the list, `numIterated`): the points
//   the op visits. A gather visits the positions of its result, a scatter
//   the positions of its updates (update entries and slice positions). The
//   tiling interface's iteration domain is exactly these loops, in this
//   order, so that tile sizes are given in the order of the result's dims
//   (gathers) or of the updates' dims (scatters);
// - the *addressed* loops: dims of `data` that index values address (a
//   gather reads along them, a scatter writes along them), and the index
//   component dim of the ND ops. No point of the op iterates them: a tile of
//   the op always spans them whole.
//
// Each loop has a kind, which says what cutting it into pieces does:
//
// - Independent: the op on a piece is the op on the slices of its operands
//   that the maps give; pieces never touch the same destination element
//   (batch dims, slice dims, the result dims of a gather, the dims of the
//   Elements ops other than the axis);
// - Entries: a scatter's update entries. Two entries may update one
//   destination element, and nd applies them in row-major order of the
//   entries: pieces are ordered (`ordered`), they may run one after the
//   other, never side by side. Where the entries provably never collide (a
//   constant `indices` whose tuples are all distinct) the loop is not
//   ordered;
// - Whole: an iterated loop that cannot be cut without rewriting index
//   values (a TensorScatter's sequence dim, whose positions start at
//   `write_indices`; OpenVINO's one-element updates);
// - Indexed: an addressed dim of `data`: index component `component`
//   addresses dim `dataDim`. Cutting it means shifting the index values into
//   the piece and skipping those outside it (`shiftable` says whether the op
//   allows that: not with a dynamic index depth, not for a TensorScatter);
// - Component: the index component dim of the ND ops.
//
// Iterator types follow: Independent loops are parallel, ordered Entries
// loops are reductions, a gather's Indexed loops are reductions (several
// points of `data` meet in one result element), a scatter's are parallel,
// Component loops are reductions.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDITERATIONSPACE_H
#define ND_DIALECT_ND_IR_NDITERATIONSPACE_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::nd {

enum class LoopKind { Independent, Entries, Whole, Indexed, Component };

/// One loop of an op's iteration space.
struct NdLoop {
  LoopKind kind = LoopKind::Whole;
  utils::IteratorType iteratorType = utils::IteratorType::parallel;
  /// Entries: applied in row-major order (the loop may be cut only into
  /// pieces that run one after the other).
  bool ordered = false;
  /// Indexed: the dim of `data` and the index component that addresses it
  /// (0 for the ops whose index values address one axis).
  int64_t dataDim = -1;
  int64_t component = -1;
  /// Indexed: whether the op on a piece of the dim is the op with its index
  /// values shifted into the piece and `oob<skip>`.
  bool shiftable = false;
  /// Entries: whether the entries combine by addition into `data`'s values
  /// (reduction `add`, with data's value counted), so that the op on a
  /// piece of the entries is the op into zeros, summed afterwards.
  bool additive = false;
  /// Independent: whether another value's dim on the loop may be larger
  /// than the loop's extent (`data` off the axis of the Elements ops, which
  /// need only be at least as large as `indices`): a piece of the loop then
  /// covers the same positions of every value, and leaves the rest of the
  /// larger dim untouched.
  bool uneven = false;
  /// Whole: why the loop cannot be cut, for messages.
  StringRef whyWhole;
  /// The operand and dim whose size is the loop's extent.
  unsigned extentValue = 0;
  int64_t extentDim = 0;

  bool isIterated() const {
    return kind != LoopKind::Indexed && kind != LoopKind::Component;
  }
};

/// The loops of an op and how its operands and result map onto them.
struct IterationSpace {
  SmallVector<NdLoop> loops;
  /// One map per operand, in operand order, then one for the result.
  SmallVector<AffineMap> maps;
  /// The names of the operands and the result, in map order.
  SmallVector<StringRef> names;
  /// The operand the op updates (its result is that operand, updated): the
  /// `data` of the scatters.
  std::optional<unsigned> destination;
  /// Whether the index values are tuples in the last dim of `indices` (the
  /// ND ops) rather than single values.
  bool tuples = false;
  /// Whether the op is a gather (it reads `data` at the index values).
  bool gather = false;

  int64_t numLoops() const { return loops.size(); }
  /// The iterated loops are the first `numIterated()`.
  int64_t numIterated() const {
    int64_t n = 0;
    while (n < numLoops() && loops[n].isIterated())
      ++n;
    return n;
  }
  /// The map of the result.
  AffineMap resultMap() const { return maps.back(); }
  /// The loop dim `dim` of value `value` (map order) runs over.
  unsigned loopOf(unsigned value, unsigned dim) const;
  /// The iterator types of the loops.
  SmallVector<utils::IteratorType> iteratorTypes() const;
};

} // namespace mlir::nd

#endif // ND_DIALECT_ND_IR_NDITERATIONSPACE_H
