//===- IndexArithmetic.h - constants, dims and index arithmetic -*- C++ -*-===//
//
// The index and i1 arithmetic nd's lowerings build their loops and checks
// from, on the CPU (--lower-scatter) and on the GPU (--convert-nd-to-gpu):
// constants (shared within a function while a SharedConstantScope is open),
// dims and products of dims, unsigned min/max/ceildiv, booleans, and the
// arithmetic nd's index rules are instantiated on (IndexBuilder). Each folds
// as it is built, so that static shapes give constants.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_UTILS_INDEXARITHMETIC_H
#define ND_DIALECT_ND_UTILS_INDEXARITHMETIC_H

#include "mlir/IR/Builders.h"

namespace mlir::nd {

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// While alive, the constants built here (and by nd's element semantics) are
/// shared within the function whose entry block is `entry`: reused from the
/// constants at the start of that block, or created there. The CPU lowering
/// asks for the same few constants many times; sharing them keeps its output,
/// and the time later passes spend on it, small. Outside of every scope, each
/// constant is created where it is asked for.
class SharedConstantScope {
public:
  explicit SharedConstantScope(Block *entry);
  ~SharedConstantScope();
  SharedConstantScope(const SharedConstantScope &) = delete;
  SharedConstantScope &operator=(const SharedConstantScope &) = delete;

private:
  Block *outer;
};

/// A constant of `attr`, shared within the function of the innermost
/// SharedConstantScope, if any.
Value sharedConstant(OpBuilder &b, Location loc, TypedAttr attr);

Value constIndex(OpBuilder &b, Location loc, int64_t value);
Value constBool(OpBuilder &b, Location loc, bool value);

//===----------------------------------------------------------------------===//
// Dims and index arithmetic
//===----------------------------------------------------------------------===//

/// The size of dim `d` of a memref as an index value.
Value dimValue(OpBuilder &b, Location loc, Value memref, int64_t d);

/// The dims `[from, to)` of `memref` as index values.
SmallVector<Value> dimValues(OpBuilder &b, Location loc, Value memref,
                             int64_t from, int64_t to);

/// The product of `values` (1 when empty).
Value product(OpBuilder &b, Location loc, ArrayRef<Value> values);

/// The row-major strides of `dims` (the last is 1), built from the last dim
/// to the first; `total`, where given, receives the product of all of them
/// (the stride the dim before the first would have).
SmallVector<Value> rowMajorStrides(OpBuilder &b, Location loc,
                                   ArrayRef<Value> dims,
                                   Value *total = nullptr);

/// `(a + d - 1) / d` for non-negative `a` and positive `d`.
Value ceilDiv(OpBuilder &b, Location loc, Value a, Value d);

/// Unsigned min and max.
Value minIndex(OpBuilder &b, Location loc, Value x, Value y);
Value maxIndex(OpBuilder &b, Location loc, Value x, Value y);

//===----------------------------------------------------------------------===//
// Booleans
//===----------------------------------------------------------------------===//

/// `x | y` and `!x` on i1.
Value orBool(OpBuilder &b, Location loc, Value x, Value y);
Value notBool(OpBuilder &b, Location loc, Value x);

/// `scf.if cond { then() }`; just `then()` where `cond` is the constant
/// true, and nothing where it is the constant false. The CPU and GPU
/// lowerings build every conditional statement of theirs with it.
void buildIf(OpBuilder &b, Location loc, Value cond,
             function_ref<void(OpBuilder &, Location)> then);

//===----------------------------------------------------------------------===//
// The index rules on IR values
//===----------------------------------------------------------------------===//

/// The index arithmetic nd's index rules are written over
/// (nd/Dialect/Nd/IR/NdRowAddressing.h: `resolveIndexWith`, the write-index
/// rule of tensor_scatter), building `index` and i1 values at `loc`: each op
/// folds as it is built and constants are shared (SharedConstantScope), so
/// that a rule instantiated here gives the IR the lowerings have always
/// built. The same rules run on integers at compile time
/// (`ConstantIndexArithmetic`).
class IndexBuilder {
public:
  using Index = Value;
  using Bool = Value;

  IndexBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value constant(int64_t value) { return constIndex(b, loc, value); }
  Value constantBool(bool value) { return constBool(b, loc, value); }
  Value add(Value x, Value y);
  Value sub(Value x, Value y);
  Value mul(Value x, Value y);
  Value remU(Value x, Value y);
  Value select(Value c, Value x, Value y);
  Value minS(Value x, Value y);
  Value maxS(Value x, Value y);
  Value lessThan(Value x, Value y);
  Value greaterThan(Value x, Value y);
  Value atLeastU(Value x, Value y);
  Value equal(Value x, Value y);
  Value orBool(Value x, Value y) { return nd::orBool(b, loc, x, y); }

private:
  OpBuilder &b;
  Location loc;
};

} // namespace mlir::nd

#endif // ND_DIALECT_ND_UTILS_INDEXARITHMETIC_H
