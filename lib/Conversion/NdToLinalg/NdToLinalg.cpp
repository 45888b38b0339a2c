//===- NdToLinalg.cpp - lower nd ops to upstream dialects -------*- C++ -*-===//
//
// Lowers the four nd ops to linalg, scf, tensor, arith and complex.
//
// Preconditions: the ops verify. Dimensions the verifier could not compare
// (dynamic ones) and every index value are checked at run time when bounds
// checking is on; the checks run before any element is written, so a bad
// index never leaves a half-updated result behind. The error path calls an
// `llvm.func` helper that prints to stderr and exits with status 1; it and its
// message strings are inserted into the enclosing module, which is why the
// patterns must run from a module-anchored pass.
//
// Unsigned element types are reinterpreted as signless around the arith ops
// that combine values (arith only accepts signless integers) with
// `builtin.unrealized_conversion_cast`; the LLVM type converter maps both to
// the same iN, so the casts fold away.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLinalg/NdToLinalg.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Transforms/DialectConversion.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nd {
#define GEN_PASS_DEF_LOWERSCATTER
#include "nd/Conversion/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

/// Name of the helper that reports a failed run-time check.
static constexpr StringLiteral kReportErrorFn = "__nd_report_error";

//===----------------------------------------------------------------------===//
// Small IR helpers
//===----------------------------------------------------------------------===//

static Value constIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The size of dim `d` of `tensor` as an index value.
static Value dimValue(OpBuilder &b, Location loc, Value tensor, int64_t d) {
  return getValueOrCreateConstantIndexOp(
      b, loc, tensor::getMixedSize(b, loc, tensor, d));
}

/// Converts an index value read from `indices` to `index` (i32
/// sign-extends).
static Value castToIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), value);
}

/// Reads one index value and converts it to `index`.
static Value loadIndex(OpBuilder &b, Location loc, Value indices,
                       ValueRange position) {
  return castToIndex(b, loc,
                     tensor::ExtractOp::create(b, loc, indices, position));
}

/// Maps a possibly negative index into `[0, size)`: `i < 0 ? i + size : i`.
/// Values outside `[-size, size)` stay outside `[0, size)`.
static Value normalizeIndex(OpBuilder &b, Location loc, Value index,
                            Value size) {
  Value zero = constIndex(b, loc, 0);
  Value isNegative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, index, zero);
  Value wrapped = arith::AddIOp::create(b, loc, index, size);
  return arith::SelectOp::create(b, loc, isNegative, wrapped, index);
}

static Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

namespace {
/// Bounds of an scf.for nest over the leading dims of a tensor.
struct LoopBounds {
  SmallVector<Value> lbs, ubs, steps;
};
} // namespace

/// Unit-step bounds over dims `[0, numDims)` of `tensor`.
static LoopBounds loopsOverDims(OpBuilder &b, Location loc, Value tensor,
                                int64_t numDims) {
  LoopBounds bounds;
  Value zero = constIndex(b, loc, 0);
  Value one = constIndex(b, loc, 1);
  for (int64_t d = 0; d < numDims; ++d) {
    bounds.lbs.push_back(zero);
    bounds.ubs.push_back(dimValue(b, loc, tensor, d));
    bounds.steps.push_back(one);
  }
  return bounds;
}

namespace {
/// The components of one index tuple of an ND op, as read and normalised.
struct IndexTuple {
  SmallVector<Value> raw, normalized;
};
} // namespace

/// Reads the tuple `indices[position..., :]` and normalises component j
/// against `sizes[j]`.
static IndexTuple loadIndexTuple(OpBuilder &b, Location loc, Value indices,
                                 ValueRange position, ArrayRef<Value> sizes) {
  IndexTuple tuple;
  SmallVector<Value> at(position);
  at.push_back(Value());
  for (auto [j, size] : llvm::enumerate(sizes)) {
    at.back() = constIndex(b, loc, j);
    Value raw = loadIndex(b, loc, indices, at);
    tuple.raw.push_back(raw);
    tuple.normalized.push_back(normalizeIndex(b, loc, raw, size));
  }
  return tuple;
}

