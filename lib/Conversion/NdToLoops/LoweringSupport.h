//===- LoweringSupport.h - building blocks of the nd lowering ---*- C++ -*-===//
//
// Internal to the NdToLoops library: the IR building blocks the four
// lowerings share. Each op becomes a call of a private function (`outline`),
// which keeps the functions later passes work on small; ops with the same
// lowering share one function, so that a module's IR grows with the number
// of distinct ops, not of ops. A scatter also passes the base pointer of its
// caller's data, so that the callee can tell an update of data in place from
// one of a copy. The
// lowerings keep value semantics at the tensor level (bufferization decides
// where results live) and move the data in memref loops:
//
// - read-only operands are read through `bufferization.to_buffer read_only`
//   as 1-D row-major buffers;
// - a gather allocates its result (`memref.alloc`) and returns it through
//   `bufferization.to_tensor restrict writable`;
// - a scatter updates its destination inside an `scf.forall` whose
//   `shared_outs` is `data`: each iteration (a "partition") owns a disjoint
//   slice of the destination, writes it through `to_buffer` of its
//   `extract_slice` and hands it back with `parallel_insert_slice`, so
//   one-shot bufferization updates `data` in place when it may and copies it
//   once when it may not;
// - parallel work over read-only data (checks, owner counting) is an
//   `scf.parallel` over partitions writing scratch memrefs.
//
// The number of partitions is decided at run time from the amount of work
// and the thread count (`__nd_max_threads`, provided by the LLVM stage of the
// pipeline); results never depend on it.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_LOWERINGSUPPORT_H
#define ND_LIB_CONVERSION_NDTOLOOPS_LOWERINGSUPPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Conversion/Streaming.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "llvm/ADT/DenseSet.h"

#include <string>

