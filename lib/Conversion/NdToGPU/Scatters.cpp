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
// caller donated it, or the copy of `data` bufferization made. Under a
// reduction, that copy (a `memref.copy` into a fresh, disposable buffer
// just before the op) is folded into the scatter: the owners of the rows
// read the copy's source and write every row of the destination
// (Combine.h), so that each byte of data moves once.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "RowEngine.h"
#include "ScatterEngine.h"
#include "Semantics.h"
#include "nd/Conversion/NdToGPU/GPUSupport.h"
#include "nd/Conversion/RowSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

/// The copy of `data` just before `op` that the op can take over: under a
/// reduction, a copy of a contiguous buffer into the fresh buffer the op
/// updates (disposable: nothing reads it if the op fails). Null otherwise.
static memref::CopyOp foldableCopy(Operation *op, Value data,
                                   ReductionKind reduction) {
  if (reduction == ReductionKind::None ||
      !cast<IterationSpaceOpInterface>(op).isDisposable())
    return {};
  auto copy = dyn_cast_or_null<memref::CopyOp>(op->getPrevNode());
  if (!copy || copy.getTarget() != data || copy.getSource() == data)
    return {};
  if (!data.getDefiningOp<memref::AllocOp>())
    return {};
  auto sourceType = cast<MemRefType>(copy.getSource().getType());
  auto dataType = cast<MemRefType>(data.getType());
  if (!isContiguous(sourceType) || !isContiguous(dataType) ||
      sourceType.getShape() != dataType.getShape())
    return {};
  return copy;
}

/// What a scatter's lowering does first: fails where the element type does
/// not support the reduction; otherwise takes the copy of `data` it can fold
/// (before any IR of the lowering, which would come between the two) and
/// checks the op's shapes.
template <typename OpTy>
static FailureOr<memref::CopyOp> startScatter(OpLowering &l, OpTy op) {
  Value data = op.getData();
  Type elementType = cast<MemRefType>(data.getType()).getElementType();
  if (!isSupportedReduction(op.getReduction(), elementType))
    return op.emitOpError("reduction is not supported for this element type");
  memref::CopyOp copy = foldableCopy(op, data, op.getReduction());
  l.checkShapes();
  return copy;
}

LogicalResult gpu_lowering::lowerScatterND(OpLowering &l, ScatterNDOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value data = op.getData(), indices = op.getIndices(),
        updates = op.getUpdates();
  // The model: the entries are indices.shape[:-1]; component c addresses
  // data dim c, and the row is data.shape[k:].
  RowSizes sizes(op, op->getOperands());
  int64_t k = sizes.numComponents();
  OobMode oob = sizes.addressing().oob;
  FailureOr<memref::CopyOp> started = startScatter(l, op);
  if (failed(started))
    return failure();
  memref::CopyOp copy = *started;

  OpLowering::IndexChecks checks = l.takeIndexChecks(sizes.addressing());
  bool checking = checks.checking;
  RowScatter s;
  s.op = op;
  s.reduction = op.getReduction();
  s.record = l.record;
  s.slot = checks.slot;
  int64_t baseCode = checks.firstCode;

  SmallVector<Value> componentSizes = sizes.componentSizes(b, loc);
  SmallVector<Value> strides = rowMajorStrides(b, loc, componentSizes, &s.rows);
  s.entries = sizes.numEntries(b, loc);
  s.rowLen = sizes.rowLength(b, loc);
  Value kValue = constIndex(b, loc, k);

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    s.data = flatOperand(hb, hloc, data);
    if (copy)
      s.source = flatView(hb, hloc, copy.getSource());
    s.updates = flatOperand(hb, hloc, updates);
    FlatBuffer flatIndices = flatOperand(hb, hloc, indices);
    IndexReader reader{flatIndices.flat, oob, checking ? l.record : nullptr,
                       s.slot};
    s.rowOf = [&, reader](OpBuilder &kb, Location kloc, Value e) {
      return reader.readTupleRow(kb, kloc, e, kValue, componentSizes, strides,
                                 [](OpBuilder &rb, Location rloc) {
                                   return constIndex(rb, rloc, 0);
                                 });
    };
    s.describe = [&, reader](OpBuilder &fb, Location floc, Value position) {
      return describeTupleComponent(fb, floc, reader.flat, position, kValue,
                                    componentSizes, baseCode);
    };
    emitRowScatter(hb, hloc, s);
    finishFlatOperands(hb, hloc, s.data, s.updates, flatIndices);
  });
  if (copy)
    copy.erase();
  return success();
}

