//===- ShardingInterfaceImpl.cpp - nd ops in sharded programs -------------===//
//
// Upstream's shard::ShardingInterface for the nd ops, so that
// `sharding-propagation` and `shard-partition` take programs that use them.
//
// Each op describes its iteration space as loops with indexing maps, as
// linalg ops do: one parallel loop per dim of the result (or of `data` for
// the scatters), plus loops for the dims an op consumes (the gathered dims of
// `data`, a scatter's update entries, the index component dim). Every loop
// has a role, which says how the op is partitioned when the loop is split
// across processes:
//
// - Local: the operands and the result are split alike and each process
//   runs the op on its shards, with the same indices: batch dims, index
//   dims, slice dims, a KV cache's heads;
// - Owned: a dim of `data` that the indices address (a vocabulary-sharded
//   embedding table, a row-sharded scatter target). Each process shifts the
//   index values into its shard and runs the op with `oob<skip>` on them, so
//   that only the process that owns a row reads or writes it; a gather then
//   or-s the bits of the processes' results together (the others read
//   zeros). Under the op's own `oob<error>`, the values are first checked
//   against the whole dim by an `nd.gather_nd` from a table of positions,
//   which keeps nd's run-time error;
// - Partial: the update entries of a scatter-add: each process adds its
//   updates into zeros (the first process into `data`), then an all-reduce
//   sums them;
// - Replicated: never split (the index component dim, a TensorScatter's
//   sequence dim, dims of `indices` smaller than those of `data` in the
//   Elements ops).
//
// getShardingOption starts from upstream's default inference over these
// maps and drops every split a role does not allow (or that the shapes, the
// grid or MPI cannot carry): those loops are replicated, which
// shard-partition realises with the communication it needs. partition()
// checks the shardings it is given against the same rules and reports the op
// rather than partition it wrongly.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Transforms/Passes.h"

#include "ShardUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterface.h"
#include "mlir/Dialect/Shard/Interfaces/ShardingInterfaceImpl.h"
#include "mlir/Dialect/Shard/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nd;

using shard::GridAxis;
using shard::GridOp;
using shard::Sharding;
using shard::ShardingOption;

//===----------------------------------------------------------------------===//
// Loops and their roles
//===----------------------------------------------------------------------===//

namespace {
enum class LoopRole { Local, Owned, Partial, Replicated };

/// A loop of the op's iteration space (NdIterationSpace.h) as sharding sees
/// it: its role says how the op is partitioned when the loop is split.
struct ShardLoop {
  utils::IteratorType type = utils::IteratorType::parallel;
  LoopRole role = LoopRole::Replicated;
  /// How the processes' results combine when the loop is split (Owned and
  /// Partial loops).
  shard::ReductionKind reduction = shard::ReductionKind::Generic;
  /// Owned loops: the dim of `data` the loop runs over, and the index
  /// component that addresses it (the last dim of `indices` for the ND ops;
  /// 0 for the ops whose index values address one axis).
  int64_t dataDim = -1;
  int64_t component = -1;
};

/// The iteration space of one nd op with the role of each loop: its loops and
/// one indexing map per operand, then one for the result.
struct NdLayout {
  SmallVector<ShardLoop> loops;
  SmallVector<AffineMap> maps;
  SmallVector<StringRef> names;
  /// Whether the op's index values are tuples in the last dim of `indices`
  /// (the ND ops) rather than single values.
  bool tuples = false;
  /// Whether the op is a gather (Owned splits then need an all-reduce).
  bool gather = false;

  int64_t numLoops() const { return loops.size(); }
};

/// The loops of a sharded op and the grid axes each one is split over.
struct LoopSplits {
  GridOp grid;
  SmallVector<SmallVector<GridAxis>> axes;

