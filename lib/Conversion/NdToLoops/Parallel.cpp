//===- Parallel.cpp - parallel structure of the nd lowering -----*- C++ -*-===//
//
// See Parallel.h.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

std::pair<Value, Value> lowering::partRange(OpBuilder &b, Location loc, Value n,
                                            Value parts, Value p) {
  // lo(p) = p * (n / parts) + min(p, n % parts): no overflow for any n.
  Value base = b.createOrFold<arith::DivUIOp>(loc, n, parts);
  Value extra = b.createOrFold<arith::RemUIOp>(loc, n, parts);
  auto start = [&](Value part) -> Value {
    Value full = b.createOrFold<arith::MulIOp>(loc, part, base);
    Value bonus = minIndex(b, loc, part, extra);
    return b.createOrFold<arith::AddIOp>(loc, full, bonus);
  };
  Value one = constIndex(b, loc, 1);
  Value next = b.createOrFold<arith::AddIOp>(loc, p, one);
  Value lo = start(p);
  Value hi = start(next);
  return {lo, hi};
}

void lowering::buildParallel(
    OpBuilder &b, Location loc, Value parts,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  scf::ParallelOp::create(b, loc, ValueRange{zero}, ValueRange{parts},
                          ValueRange{one},
                          [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                            body(nb, nloc, ivs[0]);
                          });
}

Value lowering::anyFlag(OpBuilder &b, Location loc, Value flags, Value count) {
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  Value no = constBool(b, loc, false);
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{no},
      [&](OpBuilder &nb, Location nloc, Value i, ValueRange acc) {
        Value flag = memref::LoadOp::create(nb, nloc, flags, ValueRange{i});
        Value any = orBool(nb, nloc, acc[0], flag);
        scf::YieldOp::create(nb, nloc, any);
      });
  return loop.getResult(0);
}

MemRefType lowering::sliceMemRefType(Type elementType, ArrayRef<int64_t> shape,
                                     bool contiguousRows) {
  SmallVector<int64_t> strides(shape.size(), ShapedType::kDynamic);
  if (contiguousRows && !strides.empty())
    strides.back() = 1;
  auto layout = StridedLayoutAttr::get(elementType.getContext(),
                                       ShapedType::kDynamic, strides);
  return MemRefType::get(shape, elementType, layout);
}

/// The natural alignment of `elementType` in bytes (that of its parts for a
/// complex type).
static int64_t naturalAlignment(Type elementType) {
  if (auto complex = dyn_cast<ComplexType>(elementType))
    elementType = complex.getElementType();
  if (!elementType.isIntOrFloat())
    return 1;
  return std::max<int64_t>(1, elementType.getIntOrFloatBitWidth() / 8);
}

Value lowering::basePointer(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  MemRefType probeType = sliceMemRefType(type.getElementType(), type.getShape(),
                                         /*contiguousRows=*/false);
  Value buffer = bufferization::ToBufferOp::create(b, loc, probeType, tensor,
                                                   /*read_only=*/true);
  return memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, b.getIndexType(), buffer);
}

Value lowering::buildPartitionedUpdate(
    OpBuilder &b, Location loc, Value dest, Value dataPointer, Value parts,
    MemRefType sliceType,
    function_ref<SliceRegion(OpBuilder &, Location, Value)> region,
    function_ref<void(OpBuilder &, Location, Value, Value, Value)> body) {
  auto destType = cast<RankedTensorType>(dest.getType());
  // A destination without elements is not partitioned: canonicalization
  // of scf.forall slices of a tensor with a static zero dim (known only
  // once a tensor.cast folds, say) builds invalid IR, and the guard folds
  // away first.
  SmallVector<Value> dims;
  for (int64_t d = 0; d < destType.getRank(); ++d)
    dims.push_back(dimValue(b, loc, dest, d));
  Value numElements = product(b, loc, dims);
  Value zero = constIndex(b, loc, 0);
  Value nonEmpty = b.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                                 numElements, zero);
  auto guard = scf::IfOp::create(b, loc, TypeRange{destType}, nonEmpty,
                                 /*withElseRegion=*/true);
  OpBuilder::InsertionGuard insertion(b);
  b.setInsertionPointToStart(guard.elseBlock());
  scf::YieldOp::create(b, loc, dest);
  b.setInsertionPointToStart(guard.thenBlock());
  SmallVector<OpFoldResult> ubs = {parts};
  auto forall = scf::ForallOp::create(
      b, loc, ubs, ValueRange{dest}, /*mapping=*/std::nullopt,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value p = args[0];
        Value shared = args[1];
        SliceRegion slice = region(nb, nloc, p);
        SmallVector<OpFoldResult> strides(destType.getRank(),
                                          nb.getIndexAttr(1));
        auto part = tensor::ExtractSliceOp::create(
            nb, nloc, shared, slice.offsets, slice.sizes, strides);
        auto partType = cast<RankedTensorType>(part.getType());
        auto bufferType =
            MemRefType::get(partType.getShape(), partType.getElementType(),
                            sliceType.getLayout());
        Value buffer =
            bufferization::ToBufferOp::create(nb, nloc, bufferType, part);
        // Canonicalization rewrites a memref.load of a to_buffer into a
        // tensor.extract of its tensor, which reads the slice as it was
        // before this partition's writes; the body reads and writes through
        // this alias instead (an alignment every element has anyway).
        Value access = memref::AssumeAlignmentOp::create(
            nb, nloc, buffer,
            nb.getI32IntegerAttr(naturalAlignment(partType.getElementType())));
        Value slicePointer = memref::ExtractAlignedPointerAsIndexOp::create(
            nb, nloc, nb.getIndexType(), buffer);
        Value inPlace = nb.createOrFold<arith::CmpIOp>(
            nloc, arith::CmpIPredicate::eq, slicePointer, dataPointer);
        body(nb, nloc, p, access, inPlace);
        Value updated = bufferization::ToTensorOp::create(
            nb, nloc, partType, buffer, /*restrict=*/true, /*writable=*/true);
        auto inParallel = scf::InParallelOp::create(nb, nloc);
        OpBuilder::InsertionGuard guard(nb);
        nb.setInsertionPointToStart(inParallel.getBody());
        tensor::ParallelInsertSliceOp::create(
            nb, nloc, updated, shared, slice.offsets, slice.sizes, strides);
      });
  scf::YieldOp::create(b, loc, forall.getResult(0));
  return guard.getResult(0);
}

Value lowering::checkedApply(
    OpBuilder &b, Location loc, Value inPlace,
    function_ref<Value(OpBuilder &, Location)> checkAll,
    function_ref<Value(OpBuilder &, Location)> applyFused) {
  auto pre = scf::IfOp::create(
      b, loc, inPlace,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, checkAll(nb, nloc));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, false));
      });
  Value preBad = pre.getResult(0);
  auto work = scf::IfOp::create(
      b, loc, preBad,
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, constBool(nb, nloc, true));
      },
      [&](OpBuilder &nb, Location nloc) {
        scf::YieldOp::create(nb, nloc, applyFused(nb, nloc));
      });
  return work.getResult(0);
}
