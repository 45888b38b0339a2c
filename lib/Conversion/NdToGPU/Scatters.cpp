//===- Scatters.cpp - nd.scatter_nd and nd.scatter_elements on GPUs -*- C++
//-*-===//
//
// `nd.scatter_nd` and `nd.scatter_elements` on buffers, as row scatters of the
// scatter engine (ScatterEngine.h):
//
// - scatter_nd: an entry is an index tuple, its row the slice of `data` the
//   tuple addresses (`prod(data.shape[k:])` contiguous elements) and the
//   matching row of `updates`; OpenVINO's one-element form is one entry of
//   one element;
// - scatter_elements: an entry is one element of `indices`, its destination
//   the element of `data` at its position with the axis coordinate replaced
//   by the index value.
//
// The destination is updated in place: it is the caller's buffer where the
// caller donated it, or the copy of `data` bufferization made (a device
// copy, before the op).
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "GPUSupport.h"
#include "RowEngine.h"
#include "ScatterEngine.h"
#include "Semantics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

LogicalResult gpu_lowering::lowerScatterND(OpLowering &l, ScatterNDOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value data = op.getData(), indices = op.getIndices(),
        updates = op.getUpdates();
  auto dataType = cast<MemRefType>(data.getType());
  int64_t r = dataType.getRank();
  int64_t q = cast<ShapedType>(indices.getType()).getRank();
  int64_t k = op.getIndexDepth();
  auto updatesType = cast<ShapedType>(updates.getType());
  OobMode oob = op.getOob();
  if (!isSupportedReduction(op.getReduction(), dataType.getElementType()))
    return op.emitOpError("reduction is not supported for this element type");
  // OpenVINO: one element for a 0-D slice, at any rank of all-ones dims.
  bool singleElement = k == r && q == 1 && updatesType.getRank() != 0;

  l.checkIndexDepth(indices, k);
  if (!singleElement) {
    for (int64_t d = 0; d < q - 1; ++d)
      l.checkDims(updates, "updates", d, indices, "indices", d);
    for (int64_t d = k; d < r; ++d)
      l.checkDims(updates, "updates", q - 1 + d - k, data, "data", d);
  }

  bool checking = l.checksIndices(oob);
  RowScatter s;
  s.op = op;
  s.reduction = op.getReduction();
  s.record = l.record;
  int64_t baseCode = 0;
  if (checking) {
    s.slot = l.record->takeSlot();
    for (int64_t c = 0; c < k; ++c) {
      int64_t code = l.record->addMessage(op, indexMessage(c));
      if (c == 0)
        baseCode = code;
    }
  }

  SmallVector<Value> sizes = dimValues(b, loc, data, 0, k);
  SmallVector<Value> strides(k);
  Value running = constIndex(b, loc, 1);
  for (int64_t c = k - 1; c >= 0; --c) {
    strides[c] = running;
    running = mulIndex(b, loc, running, sizes[c]);
  }
  s.rows = running;
  s.entries = product(b, loc, dimValues(b, loc, indices, 0, q - 1));
  s.rowLen = product(b, loc, dimValues(b, loc, data, k, r));
  Value kValue = constIndex(b, loc, k);

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    s.data = flatOperand(hb, hloc, data);
    s.updates = flatOperand(hb, hloc, updates);
    FlatBuffer flatIndices = flatOperand(hb, hloc, indices);
    Value indexBuffer = flatIndices.flat;
    ErrorRecord *record = l.record;
    int64_t slot = s.slot;
    s.rowOf = [&, indexBuffer, record, slot](OpBuilder &kb, Location kloc,
                                             Value e) {
      Value base = mulIndex(kb, kloc, e, kValue);
      Value row = constIndex(kb, kloc, 0);
      Value dropped = constBool(kb, kloc, false);
      for (int64_t c = 0; c < k; ++c) {
        Value at = addIndex(kb, kloc, base, constIndex(kb, kloc, c));
        Value raw = loadIndexValue(kb, kloc, indexBuffer, at);
        ResolvedIndex index = resolveIndex(kb, kloc, oob, raw, sizes[c]);
        if (checking)
          buildIf(kb, kloc, index.bad, [&](OpBuilder &nb, Location nloc) {
            record->noteBad(nb, nloc, slot, at);
          });
        row = addIndex(kb, kloc, row,
                       mulIndex(kb, kloc, index.position, strides[c]));
        dropped = orBool(kb, kloc, dropped, index.bad);
      }
      return std::make_pair(row, dropped);
    };
    s.describe = [&, indexBuffer](OpBuilder &fb, Location floc,
                                  Value position) {
      return describeTupleComponent(fb, floc, indexBuffer, position, kValue,
                                    sizes, baseCode);
    };
    emitRowScatter(hb, hloc, s);
    writeBack(hb, hloc, s.data);
    release(hb, hloc, s.updates);
    release(hb, hloc, flatIndices);
  });
  return success();
}

