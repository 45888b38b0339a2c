//===- Compile.cpp - ahead-of-time compilation ------------------*- C++ -*-===//
//
// See Compile.h. The MLIR steps are the entry's preparation, shared with
// the JIT (nd/Entry/PrepareEntry.h: the entry found and checked, donation,
// the signature, nd-to-llvm or, for CUDA, nd-to-gpu, the entry's ABI and
// --nd-export-entry). The LLVM steps: translation, internalization of all
// but the exported entry and its description (two compiled models never
// share or clash on a helper), LLVM's optimization pipeline and code
// generation for the chosen CPU, position independent. For CUDA, the
// toolkit and the chips are checked first, which would otherwise fail deep
// inside nd-to-gpu, and the export has the device and host forms.
//
//===----------------------------------------------------------------------===//

#include "nd/Compile/Compile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "nd/Entry/PrepareEntry.h"
#include "nd/Registration/Registration.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/IPO/Internalize.h"

using namespace mlir;
using namespace mlir::nd;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

void mlir::nd::registerCompileDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerNdDialects(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  gpu::registerOffloadingLLVMTranslationInterfaceExternalModels(registry);
  registerNVVMDialectTranslation(registry);
}

llvm::SmallVector<std::string> CompiledEntry::getExportedSymbols() const {
  llvm::SmallVector<std::string> symbols = {symbol,
                                            symbol + ND_ABI_SIGNATURE_SUFFIX};
  if (target == CompileTarget::CUDA)
    symbols.push_back(symbol + ND_ABI_HOST_ENTRY_SUFFIX);
  return symbols;
}

//===----------------------------------------------------------------------===//
// CUDA
//===----------------------------------------------------------------------===//

/// The number of chip `name` (sm_NN, sm_NNa, sm_NNf) if LLVM's NVPTX code
/// generator knows it, or 0. (LLVM takes an unknown chip with a warning on
/// stderr only.)
static unsigned getChipNumber(llvm::StringRef name) {
  llvm::StringRef digits = name;
  if (!digits.consume_front("sm_"))
    return 0;
  if (digits.ends_with("a") || digits.ends_with("f"))
    digits = digits.drop_back();
  unsigned number = 0;
  if (digits.getAsInteger(10, number))
    return 0;
  LLVMInitializeNVPTXTargetInfo();
  LLVMInitializeNVPTXTargetMC();
  llvm::Triple triple("nvptx64-nvidia-cuda");
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return 0;
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", ""));
  return generic && generic->isCPUStringValid(name) ? number : 0;
}

/// Checks the CUDA options, which nd-to-gpu would otherwise reject deep in
/// the pipeline (or, for PTX versions, by aborting), and sets the entry's.
static llvm::Error setCudaOptions(const CompileOptions &options,
                                  EntryOptions &entryOptions) {
  for (llvm::StringRef tool : {"ptxas", "fatbinary"}) {
    llvm::SmallString<128> path(options.cudaToolkit);
    llvm::sys::path::append(path, "bin", tool);
    if (!llvm::sys::fs::can_execute(path))
      return makeError("the CUDA toolkit '" + options.cudaToolkit +
                       "' has no " + tool + " (" + path +
                       "): name the toolkit's directory with --cuda-toolkit "
                       "DIR");
  }
  entryOptions.cudaToolkit = options.cudaToolkit;
  if (options.cudaChips.empty())
    return llvm::Error::success();
  // The PTX is for the oldest chip: newer GPUs compile it when they load
  // it; PTX 8.0 (CUDA 12) covers every chip LLVM 22 generates code for.
  unsigned oldest = ~0u;
  std::string ptxChip;
  for (const std::string &chip : options.cudaChips) {
    unsigned number = getChipNumber(chip);
    if (!number)
      return makeError("unknown CUDA chip '" + chip +
                       "' (LLVM's NVPTX names: sm_75, sm_80, sm_86, sm_89, " +
                       "sm_90, sm_90a, sm_100, sm_120, ...)");
    if (number < oldest) {
      oldest = number;
      ptxChip = "sm_" + std::to_string(number);
    }
  }
  entryOptions.cudaChips = options.cudaChips;
  entryOptions.ptxChip = ptxChip;
  return llvm::Error::success();
}