namespace mlir::nd::lowering {

//===----------------------------------------------------------------------===//
// Scalars and index values
//===----------------------------------------------------------------------===//

Value constIndex(OpBuilder &b, Location loc, int64_t value);
Value constBool(OpBuilder &b, Location loc, bool value);

/// The size of dim `d` of a tensor or memref as an index value.
Value dimValue(OpBuilder &b, Location loc, Value shaped, int64_t d);

/// The product of `values` (1 when empty).
Value product(OpBuilder &b, Location loc, ArrayRef<Value> values);

/// `(a + b - 1) / b` for non-negative `a` and positive `b`.
Value ceilDiv(OpBuilder &b, Location loc, Value a, Value d);

Value minIndex(OpBuilder &b, Location loc, Value a, Value c);
Value maxIndex(OpBuilder &b, Location loc, Value a, Value c);

/// Reads `flat[position]` of a 1-D index buffer and converts it to `index`
/// (i32 sign-extends).
Value loadIndex(OpBuilder &b, Location loc, Value flat, Value position);

/// `i < 0 ? i + size : i`; values outside `[-size, size)` stay outside
/// `[0, size)`.
Value normalizeIndex(OpBuilder &b, Location loc, Value index, Value size);

/// `normalized >= size` as unsigned, i.e. the raw index is out of range.
Value isOutOfRange(OpBuilder &b, Location loc, Value normalized, Value size);

/// `bad ? 0 : normalized`: an address that is safe to touch.
Value clampIfBad(OpBuilder &b, Location loc, Value bad, Value normalized);

/// An index value resolved under an oob mode: the position it addresses
/// and whether it addresses nothing (`bad`: out of range under error and
/// skip, an empty dim under clamp, where values are clamped into
/// `[0, size - 1]` after negative values in range are normalized). `bad`
/// leaves `position` unchecked.
struct ResolvedIndex {
  Value position;
  Value bad;
};
ResolvedIndex resolveIndex(OpBuilder &b, Location loc, OobMode oob, Value raw,
                           Value size);

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Whether `combine` supports `reduction` on `elementType`.
bool isSupportedReduction(ReductionKind reduction, Type elementType);

/// The combination of the value in place with an update, for scalars or
/// vectors: `none` replaces; `sub` is `current - update`; i1 treats add/max
/// as `or`, mul/min as `and` and sub as `xor`; integers wrap; unsigned
/// integers compare unsigned; floats propagate NaN under max/min. Call only
/// where `isSupportedReduction` holds.
Value combine(OpBuilder &b, Location loc, ReductionKind reduction,
              Value current, Value update);

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// The shape of `shape` collapsed by `groups`: a group is dynamic when one
/// of its dims is (even with a static 0 beside it, as the collapse_shape
/// verifiers demand).
SmallVector<int64_t> collapsedShape(ArrayRef<int64_t> shape,
                                    ArrayRef<ReassociationIndices> groups);

/// A read-only 1-D row-major view of a tensor operand (rank 0 gives one
/// element).
Value flatReadBuffer(OpBuilder &b, Location loc, Value tensor);

/// Allocates a tensor of `type` (dynamic dims from `dynamicSizes`) as a
/// buffer; returns the 1-D row-major view to write and the tensor to return.
struct Allocation {
  Value flat;
  Value tensor;
};
Allocation allocateResult(OpBuilder &b, Location loc, RankedTensorType type,
                          ValueRange dynamicSizes);

/// Whether rows of `elementType` are moved with vector loads and stores.
bool isVectorizable(Type elementType);

/// Bytes per vector (and per cache line).
inline constexpr int64_t kVectorBytes = 64;

/// Number of elements per vector for `elementType`.
int64_t vectorLength(Type elementType);

/// `dst[dstPos..., j] = combine(dst[dstPos..., j], src[srcOffset + j])` for
/// `j` in `[0, len)`, where `dst` is a memref whose last dim is contiguous
/// (`dstPos` gives the leading indices and the start column) and `src` a
/// 1-D buffer; vector loads and stores where the element type allows.
/// `nontemporal` stores bypass the caches (results written once); they need
/// `dst[dstPos...]` on a 64-byte boundary and `len` a whole number of
/// vectors (see streamsRows).
void emitRowUpdate(OpBuilder &b, Location loc, ReductionKind reduction,
                   Value dst, ValueRange dstPos, Value src, Value srcOffset,
                   Value len, bool nontemporal = false);

/// Whether a fresh 64-byte aligned result of `numElements` elements of
/// `elementType`, written in rows of `rowLen` elements, is streamed: at
/// least kStreamingBytes (nd/Conversion/Streaming.h), and every row a whole
/// number of 64-byte vectors (so that each row starts on a 64-byte
/// boundary). An i1, constant where
/// the sizes are.
Value streamsRows(OpBuilder &b, Location loc, Type elementType,
                  Value numElements, Value rowLen);

/// `dst[dstOffset + j] = src[srcOffset + j]` for `j` in `[0, len)` (1-D
/// buffers), with non-temporal stores where `streaming` (see streamsRows)
/// holds at run time.
void emitRowCopy(OpBuilder &b, Location loc, Value dst, Value dstOffset,
                 Value src, Value srcOffset, Value len, Value streaming);

/// Asks for the first lines (at most kPrefetchLines) of the `len` elements at
/// `buffer[offset]` (1-D) to be loaded into the caches. A gather that copies
/// rows from addresses it learns one index at a time prefetches the row a
/// few indices ahead: the out-of-order window covers one long row at most,
/// so the first lines of the next row would miss one after the other.
/// Prefetches never fault: `offset` need not be in range.
void prefetchRow(OpBuilder &b, Location loc, Value buffer, Value offset,
                 Value len);
inline constexpr int64_t kPrefetchLines = 32;
/// How many index values ahead a row gather prefetches.
inline constexpr int64_t kPrefetchDistance = 2;

//===----------------------------------------------------------------------===//
// Pieces shared by the patterns
//===----------------------------------------------------------------------===//

/// The dims `[from, to)` of `shaped` as index values.
SmallVector<Value> dimValues(OpBuilder &b, Location loc, Value shaped,
                             int64_t from, int64_t to);

/// Row-major strides of `dims`: `strides[j] = prod(dims[j+1:])`.
SmallVector<Value> rowMajorStrides(OpBuilder &b, Location loc,
                                   ArrayRef<Value> dims);

/// `x | y` and `!x` on i1.
Value orBool(OpBuilder &b, Location loc, Value x, Value y);
Value notBool(OpBuilder &b, Location loc, Value x);

/// A scratch buffer of `size` elements of `type`.
Value allocScratch(OpBuilder &b, Location loc, Type type, Value size);

/// The serial OR of `flags[0..count)`.
Value anyFlag(OpBuilder &b, Location loc, Value flags, Value count);

/// `scf.if cond -> type { then() } else { otherwise() }`, or just `then()`
/// when `cond` is the constant true.
Value buildIf(OpBuilder &b, Location loc, Value cond, Type type,
              function_ref<Value(OpBuilder &, Location)> then,
              function_ref<Value(OpBuilder &, Location)> otherwise);

/// Emits `if (!ok) report()`.
void reportUnless(OpBuilder &b, Location loc, Value ok,
                  function_ref<void(OpBuilder &, Location)> report);

/// `tensor.collapse_shape` by `groups`, or `tensor` itself when every group
/// is one dim.
Value collapse(OpBuilder &b, Location loc, Value tensor,
               ArrayRef<ReassociationIndices> groups);

/// The inverse of `collapse`, back to the type and dims of `like`.
Value expandLike(OpBuilder &b, Location loc, Value tensor, Value like,
                 ArrayRef<ReassociationIndices> groups);

/// `2 * size`: a raw index `i` is in `[-size, size)` iff `i + size` is
/// below it as an unsigned number.
Value rangeBound(OpBuilder &b, Location loc, Value size);

/// Whether the unsigned maximum `shiftedMax` of `index + size` over some
/// indices shows one out of range.
Value anyOutOfRange(OpBuilder &b, Location loc, Value shiftedMax, Value bound);

class LoweringState;

/// After a failed parallel check: finds the first position of `indices` in
/// row-major order whose value is out of range for dim `axis` (of `size`)
/// and reports it.
void reportFirstBadElement(LoweringState &state, OpBuilder &b, Location loc,
                           Operation *op, Value indices, Value count,
                           Value size, int64_t axis);

/// Whether a value of `indices[lo, hi)` is out of range for a dim of
/// `size`: one unsigned max of `index + size` (see rangeBound).
Value maxShifted(OpBuilder &b, Location loc, Value indices, Value lo, Value hi,
                 Value size, Value bound);

/// Fills `dst[dstPos..., j]` with `value` for `j` in `[0, len)` (`dst` as in
/// `emitRowUpdate`), with vector stores where the element type allows.
void emitRowFill(OpBuilder &b, Location loc, Value dst, ValueRange dstPos,
                 Value value, Value len);

/// The zero of `elementType` (false, 0, +0.0, or (0, 0) for a complex type).
Value zeroValue(OpBuilder &b, Location loc, Type elementType);

//===----------------------------------------------------------------------===//
// Parallel structure
//===----------------------------------------------------------------------===//

/// `[lo, hi)` of part `p` of `[0, n)` cut into `parts` near-equal ranges.
std::pair<Value, Value> partRange(OpBuilder &b, Location loc, Value n,
                                  Value parts, Value p);

/// `scf.parallel (%p) = 0 to %parts` with `body(p)`.
void buildParallel(OpBuilder &b, Location loc, Value parts,
                   function_ref<void(OpBuilder &, Location, Value)> body);

/// The slice of a destination a partition owns.
struct SliceRegion {
  SmallVector<OpFoldResult> offsets, sizes;
};

/// The aligned base pointer of the buffer of `tensor`, as an index value,
/// read through a layout every buffer casts to (so that bufferization never
/// copies it for the read).
Value basePointer(OpBuilder &b, Location loc, Value tensor);

/// `scf.forall (%p) in (%parts) shared_outs(%o = dest)`: partition `p` owns
/// `region(p)` of the destination, which `body(p, slice, inPlace)` updates
/// through `slice`, a memref of type `sliceType` (its layout must be one that
/// bufferization can always cast the slice's buffer to). `inPlace` (i1) says
/// at run time whether the destination is the buffer `dataPointer` (the base
/// pointer of the caller's `data`, see basePointer) rather than a copy of
/// it. Returns the updated destination.
Value buildPartitionedUpdate(
    OpBuilder &b, Location loc, Value dest, Value dataPointer, Value parts,
    MemRefType sliceType,
    function_ref<SliceRegion(OpBuilder &, Location, Value)> region,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body);

/// Runs a partition's work with run-time checks, returning its failure flag.
/// A destination that is a copy of `data` may hold partial results when a
/// check fails (the op's result is discarded then), so the checks fuse with
/// the work: `applyFused` checks as it goes and returns whether an index was
/// bad. Data updated in place must not change at all when a check fails, so
/// there `checkAll` first checks every index of the op (returning whether one
/// is bad) and the work runs only if none is.
Value checkedApply(OpBuilder &b, Location loc, Value inPlace,
                   function_ref<Value(OpBuilder &, Location)> checkAll,
                   function_ref<Value(OpBuilder &, Location)> applyFused);

/// The memref type of a slice of rank `rank` whose last dim is contiguous
/// (`strided<[?, ..., 1], offset: ?>`), or fully dynamic strides.
MemRefType sliceMemRefType(Type elementType, ArrayRef<int64_t> shape,
                           bool contiguousRows);

//===----------------------------------------------------------------------===//
// Run-time support shared by the patterns
//===----------------------------------------------------------------------===//

/// Name of the function a failed run-time check calls:
/// `__nd_report_error(i64 a, i64 b)` with the message (a printf format with
/// two `%lld`) in the call's `nd.message` attribute. The LLVM stage of the
/// pipeline turns it into a call of the host's `nd_report_error`.
inline constexpr llvm::StringLiteral kReportErrorFn = "__nd_report_error";
inline constexpr llvm::StringLiteral kMessageAttr = "nd.message";
/// The same inside an op's function, which ops at several places share:
/// `__nd_report_error_at(i64 site, i64 a, i64 b)` with "<op>: <text>" in
/// `nd.message`, where `site` is the function's last argument. Each call of
/// the function passes `__nd_site() {nd.site = "<where>"} : () -> i64`; the
/// LLVM stage makes each site a table of the messages "<where>: <op>: <text>"
/// of the function it calls, so that a message names the op's own location.
inline constexpr llvm::StringLiteral kReportErrorAtFn = "__nd_report_error_at";
inline constexpr llvm::StringLiteral kSiteFn = "__nd_site";
inline constexpr llvm::StringLiteral kSiteAttr = "nd.site";
/// The id of the buffer a scatter's call updates (see outline).
inline constexpr llvm::StringLiteral kUpdateAttr = "nd.update";
/// Name of the function that returns the number of threads the parallel
/// loops may use (`() -> index`).
inline constexpr llvm::StringLiteral kMaxThreadsFn = "__nd_max_threads";
/// Name of the function that orders a thread's non-temporal stores before
/// its later stores (`() -> ()`): a partition that streamed calls it before
/// it ends, so that the threads that join it see its writes.
inline constexpr llvm::StringLiteral kStoreFenceFn = "__nd_store_fence";

/// State shared by the lowering patterns of one pass run.
class LoweringState {
public:
  LoweringState(bool checkBounds, int64_t grain)
      : checkBounds(checkBounds), grain(grain) {}