  bool any(const NdLayout &layout, LoopRole role) const {
    for (auto [loop, loopAxes] : llvm::zip_equal(layout.loops, axes))
      if (loop.role == role && !loopAxes.empty())
        return true;
    return false;
  }
  /// The grid axes of every split loop of `role`, in loop order.
  SmallVector<GridAxis> axesOf(const NdLayout &layout, LoopRole role) const {
    SmallVector<GridAxis> result;
    for (auto [loop, loopAxes] : llvm::zip_equal(layout.loops, axes))
      if (loop.role == role)
        llvm::append_range(result, loopAxes);
    return result;
  }
};
} // namespace

/// Whether MLIR 22's MPI lowering gives `MPI_SUM` over `type` its meaning.
static bool hasMPISum(Type type) {
  return type.isF32() || type.isF64() || type.isSignlessInteger(8) ||
         type.isSignlessInteger(16) || type.isSignlessInteger(32) ||
         type.isSignlessInteger(64);
}

/// The types of the op's operands, then of its result, in map order.
static SmallVector<RankedTensorType> valueTypes(Operation *op) {
  SmallVector<RankedTensorType> types;
  for (Type type : op->getOperandTypes())
    types.push_back(cast<RankedTensorType>(type));
  types.push_back(cast<RankedTensorType>(op->getResult(0).getType()));
  return types;
}

/// Whether every dim on `loop` has the same static size: the Elements ops'
/// `data` may be larger than `indices` off the axis, and a split must cut
/// both alike.
static bool hasEvenStaticDims(const IterationSpace &space,
                              ArrayRef<RankedTensorType> types, int64_t loop) {
  std::optional<int64_t> size;
  for (auto [value, map] : llvm::enumerate(space.maps)) {
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      if (cast<AffineDimExpr>(expr).getPosition() != loop)
        continue;
      int64_t dimSize = types[value].getDimSize(dim);
      if (ShapedType::isDynamic(dimSize) || (size && *size != dimSize))
        return false;
      size = dimSize;
    }
  }
  return true;
}

/// The role of each loop of the op's iteration space:
///
/// - Independent loops are Local (where the Elements ops' uneven dims are
///   statically equal);
/// - Indexed loops are Owned where the op may be run on a piece of the dim
///   with shifted indices under `oob<skip>` and, for a gather, where the
///   processes' results can be combined bit for bit (an or of their bits);
/// - additive Entries are Partial where MPI can sum the element type;
/// - everything else is Replicated.
static NdLayout layoutOf(Operation *op) {
  IterationSpace space = cast<IterationSpaceOpInterface>(op).getIterationSpace();
  SmallVector<RankedTensorType> types = valueTypes(op);
  Type elementType = types.front().getElementType();

  NdLayout layout;
  layout.maps = space.maps;
  layout.names = space.names;
  layout.tuples = space.tuples;
  layout.gather = space.gather;
  for (auto [i, loop] : llvm::enumerate(space.loops)) {
    ShardLoop shardLoop;
    shardLoop.type = loop.iteratorType;
    switch (loop.kind) {
    case LoopKind::Independent:
      if (!loop.uneven || hasEvenStaticDims(space, types, i))
        shardLoop.role = LoopRole::Local;
      break;
    case LoopKind::Indexed:
      shardLoop.dataDim = loop.dataDim;
      shardLoop.component = loop.component;
      if (space.gather)
        shardLoop.reduction = shard::ReductionKind::BitwiseOr;
      if (loop.shiftable && (!space.gather || getBitsType(elementType)))
        shardLoop.role = LoopRole::Owned;
      break;
    case LoopKind::Entries:
      if (loop.additive && hasMPISum(elementType)) {
        shardLoop.role = LoopRole::Partial;
        shardLoop.reduction = shard::ReductionKind::Sum;
      }
      break;
    case LoopKind::Whole:
    case LoopKind::Component:
      break;
    }
    layout.loops.push_back(shardLoop);
  }
  return layout;
}


