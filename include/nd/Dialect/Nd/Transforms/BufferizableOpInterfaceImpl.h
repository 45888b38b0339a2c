//===- BufferizableOpInterfaceImpl.h - bufferizing nd ops -------*- C++ -*-===//
//
// Upstream's BufferizableOpInterface for the nd ops (see
// BufferizableOpInterfaceImpl.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define ND_DIALECT_ND_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace nd {

/// Attaches upstream's `BufferizableOpInterface` to every nd op, so that
/// `--one-shot-bufferize` turns nd ops on tensors into nd ops on buffers:
/// scatters in place on their destination where the analysis allows it (a
/// copy otherwise), gathers into a new allocation.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace nd
} // namespace mlir

#endif // ND_DIALECT_ND_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
