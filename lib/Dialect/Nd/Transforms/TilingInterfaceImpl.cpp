//===- TilingInterfaceImpl.cpp - tiling nd ops ------------------*- C++ -*-===//
//
// Upstream's TilingInterface for the six nd ops, from the one model of their
// iteration space (NdIterationSpace.h), so that upstream's tiling and fusion
// (`tile_using_forall`, `tile_using_for`, `fuse_into_containing_op`,
// `structured.fuse`) work on them.
//
// The iteration domain is the op's iterated loops: a gather's result dims, a
// scatter's update dims (entries, then slice positions). A tile of the domain
// is the same nd op on slices of its operands, the slices the indexing maps
// give; dims of `data` that index values address are never cut, so the index
// values keep their meaning (negative values, `oob` modes, checks) and the
// fast lowering applies to each tile. A scatter's tile updates the slice of
// its destination (the scatters are destination-style on `data`).
//
// What may be cut and how (NdLoop's kinds):
// - Independent loops: any tiling; tiles never touch the same element;
// - Entries: a scatter applies its entries in row-major order, so tiles of
//   the entries must run one after the other, in order (`tile_using_for`):
//   each tile then applies its entries, in order, to what the tiles before
//   left, and every element sees the same sequence of updates as untiled.
//   A tile whose offset comes from a parallel loop (`scf.forall`,
//   `scf.parallel`) is refused, unless the entries provably never collide
//   and the scatter is on buffers (on tensors, every tile of the entries
//   yields the whole destination: parallel tiles would overlap);
// - Whole loops (a TensorScatter's sequence, OpenVINO's one-element updates,
//   the entries of a scatter_elements under `mean` or `use_init_val(false)`,
//   which need every update of an element at once) are never cut.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/TilingInterfaceImpl.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/IR/NdRowAddressing.h"
#include "nd/Dialect/Nd/Utils/ElementSemantics.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::nd;

//===----------------------------------------------------------------------===//
// Values, sizes and slices
//===----------------------------------------------------------------------===//

static OpFoldResult sizeOf(OpBuilder &b, Location loc, Value value,
                           int64_t dim) {
  if (isa<MemRefType>(value.getType()))
    return memref::getMixedSize(b, loc, value, dim);
  return tensor::getMixedSize(b, loc, value, dim);
}

/// The extent of `loop`: the size of the dim its model names.
static OpFoldResult extentOf(OpBuilder &b, Operation *op, const NdLoop &loop) {
  return sizeOf(b, op->getLoc(), op->getOperand(loop.extentValue),
                loop.extentDim);
}

/// Whether `size` is the whole of dim `dim` of `value`: equal constants, or
/// a `tensor.dim` / `memref.dim` of that very dim (as getIterationDomain
/// gives it and tiling hands it back for an untiled loop).
static bool isWholeDim(OpFoldResult size, Value value, int64_t dim) {
  int64_t staticSize = cast<ShapedType>(value.getType()).getDimSize(dim);
  std::optional<int64_t> constant = getConstantIntValue(size);
  if (!ShapedType::isDynamic(staticSize))
    return constant && *constant == staticSize;
  auto sizeValue = dyn_cast<Value>(size);
  if (!sizeValue)
    return false;
  Value source;
  std::optional<int64_t> index;
  if (auto dimOp = sizeValue.getDefiningOp<tensor::DimOp>()) {
    source = dimOp.getSource();
    index = dimOp.getConstantIndex();
  } else if (auto dimOp = sizeValue.getDefiningOp<memref::DimOp>()) {
    source = dimOp.getSource();
    index = dimOp.getConstantIndex();
  }
  return source == value && index && *index == dim;
}

/// Whether a tile `[offset, offset + size)` of dim `dim` of `value` is the
/// whole dim.
static bool isWholeTile(OpFoldResult offset, OpFoldResult size, Value value,
                        int64_t dim) {
  std::optional<int64_t> start = getConstantIntValue(offset);
  return start && *start == 0 && isWholeDim(size, value, dim);
}

/// Whether a tile `[offset, offset + size)` of `loop` covers it whole.
static bool coversLoop(Operation *op, const NdLoop &loop, OpFoldResult offset,
                       OpFoldResult size) {
  return isWholeTile(offset, size, op->getOperand(loop.extentValue),
                     loop.extentDim);
}

/// A slice of a tensor or a view of a buffer.
static Value sliceOf(OpBuilder &b, Location loc, Value value,
                     ArrayRef<OpFoldResult> offsets,
                     ArrayRef<OpFoldResult> sizes) {
  SmallVector<OpFoldResult> strides(offsets.size(), b.getIndexAttr(1));
  if (isa<MemRefType>(value.getType()))
    return memref::SubViewOp::create(b, loc, value, offsets, sizes, strides);
  return tensor::ExtractSliceOp::create(b, loc, value, offsets, sizes, strides);
}

