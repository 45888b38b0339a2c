//===- ErrorRecord.h - run-time checks of nd's GPU kernels ------*- C++ -*-===//
//
// Internal to the NdToGPU library. A function whose nd ops check indices or
// dynamic shapes at run time uses an *error record* in device memory, a
// buffer of i64 words:
//
//   [0] the code of the first failed check (0: none), [1] and [2] the two
//   values its message prints, [3] the runtime's (see below), [4 + s] slot s:
//   the first bad position found by op s's check, stored as its complement
//   so that an unsigned atomic max keeps the smallest position and 0 means
//   none.
//
// A check kernel notes each bad index value with an atomic max into its op's
// slot (integer atomics: the outcome does not depend on their order), then one
// thread turns the slot into the record (code, value, size) unless an earlier
// check has set it. The kernels that write read word 0 first and do nothing
// once it is set, so no op writes after a failed check, without a round trip
// to the host. A dynamic shape the host finds wrong is recorded the same way,
// by a one-thread kernel, so that the first failure in program order is the
// one reported.
//
// The lowering leaves two ops of nd's run-time dialect for a later stage:
//
//   %r = nd_rt.gpu_error_record %words : memref<?xi64>
//       the function's record, at its start, zero in every word;
//   nd_rt.gpu_error_record_end %r [M1, M2, ...]
//       before each return: report the check whose code the record holds,
//       if any, with message Mcode ("<location>: <op>: <text>", a printf
//       format with two `%lld` for words 1 and 2; codes count from 1).
//
// The CUDA target's host passes lower them (lib/Target/CUDA/
// ErrorRecordLowering.h). On a device (`--nd-gpu-call-stream`:
// lowerErrorRecordsForDevice) they are calls of nd's CUDA runtime, which
// keeps one record per stream. It is zero
// when a call starts because a call that leaves it set has failed and the
// runtime clears it when it reports that failure: a successful call costs
// no clearing, and the report reaches the caller asynchronously
// (nd-c/CudaRuntime.h); word 3 is a constant 1, which tells the runtime
// that its copy of the header has landed in host memory. On the host
// (`--nd-gpu-run-on-host`: expandErrorRecordsOnHost) the record is a host
// buffer cleared at the start, and the return reports through
// `nd_rt.report M (a, b)`, as the CPU lowering does, which the LLVM stage
// turns into nd's error report.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOGPU_ERRORRECORD_H
#define ND_LIB_CONVERSION_NDTOGPU_ERRORRECORD_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "nd-c/RuntimeABI.h"
#include "nd/Dialect/Nd/Utils/ElementSemantics.h"

#include <string>

namespace mlir::nd::gpu_lowering {

/// Words of the record before the slots.
inline constexpr int64_t kRecordHeader = 4;

class ErrorRecord {
public:
  /// Takes the record of `func` at its start, with `numSlots` slots.
  ErrorRecord(OpBuilder &b, func::FuncOp func, int64_t numSlots);

  /// The record as a device buffer of i64 words.
  Value words() const { return buffer; }

  /// Registers the message "<where>: <op name>: <text>" of a check of `op`
  /// and returns its code (codes of one op's messages are consecutive when
  /// registered one after the other).
  int64_t addMessage(Operation *op, StringRef text);

  /// A fresh slot (an op's first bad position).
  int64_t takeSlot();

  /// In a kernel: whether a check of the call has failed (an i1).
  Value failed(OpBuilder &b, Location loc) const;

  /// In a kernel: notes that the index value at `position` (row-major in
  /// its operand) is bad, in `slot`.
  void noteBad(OpBuilder &b, Location loc, int64_t slot, Value position) const;

  /// On the host: after the kernels that noted bad positions in `slot`,
  /// launches one thread that records the first one, unless a check has
  /// failed before: `describe(b, loc, position)` builds, in that thread, the
  /// code (i64) and the message's two values (i64) for the position.
  using Describe = function_ref<std::tuple<Value, Value, Value>(
      OpBuilder &, Location, Value)>;
  void finalize(OpBuilder &b, Location loc, int64_t slot,
                Describe describe) const;

