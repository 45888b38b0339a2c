//===- ImportSupport.cpp - What the model importers share -------*- C++ -*-===//
//
// See nd/Target/Common/ImportSupport.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Target/Common/ImportSupport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::nd;

//===----------------------------------------------------------------------===//
// The function a graph becomes
//===----------------------------------------------------------------------===//

func::FuncOp
mlir::nd::createGraphFunction(OpBuilder &builder, ModuleOp module, Location loc,
                              llvm::StringRef name,
                              llvm::ArrayRef<GraphArgument> arguments) {
  SmallVector<Type> argTypes = llvm::map_to_vector(
      arguments, [](const GraphArgument &arg) { return arg.type; });
  builder.setInsertionPointToEnd(module.getBody());
  FunctionType type = builder.getFunctionType(argTypes, {});
  auto func = func::FuncOp::create(builder, loc, name, type);
  Block *entry = func.addEntryBlock();
  for (auto [arg, argument] : llvm::zip_equal(entry->getArguments(), arguments))
    arg.setLoc(
        NameLoc::get(builder.getStringAttr(argument.name), argument.loc));
  builder.setInsertionPointToStart(entry);
  return func;
}

void mlir::nd::finishGraphFunction(OpBuilder &builder, func::FuncOp func,
                                   Location loc, ValueRange results) {
  func::ReturnOp::create(builder, loc, results);
  FunctionType type =
      builder.getFunctionType(func.getArgumentTypes(), results.getTypes());
  func.setFunctionType(type);
}

//===----------------------------------------------------------------------===//
// Verify and report
//===----------------------------------------------------------------------===//

LogicalResult mlir::nd::verifyImportedOp(Operation *op,
                                         ElementErrorEmitter emitError) {
  std::string messages;
  LogicalResult verified = success();
  {
    ScopedDiagnosticHandler handler(op->getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() != DiagnosticSeverity::Error)
        return success();
      if (!messages.empty())
        messages += "; ";
      messages += diag.str();
      return success();
    });
    verified = mlir::verify(op);
  }
  if (succeeded(verified))
    return success();
  op->erase();
  return emitError() << messages;
}

std::optional<std::string> mlir::nd::describeFileLevelLocation(Location loc) {
  FileLineColLoc fileLoc;
  NameLoc nameLoc;
  loc->walk([&](Location nested) {
    if (!fileLoc)
      fileLoc = dyn_cast<FileLineColLoc>(nested);
    if (!nameLoc)
      nameLoc = dyn_cast<NameLoc>(nested);
    return WalkResult::advance();
  });
  if (!fileLoc || fileLoc.getLine() != 0)
    return std::nullopt;
  std::string text = fileLoc.getFilename().str();
  if (nameLoc)
    text += " (" + nameLoc.getName().str() + ")";
  return text;
}

/// "FILE", "FILE (NAME)" or "FILE:LINE:COL": where a note is.
static std::string describeNoteLocation(Location loc) {
  if (std::optional<std::string> place = describeFileLevelLocation(loc))
    return *place;
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>())
    return (fileLoc.getFilename().str() + ":" + llvm::Twine(fileLoc.getLine()) +
            ":" + llvm::Twine(fileLoc.getColumn()))
        .str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << loc;
  return text;
}

static llvm::StringRef getSeverityName(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Error:
    return "error";
  case DiagnosticSeverity::Warning:
    return "warning";
  case DiagnosticSeverity::Remark:
    return "remark";
  case DiagnosticSeverity::Note:
    return "note";
  }
  llvm_unreachable("unknown diagnostic severity");
}

FileLevelDiagnosticHandler::FileLevelDiagnosticHandler(MLIRContext *context,
                                                       llvm::raw_ostream &os)
    : ScopedDiagnosticHandler(context) {
  setHandler([&os](Diagnostic &diag) -> LogicalResult {
    std::optional<std::string> place =
        describeFileLevelLocation(diag.getLocation());
    if (!place)
      return failure();
    os << *place << ": " << getSeverityName(diag.getSeverity()) << ": "
       << diag.str() << "\n";
    for (Diagnostic &note : diag.getNotes())
      os << describeNoteLocation(note.getLocation()) << ": note: " << note.str()
         << "\n";
    os.flush();
    return success();
  });
}

//===----------------------------------------------------------------------===//
// A format's names of nd's enums
//===----------------------------------------------------------------------===//

std::string
mlir::nd::formatAlternatives(llvm::ArrayRef<llvm::StringRef> alternatives) {
  std::string text;
  for (auto [i, alternative] : llvm::enumerate(alternatives)) {
    if (i != 0)
      text += i + 1 == alternatives.size() ? " or " : ", ";
    text += alternative;
  }
  return text;
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

FailureOr<DenseElementsAttr>
mlir::nd::buildDenseConstant(RankedTensorType type, llvm::ArrayRef<char> bytes,
                             ElementErrorEmitter emitError) {
  auto reportSize = [&] {
    return emitError() << "cannot build a constant of type " << type << " from "
                       << bytes.size() << " bytes";
  };
  int64_t numElements = type.getNumElements();
  if (type.getElementType().isInteger(1)) {
    // One byte per element here, one bit in the attribute.
    if (static_cast<int64_t>(bytes.size()) != numElements)
      return reportSize();
    SmallVector<bool> bits =
        llvm::map_to_vector(bytes, [](char byte) -> bool { return byte != 0; });
    return DenseElementsAttr::get(type, llvm::ArrayRef<bool>(bits));
  }
  if (numElements == 0 && bytes.empty())
    return DenseElementsAttr::get(type, llvm::ArrayRef<Attribute>());
  // A raw buffer of one element's bytes would be taken for a splat: every
  // element must be there.
  bool isSplat = false;
  if (!DenseElementsAttr::isValidRawBuffer(type, bytes, isSplat) ||
      (isSplat && numElements != 1))
    return reportSize();
  return DenseElementsAttr::getFromRawBuffer(type, bytes);
}

//===----------------------------------------------------------------------===//
// Wording
//===----------------------------------------------------------------------===//

std::string mlir::nd::formatOpVersion(llvm::StringRef opType, int64_t version) {
  return (opType + "-" + llvm::Twine(version)).str();
}
