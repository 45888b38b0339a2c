//===- ScatterEngine.cpp - deterministic scatters of rows on the GPU -*- C++
//-*-===//
//
// See ScatterEngine.h.
//
//===----------------------------------------------------------------------===//

#include "ScatterEngine.h"

#include "RadixSort.h"
#include "RowEngine.h"
#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// The most entries and rows (plus one for dropped entries) the 32-bit keys
/// of a scatter hold.
static constexpr int64_t kMaxKeys = std::numeric_limits<int32_t>::max();

/// In the first kernel of the scatter that writes: `body()` unless a check
/// of the call has failed; the first thread records the op's failure (see
/// ErrorRecord::failedOrFinalize).
static void unlessFailed(OpBuilder &b, Location loc, const RowScatter &s,
                         const KernelIds &ids,
                         function_ref<void(OpBuilder &, Location)> body) {
  if (!s.record) {
    body(b, loc);
    return;
  }
  Value failed;
  if (s.slot < 0) {
    failed = s.record->failed(b, loc);
  } else {
    Value first = isFirstThread(b, loc, ids);
    failed = s.record->failedOrFinalize(
        b, loc, first, s.slot,
        [&](OpBuilder &fb, Location floc, Value position) {
          return s.describe(fb, floc, position);
        });
  }
  buildIf(b, loc, notBool(b, loc, failed), body);
}

/// Step 1: each entry's destination row (`rows` where dropped), checked;
/// with `winners`, also the atomic max of the entry number per row.
static Value emitKeys(OpBuilder &b, Location loc, const RowScatter &s,
                      Value winners = Value()) {
  Type i32 = b.getI32Type();
  Value keys = allocFlat(b, loc, i32, s.entries);
  Value grid = gridFor(b, loc, s.entries, kBlockSize);
  launch(b, loc, grid, Value(), kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           gridStrideLoop(
               kb, kloc, ids, s.entries,
               [&](OpBuilder &lb, Location lloc, Value e) {
                 std::pair<Value, Value> entry = s.rowOf(lb, lloc, e);
                 Value row = entry.first, dropped = entry.second;
                 Value key = select(lb, lloc, dropped, s.rows, row);
                 Value key32 = arith::IndexCastUIOp::create(lb, lloc, i32, key);
                 memref::StoreOp::create(lb, lloc, key32, keys, e);
                 if (!winners)
                   return;
                 buildIf(lb, lloc, notBool(lb, lloc, dropped),
                         [&](OpBuilder &nb, Location nloc) {
                           Value e32 =
                               arith::IndexCastUIOp::create(nb, nloc, i32, e);
                           memref::AtomicRMWOp::create(
                               nb, nloc, arith::AtomicRMWKind::maxs, e32,
                               winners, ValueRange{row});
                         });
               });
         });
  return keys;
}

/// In a kernel: the key at `i` of a 1-D i32 buffer as an index.
static Value loadKey(OpBuilder &b, Location loc, Value keys, Value i) {
  Value key = memref::LoadOp::create(b, loc, keys, i);
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), key);
}

/// The most entries a scatter under `none` has for the one-kernel path.
static constexpr int64_t kFewEntries = kBlockSize;

