//===- PrepareEntry.cpp - an entry function prepared for a host -*- C++ -*-===//
//
// See PrepareEntry.h. The signature is recorded at the tensor level, before
// the lowering forgets element types, static dims and names, and read back
// once the entry's ABI is in place, with the outputs that are donated
// inputs; the JIT's module keeps no trace of it (a library's export removes
// it with the other attributes it reads).
//
//===----------------------------------------------------------------------===//

#include "nd/Entry/PrepareEntry.h"

#include "mlir/Pass/PassManager.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Pipelines/Pipelines.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::nd;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Finding and checking the entry
//===----------------------------------------------------------------------===//

/// "the module has no function @f with a body", the functions it has and
/// the caller's hint.
static llvm::Error noSuchFunction(ModuleOp module,
                                  const EntryOptions &options) {
  std::string text =
      "the module has no function @" + options.function + " with a body";
  llvm::SmallVector<std::string> names;
  for (auto candidate : module.getOps<func::FuncOp>())
    if (!candidate.isExternal())
      names.push_back(("@" + candidate.getSymName()).str());
  if (names.empty())
    return makeError(text + " (it defines no function)");
  text += "; its functions: " + llvm::join(names, ", ");
  if (!options.functionHint.empty())
    text += " (" + options.functionHint + ")";
  return makeError(text);
}

/// Checks that `type`, `what` of the entry, is a ranked tensor of an element
/// type a host exchanges.
static llvm::Error checkExchanged(Type type, const llvm::Twine &what) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType) {
    os << type;
    return makeError(what + " has type " + text +
                     "; only ranked tensors can be exchanged");
  }
  if (getExportedDType(tensorType.getElementType()))
    return llvm::Error::success();
  os << tensorType.getElementType();
  return makeError(what + " has element type " + text +
                   ", which has no host representation");
}

/// Checks the arguments, then the results, of the JIT's `entry`.
static llvm::Error checkJitEntry(func::FuncOp entry) {
  FunctionType type = entry.getFunctionType();
  StringRef name = entry.getSymName();
  for (auto [i, input] : llvm::enumerate(type.getInputs()))
    if (llvm::Error error = checkExchanged(
            input, "argument #" + llvm::Twine(i) + " of @" + name))
      return error;
  for (auto [k, output] : llvm::enumerate(type.getResults()))
    if (llvm::Error error = checkExchanged(output, "result #" + llvm::Twine(k) +
                                                       " of @" + name))
      return error;
  return llvm::Error::success();
}

/// Sets the donated arguments of `entry` (nd.donated) after checking them.
static llvm::Error markDonated(func::FuncOp entry,
                               llvm::ArrayRef<unsigned> donated) {
  for (unsigned position : donated) {
    if (position >= entry.getNumArguments())
      return makeError(llvm::formatv("cannot donate input #{0}: @{1} takes "
                                     "{2} argument(s)",
                                     position, entry.getSymName(),
                                     entry.getNumArguments()));
    entry.setArgAttr(position, NdDialect::getDonatedAttrName(),
                     UnitAttr::get(entry.getContext()));
  }
  return llvm::Error::success();
}

