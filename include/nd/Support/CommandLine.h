//===- CommandLine.h - what nd's tools show for --help ----------*- C++ -*-===//
//
// libLLVM.so registers some 400 options of its own (code generation flags of
// every backend) when it is loaded, and MLIR's libraries more: without help,
// a tool's `--help` buries its own options under them.
//
//===----------------------------------------------------------------------===//

#ifndef ND_SUPPORT_COMMANDLINE_H
#define ND_SUPPORT_COMMANDLINE_H

namespace mlir::nd {

/// Hides from `--help` every llvm::cl option registered so far except the
/// generic ones (`--help`, `--help-list`, `--version`); `--help-hidden`
/// still lists them. A tool calls it before it registers (or has MLIR's
/// main register) the options that are its own, which `--help` then shows.
void hideLibraryOptions();

} // namespace mlir::nd

#endif // ND_SUPPORT_COMMANDLINE_H