/// Why loop `loop` of `op` cannot be split over `axes` of `grid`, or an
/// empty string when it can.
static std::string whyNotSplittable(Operation *op, const NdLayout &layout,
                                    GridOp grid, int64_t loop,
                                    ArrayRef<GridAxis> axes) {
  const ShardLoop &info = layout.loops[loop];
  SmallVector<RankedTensorType> types = valueTypes(op);
  // The first dim this loop runs over, to name it in messages.
  std::string where;
  for (auto [value, map] : llvm::enumerate(layout.maps)) {
    std::optional<unsigned> dim =
        map.getResultPosition(getAffineDimExpr(loop, op->getContext()));
    if (!dim)
      continue;
    where = "dim " + std::to_string(*dim) + " of '" +
            layout.names[value].str() + "'";
    break;
  }

  if (info.role == LoopRole::Replicated)
    return where + " is never split";
  if (!grid)
    return where + ": no grid";
  for (GridAxis axis : axes)
    if (axis < 0 || axis >= static_cast<int64_t>(grid.getShape().size()))
      return where + ": no grid axis " + std::to_string(axis);
  int64_t group = shard::collectiveProcessGroupSize(axes, grid.getShape());
  if (ShapedType::isDynamic(group) || group <= 0)
    return where + ": the grid axes have a dynamic size";

  for (auto [value, map] : llvm::enumerate(layout.maps)) {
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      if (cast<AffineDimExpr>(expr).getPosition() != loop)
        continue;
      int64_t size = types[value].getDimSize(dim);
      std::string dimName = "dim " + std::to_string(dim) + " of '" +
                            layout.names[value].str() + "'";
      if (ShapedType::isDynamic(size)) {
        if (info.role != LoopRole::Local)
          return dimName + " is dynamic";
        continue;
      }
      if (size % group != 0)
        return dimName + " (" + std::to_string(size) +
               ") is not divisible by the " + std::to_string(group) +
               " processes";
      if (info.role == LoopRole::Owned && size == 0)
        return dimName + " is empty";
    }
  }

  // The all-reduce of an Owned gather or a Partial scatter needs a static
  // result (convert-shard-to-mpi takes static buffers only).
  bool allReduces = (info.role == LoopRole::Owned && layout.gather) ||
                    info.role == LoopRole::Partial;
  if (allReduces && !types.back().hasStaticShape())
    return where + ": the result has a dynamic shape";
  return {};
}

