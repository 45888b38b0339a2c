//===- JitFunction.cpp - JIT-compiled tensor functions ----------*- C++ -*-===//
//
// The entry function is prepared as nd-compile prepares a library's
// (nd/Entry/PrepareEntry.h): checked, its donated arguments marked, its
// signature recorded, lowered with nd-to-llvm and made what hosts call: it
// writes its results through a pointer (--nd-return-through-pointer) and
// takes the call's error state as its last argument (--nd-call-state). The
// ExecutionEngine's packed wrapper `_mlir_<entry>(void **)` then takes one
// pointer per argument, which is how the run-time library's `Call`
// (lib/Runtime/Call.h, shared with libnd_runtime.so) calls compiled code: it
// checks and packs the inputs, sets the thread count, gives the call its own
// error state, and hands the results over (a donated input's buffer, an
// output's alias in the signature, is never released).
//
// The generated code runs its parallel loops on LLVM's OpenMP runtime
// (libomp, loaded into the JIT), allocates through nd's allocator and
// reports a failed run-time check through `nd_report_error`, which the JIT
// resolves to the run-time library's reporter: the message goes to the
// call's state, and the call returns an error instead of results.
//
//===----------------------------------------------------------------------===//

#include "nd/ExecutionEngine/JitFunction.h"

#include "Runtime/BFloat16.h"
#include "Runtime/Call.h"
#include "Runtime/Memory.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "nd/Compile/Compile.h"
#include "nd/Entry/PrepareEntry.h"
#include "nd/Runner/ElementType.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

using namespace mlir;
using namespace mlir::nd;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The allocation functions of the generated code (sizes are i64 there).
static void *allocateBuffer(int64_t size) {
  return ::nd::runtime::allocate(static_cast<size_t>(size));
}
static void *allocateAlignedBuffer(int64_t alignment, int64_t size) {
  return ::nd::runtime::allocateAligned(static_cast<size_t>(alignment),
                                        static_cast<size_t>(size));
}

/// The conversions to bfloat16 of code generated for a CPU without them.
static float truncateFloat(float value) {
  return ::nd::runtime::asReturnedBFloat16(::nd::runtime::toBFloat16(value));
}
static float truncateDouble(double value) {
  return ::nd::runtime::asReturnedBFloat16(::nd::runtime::toBFloat16(value));
}

/// The signature of the entry as the run-time library reads it, made from
/// the prepared entry's, with the storage its pointers point into. Inputs
/// have no names and dims no names here: JitFunction::checkInputs names an
/// input by its position, and so do the run-time checks of its calls.
struct JitFunction::Description {
  explicit Description(ExportedSignature exported);
  Description(const Description &) = delete;
  Description &operator=(const Description &) = delete;

  nd_signature signature{};
  ExportedSignature exported;
  std::vector<nd_tensor_type> inputs;
  std::vector<nd_tensor_type> outputs;

private:
  static nd_tensor_type describe(const ExportedTensor &tensor);
};

JitFunction::Description::Description(ExportedSignature exportedSignature)
    : exported(std::move(exportedSignature)) {
  for (const ExportedTensor &input : exported.inputs)
    inputs.push_back(describe(input));
  for (const ExportedTensor &output : exported.outputs)
    outputs.push_back(describe(output));
  signature.abi_version = ND_ABI_VERSION;
  signature.num_inputs = static_cast<int32_t>(inputs.size());
  signature.num_outputs = static_cast<int32_t>(outputs.size());
  signature.entry = exported.function.c_str();
  signature.inputs = inputs.data();
  signature.outputs = outputs.data();
  signature.destinations = exported.destinations ? 1 : 0;
}

nd_tensor_type
JitFunction::Description::describe(const ExportedTensor &tensor) {
  nd_tensor_type type{};
  type.dtype = tensor.dtype;
  type.rank = static_cast<int32_t>(tensor.dims.size());
  type.dims = tensor.dims.data();
  type.name = "";
  type.donated = tensor.donated ? 1 : 0;
  type.alias = tensor.alias;
  return type;
}

/// The element type and shape of an input or output, dynamic dims as
/// `ShapedType::kDynamic`.
static TensorSignature getTensorSignature(const ExportedTensor &tensor) {
  TensorSignature signature;
  signature.dtype = static_cast<DType>(tensor.dtype);
  for (int64_t dim : tensor.dims)
    signature.shape.push_back(dim == ND_DYNAMIC ? ShapedType::kDynamic : dim);
  return signature;
}

