//===- CacheSizes.cpp - a tensor_scatter's cache in its lowerings -------===//
//
// See nd/Dialect/Nd/Utils/CacheSizes.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/Utils/CacheSizes.h"

#include "nd/Dialect/Nd/IR/NdRowAddressing.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::nd;

Value CacheSizes::isBadWrite(OpBuilder &b, Location loc, Value w) const {
  IndexBuilder a(b, loc);
  return isBadWriteIndexWith(a, mode, w, lastStart);
}

Value CacheSizes::clampWrite(OpBuilder &b, Location loc, Value w) const {
  IndexBuilder a(b, loc);
  return clampWriteIndexWith(a, mode, w, lastStart);
}

Value CacheSizes::position(OpBuilder &b, Location loc, Value w,
                           Value s) const {
  IndexBuilder a(b, loc);
  return sequencePositionWith(a, mode, w, s, maxSeq);
}

CacheSizes mlir::nd::cacheSizesOf(OpBuilder &b, Location loc, Value cache,
                                  Value update, int64_t axis,
                                  TensorScatterMode mode, OobMode oob) {
  int64_t rank = cast<MemRefType>(cache.getType()).getRank();
  CacheSizes c;
  c.mode = mode;
  c.circular = mode == TensorScatterMode::Circular;
  c.oob = oob;
  c.maxSeq = dimValue(b, loc, cache, axis);
  c.seqLen = dimValue(b, loc, update, axis);
  c.inner = product(b, loc, dimValues(b, loc, cache, axis + 1, rank));
  c.perBatch = product(b, loc, dimValues(b, loc, cache, 1, axis));
  c.lastStart = b.createOrFold<arith::SubIOp>(loc, c.maxSeq, c.seqLen);
  return c;
}