/// Builds the scalar combination of the value in place with an update.
/// `none` replaces; i1 (and ui1) treat add/max as `or` and mul/min as `and`;
/// integers wrap; unsigned integers compare unsigned; floats propagate NaN
/// under max/min.
static FailureOr<Value> combine(OpBuilder &b, Location loc,
                                ReductionKind reduction, Value current,
                                Value update) {
  if (reduction == ReductionKind::None)
    return update;
  Type type = current.getType();

  if (isa<FloatType>(type)) {
    switch (reduction) {
    case ReductionKind::Add:
      return Value(arith::AddFOp::create(b, loc, current, update));
    case ReductionKind::Mul:
      return Value(arith::MulFOp::create(b, loc, current, update));
    case ReductionKind::Max:
      return Value(arith::MaximumFOp::create(b, loc, current, update));
    case ReductionKind::Min:
      return Value(arith::MinimumFOp::create(b, loc, current, update));
    case ReductionKind::None:
      break;
    }
    return failure();
  }

  if (isa<ComplexType>(type)) {
    if (reduction == ReductionKind::Add)
      return Value(complex::AddOp::create(b, loc, current, update));
    if (reduction == ReductionKind::Mul)
      return Value(complex::MulOp::create(b, loc, current, update));
    return failure();
  }

  auto intType = dyn_cast<IntegerType>(type);
  if (!intType)
    return failure();
  bool isUnsigned = intType.isUnsigned();
  Type signless = b.getIntegerType(intType.getWidth());
  auto toSignless = [&](Value v) -> Value {
    if (v.getType() == signless)
      return v;
    return UnrealizedConversionCastOp::create(b, loc, signless, v).getResult(0);
  };
  Value lhs = toSignless(current);
  Value rhs = toSignless(update);
  Value result;
  if (intType.getWidth() == 1) {
    bool isOr =
        reduction == ReductionKind::Add || reduction == ReductionKind::Max;
    result = isOr ? Value(arith::OrIOp::create(b, loc, lhs, rhs))
                  : Value(arith::AndIOp::create(b, loc, lhs, rhs));
  } else {
    switch (reduction) {
    case ReductionKind::Add:
      result = arith::AddIOp::create(b, loc, lhs, rhs);
      break;
    case ReductionKind::Mul:
      result = arith::MulIOp::create(b, loc, lhs, rhs);
      break;
    case ReductionKind::Max:
      result = isUnsigned ? Value(arith::MaxUIOp::create(b, loc, lhs, rhs))
                          : Value(arith::MaxSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::Min:
      result = isUnsigned ? Value(arith::MinUIOp::create(b, loc, lhs, rhs))
                          : Value(arith::MinSIOp::create(b, loc, lhs, rhs));
      break;
    case ReductionKind::None:
      return failure();
    }
  }
  if (result.getType() == type)
    return result;
  return UnrealizedConversionCastOp::create(b, loc, type, result).getResult(0);
}

/// `[0, 0, ...]` of the given length, as fold results.
static SmallVector<OpFoldResult> zeros(OpBuilder &b, size_t n) {
  return SmallVector<OpFoldResult>(n, b.getIndexAttr(0));
}

static SmallVector<OpFoldResult> ones(OpBuilder &b, size_t n) {
  return SmallVector<OpFoldResult>(n, b.getIndexAttr(1));
}

//===----------------------------------------------------------------------===//
// Run-time checks
//===----------------------------------------------------------------------===//

namespace {
/// Emits run-time checks whose failure prints a message to stderr and exits
/// with status 1. The message strings and the reporting helper live in the
/// enclosing module and are created on first use.
class RuntimeChecker {
public:
  explicit RuntimeChecker(bool enabled) : enabled(enabled) {}

  bool isEnabled() const { return enabled; }

  /// Emits `if (failed) report(format, a, b)`, where `format` is a printf
  /// format taking two `long long` values and `a`, `b` are index values.
  void check(OpBuilder &b, Location loc, Operation *op, Value failed,
             StringRef format, Value a, Value b2) {
    auto module = op->getParentOfType<ModuleOp>();
    FlatSymbolRefAttr reporter = getOrCreateReporter(b, module, loc);
    FlatSymbolRefAttr message = createMessage(b, module, loc, format);
    auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    auto ptrType = LLVM::LLVMPointerType::get(b.getContext());
    Value formatPtr =
        LLVM::AddressOfOp::create(b, loc, ptrType, message.getValue());
    LLVM::CallOp::create(
        b, loc, TypeRange(), reporter,
        ValueRange{formatPtr, toI64(b, loc, a), toI64(b, loc, b2)});
  }

  /// Checks that `index` (raw, possibly negative) lies in `[-size, size)`.
  void checkIndex(OpBuilder &b, Location loc, Operation *op, Value index,
                  Value normalized, Value size, StringRef operand,
                  int64_t dataDim) {
    if (!enabled)
      return;
    Value outOfRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                             normalized, size);
    std::string format;
    llvm::raw_string_ostream os(format);
    os << "error: " << describe(op) << ": index %lld in operand '" << operand
       << "' is out of range for dim " << dataDim
       << " of operand 'data' (size %lld)\n";
    check(b, loc, op, outOfRange, format, index, size);
  }

  /// Checks `lhs == rhs` (or `lhs <= rhs` with `atMost`) between two dims
  /// that are not both static.
  void checkDims(OpBuilder &b, Location loc, Operation *op, Value lhsTensor,
                 StringRef lhsName, int64_t lhsDim, Value rhsTensor,
                 StringRef rhsName, int64_t rhsDim, bool atMost = false) {
    if (!enabled)
      return;
    int64_t lhsStatic =
        cast<ShapedType>(lhsTensor.getType()).getDimSize(lhsDim);
    int64_t rhsStatic =
        cast<ShapedType>(rhsTensor.getType()).getDimSize(rhsDim);
    if (!ShapedType::isDynamic(lhsStatic) && !ShapedType::isDynamic(rhsStatic))
      return; // The verifier has checked it.
    std::string rhsText =
        ("operand '" + rhsName + "' dim " + Twine(rhsDim)).str();
    // Each value is bound before the call: C++ leaves the evaluation order
    // of call arguments unspecified, and IR built there would come out in a
    // different order with each compiler.
    Value lhs = dimValue(b, loc, lhsTensor, lhsDim);
    Value rhs = dimValue(b, loc, rhsTensor, rhsDim);
    compareDims(b, loc, op, lhs, lhsName, lhsDim, rhs, rhsText, atMost);
  }

  /// Checks that a dynamic operand dim equals the static size a gather's
  /// result type gives the result dim it becomes.
  void checkResultDim(OpBuilder &b, Location loc, Operation *op, Value operand,
                      StringRef operandName, int64_t operandDim,
                      int64_t resultDim) {
    if (!enabled)
      return;
    int64_t size =
        cast<ShapedType>(op->getResult(0).getType()).getDimSize(resultDim);
    if (ShapedType::isDynamic(size) ||
        !cast<ShapedType>(operand.getType()).isDynamicDim(operandDim))
      return; // Nothing declared, or the verifier has checked it.
    std::string resultText = ("result dim " + Twine(resultDim)).str();
    Value actual = dimValue(b, loc, operand, operandDim);
    Value declared = constIndex(b, loc, size);
    compareDims(b, loc, op, actual, operandName, operandDim, declared,
                resultText,
                /*atMost=*/false);
  }

private:
  /// "file:line:col: nd.op" (an imported node: "file (node): nd.op"), with
  /// '%' escaped for printf.
  static std::string describe(Operation *op) {
    FileLineColLoc fileLoc;
    NameLoc nameLoc;
    op->getLoc()->walk([&](Location nested) {
      if (!fileLoc)
        fileLoc = dyn_cast<FileLineColLoc>(nested);
      if (!nameLoc)
        nameLoc = dyn_cast<NameLoc>(nested);
      return WalkResult::advance();
    });
    std::string text;
    llvm::raw_string_ostream os(text);
    if (fileLoc) {
      os << fileLoc.getFilename().getValue();
      // Line 0 means "somewhere in the file", as for imported models.
      if (fileLoc.getLine() != 0)
        os << ":" << fileLoc.getLine() << ":" << fileLoc.getColumn();
    } else {
      os << "<unknown location>";
    }
    if (nameLoc)
      os << " (" << nameLoc.getName().getValue() << ")";
    os << ": " << op->getName().getStringRef();
    std::string escaped;
    for (char c : text) {
      escaped += c;
      if (c == '%')
        escaped += '%';
    }
    return escaped;
  }

  /// Emits the check of `lhs` (dim `lhsDim` of operand `lhsName`) against
  /// `rhs`, described by `rhsText`.
  void compareDims(OpBuilder &b, Location loc, Operation *op, Value lhs,
                   StringRef lhsName, int64_t lhsDim, Value rhs,
                   StringRef rhsText, bool atMost) {
    Value bad = arith::CmpIOp::create(
        b, loc, atMost ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::ne,
        lhs, rhs);
    std::string format;
    llvm::raw_string_ostream os(format);
    os << "error: " << describe(op) << ": operand '" << lhsName << "' dim "
       << lhsDim << " (%lld) " << (atMost ? "exceeds" : "does not match") << " "
       << rhsText << " (%lld)\n";
    check(b, loc, op, bad, format, lhs, rhs);
  }

  /// Declares an external libc symbol unless the module has it already.
  static void declareExternal(OpBuilder &b, ModuleOp module, Location loc,
                              StringRef name, LLVM::LLVMFunctionType type) {
    if (module.lookupSymbol(name))
      return;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::LLVMFuncOp::create(b, loc, name, type);
  }

  /// `__nd_report_error(format, a, b)`: fprintf(stderr, format, a, b);
  /// exit(1). Marked noreturn and cold so the checks stay off the hot path.
  FlatSymbolRefAttr getOrCreateReporter(OpBuilder &b, ModuleOp module,
                                        Location loc) {
    MLIRContext *ctx = b.getContext();
    auto symbol = FlatSymbolRefAttr::get(ctx, kReportErrorFn);
    if (module.lookupSymbol(kReportErrorFn))
      return symbol;

    auto ptrType = LLVM::LLVMPointerType::get(ctx);
    Type i32 = b.getI32Type();
    Type i64 = b.getI64Type();
    Type voidType = LLVM::LLVMVoidType::get(ctx);
    auto fprintfType =
        LLVM::LLVMFunctionType::get(i32, {ptrType, ptrType}, /*isVarArg=*/true);
    auto exitType = LLVM::LLVMFunctionType::get(voidType, {i32});
    declareExternal(b, module, loc, "fprintf", fprintfType);
    declareExternal(b, module, loc, "exit", exitType);
    if (!module.lookupSymbol("stderr")) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      LLVM::GlobalOp::create(b, loc, ptrType, /*isConstant=*/false,
                             LLVM::Linkage::External, "stderr",
                             /*value=*/Attribute());
    }

    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto fnType = LLVM::LLVMFunctionType::get(voidType, {ptrType, i64, i64});
    auto fn = LLVM::LLVMFuncOp::create(b, loc, kReportErrorFn, fnType,
                                       LLVM::Linkage::Internal);
    fn.setPassthroughAttr(
        b.getArrayAttr({b.getStringAttr("noreturn"), b.getStringAttr("cold"),
                        b.getStringAttr("noinline")}));
    Block *entry = fn.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value stderrAddr = LLVM::AddressOfOp::create(b, loc, ptrType, "stderr");
    Value stream = LLVM::LoadOp::create(b, loc, ptrType, stderrAddr);
    LLVM::CallOp::create(
        b, loc, fprintfType, FlatSymbolRefAttr::get(ctx, "fprintf"),
        ValueRange{stream, entry->getArgument(0), entry->getArgument(1),
                   entry->getArgument(2)});
    Value one = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1));
    LLVM::CallOp::create(b, loc, exitType, FlatSymbolRefAttr::get(ctx, "exit"),
                         ValueRange{one});
    LLVM::UnreachableOp::create(b, loc);
    return symbol;
  }

  /// A NUL-terminated, module-private copy of `text`.
  FlatSymbolRefAttr createMessage(OpBuilder &b, ModuleOp module, Location loc,
                                  StringRef text) {
    std::string name;
    do {
      name = ("__nd_msg_" + Twine(nextMessage++)).str();
    } while (module.lookupSymbol(name));
    std::string data = text.str();
    data.push_back('\0');
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), data.size());
    LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                           LLVM::Linkage::Internal, name,
                           b.getStringAttr(data));
    return FlatSymbolRefAttr::get(b.getContext(), name);
  }

  bool enabled;
  unsigned nextMessage = 0;
};
} // namespace

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
template <typename OpTy>
class NdLoweringPattern : public OpConversionPattern<OpTy> {
public:
  NdLoweringPattern(MLIRContext *ctx, std::shared_ptr<RuntimeChecker> checker)
      : OpConversionPattern<OpTy>(ctx), checker(std::move(checker)) {}

protected:
  /// Checks every index component of an ND op's `indices` against the data
  /// dim it addresses (`batchDims + j` for component j).
  void checkNDIndices(OpBuilder &b, Location loc, Operation *op, Value data,
                      Value indices, int64_t batchDims) const {
    if (!checker->isEnabled())
      return;
    auto indicesType = cast<RankedTensorType>(indices.getType());
    int64_t q = indicesType.getRank();
    int64_t k = indicesType.getShape().back();
    LoopBounds loops = loopsOverDims(b, loc, indices, q - 1);
    SmallVector<Value> sizes;
    for (int64_t j = 0; j < k; ++j)
      sizes.push_back(dimValue(b, loc, data, batchDims + j));
    scf::buildLoopNest(
        b, loc, loops.lbs, loops.ubs, loops.steps,
        [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
          IndexTuple tuple = loadIndexTuple(nb, nloc, indices, ivs, sizes);
          for (int64_t j = 0; j < k; ++j)
            checker->checkIndex(nb, nloc, op, tuple.raw[j], tuple.normalized[j],
                                sizes[j], "indices", batchDims + j);
        });
  }

