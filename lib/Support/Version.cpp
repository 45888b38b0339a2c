//===- Version.cpp - nd's --version -----------------------------*- C++ -*-===//

#include "nd/Support/Version.h"

#include "nd/Version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

void mlir::nd::printVersion(llvm::raw_ostream &os) {
  os << "nd version " << ND_VERSION_STRING << "\n"
     << "  built against LLVM and MLIR " << LLVM_VERSION_STRING << "\n";
}

void mlir::nd::registerVersionPrinter() {
  llvm::cl::SetVersionPrinter(printVersion);
}