/// Derives the grid axes of every loop from the shardings of the operands
/// and the result, and checks that the op can be partitioned with them.
static FailureOr<LoopSplits> getLoopSplits(
    Operation *op, const NdLayout &layout, ArrayRef<Sharding> operandShardings,
    ArrayRef<Sharding> resultShardings, SymbolTableCollection &symbolTables) {
  SmallVector<Sharding, 4> shardings(operandShardings);
  llvm::append_range(shardings, resultShardings);
  SmallVector<RankedTensorType> types = valueTypes(op);

  LoopSplits splits;
  SmallVector<std::optional<SmallVector<GridAxis>>> loopAxes(layout.numLoops());
  FlatSymbolRefAttr gridName;
  for (auto [value, sharding] : llvm::enumerate(shardings)) {
    if (!sharding)
      continue;
    if (gridName && sharding.getGridAttr() != gridName)
      return op->emitOpError("cannot be partitioned: its operands and result "
                             "are sharded on different grids");
    gridName = sharding.getGridAttr();
    if (!sharding.getStaticHaloSizes().empty() ||
        !sharding.getDynamicHaloSizes().empty() ||
        !sharding.getStaticShardedDimsOffsets().empty() ||
        !sharding.getDynamicShardedDimsOffsets().empty())
      return op->emitOpError("cannot be partitioned: '")
             << layout.names[value]
             << "' has halos or explicit shard offsets; nd ops take even "
                "splits only";
    AffineMap map = layout.maps[value];
    ArrayRef<shard::GridAxesAttr> split = sharding.getSplitAxes();
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      SmallVector<GridAxis> axes;
      if (dim < split.size())
        axes = llvm::to_vector(split[dim].asArrayRef());
      unsigned loop = cast<AffineDimExpr>(expr).getPosition();
      if (loopAxes[loop] && *loopAxes[loop] != axes)
        return op->emitOpError("cannot be partitioned: dim ")
               << dim << " of '" << layout.names[value]
               << "' is split unlike the dims it must be split with";
      loopAxes[loop] = axes;
    }
  }
  if (gridName) {
    splits.grid = shard::getGridOrNull(op, gridName, symbolTables);
    if (!splits.grid)
      return op->emitOpError("cannot be partitioned: no grid ") << gridName;
  }

  llvm::SmallDenseSet<GridAxis> used;
  for (auto [loop, axes] : llvm::enumerate(loopAxes)) {
    splits.axes.push_back(axes ? *axes : SmallVector<GridAxis>());
    for (GridAxis axis : splits.axes.back())
      if (!used.insert(axis).second)
        return op->emitOpError("cannot be partitioned: grid axis ")
               << axis << " splits two dims";
    if (splits.axes.back().empty())
      continue;
    std::string why =
        whyNotSplittable(op, layout, splits.grid, loop, splits.axes.back());
    if (!why.empty())
      return op->emitOpError("cannot be partitioned as annotated: ") << why;
  }
  if (splits.any(layout, LoopRole::Owned) &&
      splits.any(layout, LoopRole::Partial))
    return op->emitOpError(
        "cannot be partitioned as annotated: the update entries and an "
        "indexed dim of 'data' are both split");
  return splits;
}

//===----------------------------------------------------------------------===//
// Building the partitioned ops
//===----------------------------------------------------------------------===//

/// A copy of `op` on `operands` with result type `resultType`.
static Operation *cloneOn(OpBuilder &builder, Operation *op,
                          ValueRange operands, Type resultType) {
  IRMapping mapping;
  mapping.map(op->getOperands(), operands);
  Operation *clone = builder.clone(*op, mapping);
  clone->getResult(0).setType(resultType);
  return clone;
}

static Value indicesToI64(ImplicitLocOpBuilder &b, Value indices) {
  Type elementType = cast<RankedTensorType>(indices.getType()).getElementType();
  Type i64 = b.getI64Type();
  if (elementType == i64)
    return indices;
  return mapElements(
      b, indices, i64, [&](OpBuilder &nested, Location loc, Value element) {
        if (elementType.isIndex())
          return arith::IndexCastOp::create(nested, loc, i64, element)
              .getResult();
        return arith::ExtSIOp::create(nested, loc, i64, element).getResult();
      });
}

/// `tensor<size x 1 x i64>` holding 0, 1, ..., size - 1.
static Value positionsTable(ImplicitLocOpBuilder &b, OpFoldResult size) {
  SmallVector<OpFoldResult> sizes = {size, b.getIndexAttr(1)};
  Value init = tensor::EmptyOp::create(b, sizes, b.getI64Type());
  AffineMap id = b.getMultiDimIdentityMap(2);
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, init.getType(), ValueRange{}, ValueRange{init},
      ArrayRef<AffineMap>{id}, iterators,
      [&](OpBuilder &nested, Location loc, ValueRange) {
        Value position = linalg::IndexOp::create(nested, loc, 0);
        Value cast = arith::IndexCastOp::create(nested, loc,
                                                nested.getI64Type(), position);
        linalg::YieldOp::create(nested, loc, cast);
      });
  return generic.getResult(0);
}

namespace {
/// How one index component is rewritten for a process: the size of the dim
/// it addresses, and for an Owned dim the first position of the process's
/// shard and the shard's size.
struct ComponentRewrite {
  OpFoldResult dimSize;
  bool owned = false;
  Value offset;
  int64_t shardSize = 0;
};
} // namespace

