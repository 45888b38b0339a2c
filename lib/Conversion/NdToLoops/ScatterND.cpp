//===- ScatterND.cpp - lower nd.scatter_nd ----------------------*- C++ -*-===//
//
// Lowers nd.scatter_nd (ONNX ScatterND, OpenVINO ScatterNDUpdate-3/15) under
// every oob mode and every reduction, into a private function of its own
// (see LoweringState.h). The entries are the index tuples (see
// IndexTuples.h); each updates a slice of `data`, a row of `data` seen as
// `[prod(shape[:k]), prod(shape[k:])]`, which makes the op a row scatter
// (see RowScatter.h): wide slices are split by column, narrow ones (and
// points) go to row owners.
//
// Preconditions: the op verifies and its reduction is supported on its
// element type (otherwise the pattern does not match). Dynamic dims the
// verifier could not compare (and a dynamic index depth) are checked at run
// time when bounds checking is on; so is every index tuple under oob<error>
// (see RowScatter.h), a failed check reporting the first bad tuple in
// row-major order and leaving data as it was. Under oob<skip> a tuple with a
// component out of range updates nothing; under oob<clamp> each component is
// clamped into its dim.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"
#include "IndexChecks.h"
#include "IndexTuples.h"
#include "OpLowerings.h"
#include "Parallel.h"
#include "RowScatter.h"
#include "Scalars.h"

#include "nd/Conversion/RowSizes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

namespace {
/// Entries are the index tuples; each updates a slice of `data` (a row of
/// `data` seen as `[prod(shape[:k]), prod(shape[k:])]`).
struct ScatterNDLowering : public NdScatterPattern<ScatterNDOp> {
  using NdScatterPattern::NdScatterPattern;

private:
  void scatter(OpBuilder &b, Location loc, ScatterNDOp op, Value data,
               Value indices, Value updates, bool inPlace) const override {
    // The model: the entries are indices.shape[:-1]; component c addresses
    // data dim c, and the row is data.shape[k:].
    RowSizes sizes(op, {data, indices, updates});
    const RowAddressing &model = sizes.addressing();
    int64_t r = op.getData().getType().getRank();
    int64_t rowStart = model.rowStart;
    auto space = std::make_shared<TupleSpace>(tupleSpaceOf(b, loc, sizes));

    RowScatter s;
    s.numRows = product(b, loc, space->sizes);
    s.rowSize = sizes.rowLength(b, loc);
    s.numEntries = sizes.numEntries(b, loc);
    s.updates = updates;
    s.indices = indices;
    s.reduction = model.reduction;
    s.oob = model.oob;
    s.oneD = rowStart == r;
    for (Value size : space->sizes)
      s.bounds.push_back(rangeBound(b, loc, size));
    s.readEntry = [space](OpBuilder &nb, Location nloc, Value flat,
                          Value e) -> EntryRow {
      Tuple tuple = readTuple(nb, nloc, flat, e, *space);
      return {tuple.row, tuple.shifted, tuple.skip};
    };
    Value numEntries = s.numEntries;
    LoweringState *state = this->state.get();
    s.reportFirstBad = [state, op, space,
                        numEntries](OpBuilder &nb, Location nloc, Value flat) {
      reportFirstBadTuple(*state, nb, nloc, op, flat, numEntries, *space);
    };

    // A dim of size 0 leaves nothing to write; the indices are still
    // checked (under oob<error>). The partitions of a row scatter cover the
    // destination's elements: they would check none.
    auto checkOnly = [&](OpBuilder &nb, Location nloc) {
      if (!checksIndices(*state, s))
        return;
      Value chunks = state->numPartitions(nb, nloc, op, s.numEntries);
      Value ok = forEachEntryChecked(
          nb, nloc, s, chunks, state->checksEnabled(),
          [](OpBuilder &, Location, Value) {},
          [](OpBuilder &, Location, Value, const EntryRow &, Value) {});
      reportUnless(nb, nloc, ok, [&](OpBuilder &rb, Location rloc) {
        Value flat = flatView(rb, rloc, indices);
        s.reportFirstBad(rb, rloc, flat);
      });
    };
    auto dataType = op.getData().getType();
    if (llvm::is_contained(dataType.getShape(), 0)) {
      checkOnly(b, loc);
      return;
    }
    // The destination as [rows, slice] (or [rows]).
    SmallVector<ReassociationIndices> groups(1);
    for (int64_t d = 0; d < rowStart; ++d)
      groups[0].push_back(d);
    if (rowStart < r) {
      groups.emplace_back();
      for (int64_t d = rowStart; d < r; ++d)
        groups[1].push_back(d);
    }
    auto write = [&](OpBuilder &nb, Location nloc) {
      scatterRows(nb, nloc, *state, op, s, data, inPlace, groups);
    };
    if (!checksIndices(*state, s) || dataType.hasStaticShape()) {
      write(b, loc);
      return;
    }
    // A dynamic dim may be 0 at run time.
    Value zero = constIndex(b, loc, 0);
    Value size = b.createOrFold<arith::MulIOp>(loc, s.numRows, s.rowSize);
    Value nonEmpty = b.createOrFold<arith::CmpIOp>(
        loc, arith::CmpIPredicate::ne, size, zero);
    auto ifOp = scf::IfOp::create(b, loc, nonEmpty, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    write(b, loc);
    b.setInsertionPointToStart(ifOp.elseBlock());
    checkOnly(b, loc);
  }
};
} // namespace

void mlir::nd::lowering::populateScatterNDLowering(
    RewritePatternSet &patterns, std::shared_ptr<LoweringState> state) {
  patterns.add<ScatterNDLowering>(patterns.getContext(), std::move(state));
}
