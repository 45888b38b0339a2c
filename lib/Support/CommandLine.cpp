//===- CommandLine.cpp - what nd's tools show for --help --------*- C++ -*-===//

#include "nd/Support/CommandLine.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"

namespace cl = llvm::cl;

void mlir::nd::hideLibraryOptions() {
  // cl::HideUnrelatedOptions knows the generic options; it makes the others
  // really hidden (not even in --help-hidden), which the options shown so
  // far become hidden only.
  llvm::SmallVector<cl::Option *> shown;
  for (auto &entry : cl::getRegisteredOptions())
    if (entry.second->getOptionHiddenFlag() == cl::NotHidden)
      shown.push_back(entry.second);
  static cl::OptionCategory none("no options");
  cl::HideUnrelatedOptions(none);
  for (cl::Option *option : shown)
    if (option->getOptionHiddenFlag() == cl::ReallyHidden)
      option->setHiddenFlag(cl::Hidden);
}