/// Rewrites the index values of `op` (i64, with the component dim last) for
/// the local op, which runs with `oob<skip>`:
///
/// - under the op's `oob<error>`, each component is first gathered from a
///   table of positions by an `nd.gather_nd` with `oob<error>`: that checks
///   it against the whole dim (the run-time error of nd, naming the value
///   and the dim's size) and gives it normalised into `[0, d)`;
/// - under `oob<clamp>`, each component is normalised and clamped into
///   `[0, d - 1]`, as the op would; under `oob<skip>` a value out of range
///   stays out of range, so that no process owns it;
/// - an Owned component becomes its position in the process's shard, or the
///   shard's size (out of range: skipped) on every other process.
static Value rewriteIndices(ImplicitLocOpBuilder &b, Operation *op,
                            Value indices, ArrayRef<ComponentRewrite> rewrites,
                            OobMode oob) {
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  int64_t depth = rewrites.size();
  Location checkLoc =
      NameLoc::get(b.getStringAttr(op->getName().getStringRef()), op->getLoc());

  SmallVector<Value> components;
  for (int64_t c = 0; c < depth; ++c) {
    const ComponentRewrite &rewrite = rewrites[c];
    Value component = indices;
    if (depth > 1) {
      SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
      offsets.back() = b.getIndexAttr(c);
      SmallVector<OpFoldResult> sizes =
          tensor::getMixedSizes(b, b.getLoc(), indices);
      sizes.back() = b.getIndexAttr(1);
      SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
      component =
          tensor::ExtractSliceOp::create(b, indices, offsets, sizes, strides);
    }
    if (oob == OobMode::Error) {
      Value table = positionsTable(b, rewrite.dimSize);
      component =
          GatherNDOp::create(b, checkLoc, component.getType(), table, component,
                             /*batch_dims=*/0, OobMode::Error)
              .getResult();
    }
    // Under `error` the check has normalised the values; under `skip` a
    // component nobody owns is the op's own business.
    bool clamp = oob == OobMode::Clamp;
    bool normalize = oob != OobMode::Error;
    if (!rewrite.owned && !clamp) {
      components.push_back(component);
      continue;
    }

    Type i64 = b.getI64Type();
    Value size, zero, last;
    if (normalize || clamp) {
      Value dimSize =
          getValueOrCreateConstantIndexOp(b, b.getLoc(), rewrite.dimSize);
      size = arith::IndexCastOp::create(b, i64, dimSize);
      zero = arith::ConstantIntOp::create(b, i64, 0);
    }
    if (clamp) {
      Value one = arith::ConstantIntOp::create(b, i64, 1);
      last = arith::SubIOp::create(b, size, one);
    }
    Value offset, end, shardSize;
    if (rewrite.owned) {
      offset = arith::IndexCastOp::create(b, i64, rewrite.offset);
      shardSize = arith::ConstantIntOp::create(b, i64, rewrite.shardSize);
      end = arith::AddIOp::create(b, offset, shardSize);
    }
    component = mapElements(
        b, component, i64, [&](OpBuilder &nested, Location loc, Value value) {
          if (normalize) {
            Value negative = arith::CmpIOp::create(
                nested, loc, arith::CmpIPredicate::slt, value, zero);
            Value wrapped = arith::AddIOp::create(nested, loc, value, size);
            value =
                arith::SelectOp::create(nested, loc, negative, wrapped, value);
          }
          if (clamp) {
            Value low = arith::MaxSIOp::create(nested, loc, value, zero);
            value = arith::MinSIOp::create(nested, loc, low, last);
          }
          if (!rewrite.owned)
            return value;
          Value fromStart = arith::CmpIOp::create(
              nested, loc, arith::CmpIPredicate::sge, value, offset);
          Value beforeEnd = arith::CmpIOp::create(
              nested, loc, arith::CmpIPredicate::slt, value, end);
          Value mine = arith::AndIOp::create(nested, loc, fromStart, beforeEnd);
          Value local = arith::SubIOp::create(nested, loc, value, offset);
          return arith::SelectOp::create(nested, loc, mine, local, shardSize)
              .getResult();
        });
    components.push_back(component);
  }
  if (depth == 1)
    return components.front();

  SmallVector<OpFoldResult> sizes =
      tensor::getMixedSizes(b, b.getLoc(), indices);
  Value tuples = tensor::EmptyOp::create(b, sizes, b.getI64Type());
  for (auto [c, component] : llvm::enumerate(components)) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets.back() = b.getIndexAttr(c);
    SmallVector<OpFoldResult> componentSizes = sizes;
    componentSizes.back() = b.getIndexAttr(1);
    SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
    tuples = tensor::InsertSliceOp::create(b, component, tuples, offsets,
                                           componentSizes, strides);
  }
  return tuples;
}

