//===- NdRowAddressing.cpp - the rows each nd op reads and writes -*- C++ -*-//
//
// `getRowAddressing()` and `getShapeConstraints()` of the six ops, and the
// compile-time evaluation of the row addressing (see NdRowAddressing.h).
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdRowAddressing.h"

#include "NdIndexing.h"

#include "mlir/IR/BuiltinTypes.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

using namespace mlir;
using namespace mlir::nd;

//===----------------------------------------------------------------------===//
// Index rules and the addressing at compile time
//===----------------------------------------------------------------------===//

std::optional<int64_t> nd::resolveConstantIndex(int64_t raw, int64_t size,
                                                OobMode oob) {
  ConstantIndexArithmetic a;
  ResolvedIndexOf<ConstantIndexArithmetic> index =
      resolveIndexWith(a, oob, raw, size);
  if (index.bad)
    return std::nullopt;
  return index.position;
}

int64_t RowAddressing::dataDimOf(int64_t component) const {
  for (auto [d, address] : llvm::enumerate(dataDims))
    if (address.kind != AddressKind::Entry && address.component == component)
      return static_cast<int64_t>(d);
  return -1;
}

SmallVector<ArrayRef<int64_t>> nd::getValueShapes(Operation *op) {
  SmallVector<ArrayRef<int64_t>> shapes;
  for (Type type : op->getOperandTypes())
    shapes.push_back(cast<ShapedType>(type).getShape());
  for (Type type : op->getResultTypes())
    shapes.push_back(cast<ShapedType>(type).getShape());
  return shapes;
}

static bool isStatic(ArrayRef<int64_t> shape) {
  return llvm::none_of(shape, ShapedType::isDynamic);
}

namespace {
/// What the evaluation of one entry reads.
struct ConstantEntries {
  const RowAddressing &rows;
  ArrayRef<int64_t> dataShape;
  SmallVector<int64_t> entryShape;
  SmallVector<int64_t> indexStrides;
  ArrayRef<int64_t> values;

  /// Index value `component` of the entry at `position` (0 without an index
  /// operand).
  int64_t indexValue(ArrayRef<int64_t> position, int64_t component) const {
    if (!rows.indices)
      return 0;
    int64_t flat = 0;
    for (auto [address, stride] : llvm::zip_equal(rows.indexDims, indexStrides))
      flat += stride * (address.kind == AddressKind::Component
                            ? component
                            : position[address.entryDim]);
    return values[flat];
  }

  /// The coordinate of data dim `d` for the entry at `position`, nullopt
  /// where its index is bad.
  std::optional<int64_t> coordinate(int64_t d,
                                    ArrayRef<int64_t> position) const {
    const DimAddress &address = rows.dataDims[d];
    ConstantIndexArithmetic a;
    int64_t size = dataShape[d];
    switch (address.kind) {
    case AddressKind::Entry:
      return position[address.entryDim];
    case AddressKind::Index: {
      ResolvedIndexOf<ConstantIndexArithmetic> index = resolveIndexWith(
          a, rows.oob, indexValue(position, address.component), size);
      return index.bad ? std::nullopt : std::optional<int64_t>(index.position);
    }
    case AddressKind::Sequence: {
      int64_t lastStart = a.sub(size, entryShape[address.entryDim]);
      ResolvedIndexOf<ConstantIndexArithmetic> start = resolveWriteIndexWith(
          a, rows.mode, rows.oob, indexValue(position, 0), lastStart);
      // An entry exists only where the update has rows, so size > 0.
      if (start.bad || size == 0)
        return std::nullopt;
      return sequencePositionWith(a, rows.mode, start.position,
                                  position[address.entryDim], size);
    }
    case AddressKind::Component:
      break;
    }
    llvm_unreachable("a data dim is never a component dim");
  }
};
} // namespace

