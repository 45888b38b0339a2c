//===- TilingInterfaceImpl.h - tiling nd ops --------------------*- C++ -*-===//
//
// Upstream's TilingInterface for the nd ops (see TilingInterfaceImpl.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_TRANSFORMS_TILINGINTERFACEIMPL_H
#define ND_DIALECT_ND_TRANSFORMS_TILINGINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;

namespace nd {

/// Attaches upstream's `TilingInterface` to every nd op, so that upstream's
/// tiling and fusion transforms (`transform.structured.tile_using_forall`,
/// `tile_using_for`, `fuse_into_containing_op`, `fuse`) handle nd ops.
void registerTilingInterfaceExternalModels(DialectRegistry &registry);

} // namespace nd
} // namespace mlir

#endif // ND_DIALECT_ND_TRANSFORMS_TILINGINTERFACEIMPL_H