  /// Checks every value of an Elements op's `indices` against dim `axis`.
  void checkElementsIndices(OpBuilder &b, Location loc, Operation *op,
                            Value data, Value indices, int64_t axis) const {
    if (!checker->isEnabled())
      return;
    int64_t r = cast<RankedTensorType>(indices.getType()).getRank();
    LoopBounds loops = loopsOverDims(b, loc, indices, r);
    Value size = dimValue(b, loc, data, axis);
    scf::buildLoopNest(b, loc, loops.lbs, loops.ubs, loops.steps,
                       [&](OpBuilder &nb, Location nloc, ValueRange ivs) {
                         Value raw = loadIndex(nb, nloc, indices, ivs);
                         Value normalized = normalizeIndex(nb, nloc, raw, size);
                         checker->checkIndex(nb, nloc, op, raw, normalized,
                                             size, "indices", axis);
                       });
  }

  /// `indices.shape[d] <= data.shape[d]` off the axis, for dynamic dims.
  void checkElementsShapes(OpBuilder &b, Location loc, Operation *op,
                           Value data, Value indices, int64_t axis) const {
    int64_t r = cast<RankedTensorType>(indices.getType()).getRank();
    for (int64_t d = 0; d < r; ++d) {
      if (d != axis)
        checker->checkDims(b, loc, op, indices, "indices", d, data, "data", d,
                           /*atMost=*/true);
    }
  }