/// Whether `value` depends on the induction variable of a parallel loop
/// (`scf.forall`, `scf.parallel`).
static bool dependsOnParallelLoop(Value value) {
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(current)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (isa_and_nonnull<scf::ForallOp, scf::ParallelOp>(owner))
        return true;
      continue;
    }
    Operation *def = current.getDefiningOp();
    if (!def)
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

//===----------------------------------------------------------------------===//
// The model
//===----------------------------------------------------------------------===//

/// The value whose dims are those of value `v` (map order): an operand, or
/// for the result (which tiling replaces) the operand it has the shape of,
/// the destination of a scatter. Only a scatter's result has dims on loops
/// that no tile cuts.
static Value wholeValue(Operation *op, const IterationSpace &space,
                        unsigned v) {
  if (v < op->getNumOperands())
    return op->getOperand(v);
  return op->getOperand(space.destination.value_or(0));
}

/// The value whose dims value `v` (map order) has, where they may differ from
/// its loops' extents: an operand's own, a scatter's result its
/// destination's; null for a gather's result, whose dims are its loops'.
static Value ownDims(Operation *op, const IterationSpace &space, unsigned v) {
  if (v < op->getNumOperands())
    return op->getOperand(v);
  if (space.destination)
    return op->getOperand(*space.destination);
  return Value();
}

/// Whether dim `d` of value `v` (map order), on an iterated loop, may be
/// larger than the loop's extent as far as the types tell: `data` off the
/// axis of the Elements ops (and a scatter_elements' result) need only be at
/// least as large as `indices`. A tile of the loop then covers positions
/// `[0, extent)` of the dim only; the rest of it is no tile's.
static bool mayExceedLoop(Operation *op, const IterationSpace &space,
                          unsigned v, int64_t d) {
  const NdLoop &loop = space.loops[space.loopOf(v, d)];
  Value own = ownDims(op, space, v);
  Value extent = op->getOperand(loop.extentValue);
  if (!loop.uneven || !own || own == extent)
    return false;
  int64_t size = cast<ShapedType>(own.getType()).getDimSize(d);
  int64_t extentSize =
      cast<ShapedType>(extent.getType()).getDimSize(loop.extentDim);
  return ShapedType::isDynamic(size) || size != extentSize;
}

/// Whether two tiles of `loop` are the same: the same offsets and sizes, or
/// both the whole loop (a dim the loop's extent is not read from may give
/// its size as another value).
static bool sameLoopTile(Operation *op, const NdLoop &loop, OpFoldResult o1,
                         OpFoldResult s1, OpFoldResult o2, OpFoldResult s2) {
  if (isEqualConstantIntOrValue(o1, o2) && isEqualConstantIntOrValue(s1, s2))
    return true;
  return coversLoop(op, loop, o1, s1) && coversLoop(op, loop, o2, s2);
}

namespace {
/// The tiles an op's operands and result take for a tile of its iteration
/// domain.
struct OperandTiles {
  SmallVector<SmallVector<OpFoldResult>> offsets, sizes;
};
} // namespace

/// Why `op` has no tiles: a value with a static dim of size 0, or an empty
/// string. The op has no elements to tile, MLIR 22's slices of such a dim do
/// not verify (a static offset must be below the dim's size, 0 included),
/// and a loop of tiles over an empty dim never runs, so that the index
/// values its tiles would check are never checked (the untiled op checks
/// them, result empty or not).
static std::string whyNoTiles(Operation *op, const IterationSpace &space) {
  for (auto [v, name] : llvm::enumerate(space.names)) {
    Type type = v < op->getNumOperands() ? op->getOperand(v).getType()
                                         : op->getResult(0).getType();
    ArrayRef<int64_t> shape = cast<ShapedType>(type).getShape();
    for (auto [d, size] : llvm::enumerate(shape)) {
      if (size != 0)
        continue;
      return "'" + name.str() + "' has no elements (dim " + std::to_string(d) +
             " has size 0): there is nothing to tile, and tiles that never "
             "run would leave the index values unchecked";
    }
  }
  return {};
}

