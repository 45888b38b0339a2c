//===- Combine.h - the owners of destination rows on the GPU ----*- C++ -*-===//
//
// Internal to the NdToGPU library: the last kernel of a scatter with a
// reduction. Once the entries are sorted by destination row (RadixSort.h),
// one group of threads owns each destination row of `data` and combines the
// updates of the row's entries into it, in the entries' row-major order:
//
// - one row per group, the grid covering every row (no grid-stride loop), so
//   that the kernel's phases are separated by barriers at its top level:
//   (1) the row's run is looked up (a binary search of the sorted keys, or
//   the row's word in each tile of the small path), (2) the group stages the
//   payloads of up to 16 entries per thread into shared memory with
//   coalesced loads, (3) the group walks the run once for the whole row:
//   each thread holds up to four units of the row (RowEngine.h) and loads
//   the units of several entries before it combines them (8 loads in
//   flight per thread); a batch's payloads and units are loaded in straight
//   lines, without a branch per entry (entries past the run read the run's
//   last entry and are left out when combined), so that its loads are in
//   flight together;
// - after a full sort, runs of more than 64 entries (a hub row: the most
//   frequent id of a Zipf distribution, a graph's hub node) are another
//   kernel's, which takes one element a thread and loads 24 registers' worth
//   of entries before it combines them: an element's combinations must
//   follow one another, so a hub row waits one memory latency per batch,
//   and the batch is as large as the registers allow;
// - where the out-of-place copy of `data` is folded in (`source`), the
//   group reads the row from the source and writes it to `data` whether or
//   not it has entries: every byte of data is read once and written once;
//   in place, a row without entries is not touched;
// - `mean` and `use_init_val(false)` are counted per row as on the CPU:
//   the first update is taken as is without `use_init_val`, a float mean is
//   summed in the element type (data's value first) and an integer one in
//   an integer 64 bits wider, then divided once.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_COMBINE_H
#define ND_LIB_CONVERSION_NDTOGPU_COMBINE_H

#include "ScatterEngine.h"

namespace mlir::nd::gpu_lowering {

/// Where the owner of a row finds its entries.
struct SortedRuns {
  /// Tiled (the small path): the entries are sorted within tiles of
  /// kSortTile; `table` holds, per tile and row, `start << 16 | length` of
  /// the row's entries in the tile (0: none), `payloads` the tiles' sorted
  /// payloads. Otherwise `keys` and `payloads` hold every entry in order.
  bool tiled = false;
  Value keys, payloads, table;
  /// Host index values: the tiles (tiled).
  Value tiles;
};

/// The most tiles of the small path.
inline constexpr int64_t kMaxTiles = 8;

/// Builds the owners' kernel of the scatter `s` over `runs`.
void emitCombine(OpBuilder &b, Location loc, const RowScatter &s,
                 const SortedRuns &runs);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_COMBINE_H
