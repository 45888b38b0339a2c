//===- Gathers.cpp - nd's gathers as GPU kernels ----------------*- C++ -*-===//
//
// `nd.gather_nd`, `nd.gather` and `nd.gather_elements` on buffers.
//
// The iteration domain of a gather (its result's dims, NdIterationSpace.h) is
// cut into rows: the trailing dims that no index value addresses form a
// contiguous row of `data` per entry (an index tuple of gather_nd, an index
// value of gather), and the row engine (RowEngine.h) moves each row with a
// group of threads, in 16-byte vectors where it can. gather_elements reads
// one element per index value; where its operands have the same dims off the
// axis, the planes before the axis are the blocks of y and no division is
// needed to find a position.
//
// Checks (oob<error> with run-time checks): each index value is checked as
// it is read; a bad one reads as zeros (nothing out of range is touched) and
// notes its position in the op's slot of the error record; one thread then
// records the first one in row-major order (ErrorRecord.h). The result
// buffer is not the caller's until the call succeeds.
//
//===----------------------------------------------------------------------===//

#include "Lowering.h"

#include "RowEngine.h"
#include "Semantics.h"
#include "nd/Conversion/NdToGPU/GPUSupport.h"
#include "nd/Conversion/RowSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

//===----------------------------------------------------------------------===//
// Row gathers
//===----------------------------------------------------------------------===//

namespace {
/// A gather of rows: `entries` rows of `rowLen` elements, row `e` of the
/// result taken from the row `rowOf(e)` of data (or zeros where bad).
struct RowGather {
  FlatBuffer data, indices, into;
  Value entries, rowLen;
  /// In a kernel: the source row of entry `e` and whether it reads zeros.
  std::function<std::pair<Value, Value>(OpBuilder &, Location, Value)> rowOf;
};
} // namespace

/// A row gather of `entries` rows of `rowLen` from `data` into `into`, its
/// operands flattened (on the host); `rowOf` is the caller's.
static RowGather flatRowGather(OpBuilder &b, Location loc, Value data,
                               Value indices, Value into, Value entries,
                               Value rowLen) {
  RowGather g;
  g.data = flatOperand(b, loc, data);
  g.indices = flatOperand(b, loc, indices);
  g.into = flatOperand(b, loc, into, /*readContents=*/false);
  g.entries = entries;
  g.rowLen = rowLen;
  return g;
}

/// The kernel body of a row gather of `layout`.
static void gatherRows(OpBuilder &b, Location loc, const KernelIds &ids,
                       const RowGather &g, const RowLayout &layout) {
  Type type = layout.variant.offsets;
  int64_t vl = layout.variant.vectorLength;
  Value rowLen = fromIndex(b, loc, type, g.rowLen);
  forEachRowChunk(
      b, loc, ids, layout,
      [&](OpBuilder &rb, Location rloc, Value e) {
        Value entry = toIndex(rb, rloc, e);
        auto [row, bad] = g.rowOf(rb, rloc, entry);
        Value source = fromIndex(rb, rloc, type, row);
        Value src = mulIndex(rb, rloc, source, rowLen);
        Value dst = mulIndex(rb, rloc, e, rowLen);
        return SmallVector<Value>{src, dst, bad};
      },
      [&](OpBuilder &cb, Location cloc, Value, ValueRange values,
          const RowChunk &chunk) {
        copyChunk(cb, cloc, chunk, g.data.flat, values[0], g.into.flat,
                  values[1], /*zero=*/values[2], /*skip=*/Value(), vl);
      });
}

static void emitRowGather(OpBuilder &b, Location loc, const RowGather &g) {
  Type elementType = cast<MemRefType>(g.data.flat.getType()).getElementType();
  Value canVector =
      canMoveVectors(b, loc, elementType, g.rowLen, {g.data.flat, g.into.flat});
  Value dataSize = flatSize(b, loc, g.data.flat);
  Value intoSize = flatSize(b, loc, g.into.flat);
  Value small = fitsIn32Bits(b, loc, {dataSize, intoSize});
  withVariants(b, loc, elementType, canVector, small,
               [&](OpBuilder &vb, Location vloc, KernelVariant variant) {
                 int64_t units =
                     unitsPerThreadFor(g.rowLen, variant.vectorLength);
                 RowLayout layout =
                     rowLayout(vb, vloc, g.entries, g.rowLen, variant, units);
                 launchRows(vb, vloc, layout,
                            [&](OpBuilder &kb, Location kloc,
                                const KernelIds &ids) {
                              gatherRows(kb, kloc, ids, g, layout);
                            });
               });
}

