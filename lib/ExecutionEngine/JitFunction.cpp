//===- JitFunction.cpp - JIT-compiled tensor functions ----------*- C++ -*-===//
//
// The entry function is lowered with nd-to-llvm: its tensors become memrefs
// with identity layouts, each passed as the expanded descriptor
// (allocated pointer, aligned pointer, offset, sizes..., strides...) and
// returned as an LLVM struct of such descriptors. Once lowered, the entry
// function writes that struct through a pointer it takes as its last
// argument instead of returning it (see returnThroughPointer). The
// ExecutionEngine's packed wrapper `_mlir_<entry>(void **)` takes one pointer
// per expanded argument, the last one to a pointer to storage for the struct;
// every field is 8 bytes wide, so the struct has no padding and is read as
// an array of int64.
//
// Returned buffers are owned by the caller (the deallocation pipeline clones
// whatever the function does not own) and are released through nd's runtime
// allocator, which allocated them, except a buffer that is one of the inputs
// (a donated input, updated in place).
//
// The generated code runs its parallel loops on LLVM's OpenMP runtime
// (libomp, loaded into the JIT) and reports a failed run-time check by
// calling `nd_report_error`, which the JIT resolves to a function here: it
// records the first message of the call in progress, and the call returns an
// error instead of results.
//
//===----------------------------------------------------------------------===//

#include "nd/ExecutionEngine/JitFunction.h"

#include "Runtime/Memory.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "nd/Conversion/NdToLLVM/NdToLLVM.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Pipelines/Pipelines.h"
#include "nd/Runner/ElementType.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

using namespace mlir;
using namespace mlir::nd;

/// The allocated pointer MLIR gives descriptors of global memrefs, which must
/// never be freed.
static constexpr intptr_t kGlobalAllocatedPointer = 0xdeadbeef;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// Run-time error reporting
//===----------------------------------------------------------------------===//

namespace {
/// The first failed check of one call.
struct ErrorSink {
  std::mutex mutex;
  bool failed = false;
  std::string message;
};
} // namespace

/// The sink of the call in progress on this thread, and of the most recent
/// call on any thread, for reports from threads that did not make the call.
static thread_local ErrorSink *threadSink = nullptr;
static std::atomic<ErrorSink *> latestSink{nullptr};

/// `nd_report_error` as the JIT resolves it: thread-safe, first message wins.
static void reportError(const char *format, int64_t a, int64_t b) {
  ErrorSink *sink = threadSink ? threadSink : latestSink.load();
  if (!sink)
    return;
  std::lock_guard<std::mutex> lock(sink->mutex);
  if (sink->failed)
    return;
  sink->failed = true;
  int size = std::snprintf(nullptr, 0, format, static_cast<long long>(a),
                           static_cast<long long>(b));
  if (size < 0) {
    sink->message = format;
    return;
  }
  sink->message.resize(static_cast<size_t>(size) + 1);
  std::snprintf(sink->message.data(), sink->message.size(), format,
                static_cast<long long>(a), static_cast<long long>(b));
  sink->message.resize(static_cast<size_t>(size));
}

/// The allocation functions of the generated code (sizes are i64 there).
static void *allocateBuffer(int64_t size) {
  return ::nd::runtime::allocate(static_cast<size_t>(size));
}
static void *allocateAlignedBuffer(int64_t alignment, int64_t size) {
  return ::nd::runtime::allocateAligned(static_cast<size_t>(alignment),
                                        static_cast<size_t>(size));
}

namespace {
/// Makes `sink` the one reports of this thread's call go to.
class ScopedSink {
public:
  explicit ScopedSink(ErrorSink &sink) : previous(threadSink) {
    threadSink = &sink;
    latestSink.store(&sink);
  }
  ~ScopedSink() {
    ErrorSink *self = threadSink;
    threadSink = previous;
    latestSink.compare_exchange_strong(self, previous);
  }

private:
  ErrorSink *previous;
};
} // namespace

/// The host dtype of an MLIR element type, if a HostTensor can hold it.
/// `index` lowers to 64 bits here: its host tensors are int64.
static std::optional<DType> getDType(Type type) {
  if (type.isIndex())
    return DType::I64;
  return getDTypeOf(type);
}