/// The operand index of `indices` (1 in every op that has one).
static constexpr unsigned kIndicesOperand = 1;

/// Partitions an op with split Owned loops: rewritten indices, the op with
/// `oob<skip>` on the process's shard of `data`, and for a gather an
/// all-reduce of the results' bits.
static Value partitionOwned(ImplicitLocOpBuilder &b, Operation *op,
                            const NdLayout &layout, const LoopSplits &splits,
                            ArrayRef<Value> operands, Type resultType) {
  auto dataType = cast<RankedTensorType>(op->getOperand(0).getType());
  OobMode oob = cast<IterationSpaceOpInterface>(op).getOobMode();
  GridOp grid = splits.grid;
  StringRef gridName = grid.getSymName();

  Value indices = indicesToI64(b, operands[kIndicesOperand]);
  auto indicesType = cast<RankedTensorType>(indices.getType());
  int64_t depth = 1;
  if (layout.tuples) {
    depth = indicesType.getShape().back();
  } else {
    // One value per index: a trailing component dim of size 1.
    SmallVector<int64_t> shape(indicesType.getShape());
    shape.push_back(1);
    SmallVector<ReassociationIndices> groups;
    if (indicesType.getRank() > 0) {
      groups = llvm::map_to_vector(
          llvm::seq<int64_t>(0, indicesType.getRank()),
          [](int64_t d) { return ReassociationIndices{d}; });
      groups.back().push_back(indicesType.getRank());
    }
    auto expandedType = RankedTensorType::get(shape, b.getI64Type());
    indices = tensor::ExpandShapeOp::create(b, expandedType, indices, groups);
  }

  // The dim each component addresses: from the Owned loops' data dims.
  SmallVector<int64_t> dataDimOf(depth, -1);
  for (const ShardLoop &loop : layout.loops)
    if (loop.dataDim >= 0)
      dataDimOf[loop.component] = loop.dataDim;
  SmallVector<ComponentRewrite> rewrites(depth);
  for (int64_t c = 0; c < depth; ++c)
    rewrites[c].dimSize =
        tensor::getMixedSize(b, b.getLoc(), operands[0], dataDimOf[c]);
  for (auto [loop, axes] : llvm::zip_equal(layout.loops, splits.axes)) {
    if (loop.role != LoopRole::Owned || axes.empty())
      continue;
    int64_t size = dataType.getDimSize(loop.dataDim);
    int64_t group = shard::collectiveProcessGroupSize(axes, splits.grid);
    ComponentRewrite &rewrite = rewrites[loop.component];
    rewrite.dimSize = b.getIndexAttr(size);
    rewrite.owned = true;
    rewrite.shardSize = size / group;
    Value process = shard::createProcessLinearIndex(gridName, axes, b);
    Value shardSize = arith::ConstantIndexOp::create(b, rewrite.shardSize);
    rewrite.offset = arith::MulIOp::create(b, process, shardSize);
  }

  Value local = rewriteIndices(b, op, indices, rewrites, oob);
  if (!layout.tuples) {
    auto collapsedType = RankedTensorType::get(
        cast<RankedTensorType>(operands[kIndicesOperand].getType()).getShape(),
        b.getI64Type());
    SmallVector<ReassociationIndices> groups;
    if (collapsedType.getRank() > 0) {
      groups = llvm::map_to_vector(
          llvm::seq<int64_t>(0, collapsedType.getRank()),
          [](int64_t d) { return ReassociationIndices{d}; });
      groups.back().push_back(collapsedType.getRank());
    }
    local = tensor::CollapseShapeOp::create(b, collapsedType, local, groups);
  }

  SmallVector<Value> localOperands(operands);
  localOperands[kIndicesOperand] = local;
  Operation *localOp = cloneOn(b, op, localOperands, resultType);
  cast<IterationSpaceOpInterface>(localOp).setOobMode(OobMode::Skip);
  Value result = localOp->getResult(0);
  if (!layout.gather)
    return result;

  // Every element was read by exactly one process; the others read zeros.
  auto localType = cast<RankedTensorType>(resultType);
  IntegerType bits = getBitsType(localType.getElementType());
  Value asBits = bitcastElements(b, result, bits);
  Value reduced = shard::AllReduceOp::create(
      b, asBits.getType(), gridName, splits.axesOf(layout, LoopRole::Owned),
      asBits, shard::ReductionKind::BitwiseOr);
  return bitcastElements(b, reduced, localType.getElementType());
}