/// Reduction `none` with at most kFewEntries entries (a KV-cache update):
/// one kernel. Each block computes and checks every entry's row into
/// workgroup memory; if none is bad, each group writes its entries that no
/// later entry overwrites (a scan of the later rows). No scratch buffer.
static void emitFewLastWins(OpBuilder &b, Location loc, const RowScatter &s) {
  Type i32 = b.getI32Type();
  Type elementType = cast<MemRefType>(s.data.flat.getType()).getElementType();
  bool checking = s.record && s.slot >= 0;
  MLIRContext *ctx = b.getContext();
  SmallVector<MemRefType> shared = {sharedType(ctx, i32, kFewEntries),
                                    sharedType(ctx, i32, 1)};
  Value canVector = canMoveVectors(b, loc, elementType, s.rowLen,
                                   {s.data.flat, s.updates.flat});
  withVectorChoice(
      b, loc, elementType, canVector,
      [&](OpBuilder &vb, Location vloc, int64_t vl) {
        RowLayout layout = rowLayout(vb, vloc, s.entries, s.rowLen, vl);
        launch(
            vb, vloc, layout.gridX, layout.gridY, kBlockSize,
            [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
              Value keys = ids.shared[0], flag = ids.shared[1];
              Value t = ids.threadX;
              Value zero = constIndex(kb, kloc, 0);
              Value zero32 = constInt(kb, kloc, i32, 0);
              Value isFirst =
                  cmpIndex(kb, kloc, arith::CmpIPredicate::eq, t, zero);
              buildIf(kb, kloc, isFirst, [&](OpBuilder &nb, Location nloc) {
                memref::StoreOp::create(nb, nloc, zero32, flag, zero);
              });
              barrier(kb, kloc);
              Value mine =
                  cmpIndex(kb, kloc, arith::CmpIPredicate::ult, t, s.entries);
              buildIf(kb, kloc, mine, [&](OpBuilder &nb, Location nloc) {
                std::pair<Value, Value> entry = s.rowOf(nb, nloc, t);
                Value key = select(nb, nloc, entry.second, s.rows, entry.first);
                Value key32 = arith::IndexCastUIOp::create(nb, nloc, i32, key);
                memref::StoreOp::create(nb, nloc, key32, keys, t);
                if (checking)
                  buildIf(nb, nloc, entry.second,
                          [&](OpBuilder &fb, Location floc) {
                            Value one32 = constInt(fb, floc, i32, 1);
                            memref::StoreOp::create(fb, floc, one32, flag,
                                                    zero);
                          });
              });
              barrier(kb, kloc);
              Value failed = constBool(kb, kloc, false);
              if (s.record)
                failed = s.record->failed(kb, kloc);
              if (checking) {
                Value raised = memref::LoadOp::create(kb, kloc, flag, zero);
                Value bad = arith::CmpIOp::create(
                    kb, kloc, arith::CmpIPredicate::ne, raised, zero32);
                // The first thread of the grid records the first bad index;
                // its block noted every entry's, before the barrier.
                Value first = isFirstThread(kb, kloc, ids);
                Value firstBad = andBool(kb, kloc, bad, first);
                Value noEarlier = notBool(kb, kloc, failed);
                Value report = andBool(kb, kloc, firstBad, noEarlier);
                buildIf(kb, kloc, report, [&](OpBuilder &nb, Location nloc) {
                  s.record->finalizeHere(
                      nb, nloc, s.slot,
                      [&](OpBuilder &fb, Location floc, Value position) {
                        return s.describe(fb, floc, position);
                      });
                });
                failed = orBool(kb, kloc, failed, bad);
              }
              buildIf(
                  kb, kloc, notBool(kb, kloc, failed),
                  [&](OpBuilder &fb, Location floc) {
                    forEachRowUnit(
                        fb, floc, ids, layout,
                        [&](OpBuilder &rb, Location rloc, Value e) {
                          Value key = loadKey(rb, rloc, keys, e);
                          Value valid = cmpIndex(
                              rb, rloc, arith::CmpIPredicate::ne, key, s.rows);
                          // Whether a later entry writes the same row.
                          Value one = constIndex(rb, rloc, 1);
                          Value next = addIndex(rb, rloc, e, one);
                          Value no = constBool(rb, rloc, false);
                          auto scan = scf::ForOp::create(
                              rb, rloc, next, s.entries, one, ValueRange{no},
                              [&](OpBuilder &lb, Location lloc, Value j,
                                  ValueRange acc) {
                                Value other = loadKey(lb, lloc, keys, j);
                                Value same =
                                    cmpIndex(lb, lloc, arith::CmpIPredicate::eq,
                                             other, key);
                                scf::YieldOp::create(
                                    lb, lloc, orBool(lb, lloc, acc[0], same));
                              });
                          Value last = notBool(rb, rloc, scan.getResult(0));
                          Value writes = andBool(rb, rloc, valid, last);
                          Value at = select(rb, rloc, valid, key, zero);
                          Value src = mulIndex(rb, rloc, e, s.rowLen);
                          Value dst = mulIndex(rb, rloc, at, s.rowLen);
                          return SmallVector<Value>{src, dst, writes};
                        },
                        [&](OpBuilder &ub, Location uloc, Value,
                            ValueRange values, Value u) {
                          buildIf(
                              ub, uloc, values[2],
                              [&](OpBuilder &wb, Location wloc) {
                                Value vlValue = constIndex(wb, wloc, vl);
                                Value at = mulIndex(wb, wloc, u, vlValue);
                                Value src = addIndex(wb, wloc, values[0], at);
                                Value dst = addIndex(wb, wloc, values[1], at);
                                Value v =
                                    loadUnit(wb, wloc, s.updates.flat, src, vl);
                                storeUnit(wb, wloc, v, s.data.flat, dst, vl);
                              });
                        });
                  });
            },
            shared);
      });
}