LogicalResult nd::forEachConstantEntry(
    const RowAddressing &rows, ArrayRef<ArrayRef<int64_t>> shapes,
    ArrayRef<int64_t> values,
    function_ref<void(int64_t, std::optional<ArrayRef<int64_t>>)> fn) {
  ConstantEntries entries{rows, shapes[rows.data], {}, {}, values};
  for (const DimRef &dim : rows.entryDims)
    entries.entryShape.push_back(shapes[dim.value][dim.dim]);
  if (!isStatic(entries.entryShape))
    return failure();
  if (rows.indices) {
    ArrayRef<int64_t> indexShape = shapes[*rows.indices];
    if (!isStatic(indexShape) || ShapedType::getNumElements(indexShape) !=
                                     static_cast<int64_t>(values.size()))
      return failure();
    entries.indexStrides = indexing::getStrides(indexShape);
  }
  for (auto [d, address] : llvm::enumerate(rows.dataDims))
    if (address.kind != AddressKind::Entry &&
        ShapedType::isDynamic(entries.dataShape[d]))
      return failure();

  SmallVector<int64_t> coordinates(rows.dataDims.size());
  indexing::forEachPosition(
      entries.entryShape, [&](int64_t entry, ArrayRef<int64_t> position) {
        for (int64_t d = 0, e = coordinates.size(); d < e; ++d) {
          std::optional<int64_t> coordinate = entries.coordinate(d, position);
          if (!coordinate) {
            fn(entry, std::nullopt);
            return;
          }
          coordinates[d] = *coordinate;
        }
        fn(entry, ArrayRef<int64_t>(coordinates));
      });
  return success();
}

std::optional<ConstantRows> nd::evaluateRows(const RowAddressing &rows,
                                             ArrayRef<ArrayRef<int64_t>> shapes,
                                             ArrayRef<int64_t> values) {
  ArrayRef<int64_t> dataShape = shapes[rows.data];
  if (!isStatic(dataShape))
    return std::nullopt;
  ConstantRows result;
  result.rowLength =
      ShapedType::getNumElements(dataShape.drop_front(rows.rowStart));
  SmallVector<int64_t> rowStrides =
      indexing::getStrides(dataShape.take_front(rows.rowStart));
  auto addRow = [&](int64_t, std::optional<ArrayRef<int64_t>> coordinates) {
    if (!coordinates) {
      result.dataRows.push_back(std::nullopt);
      return;
    }
    int64_t row = 0;
    for (auto [coordinate, stride] : llvm::zip_equal(*coordinates, rowStrides))
      row += coordinate * stride;
    result.dataRows.push_back(row);
  };
  if (failed(forEachConstantEntry(rows, shapes, values, addRow)))
    return std::nullopt;
  return result;
}

//===----------------------------------------------------------------------===//
// Shape constraints
//===----------------------------------------------------------------------===//

bool ShapeConstraint::isDecidedStatically(int64_t lhsSize,
                                          int64_t rhsSize) const {
  bool lhsStatic = !ShapedType::isDynamic(lhsSize);
  bool rhsStatic = !ShapedType::isDynamic(rhsSize);
  switch (rule) {
  case ShapeRule::IndexDepth:
    return lhsStatic;
  case ShapeRule::ResultDim:
    return !rhsStatic || lhsStatic;
  default:
    break;
  }
  if (atMost && lhsSize == 0)
    return true;
  return lhsStatic && rhsStatic;
}

bool ShapeConstraint::needsRuntimeCheck(int64_t lhsSize,
                                        int64_t rhsSize) const {
  if (rule == ShapeRule::IndexDepth)
    return ShapedType::isDynamic(lhsSize);
  return ShapedType::isDynamic(lhsSize) || ShapedType::isDynamic(rhsSize);
}

bool ShapeConstraint::isViolated(int64_t lhsSize, int64_t rhsSize) const {
  if (rule == ShapeRule::IndexDepth)
    return lhsSize != depth;
  return atMost ? lhsSize > rhsSize : lhsSize != rhsSize;
}

std::pair<int64_t, int64_t>
nd::getConstraintSizes(const ShapeConstraint &constraint,
                       ArrayRef<ArrayRef<int64_t>> shapes) {
  int64_t lhs = shapes[constraint.lhs.value][constraint.lhs.dim];
  if (constraint.rule == ShapeRule::IndexDepth)
    return {lhs, constraint.depth};
  return {lhs, shapes[constraint.rhs.value][constraint.rhs.dim]};
}

