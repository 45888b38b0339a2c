//===- GPUSupport.h - building blocks of nd's GPU kernels -------*- C++ -*-===//
//
// What every GPU lowering of an nd op (lib/Conversion/NdToGPU) builds its
// kernels and their host side from, and what the CUDA target's host passes
// (lib/Target/CUDA) build with. Part of the NdToGPU library.
//
// - Host side: sizes as `index` values, grid sizes, 1-D contiguous views of
//   buffers (a buffer of another layout is copied into a contiguous one), run
//   time alignment tests, scratch buffers (`gpu.alloc` / `gpu.dealloc`, which
//   the async lowering orders on the call's stream).
// - Kernels: `gpu.launch` with a dynamic grid and a static block, the ids,
//   grid-stride loops, shared memory (workgroup attributions), barriers and
//   block-wide scans.
//
// Kernels index 1-D buffers with `index` values (64 bits on the device). A
// kernel never assumes its grid covers its work: loops stride by the grid, so
// a grid is capped (kMaxBlocks) and any size is covered.
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_NDTOGPU_GPUSUPPORT_H
#define ND_CONVERSION_NDTOGPU_GPUSUPPORT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

namespace mlir::nd::gpu_lowering {

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

// Index constants, dims, products of dims, unsigned min/max/ceildiv, or and
// not on i1: nd/Dialect/Nd/Utils/IndexArithmetic.h, as on the CPU.

Value constInt(OpBuilder &b, Location loc, Type type, int64_t value);

Value addIndex(OpBuilder &b, Location loc, Value x, Value y);
Value subIndex(OpBuilder &b, Location loc, Value x, Value y);
Value mulIndex(OpBuilder &b, Location loc, Value x, Value y);
/// Unsigned division and remainder of `index` values.
Value divIndex(OpBuilder &b, Location loc, Value x, Value y);
Value remIndex(OpBuilder &b, Location loc, Value x, Value y);
Value cmpIndex(OpBuilder &b, Location loc, arith::CmpIPredicate predicate,
               Value x, Value y);
Value andBool(OpBuilder &b, Location loc, Value x, Value y);
Value select(OpBuilder &b, Location loc, Value cond, Value x, Value y);
/// In a kernel: `values[c]` for an index value `c` in `[0, n)`, as a chain of
/// selects.
Value selectByIndex(OpBuilder &b, Location loc, Value c,
                    ArrayRef<Value> values);

/// The coordinates of the row-major position `flat` in `dims`.
SmallVector<Value> delinearize(OpBuilder &b, Location loc, Value flat,
                               ArrayRef<Value> dims);

/// `index` <-> integer casts (signed).
Value toIndex(OpBuilder &b, Location loc, Value value);
Value fromIndex(OpBuilder &b, Location loc, Type type, Value value);

/// `i32` and `i64` constants.
Value i32Const(OpBuilder &b, Location loc, int64_t value);
Value i64Const(OpBuilder &b, Location loc, int64_t value);

/// `buffer[at]` of a 1-D buffer, `at` an integer or an index.
Value loadAt(OpBuilder &b, Location loc, Value buffer, Value at);
/// `buffer[at] = value` of a 1-D buffer, `at` an integer or an index.
void storeAt(OpBuilder &b, Location loc, Value value, Value buffer, Value at);

/// `scf.if cond { then() } else { otherwise() }` (`scf.if cond { then() }`
/// is nd's `buildIf`, IndexArithmetic.h).
void buildIfElse(OpBuilder &b, Location loc, Value cond,
                 function_ref<void(OpBuilder &, Location)> then,
                 function_ref<void(OpBuilder &, Location)> otherwise);
/// `scf.for i = lo to hi step step { body(i) }`.
void buildFor(OpBuilder &b, Location loc, Value lo, Value hi, Value step,
              function_ref<void(OpBuilder &, Location, Value)> body);

//===----------------------------------------------------------------------===//
// Buffers on the host side
//===----------------------------------------------------------------------===//

/// Whether `type`'s layout is contiguous and row-major (identity, or strides
/// that are the row-major strides of its static shape).
bool isContiguous(MemRefType type);

/// A 1-D view of a contiguous buffer (rank 0 gives one element), without a
/// copy. Call only where isContiguous holds.
Value flatView(OpBuilder &b, Location loc, Value memref);

/// A fresh device buffer of `type` (identity layout) with dims from
/// `like` where dynamic.
Value allocLike(OpBuilder &b, Location loc, Value like);

/// A fresh 1-D device buffer of `size` elements of `elementType`.
Value allocFlat(OpBuilder &b, Location loc, Type elementType, Value size);

/// A fresh 1-D device buffer of a static size.
Value allocFlat(OpBuilder &b, Location loc, Type elementType, int64_t size);

/// Frees a device buffer (`gpu.dealloc`).
void dealloc(OpBuilder &b, Location loc, Value buffer);

/// Fills a 1-D buffer of 32-bit integers with `value` (`gpu.memset`).
void fill32(OpBuilder &b, Location loc, Value buffer, int32_t value);

/// Copies `src` into `dst` element by element (any layouts, same shape) with
/// a kernel.
void copyStrided(OpBuilder &b, Location loc, Value src, Value dst);

/// An operand of an nd op as a 1-D contiguous buffer: a view where the layout
/// is contiguous, otherwise a copy (`copied` is set; a destination is then
/// copied back by `writeBack`).
struct FlatBuffer {
  Value original;
  Value flat;
  /// The contiguous buffer the view is of, when the original is not.
  Value copy;
};
FlatBuffer flatOperand(OpBuilder &b, Location loc, Value memref,
                       bool readContents = true);
/// Copies a destination's contiguous copy back and frees it.
void writeBack(OpBuilder &b, Location loc, const FlatBuffer &buffer);
/// Frees a read operand's contiguous copy.
void release(OpBuilder &b, Location loc, const FlatBuffer &buffer);
/// After an op that writes one flat operand and reads two (a gather's
/// `into` from `data` and `indices`, a scatter's `data` from `updates` and
/// `indices`): the written one written back, the read ones released.
void finishFlatOperands(OpBuilder &b, Location loc, const FlatBuffer &written,
                        const FlatBuffer &read, const FlatBuffer &readToo);

/// The number of elements of a 1-D buffer (a host index value).
Value flatSize(OpBuilder &b, Location loc, Value flat);

/// The address of element `offset` of a 1-D buffer, as an index value.
Value addressOf(OpBuilder &b, Location loc, Value flat, Value offset);

/// Whether `address` is a multiple of `alignment` (an i1).
Value isAligned(OpBuilder &b, Location loc, Value address, int64_t alignment);

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Threads per block of nd's kernels.
inline constexpr int64_t kBlockSize = 256;
/// The largest grid nd launches (grid-stride loops cover the rest).
inline constexpr int64_t kMaxBlocks = int64_t(1) << 20;
/// The largest grid.y of a launch.
inline constexpr int64_t kMaxBlocksY = 65535;

/// The ids of a kernel's thread (all `index` values).
struct KernelIds {
  Value blockX, blockY;
  Value threadX;
  Value gridX, gridY;
  Value blockSize;
  /// The shared-memory buffers asked for (workgroup attributions).
  SmallVector<Value> shared;
};

using KernelBody = function_ref<void(OpBuilder &, Location, const KernelIds &)>;

/// Launches a kernel of `gridX` x `gridY` blocks of `blockSize` threads
/// (`gridY` may be null: 1), with shared memory buffers of `sharedTypes`
/// (1-D memrefs of static sizes, made workgroup memrefs); `body` builds its
/// body (the terminator is added).
void launch(OpBuilder &b, Location loc, Value gridX, Value gridY,
            int64_t blockSize, KernelBody body,
            ArrayRef<MemRefType> sharedTypes = {});

/// A grid of at least one and at most kMaxBlocks blocks for `work` items of
/// `perBlock` each.
Value gridFor(OpBuilder &b, Location loc, Value work, int64_t perBlock);
/// The same, at most `limit` blocks.
Value gridFor(OpBuilder &b, Location loc, Value work, Value perBlock,
              int64_t limit);

/// `for (i = block * blockSize + thread; i < n; i += grid * blockSize)`
/// over the x dimension.
void gridStrideLoop(OpBuilder &b, Location loc, const KernelIds &ids, Value n,
                    function_ref<void(OpBuilder &, Location, Value)> body);

/// Whether this is the first thread of the grid (block (0, 0), thread 0): an
/// i1.
Value isFirstThread(OpBuilder &b, Location loc, const KernelIds &ids);

/// `gpu.barrier`.
void barrier(OpBuilder &b, Location loc);

/// Threads that rake a block-wide scan (see blockExclusiveScan).
inline constexpr int64_t kScanLanes = 32;

/// The elements of the shared scratch of a block-wide scan over `blockSize`
/// threads.
inline constexpr int64_t scanScratchSize(int64_t blockSize) {
  return blockSize + kScanLanes + 1;
}

/// An exclusive prefix sum over the block of one integer per thread: returns
/// the sum of the values of the threads before this one, and sets `total` to
/// the block's sum. `scratch` is a shared buffer of `scanScratchSize` values
/// of the value's type; `blockSize` is a multiple of kScanLanes. Every
/// thread of the block must call it, at the kernel's top level (it has
/// barriers). A raking scan: 32 threads each scan a stretch of the values
/// in place, one thread scans the 32 stretches' sums, and every thread adds
/// its stretch's prefix to its own; four barriers whatever the block size.
Value blockExclusiveScan(OpBuilder &b, Location loc, const KernelIds &ids,
                         Value scratch, int64_t blockSize, Value value,
                         Value &total);

/// Marks the condition of a kernel's guard (guardKernels): an i1 that holds
/// alike for every thread of the grid, computed at the top of the kernel.
inline constexpr llvm::StringLiteral kUniformGuardAttr = "nd.uniform_guard";

/// Builds `body` so that each kernel it launches, at any depth, does its
/// work only where the device flag `flag[0]` (a 1-D buffer of i32) is zero
/// (`whenZero`) or is not: paths whose choice depends on the data are all
/// launched, with grids and scratch from shapes alone, and the device
/// decides, without a round trip to the host. Each kernel reads the flag
/// first; its work between barriers is skipped where the flag says another
/// path, so that every thread still meets every barrier (a block-uniform
/// branch that the host schedule of `--nd-gpu-run-on-host` runs too).
/// Host operations of `body` (allocations, memsets) run either way. On the
/// device, `--nd-gpu-skip-unchosen` then makes each such kernel return
/// before its first barrier where the flag says another path: the guard
/// (the comparison of the flag) carries kUniformGuardAttr.
void guardKernels(OpBuilder &b, Location loc, Value flag, bool whenZero,
                  function_ref<void(OpBuilder &, Location)> body);

/// The element type of the shared memory attribution `type` of `size`.
MemRefType sharedType(MLIRContext *ctx, Type elementType, int64_t size);

} // namespace mlir::nd::gpu_lowering

#endif // ND_CONVERSION_NDTOGPU_GPUSUPPORT_H
