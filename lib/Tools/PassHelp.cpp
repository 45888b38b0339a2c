//===- PassHelp.cpp - nd-opt's --help, nd's passes first --------*- C++ -*-===//
//
// See nd/Tools/PassHelp.h. The printer follows llvm::cl's categorized one
// (options sorted by name, grouped by category, categories sorted by name)
// and MLIR's pass list (passes, then pipelines, each with its options), with
// the tool's own passes and pipelines taken out of that list and printed
// first.
//
//===----------------------------------------------------------------------===//

#include "nd/Tools/PassHelp.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>

using namespace mlir;
using namespace mlir::nd;
namespace cl = llvm::cl;

std::vector<std::string> mlir::nd::getRegisteredPassArguments() {
  auto &options = cl::getRegisteredOptions();
  llvm::StringSet<> before;
  for (auto &entry : options)
    before.insert(entry.first);
  std::vector<std::string> arguments;
  PassPipelineCLParser probe("", "");
  llvm::SetVector<cl::Option *> added;
  for (auto &entry : options) {
    if (before.contains(entry.first))
      continue;
    added.insert(entry.second);
    // The pass list has no name of its own: each pass is a literal of it.
    if (entry.second->ArgStr.empty())
      arguments.push_back(entry.first.str());
  }
  for (cl::Option *option : added)
    option->removeArgument();
  llvm::sort(arguments);
  return arguments;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// The options --help shows (with `showHidden`, --help-hidden), each once,
/// sorted by name; `passList`, which has no name of its own, sorts after the
/// others of its category.
static std::vector<std::pair<std::string, cl::Option *>>
collectShownOptions(bool showHidden, cl::Option *passList) {
  std::vector<std::pair<std::string, cl::Option *>> shown;
  llvm::SmallPtrSet<cl::Option *, 32> seen;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    cl::OptionHidden hidden = option->getOptionHiddenFlag();
    if (hidden == cl::ReallyHidden || (hidden == cl::Hidden && !showHidden))
      continue;
    if (!seen.insert(option).second)
      continue;
    shown.emplace_back(option == passList ? "~" : entry.first.str(), option);
  }
  llvm::sort(shown, llvm::less_first());
  return shown;
}

/// Prints the passes and then the pipelines of `arguments` (each with its
/// options) under `indent` spaces of headings.
static void printPassEntries(llvm::ArrayRef<std::string> arguments,
                             size_t indent, size_t width) {
  llvm::raw_ostream &os = llvm::outs();
  std::vector<const PassRegistryEntry *> passes, pipelines;
  for (const std::string &argument : arguments) {
    if (const PassInfo *pass = PassInfo::lookup(argument))
      passes.push_back(pass);
    else if (const PassPipelineInfo *pipeline =
                 PassPipelineInfo::lookup(argument))
      pipelines.push_back(pipeline);
  }
  if (!passes.empty())
    os.indent(indent) << "Passes:\n";
  for (const PassRegistryEntry *entry : passes)
    entry->printHelpStr(indent + 2, width);
  if (!pipelines.empty())
    os.indent(indent) << "Pass Pipelines:\n";
  for (const PassRegistryEntry *entry : pipelines)
    entry->printHelpStr(indent + 2, width);
}

/// Prints `options` (sorted by name) grouped by category, categories sorted
/// by name, the pass list with the passes and pipelines not in `own`.
static void
printByCategory(llvm::ArrayRef<std::pair<std::string, cl::Option *>> options,
                cl::Option *passList, const llvm::StringSet<> &own,
                size_t width) {
  llvm::raw_ostream &os = llvm::outs();
  std::map<std::string, std::vector<cl::Option *>> byCategory;
  std::map<std::string, std::string> descriptions;
  for (const auto &[name, option] : options) {
    for (cl::OptionCategory *category : option->Categories) {
      byCategory[category->getName().str()].push_back(option);
      descriptions[category->getName().str()] =
          category->getDescription().str();
    }
  }
  for (const auto &[category, members] : byCategory) {
    os << "\n" << category << ":\n";
    const std::string &description = descriptions[category];
    os << (description.empty() ? "" : description + "\n") << "\n";
    for (cl::Option *option : members) {
      if (option != passList) {
        option->printOptionInfo(width);
        continue;
      }
      llvm::SmallVector<llvm::StringRef> names;
      option->getExtraOptionNames(names);
      std::vector<std::string> others;
      for (llvm::StringRef name : names)
        if (!own.contains(name))
          others.push_back(name.str());
      llvm::sort(others);
      os << "  " << option->HelpStr << " (not listed above)\n";
      printPassEntries(others, /*indent=*/4, width);
    }
  }
}

GroupedPassHelp::GroupedPassHelp(llvm::StringRef overview,
                                 llvm::StringRef usage,
                                 const DialectRegistry &registry,
                                 const std::vector<std::string> &ownArguments,
                                 llvm::StringRef groupName)
    : header(overview.str()), usage(usage.str()), groupName(groupName.str()),
      helpDescription("Display available options, " + groupName.str() +
                      " first (--help-hidden for more)"),
      ownArguments(ownArguments) {
  for (const std::string &argument : ownArguments)
    own.insert(argument);
  header += "\nAvailable Dialects: ";
  llvm::raw_string_ostream os(header);
  llvm::interleaveComma(registry.getDialectNames(), os);

  // llvm::cl's --help and --help-hidden make way for these, in their
  // category; its -h is a default option, which gives way to this one.
  auto &options = cl::getRegisteredOptions();
  llvm::SmallVector<cl::OptionCategory *> categories;
  for (llvm::StringRef name : {"help", "help-hidden"}) {
    if (cl::Option *option = options.lookup(name)) {
      categories.assign(option->Categories.begin(), option->Categories.end());
      option->removeArgument();
    }
  }
  help.emplace("help", cl::desc(helpDescription), cl::ValueDisallowed,
               cl::callback([this](const bool &value) {
                 if (value)
                   print(/*showHidden=*/false);
               }));
  helpShort.emplace("h", cl::desc("Alias for --help"), cl::aliasopt(*help),
                    cl::Hidden);
  helpHidden.emplace("help-hidden", cl::desc("Display all available options"),
                     cl::ValueDisallowed, cl::Hidden,
                     cl::callback([this](const bool &value) {
                       if (value)
                         print(/*showHidden=*/true);
                     }));
  for (cl::OptionCategory *category : categories) {
    help->addCategory(*category);
    helpHidden->addCategory(*category);
  }
}

void GroupedPassHelp::print(bool showHidden) const {
  llvm::raw_ostream &os = llvm::outs();
  // As llvm::cl's categorized help does: --help-list, hidden, prints the
  // one list of every option.
  if (cl::Option *helpList = cl::getRegisteredOptions().lookup("help-list"))
    helpList->setHiddenFlag(cl::NotHidden);
  cl::Option *passList =
      ownArguments.empty()
          ? nullptr
          : cl::getRegisteredOptions().lookup(ownArguments.front());
  std::vector<std::pair<std::string, cl::Option *>> options =
      collectShownOptions(showHidden, passList);
  size_t width = 0;
  for (const auto &entry : options)
    width = std::max(width, entry.second->getOptionWidth());

  os << "OVERVIEW: " << header << "\n"
     << "USAGE: " << usage << "\n\n"
     << groupName << ":\n";
  printPassEntries(ownArguments, /*indent=*/2, width);
  os << "\nOPTIONS:\n";
  printByCategory(options, passList, own, width);
  os.flush();
  std::exit(0);
}
