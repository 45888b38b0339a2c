//===- CheckMessages.cpp - how nd's run-time checks word a failure --------===//
//
// See nd/Conversion/CheckMessages.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/CheckMessages.h"

#include "nd/Dialect/Nd/IR/NdOps.h"

#include "mlir/IR/Location.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

std::string mlir::nd::describeLocation(Operation *op) {
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

std::string mlir::nd::indexMessage(int64_t dataDim) {
  return ("index %lld in operand 'indices' is out of range for dim " +
          llvm::Twine(dataDim) + " of operand 'data' (size %lld)")
      .str();
}

std::string mlir::nd::indexMessage(Operation *op, int64_t component) {
  RowAddressing rows = cast<IterationSpaceOpInterface>(op).getRowAddressing();
  int64_t dataDim = rows.dataDimOf(component);
  assert(dataDim >= 0 && "no data dim takes the component");
  return indexMessage(dataDim);
}

std::string mlir::nd::dimMessage(llvm::StringRef lhsName, int64_t lhsDim,
                                 llvm::StringRef rhsText, bool atMost) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "operand '" << lhsName << "' dim " << lhsDim << " (%lld) "
     << (atMost ? "exceeds" : "does not match") << " " << rhsText << " (%lld)";
  return text;
}

std::string mlir::nd::writeIndexMessage(int64_t axis, bool circular) {
  std::string where =
      "dim " + std::to_string(axis) + " of operand 'past_cache'";
  if (circular)
    return "write index %lld in operand 'write_indices' is negative (" + where +
           ", size %lld, circular mode)";
  return "write index %lld in operand 'write_indices' is out of range for " +
         where + ": the update fits from positions 0 to %lld (linear mode)";
}