/// In the uniform rows test: raises `flag` where a unit of the chunk holds
/// another value than the row's first (`values`: the row's start and first
/// value).
static void noteMismatch(OpBuilder &b, Location loc, Value indices,
                         ValueRange values, const RowChunk &chunk, Value flag,
                         int64_t vl) {
  SmallVector<Value> units =
      loadChunk(b, loc, indices, values[0], chunk, Value(), vl);
  Value differs = constBool(b, loc, false);
  for (auto [k, unit] : llvm::enumerate(units)) {
    for (int64_t i = 0; i < vl; ++i) {
      Value value = unit;
      if (vl > 1)
        value = vector::ExtractOp::create(b, loc, unit, i);
      Value other = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          value, values[1]);
      if (chunk.inside[k])
        other = andBool(b, loc, other, chunk.inside[k]);
      differs = orBool(b, loc, differs, other);
    }
  }
  buildIf(b, loc, differs, [&](OpBuilder &nb, Location nloc) {
    Value one = constInt(nb, nloc, nb.getI32Type(), 1);
    Value zero = constIndex(nb, nloc, 0);
    memref::StoreOp::create(nb, nloc, one, flag, zero);
  });
}

/// The kernel of the uniform rows test: a row whose units hold another
/// value than its first raises `flag`.
static void emitUniformRowsKernel(OpBuilder &b, Location loc, Value indices,
                                  Value rows, Value rowLen, Value flag,
                                  KernelVariant variant) {
  int64_t vl = variant.vectorLength;
  int64_t units = unitsPerThreadFor(rowLen, vl);
  RowLayout layout = rowLayout(b, loc, rows, rowLen, variant, units);
  launchRows(b, loc, layout,
             [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
               Value length = fromIndex(kb, kloc, variant.offsets, rowLen);
               forEachRowChunk(
                   kb, kloc, ids, layout,
                   [&](OpBuilder &rb, Location rloc, Value row) {
                     Value start = mulIndex(rb, rloc, row, length);
                     Value first = loadUnit(rb, rloc, indices, start, 1);
                     return SmallVector<Value>{start, first};
                   },
                   [&](OpBuilder &cb, Location cloc, Value, ValueRange values,
                       const RowChunk &chunk) {
                     noteMismatch(cb, cloc, indices, values, chunk, flag, vl);
                   });
             });
}

/// The flag that chooses between whole rows and elements, on the device: 0
/// where `even` holds and each of the `rows` rows of `rowLen` index values
/// of `indices` (1-D) holds one value, 1 otherwise. Where `even` holds, a
/// kernel raises the flag on the first mismatch it sees; the host does not
/// wait for it (the kernels of both paths read it: guardKernels).
static Value emitUniformRowsFlag(OpBuilder &b, Location loc, Value even,
                                 Value indices, Value rows, Value rowLen) {
  Type i32 = b.getI32Type();
  Value flag = allocFlat(b, loc, i32, 1);
  Value zero = constInt(b, loc, i32, 0);
  Value one = constInt(b, loc, i32, 1);
  Value initial = select(b, loc, even, zero, one);
  gpu::MemsetOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, flag,
                        initial);
  buildIf(b, loc, even, [&](OpBuilder &tb, Location tloc) {
    Type indexType = cast<MemRefType>(indices.getType()).getElementType();
    Value canVector = canMoveVectors(tb, tloc, indexType, rowLen, {indices});
    Value size = flatSize(tb, tloc, indices);
    Value small = fitsIn32Bits(tb, tloc, {size});
    withVariants(tb, tloc, indexType, canVector, small,
                 [&](OpBuilder &vb, Location vloc, KernelVariant variant) {
                   emitUniformRowsKernel(vb, vloc, indices, rows, rowLen, flag,
                                         variant);
                 });
  });
  return flag;
}