/// The index values of a gather checked on their own, where the result has
/// no rows although `indices` has values (a dim of data before the axis is
/// 0; the CPU lowering checks them then too): a row gather of `numIndices`
/// rows of no elements, row `e` read through index value `e`, which notes a
/// bad one as the rows of `g` do and writes nothing.
static void emitAloneIndexCheck(OpBuilder &b, Location loc, const RowGather &g,
                                Value numIndices, const IndexReader &reader,
                                Value axisSize) {
  RowGather alone = g;
  alone.entries = numIndices;
  alone.rowLen = constIndex(b, loc, 0);
  alone.rowOf = [&](OpBuilder &kb, Location kloc, Value e) {
    ResolvedIndex index = reader.read(kb, kloc, e, axisSize);
    return std::make_pair(constIndex(kb, kloc, 0), index.bad);
  };
  Value zero = constIndex(b, loc, 0);
  Value noRows = cmpIndex(b, loc, arith::CmpIPredicate::eq, g.entries, zero);
  buildIf(b, loc, noRows, [&](OpBuilder &cb, Location cloc) {
    emitRowGather(cb, cloc, alone);
  });
}

LogicalResult gpu_lowering::lowerGatherND(OpLowering &l, GatherNDOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value data = op.getData(), indices = op.getIndices(), into = op.getInto();
  // The model: the entries are indices.shape[:-1], the first bDims of them
  // batch dims shared with data; component c addresses data dim bDims + c,
  // and the row is data.shape[bDims + k:].
  RowSizes sizes(op, op->getOperands());
  int64_t bDims = op.getBatchDims();
  int64_t k = sizes.numComponents();
  OobMode oob = sizes.addressing().oob;

  l.checkShapes();

  OpLowering::IndexChecks checks = l.takeIndexChecks(sizes.addressing());
  bool checking = checks.checking;
  int64_t slot = checks.slot, baseCode = checks.firstCode;

  SmallVector<Value> componentSizes = sizes.componentSizes(b, loc);
  Value perBatch;
  SmallVector<Value> strides =
      rowMajorStrides(b, loc, componentSizes, &perBatch);
  SmallVector<Value> entryDims = sizes.entrySizes(b, loc);
  Value entries = product(b, loc, entryDims);
  Value perEntryBatch = product(b, loc, ArrayRef(entryDims).drop_front(bDims));
  Value rowLen = sizes.rowLength(b, loc);
  Value kValue = constIndex(b, loc, k);
  ErrorRecord *record = l.record;

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    RowGather g =
        flatRowGather(hb, hloc, data, indices, into, entries, rowLen);
    Value flatIndices = g.indices.flat;
    IndexReader reader{flatIndices, oob, checking ? record : nullptr, slot};
    g.rowOf = [&](OpBuilder &kb, Location kloc, Value e) {
      // The first row of the tuple's batch.
      auto firstRow = [&](OpBuilder &rb, Location rloc) {
        Value row = constIndex(rb, rloc, 0);
        if (bDims == 0)
          return row;
        Value batch = divIndex(rb, rloc, e, perEntryBatch);
        return mulIndex(rb, rloc, batch, perBatch);
      };
      return reader.readTupleRow(kb, kloc, e, kValue, componentSizes, strides,
                                 firstRow);
    };
    emitRowGather(hb, hloc, g);
    if (checking)
      record->finalize(
          hb, hloc, slot, [&](OpBuilder &fb, Location floc, Value position) {
            return describeTupleComponent(fb, floc, flatIndices, position,
                                          kValue, componentSizes, baseCode);
          });
    finishFlatOperands(hb, hloc, g.into, g.data, g.indices);
  });
  return success();
}