  bool checksEnabled() const { return checkBounds; }

  /// Work (in element moves) below which an op runs on one thread.
  int64_t getGrain() const { return grain; }

  /// The number of partitions for `work` units of work: 1 below the grain,
  /// otherwise at most the thread count and at most `limit` when given.
  Value numPartitions(OpBuilder &b, Location loc, Operation *op, Value work,
                      Value limit = Value());

  /// Emits `if (streamed) __nd_store_fence()` (see kStoreFenceFn) at the
  /// end of a partition that may have streamed its stores; nothing where
  /// `streamed` is the constant false.
  void fenceStreamedStores(OpBuilder &b, Location loc, Operation *op,
                           Value streamed);

  /// Replaces `op` with a call of a private function of the module that
  /// takes `operands` and returns the type of `op`'s result. Ops with the
  /// same name, attributes and operand and result types share one function,
  /// `@__nd_<op name>` (made unique), whose body `lower(b, loc, args)` builds
  /// the first time from the function's arguments (`operands`) and returns
  /// the result: it may depend on `op`'s name, attributes and types and on
  /// the pass options, nothing else. With checks on, the function takes one
  /// more argument, the call's site, that its reports name (see
  /// kReportErrorAtFn). One small function per distinct op keeps the IR
  /// later passes work on small: several upstream passes take time
  /// quadratic in the size of a function.
  ///
  /// A scatter's function takes its data (operand 0) as a memref, which it
  /// updates and returns as a tensor (the body sees
  /// `bufferization.to_tensor restrict writable` of it); the caller passes
  /// `bufferization.to_buffer` of the data, so that one-shot bufferization
  /// decides per op whether the update happens in place or in a copy, and
  /// sees each result as a new tensor.
  void outline(ConversionPatternRewriter &rewriter, Operation *op,
               ValueRange operands,
               function_ref<Value(OpBuilder &, Location, ValueRange)> lower);