llvm::Expected<func::FuncOp> mlir::nd::findEntry(ModuleOp module,
                                                 const EntryOptions &options) {
  auto entry = module.lookupSymbol<func::FuncOp>(options.function);
  if (!entry || entry.isExternal())
    return noSuchFunction(module, options);
  if (options.target == EntryTarget::CPUJit)
    if (llvm::Error error = checkJitEntry(entry))
      return std::move(error);
  if (llvm::Error error = markDonated(entry, options.donated))
    return std::move(error);
  return entry;
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

/// Sharded modules run on several processes (nd-sharded-to-llvm), which a
/// GPU library does not.
static llvm::Error checkNotSharded(ModuleOp module) {
  Operation *sharded = nullptr;
  module.walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "shard") {
      sharded = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (!sharded)
    return llvm::Error::success();
  sharded->emitError() << "'" << sharded->getName()
                       << "': a sharded module runs on several processes";
  return makeError("the module is sharded: --target=cuda compiles unsharded "
                   "modules only");
}

/// Records what the signature needs from the tensor level.
static llvm::Error recordSignature(ModuleOp module,
                                   const EntryOptions &options) {
  PassManager pm(module.getContext());
  NdRecordSignatureOptions recordOptions;
  recordOptions.function = options.function;
  pm.addPass(createNdRecordSignature(recordOptions));
  if (failed(pm.run(module)))
    return makeError("@" + options.function + " cannot be exported");
  return llvm::Error::success();
}

/// The target's pipeline to the LLVM dialect, then the entry as hosts call
/// it: results through a pointer, the call's error state as its last
/// argument.
static void buildEntryPipeline(OpPassManager &pm, const EntryOptions &options) {
  if (options.target == EntryTarget::CUDALibrary) {
    NdToGPUPipelineOptions gpuOptions;
    gpuOptions.toolkit = options.cudaToolkit;
    gpuOptions.checkBounds = options.checkBounds;
    if (!options.cudaChips.empty())
      gpuOptions.chips = llvm::ArrayRef<std::string>(options.cudaChips);
    if (!options.ptxChip.empty())
      gpuOptions.ptxChip = options.ptxChip;
    buildNdToGPUPipeline(pm, gpuOptions);
  } else {
    NdToLLVMPipelineOptions pipelineOptions;
    pipelineOptions.checkBounds = options.checkBounds;
    pipelineOptions.parallel = options.parallel;
    // A library's caller passes the buffers the results are computed into.
    if (options.target == EntryTarget::CPULibrary)
      pipelineOptions.resultDestinations = options.function;
    buildNdToLLVMPipeline(pm, pipelineOptions);
  }
  NdReturnThroughPointerOptions entryOptions;
  entryOptions.function = options.function;
  pm.addPass(createNdReturnThroughPointer(entryOptions));
  pm.addPass(createNdCallState());
}

/// Exports the lowered entry as `symbol` with nd's C interface.
static llvm::Error exportEntry(ModuleOp module, const EntryOptions &options) {
  std::string symbol =
      options.symbol.empty() ? options.function : options.symbol;
  PassManager pm(module.getContext());
  NdExportEntryOptions exportOptions;
  exportOptions.symbol = symbol;
  exportOptions.cuda = options.target == EntryTarget::CUDALibrary;
  pm.addPass(createNdExportEntry(exportOptions));
  if (failed(pm.run(module)))
    return makeError("exporting @" + options.function + " as '" + symbol +
                     "' failed");
  return llvm::Error::success();
}

llvm::Expected<ExportedSignature>
mlir::nd::lowerEntry(ModuleOp module, const EntryOptions &options) {
  if (options.target == EntryTarget::CUDALibrary)
    if (llvm::Error error = checkNotSharded(module))
      return std::move(error);
  if (llvm::Error error = recordSignature(module, options))
    return std::move(error);
  PassManager pm(module.getContext());
  buildEntryPipeline(pm, options);
  if (failed(pm.run(module)))
    return makeError("lowering the module to the LLVM dialect failed");
  FailureOr<ExportedSignature> signature = readExportedSignature(module);
  if (failed(signature))
    return makeError("the lowered module has no exportable entry");
  if (options.target == EntryTarget::CPUJit) {
    module->removeAttr(kSignatureAttr);
    return std::move(*signature);
  }
  if (llvm::Error error = exportEntry(module, options))
    return std::move(error);
  return std::move(*signature);
}

llvm::Expected<ExportedSignature>
mlir::nd::prepareEntry(ModuleOp module, const EntryOptions &options) {
  llvm::Expected<func::FuncOp> entry = findEntry(module, options);
  if (!entry)
    return entry.takeError();
  return lowerEntry(module, options);
}