/// Why the loops that tile `op` itself cannot yield its result, or an empty
/// string: a gather's result type that leaves a dim dynamic where its
/// operands give a static size. Upstream's tiling yields the loops' results
/// in a destination it builds from those sizes (MLIR 22's
/// `tensor::getOrCreateDestination`), of another type than the result it
/// replaces. (A scatter's destination is its own operand; fusion into a
/// consumer's tiles builds no destination.)
static std::string whyNoDestination(Operation *op,
                                    const IterationSpace &space) {
  if (space.destination || op->getNumResults() != 1)
    return {};
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  unsigned resultValue = space.maps.size() - 1;
  for (int64_t d = 0, e = type.getRank(); d < e; ++d) {
    if (!type.isDynamicDim(d))
      continue;
    const NdLoop &loop = space.loops[space.loopOf(resultValue, d)];
    auto extentType =
        cast<ShapedType>(op->getOperand(loop.extentValue).getType());
    int64_t size = extentType.getDimSize(loop.extentDim);
    if (ShapedType::isDynamic(size))
      continue;
    return "its result type leaves dim " + std::to_string(d) +
           " dynamic where dim " + std::to_string(loop.extentDim) + " of '" +
           space.names[loop.extentValue].str() + "' gives " +
           std::to_string(size) +
           ": the loops of tiles would yield a result of another type (MLIR "
           "22 builds their destination from the operands' sizes); make the "
           "result type as static as the operands, or fuse the op into a "
           "tiled consumer";
  }
  return {};
}

/// Why `op` cannot run on the tile `[offsets, offsets + sizes)` of its
/// iteration domain, or an empty string when it can.
static std::string whyNotTileable(Operation *op, const IterationSpace &space,
                                  ArrayRef<OpFoldResult> offsets,
                                  ArrayRef<OpFoldResult> sizes) {
  std::string why = whyNoTiles(op, space);
  if (!why.empty())
    return why;
  for (int64_t i = 0, e = space.numIterated(); i < e; ++i) {
    const NdLoop &loop = space.loops[i];
    if (coversLoop(op, loop, offsets[i], sizes[i]))
      continue;
    std::string where = "loop " + std::to_string(i) + " (dim " +
                        std::to_string(loop.extentDim) + " of '" +
                        space.names[loop.extentValue].str() + "')";
    switch (loop.kind) {
    case LoopKind::Independent:
      break;
    case LoopKind::Whole:
      return where + " cannot be tiled: " + loop.whyWhole.str();
    case LoopKind::Entries: {
      auto value = dyn_cast<Value>(offsets[i]);
      if (!value || !dependsOnParallelLoop(value))
        break;
      if (loop.ordered)
        return where +
               " holds the update entries, which apply in row-major order: "
               "tile it with sequential loops (scf.for), not in parallel";
      // Entries that never collide (distinct constant indices) write
      // disjoint elements, but each tile of them takes the whole
      // destination: on tensors it yields all of it (parallel tiles would
      // overlap), on buffers the lowering may copy a view of it in and back.
      return where + " holds the update entries: each tile of them takes "
                     "the whole destination, so tiles of the entries cannot "
                     "run in parallel, even where they never collide (tile "
                     "them with sequential loops, scf.for)";
    }
    case LoopKind::Indexed:
    case LoopKind::Component:
      return where + " is not iterated";
    }
  }
  return {};
}

/// The tiles of every value of `op` (map order) for the tile `[offsets,
/// offsets + sizes)` of its iteration domain: a dim on an iterated loop takes
/// the loop's tile (the whole dim where the tile is the whole loop and the
/// dim may be larger), any other dim is whole.
static OperandTiles tilesOf(OpBuilder &b, Operation *op,
                            const IterationSpace &space,
                            ArrayRef<OpFoldResult> offsets,
                            ArrayRef<OpFoldResult> sizes) {
  Location loc = op->getLoc();
  int64_t numIterated = space.numIterated();
  OperandTiles tiles;
  for (auto [v, map] : llvm::enumerate(space.maps)) {
    SmallVector<OpFoldResult> valueOffsets, valueSizes;
    for (int64_t d = 0, e = map.getNumResults(); d < e; ++d) {
      unsigned loop = space.loopOf(v, d);
      if (loop < numIterated && mayExceedLoop(op, space, v, d) &&
          coversLoop(op, space.loops[loop], offsets[loop], sizes[loop])) {
        valueOffsets.push_back(b.getIndexAttr(0));
        valueSizes.push_back(sizeOf(b, loc, ownDims(op, space, v), d));
        continue;
      }
      if (loop < numIterated) {
        valueOffsets.push_back(offsets[loop]);
        valueSizes.push_back(sizes[loop]);
        continue;
      }
      valueOffsets.push_back(b.getIndexAttr(0));
      valueSizes.push_back(sizeOf(b, loc, wholeValue(op, space, v), d));
    }
    tiles.offsets.push_back(std::move(valueOffsets));
    tiles.sizes.push_back(std::move(valueSizes));
  }
  return tiles;
}

