//===- ModuleToFatbin.cpp - the nd-gpu-module-to-fatbin pass ----*- C++ -*-===//
//
// `--nd-gpu-module-to-fatbin`: a fat binary with a cubin for each chip asked
// for and the PTX, from the PTX object `gpu-module-to-binary{format=isa}`
// leaves in each `gpu.binary`. MLIR 22's own `format=fatbin` assembles for
// the one chip of the target only, so a library built for sm_80 would run on
// an H100 only through the driver's compilation of its PTX at load time.
//
// The PTX is assembled with the toolkit's `ptxas` for each chip, and
// `fatbinary` packs the cubins and the PTX; `cuModuleLoadData` picks the
// cubin of the GPU it runs on, or compiles the PTX for a newer one.
//
//===----------------------------------------------------------------------===//

#include "nd/Target/CUDA/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDGPUMODULETOFATBIN
#include "nd/Target/CUDA/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;
using namespace mlir::nd;

namespace {
/// Temporary files removed when it goes out of scope.
class TemporaryFiles {
public:
  ~TemporaryFiles() {
    for (const std::string &path : paths)
      llvm::sys::fs::remove(path);
  }

  FailureOr<std::string> create(StringRef suffix) {
    SmallString<128> path;
    if (llvm::sys::fs::createTemporaryFile("nd-gpu", suffix, path))
      return failure();
    paths.push_back(path.str().str());
    return paths.back();
  }

private:
  SmallVector<std::string> paths;
};
} // namespace

/// The number of a chip name ("sm_90" -> "90"), or an empty string.
static StringRef chipNumber(StringRef chip) {
  if (!chip.consume_front("sm_") || chip.empty())
    return {};
  return chip;
}

/// Runs `tool` with `arguments`; on failure, emits its output on `op`.
static LogicalResult run(Operation *op, StringRef tool,
                         ArrayRef<std::string> arguments,
                         TemporaryFiles &files) {
  FailureOr<std::string> log = files.create("log");
  if (failed(log))
    return op->emitError("cannot create a temporary file");
  SmallVector<StringRef> argv = {tool};
  for (const std::string &argument : arguments)
    argv.push_back(argument);
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(*log),
                                          StringRef(*log)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(tool, argv, /*Env=*/std::nullopt,
                                         redirects, 0, 0, &message);
  if (status == 0)
    return success();
  std::string output;
  if (auto buffer = llvm::MemoryBuffer::getFile(*log))
    output = (*buffer)->getBuffer().str();
  return op->emitError() << llvm::sys::path::filename(tool) << " failed"
                         << (message.empty() ? "" : ": ") << message
                         << (output.empty() ? "" : "\n") << output;
}

namespace {
struct NdGPUModuleToFatbinPass
    : public mlir::nd::impl::NdGPUModuleToFatbinBase<NdGPUModuleToFatbinPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<std::string> targets(chips.begin(), chips.end());
    if (targets.empty())
      targets = {"sm_90", "sm_80"};
    for (const std::string &chip : targets)
      if (chipNumber(chip).empty()) {
        getOperation().emitError() << "'" << chip << "' is not a chip name "
                                   << "of the form sm_NN";
        return signalPassFailure();
      }
    SmallString<128> ptxas(toolkit), fatbinary(toolkit);
    llvm::sys::path::append(ptxas, "bin", "ptxas");
    llvm::sys::path::append(fatbinary, "bin", "fatbinary");
    auto result = getOperation().walk([&](gpu::BinaryOp binary) {
      if (failed(convert(binary, targets, ptxas, fatbinary)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  LogicalResult convert(gpu::BinaryOp binary, ArrayRef<std::string> targets,
                        StringRef ptxas, StringRef fatbinary) {
    auto objects = binary.getObjectsAttr().getValue();
    if (objects.size() != 1)
      return binary.emitError("expected one PTX object");
    auto object = cast<gpu::ObjectAttr>(objects.front());
    if (object.getFormat() != gpu::CompilationTarget::Assembly)
      return binary.emitError("expected a PTX object (gpu-module-to-binary "
                              "with format=isa)");
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
    if (!target)
      return binary.emitError("expected an NVVM target");
    StringRef ptxChip = chipNumber(target.getChip());
    if (ptxChip.empty())
      return binary.emitError()
             << "unexpected chip '" << target.getChip() << "'";
    for (StringRef tool : {ptxas, fatbinary})
      if (!llvm::sys::fs::can_execute(tool))
        return binary.emitError()
               << "cannot find " << tool << " (set the pass's toolkit option)";

    TemporaryFiles files;
    FailureOr<std::string> ptx = files.create("ptx");
    FailureOr<std::string> fatbin = files.create("fatbin");
    if (failed(ptx) || failed(fatbin))
      return binary.emitError("cannot create a temporary file");
    {
      std::error_code error;
      llvm::raw_fd_ostream os(*ptx, error);
      if (error)
        return binary.emitError() << "cannot write " << *ptx;
      os << object.getObject().getValue();
    }
    SmallVector<std::string> images;
    SmallVector<std::string> extra;
    for (StringRef option : llvm::split(StringRef(ptxasOptions), ' '))
      if (!option.empty())
        extra.push_back(option.str());
    for (const std::string &chip : targets) {
      FailureOr<std::string> cubin = files.create("cubin");
      if (failed(cubin))
        return binary.emitError("cannot create a temporary file");
      SmallVector<std::string> arguments = {"-arch=" + chip, "-O3"};
      llvm::append_range(arguments, extra);
      arguments.push_back(*ptx);
      arguments.push_back("-o");
      arguments.push_back(*cubin);
      if (failed(run(binary, ptxas, arguments, files)))
        return failure();
      images.push_back("--image3=kind=elf,sm=" + chipNumber(chip).str() +
                       ",file=" + *cubin);
    }
    images.push_back("--image3=kind=ptx,sm=" + ptxChip.str() + ",file=" + *ptx);
    SmallVector<std::string> arguments = {"-64", "--create=" + *fatbin};
    llvm::append_range(arguments, images);
    if (failed(run(binary, fatbinary, arguments, files)))
      return failure();
    auto buffer = llvm::MemoryBuffer::getFile(*fatbin, /*IsText=*/false);
    if (!buffer)
      return binary.emitError() << "cannot read " << *fatbin;
    StringAttr bytes = StringAttr::get(&getContext(), (*buffer)->getBuffer());
    auto fat = gpu::ObjectAttr::get(
        &getContext(), object.getTarget(), gpu::CompilationTarget::Fatbin,
        bytes, object.getProperties(), object.getKernels());
    binary.setObjectsAttr(ArrayAttr::get(&getContext(), {fat}));
    return success();
  }
};
} // namespace