/// The signature of one argument or result of the entry function.
static llvm::Expected<TensorSignature> getSignature(Type type,
                                                    const llvm::Twine &what) {
  auto tensorType = dyn_cast<RankedTensorType>(type);
  if (!tensorType) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << type;
    return makeError(what + " has type " + text +
                     "; only ranked tensors can be exchanged");
  }
  std::optional<DType> dtype = getDType(tensorType.getElementType());
  if (!dtype) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << tensorType.getElementType();
    return makeError(what + " has element type " + text +
                     ", which has no host representation");
  }
  TensorSignature signature;
  signature.dtype = *dtype;
  signature.shape.assign(tensorType.getShape().begin(),
                         tensorType.getShape().end());
  return signature;
}

/// Number of int64 slots of an expanded memref descriptor of rank `rank`.
static size_t descriptorSize(size_t rank) { return 3 + 2 * rank; }

JitFunction::~JitFunction() = default;

void JitFunction::registerDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<NdDialect>();
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}

/// A basic block longer than this is straight-line glue (a function that
/// calls thousands of nd ops and gathers their results), never a loop body.
static constexpr size_t kHugeBlock = 4096;

/// Code generation schedules each basic block in time quadratic in its
/// length: a function with a huge block is generated without optimization
/// (`optnone`), after the IR optimizations have run on it. Its code only
/// calls the ops' functions, which keep their optimized code.
static void markHugeFunctionsOptNone(llvm::Module &llvmModule) {
  for (llvm::Function &function : llvmModule) {
    if (function.isDeclaration() ||
        function.hasFnAttribute(llvm::Attribute::OptimizeNone))
      continue;
    bool huge = llvm::any_of(function, [](const llvm::BasicBlock &block) {
      return block.size() > kHugeBlock;
    });
    if (!huge)
      continue;
    function.removeFnAttr(llvm::Attribute::AlwaysInline);
    function.addFnAttr(llvm::Attribute::NoInline);
    function.addFnAttr(llvm::Attribute::OptimizeNone);
  }
}

/// Makes the lowered entry function `entry` write its result through a
/// pointer it takes as a new last argument, and return nothing. A function
/// with N results returns an LLVM struct of N memref descriptors, built by a
/// chain of `insertvalue`s in the function's last block: code generation
/// takes such a block whole to the SelectionDAG, whose scheduler is
/// quadratic in the block's length (1,000 results: 18 s). Stored field by
/// field instead, the block is plain calls and stores.
static LogicalResult returnThroughPointer(ModuleOp module, StringRef entry) {
  auto function = module.lookupSymbol<LLVM::LLVMFuncOp>(entry);
  if (!function || function.isExternal())
    return failure();
  LLVM::LLVMFunctionType type = function.getFunctionType();
  Type resultType = type.getReturnType();
  if (isa<LLVM::LLVMVoidType>(resultType))
    return success();
  MLIRContext *context = module.getContext();
  auto pointerType = LLVM::LLVMPointerType::get(context);
  Location loc = function.getLoc();
  unsigned position = function.getNumArguments();
  if (failed(function.insertArgument(position, pointerType,
                                     DictionaryAttr::get(context), loc)))
    return failure();
  function.setFunctionType(LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context),
      function.getFunctionType().getParams(), type.isVarArg()));
  function.removeResAttrsAttr();
  Value out = function.getArgument(position);

  SmallVector<LLVM::ReturnOp> returns;
  function.walk([&](LLVM::ReturnOp op) { returns.push_back(op); });
  for (LLVM::ReturnOp op : returns) {
    OpBuilder b(op);
    // The chain of insertvalues that builds the returned value, from its
    // root: the root goes first (unless it is undefined), then each field in
    // the chain's order, so that a field inserted twice ends up with its
    // last value.
    SmallVector<LLVM::InsertValueOp> chain;
    Value root = op.getArg();
    while (auto insert = root.getDefiningOp<LLVM::InsertValueOp>()) {
      chain.push_back(insert);
      root = insert.getContainer();
    }
    if (!root.getDefiningOp<LLVM::PoisonOp>() &&
        !root.getDefiningOp<LLVM::UndefOp>())
      LLVM::StoreOp::create(b, op.getLoc(), root, out);
    for (LLVM::InsertValueOp insert : llvm::reverse(chain)) {
      SmallVector<LLVM::GEPArg> indices = {0};
      for (int64_t index : insert.getPosition())
        indices.push_back(static_cast<int32_t>(index));
      Value field =
          LLVM::GEPOp::create(b, op.getLoc(), pointerType, resultType, out,
                              indices, LLVM::GEPNoWrapFlags::inbounds);
      LLVM::StoreOp::create(b, op.getLoc(), insert.getValue(), field);
    }
    LLVM::ReturnOp::create(b, op.getLoc(), ValueRange{});
    op.erase();
    for (LLVM::InsertValueOp insert : chain)
      if (insert->use_empty())
        insert.erase();
  }
  return success();
}

