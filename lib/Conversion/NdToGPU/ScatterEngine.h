//===- ScatterEngine.h - deterministic scatters of rows on the GPU -*- C++ -*-//
//
// Internal to the NdToGPU library: the engine of `nd.scatter_nd` and
// `nd.scatter_elements`. A scatter is seen as `entries` entries, each writing
// a row of `rowLen` contiguous elements of `updates` (entry e's row starts at
// e * rowLen) into destination row `rowOf(e)` of `data` (at row * rowLen), or
// nothing where the entry is dropped (oob<skip>, or a bad index whose check
// fails the op). Every destination element receives the updates of its
// entries in row-major order of the entries, as nd's CPU lowering applies
// them:
//
// 1. a *key* kernel reads every index once, checks it (oob<error>: noted in
//    the op's slot of the error record) and writes each entry's destination
//    row as a 32-bit key (bit 31 set for a dropped entry); nothing is written
//    to data before the check has been recorded, so a failed check leaves
//    data untouched;
// 2. reduction `none`: each destination row keeps its last entry (an integer
//    atomic max of the entry number per row: the winner does not depend on
//    the order of the atomics), and the winners write their rows; with at
//    most 256 entries one kernel does it all;
// 3. any other reduction: the entries are sorted by destination, stably
//    (RadixSort.h), and one group of threads owns each destination row
//    (Combine.h). A small scatter (at most 8 tiles of kSortTile entries and
//    65536 rows: the MoE combine's 32,768 entries) takes two kernels: one
//    computes and checks the keys and sorts each tile in shared memory,
//    writing each tile's sorted payloads and the start and length of each
//    row's entries in it; the owners then read each row's entries tile by
//    tile. A larger one takes a memset, the key kernel (which also counts
//    the digits of every pass), one kernel per 8-bit digit and the owners.
//
// No float atomics and no tree reductions: the order of the updates of an
// element is fixed, so results are bit-identical run to run and equal the
// CPU's.
//
// The copy of `data` an out-of-place scatter makes can be folded into the
// owners (`source`): they read each row from the source and write it to
// data, with or without updates.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_SCATTERENGINE_H
#define ND_LIB_CONVERSION_NDTOGPU_SCATTERENGINE_H

#include "ErrorRecord.h"
#include "nd/Conversion/NdToGPU/GPUSupport.h"

#include "nd/Dialect/Nd/IR/NdOps.h"

#include <functional>

namespace mlir::nd::gpu_lowering {

struct RowScatter {
  Operation *op = nullptr;
  ReductionKind reduction = ReductionKind::None;
  /// `use_init_val` (scatter_elements): whether data's value takes part.
  bool useInit = true;
  FlatBuffer data, updates;
  /// Under a reduction, where the copy of `data` is folded in: the flat
  /// contents data starts from (null: data is updated in place).
  Value source;
  Value entries, rowLen, rows;
  /// In a kernel: the destination row of entry `e` and whether the entry is
  /// dropped.
  std::function<std::pair<Value, Value>(OpBuilder &, Location, Value)> rowOf;
  /// The function's error record (null without checks) and the op's slot
  /// with its finalization (-1: nothing to finalize).
  ErrorRecord *record = nullptr;
  int64_t slot = -1;
  std::function<std::tuple<Value, Value, Value>(OpBuilder &, Location, Value)>
      describe;
};

/// Builds the host code and kernels of the scatter (see the file header).
void emitRowScatter(OpBuilder &b, Location loc, const RowScatter &s);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_SCATTERENGINE_H
