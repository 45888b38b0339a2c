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
// 1. a *key* pass reads every index once, checks it (oob<error>: noted in
//    the op's slot of the error record) and writes each entry's destination
//    row, or `rows` for a dropped entry; nothing is written to data before
//    the check has been recorded, so a failed check leaves data untouched;
// 2. reduction `none`: each destination row keeps its last entry (an integer
//    atomic max of the entry number per row: the winner does not depend on
//    the order of the atomics), and the winners write their rows;
// 3. any other reduction: the entries are sorted by destination, stably
//    (RadixSort.h), and the first entry of each run of equal destinations
//    owns the row: its group of threads walks the run in order, combining
//    each update into the row (coalesced along the row, 16-byte vectors where
//    possible), with `mean` and `use_init_val(false)` counted per element as
//    on the CPU.
//
// No float atomics and no tree reductions: the order of the updates of an
// element is fixed, so results are bit-identical run to run and equal the
// CPU's.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_SCATTERENGINE_H
#define ND_LIB_CONVERSION_NDTOGPU_SCATTERENGINE_H

#include "ErrorRecord.h"
#include "GPUSupport.h"

#include "nd/Dialect/Nd/IR/NdOps.h"

#include <functional>

namespace mlir::nd::gpu_lowering {

struct RowScatter {
  Operation *op = nullptr;
  ReductionKind reduction = ReductionKind::None;
  /// `use_init_val` (scatter_elements): whether data's value takes part.
  bool useInit = true;
  FlatBuffer data, updates;
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