llvm::Expected<std::unique_ptr<JitFunction>>
JitFunction::compile(ModuleOp module, const JitOptions &options) {
  auto entry = module.lookupSymbol<func::FuncOp>(options.entry);
  if (!entry || entry.isExternal())
    return makeError("the module has no function @" + options.entry +
                     " with a body");

  std::unique_ptr<JitFunction> function(new JitFunction());
  FunctionType type = entry.getFunctionType();
  auto collect = [&](TypeRange types, StringRef what,
                     SmallVectorImpl<TensorSignature> &into) -> llvm::Error {
    for (auto [i, type] : llvm::enumerate(types)) {
      llvm::Expected<TensorSignature> signature = getSignature(
          type, what + " #" + llvm::Twine(i) + " of @" + options.entry);
      if (!signature)
        return signature.takeError();
      into.push_back(std::move(*signature));
    }
    return llvm::Error::success();
  };
  if (llvm::Error error =
          collect(type.getInputs(), "argument", function->arguments))
    return std::move(error);
  if (llvm::Error error =
          collect(type.getResults(), "result", function->results))
    return std::move(error);

  for (unsigned position : options.donated) {
    if (position >= entry.getNumArguments())
      return makeError(llvm::formatv("cannot donate input #{0}: @{1} takes {2} "
                                     "argument(s)",
                                     position, options.entry,
                                     entry.getNumArguments()));
    entry.setArgAttr(position, NdDialect::getDonatedAttrName(),
                     UnitAttr::get(module.getContext()));
  }
  function->donated.assign(options.donated.begin(), options.donated.end());
  function->threads = options.threads;

  // Upstream's runner utilities, for modules that print (printMemref*) or
  // copy strided memrefs (memrefCopy), and LLVM's OpenMP runtime for the
  // parallel loops; without it, the loops run on the calling thread.
  auto libraryPath = [](StringRef name) {
    SmallString<256> path(ND_MLIR_RUNNER_UTILS_DIR);
    llvm::sys::path::append(path, name);
    return path.str().str();
  };
  SmallVector<std::string> libraries;
  for (StringRef name :
       {"libmlir_runner_utils.so", "libmlir_c_runner_utils.so"}) {
    std::string path = libraryPath(name);
    if (llvm::sys::fs::exists(path))
      libraries.push_back(path);
  }
  std::string openmp = libraryPath("libomp.so");
  bool parallel = llvm::sys::fs::exists(openmp);
  if (parallel) {
    std::string error;
    llvm::sys::DynamicLibrary library =
        llvm::sys::DynamicLibrary::getPermanentLibrary(openmp.c_str(), &error);
    if (!library.isValid())
      return makeError("cannot load " + openmp + ": " + error);
    function->setNumThreads = reinterpret_cast<void (*)(int)>(
        library.getAddressOfSymbol("omp_set_num_threads"));
    libraries.push_back(openmp);
  }

  PassManager pm(module.getContext());
  NdToLLVMPipelineOptions pipelineOptions;
  pipelineOptions.checkBounds = options.checkBounds;
  pipelineOptions.parallel = parallel;
  buildNdToLLVMPipeline(pm, pipelineOptions);
  if (failed(pm.run(module)))
    return makeError("lowering the module to the LLVM dialect failed");
  if (failed(returnThroughPointer(module, options.entry)))
    return makeError("the lowered module has no function @" + options.entry);

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  unsigned optLevel = std::min(options.optLevel, 3u);
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
  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                            targetMachine.get());
  auto transformer = [optimize, targetMachine](
                         llvm::Module *llvmModule) -> llvm::Error {
    if (llvm::Error error = optimize(llvmModule))
      return error;
    markHugeFunctionsOptNone(*llvmModule);
    return llvm::Error::success();
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
  function->engine = std::move(*engine);
  function->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    auto add = [&](StringRef name, auto *function) {
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                                 llvm::JITSymbolFlags::Exported};
    };
    add(kHostReportErrorFn, &reportError);
    add("_mlir_memref_to_llvm_alloc", &allocateBuffer);
    add("_mlir_memref_to_llvm_aligned_alloc", &allocateAlignedBuffer);
    add("_mlir_memref_to_llvm_free", &::nd::runtime::release);
    return symbols;
  });
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

