//===- ShardUtils.h - helpers of nd's sharding code -------------*- C++ -*-===//
//
// Element-wise rewrites that the sharding interface of the nd ops and the
// lowering of shard collectives share.
//
//===----------------------------------------------------------------------===//

#ifndef ND_LIB_DIALECT_ND_TRANSFORMS_SHARDUTILS_H
#define ND_LIB_DIALECT_ND_TRANSFORMS_SHARDUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::nd {

/// The integer type whose bits stand for `type` in a bitwise all-reduce: the
/// signless integer of the same width, for integers of 8, 16, 32 and 64 bits
/// and floats of 16, 32 and 64 bits (the integers MLIR 22's MPI lowering maps
/// to MPI datatypes); null for every other type.
IntegerType getBitsType(Type type);

/// `value` (a ranked tensor) with `fn` applied to each element, giving
/// elements of `elementType`: one parallel linalg.generic.
Value mapElements(ImplicitLocOpBuilder &b, Value value, Type elementType,
                  function_ref<Value(OpBuilder &, Location, Value)> fn);

/// `value` with its elements reinterpreted as `elementType` of the same
/// width (`arith.bitcast`); `value` itself when the types are equal.
Value bitcastElements(ImplicitLocOpBuilder &b, Value value, Type elementType);

} // namespace mlir::nd

#endif // ND_LIB_DIALECT_ND_TRANSFORMS_SHARDUTILS_H