LogicalResult gpu_lowering::lowerGather(OpLowering &l, GatherOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value data = op.getData(), indices = op.getIndices(), into = op.getInto();
  // The model: the entries are data.shape[:axis] ++ indices.shape[bDims:]
  // (the first bDims batch dims, which index the indices as well); the
  // index addresses the axis, and the row is data.shape[axis + 1:].
  RowSizes sizes(op, op->getOperands());
  int64_t axis = sizes.componentDim(0);
  int64_t bDims = op.getBatchDims();
  OobMode oob = sizes.addressing().oob;

  l.checkShapes();

  OpLowering::IndexChecks checks = l.takeIndexChecks(sizes.addressing());
  bool checking = checks.checking;
  int64_t slot = checks.slot, code = checks.firstCode;

  Value outer = product(b, loc, sizes.entrySizes(b, loc, 0, axis));
  Value outerInner = product(b, loc, sizes.entrySizes(b, loc, bDims, axis));
  Value axisSize = sizes.componentSize(b, loc, 0);
  Value rowLen = sizes.rowLength(b, loc);
  Value perBatch = product(b, loc, sizes.entrySizes(b, loc, axis));
  Value entries = mulIndex(b, loc, outer, perBatch);
  Value batch = product(b, loc, sizes.entrySizes(b, loc, 0, bDims));
  Value numIndices = mulIndex(b, loc, batch, perBatch);
  ErrorRecord *record = l.record;

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    RowGather g =
        flatRowGather(hb, hloc, data, indices, into, entries, rowLen);
    Value flatIndices = g.indices.flat;
    IndexReader reader{flatIndices, oob, checking ? record : nullptr, slot};
    g.rowOf = [&](OpBuilder &kb, Location kloc, Value e) {
      Value p = divIndex(kb, kloc, e, perBatch);
      Value n = subIndex(kb, kloc, e, mulIndex(kb, kloc, p, perBatch));
      Value at = n;
      if (bDims > 0) {
        Value batch = divIndex(kb, kloc, p, outerInner);
        at = addIndex(kb, kloc, mulIndex(kb, kloc, batch, perBatch), n);
      }
      ResolvedIndex index = reader.read(kb, kloc, at, axisSize);
      Value row =
          addIndex(kb, kloc, mulIndex(kb, kloc, p, axisSize), index.position);
      return std::make_pair(row, index.bad);
    };
    emitRowGather(hb, hloc, g);
    if (checking) {
      emitAloneIndexCheck(hb, hloc, g, numIndices, reader, axisSize);
      record->finalize(
          hb, hloc, slot, [&](OpBuilder &fb, Location floc, Value position) {
            return describeIndexValue(fb, floc, flatIndices, position,
                                      axisSize, code);
          });
    }
    finishFlatOperands(hb, hloc, g.into, g.data, g.indices);
  });
  return success();
}

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

namespace {
/// The operands of a gather_elements as the kernels see them.
struct ElementsGather {
  OobMode oob;
  int64_t axis;
  FlatBuffer data, indices, into;
  SmallVector<Value> dataDims, indexDims;
  Value axisSize;
  ErrorRecord *record = nullptr;
  int64_t slot = -1;

  /// How the kernels read `indices` (checked where a slot is taken).
  IndexReader indexReader() const {
    return {indices.flat, oob, slot >= 0 ? record : nullptr, slot};
  }
};
} // namespace

/// In a kernel: result element `f` from the data element at `planeBase +
/// pos * stride + offset`, where `pos` is the index value at `f` resolved.
static void gatherElement(OpBuilder &b, Location loc, const ElementsGather &g,
                          Value f, Value planeBase, Value stride,
                          Value offset) {
  Type elementType = cast<MemRefType>(g.data.flat.getType()).getElementType();
  ResolvedIndex index = g.indexReader().read(b, loc, f, g.axisSize);
  buildIfElse(
      b, loc, index.bad,
      [&](OpBuilder &zb, Location zloc) {
        Value zero = zeroValue(zb, zloc, elementType);
        memref::StoreOp::create(zb, zloc, zero, g.into.flat, f);
      },
      [&](OpBuilder &cb, Location cloc) {
        Value at = addIndex(cb, cloc, planeBase,
                            mulIndex(cb, cloc, index.position, stride));
        at = addIndex(cb, cloc, at, offset);
        Value v = memref::LoadOp::create(cb, cloc, g.data.flat, at);
        memref::StoreOp::create(cb, cloc, v, g.into.flat, f);
      });
}

namespace {
/// How an elements gather's positions fall into planes: `planes` planes (the
/// dims of indices before the axis), each of `plane` positions of indices
/// and `dataPlane` of data, `inner` positions after the axis (known to be 1
/// where `innerIsOne`).
struct ElementPlanes {
  Value planes, inner, plane, dataPlane;
  bool innerIsOne = true;
};
} // namespace

