//===- CheckMessages.h - how nd's run-time checks word a failure -*- C++ -*-=//
//
// One home for the messages of the run-time checks nd's lowerings generate,
// on the CPU (--lower-scatter) and on the GPU (--convert-nd-to-gpu): a
// failure reads the same on either, and the GPU's differential test compares
// them. Each message is a printf format with two `%lld` (the values the
// failed check compared), behind the op's location and name.
//
//===----------------------------------------------------------------------===//

#ifndef ND_CONVERSION_CHECKMESSAGES_H
#define ND_CONVERSION_CHECKMESSAGES_H

#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::nd {

/// "file:line:col" of an op (an imported node: "file (node)"), with '%'
/// escaped for printf: what a message names as the op's location.
std::string describeLocation(Operation *op);

/// An index value in operand 'indices' out of range for dim `dataDim` of
/// operand 'data' (the value, the dim's size).
std::string indexMessage(int64_t dataDim);

/// indexMessage for index component `component` of nd op `op` (0 where its
/// index values are single values): the data dim the component addresses,
/// as the op's row addressing gives it (RowAddressing::dataDimOf).
std::string indexMessage(Operation *op, int64_t component);

/// Dim `lhsDim` of operand `lhsName` against what `rhsText` names: not equal,
/// or with `atMost`, larger (the two sizes).
std::string dimMessage(llvm::StringRef lhsName, int64_t lhsDim,
                       llvm::StringRef rhsText, bool atMost);

/// A write index of tensor_scatter out of range on sequence axis `axis` (the
/// value, and the last start in linear mode or the axis's size in circular
/// mode).
std::string writeIndexMessage(int64_t axis, bool circular);

} // namespace mlir::nd

#endif // ND_CONVERSION_CHECKMESSAGES_H