  /// The result of a gather: an empty tensor of the reified result shape.
  static FailureOr<Value> createGatherInit(OpBuilder &b, Operation *op) {
    ReifiedRankedShapedTypeDims shapes;
    if (failed(reifyResultShapes(b, op, shapes)))
      return failure();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    return Value(tensor::EmptyOp::create(b, op->getLoc(), shapes[0],
                                         resultType.getElementType()));
  }

  /// Replaces the gather `op` by a linalg.generic with parallel iterators
  /// over its result (`init`) that reads `inputs` elementwise and yields
  /// `data[position(ivs, inputArgs)]`, where `ivs` are the result indices.
  static void replaceWithGatherGeneric(
      ConversionPatternRewriter &rewriter, Operation *op, Value data,
      Value init, ValueRange inputs,
      function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange,
                                      ValueRange)>
          position) {
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    int64_t rank = resultType.getRank();
    SmallVector<AffineMap> maps(inputs.size() + 1,
                                rewriter.getMultiDimIdentityMap(rank));
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, op->getLoc(), TypeRange{resultType}, inputs, ValueRange{init},
        maps, iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
          SmallVector<Value> ivs;
          for (int64_t d = 0; d < rank; ++d)
            ivs.push_back(linalg::IndexOp::create(nb, nloc, d));
          Value value = tensor::ExtractOp::create(
              nb, nloc, data,
              position(nb, nloc, ivs, args.take_front(inputs.size())));
          linalg::YieldOp::create(nb, nloc, value);
        });
    rewriter.replaceOp(op, generic.getResults());
  }

  std::shared_ptr<RuntimeChecker> checker;
};

