//===- RowEngine.h - rows moved by groups of GPU threads --------*- C++ -*-===//
//
// Internal to the NdToGPU library: the engine that gathers and scatters of
// contiguous rows share. A row of `rowLen` elements is moved by a group of
// threads, each taking one *unit* (a 16-byte vector, or one element) of the
// row at a time, so that the group's accesses are coalesced:
//
// - a group is `tpr` threads, a power of two up to the block size that
//   divides the row's units (every thread takes as many), but at least the
//   largest power of two up to 32 the units reach; a block holds 256 / tpr
//   groups, so that short rows do not leave threads idle;
// - groups take rows in a grid-stride loop over x; a long row is further cut
//   among the blocks of y (each block of y takes every gridY-th chunk of
//   `tpr` units), so that few long rows still fill the device;
// - 16-byte vectors are used where the element type allows, the row length
//   is a whole number of vectors and both buffers start on 16 bytes (tested
//   at run time on the host: device allocations are 256-byte aligned, views
//   at an offset may not be); elements one by one otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_ROWENGINE_H
#define ND_LIB_CONVERSION_NDTOGPU_ROWENGINE_H

#include "GPUSupport.h"

namespace mlir::nd::gpu_lowering {

/// How rows are cut among threads (host values, passed into the kernel).
struct RowLayout {
  /// Elements per unit (a compile-time choice of the kernel variant).
  int64_t vectorLength = 1;
  Value rows, units;
  Value threadsPerRow, logThreadsPerRow, rowsPerBlock;
  Value gridX, gridY;
};

/// The layout of `rows` rows of `rowLen` elements moved `vectorLength`
/// elements at a time (rowLen must be a multiple of it).
RowLayout rowLayout(OpBuilder &b, Location loc, Value rows, Value rowLen,
                    int64_t vectorLength);

/// Whether rows of `rowLen` elements of `elementType` at `buffers` (1-D) can
/// move as 16-byte vectors (an i1 on the host).
Value canMoveVectors(OpBuilder &b, Location loc, Type elementType, Value rowLen,
                     ArrayRef<Value> buffers);

/// Builds `body(vectorLength)` for 16-byte vectors where `canVector` holds
/// at run time and for single elements otherwise (only the latter where the
/// element type has no vectors).
void withVectorChoice(OpBuilder &b, Location loc, Type elementType,
                      Value canVector,
                      function_ref<void(OpBuilder &, Location, int64_t)> body);

/// In a kernel of `layout`: for each row `r` of this thread's group,
/// `perRow(r)` (values the units need, computed once per row), then for
/// each of the row's units `u` of this thread, `perUnit(r, values, u)`.
void forEachRowUnit(
    OpBuilder &b, Location loc, const KernelIds &ids, const RowLayout &layout,
    function_ref<SmallVector<Value>(OpBuilder &, Location, Value)> perRow,
    function_ref<void(OpBuilder &, Location, Value, ValueRange, Value)>
        perUnit);

/// Launches a kernel of `layout`'s grid.
void launchRows(OpBuilder &b, Location loc, const RowLayout &layout,
                KernelBody body);

/// Loads one unit (`vectorLength` elements) at element `at` of a 1-D buffer.
Value loadUnit(OpBuilder &b, Location loc, Value buffer, Value at,
               int64_t vectorLength);
/// Stores one unit at element `at`.
void storeUnit(OpBuilder &b, Location loc, Value value, Value buffer, Value at,
               int64_t vectorLength);
/// A unit of zeros.
Value zeroUnit(OpBuilder &b, Location loc, Type elementType,
               int64_t vectorLength);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_ROWENGINE_H
