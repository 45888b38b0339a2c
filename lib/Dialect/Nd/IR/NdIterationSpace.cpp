//===- NdIterationSpace.cpp - the loops of each nd op -----------*- C++ -*-===//
//
// `getIterationSpace()` of the six ops (see NdIterationSpace.h for the model
// and the meaning of each loop kind).
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdIterationSpace.h"

#include "NdIndexing.h"

#include "nd/Dialect/Nd/IR/NdOps.h"

#include <set>

using namespace mlir;
using namespace mlir::nd;

#include "nd/Dialect/Nd/IR/NdInterfaces.cpp.inc"

unsigned IterationSpace::loopOf(unsigned value, unsigned dim) const {
  return cast<AffineDimExpr>(maps[value].getResult(dim)).getPosition();
}

SmallVector<utils::IteratorType> IterationSpace::iteratorTypes() const {
  return llvm::map_to_vector(loops,
                             [](const NdLoop &loop) { return loop.iteratorType; });
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

static AffineMap loopMap(int64_t numLoops, ArrayRef<int64_t> loopOfDim,
                         MLIRContext *ctx) {
  SmallVector<AffineExpr> exprs;
  for (int64_t loop : loopOfDim)
    exprs.push_back(getAffineDimExpr(loop, ctx));
  return AffineMap::get(numLoops, 0, exprs, ctx);
}

static SmallVector<int64_t> identity(int64_t n) {
  return llvm::to_vector(llvm::seq<int64_t>(0, n));
}

static NdLoop independent(unsigned value, int64_t dim, bool uneven = false) {
  NdLoop loop;
  loop.kind = LoopKind::Independent;
  loop.uneven = uneven;
  loop.extentValue = value;
  loop.extentDim = dim;
  return loop;
}

static NdLoop indexed(bool gather, int64_t dataDim, int64_t component,
                      bool shiftable) {
  NdLoop loop;
  loop.kind = LoopKind::Indexed;
  // Several points of `data` meet in one element of a gather's result.
  loop.iteratorType = gather ? utils::IteratorType::reduction
                             : utils::IteratorType::parallel;
  loop.dataDim = dataDim;
  loop.component = component;
  loop.shiftable = shiftable;
  loop.extentValue = 0;
  loop.extentDim = dataDim;
  return loop;
}

static NdLoop component(unsigned indicesValue, int64_t dim) {
  NdLoop loop;
  loop.kind = LoopKind::Component;
  loop.iteratorType = utils::IteratorType::reduction;
  loop.extentValue = indicesValue;
  loop.extentDim = dim;
  return loop;
}

static NdLoop whole(unsigned value, int64_t dim, utils::IteratorType type,
                    StringRef why) {
  NdLoop loop;
  loop.kind = LoopKind::Whole;
  loop.whyWhole = why;
  loop.iteratorType = type;
  loop.extentValue = value;
  loop.extentDim = dim;
  return loop;
}

static NdLoop entries(unsigned value, int64_t dim, bool ordered,
                      bool additive) {
  NdLoop loop;
  loop.kind = LoopKind::Entries;
  loop.ordered = ordered;
  loop.iteratorType =
      ordered ? utils::IteratorType::reduction : utils::IteratorType::parallel;
  loop.additive = additive;
  loop.extentValue = value;
  loop.extentDim = dim;
  return loop;
}

/// Constant index values of `indices` where it is a constant of at most
/// this many elements (larger constants are not examined).
static constexpr int64_t kMaxExaminedIndices = int64_t(1) << 16;

/// Whether the entries of a scatter provably never update one element
/// twice: a constant `indices` whose entries address distinct elements of
/// data (the data rows of the op's row addressing, none skipped).
static bool entriesNeverCollide(IterationSpaceOpInterface op) {
  RowAddressing rows = op.getRowAddressing();
  std::optional<SmallVector<int64_t>> values = indexing::matchConstantIndices(
      op->getOperand(*rows.indices), kMaxExaminedIndices);
  if (!values)
    return false;
  std::set<SmallVector<int64_t>> seen;
  bool distinct = true;
  auto visit = [&](int64_t, std::optional<ArrayRef<int64_t>> coordinates) {
    distinct = distinct && coordinates &&
               seen.insert(llvm::to_vector(*coordinates)).second;
  };
  return succeeded(
             forEachConstantEntry(rows, getValueShapes(op), *values, visit)) &&
         distinct;
}

/// The model of an op on buffers: a gather's result map is that of its
/// `into` operand (which it updates), a scatter has no result.
static IterationSpace onOperands(Operation *op, IterationSpace space) {
  if (!isOnBuffers(op))
    return space;
  if (space.gather) {
    space.names.back() = "into";
    space.destination = space.maps.size() - 1;
    return space;
  }
  space.maps.pop_back();
  space.names.pop_back();
  return space;
}

//===----------------------------------------------------------------------===//
// Gathers
//===----------------------------------------------------------------------===//

// result[n..., i..., s...] = data[n..., indices[n..., i..., :], s...]
// Loops: the result's dims; the k indexed dims of data; the component dim.
IterationSpace GatherNDOp::getIterationSpace() {
  MLIRContext *ctx = getContext();
  int64_t r = getData().getType().getRank();
  int64_t q = getIndices().getType().getRank();
  int64_t b = getBatchDims();
  int64_t k = getIndexDepth();
  int64_t resultRank = q - 1 + r - b - k;

  IterationSpace space;
  space.gather = true;
  space.tuples = true;
  space.names = {"data", "indices", "result"};
  for (int64_t j = 0; j < resultRank; ++j)
    space.loops.push_back(j < q - 1 ? independent(1, j)
                                    : independent(0, b + k + j - (q - 1)));
  for (int64_t c = 0; c < k; ++c)
    space.loops.push_back(
        indexed(/*gather=*/true, b + c, c, !hasDynamicIndexDepth()));
  space.loops.push_back(component(1, q - 1));
  int64_t n = space.numLoops();

  SmallVector<int64_t> dataLoops;
  for (int64_t j = 0; j < r; ++j) {
    if (j < b)
      dataLoops.push_back(j);
    else if (j < b + k)
      dataLoops.push_back(resultRank + j - b);
    else
      dataLoops.push_back(q - 1 + j - b - k);
  }
  SmallVector<int64_t> indicesLoops = identity(q - 1);
  indicesLoops.push_back(n - 1);
  space.maps = {loopMap(n, dataLoops, ctx), loopMap(n, indicesLoops, ctx),
                loopMap(n, identity(resultRank), ctx)};
  return onOperands(*this, space);
}

// result[p..., i..., s...] = data[p..., indices[p[:b]..., i...], s...]
// Loops: the result's dims; the indexed axis of data.
IterationSpace GatherOp::getIterationSpace() {
  MLIRContext *ctx = getContext();
  int64_t r = getData().getType().getRank();
  int64_t q = getIndices().getType().getRank();
  int64_t a = getNormalizedAxis();
  int64_t b = getBatchDims();
  int64_t resultRank = r - 1 + q - b;

  IterationSpace space;
  space.gather = true;
  space.names = {"data", "indices", "result"};
  for (int64_t j = 0; j < resultRank; ++j) {
    if (j < a)
      space.loops.push_back(independent(0, j));
    else if (j < a + q - b)
      space.loops.push_back(independent(1, j - a + b));
    else
      space.loops.push_back(independent(0, j - (q - b) + 1));
  }
  space.loops.push_back(indexed(/*gather=*/true, a, 0, /*shiftable=*/true));
  int64_t n = space.numLoops();

  SmallVector<int64_t> dataLoops;
  for (int64_t j = 0; j < r; ++j) {
    if (j < a)
      dataLoops.push_back(j);
    else if (j == a)
      dataLoops.push_back(n - 1);
    else
      dataLoops.push_back(j + q - b - 1);
  }
  SmallVector<int64_t> indicesLoops;
  for (int64_t j = 0; j < q; ++j)
    indicesLoops.push_back(j < b ? j : a + j - b);
  space.maps = {loopMap(n, dataLoops, ctx), loopMap(n, indicesLoops, ctx),
                loopMap(n, identity(resultRank), ctx)};
  return onOperands(*this, space);
}

// result[p] = data[p with its axis coordinate replaced by indices[p]]
// Loops: the dims of indices (and of the result); the indexed axis of data.
// Off the axis, data's dims need only be at least those of indices: a piece
// of such a loop reads the same piece of data.
IterationSpace GatherElementsOp::getIterationSpace() {
  MLIRContext *ctx = getContext();
  int64_t r = getData().getType().getRank();
  int64_t a = getNormalizedAxis();

  IterationSpace space;
  space.gather = true;
  space.names = {"data", "indices", "result"};
  for (int64_t d = 0; d < r; ++d)
    space.loops.push_back(independent(1, d, /*uneven=*/d != a));
  space.loops.push_back(indexed(/*gather=*/true, a, 0, /*shiftable=*/true));
  int64_t n = space.numLoops();

  SmallVector<int64_t> dataLoops = identity(r);
  dataLoops[a] = n - 1;
  space.maps = {loopMap(n, dataLoops, ctx), loopMap(n, identity(r), ctx),
                loopMap(n, identity(r), ctx)};
  return onOperands(*this, space);
}

//===----------------------------------------------------------------------===//
// Scatters
//===----------------------------------------------------------------------===//

// result[indices[u..., :], s...] = f(result[...], updates[u..., s...])
// Loops: the update entries; the slice dims; the k indexed dims of data; the
// component dim. OpenVINO's one-element form (all-ones `updates` where the
// slices are 0-D) visits the dims of `updates`, each of size 1.
IterationSpace ScatterNDOp::getIterationSpace() {
  MLIRContext *ctx = getContext();
  int64_t r = getData().getType().getRank();
  int64_t q = getIndices().getType().getRank();
  int64_t k = getIndexDepth();
  int64_t updatesRank = getUpdates().getType().getRank();
  bool singleElement = updatesRank != q - 1 + r - k;

  IterationSpace space;
  space.tuples = true;
  space.destination = 0;
  space.names = {"data", "indices", "updates", "result"};
  // The dims of `updates`: entries, then slice dims (or the all-ones dims).
  int64_t visited = singleElement ? updatesRank : q - 1 + r - k;
  if (singleElement) {
    for (int64_t i = 0; i < updatesRank; ++i)
      space.loops.push_back(whole(2, i, utils::IteratorType::parallel,
                                  "it is a dim of one-element updates"));
  } else {
    bool ordered = !entriesNeverCollide(*this);
    bool additive = getReduction() == ReductionKind::Add;
    for (int64_t i = 0; i < q - 1; ++i)
      space.loops.push_back(entries(1, i, ordered, additive));
    for (int64_t j = k; j < r; ++j)
      space.loops.push_back(independent(0, j));
  }
  bool shiftable = !singleElement && !hasDynamicIndexDepth();
  for (int64_t j = 0; j < k; ++j)
    space.loops.push_back(indexed(/*gather=*/false, j, j, shiftable));
  space.loops.push_back(component(1, q - 1));
  int64_t n = space.numLoops();

  SmallVector<int64_t> dataLoops;
  for (int64_t j = 0; j < r; ++j)
    dataLoops.push_back(j < k ? visited + j : q - 1 + j - k);
  SmallVector<int64_t> indicesLoops = identity(q - 1);
  indicesLoops.push_back(n - 1);
  AffineMap data = loopMap(n, dataLoops, ctx);
  space.maps = {data, loopMap(n, indicesLoops, ctx),
                loopMap(n, identity(updatesRank), ctx), data};
  return onOperands(*this, space);
}

// result[p with its axis coordinate replaced by indices[p]] =
//     f(result[...], updates[p])
// Loops: the dims of indices and updates (the one along the axis holds the
// entries); the indexed axis of data. Under `mean` or `use_init_val(false)`
// every update of an element is needed at once (a count, a first update):
// the entries are Whole.
IterationSpace ScatterElementsOp::getIterationSpace() {
  MLIRContext *ctx = getContext();
  int64_t r = getData().getType().getRank();
  int64_t a = getNormalizedAxis();
  ReductionKind reduction = getReduction();
  bool tallied = reduction == ReductionKind::Mean ||
                 (!getUseInitVal() && reduction != ReductionKind::None);

  IterationSpace space;
  space.destination = 0;
  space.names = {"data", "indices", "updates", "result"};
  for (int64_t d = 0; d < r; ++d) {
    if (d != a) {
      space.loops.push_back(independent(1, d, /*uneven=*/true));
      continue;
    }
    if (tallied) {
      space.loops.push_back(
          whole(1, d, utils::IteratorType::reduction,
                "a mean or a first-update reduction (use_init_val(false)) "
                "needs every update of an element at once"));
      continue;
    }
    bool ordered = !entriesNeverCollide(*this);
    bool additive = reduction == ReductionKind::Add;
    space.loops.push_back(entries(1, d, ordered, additive));
  }
  space.loops.push_back(indexed(/*gather=*/false, a, 0, /*shiftable=*/true));
  int64_t n = space.numLoops();

  SmallVector<int64_t> dataLoops = identity(r);
  dataLoops[a] = n - 1;
  AffineMap data = loopMap(n, dataLoops, ctx);
  AffineMap entryMap = loopMap(n, identity(r), ctx);
  space.maps = {data, entryMap, entryMap, data};
  return onOperands(*this, space);
}

// result[p, pos(write_indices[p[0]] + s), ...] = update[p, s, ...]
// Loops: the dims of the update (the sequence dim is Whole: its positions
// start at `write_indices`, and never collide: the update is at most as long
// as the cache); the indexed axis of the cache.
IterationSpace TensorScatterOp::getIterationSpace() {
  MLIRContext *ctx = getContext();
  int64_t r = getPastCache().getType().getRank();
  int64_t a = getNormalizedAxis();

  IterationSpace space;
  space.destination = 0;
  space.names = {"past_cache", "update"};
  for (int64_t d = 0; d < r; ++d)
    space.loops.push_back(d == a
                              ? whole(1, d, utils::IteratorType::parallel,
                                      "its positions start at each batch "
                                      "entry's 'write_indices'")
                              : independent(1, d));
  space.loops.push_back(indexed(/*gather=*/false, a, 0, /*shiftable=*/false));
  int64_t n = space.numLoops();

  SmallVector<int64_t> cacheLoops = identity(r);
  cacheLoops[a] = n - 1;
  AffineMap cache = loopMap(n, cacheLoops, ctx);
  space.maps = {cache, loopMap(n, identity(r), ctx)};
  if (getWriteIndices()) {
    space.names.push_back("write_indices");
    space.maps.push_back(loopMap(n, {0}, ctx));
  }
  space.names.push_back("result");
  space.maps.push_back(cache);
  return onOperands(*this, space);
}
