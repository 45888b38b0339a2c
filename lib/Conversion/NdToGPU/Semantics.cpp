//===- Semantics.cpp - nd's element semantics inside GPU kernels -*- C++
//-*-===//
//
// See Semantics.h.
//
//===----------------------------------------------------------------------===//

#include "Semantics.h"

#include "GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Complex/IR/Complex.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

bool gpu_lowering::isVectorizable(Type elementType) {
  if (!isa<IntegerType, FloatType>(elementType))
    return false;
  unsigned width = elementType.getIntOrFloatBitWidth();
  return width == 8 || width == 16 || width == 32 || width == 64;
}

int64_t gpu_lowering::vectorLength(Type elementType) {
  return 128 / elementType.getIntOrFloatBitWidth();
}

std::string gpu_lowering::indexMessage(int64_t dataDim) {
  return ("index %lld in operand 'indices' is out of range for dim " +
          Twine(dataDim) + " of operand 'data' (size %lld)")
      .str();
}

std::string gpu_lowering::dimMessage(StringRef lhsName, int64_t lhsDim,
                                     StringRef rhsText, bool atMost) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "operand '" << lhsName << "' dim " << lhsDim << " (%lld) "
     << (atMost ? "exceeds" : "does not match") << " " << rhsText << " (%lld)";
  return text;
}

std::string gpu_lowering::writeIndexMessage(int64_t axis, bool circular) {
  std::string where =
      "dim " + std::to_string(axis) + " of operand 'past_cache'";
  if (circular)
    return "write index %lld in operand 'write_indices' is negative (" + where +
           ", size %lld, circular mode)";
  return "write index %lld in operand 'write_indices' is out of range for " +
         where + ": the update fits from positions 0 to %lld (linear mode)";
}

std::string gpu_lowering::describeLocation(Operation *op) {
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
  std::string escaped;
  for (char c : text) {
    escaped += c;
    if (c == '%')
      escaped += '%';
  }
  return escaped;
}