static ElementPlanes planesOf(OpBuilder &b, Location loc,
                              const ElementsGather &g) {
  ElementPlanes shape;
  int64_t rank = g.indexDims.size();
  shape.planes = product(b, loc, ArrayRef(g.indexDims).take_front(g.axis));
  shape.inner = product(b, loc, ArrayRef(g.indexDims).drop_front(g.axis + 1));
  Value along = g.indexDims[g.axis];
  shape.plane = mulIndex(b, loc, along, shape.inner);
  shape.dataPlane = mulIndex(b, loc, g.axisSize, shape.inner);
  for (int64_t d = g.axis + 1; d < rank; ++d)
    shape.innerIsOne &= getConstantIntValue(g.indexDims[d]) == 1;
  return shape;
}

/// Off the axis, data has the dims of indices: planes `o` (the dims before
/// the axis) are the blocks of y, positions `t` in a plane those of x.
static void emitEvenElementsGather(OpBuilder &b, Location loc,
                                   const ElementsGather &g) {
  ElementPlanes shape = planesOf(b, loc, g);
  Value planes = shape.planes, inner = shape.inner, plane = shape.plane;
  Value dataPlane = shape.dataPlane;
  bool innerIsOne = shape.innerIsOne;
  Value gridX = gridFor(b, loc, plane, kBlockSize);
  Value block = constIndex(b, loc, kBlockSize);
  Value gridY = gridFor(b, loc, planes, constIndex(b, loc, 1), kMaxBlocksY);
  launch(b, loc, gridX, gridY, kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           buildFor(
               kb, kloc, ids.blockY, planes, ids.gridY,
               [&](OpBuilder &ob, Location oloc, Value o) {
                 Value fBase = mulIndex(ob, oloc, o, plane);
                 Value dBase = mulIndex(ob, oloc, o, dataPlane);
                 Value first =
                     addIndex(ob, oloc, mulIndex(ob, oloc, ids.blockX, block),
                              ids.threadX);
                 Value step = mulIndex(ob, oloc, ids.gridX, block);
                 buildFor(ob, oloc, first, plane, step,
                          [&](OpBuilder &tb, Location tloc, Value t) {
                            Value f = addIndex(tb, tloc, fBase, t);
                            Value offset = constIndex(tb, tloc, 0);
                            if (!innerIsOne)
                              offset = remIndex(tb, tloc, t, inner);
                            gatherElement(tb, tloc, g, f, dBase, inner, offset);
                          });
               });
         });
}

/// Positions of a gather_elements each thread of the vector kernel takes.
static constexpr int64_t kElementsPerThread = 4;

/// In the vector kernel: the data element of result position `f` (its index
/// value `raw`, `t` its position in the plane), or zero where bad.
static Value gatherOne(OpBuilder &b, Location loc, const ElementsGather &g,
                       Type type, Value raw, Value f, Value t, Value dBase,
                       Value inner, bool innerIsOne) {
  Type elementType = cast<MemRefType>(g.data.flat.getType()).getElementType();
  ResolvedIndex index = g.indexReader().resolve(
      b, loc, raw, g.axisSize,
      [&](OpBuilder &nb, Location nloc) { return toIndex(nb, nloc, f); });
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{elementType}, index.bad,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, zeroValue(b, loc, elementType));
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value position = fromIndex(b, loc, type, index.position);
  Value at = addIndex(b, loc, dBase, mulIndex(b, loc, position, inner));
  if (!innerIsOne)
    at = addIndex(b, loc, at, remIndex(b, loc, t, inner));
  Value atIndex = toIndex(b, loc, at);
  Value v = memref::LoadOp::create(b, loc, g.data.flat, ValueRange{atIndex});
  scf::YieldOp::create(b, loc, v);
  return ifOp.getResult(0);
}