/// A target machine for the host's triple and `cpu` ("native": the host's
/// CPU and features), generating position-independent code.
static llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(llvm::StringRef cpu, unsigned optLevel) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return makeError("no code generator for " + triple.str() + ": " + error);
  std::string cpuName = cpu.str();
  std::string features;
  if (cpu == "native") {
    cpuName = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures subtarget;
    for (const auto &feature : llvm::sys::getHostCPUFeatures())
      subtarget.AddFeature(feature.getKey(), feature.getValue());
    features = subtarget.getString();
  }
  // LLVM takes an unknown CPU name with a warning on stderr only: checked
  // first, on the target's generic subtarget.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!generic || !generic->isCPUStringValid(cpuName))
    return makeError("unknown CPU '" + cpu + "' (LLVM's names: x86-64, " +
                     "x86-64-v2, x86-64-v3, x86-64-v4, skylake, znver4, " +
                     "...; or native)");
  auto codeGenLevel =
      static_cast<llvm::CodeGenOptLevel>(std::min(optLevel, 3u));
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, cpuName, features, llvm::TargetOptions(), llvm::Reloc::PIC_,
      std::nullopt, codeGenLevel));
  if (!machine)
    return makeError("cannot generate code for CPU '" + cpu + "'");
  return machine;
}

/// The entry's preparation for `options`' library.
static EntryOptions getEntryOptions(const CompileOptions &options) {
  EntryOptions entryOptions;
  entryOptions.target = options.target == CompileTarget::CUDA
                            ? EntryTarget::CUDALibrary
                            : EntryTarget::CPULibrary;
  entryOptions.function = options.function;
  entryOptions.functionHint = "--function NAME compiles one";
  entryOptions.donated = options.donated;
  entryOptions.checkBounds = options.checkBounds;
  entryOptions.symbol = options.symbol;
  return entryOptions;
}

llvm::Expected<CompiledEntry>
mlir::nd::compileModule(ModuleOp module, const CompileOptions &options) {
  EntryOptions entryOptions = getEntryOptions(options);
  llvm::Expected<func::FuncOp> entry = findEntry(module, entryOptions);
  if (!entry)
    return entry.takeError();
  if (options.target == CompileTarget::CUDA)
    if (llvm::Error error = setCudaOptions(options, entryOptions))
      return std::move(error);
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(options.cpu, options.optLevel);
  if (!machine)
    return machine.takeError();
  CompiledEntry compiled;
  compiled.symbol = options.symbol.empty() ? options.function : options.symbol;
  compiled.target = options.target;
  llvm::Expected<ExportedSignature> signature =
      lowerEntry(module, entryOptions);
  if (!signature)
    return signature.takeError();
  compiled.signature = std::move(*signature);

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, compiled.symbol);
  if (!llvmModule)
    return makeError("translating the module to LLVM IR failed");
  llvmModule->setTargetTriple((*machine)->getTargetTriple());
  llvmModule->setDataLayout((*machine)->createDataLayout());

  llvm::SmallVector<std::string> exported = compiled.getExportedSymbols();
  llvm::internalizeModule(*llvmModule, [&](const llvm::GlobalValue &value) {
    return llvm::is_contained(exported, value.getName());
  });
  if (llvm::Error error =
          optimizeLLVMModule(*llvmModule, **machine, options.optLevel))
    return std::move(error);

  llvm::raw_svector_ostream os(compiled.object);
  llvm::legacy::PassManager codeGen;
  if ((*machine)->addPassesToEmitFile(codeGen, os, nullptr,
                                      llvm::CodeGenFileType::ObjectFile))
    return makeError("the target cannot emit object files");
  codeGen.run(*llvmModule);
  return compiled;
}

//===----------------------------------------------------------------------===//
// The C header
//===----------------------------------------------------------------------===//

/// The enumerators of nd_dtype, in the table's order.
static const char *const kDTypeEnumerators[] = {
#define ND_DTYPE(ENUM, ...) "ND_DTYPE_" #ENUM,
#include "nd/Runner/DTypes.def"
};