/// Partitions a scatter-add with split update entries: the first process of
/// each group adds its updates into `data`, the others into zeros (`-0.0`
/// for floats, the identity of IEEE addition), then an all-reduce sums them.
static Value partitionPartial(ImplicitLocOpBuilder &b, Operation *op,
                              const NdLayout &layout, const LoopSplits &splits,
                              ArrayRef<Value> operands, Type resultType) {
  GridOp grid = splits.grid;
  StringRef gridName = grid.getSymName();
  SmallVector<GridAxis> axes = splits.axesOf(layout, LoopRole::Partial);
  auto dataType = cast<RankedTensorType>(operands[0].getType());
  Type elementType = dataType.getElementType();

  Value process = shard::createProcessLinearIndex(gridName, axes, b);
  Value zero = arith::ConstantIndexOp::create(b, 0);
  Value first =
      arith::CmpIOp::create(b, arith::CmpIPredicate::eq, process, zero);
  TypedAttr neutral;
  if (auto floatType = dyn_cast<FloatType>(elementType))
    neutral = b.getFloatAttr(floatType,
                             APFloat::getZero(floatType.getFloatSemantics(),
                                              /*Negative=*/true));
  else
    neutral = b.getIntegerAttr(elementType, 0);
  auto init = scf::IfOp::create(
      b, first,
      [&](OpBuilder &nested, Location loc) {
        scf::YieldOp::create(nested, loc, operands[0]);
      },
      [&](OpBuilder &nested, Location loc) {
        SmallVector<OpFoldResult> sizes =
            tensor::getMixedSizes(nested, loc, operands[0]);
        Value empty = tensor::EmptyOp::create(nested, loc, sizes, elementType);
        Value value = arith::ConstantOp::create(nested, loc, neutral);
        Value zeros =
            linalg::FillOp::create(nested, loc, value, empty).getResult(0);
        scf::YieldOp::create(nested, loc, zeros);
      });

  SmallVector<Value> localOperands(operands);
  localOperands[0] = init.getResult(0);
  Operation *localOp = cloneOn(b, op, localOperands, resultType);
  return shard::AllReduceOp::create(b, resultType, gridName, axes,
                                    localOp->getResult(0),
                                    shard::ReductionKind::Sum);
}

//===----------------------------------------------------------------------===//
// The interface
//===----------------------------------------------------------------------===//