/// `lhs` (value `lhsValue`, `lhsName`) against `rhs`.
static ShapeConstraint makeConstraint(ShapeRule rule, unsigned lhsValue,
                                      StringRef lhsName, int64_t lhsDim,
                                      unsigned rhsValue, StringRef rhsName,
                                      int64_t rhsDim, bool atMost = false) {
  ShapeConstraint constraint;
  constraint.rule = rule;
  constraint.lhs = {lhsValue, lhsDim};
  constraint.rhs = {rhsValue, rhsDim};
  constraint.lhsName = lhsName;
  constraint.rhsName = rhsName;
  constraint.atMost = atMost;
  return constraint;
}

void nd::appendIndexDepth(ShapeConstraints &list, unsigned indices,
                          int64_t indicesRank, int64_t depth) {
  ShapeConstraint constraint =
      makeConstraint(ShapeRule::IndexDepth, indices, "indices", indicesRank - 1,
                     indices, "indices", indicesRank - 1);
  constraint.depth = depth;
  list.push_back(constraint);
}

void nd::appendBatchDims(ShapeConstraints &list, int64_t batchDims) {
  for (int64_t d = 0; d < batchDims; ++d)
    list.push_back(
        makeConstraint(ShapeRule::BatchDim, 1, "indices", d, 0, "data", d));
}

void nd::appendWithinData(ShapeConstraints &list, unsigned lhs,
                          StringRef lhsName, int64_t rank, int64_t axis) {
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      list.push_back(makeConstraint(ShapeRule::WithinData, lhs, lhsName, d, 0,
                                    "data", d, /*atMost=*/true));
}

/// A gather's result dim `d` against operand dim `dim` of `value`.
static ShapeConstraint resultDim(unsigned value, int64_t dim, int64_t d) {
  return makeConstraint(ShapeRule::ResultDim, value,
                        value == 0 ? "data" : "indices", dim, 2, "result", d);
}

ShapeConstraints nd::getScatterNDConstraints(int64_t dataRank,
                                             int64_t indicesRank,
                                             int64_t updatesRank,
                                             int64_t depth) {
  ShapeConstraints list;
  int64_t r = dataRank, q = indicesRank, k = depth;
  appendIndexDepth(list, 1, q, k);
  // OpenVINO's one-element updates: every dim is a static 1.
  if (updatesRank != q - 1 + r - k)
    return list;
  for (int64_t d = 0; d < q - 1; ++d)
    list.push_back(
        makeConstraint(ShapeRule::EntryDim, 2, "updates", d, 1, "indices", d));
  for (int64_t d = k; d < r; ++d)
    list.push_back(makeConstraint(ShapeRule::SliceDim, 2, "updates",
                                  q - 1 + d - k, 0, "data", d));
  return list;
}

ShapeConstraints nd::getGatherNDConstraints(int64_t indicesRank,
                                            int64_t batchDims, int64_t depth,
                                            int64_t resultRank) {
  ShapeConstraints list;
  int64_t q = indicesRank, b = batchDims, k = depth;
  appendIndexDepth(list, 1, q, k);
  appendBatchDims(list, b);
  for (int64_t d = 0; d < q - 1; ++d)
    list.push_back(resultDim(1, d, d));
  for (int64_t d = q - 1; d < resultRank; ++d)
    list.push_back(resultDim(0, b + k + d - (q - 1), d));
  return list;
}

ShapeConstraints nd::getScatterElementsConstraints(int64_t rank, int64_t axis) {
  ShapeConstraints list;
  for (int64_t d = 0; d < rank; ++d)
    list.push_back(
        makeConstraint(ShapeRule::EntryDim, 2, "updates", d, 1, "indices", d));
  appendWithinData(list, 1, "indices", rank, axis);
  return list;
}