/// The packed arguments of one call: the expanded descriptors of the inputs
/// (one heap vector per input, so the addresses handed out stay put), one
/// pointer per descriptor field, and storage for the returned descriptors
/// (with the pointer to it that the entry function takes).
struct JitFunction::CallFrame {
  std::vector<std::vector<int64_t>> descriptors;
  llvm::SmallVector<void *> args;
  llvm::SmallVector<int64_t> resultStorage;
  /// The entry function's last argument: where it writes its results.
  void *resultPointer = nullptr;
};

llvm::Error JitFunction::prepareCall(llvm::MutableArrayRef<HostTensor> inputs,
                                     CallFrame &frame) const {
  frame.descriptors.clear();
  frame.descriptors.reserve(inputs.size());
  for (HostTensor &input : inputs) {
    llvm::Expected<llvm::SmallVector<int64_t, 4>> strides =
        getRowMajorStrides(input.getShape());
    if (!strides)
      return strides.takeError();
    std::vector<int64_t> &descriptor = frame.descriptors.emplace_back();
    auto data = reinterpret_cast<intptr_t>(input.getData());
    descriptor = {data, data, /*offset=*/0};
    llvm::ArrayRef<int64_t> shape = input.getShape();
    descriptor.insert(descriptor.end(), shape.begin(), shape.end());
    descriptor.insert(descriptor.end(), strides->begin(), strides->end());
  }

  frame.args.clear();
  for (std::vector<int64_t> &descriptor : frame.descriptors)
    for (int64_t &field : descriptor)
      frame.args.push_back(&field);
  size_t resultSlots = 0;
  for (const TensorSignature &result : results)
    resultSlots += descriptorSize(result.shape.size());
  frame.resultStorage.assign(resultSlots, 0);
  if (!results.empty()) {
    frame.resultPointer = frame.resultStorage.data();
    frame.args.push_back(&frame.resultPointer);
  }
  return llvm::Error::success();
}

/// Copies the `count` elements of a strided buffer into the row-major `dest`.
static void copyStrided(uint8_t *dest, const uint8_t *src, int64_t count,
                        llvm::ArrayRef<int64_t> sizes,
                        llvm::ArrayRef<int64_t> strides, size_t elementSize) {
  int64_t rank = static_cast<int64_t>(sizes.size());
  llvm::SmallVector<int64_t> position(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += position[d] * strides[d];
    std::memcpy(dest + n * elementSize, src + offset * elementSize,
                elementSize);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++position[d] < sizes[d])
        break;
      position[d] = 0;
    }
  }
}