namespace {
template <typename OpTy>
struct NdShardingModel
    : public shard::ShardingInterface::ExternalModel<NdShardingModel<OpTy>,
                                                     OpTy> {
  SmallVector<utils::IteratorType> getLoopIteratorTypes(Operation *op) const {
    return llvm::map_to_vector(layoutOf(op).loops,
                               [](const ShardLoop &loop) { return loop.type; });
  }

  SmallVector<shard::ReductionKind>
  getReductionLoopIteratorKinds(Operation *op) const {
    SmallVector<shard::ReductionKind> kinds;
    for (const ShardLoop &loop : layoutOf(op).loops)
      if (loop.type == utils::IteratorType::reduction)
        kinds.push_back(loop.reduction);
    return kinds;
  }

  SmallVector<AffineMap> getIndexingMaps(Operation *op) const {
    return layoutOf(op).maps;
  }

  FailureOr<ShardingOption>
  getShardingOption(Operation *op, ArrayRef<Sharding> operandShardings,
                    ArrayRef<Sharding> resultShardings) const {
    FailureOr<ShardingOption> option = shard::detail::defaultGetShardingOption(
        op, operandShardings, resultShardings);
    if (failed(option) || option->empty)
      return option;

    // Keep the splits the op can take; replicate the other loops.
    NdLayout layout = layoutOf(op);
    SymbolTableCollection symbolTables;
    GridOp grid = shard::getGridOrNull(op, option->grid, symbolTables);
    shard::ShardingArray &array = option->shardingArray;
    bool owned = false;
    for (int64_t loop = 0, e = array.size(); loop < e; ++loop) {
      if (array[loop].empty())
        continue;
      if (!whyNotSplittable(op, layout, grid, loop, array[loop]).empty())
        array[loop].clear();
      else if (layout.loops[loop].role == LoopRole::Owned)
        owned = true;
    }
    for (int64_t loop = 0, e = array.size(); owned && loop < e; ++loop)
      if (layout.loops[loop].role == LoopRole::Partial)
        array[loop].clear();
    shard::removeTrailingEmptySubArray(option->shardingArray);
    return option;
  }

  LogicalResult partition(Operation *op, ArrayRef<Value> partitionedOperands,
                          ArrayRef<Sharding> operandShardings,
                          ArrayRef<Sharding> resultShardings,
                          IRMapping &partitionMap,
                          SymbolTableCollection &symbolTables,
                          OpBuilder &builder) const {
    NdLayout layout = layoutOf(op);
    FailureOr<LoopSplits> splits = getLoopSplits(op, layout, operandShardings,
                                                 resultShardings, symbolTables);
    if (failed(splits))
      return failure();
    if (!splits->grid) {
      builder.clone(*op, partitionMap);
      return success();
    }

    Type resultType = shard::shardType(op->getResult(0).getType(), splits->grid,
                                       resultShardings.front());
    ImplicitLocOpBuilder b(op->getLoc(), builder);
    Value result;
    if (splits->any(layout, LoopRole::Owned))
      result = partitionOwned(b, op, layout, *splits, partitionedOperands,
                              resultType);
    else if (splits->any(layout, LoopRole::Partial))
      result = partitionPartial(b, op, layout, *splits, partitionedOperands,
                                resultType);
    else
      result = cloneOn(b, op, partitionedOperands, resultType)->getResult(0);
    partitionMap.map(op->getResult(0), result);
    return success();
  }
};
} // namespace

template <typename... OpTys>
static void attachShardingModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<NdShardingModel<OpTys>>(*ctx), ...);
}

void mlir::nd::registerShardingInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, NdDialect *) {
    // What the partitioned ops are built from.
    ctx->loadDialect<arith::ArithDialect, linalg::LinalgDialect,
                     scf::SCFDialect, shard::ShardDialect,
                     tensor::TensorDialect>();
    attachShardingModels<GatherNDOp, GatherOp, GatherElementsOp, ScatterNDOp,
                         ScatterElementsOp, TensorScatterOp>(ctx);
  });
}