//===----------------------------------------------------------------------===//
// gather_nd
//===----------------------------------------------------------------------===//

/// result[p..., s...] = data[p[:b]..., normalize(indices[p..., :])..., s...]
/// as a linalg.generic over the result.
struct GatherNDLowering : public NdLoweringPattern<GatherNDOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(GatherNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    Value indices = adaptor.getIndices();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t b = static_cast<int64_t>(op.getBatchDims());
    int64_t k = op.getIndexDepth();
    int64_t q = op.getIndices().getType().getRank();
    int64_t resultRank = resultType.getRank();

    for (int64_t d = 0; d < b; ++d)
      checker->checkDims(rewriter, loc, op, indices, "indices", d, data, "data",
                         d);
    for (int64_t d = 0; d < q - 1; ++d)
      checker->checkResultDim(rewriter, loc, op, indices, "indices", d, d);
    for (int64_t d = q - 1; d < resultRank; ++d)
      checker->checkResultDim(rewriter, loc, op, data, "data",
                              b + k + d - (q - 1), d);
    checkNDIndices(rewriter, loc, op, data, indices, b);

    FailureOr<Value> init = createGatherInit(rewriter, op);
    if (failed(init))
      return rewriter.notifyMatchFailure(op, "cannot reify the result shape");
    SmallVector<Value> sizes;
    for (int64_t j = 0; j < k; ++j)
      sizes.push_back(dimValue(rewriter, loc, data, b + j));

    replaceWithGatherGeneric(
        rewriter, op, data, *init, ValueRange{},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange) {
          IndexTuple tuple =
              loadIndexTuple(nb, nloc, indices, ivs.take_front(q - 1), sizes);
          SmallVector<Value> dataPos(ivs.begin(), ivs.begin() + b);
          llvm::append_range(dataPos, tuple.normalized);
          dataPos.append(ivs.begin() + (q - 1), ivs.end());
          return dataPos;
        });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// gather_elements