  /// Calls `@name` (`type`), a private function of the module shared by all
  /// the ops that need it, built by `body(b, loc, args)` (which creates the
  /// terminator) the first time.
  void callShared(OpBuilder &b, Location loc, Operation *op, StringRef name,
                  FunctionType type, ValueRange operands,
                  function_ref<void(OpBuilder &, Location, ValueRange)> body);

  /// Emits the report of a failed check whose message is
  /// "<where>: <op>: <text>" (`text` a printf format taking two
  /// `long long`): `__nd_report_error_at(site, a, b)` inside an op's
  /// function, `__nd_report_error(a, b)` elsewhere.
  void report(OpBuilder &b, Location loc, Operation *op, StringRef text,
              Value a, Value b2);

  /// A chain of checks that reports the first one that fails: `check`
  /// emits `if (ok && bad) report(...)` and folds `!bad` into `ok`.
  class CheckChain {
  public:
    CheckChain(LoweringState &state, OpBuilder &b, Location loc, Operation *op);
    void check(Value bad, StringRef text, Value a, Value b2);
    Value ok() const { return allOk; }
    OpBuilder &builder() { return b; }
    Location location() const { return loc; }
    Operation *operation() const { return op; }

  private:
    LoweringState &state;
    OpBuilder &b;
    Location loc;
    Operation *op;
    Value allOk;
  };