/// Whether the tile `[offset, offset + size)` of dim `d` of value `v` (map
/// order) is a tile of the loop the dim is on: any tile of a dim on an
/// iterated loop, unless the dim may be larger than the loop (then only the
/// whole dim, which is the whole loop); only the whole dim on other loops.
static bool isLoopTile(Operation *op, const IterationSpace &space, unsigned v,
                       int64_t d, OpFoldResult offset, OpFoldResult size) {
  if (space.loopOf(v, d) >= space.numIterated())
    return isWholeTile(offset, size, wholeValue(op, space, v), d);
  if (mayExceedLoop(op, space, v, d))
    return isWholeTile(offset, size, ownDims(op, space, v), d);
  return true;
}

/// The tile of the iteration domain that the tiles of some values (map
/// order, `valueNumbers`) cover: each loop of theirs takes their tile, every
/// other iterated loop is whole. Fails where a tile is not one of its loop
/// (isLoopTile), or two tiles cut one loop differently.
static LogicalResult
domainTileOf(OpBuilder &b, Operation *op, const IterationSpace &space,
             ArrayRef<unsigned> valueNumbers,
             ArrayRef<SmallVector<OpFoldResult>> allOffsets,
             ArrayRef<SmallVector<OpFoldResult>> allSizes,
             SmallVectorImpl<OpFoldResult> &domainOffsets,
             SmallVectorImpl<OpFoldResult> &domainSizes) {
  int64_t numIterated = space.numIterated();
  domainOffsets.assign(numIterated, OpFoldResult());
  domainSizes.assign(numIterated, OpFoldResult());
  for (auto [v, offsets, sizes] :
       llvm::zip_equal(valueNumbers, allOffsets, allSizes)) {
    for (int64_t d = 0, e = offsets.size(); d < e; ++d) {
      if (!isLoopTile(op, space, v, d, offsets[d], sizes[d]))
        return failure();
      unsigned loop = space.loopOf(v, d);
      if (loop >= numIterated)
        continue;
      const NdLoop &nd = space.loops[loop];
      OpFoldResult offset = offsets[d], size = sizes[d];
      // A whole dim larger than its loop is the whole loop.
      if (mayExceedLoop(op, space, v, d)) {
        offset = b.getIndexAttr(0);
        size = extentOf(b, op, nd);
      }
      if (domainOffsets[loop]) {
        if (!sameLoopTile(op, nd, domainOffsets[loop], domainSizes[loop],
                          offset, size))
          return failure();
        continue;
      }
      domainOffsets[loop] = offset;
      domainSizes[loop] = size;
    }
  }
  for (int64_t i = 0; i < numIterated; ++i) {
    if (domainOffsets[i])
      continue;
    domainOffsets[i] = b.getIndexAttr(0);
    domainSizes[i] = extentOf(b, op, space.loops[i]);
  }
  return success();
}

/// Whether some tiles of values are tiles of their loops (isLoopTile; no IR
/// built).
static bool areLoopTiles(Operation *op, const IterationSpace &space,
                         ArrayRef<unsigned> valueNumbers,
                         ArrayRef<SmallVector<OpFoldResult>> allOffsets,
                         ArrayRef<SmallVector<OpFoldResult>> allSizes) {
  for (auto [v, offsets, sizes] :
       llvm::zip_equal(valueNumbers, allOffsets, allSizes))
    for (int64_t d = 0, e = offsets.size(); d < e; ++d)
      if (!isLoopTile(op, space, v, d, offsets[d], sizes[d]))
        return false;
  return true;
}

/// The op on the tiles `tiles` of its values: slices of its operands; a
/// scatter's result is its destination's tile, a gather's has the result
/// tile's sizes.
static FailureOr<TilingResult> buildTile(OpBuilder &b, Operation *op,
                                         const IterationSpace &space,
                                         const OperandTiles &tiles) {
  Location loc = op->getLoc();
  TilingResult result;
  SmallVector<Value> operands;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    Value slice = sliceOf(b, loc, operand, tiles.offsets[i], tiles.sizes[i]);
    result.generatedSlices.push_back(slice.getDefiningOp());
    operands.push_back(slice);
  }
  SmallVector<Type> resultTypes;
  if (op->getNumResults() == 1) {
    if (space.destination) {
      resultTypes.push_back(operands[*space.destination].getType());
    } else {
      auto type = cast<RankedTensorType>(op->getResult(0).getType());
      SmallVector<int64_t> shape;
      for (OpFoldResult size : tiles.sizes.back())
        shape.push_back(
            getConstantIntValue(size).value_or(ShapedType::kDynamic));
      resultTypes.push_back(type.clone(shape));
    }
  }
  Operation *tiled = mlir::clone(b, op, resultTypes, operands);
  result.tiledOps.push_back(tiled);
  llvm::append_range(result.tiledValues, tiled->getResults());
  return result;
}

//===----------------------------------------------------------------------===//
// A consumer's tile of the result (generateResultTileValue)
//===----------------------------------------------------------------------===//