//===----------------------------------------------------------------------===//

/// result[p] = data[p with p[axis] = normalize(indices[p])] as a
/// linalg.generic reading `indices` elementwise.
struct GatherElementsLowering : public NdLoweringPattern<GatherElementsOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(GatherElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    Value indices = adaptor.getIndices();
    auto resultType = cast<RankedTensorType>(op.getType());
    int64_t axis = op.getNormalizedAxis();
    int64_t rank = resultType.getRank();

    checkElementsShapes(rewriter, loc, op, data, indices, axis);
    for (int64_t d = 0; d < rank; ++d)
      checker->checkResultDim(rewriter, loc, op, indices, "indices", d, d);
    checkElementsIndices(rewriter, loc, op, data, indices, axis);

    FailureOr<Value> init = createGatherInit(rewriter, op);
    if (failed(init))
      return rewriter.notifyMatchFailure(op, "cannot reify the result shape");
    Value size = dimValue(rewriter, loc, data, axis);

    replaceWithGatherGeneric(
        rewriter, op, data, *init, ValueRange{indices},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
          SmallVector<Value> dataPos(ivs);
          dataPos[axis] =
              normalizeIndex(nb, nloc, castToIndex(nb, nloc, args[0]), size);
          return dataPos;
        });
    return success();
  }
};

//===----------------------------------------------------------------------===//
// scatter_nd
//===----------------------------------------------------------------------===//