static llvm::StringRef dtypeName(int32_t dtype) {
  static const char *const names[] = {
#define ND_DTYPE(ENUM, NAME, ...) NAME,
#include "nd/Runner/DTypes.def"
  };
  return names[dtype];
}

static std::string formatDims(llvm::ArrayRef<int64_t> dims) {
  std::string text = "[";
  for (auto [d, dim] : llvm::enumerate(dims)) {
    if (d)
      text += ", ";
    text += dim == ND_DYNAMIC ? std::string("?") : std::to_string(dim);
  }
  return text + "]";
}

void mlir::nd::emitHeader(const CompiledEntry &entry, llvm::StringRef source,
                          llvm::raw_ostream &os) {
  std::string upper = llvm::StringRef(entry.symbol).upper();
  std::string guard = "ND_COMPILED_" + upper + "_H";
  const ExportedSignature &signature = entry.signature;
  bool cuda = entry.target == CompileTarget::CUDA;
  os << "/* " << entry.symbol << ": the entry that nd-compile built from "
     << source << (cuda ? " for NVIDIA GPUs" : "") << ".\n";
  if (cuda)
    os << "   Call it as nd-c/CudaRuntime.h says: " << entry.symbol
       << " on device buffers and a\n"
       << "   CUstream, " << entry.symbol << ND_ABI_HOST_ENTRY_SUFFIX
       << " on host buffers; link with the library (or\n"
       << "   the object and libnd_cuda_runtime). */\n\n";
  else
    os << "   Call it as nd-c/Runtime.h says; link with the library (or the "
          "object\n"
       << "   and libnd_runtime). */\n\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include \"nd-c/" << (cuda ? "CudaRuntime.h" : "Runtime.h") << "\"\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";

  os << "/* Inputs:\n";
  for (auto [i, input] : llvm::enumerate(signature.inputs)) {
    os << "     #" << i;
    if (!input.name.empty())
      os << " '" << input.name << "'";
    os << ": " << dtypeName(input.dtype) << " " << formatDims(input.dims);
    if (input.donated)
      os << " (donated: the call may update it in place)";
    os << "\n";
  }
  if (signature.inputs.empty())
    os << "     none\n";
  os << "   Outputs:\n";
  for (auto [k, output] : llvm::enumerate(signature.outputs)) {
    os << "     #" << k << ": " << dtypeName(output.dtype) << " "
       << formatDims(output.dims);
    if (output.alias >= 0)
      os << " (the buffer of input #" << output.alias << ")";
    os << "\n";
  }
  if (signature.outputs.empty())
    os << "     none\n";
  os << "*/\n";
  if (cuda)
    os << "int32_t " << entry.symbol << "(nd_context *context, void *stream,\n"
       << "    const nd_tensor *inputs, size_t num_inputs, nd_tensor "
          "*outputs,\n"
       << "    size_t num_outputs);\n"
       << "int32_t " << entry.symbol << ND_ABI_HOST_ENTRY_SUFFIX
       << "(nd_context *context, const nd_tensor *inputs,\n"
       << "    size_t num_inputs, nd_tensor *outputs, size_t num_outputs);\n";
  else
    os << "int32_t " << entry.symbol
       << "(nd_context *context, const nd_tensor *inputs, size_t num_inputs,\n"
       << "    nd_tensor *outputs, size_t num_outputs);\n";
  os << "extern nd_signature " << entry.symbol << ND_ABI_SIGNATURE_SUFFIX
     << ";\n\n";

  os << "enum {\n"
     << "  " << upper << "_NUM_INPUTS = " << signature.inputs.size() << ",\n"
     << "  " << upper << "_NUM_OUTPUTS = " << signature.outputs.size();
  auto describe = [&](llvm::ArrayRef<ExportedTensor> tensors,
                      llvm::StringRef what) {
    for (auto [i, tensor] : llvm::enumerate(tensors)) {
      os << ",\n  " << upper << "_" << what << "_" << i
         << "_DTYPE = " << kDTypeEnumerators[tensor.dtype] << ",\n  " << upper
         << "_" << what << "_" << i << "_RANK = " << tensor.dims.size();
    }
  };
  describe(signature.inputs, "INPUT");
  describe(signature.outputs, "OUTPUT");
  os << "\n};\n\n"
     << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
}
