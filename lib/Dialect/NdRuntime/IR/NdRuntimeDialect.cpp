//===- NdRuntimeDialect.cpp - the nd_rt dialect -----------------*- C++ -*-===//
//
// The nd_rt dialect and the verifiers of its ops (see NdRuntimeOps.td).
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::nd::rt;

#include "nd/Dialect/NdRuntime/IR/NdRuntimeDialect.cpp.inc"

bool mlir::nd::rt::isStaticBuffer(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.hasStaticShape() && memref.getLayout().isIdentity() &&
         !memref.getMemorySpace();
}

void NdRuntimeDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "nd/Dialect/NdRuntime/IR/NdRuntimeOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "nd/Dialect/NdRuntime/IR/NdRuntimeOps.cpp.inc"

/// A report's message is the printf format of the host's report, which
/// passes two `long long`: its conversions are `%lld`, at most two, and
/// `%%`.
static LogicalResult verifyMessage(Operation *op, StringRef message) {
  if (message.empty())
    return op->emitOpError("expects a non-empty message");
  unsigned values = 0;
  for (size_t i = 0, e = message.size(); i < e; ++i) {
    if (message[i] != '%')
      continue;
    StringRef rest = message.substr(i + 1);
    if (rest.starts_with("%")) {
      ++i;
      continue;
    }
    if (!rest.starts_with("lld"))
      return op->emitOpError("expects only '%lld' and '%%' conversions in "
                             "its message, got '%")
             << rest.take_front(3) << "' at offset " << i;
    if (++values > 2)
      return op->emitOpError(
          "expects at most two '%lld' conversions in its message");
    i += 3;
  }
  return success();
}

LogicalResult ReportOp::verify() { return verifyMessage(*this, getMessage()); }

LogicalResult ReportAtOp::verify() {
  return verifyMessage(*this, getMessage());
}

LogicalResult SiteOp::verify() {
  if (getWhere().empty())
    return emitOpError("expects a non-empty location in 'where'");
  return success();
}

LogicalResult GpuErrorRecordEndOp::verify() {
  if (getMessages().empty())
    return emitOpError("expects at least one message");
  for (StringAttr message : getMessages().getAsRange<StringAttr>())
    if (failed(verifyMessage(*this, message.getValue())))
      return failure();
  return success();
}