/// An scf.for nest over `indices.shape[:-1]` in row-major order threading
/// the result through its iteration arguments; each entry inserts (or
/// combines) an element when k == rank(data), a slice otherwise.
struct ScatterNDLowering : public NdLoweringPattern<ScatterNDOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(ScatterNDOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    Value indices = adaptor.getIndices();
    Value updates = adaptor.getUpdates();
    auto dataType = op.getData().getType();
    auto updatesType = op.getUpdates().getType();
    ReductionKind reduction = op.getReduction();
    int64_t r = dataType.getRank();
    int64_t q = op.getIndices().getType().getRank();
    int64_t k = op.getIndexDepth();
    // OpenVINO: one element for a 0-D slice, at any rank of all-ones dims.
    bool singleElement = k == r && q == 1 && updatesType.getRank() != 0;

    if (!singleElement) {
      for (int64_t d = 0; d < q - 1; ++d)
        checker->checkDims(rewriter, loc, op, updates, "updates", d, indices,
                           "indices", d);
      for (int64_t d = k; d < r; ++d)
        checker->checkDims(rewriter, loc, op, updates, "updates", q - 1 + d - k,
                           data, "data", d);
    }
    checkNDIndices(rewriter, loc, op, data, indices, /*batchDims=*/0);

    // Slices with a dim of static size 0 hold no element, so nothing is
    // written; the slice ops below would not even verify (offset 0 is out of
    // bounds in a dim of size 0).
    if (k < r &&
        (llvm::is_contained(dataType.getShape().drop_front(k), 0) ||
         llvm::is_contained(updatesType.getShape().drop_front(q - 1), 0))) {
      rewriter.replaceOp(op, data);
      return success();
    }

    LoopBounds loops = loopsOverDims(rewriter, loc, indices, q - 1);
    SmallVector<OpFoldResult> dataSizes =
        tensor::getMixedSizes(rewriter, loc, data);
    SmallVector<Value> sizes;
    for (int64_t j = 0; j < k; ++j)
      sizes.push_back(dimValue(rewriter, loc, data, j));

    bool failedCombine = false;
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, loops.lbs, loops.ubs, loops.steps, ValueRange{data},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs,
            ValueRange iterArgs) -> scf::ValueVector {
          Value acc = iterArgs[0];
          SmallVector<Value> target =
              loadIndexTuple(nb, nloc, indices, ivs, sizes).normalized;

          if (k == r) {
            SmallVector<Value> updatePos(ivs);
            if (singleElement)
              updatePos.assign(updatesType.getRank(), constIndex(nb, nloc, 0));
            Value update =
                tensor::ExtractOp::create(nb, nloc, updates, updatePos);
            Value current;
            if (reduction != ReductionKind::None)
              current = tensor::ExtractOp::create(nb, nloc, acc, target);
            FailureOr<Value> value =
                combine(nb, nloc, reduction, current, update);
            if (failed(value)) {
              failedCombine = true;
              return {acc};
            }
            return {tensor::InsertOp::create(nb, nloc, *value, acc, target)};
          }

          // A slice of rank r - k per entry.
          auto sliceType = RankedTensorType::get(
              dataType.getShape().drop_front(k), dataType.getElementType());
          ArrayRef<OpFoldResult> sliceSizes =
              ArrayRef<OpFoldResult>(dataSizes).drop_front(k);
          SmallVector<OpFoldResult> updateOffsets(ivs.begin(), ivs.end());
          llvm::append_range(updateOffsets, zeros(nb, r - k));
          SmallVector<OpFoldResult> updateSizes = ones(nb, q - 1);
          llvm::append_range(updateSizes, sliceSizes);
          Value updateSlice = tensor::ExtractSliceOp::create(
              nb, nloc, sliceType, updates, updateOffsets, updateSizes,
              ones(nb, q - 1 + r - k));

          SmallVector<OpFoldResult> dataOffsets(target.begin(), target.end());
          llvm::append_range(dataOffsets, zeros(nb, r - k));
          SmallVector<OpFoldResult> dataSliceSizes = ones(nb, k);
          llvm::append_range(dataSliceSizes, sliceSizes);
          SmallVector<OpFoldResult> strides = ones(nb, r);

          // The slice in place is written by a linalg op (loops once
          // bufferized) rather than by inserting the update slice directly,
          // which would bufferize to a strided memref.copy: a runtime library
          // call.
          Value current = tensor::ExtractSliceOp::create(
              nb, nloc, sliceType, acc, dataOffsets, dataSliceSizes, strides);
          Value newSlice;
          if (reduction == ReductionKind::None) {
            newSlice = linalg::CopyOp::create(nb, nloc, updateSlice, current)
                           .getResult(0);
          } else {
            AffineMap id = nb.getMultiDimIdentityMap(r - k);
            SmallVector<utils::IteratorType> iterators(
                r - k, utils::IteratorType::parallel);
            auto generic = linalg::GenericOp::create(
                nb, nloc, TypeRange{sliceType}, ValueRange{updateSlice},
                ValueRange{current}, ArrayRef<AffineMap>{id, id}, iterators,
                [&](OpBuilder &bb, Location bloc, ValueRange args) {
                  FailureOr<Value> value =
                      combine(bb, bloc, reduction, args[1], args[0]);
                  if (failed(value)) {
                    failedCombine = true;
                    linalg::YieldOp::create(bb, bloc, args[1]);
                    return;
                  }
                  linalg::YieldOp::create(bb, bloc, *value);
                });
            newSlice = generic.getResult(0);
          }
          return {tensor::InsertSliceOp::create(
              nb, nloc, newSlice, acc, dataOffsets, dataSliceSizes, strides)};
        });
    if (failedCombine)
      return rewriter.notifyMatchFailure(
          op, "reduction is not supported for this element type");
    rewriter.replaceOp(op, nest.results.empty() ? ValueRange{data}
                                                : ValueRange(nest.results));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// scatter_elements
