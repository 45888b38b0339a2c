//===- ConvertToNdUtils.h - helpers of the conversions into nd --*- C++ -*-===//
//
// What the conversions of other dialects' gathers and scatters into nd ops
// share: nd's type rules as predicates, the reshapes and transposes that bring
// an operand into the layout nd indexes, index extension, locations, and the
// driver that reports unconvertible ops before converting.
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_CONVERTTOND_CONVERTTONDUTILS_H
#define ND_CONVERSION_CONVERTTOND_CONVERTTONDUTILS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Support/LLVM.h"
#include "mlir/Transforms/DialectConversion.h"

#include <optional>
#include <string>

namespace mlir {
namespace nd {

// bool isNdElementType(Type): the element types of nd's data operands.
// bool isNdIndexTensorType(Type): the types of nd's `indices` operands.
#include "nd/Conversion/ConvertToNd/NdTypes.h.inc"

/// The reason why a conversion cannot handle an op, or none when it can.
using Unconvertible = std::optional<std::string>;

/// Why `type` (the type of the operand or result called `name`) cannot be
/// the data type of an nd op: unranked, or an element type nd does not
/// support.
Unconvertible checkNdDataType(Type type, StringRef name);

/// Why an integer or index tensor type cannot be brought to nd's index types
/// by `extendIndicesForNd`: unranked, or integers wider than 64 bits.
Unconvertible checkIndicesType(Type type, StringRef name);

/// The location of the nd ops replacing `op`: `op`'s location wrapped in a
/// name location with `op`'s name, so that nd's run-time messages say which
/// op the failing nd op came from.
Location getReplacementLoc(Operation *op);

/// Returns `indices` when its type is one nd takes (i32, i64, index);
/// otherwise sign-extends its elements (to i32 from narrower integers, to
/// i64 from wider ones) with a `linalg.map`. Precondition:
/// `checkIndicesType` accepted the type.
Value extendIndicesForNd(OpBuilder &b, Location loc, Value indices);

/// Whether tensors of the two types hold their elements in the same
/// row-major order, i.e. the shapes are equal once dimensions of static size
/// 1 are dropped (a dynamic dimension matches only a dynamic dimension).
bool differOnlyInUnitDims(RankedTensorType a, RankedTensorType b);

/// Reshapes `value` to `type`, which must differ from its type only in unit
/// dimensions (`differOnlyInUnitDims`): one `tensor.collapse_shape` and/or
/// one `tensor.expand_shape`, no copy. Returns `value` when the types are
/// equal.
Value reshapeUnitDims(OpBuilder &b, Location loc, Value value,
                      RankedTensorType type);

/// Permutes the dimensions of `value`: result dim `i` is dim
/// `permutation[i]` of `value`. The identity returns `value`; a permutation
/// that moves only dimensions of static size 1 is a reshape; anything else is
/// a `linalg.transpose` into a new tensor.
Value permuteDims(OpBuilder &b, Location loc, Value value,
                  ArrayRef<int64_t> permutation);

/// The most static type compatible with both, or none when they conflict
/// (different element types, ranks or static sizes).
std::optional<RankedTensorType> joinTypes(RankedTensorType a,
                                          RankedTensorType b);

/// Why `resultType`, the declared result of a scatter, cannot be that of the
/// nd scatter replacing it, which has the type of the operand `dataName`
/// (`dataType`): it may equal it or be less static (a cast), but a more
/// static or conflicting type would be an assumption nothing checks.
Unconvertible checkScatterResultType(RankedTensorType resultType,
                                     RankedTensorType dataType,
                                     StringRef dataName);

/// `value` cast to `type` (`tensor.cast`) where the types differ.
Value castIfNeeded(OpBuilder &b, Location loc, Value value, Type type);

/// Base of the patterns that convert an op of type `OpTy` into nd ops: it
/// matches only the ops for which `check` gives no reason (before any IR is
/// created) and replaces the op with the value `convert` builds at the op's
/// replacement location (`getReplacementLoc`).
template <typename OpTy> class ToNdPattern : public OpRewritePattern<OpTy> {
public:
  using Check = Unconvertible (*)(OpTy);

  ToNdPattern(MLIRContext *context, Check check)
      : OpRewritePattern<OpTy>(context), check(check) {}

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const final {
    if (Unconvertible reason = check(op))
      return rewriter.notifyMatchFailure(op, *reason);
    Value result = convert(op, getReplacementLoc(op), rewriter);
    rewriter.replaceOp(op, result);
    return success();
  }

protected:
  /// Builds the replacement of `op` (which `check` accepted).
  virtual Value convert(OpTy op, Location loc,
                        PatternRewriter &rewriter) const = 0;

private:
  Check check;
};

/// Marks what the conversions into nd create (nd, tensor, linalg and arith
/// ops) legal in `target`.
void addNdConversionLegality(ConversionTarget &target);

/// Converts the ops `target` marks illegal under `root` with `patterns`.
/// Before converting anything, reports every illegal op for which
/// `whyUnconvertible` gives a reason ("cannot be converted to nd: <reason>")
/// and fails, so that a failed conversion leaves the IR untouched. Sets
/// `*converted` (where given) to whether there was anything to convert: a
/// module without an illegal op is left as it is.
LogicalResult
convertToNd(Operation *root, const ConversionTarget &target,
            const FrozenRewritePatternSet &patterns,
            function_ref<Unconvertible(Operation *)> whyUnconvertible,
            bool *converted = nullptr);

/// `convertToNd` with the ops of the types `IllegalOps` to convert.
template <typename... IllegalOps>
LogicalResult
convertToNd(Operation *root, RewritePatternSet &&patterns,
            function_ref<Unconvertible(Operation *)> whyUnconvertible,
            bool *converted = nullptr) {
  ConversionTarget target(*root->getContext());
  addNdConversionLegality(target);
  target.addIllegalOp<IllegalOps...>();
  FrozenRewritePatternSet frozen(std::move(patterns));
  return convertToNd(root, target, frozen, whyUnconvertible, converted);
}

} // namespace nd
} // namespace mlir

#endif // ND_CONVERSION_CONVERTTOND_CONVERTTONDUTILS_H
