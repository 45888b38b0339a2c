//===- RowSizes.cpp - an op's row addressing as IR sizes ------------------===//
//
// See nd/Conversion/RowSizes.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/RowSizes.h"

#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

using namespace mlir;
using namespace mlir::nd;

RowSizes::RowSizes(IterationSpaceOpInterface op, ValueRange values)
    : rows(op.getRowAddressing()), values(values) {
  assert(rows.data < this->values.size() && rows.rows < this->values.size() &&
         "the op's values in map order");
}

Value RowSizes::indices() const {
  return rows.indices ? values[*rows.indices] : Value();
}

SmallVector<Value> RowSizes::entrySizes(OpBuilder &b, Location loc,
                                        int64_t from, int64_t to) const {
  int64_t end = static_cast<int64_t>(rows.entryDims.size());
  if (to < 0)
    to = end;
  assert(0 <= from && from <= to && to <= end && "entry dims in range");
  SmallVector<Value> sizes;
  for (const DimRef &dim : ArrayRef(rows.entryDims).slice(from, to - from))
    sizes.push_back(dimValue(b, loc, values[dim.value], dim.dim));
  return sizes;
}

Value RowSizes::numEntries(OpBuilder &b, Location loc) const {
  return product(b, loc, entrySizes(b, loc));
}

SmallVector<Value> RowSizes::dataSizes(OpBuilder &b, Location loc, int64_t from,
                                       int64_t to) const {
  return dimValues(b, loc, data(), from, to);
}

Value RowSizes::rowLength(OpBuilder &b, Location loc) const {
  int64_t rank = cast<ShapedType>(data().getType()).getRank();
  return product(b, loc, dataSizes(b, loc, rows.rowStart, rank));
}

SmallVector<Value> RowSizes::rowIndexSizes(OpBuilder &b, Location loc) const {
  return dataSizes(b, loc, 0, rows.rowStart);
}

int64_t RowSizes::componentDim(int64_t c) const {
  int64_t d = rows.dataDimOf(c);
  assert(d >= 0 && "every component addresses a data dim");
  return d;
}

Value RowSizes::componentSize(OpBuilder &b, Location loc, int64_t c) const {
  return dimValue(b, loc, data(), componentDim(c));
}

SmallVector<Value> RowSizes::componentSizes(OpBuilder &b, Location loc) const {
  SmallVector<Value> sizes;
  for (int64_t c = 0; c < rows.numComponents; ++c)
    sizes.push_back(componentSize(b, loc, c));
  return sizes;
}