/// Reduction `none`: the last entry of each row writes it.
static void emitLastWins(OpBuilder &b, Location loc, const RowScatter &s) {
  Type i32 = b.getI32Type();
  Type elementType = cast<MemRefType>(s.data.flat.getType()).getElementType();
  Value one = constIndex(b, loc, 1);
  Value winners = allocFlat(b, loc, i32, maxIndex(b, loc, s.rows, one));
  fill32(b, loc, winners, -1);
  Value keys = emitKeys(b, loc, s, winners);
  Value canVector = canMoveVectors(b, loc, elementType, s.rowLen,
                                   {s.data.flat, s.updates.flat});
  withVectorChoice(
      b, loc, elementType, canVector,
      [&](OpBuilder &vb, Location vloc, int64_t vl) {
        RowLayout layout = rowLayout(vb, vloc, s.entries, s.rowLen, vl);
        launchRows(
            vb, vloc, layout,
            [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
              unlessFailed(kb, kloc, s, ids, [&](OpBuilder &fb, Location floc) {
                forEachRowUnit(
                    fb, floc, ids, layout,
                    [&](OpBuilder &rb, Location rloc, Value e) {
                      Value key = loadKey(rb, rloc, keys, e);
                      Value valid = cmpIndex(rb, rloc, arith::CmpIPredicate::ne,
                                             key, s.rows);
                      Value zero = constIndex(rb, rloc, 0);
                      Value at = select(rb, rloc, valid, key, zero);
                      Value winner =
                          memref::LoadOp::create(rb, rloc, winners, at);
                      Value e32 = arith::IndexCastUIOp::create(
                          rb, rloc, rb.getI32Type(), e);
                      Value wins = arith::CmpIOp::create(
                          rb, rloc, arith::CmpIPredicate::eq, winner, e32);
                      Value writes = andBool(rb, rloc, valid, wins);
                      Value src = mulIndex(rb, rloc, e, s.rowLen);
                      Value dst = mulIndex(rb, rloc, at, s.rowLen);
                      return SmallVector<Value>{src, dst, writes};
                    },
                    [&](OpBuilder &ub, Location uloc, Value, ValueRange values,
                        Value u) {
                      buildIf(ub, uloc, values[2],
                              [&](OpBuilder &wb, Location wloc) {
                                Value vlValue = constIndex(wb, wloc, vl);
                                Value at = mulIndex(wb, wloc, u, vlValue);
                                Value src = addIndex(wb, wloc, values[0], at);
                                Value dst = addIndex(wb, wloc, values[1], at);
                                Value v =
                                    loadUnit(wb, wloc, s.updates.flat, src, vl);
                                storeUnit(wb, wloc, v, s.data.flat, dst, vl);
                              });
                    });
              });
            });
      });
  dealloc(b, loc, winners);
  dealloc(b, loc, keys);
}

/// Whether the op keeps a count per element (mean, use_init_val(false)).
static bool isTallied(const RowScatter &s) {
  return s.reduction == ReductionKind::Mean ||
         (!s.useInit && s.reduction != ReductionKind::None);
}

/// Entries of a run whose updates are loaded before they are combined.
static constexpr int64_t kUnroll = 8;

/// In a kernel: the update unit of sorted entry `j` at unit offset `at`.
static Value sortedUpdate(OpBuilder &b, Location loc, const RowScatter &s,
                          Value positions, Value j, Value at, int64_t vl) {
  Value e = loadKey(b, loc, positions, j);
  Value src = addIndex(b, loc, mulIndex(b, loc, e, s.rowLen), at);
  return loadUnit(b, loc, s.updates.flat, src, vl);
}

