//===- PassHelp.h - nd-opt's --help, nd's passes first ----------*- C++ -*-===//
//
// mlir-opt's --help lists every registered pass and pipeline in one
// alphabetical list, some 860 lines in which nd's few are scattered among
// upstream's. nd-opt's --help shows a tool's own passes and pipelines first,
// in a group of their own with their options, then mlir-opt's options by
// category as llvm::cl prints them, with the other passes and pipelines in
// the pass list. --help-list still prints llvm::cl's one list of everything.
//
//===----------------------------------------------------------------------===//

#ifndef ND_TOOLS_PASSHELP_H
#define ND_TOOLS_PASSHELP_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;

namespace nd {

/// The arguments of the passes and pass pipelines registered so far, sorted.
/// A tool calls it after registering its own and before upstream's, to tell
/// them apart. (MLIR lists its registry only to a pass-list parser, which
/// offers each pass as a command-line flag: one is built, read and taken
/// down again.)
std::vector<std::string> getRegisteredPassArguments();

/// --help, -h and --help-hidden of an mlir-opt-like tool, printing the
/// passes and pipelines of `ownArguments` first, under `groupName`. Built
/// after every pass and pipeline is registered and before the command line
/// is parsed (registerAndParseCLIOptions), it replaces llvm::cl's options of
/// these names and must outlive the parse.
class GroupedPassHelp {
public:
  /// `usage` follows "USAGE: " ("nd-opt [options] <input file>"); the
  /// overview is followed by the dialects of `registry`, as mlir-opt's.
  GroupedPassHelp(llvm::StringRef overview, llvm::StringRef usage,
                  const DialectRegistry &registry,
                  const std::vector<std::string> &ownArguments,
                  llvm::StringRef groupName);

private:
  /// Prints the help and exits, as llvm::cl's --help does.
  [[noreturn]] void print(bool showHidden) const;

  std::string header;
  std::string usage;
  std::string groupName;
  std::string helpDescription;
  std::vector<std::string> ownArguments;
  llvm::StringSet<> own;
  // Built once llvm::cl's options of the same names are taken down.
  std::optional<llvm::cl::opt<bool>> help;
  std::optional<llvm::cl::alias> helpShort;
  std::optional<llvm::cl::opt<bool>> helpHidden;
};

} // namespace nd
} // namespace mlir

#endif // ND_TOOLS_PASSHELP_H