namespace {
/// What the two forms of a scatter_elements (elements, or rows of one index)
/// share.
struct ElementsPlan {
  OobMode oob;
  int64_t rank, axis;
  bool checking = false;
  int64_t code = 0;
  SmallVector<Value> dataDims, indexDims, dataStrides;
  Value axisSize;
  /// The flat indices (set on the host, inside the shape checks).
  Value indices;
};
} // namespace

/// How the kernels of a scatter_elements read its index values.
static IndexReader indexReader(const RowScatter &s, const ElementsPlan &p) {
  return {p.indices, p.oob, p.checking ? s.record : nullptr, s.slot};
}

/// Element by element: any dims, any index values. The destination of
/// entry `entry` is its own position with the axis coordinate replaced.
static void scatterElementwise(OpBuilder &b, Location loc, const RowScatter &s,
                               const ElementsPlan &p) {
  RowScatter e = s;
  e.rowOf = [&s, &p](OpBuilder &kb, Location kloc, Value entry) {
    SmallVector<Value> coords = delinearize(kb, kloc, entry, p.indexDims);
    ResolvedIndex index = indexReader(s, p).read(kb, kloc, entry, p.axisSize);
    coords[p.axis] = index.position;
    Value flat = constIndex(kb, kloc, 0);
    for (int64_t d = 0; d < p.rank; ++d) {
      Value term = mulIndex(kb, kloc, coords[d], p.dataStrides[d]);
      flat = addIndex(kb, kloc, flat, term);
    }
    return std::make_pair(flat, index.bad);
  };
  emitRowScatter(b, loc, e);
}

/// Rows of one index: entry `entry` is a row of `rowLen` positions after
/// the axis, keyed by its first index value.
static void scatterIndexRows(OpBuilder &b, Location loc, const RowScatter &s,
                             const ElementsPlan &p, Value rowEntries,
                             Value rowLen) {
  RowScatter r = s;
  Value along = p.indexDims[p.axis];
  // Every row of data, entries or not (the owners write each one where the
  // copy of data is folded in): off the axis, data has the dims of indices.
  Value planes = product(b, loc, ArrayRef(p.dataDims).take_front(p.axis));
  r.entries = rowEntries;
  r.rowLen = rowLen;
  r.rows = mulIndex(b, loc, planes, p.axisSize);
  r.rowOf = [&s, &p, rowLen, along](OpBuilder &kb, Location kloc,
                                   Value entry) {
    Value at = mulIndex(kb, kloc, entry, rowLen);
    ResolvedIndex index = indexReader(s, p).read(kb, kloc, at, p.axisSize);
    Value plane = divIndex(kb, kloc, entry, along);
    Value start = mulIndex(kb, kloc, plane, p.axisSize);
    Value row = addIndex(kb, kloc, start, index.position);
    return std::make_pair(row, index.bad);
  };
  emitRowScatter(b, loc, r);
}