JitFunction::~JitFunction() = default;

void JitFunction::registerDialects(DialectRegistry &registry) {
  registerCompileDialects(registry);
}

namespace {
/// The shared libraries a JIT-compiled module links against, and LLVM's
/// OpenMP runtime's thread-count functions where it is there.
struct JitLibraries {
  SmallVector<std::string> paths;
  bool parallel = false;
  void (*setNumThreads)(int) = nullptr;
  int (*getMaxThreads)() = nullptr;
};
} // namespace

/// Upstream's runner utilities, for modules that print (printMemref*) or
/// copy strided memrefs (memrefCopy), and LLVM's OpenMP runtime for the
/// parallel loops; without it, the loops run on the calling thread.
static llvm::Expected<JitLibraries> findJitLibraries() {
  auto libraryPath = [](StringRef name) {
    SmallString<256> path(ND_MLIR_RUNNER_UTILS_DIR);
    llvm::sys::path::append(path, name);
    return path.str().str();
  };
  JitLibraries libraries;
  for (StringRef name :
       {"libmlir_runner_utils.so", "libmlir_c_runner_utils.so"}) {
    std::string path = libraryPath(name);
    if (llvm::sys::fs::exists(path))
      libraries.paths.push_back(path);
  }
  std::string openmp = libraryPath("libomp.so");
  libraries.parallel = llvm::sys::fs::exists(openmp);
  if (!libraries.parallel)
    return libraries;
  std::string error;
  llvm::sys::DynamicLibrary library =
      llvm::sys::DynamicLibrary::getPermanentLibrary(openmp.c_str(), &error);
  if (!library.isValid())
    return makeError("cannot load " + openmp + ": " + error);
  libraries.setNumThreads = reinterpret_cast<void (*)(int)>(
      library.getAddressOfSymbol(ND_ABI_NAME(ND_ABI_OMP_SET_THREADS)));
  libraries.getMaxThreads = reinterpret_cast<int (*)()>(
      library.getAddressOfSymbol(ND_ABI_NAME(ND_ABI_OMP_MAX_THREADS)));
  libraries.paths.push_back(openmp);
  return libraries;
}

/// The symbols of nd's runtime that generated code calls, from this process.
static llvm::orc::SymbolMap
runtimeSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto add = [&](StringRef name, auto *function) {
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                               llvm::JITSymbolFlags::Exported};
  };
  add(ND_ABI_NAME(ND_ABI_REPORT_ERROR), &::nd::runtime::reportError);
  add(ND_ABI_NAME(ND_ABI_REPORT_OUT_OF_MEMORY),
      &::nd::runtime::reportOutOfMemory);
  add(ND_ABI_NAME(ND_ABI_ALLOC), &allocateBuffer);
  add(ND_ABI_NAME(ND_ABI_ALIGNED_ALLOC), &allocateAlignedBuffer);
  add(ND_ABI_NAME(ND_ABI_FREE), &::nd::runtime::release);
  add(ND_ABI_NAME(ND_ABI_TRUNC_F32_TO_BF16), &truncateFloat);
  add(ND_ABI_NAME(ND_ABI_TRUNC_F64_TO_BF16), &truncateDouble);
  return symbols;
}

/// An execution engine for the lowered `module`, optimized at `optLevel`
/// for the host, linked against `libraries` and nd's runtime.
static llvm::Expected<std::unique_ptr<ExecutionEngine>>
createEngine(ModuleOp module, unsigned optLevel,
             ArrayRef<std::string> libraries) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // The IR optimizations see the host's target (its vector width, its cost
  // model), as code generation does: without it the loop vectorizer and the
  // unroller work for a target with no vector registers.
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!hostBuilder)
    return hostBuilder.takeError();
  hostBuilder->setCodeGenOptLevel(static_cast<llvm::CodeGenOptLevel>(optLevel));
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> hostMachine =
      hostBuilder->createTargetMachine();
  if (!hostMachine)
    return hostMachine.takeError();
  std::shared_ptr<llvm::TargetMachine> targetMachine = std::move(*hostMachine);
  auto transformer = [optLevel, targetMachine](
                         llvm::Module *llvmModule) -> llvm::Error {
    return optimizeLLVMModule(*llvmModule, *targetMachine, optLevel);
  };
  SmallVector<StringRef> libraryRefs(libraries.begin(), libraries.end());
  ExecutionEngineOptions engineOptions;
  engineOptions.sharedLibPaths = libraryRefs;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel =
      static_cast<llvm::CodeGenOptLevel>(optLevel);
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return engine.takeError();
  (*engine)->registerSymbols(runtimeSymbols);
  return std::move(*engine);
}