ShapeConstraints nd::getGatherElementsConstraints(int64_t rank, int64_t axis) {
  ShapeConstraints list;
  appendWithinData(list, 1, "indices", rank, axis);
  for (int64_t d = 0; d < rank; ++d)
    list.push_back(resultDim(1, d, d));
  return list;
}

ShapeConstraints nd::getGatherConstraints(int64_t dataRank, int64_t indicesRank,
                                          int64_t axis, int64_t batchDims) {
  ShapeConstraints list;
  int64_t a = axis, b = batchDims;
  appendBatchDims(list, b);
  int64_t resultRank = dataRank - 1 + indicesRank - b;
  // Result dims [a, indexEnd) are indices dims [b, q).
  int64_t indexEnd = a + indicesRank - b;
  for (int64_t d = 0; d < resultRank; ++d) {
    if (d < a)
      list.push_back(resultDim(0, d, d));
    else if (d < indexEnd)
      list.push_back(resultDim(1, d - a + b, d));
    else
      list.push_back(resultDim(0, d - indexEnd + a + 1, d));
  }
  return list;
}

ShapeConstraints nd::getTensorScatterConstraints(int64_t rank, int64_t axis,
                                                 bool hasWriteIndices) {
  ShapeConstraints list;
  for (int64_t d = 0; d < rank; ++d) {
    ShapeRule rule =
        d == axis ? ShapeRule::SequenceLength : ShapeRule::CacheDim;
    list.push_back(makeConstraint(rule, 1, "update", d, 0, "past_cache", d,
                                  /*atMost=*/d == axis));
  }
  if (hasWriteIndices)
    list.push_back(makeConstraint(ShapeRule::BatchSize, 2, "write_indices", 0,
                                  0, "past_cache", 0));
  return list;
}

//===----------------------------------------------------------------------===//
// The addressing of each op
//===----------------------------------------------------------------------===//

static DimAddress entryAddress(int64_t entryDim) {
  return {AddressKind::Entry, entryDim, -1};
}

static DimAddress indexAddress(int64_t component) {
  return {AddressKind::Index, -1, component};
}

/// The index dims of an ND op: `indices.shape[:-1]` are the entries, the
/// last dim holds the components.
static void addTupleIndexDims(RowAddressing &rows, int64_t indicesRank) {
  rows.indices = 1;
  for (int64_t i = 0; i < indicesRank - 1; ++i) {
    rows.entryDims.push_back({1, i});
    rows.indexDims.push_back(entryAddress(i));
  }
  rows.indexDims.push_back({AddressKind::Component, -1, -1});
}

// result[indices[u..., :], s...] = f(result[...], updates[u..., s...])
RowAddressing ScatterNDOp::getRowAddressing() {
  int64_t k = getIndexDepth();
  RowAddressing rows;
  addTupleIndexDims(rows, getIndices().getType().getRank());
  for (int64_t j = 0; j < k; ++j)
    rows.dataDims.push_back(indexAddress(j));
  rows.rowStart = k;
  rows.rows = 2;
  rows.numComponents = k;
  rows.oob = getOob();
  rows.reduction = getReduction();
  return rows;
}

// result[n..., i..., s...] = data[n..., indices[n..., i..., :], s...]
RowAddressing GatherNDOp::getRowAddressing() {
  int64_t b = getBatchDims();
  int64_t k = getIndexDepth();
  RowAddressing rows;
  addTupleIndexDims(rows, getIndices().getType().getRank());
  for (int64_t d = 0; d < b; ++d)
    rows.dataDims.push_back(entryAddress(d));
  for (int64_t c = 0; c < k; ++c)
    rows.dataDims.push_back(indexAddress(c));
  rows.rowStart = b + k;
  rows.rows = 2;
  rows.numComponents = k;
  rows.gather = true;
  rows.oob = getOob();
  return rows;
}

/// The Elements ops: one entry per element of `indices`, which addresses
/// the element of data at its own position with the axis coordinate
/// replaced.
static RowAddressing elementsAddressing(int64_t rank, int64_t axis) {
  RowAddressing rows;
  rows.indices = 1;
  for (int64_t d = 0; d < rank; ++d) {
    rows.entryDims.push_back({1, d});
    rows.indexDims.push_back(entryAddress(d));
    rows.dataDims.push_back(d == axis ? indexAddress(0) : entryAddress(d));
  }
  rows.rowStart = rank;
  rows.rows = 2;
  return rows;
}

