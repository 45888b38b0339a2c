//===- ParallelCopy.cpp - large copies as parallel memcpys ------*- C++ -*-===//
//
// `--nd-parallel-copy`: a `memref.copy` between identity-layout buffers
// (such as the copy of `data` an out-of-place scatter makes) becomes, when it
// moves at least `min-bytes`, an `scf.parallel` over as many contiguous byte
// ranges as there are threads (at most one per `min-bytes`), each copied by
// one `llvm.intr.memcpy`. One large memcpy per thread lets the C library
// stream the bytes (non-temporal stores past its size threshold), which a
// copy cut into small chunks would not. Smaller copies stay as they are.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
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

/// The function the nd lowering asks the thread count from (see
/// `--convert-nd-runtime-to-llvm`).
static constexpr StringLiteral kMaxThreadsFn = "__nd_max_threads";

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

/// The address of the first element of `memref` (identity layout) plus
/// `offset` bytes, as an LLVM pointer.
static Value addressOf(OpBuilder &b, Location loc, Value memref, Value offset) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, b.getIndexType(), memref);
  Value at = arith::AddIOp::create(b, loc, base, offset);
  Value asInt = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), at);
  auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
  return LLVM::IntToPtrOp::create(b, loc, ptrType, asInt);
}

namespace {
struct NdParallelCopyPass
    : public mlir::nd::impl::NdParallelCopyBase<NdParallelCopyPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::CopyOp> copies;
    module.walk([&](memref::CopyOp copy) {
      auto source = dyn_cast<MemRefType>(copy.getSource().getType());
      auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
      if (!source || !target || !source.getLayout().isIdentity() ||
          !target.getLayout().isIdentity() ||
          !elementBytes(source.getElementType()))
        return;
      // A static copy smaller than one partition stays as it is.
      if (source.hasStaticShape() &&
          source.getNumElements() * *elementBytes(source.getElementType()) <
              2 * minBytes)
        return;
      copies.push_back(copy);
    });
    if (copies.empty())
      return;

    OpBuilder b(&getContext());
    if (!module.lookupSymbol(kMaxThreadsFn)) {
      b.setInsertionPointToStart(module.getBody());
      auto type = b.getFunctionType({}, {b.getIndexType()});
      auto fn = func::FuncOp::create(b, module.getLoc(), kMaxThreadsFn, type);
      fn.setPrivate();
    }
    for (memref::CopyOp copy : copies)
      rewrite(b, copy);
  }

  void rewrite(OpBuilder &b, memref::CopyOp copy) {
    b.setInsertionPoint(copy);
    Location loc = copy.getLoc();
    auto type = cast<MemRefType>(copy.getSource().getType());
    int64_t bytesPerElement = *elementBytes(type.getElementType());

    Value numElements = arith::ConstantIndexOp::create(b, loc, 1);
    for (int64_t d = 0; d < type.getRank(); ++d) {
      Value size = memref::DimOp::create(b, loc, copy.getSource(), d);
      numElements = arith::MulIOp::create(b, loc, numElements, size);
    }
    Value width = arith::ConstantIndexOp::create(b, loc, bytesPerElement);
    Value bytes = arith::MulIOp::create(b, loc, numElements, width);
    Value minimum = arith::ConstantIndexOp::create(b, loc, minBytes);
    Value twice = arith::ConstantIndexOp::create(b, loc, 2 * minBytes);
    Value large =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, bytes, twice);
    auto ifOp = scf::IfOp::create(b, loc, large, /*withElseRegion=*/true);
    // Small: the copy as it was.
    copy->moveBefore(ifOp.elseBlock()->getTerminator());

    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    auto threads = func::CallOp::create(
        b, loc, kMaxThreadsFn, TypeRange{b.getIndexType()}, ValueRange{});
    Value byBytes = arith::DivUIOp::create(b, loc, bytes, minimum);
    Value parts = arith::MinUIOp::create(b, loc, byBytes, threads.getResult(0));
    parts = arith::MaxUIOp::create(b, loc, parts, one);
    // Part p copies bytes [p * n / parts, (p + 1) * n / parts), computed
    // without overflow as in the nd lowering's partitions.
    Value base = arith::DivUIOp::create(b, loc, bytes, parts);
    Value extra = arith::RemUIOp::create(b, loc, bytes, parts);
    auto start = [&](OpBuilder &nb, Location nloc, Value p) -> Value {
      Value full = arith::MulIOp::create(nb, nloc, p, base);
      Value bonus = arith::MinUIOp::create(nb, nloc, p, extra);
      return arith::AddIOp::create(nb, nloc, full, bonus);
    };
    Value source = copy.getSource();
    Value target = copy.getTarget();
    scf::ParallelOp::create(
        b, loc, ValueRange{zero}, ValueRange{parts}, ValueRange{one},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value p = ivs[0];
          Value next = arith::AddIOp::create(nb, nloc, p, one);
          Value lo = start(nb, nloc, p);
          Value hi = start(nb, nloc, next);
          Value length = arith::SubIOp::create(nb, nloc, hi, lo);
          Value from = addressOf(nb, nloc, source, lo);
          Value to = addressOf(nb, nloc, target, lo);
          Value count =
              arith::IndexCastUIOp::create(nb, nloc, nb.getI64Type(), length);
          LLVM::MemcpyOp::create(nb, nloc, to, from, count,
                                 /*isVolatile=*/false);
        });
  }
};
} // namespace
