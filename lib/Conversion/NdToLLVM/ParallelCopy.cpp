//===- ParallelCopy.cpp - large copies as parallel memcpy chunks -*- C++
//-*-===//
//
// `--nd-parallel-copy`: a `memref.copy` between identity-layout buffers of at
// least `min-bytes` becomes an `scf.parallel` over chunks of `chunk-bytes`,
// each a `memref.copy` of static shape (lowered to `llvm.intr.memcpy`); the
// last, partial chunk is copied after the loop as the final full-size window,
// which overlaps the chunk before it with the same bytes.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDPARALLELCOPY
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// Bytes per element in memory, if known: integers and floats round up to
/// whole bytes, complex numbers hold two.
static std::optional<int64_t> elementBytes(Type type) {
  if (auto complex = dyn_cast<ComplexType>(type)) {
    std::optional<int64_t> part = elementBytes(complex.getElementType());
    if (!part)
      return std::nullopt;
    return 2 * *part;
  }
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return std::nullopt;
}

/// `memref` (identity layout, rank >= 1) as one dimension.
static Value flatten(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1)
    return memref;
  ReassociationIndices all;
  bool dynamic = false;
  int64_t size = 1;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    all.push_back(d);
    dynamic |= type.isDynamicDim(d);
    if (!type.isDynamicDim(d))
      size *= type.getDimSize(d);
  }
  // A dynamic dim makes the collapsed one dynamic, even beside a static 0.
  auto flatType = MemRefType::get({dynamic ? ShapedType::kDynamic : size},
                                  type.getElementType());
  return memref::CollapseShapeOp::create(b, loc, flatType, memref,
                                         ArrayRef<ReassociationIndices>{all});
}

namespace {
struct NdParallelCopyPass
    : public mlir::nd::impl::NdParallelCopyBase<NdParallelCopyPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target || !source.getLayout().isIdentity() ||
          !target.getLayout().isIdentity() || source.getRank() == 0 ||
          !elementBytes(source.getElementType()))
        return;
      // A static copy smaller than a parallel one stays as it is.
      if (source.hasStaticShape() &&
          source.getNumElements() * *elementBytes(source.getElementType()) <
              std::max<int64_t>(minBytes, chunkBytes))
        return;
      copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies)
      rewrite(copy);
  }

  void rewrite(memref::CopyOp copy) {
    OpBuilder b(copy);
    Location loc = copy.getLoc();
    auto type = cast<MemRefType>(copy.getSource().getType());
    int64_t bytes = *elementBytes(type.getElementType());
    int64_t chunk = std::max<int64_t>(1, chunkBytes / bytes);
    // At least one full chunk, so that the last window starts at >= 0.
    int64_t threshold =
        std::max<int64_t>(chunk, (minBytes + bytes - 1) / bytes);

    Value numElements = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value size = memref::DimOp::create(b, loc, copy.getSource(), d);
      numElements = arith::MulIOp::create(b, loc, numElements, size);
    }
    Value thresholdValue = arith::ConstantIndexOp::create(b, loc, threshold);
    Value large = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                        numElements, thresholdValue);
    auto ifOp = scf::IfOp::create(b, loc, large, /*withElseRegion=*/true);

    // Small: the copy as it was.
    copy->moveBefore(ifOp.elseBlock()->getTerminator());

    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value source = flatten(b, loc, copy.getSource());
    Value target = flatten(b, loc, copy.getTarget());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    Value chunkValue = arith::ConstantIndexOp::create(b, loc, chunk);
    Value fullChunks = arith::DivUIOp::create(b, loc, numElements, chunkValue);
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(chunk)};
    SmallVector<OpFoldResult> strides = {b.getIndexAttr(1)};
    auto copyWindow = [&](OpBuilder &nb, Location nloc, Value offset) {
      SmallVector<OpFoldResult> offsets = {offset};
      Value from =
          memref::SubViewOp::create(nb, nloc, source, offsets, sizes, strides);
      Value to =
          memref::SubViewOp::create(nb, nloc, target, offsets, sizes, strides);
      memref::CopyOp::create(nb, nloc, from, to);
    };
    scf::ParallelOp::create(
        b, loc, ValueRange{zero}, ValueRange{fullChunks}, ValueRange{one},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value offset = arith::MulIOp::create(nb, nloc, ivs[0], chunkValue);
          copyWindow(nb, nloc, offset);
        });
    Value rest = arith::RemUIOp::create(b, loc, numElements, chunkValue);
    Value partial =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rest, zero);
    auto tail = scf::IfOp::create(b, loc, partial, /*withElseRegion=*/false);
    b.setInsertionPointToStart(tail.thenBlock());
    Value lastOffset = arith::SubIOp::create(b, loc, numElements, chunkValue);
    copyWindow(b, loc, lastOffset);
  }
};
} // namespace