RowAddressing ScatterElementsOp::getRowAddressing() {
  RowAddressing rows =
      elementsAddressing(getData().getType().getRank(), getNormalizedAxis());
  rows.oob = getOob();
  rows.reduction = getReduction();
  rows.useInitVal = getUseInitVal();
  return rows;
}

RowAddressing GatherElementsOp::getRowAddressing() {
  RowAddressing rows =
      elementsAddressing(getData().getType().getRank(), getNormalizedAxis());
  rows.gather = true;
  rows.oob = getOob();
  return rows;
}

// result[p..., i..., s...] = data[p..., indices[p[:b]..., i...], s...]
// Entries: the positions of data.shape[:a] ++ indices.shape[b:].
RowAddressing GatherOp::getRowAddressing() {
  int64_t a = getNormalizedAxis();
  int64_t b = getBatchDims();
  int64_t q = getIndices().getType().getRank();
  RowAddressing rows;
  for (int64_t d = 0; d < a; ++d) {
    rows.entryDims.push_back({0, d});
    rows.dataDims.push_back(entryAddress(d));
  }
  rows.dataDims.push_back(indexAddress(0));
  rows.rowStart = a + 1;
  rows.indices = 1;
  for (int64_t d = 0; d < q; ++d) {
    if (d >= b)
      rows.entryDims.push_back({1, d});
    rows.indexDims.push_back(entryAddress(d < b ? d : a + d - b));
  }
  rows.rows = 2;
  rows.gather = true;
  rows.oob = getOob();
  return rows;
}

// result[p, pos(write_indices[p[0]] + s), ...] = update[p, s, ...]
// Entries: the positions of past_cache.shape[:a] ++ [sequence_length].
RowAddressing TensorScatterOp::getRowAddressing() {
  int64_t a = getNormalizedAxis();
  RowAddressing rows;
  for (int64_t d = 0; d < a; ++d) {
    rows.entryDims.push_back({0, d});
    rows.dataDims.push_back(entryAddress(d));
  }
  rows.entryDims.push_back({1, a});
  rows.dataDims.push_back({AddressKind::Sequence, a, 0});
  rows.rowStart = a + 1;
  rows.rows = 1;
  if (getWriteIndices()) {
    rows.indices = 2;
    rows.indexDims.push_back(entryAddress(0));
  }
  rows.oob = getOob();
  rows.mode = getMode();
  return rows;
}

//===----------------------------------------------------------------------===//
// The shape constraints of each op
//===----------------------------------------------------------------------===//

ShapeConstraints ScatterNDOp::getShapeConstraints() {
  return getScatterNDConstraints(
      getData().getType().getRank(), getIndices().getType().getRank(),
      getUpdates().getType().getRank(), getIndexDepth());
}

ShapeConstraints GatherNDOp::getShapeConstraints() {
  return getGatherNDConstraints(getIndices().getType().getRank(),
                                getBatchDims(), getIndexDepth(),
                                getProducedType(*this).getRank());
}

ShapeConstraints ScatterElementsOp::getShapeConstraints() {
  return getScatterElementsConstraints(getData().getType().getRank(),
                                       getNormalizedAxis());
}

ShapeConstraints GatherElementsOp::getShapeConstraints() {
  return getGatherElementsConstraints(getData().getType().getRank(),
                                      getNormalizedAxis());
}

ShapeConstraints GatherOp::getShapeConstraints() {
  return getGatherConstraints(getData().getType().getRank(),
                              getIndices().getType().getRank(),
                              getNormalizedAxis(), getBatchDims());
}

ShapeConstraints TensorScatterOp::getShapeConstraints() {
  return getTensorScatterConstraints(getPastCache().getType().getRank(),
                                     getNormalizedAxis(),
                                     static_cast<bool>(getWriteIndices()));
}
