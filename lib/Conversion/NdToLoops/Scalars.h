//===- Scalars.h - scalars and index values of the nd lowering --*- C++ -*-===//
//
// Internal to the NdToLoops library: constants (shared within the function
// being built), dims and products of dims, index values under an oob mode,
// booleans and the conditionals the lowerings build around them. Everything
// here is index or i1 arithmetic; nothing reads or writes a buffer. What one
// index value and one update mean is nd's element semantics
// (nd/Dialect/Nd/Utils/ElementSemantics.h), which the lowering shares
// with the tiling interface and the GPU lowering.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_CONVERSION_NDTOLOOPS_SCALARS_H
#define ND_LIB_CONVERSION_NDTOLOOPS_SCALARS_H

#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/Utils/ElementSemantics.h"

#include "mlir/IR/Builders.h"

namespace mlir::nd::lowering {

//===----------------------------------------------------------------------===//
// Dims and index arithmetic
//===----------------------------------------------------------------------===//

// Constants (shared within the function being built: the lowering opens a
// SharedConstantScope for each function it builds), dims, products of dims,
// row-major strides, unsigned min/max/ceildiv and booleans:
// nd/Dialect/Nd/Utils/IndexArithmetic.h.

//===----------------------------------------------------------------------===//
// Index values under an oob mode
//===----------------------------------------------------------------------===//

// Reading, normalizing and resolving one index value: loadIndexValue,
// normalizeIndex, isOutOfRange and resolveIndex of ElementSemantics.h.

/// `bad ? 0 : normalized`: an address that is safe to touch.
Value clampIfBad(OpBuilder &b, Location loc, Value bad, Value normalized);

/// The position `raw` addresses in a dim of `size` under `oob` (see
/// resolveIndex) and, under skip and clamp, whether its entry is skipped;
/// null under error, where a bad value is a run-time check's business.
std::pair<Value, Value> resolveOrSkip(OpBuilder &b, Location loc, OobMode oob,
                                      Value raw, Value size);

//===----------------------------------------------------------------------===//
// Booleans and conditionals
//===----------------------------------------------------------------------===//

/// The statement form is nd's (IndexArithmetic.h).
using nd::buildIf;

/// `scf.if cond -> type { then() } else { otherwise() }`, or just `then()`
/// when `cond` is the constant true.
Value buildIf(OpBuilder &b, Location loc, Value cond, Type type,
              function_ref<Value(OpBuilder &, Location)> then,
              function_ref<Value(OpBuilder &, Location)> otherwise);

/// Emits `if (!ok) report()`.
void reportUnless(OpBuilder &b, Location loc, Value ok,
                  function_ref<void(OpBuilder &, Location)> report);

/// `if (!skip) body()`, or just `body()` when `skip` is null (oob<error>).
void unlessSkipped(OpBuilder &b, Location loc, Value skip,
                   function_ref<void(OpBuilder &, Location)> body);

} // namespace mlir::nd::lowering

#endif // ND_LIB_CONVERSION_NDTOLOOPS_SCALARS_H