/// In a kernel: the run `[start, end)` of sorted entries applied to the unit
/// at `dst` of data, in order.
static void applyRun(OpBuilder &b, Location loc, const RowScatter &s,
                     Value positions, Value start, Value end, Value dst,
                     Value at, int64_t vl) {
  Value one = constIndex(b, loc, 1);
  Type elementType = cast<MemRefType>(s.data.flat.getType()).getElementType();
  // The updates of `[from, end)` folded into `init` in order. A row that
  // many entries address is walked by its owner one entry after the other:
  // the loads of kUnroll entries are issued before they are combined, so
  // that they overlap; the order of the combination stays the entries'.
  auto fold = [&](Value from, Value init,
                  function_ref<Value(OpBuilder &, Location, Value, Value)> step)
      -> Value {
    Value unroll = constIndex(b, loc, kUnroll);
    Value count = subIndex(b, loc, end, from);
    Value rest = remIndex(b, loc, count, unroll);
    Value wholeEnd = subIndex(b, loc, end, rest);
    auto whole = scf::ForOp::create(
        b, loc, from, wholeEnd, unroll, ValueRange{init},
        [&](OpBuilder &lb, Location lloc, Value j, ValueRange acc) {
          SmallVector<Value> updates;
          for (int64_t k = 0; k < kUnroll; ++k) {
            Value offset = constIndex(lb, lloc, k);
            Value entry = addIndex(lb, lloc, j, offset);
            updates.push_back(
                sortedUpdate(lb, lloc, s, positions, entry, at, vl));
          }
          Value value = acc[0];
          for (Value u : updates)
            value = step(lb, lloc, value, u);
          scf::YieldOp::create(lb, lloc, value);
        });
    auto tail = scf::ForOp::create(
        b, loc, wholeEnd, end, one, ValueRange{whole.getResult(0)},
        [&](OpBuilder &lb, Location lloc, Value j, ValueRange acc) {
          Value u = sortedUpdate(lb, lloc, s, positions, j, at, vl);
          scf::YieldOp::create(lb, lloc, step(lb, lloc, acc[0], u));
        });
    return tail.getResult(0);
  };
  auto combineStep = [&](OpBuilder &lb, Location lloc, Value acc, Value u) {
    return combine(lb, lloc, s.reduction, acc, u);
  };
  Value next = addIndex(b, loc, start, one);
  if (!isTallied(s)) {
    Value current = loadUnit(b, loc, s.data.flat, dst, vl);
    storeUnit(b, loc, fold(start, current, combineStep), s.data.flat, dst, vl);
    return;
  }
  if (s.reduction != ReductionKind::Mean) {
    // use_init_val(false): the first update is taken as is.
    Value first = sortedUpdate(b, loc, s, positions, start, at, vl);
    storeUnit(b, loc, fold(next, first, combineStep), s.data.flat, dst, vl);
    return;
  }
  Value count = subIndex(b, loc, end, start);
  if (s.useInit)
    count = addIndex(b, loc, count, one);
  Value count64 = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), count);
  Value mean;
  if (isa<FloatType>(elementType)) {
    // Summed in the element type, data's value first, then divided once.
    Value sum;
    if (s.useInit) {
      Value current = loadUnit(b, loc, s.data.flat, dst, vl);
      sum = fold(start, current, combineStep);
    } else {
      Value first = sortedUpdate(b, loc, s, positions, start, at, vl);
      sum = fold(next, first, combineStep);
    }
    mean = floatMean(b, loc, sum, count64);
  } else {
    // Summed exactly, in an integer 64 bits wider.
    IntegerType wide = widerInteger(elementType, 64);
    Value init = arith::ConstantOp::create(b, loc, b.getZeroAttr(wide));
    if (s.useInit) {
      Value current = loadUnit(b, loc, s.data.flat, dst, vl);
      init = extendInteger(b, loc, current, wide);
    }
    Value sum = fold(start, init,
                     [&](OpBuilder &lb, Location lloc, Value acc, Value u) {
                       Value term = extendInteger(lb, lloc, u, wide);
                       return Value(arith::AddIOp::create(lb, lloc, acc, term));
                     });
    mean = integerMean(b, loc, elementType, sum, count64);
  }
  storeUnit(b, loc, mean, s.data.flat, dst, vl);
}

/// In a kernel: the destination row of sorted entry `i` and the run of
/// entries it owns, `[i, end)`: empty unless `i` starts the run of a row.
static SmallVector<Value> runAt(OpBuilder &b, Location loc, const RowScatter &s,
                                Value keys, Value i) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value key = loadKey(b, loc, keys, i);
  Value first = cmpIndex(b, loc, arith::CmpIPredicate::eq, i, zero);
  Value before = select(b, loc, first, zero, subIndex(b, loc, i, one));
  Value previous = loadKey(b, loc, keys, before);
  Value differs = cmpIndex(b, loc, arith::CmpIPredicate::ne, previous, key);
  Value starts = orBool(b, loc, first, differs);
  Value real = cmpIndex(b, loc, arith::CmpIPredicate::ne, key, s.rows);
  Value head = andBool(b, loc, starts, real);
  Type index = b.getIndexType();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{index}, head,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value next = addIndex(b, loc, i, one);
    Value last = subIndex(b, loc, s.entries, one);
    auto loop = scf::WhileOp::create(
        b, loc, TypeRange{index}, ValueRange{next},
        [&](OpBuilder &wb, Location wloc, ValueRange args) {
          Value j = args[0];
          Value inside =
              cmpIndex(wb, wloc, arith::CmpIPredicate::ult, j, s.entries);
          Value safe = minIndex(wb, wloc, j, last);
          Value other = loadKey(wb, wloc, keys, safe);
          Value same = cmpIndex(wb, wloc, arith::CmpIPredicate::eq, other, key);
          Value more = andBool(wb, wloc, inside, same);
          scf::ConditionOp::create(wb, wloc, more, ValueRange{j});
        },
        [&](OpBuilder &wb, Location wloc, ValueRange args) {
          Value j = addIndex(wb, wloc, args[0], constIndex(wb, wloc, 1));
          scf::YieldOp::create(wb, wloc, j);
        });
    scf::YieldOp::create(b, loc, loop.getResult(0));
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, i);
  }
  return {key, i, ifOp.getResult(0)};
}

