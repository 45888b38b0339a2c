//===- NdDialect.cpp - nd dialect -------------------------------*- C++ -*-===//

#include "nd/Dialect/Nd/IR/NdDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nd;

#include "nd/Dialect/Nd/IR/NdDialect.cpp.inc"
#include "nd/Dialect/Nd/IR/NdEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "nd/Dialect/Nd/IR/NdAttrs.cpp.inc"

namespace {
/// Names large literal LLVM structs once, at the top of the printed module.
/// A function with N results lowers to one struct of N memref descriptors
/// that each of its N `llvm.insertvalue` ops spells out in full: without a
/// name, printing the module grows as N squared (3,000 results: 500 MB of
/// text). The AsmPrinter asks every loaded dialect for aliases, so nd's
/// output names them wherever nd's ops were lowered.
struct NdOpAsmInterface : public OpAsmDialectInterface {
  using OpAsmDialectInterface::OpAsmDialectInterface;

  /// Structs of up to this many members print in full.
  static constexpr size_t kLargestUnnamedStruct = 8;

  AliasResult getAlias(Type type, raw_ostream &os) const final {
    auto structType = dyn_cast<LLVM::LLVMStructType>(type);
    if (!structType || structType.isIdentified() ||
        structType.getBody().size() <= kLargestUnnamedStruct)
      return AliasResult::NoAlias;
    os << "llvm_struct_" << structType.getBody().size() << "_members";
    return AliasResult::OverridableAlias;
  }
};
} // namespace

void NdDialect::initialize() {
  addInterfaces<NdOpAsmInterface>();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "nd/Dialect/Nd/IR/NdAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "nd/Dialect/Nd/IR/NdOps.cpp.inc"
      >();
}

LogicalResult NdDialect::verifyRegionArgAttribute(Operation *op,
                                                  unsigned regionIndex,
                                                  unsigned argIndex,
                                                  NamedAttribute attribute) {
  if (attribute.getName() != getDonatedAttrName())
    return op->emitError() << "unknown nd argument attribute '"
                           << attribute.getName().getValue() << "'";
  if (!isa<UnitAttr>(attribute.getValue()))
    return op->emitError() << "'" << getDonatedAttrName()
                           << "' must be a unit attribute";
  auto function = dyn_cast<FunctionOpInterface>(op);
  if (!function || regionIndex != 0)
    return op->emitError() << "'" << getDonatedAttrName()
                           << "' applies to function arguments only";
  // A ranked tensor, or the buffer bufferization made of one.
  Type type = function.getArgumentTypes()[argIndex];
  if (!isa<RankedTensorType, MemRefType>(type))
    return op->emitError() << "'" << getDonatedAttrName() << "' argument #"
                           << argIndex << " must be a ranked tensor, got "
                           << type;
  return success();
}
