//===- ParallelCopy.cpp - large copies as parallel memcpys ------*- C++ -*-===//
//
// `--nd-parallel-copy`: a `memref.copy` between identity-layout buffers
// (such as the copy of `data` an out-of-place scatter makes) becomes, when it
// moves at least `min-bytes`, an `scf.parallel` over as many contiguous byte
// ranges as there are threads (at most one per `min-bytes`), each copied by
// one `llvm.intr.memcpy`, or, for a copy of kStreamingBytes or more, by
// 64-byte loads and non-temporal stores to whole target lines (a memcpy for
// the ends) and a fence: the C library streams only past its own threshold,
// which it sets from the size of the last-level cache. Smaller copies stay
// as they are.
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
#include "nd/Conversion/Streaming.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

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

/// Copies the bytes `[at, at + length)` of `source` to `target` with 64-byte
/// loads and non-temporal stores to the whole lines of the target in that
/// range, `memcpy(at, size)` for the bytes before the first such line and
/// after the last, then fences the stores (they are weakly ordered, and the
/// threads that join this one read the target).
static void
streamCopy(OpBuilder &b, Location loc, Value source, Value target, Value at,
           Value length,
           function_ref<void(OpBuilder &, Location, Value, Value)> memcpy) {
  Value line = arith::ConstantIndexOp::create(b, loc, kStreamingLineBytes);
  // The bytes up to the target's next line boundary, at most `length`.
  Value targetBase = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, b.getIndexType(), target);
  Value start = arith::AddIOp::create(b, loc, targetBase, at);
  Value past = arith::RemUIOp::create(b, loc, start, line);
  Value toBoundary = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, line, past), line);
  Value head = arith::MinUIOp::create(b, loc, toBoundary, length);
  Value rest = arith::SubIOp::create(b, loc, length, head);
  Value tail = arith::RemUIOp::create(b, loc, rest, line);
  Value bodyStart = arith::AddIOp::create(b, loc, at, head);
  Value bodyEnd = arith::SubIOp::create(
      b, loc, arith::AddIOp::create(b, loc, at, length), tail);
  memcpy(b, loc, at, head);
  auto lineType = VectorType::get({kStreamingLineBytes}, b.getI8Type());
  scf::ForOp::create(
      b, loc, bodyStart, bodyEnd, line, ValueRange{},
      [&](OpBuilder &lb, Location lloc, Value offset, ValueRange) {
        Value from = addressOf(lb, lloc, source, offset);
        Value to = addressOf(lb, lloc, target, offset);
        Value bytes = LLVM::LoadOp::create(lb, lloc, lineType, from,
                                           /*alignment=*/1);
        LLVM::StoreOp::create(lb, lloc, bytes, to, kStreamingLineBytes,
                              /*isVolatile=*/false, /*isNonTemporal=*/true);
        scf::YieldOp::create(lb, lloc);
      });
  memcpy(b, loc, bodyEnd, tail);
  LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::seq_cst);
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
      return markAllAnalysesPreserved();

    OpBuilder b(&getContext());
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
    Value threads = nd::rt::MaxThreadsOp::create(b, loc);
    Value byBytes = arith::DivUIOp::create(b, loc, bytes, minimum);
    Value parts = arith::MinUIOp::create(b, loc, byBytes, threads);
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
    Value streaming = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::uge, bytes,
        arith::ConstantIndexOp::create(b, loc, kStreamingBytes));
    scf::ParallelOp::create(
        b, loc, ValueRange{zero}, ValueRange{parts}, ValueRange{one},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          Value p = ivs[0];
          Value next = arith::AddIOp::create(nb, nloc, p, one);
          Value lo = start(nb, nloc, p);
          Value hi = start(nb, nloc, next);
          Value length = arith::SubIOp::create(nb, nloc, hi, lo);
          auto memcpy = [&](OpBuilder &cb, Location cloc, Value at,
                            Value size) {
            Value from = addressOf(cb, cloc, source, at);
            Value to = addressOf(cb, cloc, target, at);
            Value count =
                arith::IndexCastUIOp::create(cb, cloc, cb.getI64Type(), size);
            LLVM::MemcpyOp::create(cb, cloc, to, from, count,
                                   /*isVolatile=*/false);
          };
          scf::IfOp::create(
              nb, nloc, streaming,
              [&](OpBuilder &sb, Location sloc) {
                streamCopy(sb, sloc, source, target, lo, length, memcpy);
                scf::YieldOp::create(sb, sloc);
              },
              [&](OpBuilder &cb, Location cloc) {
                memcpy(cb, cloc, lo, length);
                scf::YieldOp::create(cb, cloc);
              });
        });
  }
};
} // namespace
