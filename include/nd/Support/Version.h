//===- Version.h - nd's --version -------------------------------*- C++ -*-===//
//
// What every nd tool prints for `--version`: nd's version and the LLVM/MLIR
// version nd was built against.
//
//===----------------------------------------------------------------------===//

#ifndef ND_SUPPORT_VERSION_H
#define ND_SUPPORT_VERSION_H

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir::nd {

/// Prints "nd version X.Y.Z" and the LLVM/MLIR version nd was built against.
void printVersion(llvm::raw_ostream &os);

/// Makes `--version` of a tool that parses its command line with llvm::cl
/// print printVersion's text (to stdout, then exit 0). Call it before the
/// command line is parsed (before MlirOptMain, mlirTranslateMain or
/// cl::ParseCommandLineOptions).
void registerVersionPrinter();

} // namespace mlir::nd

#endif // ND_SUPPORT_VERSION_H