llvm::Expected<std::unique_ptr<JitFunction>>
JitFunction::compile(ModuleOp module, const JitOptions &options) {
  EntryOptions entryOptions;
  entryOptions.target = EntryTarget::CPUJit;
  entryOptions.function = options.entry;
  entryOptions.donated = options.donated;
  entryOptions.checkBounds = options.checkBounds;
  llvm::Expected<func::FuncOp> entry = findEntry(module, entryOptions);
  if (!entry)
    return entry.takeError();

  std::unique_ptr<JitFunction> function(new JitFunction());
  function->donated.assign(options.donated.begin(), options.donated.end());
  function->threads = options.threads;
  llvm::Expected<JitLibraries> libraries = findJitLibraries();
  if (!libraries)
    return libraries.takeError();
  function->setNumThreads = libraries->setNumThreads;
  function->getMaxThreads = libraries->getMaxThreads;
  entryOptions.parallel = libraries->parallel;
  llvm::Expected<ExportedSignature> signature =
      lowerEntry(module, entryOptions);
  if (!signature)
    return signature.takeError();
  for (const ExportedTensor &input : signature->inputs)
    function->arguments.push_back(getTensorSignature(input));
  for (const ExportedTensor &output : signature->outputs)
    function->results.push_back(getTensorSignature(output));
  function->description = std::make_unique<Description>(std::move(*signature));

  unsigned optLevel = std::min(options.optLevel, 3u);
  auto engine = createEngine(module, optLevel, libraries->paths);
  if (!engine)
    return engine.takeError();
  function->engine = std::move(*engine);
  // Looking the symbol up compiles the module now rather than on first call.
  auto entryPoint = function->engine->lookupPacked(options.entry);
  if (!entryPoint)
    return entryPoint.takeError();
  function->entryPoint = *entryPoint;
  return function;
}

llvm::Error JitFunction::checkInputs(llvm::ArrayRef<HostTensor> inputs) const {
  if (inputs.size() != arguments.size())
    return makeError(llvm::formatv("the function takes {0} input(s), got {1}",
                                   arguments.size(), inputs.size()));
  for (auto [i, input, argument] : llvm::enumerate(inputs, arguments)) {
    if (input.getDType() != argument.dtype)
      return makeError(llvm::formatv(
          "input #{0}: expected element type {1}, got {2}", i,
          stringifyDType(argument.dtype), stringifyDType(input.getDType())));
    if (input.getRank() != static_cast<int64_t>(argument.shape.size()))
      return makeError(llvm::formatv("input #{0}: expected rank {1}, got {2} "
                                     "(shape {3})",
                                     i, argument.shape.size(), input.getRank(),
                                     formatShape(input.getShape())));
    for (auto [d, want, got] :
         llvm::enumerate(argument.shape, input.getShape())) {
      if (!ShapedType::isDynamic(want) && want != got)
        return makeError(llvm::formatv(
            "input #{0}: dim {1} must be {2}, got {3} (shape {4})", i, d, want,
            got, formatShape(input.getShape())));
    }
    // The compiled code takes the strides in its memref descriptors.
    if (auto strides = getRowMajorStrides(input.getShape()); !strides)
      return makeError(llvm::formatv("input #{0}: {1}", i,
                                     llvm::toString(strides.takeError())));
  }
  return llvm::Error::success();
}

/// The runtime's view of `tensor`: contiguous, row-major.
static nd_tensor viewOf(HostTensor &tensor) {
  nd_tensor view{};
  view.data = tensor.getData();
  // The runtime never writes an input's shape.
  view.shape = const_cast<int64_t *>(tensor.getShape().data());
  view.dtype = static_cast<int32_t>(tensor.getDType());
  view.rank = static_cast<int32_t>(tensor.getRank());
  return view;
}