  /// In the first kernel that writes after the kernels that noted bad
  /// positions in `slot`: whether the op's check (or an earlier one) has
  /// failed, an i1 every thread gets; the first thread of the grid also
  /// records the first bad position, as `finalize` does, without a kernel
  /// of its own.
  Value failedOrFinalize(OpBuilder &b, Location loc, Value isFirstThread,
                         int64_t slot, Describe describe) const;

  /// In one thread of a kernel, after the bad positions of `slot` were
  /// noted by its own block: records the first one unless a check has failed
  /// before (the slot read with an atomic, past the caches).
  void finalizeHere(OpBuilder &b, Location loc, int64_t slot,
                    Describe describe) const;

  /// On the host: where `bad` (an i1 computed on the host) holds, records
  /// message `code` with values `a` and `b2`, unless a check has failed
  /// before (one thread of a kernel, in stream order).
  void recordFromHost(OpBuilder &b, Location loc, Value bad, int64_t code,
                      Value a, Value b2) const;

  /// Before each return of the function: reports a failed check (nothing
  /// when no check registered a message).
  void emitReports(OpBuilder &b, func::FuncOp func) const;

private:
  /// The record as the call returns it, and as a buffer of numWords words.
  Value dynamicBuffer;
  Value buffer;
  int64_t numWords;
  int64_t nextSlot = 0;
  SmallVector<std::string> messages;
};

/// An operand's index values as the kernels of one op read them: "load an
/// index value, resolve it under the op's `oob` mode, note it if bad", the
/// one home of that sequence. `record` is set where the op checks its index
/// values (oob<error> with checks), and a bad value is then noted in `slot`.
struct IndexReader {
  /// The flat buffer of the index values.
  Value flat;
  OobMode oob = OobMode::Error;
  const ErrorRecord *record = nullptr;
  int64_t slot = -1;

  /// In a kernel: the index value at `position` (row-major in its operand)
  /// resolved against a dim of `size`; a bad one noted at `position`.
  ResolvedIndex read(OpBuilder &b, Location loc, Value position,
                     Value size) const;

  /// In a kernel: an index value `raw` the caller has loaded resolved against
  /// a dim of `size`; a bad one noted at the position `position` builds
  /// where it is noted.
  ResolvedIndex
  resolve(OpBuilder &b, Location loc, Value raw, Value size,
          function_ref<Value(OpBuilder &, Location)> position) const;

  /// In a kernel: the data row of index tuple `e` of an ND op (tuples of
  /// `k` values, `k` as an index value, at `e * k`), from `firstRow(b, loc)`
  /// on (0, or the first row of the tuple's batch): component c resolved
  /// against `sizes[c]` and weighted by `strides[c]`. The second value is
  /// whether a component is bad (each noted where it is).
  std::pair<Value, Value>
  readTupleRow(OpBuilder &b, Location loc, Value e, Value k,
               ArrayRef<Value> sizes, ArrayRef<Value> strides,
               function_ref<Value(OpBuilder &, Location)> firstRow) const;
};

/// What a failed check of a single index value reports, for `finalize`:
/// message `code`, the value at `position` of the flat `indices` and `size`
/// (the dim it addresses), each as i64.
std::tuple<Value, Value, Value> describeIndexValue(OpBuilder &b, Location loc,
                                                   Value indices,
                                                   Value position, Value size,
                                                   int64_t code);

/// What a failed check of an index tuple reports, for `finalize`: the flat
/// `position` in `indices` (tuples of `k` values, `k` as an index value) is
/// component c = position mod k, reported with message `baseCode + c`, the
/// value at `position` and `sizes[c]`, each as i64.
std::tuple<Value, Value, Value>
describeTupleComponent(OpBuilder &b, Location loc, Value indices,
                       Value position, Value k, ArrayRef<Value> sizes,
                       int64_t baseCode);

} // namespace mlir::nd::gpu_lowering

#endif // ND_LIB_CONVERSION_NDTOGPU_ERRORRECORD_H