/// Whether, `even` holding, each of the `rows` rows of `rowLen` index values
/// of `indices` (1-D) holds one value: a kernel sets a flag on the first
/// mismatch it sees, the host waits for it. An i1 on the host.
static Value emitUniformRowsTest(OpBuilder &b, Location loc, Value even,
                                 Value indices, Value rows, Value rowLen) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()}, even,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Type i32 = b.getI32Type();
    Value flag = allocFlat(b, loc, i32, 1);
    fill32(b, loc, flag, 0);
    RowLayout layout = rowLayout(b, loc, rows, rowLen, 1);
    launchRows(
        b, loc, layout,
        [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
          forEachRowUnit(
              kb, kloc, ids, layout,
              [&](OpBuilder &rb, Location rloc, Value row) {
                Value start = mulIndex(rb, rloc, row, rowLen);
                Value first = memref::LoadOp::create(rb, rloc, indices, start);
                return SmallVector<Value>{start, first};
              },
              [&](OpBuilder &ub, Location uloc, Value, ValueRange values,
                  Value u) {
                Value at = addIndex(ub, uloc, values[0], u);
                Value value = memref::LoadOp::create(ub, uloc, indices, at);
                Value differs = arith::CmpIOp::create(
                    ub, uloc, arith::CmpIPredicate::ne, value, values[1]);
                buildIf(ub, uloc, differs, [&](OpBuilder &nb, Location nloc) {
                  Value one = constInt(nb, nloc, i32, 1);
                  Value zero = constIndex(nb, nloc, 0);
                  memref::StoreOp::create(nb, nloc, one, flag, zero);
                });
              });
        });
    auto hostType = MemRefType::get({1}, i32);
    Value host = memref::AllocaOp::create(b, loc, hostType);
    gpu::MemcpyOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, host,
                          flag);
    Value zero = constIndex(b, loc, 0);
    Value mismatch = memref::LoadOp::create(b, loc, host, zero);
    dealloc(b, loc, flag);
    Value none = constInt(b, loc, i32, 0);
    Value uniform =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, mismatch, none);
    scf::YieldOp::create(b, loc, uniform);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, loc, constBool(b, loc, false));
  }
  return ifOp.getResult(0);
}