llvm::Expected<llvm::SmallVector<HostTensor>>
JitFunction::call(llvm::MutableArrayRef<HostTensor> inputs) {
  llvm::SmallVector<nd_tensor> views;
  for (HostTensor &input : inputs)
    views.push_back(viewOf(input));
  llvm::SmallVector<nd_tensor> outputs(results.size(), nd_tensor{});
  ::nd::runtime::ThreadControl control{getMaxThreads, setNumThreads};
  ::nd::runtime::Call call(description->signature, entryPoint);
  int32_t status =
      call.prepare(views.data(), views.size(), outputs.data(), outputs.size());
  if (status == ND_OK)
    status = call.run(static_cast<int32_t>(threads), control);
  if (status == ND_OK)
    status = call.finish();
  if (status != ND_OK)
    return makeError(call.getMessage());

  // The results, copied into host tensors; nd's buffers go back.
  llvm::SmallVector<HostTensor> copies;
  llvm::Error error = llvm::Error::success();
  for (nd_tensor &output : outputs) {
    if (!error) {
      llvm::ArrayRef<int64_t> shape(output.shape,
                                    static_cast<size_t>(output.rank));
      llvm::Expected<HostTensor> copy =
          HostTensor::create(static_cast<DType>(output.dtype), shape);
      if (copy) {
        if (copy->getSizeInBytes())
          std::memcpy(copy->getData(), output.data, copy->getSizeInBytes());
        copies.push_back(std::move(*copy));
      } else {
        error = copy.takeError();
      }
    }
    ::nd::runtime::releaseTensor(output);
  }
  if (error)
    return std::move(error);
  return copies;
}

llvm::Expected<llvm::SmallVector<HostTensor>>
JitFunction::run(llvm::MutableArrayRef<HostTensor> inputs) {
  if (llvm::Error error = checkInputs(inputs))
    return std::move(error);
  return call(inputs);
}

llvm::Expected<BenchmarkResult>
JitFunction::benchmark(llvm::ArrayRef<HostTensor> inputs, unsigned warmup,
                       unsigned iterations, bool refreshDonated) {
  if (llvm::Error error = checkInputs(inputs))
    return std::move(error);
  llvm::SmallVector<HostTensor> scratch;
  for (const HostTensor &input : inputs) {
    llvm::Expected<HostTensor> copy = input.clone();
    if (!copy)
      return copy.takeError();
    scratch.push_back(std::move(*copy));
  }
  // The scratch buffers stay put: one prepared call serves every run, and
  // only the run itself is timed. Only donated inputs can change between
  // runs; each run's results are released unread.
  llvm::SmallVector<nd_tensor> views;
  for (HostTensor &input : scratch)
    views.push_back(viewOf(input));
  llvm::SmallVector<nd_tensor> outputs(results.size(), nd_tensor{});
  ::nd::runtime::ThreadControl control{getMaxThreads, setNumThreads};
  ::nd::runtime::Call call(description->signature, entryPoint);
  if (call.prepare(views.data(), views.size(), outputs.data(),
                   outputs.size()) != ND_OK)
    return makeError(call.getMessage());
  std::vector<double> seconds;
  for (unsigned n = 0; n < warmup + iterations; ++n) {
    // The scratch copies hold `inputs` before the first run.
    for (unsigned position : refreshDonated && n ? donated
                                                 : llvm::ArrayRef<unsigned>())
      std::memcpy(scratch[position].getData(), inputs[position].getData(),
                  inputs[position].getSizeInBytes());
    auto start = std::chrono::steady_clock::now();
    int32_t status = call.run(static_cast<int32_t>(threads), control);
    auto stop = std::chrono::steady_clock::now();
    call.releaseResults();
    if (status != ND_OK)
      return makeError(call.getMessage());
    if (n >= warmup)
      seconds.push_back(std::chrono::duration<double>(stop - start).count());
  }
  BenchmarkResult result;
  result.iterations = iterations;
  if (seconds.empty())
    return result;
  std::sort(seconds.begin(), seconds.end());
  result.min = seconds.front();
  size_t mid = seconds.size() / 2;
  result.median =
      seconds.size() % 2 ? seconds[mid] : (seconds[mid - 1] + seconds[mid]) / 2;
  double sum = 0;
  for (double s : seconds)
    sum += s;
  result.mean = sum / static_cast<double>(seconds.size());
  return result;
}
