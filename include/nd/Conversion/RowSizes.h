//===- RowSizes.h - an op's row addressing as IR sizes ----------*- C++ -*-===//
//
// What both lowerings read of an op's model (its row addressing,
// `getRowAddressing()`, nd/Dialect/Nd/IR/NdRowAddressing.h) to size their
// loops and kernels: the entries, the row each entry moves, the data dim
// each index component addresses, as index values of the op's buffers. The
// CPU lowering (--lower-scatter) and the GPU lowering (--convert-nd-to-gpu)
// ask these questions instead of each knowing, per op, which operand dims
// hold the entries and which data dims an index resolves against.
//
// Nothing is cached: each call builds its dims and products where the
// builder is (folding static sizes into shared constants), so that a
// lowering decides what it builds and in which order, as it did when it
// read the dims itself.
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_ROWSIZES_H
#define ND_CONVERSION_ROWSIZES_H

#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/IR/NdRowAddressing.h"

#include "mlir/IR/Builders.h"

namespace mlir::nd {

/// The sizes of `op`'s row addressing over `values`, the op's values in map
/// order as the lowering sees them (on buffers its operands, a gather's
/// `into` in the result's place; the arguments of an outlined op function).
class RowSizes {
public:
  RowSizes(IterationSpaceOpInterface op, ValueRange values);

  const RowAddressing &addressing() const { return rows; }
  /// Index components per entry (`k` of the ND ops, else 1).
  int64_t numComponents() const { return rows.numComponents; }
  /// The value index values address (a scatter's destination, a gather's
  /// source), the index operand (null without one), and the value whose row
  /// `e` entry `e` moves.
  Value data() const { return values[rows.data]; }
  Value indices() const;
  Value rowsValue() const { return values[rows.rows]; }

  /// The sizes of entry dims `[from, to)` (`to` of -1: to the last).
  SmallVector<Value> entrySizes(OpBuilder &b, Location loc, int64_t from = 0,
                                int64_t to = -1) const;
  /// The number of entries: the product of every entry dim.
  Value numEntries(OpBuilder &b, Location loc) const;

  /// The sizes of data dims `[from, to)`.
  SmallVector<Value> dataSizes(OpBuilder &b, Location loc, int64_t from,
                               int64_t to) const;
  /// The elements of a row: the product of data's dims from `rowStart` on.
  Value rowLength(OpBuilder &b, Location loc) const;
  /// The sizes of the data dims before the row (`[0, rowStart)`).
  SmallVector<Value> rowIndexSizes(OpBuilder &b, Location loc) const;

  /// The data dim index component `c` addresses, and its size: what a
  /// value of that component resolves against under `oob`.
  int64_t componentDim(int64_t c) const;
  Value componentSize(OpBuilder &b, Location loc, int64_t c) const;
  /// The size of every component's data dim, in component order.
  SmallVector<Value> componentSizes(OpBuilder &b, Location loc) const;

private:
  RowAddressing rows;
  SmallVector<Value> values;
};

} // namespace mlir::nd

#endif // ND_CONVERSION_ROWSIZES_H