LogicalResult gpu_lowering::lowerScatterElements(OpLowering &l,
                                                 ScatterElementsOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value data = op.getData(), indices = op.getIndices(),
        updates = op.getUpdates();
  auto dataType = cast<MemRefType>(data.getType());
  int64_t rank = dataType.getRank();
  int64_t axis = op.getNormalizedAxis();
  OobMode oob = op.getOob();
  if (!isSupportedReduction(op.getReduction(), dataType.getElementType()))
    return op.emitOpError("reduction is not supported for this element type");

  for (int64_t d = 0; d < rank; ++d)
    l.checkDims(updates, "updates", d, indices, "indices", d);
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      l.checkDims(indices, "indices", d, data, "data", d, /*atMost=*/true);

  bool checking = l.checksIndices(oob);
  RowScatter s;
  s.op = op;
  s.reduction = op.getReduction();
  s.useInit = op.getUseInitVal();
  s.record = l.record;
  int64_t code = 0;
  if (checking) {
    s.slot = l.record->takeSlot();
    code = l.record->addMessage(op, indexMessage(axis));
  }

  SmallVector<Value> dataDims = dimValues(b, loc, data, 0, rank);
  SmallVector<Value> indexDims = dimValues(b, loc, indices, 0, rank);
  SmallVector<Value> dataStrides(rank);
  Value running = constIndex(b, loc, 1);
  for (int64_t d = rank - 1; d >= 0; --d) {
    dataStrides[d] = running;
    running = mulIndex(b, loc, running, dataDims[d]);
  }
  s.rows = running;
  s.entries = product(b, loc, indexDims);
  s.rowLen = constIndex(b, loc, 1);
  Value axisSize = dataDims[axis];
  // Rows: where dims follow the axis and data has the dims of indices off
  // the axis, the positions of indices that differ only after the axis form
  // a contiguous row of both buffers.
  bool hasRows = axis + 1 < rank;
  Value evenRows = constBool(b, loc, hasRows);
  for (int64_t d = 0; d < rank && hasRows; ++d)
    if (d != axis)
      evenRows = andBool(b, loc, evenRows,
                         cmpIndex(b, loc, arith::CmpIPredicate::eq, dataDims[d],
                                  indexDims[d]));
  Value rowLen = product(b, loc, ArrayRef(indexDims).drop_front(axis + 1));
  Value rowEntries = product(b, loc, ArrayRef(indexDims).take_front(axis + 1));
  Value along = indexDims[axis];
  // Rows of no element hold no index value to key them by.
  Value zero = constIndex(b, loc, 0);
  evenRows = andBool(b, loc, evenRows,
                     cmpIndex(b, loc, arith::CmpIPredicate::ne, rowLen, zero));

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    s.data = flatOperand(hb, hloc, data);
    s.updates = flatOperand(hb, hloc, updates);
    FlatBuffer flatIndices = flatOperand(hb, hloc, indices);
    Value indexBuffer = flatIndices.flat;
    ErrorRecord *record = l.record;
    int64_t slot = s.slot;
    s.describe = [&, indexBuffer](OpBuilder &fb, Location floc,
                                  Value position) {
      Value raw = loadIndexValue(fb, floc, indexBuffer, position);
      Type i64 = fb.getI64Type();
      Value codeValue = constInt(fb, floc, i64, code);
      Value raw64 = fromIndex(fb, floc, i64, raw);
      Value size64 = fromIndex(fb, floc, i64, axisSize);
      return std::make_tuple(codeValue, raw64, size64);
    };
    // Element by element: any dims, any index values.
    auto elements = [&](OpBuilder &eb, Location eloc) {
      RowScatter e = s;
      e.rowOf = [&, indexBuffer, record, slot](OpBuilder &kb, Location kloc,
                                               Value entry) {
        SmallVector<Value> coords = delinearize(kb, kloc, entry, indexDims);
        Value raw = loadIndexValue(kb, kloc, indexBuffer, entry);
        ResolvedIndex index = resolveIndex(kb, kloc, oob, raw, axisSize);
        if (checking)
          buildIf(kb, kloc, index.bad, [&](OpBuilder &nb, Location nloc) {
            record->noteBad(nb, nloc, slot, entry);
          });
        coords[axis] = index.position;
        Value flat = constIndex(kb, kloc, 0);
        for (int64_t d = 0; d < rank; ++d)
          flat = addIndex(kb, kloc, flat,
                          mulIndex(kb, kloc, coords[d], dataStrides[d]));
        return std::make_pair(flat, index.bad);
      };
      emitRowScatter(eb, eloc, e);
    };
    if (!hasRows) {
      elements(hb, hloc);
    } else {
      // Where every row of indices holds one value (an index broadcast
      // along the dims after the axis, as a GNN's aggregation has it), the
      // op scatters whole rows: keys per row, rows moved by groups of
      // threads. One pass over the indices finds out (and the host waits for
      // its answer); the rows then need no other look at them.
      Value useRows = emitUniformRowsTest(hb, hloc, evenRows, indexBuffer,
                                          rowEntries, rowLen);
      buildIfElse(
          hb, hloc, useRows,
          [&](OpBuilder &rb, Location rloc) {
            RowScatter r = s;
            r.entries = rowEntries;
            r.rowLen = rowLen;
            r.rows = mulIndex(
                rb, rloc,
                divIndex(rb, rloc, rowEntries,
                         maxIndex(rb, rloc, along, constIndex(rb, rloc, 1))),
                axisSize);
            r.rowOf = [&, indexBuffer, record,
                       slot](OpBuilder &kb, Location kloc, Value entry) {
              Value at = mulIndex(kb, kloc, entry, rowLen);
              Value raw = loadIndexValue(kb, kloc, indexBuffer, at);
              ResolvedIndex index = resolveIndex(kb, kloc, oob, raw, axisSize);
              if (checking)
                buildIf(kb, kloc, index.bad, [&](OpBuilder &nb, Location nloc) {
                  record->noteBad(nb, nloc, slot, at);
                });
              Value plane = divIndex(kb, kloc, entry, along);
              Value row =
                  addIndex(kb, kloc, mulIndex(kb, kloc, plane, axisSize),
                           index.position);
              return std::make_pair(row, index.bad);
            };
            emitRowScatter(rb, rloc, r);
          },
          elements);
    }
    writeBack(hb, hloc, s.data);
    release(hb, hloc, s.updates);
    release(hb, hloc, flatIndices);
  });
  return success();
}
