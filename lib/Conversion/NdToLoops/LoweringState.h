//===- LoweringState.h - outlining, run-time calls and checks ---*- C++ -*-===//
//
// Internal to the NdToLoops library: the state the lowering patterns of one
// pass run share. Each op becomes a call of a private function (`outline`),
// which keeps the functions later passes work on small; ops with the same
// lowering share one function, so that a module's IR grows with the number
// of distinct ops, not of ops. A scatter also passes the base pointer of its
// caller's data, so that the callee can tell an update of data in place from
// one of a copy (see Parallel.h). The lowerings keep value semantics at the
// tensor level (bufferization decides where results live): `outline` is the
// one place that turns operands into buffers and back for the call.
//
// The generated code calls into the run time through the ops of nd's
// run-time dialect (`nd_rt`): the thread count (`numPartitions`), a store
// fence after streamed stores, and the report of a failed run-time check
// (`report`, `CheckChain` and the dim checks); the LLVM stage of the
// pipeline lowers those ops.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_LOWERINGSTATE_H
#define ND_LIB_CONVERSION_NDTOLOOPS_LOWERINGSTATE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Conversion/CheckMessages.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <string>

namespace mlir::nd::lowering {

//===----------------------------------------------------------------------===//
// Run-time support shared by the patterns
//===----------------------------------------------------------------------===//

/// A failed run-time check reports through `nd_rt.report M (a, b)`, M a
/// printf format with two `%lld`; inside an op's function, which ops at
/// several places share, through `nd_rt.report_at %site M (a, b)`, where
/// `%site` is the function's last argument and each call of the function
/// passes `nd_rt.site "<where>"`: the LLVM stage makes each site a table of
/// the messages "<where>: <op>: <text>" of the function it calls, so that a
/// message names the op's own location. `nd_rt.max_threads` is the number
/// of threads the parallel loops may use; `nd_rt.store_fence` orders a
/// thread's non-temporal stores before its later stores (a partition that
/// streamed ends with it, so that the threads that join it see its writes).

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

  /// Emits `if (streamed) nd_rt.store_fence` at the
  /// end of a partition that may have streamed its stores; nothing where
  /// `streamed` is the constant false.
  void fenceStreamedStores(OpBuilder &b, Location loc, Operation *op,
                           Value streamed);

  /// Replaces `op`, an nd op on buffers, with a call of a private function
  /// of the module that takes its operands, `operands` (each with the
  /// identity layout of its shape: a buffer of another layout is copied
  /// into one for the call, and the updated buffer copied back after it).
  /// Ops with the same name, attributes and operand types share one
  /// function, `@__nd_<op name>` (made unique), whose body `lower(b, loc,
  /// args)` builds the first time from the function's arguments: it may
  /// depend on `op`'s name, attributes and types and on the pass options,
  /// nothing else. With checks on, the function takes one more argument,
  /// the call's site, that its reports name (`nd_rt.report_at`). One
  /// small function per distinct op keeps the IR later passes work on small:
  /// several upstream passes take time quadratic in the size of a function.
  void outline(ConversionPatternRewriter &rewriter, Operation *op,
               ValueRange operands,
               function_ref<void(OpBuilder &, Location, ValueRange)> lower);

  /// Emits the report of a failed check whose message is
  /// "<where>: <op>: <text>" (`text` a printf format taking two
  /// `long long`): `nd_rt.report_at %site` inside an op's function,
  /// `nd_rt.report` elsewhere.
  void report(OpBuilder &b, Location loc, Operation *op, StringRef text,
              Value a, Value b2);

  /// A chain of checks that reports the first one that fails: `check`
  /// emits `if (ok && bad) report(...)` and folds `!bad` into `ok`.
  class CheckChain {
  public:
    CheckChain(LoweringState &state, OpBuilder &b, Location loc, Operation *op);
    /// Goes on with a chain whose checks so far gave `ok` (an i1), as a loop
    /// that checks one value per iteration carries it.
    CheckChain(LoweringState &state, OpBuilder &b, Location loc, Operation *op,
               Value ok);
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

  /// Checks the shape constraints of the chain's op that its dynamic sizes
  /// leave to run time (nd/Conversion/ShapeChecks.h), in the model's order;
  /// `values` are the op's values in map order as the function sees them.
  void checkShapes(CheckChain &chain, ValueRange values);

private:
  /// The function of `op` (see outline), taking `type`'s inputs (and the
  /// site last with checks) and built by `lower`.
  func::FuncOp
  buildFunction(ConversionPatternRewriter &rewriter, Operation *op,
                FunctionType type,
                function_ref<void(OpBuilder &, Location, ValueRange)> lower);

  /// `nd_rt.site` naming the location of `op` (`nd_rt.report_at`).
  Value callSite(ConversionPatternRewriter &rewriter, Operation *op);

  /// The symbol table of `module`, built once per pass run.
  SymbolTable &symbols(ModuleOp module);

  bool checkBounds;
  int64_t grain;
  llvm::DenseMap<Operation *, std::unique_ptr<SymbolTable>> tables;
  /// The function of each distinct op, by module and (name, attributes,
  /// function type).
  llvm::DenseMap<std::pair<Operation *, Attribute>, func::FuncOp> outlined;
  /// The site argument of the op function being built (null elsewhere).
  Value site;
};

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_LOWERINGSTATE_H