namespace {
/// How a consumer's tile of an op's result is computed.
struct ResultTilePlan {
  /// The tile of the iteration domain the op runs on.
  SmallVector<OpFoldResult> domainOffsets, domainSizes;
  /// The result dims larger than their loop that the consumer's tile cuts,
  /// with the consumer's tile of each: `(dim, offset, size)`, the tile of
  /// the destination (and the result) there.
  SmallVector<std::tuple<int64_t, OpFoldResult, OpFoldResult>> beyondLoop;
  /// Whether the op computes the tile widened over the dims index values
  /// address, and where the consumer's tile lies in it.
  bool widened = false;
  SmallVector<OpFoldResult> innerOffsets;
};
} // namespace

/// The part `[min(o, n), min(o + s, n))` of a loop of extent `n` that the
/// tile `[o, o + s)` of a larger dim on it covers, as (offset, size): empty
/// where the tile lies past the loop.
static std::pair<OpFoldResult, OpFoldResult>
partInLoop(OpBuilder &b, Operation *op, const NdLoop &loop, OpFoldResult offset,
           OpFoldResult size) {
  Location loc = op->getLoc();
  MLIRContext *ctx = b.getContext();
  OpFoldResult extent = extentOf(b, op, loop);
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
             d2 = getAffineDimExpr(2, ctx);
  auto startMap = AffineMap::get(2, 0, {d0, d1}, ctx);
  OpFoldResult start =
      affine::makeComposedFoldedAffineMin(b, loc, startMap, {offset, extent});
  auto endMap = AffineMap::get(3, 0, {d0 + d1, d2}, ctx);
  OpFoldResult end = affine::makeComposedFoldedAffineMin(
      b, loc, endMap, {offset, size, extent});
  OpFoldResult length =
      affine::makeComposedFoldedAffineApply(b, loc, d0 - d1, {end, start});
  return {start, length};
}

