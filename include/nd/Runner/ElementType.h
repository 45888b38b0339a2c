//===- ElementType.h - Host dtypes and MLIR element types -------*- C++ -*-===//
//
// The MLIR side of the dtype table (DTypes.def): which MLIR element type a
// host dtype stands for, and back. `index` has no dtype: its width is the
// target's, so only the JIT, which knows it, maps it (to i64).
//
//===----------------------------------------------------------------------===//

#ifndef ND_RUNNER_ELEMENTTYPE_H
#define ND_RUNNER_ELEMENTTYPE_H

#include "nd/Runner/DType.h"

#include "mlir/IR/Types.h"

#include <optional>

namespace mlir {
class MLIRContext;

namespace nd {

/// The MLIR element type of `dtype`: i1 for bool, signless integers for the
/// signed dtypes, unsigned integers (ui8, ...) for the unsigned ones.
Type getMLIRElementType(DType dtype, MLIRContext *context);

/// The host dtype of an MLIR element type, or nullopt when a host tensor
/// cannot hold it (`index` included).
std::optional<DType> getDTypeOf(Type type);

} // namespace nd
} // namespace mlir

#endif // ND_RUNNER_ELEMENTTYPE_H