  /// Checks `lhs dim == rhs dim` (or `<=` with `atMost`) where one of them
  /// is dynamic; the verifier has checked the static pairs.
  void checkDims(CheckChain &chain, Value lhs, StringRef lhsName,
                 int64_t lhsDim, Value rhs, StringRef rhsName, int64_t rhsDim,
                 bool atMost = false);

  /// Checks that a dynamic index depth `indices.shape[-1]` equals the depth
  /// `depth` the ranks give.
  void checkIndexDepth(CheckChain &chain, Value indices, int64_t depth);

  /// Checks that a dynamic dim of `operand` equals the static size the
  /// result type of a gather gives the result dim it becomes.
  void checkResultDim(CheckChain &chain, Value operand, StringRef operandName,
                      int64_t operandDim, int64_t resultDim);

  /// The message of an out-of-range index in operand 'indices' addressing
  /// dim `dataDim` of operand 'data'.
  static std::string indexMessage(int64_t dataDim);

private:
  /// Declares `name` with `type` in the module of `op` the first time it
  /// is asked for that module (one symbol lookup per module and pass run).
  void declare(OpBuilder &b, Operation *op, StringRef name, FunctionType type);

  /// A read-only buffer of `tensor` (identity layout), made once per pass
  /// run where `tensor` is defined.
  Value sharedReadBuffer(OpBuilder &b, Value tensor);

  /// The symbol table of `module`, built once per pass run.
  SymbolTable &symbols(ModuleOp module);

  bool checkBounds;
  int64_t grain;
  llvm::DenseSet<std::pair<Operation *, StringRef>> declared;
  llvm::DenseMap<Operation *, std::unique_ptr<SymbolTable>> tables;
  /// The function of each distinct op, by module and (name, attributes,
  /// function type).
  llvm::DenseMap<std::pair<Operation *, Attribute>, func::FuncOp> outlined;
  /// The site argument of the op function being built (null elsewhere).
  Value site;
  /// The shared read-only buffers made so far, by tensor.
  llvm::DenseMap<Value, Value> readBuffers;
  /// The number of updated buffers made so far (their ids).
  int64_t updates = 0;
};

/// A conversion pattern of an nd op sharing the pass run's LoweringState.
template <typename OpTy>
class NdLoweringPattern : public OpConversionPattern<OpTy> {
public:
  NdLoweringPattern(MLIRContext *ctx, std::shared_ptr<LoweringState> state)
      : OpConversionPattern<OpTy>(ctx), state(std::move(state)) {}

protected:
  std::shared_ptr<LoweringState> state;
};

/// The patterns of the ops lowered in files of their own (Gather.cpp,
/// TensorScatter.cpp), sharing `state` with the others.
void populateGatherPatterns(RewritePatternSet &patterns,
                            std::shared_ptr<LoweringState> state);
void populateTensorScatterPatterns(RewritePatternSet &patterns,
                                   std::shared_ptr<LoweringState> state);

/// "file:line:col" (an imported node: "file (node)"), with '%' escaped for
/// printf.
std::string describeLocation(Operation *op);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_LOWERINGSUPPORT_H