/// The plan for the consumer's tile `[offsets, offsets + sizes)` of `op`'s
/// result. A scatter's result dims that index values address are never cut:
/// where the consumer's tile cuts them, the op computes the tile widened to
/// the whole dims and the consumer's part is sliced out of it (recomputed per
/// consumer tile, as fusion does, but of its other dims only). A result dim
/// larger than its loop (a scatter_elements' data off the axis, wider than
/// its indices) is cut as the consumer asks: the op runs on that tile of
/// data and on the part of the loop inside it (partInLoop), never on slices
/// of indices and updates past their extent.
static ResultTilePlan planResultTile(OpBuilder &b, Operation *op,
                                     const IterationSpace &space,
                                     ArrayRef<OpFoldResult> offsets,
                                     ArrayRef<OpFoldResult> sizes) {
  int64_t numIterated = space.numIterated();
  unsigned resultValue = space.maps.size() - 1;
  Value own = ownDims(op, space, resultValue);
  ResultTilePlan plan;
  plan.domainOffsets.assign(numIterated, OpFoldResult());
  plan.domainSizes.assign(numIterated, OpFoldResult());
  for (int64_t d = 0, e = offsets.size(); d < e; ++d) {
    plan.innerOffsets.push_back(b.getIndexAttr(0));
    unsigned loop = space.loopOf(resultValue, d);
    bool whole = own && isWholeTile(offsets[d], sizes[d], own, d);
    if (loop >= numIterated) {
      if (!whole) {
        plan.widened = true;
        plan.innerOffsets.back() = offsets[d];
      }
      continue;
    }
    if (!mayExceedLoop(op, space, resultValue, d)) {
      plan.domainOffsets[loop] = offsets[d];
      plan.domainSizes[loop] = sizes[d];
      continue;
    }
    // The whole dim is the whole loop (below).
    if (whole)
      continue;
    auto [start, length] =
        partInLoop(b, op, space.loops[loop], offsets[d], sizes[d]);
    plan.domainOffsets[loop] = start;
    plan.domainSizes[loop] = length;
    plan.beyondLoop.push_back({d, offsets[d], sizes[d]});
  }
  for (int64_t i = 0; i < numIterated; ++i) {
    if (plan.domainOffsets[i])
      continue;
    plan.domainOffsets[i] = b.getIndexAttr(0);
    plan.domainSizes[i] = extentOf(b, op, space.loops[i]);
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// One point of the iteration domain (generateScalarImplementation)
//===----------------------------------------------------------------------===//

static OobMode oobOf(Operation *op) {
  return cast<IterationSpaceOpInterface>(op).getOobMode();
}

/// The coordinates of value `v` (map order) at a point: iterated loops take
/// the point's `ivs`, others `fixed` (per loop; null where undefined).
static SmallVector<Value> coordinatesOf(const IterationSpace &space, unsigned v,
                                        ValueRange ivs, ArrayRef<Value> fixed) {
  SmallVector<Value> coords;
  for (int64_t d = 0, e = space.maps[v].getNumResults(); d < e; ++d) {
    unsigned loop = space.loopOf(v, d);
    coords.push_back(loop < ivs.size() ? ivs[loop] : fixed[loop]);
  }
  return coords;
}

/// The positions the index values address at a point: for each Indexed loop,
/// the index value read at the point (component `c` of the tuple for the ND
/// ops) resolved under `oob`, and whether any addresses nothing.
static std::pair<SmallVector<Value>, Value>
resolvedAt(OpBuilder &b, Location loc, Operation *op,
           const IterationSpace &space, ValueRange ivs) {
  SmallVector<Value> fixed(space.numLoops());
  Value bad = arith::ConstantOp::create(b, loc, b.getBoolAttr(false));
  OobMode oob = oobOf(op);
  for (int64_t l = 0, e = space.numLoops(); l < e; ++l) {
    const NdLoop &loop = space.loops[l];
    if (loop.kind != LoopKind::Indexed)
      continue;
    // The component dim of the ND ops' indices reads this loop's component.
    SmallVector<Value> componentFixed(space.numLoops());
    for (int64_t c = 0; c < e; ++c)
      if (space.loops[c].kind == LoopKind::Component)
        componentFixed[c] =
            arith::ConstantIndexOp::create(b, loc, loop.component);
    SmallVector<Value> at = coordinatesOf(space, 1, ivs, componentFixed);
    Value raw = memref::LoadOp::create(b, loc, op->getOperand(1), at);
    if (!raw.getType().isIndex())
      raw = arith::IndexCastOp::create(b, loc, b.getIndexType(), raw);
    Value size = memref::DimOp::create(b, loc, op->getOperand(0), loop.dataDim);
    ResolvedIndex index = resolveIndex(b, loc, oob, raw, size);
    fixed[l] = index.position;
    bad = arith::OrIOp::create(b, loc, bad, index.bad);
  }
  return {fixed, bad};
}

/// A gather at a point: the element the index values address, or zeros.
static void gatherPoint(OpBuilder &b, Location loc, Operation *op,
                        const IterationSpace &space, ValueRange ivs) {
  auto [fixed, bad] = resolvedAt(b, loc, op, space, ivs);
  SmallVector<Value> into =
      coordinatesOf(space, space.maps.size() - 1, ivs, fixed);
  Value data = op->getOperand(0);
  Value destination = op->getOperand(op->getNumOperands() - 1);
  Type elementType = cast<MemRefType>(data.getType()).getElementType();
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{elementType}, bad,
                                /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    scf::YieldOp::create(b, loc, zeroValue(b, loc, elementType));
    b.setInsertionPointToStart(ifOp.elseBlock());
    SmallVector<Value> at = coordinatesOf(space, 0, ivs, fixed);
    Value value = memref::LoadOp::create(b, loc, data, at);
    scf::YieldOp::create(b, loc, value);
  }
  memref::StoreOp::create(b, loc, ifOp.getResult(0), destination, into);
}

/// Combines `update` into `data` at `at` unless `bad`.
static void combineInto(OpBuilder &b, Location loc, ReductionKind reduction,
                        Value data, ArrayRef<Value> at, Value update,
                        Value bad) {
  Value good = arith::XOrIOp::create(
      b, loc, bad, arith::ConstantOp::create(b, loc, b.getBoolAttr(true)));
  auto ifOp = scf::IfOp::create(b, loc, good, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  Value value = update;
  if (reduction != ReductionKind::None) {
    Value current = memref::LoadOp::create(b, loc, data, at);
    value = combine(b, loc, reduction, current, update);
  }
  memref::StoreOp::create(b, loc, value, data, at);
}

/// A tensor_scatter at a point of its update: the element goes to its
/// position along the axis, from the batch entry's write index.
static void tensorScatterPoint(OpBuilder &b, Location loc, TensorScatterOp op,
                               ValueRange ivs) {
  int64_t axis = op.getNormalizedAxis();
  Value cache = op.getPastCache(), update = op.getUpdate();
  TensorScatterMode mode = op.getMode();
  IndexBuilder a(b, loc);
  // The first position the batch entry writes at, and whether it writes at
  // all (the write-index rule of the op's model, NdRowAddressing.h).
  ResolvedIndexOf<IndexBuilder> start{a.constant(0), a.constantBool(false)};
  Value maxSeq = memref::DimOp::create(b, loc, cache, axis);
  if (Value writes = op.getWriteIndices()) {
    Value seqLen = memref::DimOp::create(b, loc, update, axis);
    Value lastStart = a.sub(maxSeq, seqLen);
    Value raw = memref::LoadOp::create(b, loc, writes, ValueRange{ivs[0]});
    Value w = raw.getType().isIndex()
                  ? raw
                  : Value(arith::IndexCastOp::create(b, loc,
                                                     b.getIndexType(), raw));
    start = resolveWriteIndexWith(a, mode, op.getOob(), w, lastStart);
  }
  Value position =
      sequencePositionWith(a, mode, start.position, ivs[axis], maxSeq);
  Value bad = start.bad;
  SmallVector<Value> at(ivs.begin(), ivs.end());
  at[axis] = position;
  Value value = memref::LoadOp::create(b, loc, update, ivs);
  combineInto(b, loc, ReductionKind::None, cache, at, value, bad);
}

namespace {
template <typename OpTy>
struct NdTilingModel
    : public TilingInterface::ExternalModel<NdTilingModel<OpTy>, OpTy> {
  static IterationSpace spaceOf(Operation *op) {
    return cast<IterationSpaceOpInterface>(op).getIterationSpace();
  }

  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    IterationSpace space = spaceOf(op);
    SmallVector<utils::IteratorType> types = space.iteratorTypes();
    types.resize(space.numIterated());
    return types;
  }

  SmallVector<Range> getIterationDomain(Operation *op, OpBuilder &b) const {
    IterationSpace space = spaceOf(op);
    SmallVector<Range> domain;
    for (int64_t i = 0, e = space.numIterated(); i < e; ++i) {
      OpFoldResult extent = extentOf(b, op, space.loops[i]);
      domain.push_back({b.getIndexAttr(0), extent, b.getIndexAttr(1)});
    }
    return domain;
  }

  FailureOr<TilingResult>
  getTiledImplementation(Operation *op, OpBuilder &b,
                         ArrayRef<OpFoldResult> offsets,
                         ArrayRef<OpFoldResult> sizes) const {
    IterationSpace space = spaceOf(op);
    std::string why = whyNotTileable(op, space, offsets, sizes);
    if (!why.empty())
      return op->emitOpError("cannot be tiled as asked: ") << why;
    return buildTile(b, op, space, tilesOf(b, op, space, offsets, sizes));
  }

  LogicalResult
  getResultTilePosition(Operation *op, OpBuilder &b, unsigned resultNumber,
                        ArrayRef<OpFoldResult> offsets,
                        ArrayRef<OpFoldResult> sizes,
                        SmallVector<OpFoldResult> &resultOffsets,
                        SmallVector<OpFoldResult> &resultSizes) const {
    IterationSpace space = spaceOf(op);
    std::string why = whyNoDestination(op, space);
    if (!why.empty())
      return op->emitOpError("cannot be tiled as asked: ") << why;
    OperandTiles tiles = tilesOf(b, op, space, offsets, sizes);
    resultOffsets = tiles.offsets.back();
    resultSizes = tiles.sizes.back();
    return success();
  }

  LogicalResult getIterationDomainTileFromResultTile(
      Operation *op, OpBuilder &b, unsigned resultNumber,
      ArrayRef<OpFoldResult> offsets, ArrayRef<OpFoldResult> sizes,
      SmallVectorImpl<OpFoldResult> &domainOffsets,
      SmallVectorImpl<OpFoldResult> &domainSizes) const {
    IterationSpace space = spaceOf(op);
    unsigned resultValue = space.maps.size() - 1;
    return domainTileOf(b, op, space, {resultValue}, {llvm::to_vector(offsets)},
                        {llvm::to_vector(sizes)}, domainOffsets, domainSizes);
  }

  /// A tile of the result for a consumer's tile (see planResultTile): the
  /// op on the domain tile the plan gives, its destination's tile where it
  /// is larger, and the consumer's part of it where it was widened.
  FailureOr<TilingResult>
  generateResultTileValue(Operation *op, OpBuilder &b, unsigned resultNumber,
                          ArrayRef<OpFoldResult> offsets,
                          ArrayRef<OpFoldResult> sizes) const {
    IterationSpace space = spaceOf(op);
    // Decided before any IR is built where it can be.
    std::string why = whyNoTiles(op, space);
    if (!why.empty())
      return op->emitOpError("cannot be tiled as asked: ") << why;
    ResultTilePlan plan = planResultTile(b, op, space, offsets, sizes);
    why = whyNotTileable(op, space, plan.domainOffsets, plan.domainSizes);
    if (!why.empty())
      return op->emitOpError("cannot be tiled as asked: ") << why;
    OperandTiles tiles =
        tilesOf(b, op, space, plan.domainOffsets, plan.domainSizes);
    unsigned resultValue = space.maps.size() - 1;
    for (auto [d, offset, size] : plan.beyondLoop) {
      tiles.offsets[*space.destination][d] = offset;
      tiles.sizes[*space.destination][d] = size;
      tiles.offsets[resultValue][d] = offset;
      tiles.sizes[resultValue][d] = size;
    }
    FailureOr<TilingResult> tiled = buildTile(b, op, space, tiles);
    if (failed(tiled) || !plan.widened)
      return tiled;
    Value part = sliceOf(b, op->getLoc(), tiled->tiledValues[resultNumber],
                         plan.innerOffsets, sizes);
    tiled->tiledValues[resultNumber] = part;
    return tiled;
  }

  LogicalResult getIterationDomainTileFromOperandTiles(
      Operation *op, OpBuilder &b, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes,
      SmallVectorImpl<OpFoldResult> &domainOffsets,
      SmallVectorImpl<OpFoldResult> &domainSizes) const {
    return domainTileOf(b, op, spaceOf(op), operandNumbers, allOffsets,
                        allSizes, domainOffsets, domainSizes);
  }

  FailureOr<TilingResult> getTiledImplementationFromOperandTiles(
      Operation *op, OpBuilder &b, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes) const {
    SmallVector<OpFoldResult> domainOffsets, domainSizes;
    if (failed(getIterationDomainTileFromOperandTiles(
            op, b, operandNumbers, allOffsets, allSizes, domainOffsets,
            domainSizes)))
      return failure();
    return getTiledImplementation(op, b, domainOffsets, domainSizes);
  }

  /// The op at one point of its iteration domain, on buffers: a gather
  /// reads the index value(s) at the point, resolves them under the op's oob
  /// mode and stores the element they address (zeros where it addresses
  /// nothing) into `into`; a scatter combines the update at the point into
  /// `data` where its index value(s) address an element. Points of a scatter
  /// must run in row-major order of the entries (the Entries loops are
  /// ordered) for nd's result. Run-time checks are the caller's: an index
  /// value out of range under oob<error> writes nothing here (a gather reads
  /// zeros for it). Under `mean` or `use_init_val(false)` an element needs
  /// every update at once: those scatters have no point-wise form.
  LogicalResult generateScalarImplementation(Operation *op, OpBuilder &b,
                                             Location loc,
                                             ValueRange ivs) const {
    if (!isOnBuffers(op))
      return op->emitOpError(
          "has a scalar implementation only on buffers (bufferize first)");
    IterationSpace space = spaceOf(op);
    if (auto cacheOp = dyn_cast<TensorScatterOp>(op)) {
      tensorScatterPoint(b, loc, cacheOp, ivs);
      return success();
    }
    if (space.gather) {
      gatherPoint(b, loc, op, space, ivs);
      return success();
    }
    RowAddressing rows = cast<IterationSpaceOpInterface>(op).getRowAddressing();
    ReductionKind reduction = rows.reduction;
    if (reduction == ReductionKind::Mean ||
        (!rows.useInitVal && reduction != ReductionKind::None))
      return op->emitOpError("has no scalar implementation under 'mean' or "
                             "'use_init_val(false)': an element needs every "
                             "update at once");
    auto [fixed, bad] = resolvedAt(b, loc, op, space, ivs);
    SmallVector<Value> at = coordinatesOf(space, 0, ivs, fixed);
    SmallVector<Value> from = coordinatesOf(space, 2, ivs, fixed);
    Value update = memref::LoadOp::create(b, loc, op->getOperand(2), from);
    combineInto(b, loc, reduction, op->getOperand(0), at, update, bad);
    return success();
  }

  /// Every tile of the result can be produced (see generateResultTileValue).
  bool isOpFusableWithConsumerSlice(Operation *op, unsigned resultNumber,
                                    ArrayRef<OpFoldResult> offsets,
                                    ArrayRef<OpFoldResult> sizes) const {
    return true;
  }

  bool isOpFusableWithProducerSlices(
      Operation *op, ArrayRef<unsigned> operandNumbers,
      ArrayRef<SmallVector<OpFoldResult>> allOffsets,
      ArrayRef<SmallVector<OpFoldResult>> allSizes) const {
    return areLoopTiles(op, spaceOf(op), operandNumbers, allOffsets, allSizes);
  }
};
} // namespace

template <typename... OpTys>
static void attachTilingModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<NdTilingModel<OpTys>>(*ctx), ...);
}

void mlir::nd::registerTilingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NdDialect *) {
    // What the tiles are built from.
    ctx->loadDialect<affine::AffineDialect, arith::ArithDialect,
                     memref::MemRefDialect, scf::SCFDialect,
                     tensor::TensorDialect>();
    attachTilingModels<GatherNDOp, GatherOp, GatherElementsOp, ScatterNDOp,
                       ScatterElementsOp, TensorScatterOp>(ctx);
  });
}