//===----------------------------------------------------------------------===//

/// An scf.for nest over every position of `indices` in row-major order
/// threading the result through its iteration arguments.
struct ScatterElementsLowering : public NdLoweringPattern<ScatterElementsOp> {
  using NdLoweringPattern::NdLoweringPattern;

  LogicalResult
  matchAndRewrite(ScatterElementsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value data = adaptor.getData();
    Value indices = adaptor.getIndices();
    Value updates = adaptor.getUpdates();
    ReductionKind reduction = op.getReduction();
    int64_t axis = op.getNormalizedAxis();
    int64_t r = op.getData().getType().getRank();

    for (int64_t d = 0; d < r; ++d)
      checker->checkDims(rewriter, loc, op, updates, "updates", d, indices,
                         "indices", d);
    checkElementsShapes(rewriter, loc, op, data, indices, axis);
    checkElementsIndices(rewriter, loc, op, data, indices, axis);

    LoopBounds loops = loopsOverDims(rewriter, loc, indices, r);
    Value size = dimValue(rewriter, loc, data, axis);

    bool failedCombine = false;
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, loops.lbs, loops.ubs, loops.steps, ValueRange{data},
        [&](OpBuilder &nb, Location nloc, ValueRange ivs,
            ValueRange iterArgs) -> scf::ValueVector {
          Value acc = iterArgs[0];
          Value raw = loadIndex(nb, nloc, indices, ivs);
          SmallVector<Value> target(ivs);
          target[axis] = normalizeIndex(nb, nloc, raw, size);
          Value update = tensor::ExtractOp::create(nb, nloc, updates, ivs);
          Value current;
          if (reduction != ReductionKind::None)
            current = tensor::ExtractOp::create(nb, nloc, acc, target);
          FailureOr<Value> value =
              combine(nb, nloc, reduction, current, update);
          if (failed(value)) {
            failedCombine = true;
            return {acc};
          }
          return {tensor::InsertOp::create(nb, nloc, *value, acc, target)};
        });
    if (failedCombine)
      return rewriter.notifyMatchFailure(
          op, "reduction is not supported for this element type");
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};
} // namespace

void mlir::nd::populateNdToLinalgPatterns(RewritePatternSet &patterns,
                                          const NdLoweringOptions &options) {
  auto checker = std::make_shared<RuntimeChecker>(options.checkBounds);
  patterns.add<GatherNDLowering, GatherElementsLowering, ScatterNDLowering,
               ScatterElementsLowering>(patterns.getContext(), checker);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct LowerScatterPass
    : public mlir::nd::impl::LowerScatterBase<LowerScatterPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    NdLoweringOptions options;
    options.checkBounds = checkBounds;
    populateNdToLinalgPatterns(patterns, options);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<NdDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