llvm::Expected<llvm::SmallVector<HostTensor>>
JitFunction::collectResults(llvm::ArrayRef<int64_t> resultStorage,
                            llvm::ArrayRef<HostTensor> inputs, bool copy) {
  llvm::DenseSet<intptr_t> keep;
  for (const HostTensor &input : inputs)
    keep.insert(reinterpret_cast<intptr_t>(input.getData()));
  keep.insert(kGlobalAllocatedPointer);
  keep.insert(0);

  llvm::SmallVector<HostTensor> outputs;
  llvm::SmallVector<intptr_t> toFree;
  llvm::Error error = llvm::Error::success();
  size_t slot = 0;
  for (const TensorSignature &result : results) {
    size_t rank = result.shape.size();
    llvm::ArrayRef<int64_t> fields =
        resultStorage.slice(slot, descriptorSize(rank));
    slot += descriptorSize(rank);
    intptr_t allocated = fields[0];
    auto aligned = reinterpret_cast<const uint8_t *>(fields[1]);
    int64_t offset = fields[2];
    llvm::ArrayRef<int64_t> sizes = fields.slice(3, rank);
    llvm::ArrayRef<int64_t> strides = fields.slice(3 + rank, rank);
    if (!keep.contains(allocated) && !llvm::is_contained(toFree, allocated))
      toFree.push_back(allocated);
    if (!copy || error)
      continue;

    llvm::Expected<HostTensor> output = HostTensor::create(result.dtype, sizes);
    if (!output) {
      error = output.takeError();
      continue;
    }
    // An empty result has nothing to copy, whatever its strides.
    if (output->getNumElements() != 0) {
      size_t elementSize = getDTypeSize(result.dtype);
      const uint8_t *src = aligned + offset * static_cast<int64_t>(elementSize);
      // The sizes hold elements, so their row-major strides do not overflow.
      llvm::SmallVector<int64_t, 4> rowMajor =
          llvm::cantFail(getRowMajorStrides(sizes));
      bool contiguous = llvm::all_of(llvm::seq<size_t>(0, rank), [&](size_t d) {
        return sizes[d] == 1 || strides[d] == rowMajor[d];
      });
      if (contiguous)
        std::memcpy(output->getData(), src, output->getSizeInBytes());
      else
        copyStrided(output->getData(), src, output->getNumElements(), sizes,
                    strides, elementSize);
    }
    outputs.push_back(std::move(*output));
  }
  for (intptr_t allocated : toFree)
    ::nd::runtime::release(reinterpret_cast<void *>(allocated));
  if (error)
    return std::move(error);
  return outputs;
}

std::optional<std::string> JitFunction::call(CallFrame &frame) {
  if (threads && setNumThreads)
    setNumThreads(static_cast<int>(threads));
  ErrorSink sink;
  {
    ScopedSink scoped(sink);
    entryPoint(frame.args.data());
  }
  if (!sink.failed)
    return std::nullopt;
  return sink.message;
}

llvm::Expected<llvm::SmallVector<HostTensor>>
JitFunction::run(llvm::MutableArrayRef<HostTensor> inputs) {
  if (llvm::Error error = checkInputs(inputs))
    return std::move(error);
  CallFrame frame;
  if (llvm::Error error = prepareCall(inputs, frame))
    return std::move(error);
  std::optional<std::string> failure = call(frame);
  if (failure) {
    // The results of a failed call are released unread.
    llvm::Expected<llvm::SmallVector<HostTensor>> released =
        collectResults(frame.resultStorage, inputs, /*copy=*/false);
    if (!released)
      return released.takeError();
    return makeError(*failure);
  }
  return collectResults(frame.resultStorage, inputs, /*copy=*/true);
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
  // The scratch buffers stay put: one frame serves every call, and only the
  // call itself is timed. Only donated inputs can change between calls.
  CallFrame frame;
  if (llvm::Error error = prepareCall(scratch, frame))
    return std::move(error);
  std::vector<double> seconds;
  for (unsigned n = 0; n < warmup + iterations; ++n) {
    // The scratch copies hold `inputs` before the first call.
    for (unsigned position : refreshDonated && n ? donated
                                                 : llvm::ArrayRef<unsigned>())
      std::memcpy(scratch[position].getData(), inputs[position].getData(),
                  inputs[position].getSizeInBytes());
    auto start = std::chrono::steady_clock::now();
    std::optional<std::string> failure = call(frame);
    auto stop = std::chrono::steady_clock::now();
    auto released =
        collectResults(frame.resultStorage, scratch, /*copy=*/false);
    if (!released)
      return released.takeError();
    if (failure)
      return makeError(*failure);
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
