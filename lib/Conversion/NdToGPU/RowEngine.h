//===- RowEngine.h - rows moved by groups of GPU threads --------*- C++ -*-===//
//
// Internal to the NdToGPU library: the engine that gathers, copies and
// scatters of contiguous rows share. A row of `rowLen` elements is moved by a
// group of threads in *units* (a 16-byte vector, or one element), so that the
// group's accesses are coalesced and each thread has several 16-byte accesses
// in flight:
//
// - each thread takes `unitsPerThread` (U, a compile-time number: 4, or the
//   row's units where fewer) units of a *chunk* of `tpr * U` units at once:
//   slot k is unit `lane + k * tpr` of the chunk, so that the group's k-th
//   accesses are consecutive; a kernel loads every slot before it stores or
//   combines any, so U accesses are in flight per thread;
// - a group is `tpr` threads, the smallest power of two (up to the block
//   size) whose chunk covers the row, so that one group walks a whole row
//   (rows longer than 256 * U units take several chunks); a block holds
//   256 / tpr groups, so that short rows leave few threads idle;
// - groups take rows in a grid-stride loop over x (or one row each, for
//   kernels with phases between barriers); chunks of a row are cut among the
//   blocks of y;
// - 16-byte vectors are used where the element type allows, the row length
//   is a whole number of vectors and every buffer starts on 16 bytes (tested
//   at run time on the host: device allocations are 256-byte aligned, views
//   at an offset may not be); elements one by one otherwise;
// - offsets inside a kernel are 32-bit where every buffer the kernel indexes
//   has fewer than 2^31 elements (tested on the host; 64-bit otherwise), so
//   that the address arithmetic is 32-bit (`mul.wide.u32`) where it can be.
//
// Static sizes fold into the kernels (the pipeline sinks constants into
// them): the layout of a static shape is constants, and a division by a
// static size is a multiplication.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_ROWENGINE_H
#define ND_LIB_CONVERSION_NDTOGPU_ROWENGINE_H

#include "nd/Conversion/NdToGPU/GPUSupport.h"

namespace mlir::nd::gpu_lowering {

/// The variant of a kernel: elements per unit and the type of its offsets
/// (i32 or index), both compile-time choices made at run time by the host.
struct KernelVariant {
  int64_t vectorLength = 1;
  Type offsets;
};

/// How rows are cut among threads (host values, used inside the kernel).
struct RowLayout {
  KernelVariant variant;
  /// Units per thread per chunk (U).
  int64_t unitsPerThread = 1;
  Value rows, units;
  Value threadsPerRow, logThreadsPerRow, rowsPerBlock;
  Value gridX, gridY;
};

/// The units per thread for rows of `rowLen` elements in units of
/// `vectorLength`: 4, or fewer where a static row has fewer units.
int64_t unitsPerThreadFor(Value rowLen, int64_t vectorLength);

/// The layout of `rows` rows of `rowLen` elements (a multiple of the
/// variant's vector length).
RowLayout rowLayout(OpBuilder &b, Location loc, Value rows, Value rowLen,
                    KernelVariant variant, int64_t unitsPerThread);

/// Whether rows of `rowLen` elements of `elementType` at `buffers` (1-D) can
/// move as 16-byte vectors (an i1 on the host).
Value canMoveVectors(OpBuilder &b, Location loc, Type elementType, Value rowLen,
                     ArrayRef<Value> buffers);

/// Whether every count of `counts` (host index values) is below 2^31: the
/// kernels indexing them can use 32-bit offsets (an i1 on the host).
Value fitsIn32Bits(OpBuilder &b, Location loc, ArrayRef<Value> counts);

/// Builds `body(variant)` for each variant the run-time tests leave: 16-byte
/// vectors where `canVector` holds (and the element type has them), 32-bit
/// offsets where `small` holds.
void withVariants(OpBuilder &b, Location loc, Type elementType,
                  Value canVector, Value small,
                  function_ref<void(OpBuilder &, Location, KernelVariant)> body);

/// Builds `body(variant)` for elements one by one, with 32-bit offsets where
/// `small` holds and 64-bit ones otherwise.
void withOffsetVariants(
    OpBuilder &b, Location loc, Value small,
    function_ref<void(OpBuilder &, Location, KernelVariant)> body);

/// The units of one chunk of a row that a thread takes.
struct RowChunk {
  /// Element offsets of the thread's units within the row (offset type).
  SmallVector<Value> offsets;
  /// Whether each unit is inside the row (i1); null where it always is.
  SmallVector<Value> inside;
};

/// In a kernel of `layout`: for each row `r` of this thread's group (an
/// offset-typed value), `perRow(r)` (values the chunks need, computed once
/// per row), then for each chunk of the row this thread takes,
/// `perChunk(r, values, chunk)`.
void forEachRowChunk(
    OpBuilder &b, Location loc, const KernelIds &ids, const RowLayout &layout,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> perRow,
    function_ref<void(OpBuilder &, Location, Value, ValueRange,
                      const RowChunk &)>
        perChunk);

/// In a kernel of `layout` launched with one row per group (see
/// `rowGrid`): this thread's row (offset type) and whether it exists.
std::pair<Value, Value> groupRow(OpBuilder &b, Location loc,
                                 const KernelIds &ids, const RowLayout &layout);

/// This thread's lane in its group (offset type).
Value groupLane(OpBuilder &b, Location loc, const KernelIds &ids,
                const RowLayout &layout);

/// In a kernel of `layout`: `perChunk(chunk)` for each chunk of one row that
/// this thread takes.
void forEachChunk(OpBuilder &b, Location loc, const KernelIds &ids,
                  const RowLayout &layout,
                  function_ref<void(OpBuilder &, Location, const RowChunk &)>
                      perChunk);

/// Launches a kernel of `layout`'s grid.
void launchRows(OpBuilder &b, Location loc, const RowLayout &layout,
                KernelBody body, ArrayRef<MemRefType> sharedTypes = {});

/// The grid x of a kernel with one row per group (at most 2^31 - 1 blocks).
Value rowGrid(OpBuilder &b, Location loc, const RowLayout &layout);

/// Loads one unit at element `at` (any integer type) of a 1-D buffer.
Value loadUnit(OpBuilder &b, Location loc, Value buffer, Value at,
               int64_t vectorLength);
/// Stores one unit at element `at`.
void storeUnit(OpBuilder &b, Location loc, Value value, Value buffer, Value at,
               int64_t vectorLength);
/// A unit of zeros.
Value zeroUnit(OpBuilder &b, Location loc, Type elementType,
               int64_t vectorLength);

/// Loads the chunk's units of `buffer` at `base + offsets[k]`, every one
/// before any is used; where `skip` (an i1, may be null) holds or a unit is
/// outside the row, zeros.
SmallVector<Value> loadChunk(OpBuilder &b, Location loc, Value buffer,
                             Value base, const RowChunk &chunk, Value skip,
                             int64_t vectorLength);

/// Stores the chunk's units at `base + offsets[k]`, where `write` (an i1, may
/// be null: always) holds and the unit is inside the row.
void storeChunk(OpBuilder &b, Location loc, ArrayRef<Value> values,
                Value buffer, Value base, const RowChunk &chunk, Value write,
                int64_t vectorLength);

/// A chunk's copy from `src` at `srcBase` to `dst` at `dstBase` (zeros where
/// `zero` holds; nothing where `skip` holds; both may be null).
void copyChunk(OpBuilder &b, Location loc, const RowChunk &chunk, Value src,
               Value srcBase, Value dst, Value dstBase, Value zero, Value skip,
               int64_t vectorLength);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_ROWENGINE_H
