//===- nd-consumer.cpp - a compiler using nd's installed package ----------===//
//
//   nd-consumer FILE.mlir
//
// Registers the nd dialect next to MLIR's dialects and extensions, parses FILE,
// bufferizes it with upstream's one-shot bufferization (nd's ops bufferize
// through their BufferizableOpInterface), lowers the nd ops on buffers with
// mlir::nd::populateNdToLoopsPatterns inside its own partial conversion (nd
// illegal, everything else legal), verifies the result and prints it with a
// summary line; then runs nd's registered `nd-to-llvm`
// pipeline, named in a textual pipeline, on the original module and
// translates the result to LLVM IR. Exits 1 on any failure.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToLoops/NdToLoops.h"
#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Registration/Registration.h"
#include "nd/Version.h"

#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// The number of ops of the nd dialect in `module`.
static unsigned countNdOps(ModuleOp module) {
  unsigned count = 0;
  module.walk([&](Operation *op) {
    if (llvm::isa<nd::NdDialect>(op->getDialect()))
      ++count;
  });
  return count;
}

static int fail(const llvm::Twine &message) {
  llvm::errs() << "nd-consumer: error: " << message << "\n";
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return fail("usage: nd-consumer FILE.mlir");

  DialectRegistry registry;
  registerAllDialects(registry);
  // nd-to-llvm's conversions to LLVM and bufferization use the upstream
  // dialects' extensions (ConvertToLLVM and bufferization interfaces).
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  nd::registerNdDialects(registry);
  nd::registerNdPasses();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(argv[1], &context);
  if (!module)
    return fail(llvm::Twine("cannot parse '") + argv[1] + "'");
  OwningOpRef<ModuleOp> original = module->clone();
  unsigned ndOps = countNdOps(*module);

  // The lowering takes nd ops on buffers: bufferize first, as nd-to-llvm
  // does.
  PassManager bufferize(&context);
  bufferization::OneShotBufferizePassOptions options;
  options.bufferizeFunctionBoundaries = true;
  options.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  bufferize.addPass(bufferization::createOneShotBufferizePass(options));
  if (failed(bufferize.run(*module)))
    return fail("one-shot bufferization failed");

  RewritePatternSet patterns(&context);
  nd::populateNdToLoopsPatterns(patterns);
  ConversionTarget target(context);
  target.addIllegalDialect<nd::NdDialect>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  if (failed(applyPartialConversion(*module, target, std::move(patterns))))
    return fail("nd's patterns did not lower the module");
  if (unsigned left = countNdOps(*module))
    return fail(llvm::Twine(left) + " nd op(s) left after lowering");
  if (failed(verify(*module)))
    return fail("the lowered module does not verify");
  llvm::outs() << "nd " << ND_VERSION_STRING << ": lowered " << ndOps
               << " nd op(s), 0 left, the module verifies\n";
  module->print(llvm::outs());
  llvm::outs() << "\n";

  PassManager pm(&context);
  if (failed(parsePassPipeline("nd-to-llvm", pm)))
    return fail("nd-to-llvm is not registered");
  if (failed(pm.run(*original)))
    return fail("nd-to-llvm failed");
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*original, llvmContext);
  if (!llvmModule)
    return fail("the module made by nd-to-llvm does not translate to LLVM IR");
  llvm::Function *gatherND = llvmModule->getFunction("gather_nd");
  if (!gatherND || gatherND->isDeclaration())
    return fail("no definition of gather_nd in the LLVM IR");
  llvm::outs() << "nd-to-llvm: the module translates to LLVM IR; @gather_nd is "
                  "defined\n";
  return 0;
}