/// Any other reduction: sorted by row, the first entry of each run owns it.
static void emitSortedRuns(OpBuilder &b, Location loc, const RowScatter &s,
                           Value keys) {
  Type elementType = cast<MemRefType>(s.data.flat.getType()).getElementType();
  SortedEntries sorted = emitRadixSort(b, loc, keys, s.entries, s.rows);
  Value canVector = canMoveVectors(b, loc, elementType, s.rowLen,
                                   {s.data.flat, s.updates.flat});
  if (isTallied(s))
    canVector = constBool(b, loc, false);
  withVectorChoice(
      b, loc, elementType, canVector,
      [&](OpBuilder &vb, Location vloc, int64_t vl) {
        RowLayout layout = rowLayout(vb, vloc, s.entries, s.rowLen, vl);
        launchRows(
            vb, vloc, layout,
            [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
              unlessFailed(kb, kloc, s, ids, [&](OpBuilder &fb, Location floc) {
                forEachRowUnit(
                    fb, floc, ids, layout,
                    [&](OpBuilder &rb, Location rloc, Value i) {
                      return runAt(rb, rloc, s, sorted.keys, i);
                    },
                    [&](OpBuilder &ub, Location uloc, Value, ValueRange values,
                        Value u) {
                      Value owns = cmpIndex(ub, uloc, arith::CmpIPredicate::ult,
                                            values[1], values[2]);
                      buildIf(
                          ub, uloc, owns, [&](OpBuilder &wb, Location wloc) {
                            Value vlValue = constIndex(wb, wloc, vl);
                            Value at = mulIndex(wb, wloc, u, vlValue);
                            Value row = mulIndex(wb, wloc, values[0], s.rowLen);
                            Value dst = addIndex(wb, wloc, row, at);
                            applyRun(wb, wloc, s, sorted.positions, values[1],
                                     values[2], dst, at, vl);
                          });
                    });
              });
            });
      });
  releaseSort(b, loc, sorted);
}

void gpu_lowering::emitRowScatter(OpBuilder &b, Location loc,
                                  const RowScatter &s) {
  // 32-bit keys and entry numbers: at most 2^31 - 1 of each, a row number
  // of 2^31 - 1 marking dropped entries.
  Value limit = constIndex(b, loc, kMaxKeys);
  Value manyEntries =
      cmpIndex(b, loc, arith::CmpIPredicate::ugt, s.entries, limit);
  Value manyRows = cmpIndex(b, loc, arith::CmpIPredicate::uge, s.rows, limit);
  Value tooMany = orBool(b, loc, manyEntries, manyRows);
  if (s.record) {
    int64_t code = s.record->addMessage(
        s.op, "the GPU lowering takes at most 2147483647 update entries "
              "(%lld) and 2147483646 destination rows (%lld)");
    s.record->recordFromHost(b, loc, tooMany, code, s.entries, s.rows);
  }
  buildIf(b, loc, notBool(b, loc, tooMany), [&](OpBuilder &hb, Location hloc) {
    if (s.reduction == ReductionKind::None) {
      Value few = cmpIndex(hb, hloc, arith::CmpIPredicate::ule, s.entries,
                           constIndex(hb, hloc, kFewEntries));
      buildIfElse(
          hb, hloc, few,
          [&](OpBuilder &nb, Location nloc) { emitFewLastWins(nb, nloc, s); },
          [&](OpBuilder &nb, Location nloc) { emitLastWins(nb, nloc, s); });
      return;
    }
    // The sort takes the keys over.
    Value keys = emitKeys(hb, hloc, s);
    emitSortedRuns(hb, hloc, s, keys);
  });
}