/// The plan: where dims follow the axis and data has the dims of indices
/// off the axis, the positions of indices that differ only after the axis
/// form a contiguous row of both buffers; where every such row holds one
/// index value (an index broadcast along the dims after the axis, as a
/// GNN's aggregation has it), the op scatters whole rows. One pass over the
/// indices finds out on the device; the host launches both paths, and the
/// kernels of the one not chosen return at once (guardKernels), so that
/// the host never waits. Their scratch comes from shapes alone: a call
/// holds the larger of the two paths' scratch (the arena hands the rows'
/// out again to the elements).
static void scatterElementsPlan(OpBuilder &b, Location loc,
                                const RowScatter &s, const ElementsPlan &p) {
  bool hasRows = p.axis + 1 < p.rank;
  if (!hasRows) {
    scatterElementwise(b, loc, s, p);
    return;
  }
  Value evenRows = constBool(b, loc, true);
  for (int64_t d = 0; d < p.rank; ++d) {
    if (d == p.axis)
      continue;
    Value same = cmpIndex(b, loc, arith::CmpIPredicate::eq, p.dataDims[d],
                          p.indexDims[d]);
    evenRows = andBool(b, loc, evenRows, same);
  }
  ArrayRef<Value> dims = p.indexDims;
  Value rowLen = product(b, loc, dims.drop_front(p.axis + 1));
  Value rowEntries = product(b, loc, dims.take_front(p.axis + 1));
  // Rows of no element hold no index value to key them by.
  Value zero = constIndex(b, loc, 0);
  Value nonEmpty = cmpIndex(b, loc, arith::CmpIPredicate::ne, rowLen, zero);
  evenRows = andBool(b, loc, evenRows, nonEmpty);
  if (isConstantIntValue(evenRows, 0)) {
    scatterElementwise(b, loc, s, p);
    return;
  }
  Value flag =
      emitUniformRowsFlag(b, loc, evenRows, p.indices, rowEntries, rowLen);
  buildIf(b, loc, evenRows, [&](OpBuilder &rb, Location rloc) {
    guardKernels(rb, rloc, flag, /*whenZero=*/true,
                 [&](OpBuilder &gb, Location gloc) {
                   scatterIndexRows(gb, gloc, s, p, rowEntries, rowLen);
                 });
  });
  guardKernels(b, loc, flag, /*whenZero=*/false,
               [&](OpBuilder &gb, Location gloc) {
                 scatterElementwise(gb, gloc, s, p);
               });
  dealloc(b, loc, flag);
}

LogicalResult gpu_lowering::lowerScatterElements(OpLowering &l,
                                                 ScatterElementsOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value data = op.getData(), indices = op.getIndices(),
        updates = op.getUpdates();
  // The model: an entry per position of indices, which addresses data at
  // that position with its index value on the axis.
  RowSizes sizes(op, op->getOperands());
  ElementsPlan p;
  p.rank = cast<MemRefType>(data.getType()).getRank();
  p.axis = sizes.componentDim(0);
  p.oob = sizes.addressing().oob;
  FailureOr<memref::CopyOp> started = startScatter(l, op);
  if (failed(started))
    return failure();
  memref::CopyOp copy = *started;

  OpLowering::IndexChecks checks = l.takeIndexChecks(sizes.addressing());
  p.checking = checks.checking;
  p.code = checks.firstCode;
  RowScatter s;
  s.op = op;
  s.reduction = op.getReduction();
  s.useInit = op.getUseInitVal();
  s.record = l.record;
  s.slot = checks.slot;
  p.dataDims = sizes.rowIndexSizes(b, loc);
  p.indexDims = sizes.entrySizes(b, loc);
  p.dataStrides = rowMajorStrides(b, loc, p.dataDims, &s.rows);
  s.entries = product(b, loc, p.indexDims);
  s.rowLen = sizes.rowLength(b, loc);
  p.axisSize = p.dataDims[p.axis];

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    s.data = flatOperand(hb, hloc, data);
    if (copy)
      s.source = flatView(hb, hloc, copy.getSource());
    s.updates = flatOperand(hb, hloc, updates);
    FlatBuffer flatIndices = flatOperand(hb, hloc, indices);
    p.indices = flatIndices.flat;
    s.describe = [&p](OpBuilder &fb, Location floc, Value position) {
      return describeIndexValue(fb, floc, p.indices, position, p.axisSize,
                                p.code);
    };
    scatterElementsPlan(hb, hloc, s, p);
    finishFlatOperands(hb, hloc, s.data, s.updates, flatIndices);
  });
  if (copy)
    copy.erase();
  return success();
}
