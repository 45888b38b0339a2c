//===- LLVMStructAliases.cpp - names of large LLVM structs ------*- C++ -*-===//
//
// The LLVM stage's printer hook, attached to the nd dialect through a
// DialectRegistry extension (registerNdToLLVMInterfaces): the dialect's IR
// library knows nothing of LLVM structs. A function with N results lowers to
// one struct of N memref descriptors that each of its N `llvm.insertvalue`
// ops spells out in full: without a name, printing the module grows as N
// squared (3,000 results: 500 MB of text). The AsmPrinter asks every loaded
// dialect for aliases, so the nd dialect names them in every module where it
// is loaded (`--convert-nd-runtime-to-llvm` loads it; nd-opt loads it with
// the LLVM dialect).
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLLVM/NdToLLVM.h"

#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/OpImplementation.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"

using namespace mlir;

namespace {
/// Names literal LLVM structs of many members once, at the top of the
/// printed module.
struct LLVMStructAliases : public OpAsmDialectInterface {
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

void mlir::nd::registerNdToLLVMInterfaces(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *, NdDialect *dialect) {
    dialect->addInterfaces<LLVMStructAliases>();
  });
}
