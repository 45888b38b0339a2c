//===- Registration.h - register nd's dialect and passes --------*- C++ -*-===//
//
// The one entry point through which nd-opt, the mlir-opt plugin and any
// compiler embedding nd register nd's dialect, passes and pass pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef ND_REGISTRATION_REGISTRATION_H
#define ND_REGISTRATION_REGISTRATION_H

namespace mlir {
class DialectRegistry;

namespace nd {

/// Adds the nd dialect to `registry`, with the external models that let
/// upstream's sharding and MPI passes handle nd programs (the nd ops'
/// `ShardingInterface`, the MPI ops' memory effects) and the LLVM stage's
/// printer hook (large LLVM structs print named, see
/// registerNdToLLVMInterfaces).
void registerNdDialects(DialectRegistry &registry);

/// Registers every nd pass (those declared in nd/Conversion/Passes.td and
/// nd/Dialect/Nd/Transforms/Passes.td) and every nd pass pipeline
/// (`nd-to-llvm`, `nd-sharded-to-llvm`) with MLIR's global pass registry, so
/// that they can be named in a textual pipeline (`--pass-pipeline`,
/// parsePassPipeline) and, in mlir-opt-like tools, as flags. `nd-to-llvm`
/// bufferizes and converts to LLVM through upstream's dialect extensions: the
/// context it runs in needs them (mlir::registerAllExtensions, as mlir-opt).
void registerNdPasses();

} // namespace nd
} // namespace mlir

#endif // ND_REGISTRATION_REGISTRATION_H