/// In the vector kernel: result positions `[f, f + 4)`: their index values
/// in one vector load, the data elements one by one, the results in one
/// vector store.
static void gatherFour(OpBuilder &b, Location loc, const ElementsGather &g,
                       Type type, Value f, Value t, Value dBase, Value inner,
                       bool innerIsOne) {
  Type elementType = cast<MemRefType>(g.data.flat.getType()).getElementType();
  Type indexType = cast<MemRefType>(g.indices.flat.getType()).getElementType();
  auto indexVector = VectorType::get({kElementsPerThread}, indexType);
  Value fIndex = toIndex(b, loc, f);
  Value raws = vector::LoadOp::create(b, loc, indexVector, g.indices.flat,
                                      ValueRange{fIndex},
                                      /*nontemporal=*/false, llvm::Align(16));
  SmallVector<Value> values;
  for (int64_t j = 0; j < kElementsPerThread; ++j) {
    Value raw = vector::ExtractOp::create(b, loc, raws, j);
    Value rawIndex = toIndex(b, loc, raw);
    Value jValue = constInt(b, loc, type, j);
    Value fj = addIndex(b, loc, f, jValue);
    Value tj = addIndex(b, loc, t, jValue);
    values.push_back(gatherOne(b, loc, g, type, rawIndex, fj, tj, dBase,
                               inner, innerIsOne));
  }
  auto resultVector = VectorType::get({kElementsPerThread}, elementType);
  Value result = vector::FromElementsOp::create(b, loc, resultVector, values);
  int64_t bytes = kElementsPerThread * elementType.getIntOrFloatBitWidth() / 8;
  vector::StoreOp::create(b, loc, result, g.into.flat, ValueRange{fIndex},
                          /*nontemporal=*/false,
                          llvm::Align(std::min<int64_t>(bytes, 16)));
}

/// Off the axis, data has the dims of indices and a plane is a whole number
/// of vectors of four positions: each thread takes four positions, reading
/// their index values in one vector and writing their results in one.
static void emitVectorElementsGather(OpBuilder &b, Location loc,
                                     const ElementsGather &g, Type type) {
  ElementPlanes shape = planesOf(b, loc, g);
  Value planes = shape.planes, inner = shape.inner, plane = shape.plane;
  Value dataPlane = shape.dataPlane;
  bool innerIsOne = shape.innerIsOne;
  Value four = constIndex(b, loc, kElementsPerThread);
  Value quads = divIndex(b, loc, plane, four);
  Value gridX = gridFor(b, loc, quads, kBlockSize);
  Value gridY = gridFor(b, loc, planes, constIndex(b, loc, 1), kMaxBlocksY);
  launch(b, loc, gridX, gridY, kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           Value planeT = fromIndex(kb, kloc, type, plane);
           Value dataPlaneT = fromIndex(kb, kloc, type, dataPlane);
           Value innerT = fromIndex(kb, kloc, type, inner);
           Value fourT = constInt(kb, kloc, type, kElementsPerThread);
           Value blockY = fromIndex(kb, kloc, type, ids.blockY);
           Value gridYT = fromIndex(kb, kloc, type, ids.gridY);
           Value planesT = fromIndex(kb, kloc, type, planes);
           buildFor(kb, kloc, blockY, planesT, gridYT,
                    [&](OpBuilder &ob, Location oloc, Value o) {
                      Value fBase = mulIndex(ob, oloc, o, planeT);
                      Value dBase = mulIndex(ob, oloc, o, dataPlaneT);
                      gridStrideLoop(
                          ob, oloc, ids, quads,
                          [&](OpBuilder &tb, Location tloc, Value q) {
                            Value qT = fromIndex(tb, tloc, type, q);
                            Value t = mulIndex(tb, tloc, qT, fourT);
                            Value f = addIndex(tb, tloc, fBase, t);
                            gatherFour(tb, tloc, g, type, f, t, dBase, innerT,
                                       innerIsOne);
                          });
                    });
         });
}

/// Any dims: each position is delinearized.
static void emitGeneralElementsGather(OpBuilder &b, Location loc,
                                      const ElementsGather &g) {
  int64_t rank = g.indexDims.size();
  SmallVector<Value> dataStrides = rowMajorStrides(b, loc, g.dataDims);
  Value total = product(b, loc, g.indexDims);
  Value grid = gridFor(b, loc, total, kBlockSize);
  launch(
      b, loc, grid, Value(), kBlockSize,
      [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
        gridStrideLoop(
            kb, kloc, ids, total, [&](OpBuilder &lb, Location lloc, Value f) {
              SmallVector<Value> coords = delinearize(lb, lloc, f, g.indexDims);
              Value base = constIndex(lb, lloc, 0);
              for (int64_t d = 0; d < rank; ++d) {
                if (d == g.axis)
                  continue;
                Value term = mulIndex(lb, lloc, coords[d], dataStrides[d]);
                base = addIndex(lb, lloc, base, term);
              }
              Value zero = constIndex(lb, lloc, 0);
              gatherElement(lb, lloc, g, f, base, dataStrides[g.axis], zero);
            });
      });
}

