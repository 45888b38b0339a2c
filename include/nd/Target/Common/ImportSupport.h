//===- ImportSupport.h - What the model importers share ---------*- C++ -*-===//
//
// The machinery the ONNX and OpenVINO importers have in common, so that each
// importer keeps only its format: the function a graph becomes, the check
// of each built op against the dialect's verifier with the messages
// reported under the model element (ONNX node, OpenVINO layer) it came from,
// the printing of messages about a whole file (or a binary one, ONNX) as
// "FILE: error: ..." rather than at a line 0,
// the lookup of a format's names for nd's enums (reductions, modes) with the
// message for a name the format does not have, constants from raw bytes, and
// the wording that messages share.
//
// An importer reports a problem of a model element through an emitter that
// starts an error at the element's location, already prefixed with its
// description ("node #3 'n' (ScatterND-16): "); the functions here add the
// rest of the message.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TARGET_COMMON_IMPORTSUPPORT_H
#define ND_TARGET_COMMON_IMPORTSUPPORT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir {
class ModuleOp;
class OpBuilder;
class ValueRange;

namespace func {
class FuncOp;
} // namespace func

namespace nd {

//===----------------------------------------------------------------------===//
// Options and results of an import
//===----------------------------------------------------------------------===//

/// Options every importer takes.
struct GraphImportOptions {
  /// Name of the function the graph becomes.
  std::string functionName = "main";
};

/// The model's names of the imported function's arguments and results, in
/// order.
struct GraphSignature {
  llvm::SmallVector<std::string> inputNames;
  llvm::SmallVector<std::string> outputNames;
};

//===----------------------------------------------------------------------===//
// The function a graph becomes
//===----------------------------------------------------------------------===//

/// A graph input that becomes a function argument.
struct GraphArgument {
  /// The model's name of the input; the argument's location is a NameLoc of
  /// it at `loc`.
  llvm::StringRef name;
  Type type;
  Location loc;
};

/// Creates, at the end of `module`, the function `name` (at `loc`) with one
/// argument per element of `arguments` and no results yet, and sets
/// `builder` at the start of its body.
func::FuncOp createGraphFunction(OpBuilder &builder, ModuleOp module,
                                 Location loc, llvm::StringRef name,
                                 llvm::ArrayRef<GraphArgument> arguments);

/// Ends `func`, made by createGraphFunction, with a `func.return` of
/// `results` (at `loc`) and gives it their types as its result types.
void finishGraphFunction(OpBuilder &builder, func::FuncOp func, Location loc,
                         ValueRange results);

//===----------------------------------------------------------------------===//
// Verify and report
//===----------------------------------------------------------------------===//

/// Starts an error about the model element being imported, already prefixed
/// with its description.
using ElementErrorEmitter = llvm::function_ref<InFlightDiagnostic()>;

/// Verifies `op`, built for a model element. Its verifier's messages belong
/// to the element, which is what the user can find in the model: on failure
/// they are reported, joined by "; ", through `emitError` (instead of at the
/// op), `op` is erased and failure is returned.
LogicalResult verifyImportedOp(Operation *op, ElementErrorEmitter emitError);

/// `diag` continued as the verifier of `OpTy` words its messages ("'nd.gather'
/// op "), for the rules the op checks before it is built (its static
/// `inferResultType`).
template <typename OpTy>
InFlightDiagnostic continueAsOpError(InFlightDiagnostic &&diag) {
  diag << "'" << OpTy::getOperationName() << "' op ";
  return std::move(diag);
}

/// The place of a diagnostic at `loc` when `loc` names a file but no line
/// in it (a FileLineColLoc of line 0, where the ONNX importer and both
/// importers' whole-file problems report, possibly under a NameLoc):
/// "FILE", or "FILE (NAME)" under a NameLoc, as nd's run-time messages name
/// such places. nullopt for any other location.
std::optional<std::string> describeFileLevelLocation(Location loc);

/// Prints the diagnostics at file-level locations (describeFileLevelLocation)
/// on `os` as "FILE: error: MESSAGE", one line, with their notes, instead of
/// MLIR's "FILE:0:0: error: MESSAGE"; the others go on to the handlers
/// registered before it (a SourceMgrDiagnosticHandler shows their lines).
class FileLevelDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  FileLevelDiagnosticHandler(MLIRContext *context, llvm::raw_ostream &os);
};

//===----------------------------------------------------------------------===//
// A format's names of nd's enums
//===----------------------------------------------------------------------===//

/// A format's name of an enum value: ONNX's "add" and OpenVINO's "sum" of
/// `ReductionKind::Add`, ONNX's "circular" of `TensorScatterMode::Circular`.
template <typename EnumT> struct EnumName {
  llvm::StringLiteral name;
  EnumT value;
};

/// The value `text` names in `names`, or nullopt when `names` lacks it (the
/// comparison is exact: formats spell their names in one case).
template <typename EnumT>
std::optional<EnumT> lookupEnumName(llvm::ArrayRef<EnumName<EnumT>> names,
                                    llvm::StringRef text) {
  const EnumName<EnumT> *it = llvm::find_if(
      names, [&](const EnumName<EnumT> &entry) { return entry.name == text; });
  if (it == names.end())
    return std::nullopt;
  return it->value;
}

/// "a", "a or b", "a, b or c": alternatives as messages list them.
std::string formatAlternatives(llvm::ArrayRef<llvm::StringRef> alternatives);

/// "unknown <what> '<text>' (expected a, b or c)", listing the names of
/// `names` in their order, appended to `diag`.
template <typename EnumT>
InFlightDiagnostic reportUnknownName(InFlightDiagnostic &&diag,
                                     llvm::StringRef what, llvm::StringRef text,
                                     llvm::ArrayRef<EnumName<EnumT>> names) {
  llvm::SmallVector<llvm::StringRef> alternatives = llvm::map_to_vector(
      names, [](const EnumName<EnumT> &entry) -> llvm::StringRef {
        return entry.name;
      });
  diag << "unknown " << what << " '" << text << "' (expected "
       << formatAlternatives(alternatives) << ")";
  return std::move(diag);
}

/// The value `text` names in `names`; otherwise reports it as unknown (see
/// reportUnknownName) through `emitError` and fails.
template <typename EnumT>
FailureOr<EnumT> parseEnumName(llvm::ArrayRef<EnumName<EnumT>> names,
                               llvm::StringRef what, llvm::StringRef text,
                               ElementErrorEmitter emitError) {
  if (std::optional<EnumT> value = lookupEnumName(names, text))
    return *value;
  return reportUnknownName(emitError(), what, text, names);
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

/// A constant of `type` from the bytes of all its elements in row-major
/// order, little-endian, as both formats store them: one byte per element
/// for `i1` (any non-zero byte is true), the width of the element type
/// otherwise. Reports "cannot build a constant of type T from N bytes"
/// through `emitError` when the size does not fit the type.
FailureOr<DenseElementsAttr> buildDenseConstant(RankedTensorType type,
                                                llvm::ArrayRef<char> bytes,
                                                ElementErrorEmitter emitError);

//===----------------------------------------------------------------------===//
// Wording
//===----------------------------------------------------------------------===//

/// "ScatterND-16": an op of a format at one of its versions.
std::string formatOpVersion(llvm::StringRef opType, int64_t version);

} // namespace nd
} // namespace mlir

#endif // ND_TARGET_COMMON_IMPORTSUPPORT_H