/// Whether the even kernel can take four positions a thread: planes of
/// whole vectors, an element type with vectors, 16-byte aligned buffers.
static Value canGatherFour(OpBuilder &b, Location loc,
                           const ElementsGather &g) {
  Type elementType = cast<MemRefType>(g.data.flat.getType()).getElementType();
  if (!isVectorizable(elementType))
    return constBool(b, loc, false);
  Value plane = product(b, loc, ArrayRef(g.indexDims).drop_front(g.axis));
  Value four = constIndex(b, loc, kElementsPerThread);
  Value zero = constIndex(b, loc, 0);
  Value rest = remIndex(b, loc, plane, four);
  Value ok = cmpIndex(b, loc, arith::CmpIPredicate::eq, rest, zero);
  for (Value buffer : {g.indices.flat, g.into.flat}) {
    Value address = addressOf(b, loc, buffer, zero);
    ok = andBool(b, loc, ok, isAligned(b, loc, address, 16));
  }
  return ok;
}

/// The even form: four positions a thread where it can (32-bit offsets
/// where the buffers allow), one otherwise.
static void emitEvenChoice(OpBuilder &b, Location loc,
                           const ElementsGather &g) {
  Value four = canGatherFour(b, loc, g);
  Value dataSize = flatSize(b, loc, g.data.flat);
  Value intoSize = flatSize(b, loc, g.into.flat);
  Value small = fitsIn32Bits(b, loc, {dataSize, intoSize});
  buildIfElse(
      b, loc, four,
      [&](OpBuilder &vb, Location vloc) {
        Type i32 = vb.getI32Type(), index = vb.getIndexType();
        buildIfElse(
            vb, vloc, small,
            [&](OpBuilder &nb, Location nloc) {
              emitVectorElementsGather(nb, nloc, g, i32);
            },
            [&](OpBuilder &nb, Location nloc) {
              emitVectorElementsGather(nb, nloc, g, index);
            });
      },
      [&](OpBuilder &sb, Location sloc) {
        emitEvenElementsGather(sb, sloc, g);
      });
}

LogicalResult gpu_lowering::lowerGatherElements(OpLowering &l,
                                                GatherElementsOp op) {
  OpBuilder &b = l.b;
  Location loc = l.loc;
  Value data = op.getData(), indices = op.getIndices(), into = op.getInto();
  // The model: an entry per position of indices, which reads data at that
  // position with its index value on the axis (rows of one element).
  RowSizes sizes(op, op->getOperands());
  int64_t rank = op.getData().getType().getRank();
  int64_t axis = sizes.componentDim(0);

  l.checkShapes();

  ElementsGather g;
  g.oob = sizes.addressing().oob;
  g.axis = axis;
  OpLowering::IndexChecks checks = l.takeIndexChecks(sizes.addressing());
  bool checking = checks.checking;
  int64_t code = checks.firstCode;
  if (checking) {
    g.record = l.record;
    g.slot = checks.slot;
  }
  g.dataDims = sizes.rowIndexSizes(b, loc);
  g.indexDims = sizes.entrySizes(b, loc);
  g.axisSize = g.dataDims[axis];

  // Off the axis, equal dims (known, or found at run time).
  Value even = constBool(b, loc, true);
  for (int64_t d = 0; d < rank; ++d) {
    if (d == axis)
      continue;
    Value same = cmpIndex(b, loc, arith::CmpIPredicate::eq, g.dataDims[d],
                          g.indexDims[d]);
    even = andBool(b, loc, even, same);
  }

  buildIf(b, loc, l.ok(), [&](OpBuilder &hb, Location hloc) {
    g.data = flatOperand(hb, hloc, data);
    g.indices = flatOperand(hb, hloc, indices);
    g.into = flatOperand(hb, hloc, into, /*readContents=*/false);
    buildIfElse(
        hb, hloc, even,
        [&](OpBuilder &eb, Location eloc) { emitEvenChoice(eb, eloc, g); },
        [&](OpBuilder &eb, Location eloc) {
          emitGeneralElementsGather(eb, eloc, g);
        });
    if (checking) {
      Value flatIndices = g.indices.flat;
      Value axisSize = g.axisSize;
      l.record->finalize(
          hb, hloc, g.slot, [&](OpBuilder &fb, Location floc, Value position) {
            return describeIndexValue(fb, floc, flatIndices, position,
                                      axisSize, code);
          });
    }
    finishFlatOperands(hb, hloc, g.into, g.data, g.indices);
  });
  return success();
}
