//===- GPUSupport.cpp - building blocks of nd's GPU kernels -----*- C++ -*-===//
//
// See GPUSupport.h.
//
//===----------------------------------------------------------------------===//

#include "nd/Conversion/NdToGPU/GPUSupport.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::gpu_lowering;

//===----------------------------------------------------------------------===//
// Scalars
//===----------------------------------------------------------------------===//

Value gpu_lowering::constInt(OpBuilder &b, Location loc, Type type,
                             int64_t value) {
  if (type.isIndex())
    return constIndex(b, loc, value);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, value));
}

Value gpu_lowering::addIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AddIOp>(loc, x, y);
}

Value gpu_lowering::subIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::SubIOp>(loc, x, y);
}

Value gpu_lowering::mulIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::MulIOp>(loc, x, y);
}

Value gpu_lowering::divIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::DivUIOp>(loc, x, y);
}

Value gpu_lowering::remIndex(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::RemUIOp>(loc, x, y);
}

Value gpu_lowering::cmpIndex(OpBuilder &b, Location loc,
                             arith::CmpIPredicate predicate, Value x, Value y) {
  return b.createOrFold<arith::CmpIOp>(loc, predicate, x, y);
}

Value gpu_lowering::andBool(OpBuilder &b, Location loc, Value x, Value y) {
  return b.createOrFold<arith::AndIOp>(loc, x, y);
}

Value gpu_lowering::select(OpBuilder &b, Location loc, Value cond, Value x,
                           Value y) {
  return b.createOrFold<arith::SelectOp>(loc, cond, x, y);
}

Value gpu_lowering::selectByIndex(OpBuilder &b, Location loc, Value c,
                                  ArrayRef<Value> values) {
  Value result = values.front();
  for (int64_t i = 1, e = values.size(); i < e; ++i) {
    Value is =
        cmpIndex(b, loc, arith::CmpIPredicate::eq, c, constIndex(b, loc, i));
    result = select(b, loc, is, values[i], result);
  }
  return result;
}

Value gpu_lowering::toIndex(OpBuilder &b, Location loc, Value value) {
  if (value.getType().isIndex())
    return value;
  return b.createOrFold<arith::IndexCastOp>(loc, b.getIndexType(), value);
}

Value gpu_lowering::i32Const(OpBuilder &b, Location loc, int64_t value) {
  return constInt(b, loc, b.getI32Type(), value);
}

Value gpu_lowering::i64Const(OpBuilder &b, Location loc, int64_t value) {
  return constInt(b, loc, b.getI64Type(), value);
}

Value gpu_lowering::loadAt(OpBuilder &b, Location loc, Value buffer,
                           Value at) {
  Value index = toIndex(b, loc, at);
  return memref::LoadOp::create(b, loc, buffer, ValueRange{index});
}

void gpu_lowering::storeAt(OpBuilder &b, Location loc, Value value,
                           Value buffer, Value at) {
  Value index = toIndex(b, loc, at);
  memref::StoreOp::create(b, loc, value, buffer, ValueRange{index});
}

Value gpu_lowering::fromIndex(OpBuilder &b, Location loc, Type type,
                              Value value) {
  if (type == value.getType())
    return value;
  return b.createOrFold<arith::IndexCastOp>(loc, type, value);
}

void gpu_lowering::buildIfElse(
    OpBuilder &b, Location loc, Value cond,
    function_ref<void(OpBuilder &, Location)> then,
    function_ref<void(OpBuilder &, Location)> otherwise) {
  std::optional<int64_t> known = getConstantIntValue(cond);
  if (known) {
    if (*known)
      then(b, loc);
    else
      otherwise(b, loc);
    return;
  }
  auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  then(b, loc);
  b.setInsertionPointToStart(ifOp.elseBlock());
  otherwise(b, loc);
}

void gpu_lowering::buildFor(
    OpBuilder &b, Location loc, Value lo, Value hi, Value step,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  scf::ForOp::create(b, loc, lo, hi, step, ValueRange{},
                     [&](OpBuilder &nb, Location nloc, Value iv, ValueRange) {
                       body(nb, nloc, iv);
                       scf::YieldOp::create(nb, nloc);
                     });
}

//===----------------------------------------------------------------------===//
// Buffers on the host side
//===----------------------------------------------------------------------===//

bool gpu_lowering::isContiguous(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  ArrayRef<int64_t> shape = type.getShape();
  int64_t running = 1;
  for (int64_t d = type.getRank() - 1; d >= 0; --d) {
    if (shape[d] == 1)
      continue;
    if (ShapedType::isDynamic(strides[d]) || strides[d] != running)
      return false;
    if (ShapedType::isDynamic(shape[d])) {
      // Only the outermost dim that is not 1 may be dynamic.
      for (int64_t e = d - 1; e >= 0; --e)
        if (shape[e] != 1)
          return false;
      return true;
    }
    running *= shape[d];
  }
  return true;
}

Value gpu_lowering::flatView(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  if (type.getRank() == 1 && isContiguous(type))
    return memref;
  // A collapse_shape of a static 0 dim does not survive canonicalization
  // in MLIR 22; nothing is read or written through such a buffer.
  if (llvm::is_contained(type.getShape(), 0)) {
    auto layout = StridedLayoutAttr::get(b.getContext(), 0, {1});
    auto emptyType = MemRefType::get({0}, type.getElementType(), layout,
                                     type.getMemorySpace());
    SmallVector<OpFoldResult> sizes = {b.getIndexAttr(0)};
    SmallVector<OpFoldResult> strides = {b.getIndexAttr(1)};
    return memref::ReinterpretCastOp::create(b, loc, emptyType, memref,
                                             b.getIndexAttr(0), sizes, strides);
  }
  if (type.getRank() == 0) {
    MemRefLayoutAttrInterface layout;
    if (!type.getLayout().isIdentity()) {
      SmallVector<int64_t> strides;
      int64_t offset;
      (void)type.getStridesAndOffset(strides, offset);
      layout = StridedLayoutAttr::get(b.getContext(), offset, {1});
    }
    auto flatType = MemRefType::get({1}, type.getElementType(), layout,
                                    type.getMemorySpace());
    return memref::ExpandShapeOp::create(b, loc, flatType, memref,
                                         ArrayRef<ReassociationIndices>{});
  }
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  SmallVector<ReassociationIndices> groups = {all};
  return memref::CollapseShapeOp::create(b, loc, memref, groups);
}

Value gpu_lowering::allocLike(OpBuilder &b, Location loc, Value like) {
  auto type = cast<MemRefType>(like.getType());
  auto allocType = MemRefType::get(type.getShape(), type.getElementType());
  SmallVector<Value> sizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      sizes.push_back(dimValue(b, loc, like, d));
  return gpu::AllocOp::create(b, loc, allocType, /*asyncToken=*/Type(),
                              ValueRange{}, sizes, ValueRange{})
      .getMemref();
}

Value gpu_lowering::allocFlat(OpBuilder &b, Location loc, Type elementType,
                              Value size) {
  auto type = MemRefType::get({ShapedType::kDynamic}, elementType);
  return gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(), ValueRange{},
                              ValueRange{size}, ValueRange{})
      .getMemref();
}

Value gpu_lowering::allocFlat(OpBuilder &b, Location loc, Type elementType,
                              int64_t size) {
  auto type = MemRefType::get({size}, elementType);
  return gpu::AllocOp::create(b, loc, type, /*asyncToken=*/Type(), ValueRange{},
                              ValueRange{}, ValueRange{})
      .getMemref();
}

void gpu_lowering::dealloc(OpBuilder &b, Location loc, Value buffer) {
  gpu::DeallocOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, buffer);
}

void gpu_lowering::fill32(OpBuilder &b, Location loc, Value buffer,
                          int32_t value) {
  Value fillValue = constInt(b, loc, b.getI32Type(), value);
  gpu::MemsetOp::create(b, loc, /*asyncToken=*/Type(), ValueRange{}, buffer,
                        fillValue);
}

SmallVector<Value> gpu_lowering::delinearize(OpBuilder &b, Location loc,
                                             Value flat, ArrayRef<Value> dims) {
  SmallVector<Value> coords(dims.size());
  Value rest = flat;
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    if (d == 0) {
      coords[d] = rest;
      break;
    }
    coords[d] = remIndex(b, loc, rest, dims[d]);
    rest = divIndex(b, loc, rest, dims[d]);
  }
  return coords;
}

void gpu_lowering::copyStrided(OpBuilder &b, Location loc, Value src,
                               Value dst) {
  auto type = cast<MemRefType>(src.getType());
  int64_t rank = type.getRank();
  SmallVector<Value> dims = dimValues(b, loc, src, 0, rank);
  Value total = product(b, loc, dims);
  Value grid = gridFor(b, loc, total, kBlockSize);
  launch(b, loc, grid, Value(), kBlockSize,
         [&](OpBuilder &kb, Location kloc, const KernelIds &ids) {
           gridStrideLoop(kb, kloc, ids, total,
                          [&](OpBuilder &lb, Location lloc, Value i) {
                            SmallVector<Value> at =
                                delinearize(lb, lloc, i, dims);
                            Value v = memref::LoadOp::create(lb, lloc, src, at);
                            memref::StoreOp::create(lb, lloc, v, dst, at);
                          });
         });
}

FlatBuffer gpu_lowering::flatOperand(OpBuilder &b, Location loc, Value memref,
                                     bool readContents) {
  auto type = cast<MemRefType>(memref.getType());
  if (isContiguous(type))
    return {memref, flatView(b, loc, memref), Value()};
  Value copy = allocLike(b, loc, memref);
  if (readContents)
    copyStrided(b, loc, memref, copy);
  return {memref, flatView(b, loc, copy), copy};
}

void gpu_lowering::writeBack(OpBuilder &b, Location loc,
                             const FlatBuffer &buffer) {
  if (!buffer.copy)
    return;
  copyStrided(b, loc, buffer.copy, buffer.original);
  dealloc(b, loc, buffer.copy);
}

void gpu_lowering::release(OpBuilder &b, Location loc,
                           const FlatBuffer &buffer) {
  if (buffer.copy)
    dealloc(b, loc, buffer.copy);
}

void gpu_lowering::finishFlatOperands(OpBuilder &b, Location loc,
                                      const FlatBuffer &written,
                                      const FlatBuffer &read,
                                      const FlatBuffer &readToo) {
  writeBack(b, loc, written);
  release(b, loc, read);
  release(b, loc, readToo);
}

Value gpu_lowering::flatSize(OpBuilder &b, Location loc, Value flat) {
  return dimValue(b, loc, flat, 0);
}

Value gpu_lowering::addressOf(OpBuilder &b, Location loc, Value flat,
                              Value offset) {
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, flat);
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, flat);
  Value start = addIndex(b, loc, metadata.getOffset(), offset);
  Type elementType = cast<MemRefType>(flat.getType()).getElementType();
  // Index buffers hold 64-bit integers on the device.
  unsigned bits =
      elementType.isIndex() ? 64 : elementType.getIntOrFloatBitWidth();
  Value bytes = constIndex(b, loc, std::max<unsigned>(bits / 8, 1));
  return addIndex(b, loc, base, mulIndex(b, loc, start, bytes));
}

Value gpu_lowering::isAligned(OpBuilder &b, Location loc, Value address,
                              int64_t alignment) {
  Value mask = constIndex(b, loc, alignment - 1);
  Value low = b.createOrFold<arith::AndIOp>(loc, address, mask);
  Value zero = constIndex(b, loc, 0);
  return cmpIndex(b, loc, arith::CmpIPredicate::eq, low, zero);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

MemRefType gpu_lowering::sharedType(MLIRContext *ctx, Type elementType,
                                    int64_t size) {
  auto space = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  return MemRefType::get({size}, elementType, MemRefLayoutAttrInterface(),
                         space);
}

void gpu_lowering::launch(OpBuilder &b, Location loc, Value gridX, Value gridY,
                          int64_t blockSize, KernelBody body,
                          ArrayRef<MemRefType> sharedTypes) {
  Value one = constIndex(b, loc, 1);
  Value block = constIndex(b, loc, blockSize);
  if (!gridY)
    gridY = one;
  SmallVector<Type> workgroup(sharedTypes.begin(), sharedTypes.end());
  auto launchOp = gpu::LaunchOp::create(
      b, loc, gridX, gridY, one, block, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/ValueRange{}, workgroup);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launchOp.getBody().front());
  KernelIds ids;
  ids.blockX = launchOp.getBlockIds().x;
  ids.blockY = launchOp.getBlockIds().y;
  ids.threadX = launchOp.getThreadIds().x;
  ids.gridX = launchOp.getGridSize().x;
  ids.gridY = launchOp.getGridSize().y;
  ids.blockSize = launchOp.getBlockSize().x;
  for (BlockArgument arg : launchOp.getWorkgroupAttributions())
    ids.shared.push_back(arg);
  body(b, loc, ids);
  gpu::TerminatorOp::create(b, loc);
}

/// Splits the top-level ops of a kernel body (its terminator excepted)
/// into the phases between its barriers, constants left out (they move to
/// the start of the body, where every phase sees them); empty phases are
/// left out.
static SmallVector<SmallVector<Operation *>> kernelPhases(Block &body) {
  SmallVector<SmallVector<Operation *>> phases(1);
  SmallVector<Operation *> constants;
  for (Operation &op : body.without_terminator()) {
    if (op.hasTrait<OpTrait::ConstantLike>()) {
      constants.push_back(&op);
      continue;
    }
    if (isa<gpu::BarrierOp>(op)) {
      if (!phases.back().empty())
        phases.emplace_back();
      continue;
    }
    phases.back().push_back(&op);
  }
  if (phases.back().empty())
    phases.pop_back();
  for (Operation *op : llvm::reverse(constants))
    op->moveBefore(&body, body.begin());
  return phases;
}

/// Runs the ops of `phase` (consecutive top-level ops of a kernel body)
/// only where `run` holds: an `scf.if` that yields the values later phases
/// use, poison where the phase is skipped (nothing uses them then: every
/// phase of the kernel is skipped alike; zeros would cost the kernels that
/// run a move each and the sort's pass kernel a 65th register).
static void guardPhase(OpBuilder &b, ArrayRef<Operation *> phase, Value run) {
  llvm::SmallPtrSet<Operation *, 16> inside(phase.begin(), phase.end());
  Block *body = phase.front()->getBlock();
  SmallVector<Value> escaping;
  for (Operation *op : phase)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inside.contains(body->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(result);
  Location loc = phase.front()->getLoc();
  b.setInsertionPoint(phase.front());
  SmallVector<Type> types;
  for (Value value : escaping)
    types.push_back(value.getType());
  auto ifOp = scf::IfOp::create(b, loc, types, run, /*addThenBlock=*/true,
                                /*addElseBlock=*/!escaping.empty());
  Block *then = ifOp.thenBlock();
  if (then->mightHaveTerminator())
    then->getTerminator()->erase();
  for (Operation *op : phase)
    op->moveBefore(then, then->end());
  b.setInsertionPointToEnd(then);
  scf::YieldOp::create(b, loc, escaping);
  if (escaping.empty())
    return;
  b.setInsertionPointToEnd(ifOp.elseBlock());
  SmallVector<Value> poisons;
  for (Type type : types) {
    Value poison = ub::PoisonOp::create(b, loc, type);
    poisons.push_back(poison);
  }
  scf::YieldOp::create(b, loc, poisons);
  for (auto [value, result] : llvm::zip_equal(escaping, ifOp.getResults()))
    value.replaceUsesWithIf(result, [&](OpOperand &use) {
      return !ifOp->isAncestor(use.getOwner());
    });
}

/// The kernel `launch` does its work only where `flag[0]` is zero
/// (`whenZero`) or is not (see guardKernels).
static void guardLaunch(gpu::LaunchOp launch, Value flag, bool whenZero) {
  Block &body = launch.getBody().front();
  SmallVector<SmallVector<Operation *>> phases = kernelPhases(body);
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Location loc = launch.getLoc();
  Value zero = constIndex(b, loc, 0);
  Value chosen = memref::LoadOp::create(b, loc, flag, ValueRange{zero});
  Value none = i32Const(b, loc, 0);
  auto predicate =
      whenZero ? arith::CmpIPredicate::eq : arith::CmpIPredicate::ne;
  Value run = arith::CmpIOp::create(b, loc, predicate, chosen, none);
  run.getDefiningOp()->setAttr(kUniformGuardAttr, b.getUnitAttr());
  for (ArrayRef<Operation *> phase : phases)
    guardPhase(b, phase, run);
}

void gpu_lowering::guardKernels(
    OpBuilder &b, Location loc, Value flag, bool whenZero,
    function_ref<void(OpBuilder &, Location)> body) {
  Block *block = b.getInsertionBlock();
  Block::iterator point = b.getInsertionPoint();
  Operation *before = point == block->begin() ? nullptr : &*std::prev(point);
  body(b, loc);
  Block::iterator first =
      before ? std::next(before->getIterator()) : block->begin();
  SmallVector<gpu::LaunchOp> launches;
  for (Operation &op : llvm::make_range(first, b.getInsertionPoint()))
    op.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
  for (gpu::LaunchOp launch : launches)
    guardLaunch(launch, flag, whenZero);
}

Value gpu_lowering::gridFor(OpBuilder &b, Location loc, Value work,
                            int64_t perBlock) {
  Value per = constIndex(b, loc, perBlock);
  return gridFor(b, loc, work, per, kMaxBlocks);
}

Value gpu_lowering::gridFor(OpBuilder &b, Location loc, Value work,
                            Value perBlock, int64_t limit) {
  Value one = constIndex(b, loc, 1);
  Value cap = constIndex(b, loc, limit);
  Value blocks = ceilDiv(b, loc, work, perBlock);
  blocks = maxIndex(b, loc, blocks, one);
  return minIndex(b, loc, blocks, cap);
}

void gpu_lowering::gridStrideLoop(
    OpBuilder &b, Location loc, const KernelIds &ids, Value n,
    function_ref<void(OpBuilder &, Location, Value)> body) {
  Value first = addIndex(b, loc, mulIndex(b, loc, ids.blockX, ids.blockSize),
                         ids.threadX);
  Value step = mulIndex(b, loc, ids.gridX, ids.blockSize);
  buildFor(b, loc, first, n, step, body);
}

Value gpu_lowering::isFirstThread(OpBuilder &b, Location loc,
                                  const KernelIds &ids) {
  Value zero = constIndex(b, loc, 0);
  Value blockX = cmpIndex(b, loc, arith::CmpIPredicate::eq, ids.blockX, zero);
  Value blockY = cmpIndex(b, loc, arith::CmpIPredicate::eq, ids.blockY, zero);
  Value thread = cmpIndex(b, loc, arith::CmpIPredicate::eq, ids.threadX, zero);
  Value block = andBool(b, loc, blockX, blockY);
  return andBool(b, loc, block, thread);
}

void gpu_lowering::barrier(OpBuilder &b, Location loc) {
  gpu::BarrierOp::create(b, loc);
}

/// In a scan, one thread: replaces the values of `scratch` at [lo, hi)
/// (index values) by their exclusive prefix sums, in order, and returns
/// their sum. A loop (unrolled, the loads would all be live at once and the
/// sort kernels would need more than 64 registers).
static Value scanRange(OpBuilder &b, Location loc, Value scratch, Value lo,
                       Value hi, Type type) {
  Value zero = constInt(b, loc, type, 0);
  Value one = constIndex(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{zero},
      [&](OpBuilder &lb, Location lloc, Value i, ValueRange acc) {
        Value v = memref::LoadOp::create(lb, lloc, scratch, i);
        memref::StoreOp::create(lb, lloc, acc[0], scratch, i);
        Value sum = arith::AddIOp::create(lb, lloc, acc[0], v);
        scf::YieldOp::create(lb, lloc, sum);
      });
  return loop.getResult(0);
}

Value gpu_lowering::blockExclusiveScan(OpBuilder &b, Location loc,
                                       const KernelIds &ids, Value scratch,
                                       int64_t blockSize, Value value,
                                       Value &total) {
  Type type = value.getType();
  int64_t per = blockSize / kScanLanes;
  Value t = ids.threadX;
  Value lanes = constIndex(b, loc, kScanLanes);
  Value perValue = constIndex(b, loc, per);
  Value sums = constIndex(b, loc, blockSize);
  Value sumsEnd = constIndex(b, loc, blockSize + kScanLanes);
  Value totalAt = sumsEnd;
  memref::StoreOp::create(b, loc, value, scratch, t);
  barrier(b, loc);
  // Each of 32 threads scans a stretch of the values in place and writes
  // the stretch's sum.
  Value raking = cmpIndex(b, loc, arith::CmpIPredicate::ult, t, lanes);
  buildIf(b, loc, raking, [&](OpBuilder &nb, Location nloc) {
    Value first = mulIndex(nb, nloc, t, perValue);
    Value end = addIndex(nb, nloc, first, perValue);
    Value sum = scanRange(nb, nloc, scratch, first, end, type);
    Value at = addIndex(nb, nloc, sums, t);
    memref::StoreOp::create(nb, nloc, sum, scratch, at);
  });
  barrier(b, loc);
  // One thread scans the 32 sums in place and writes the total.
  Value zero = constIndex(b, loc, 0);
  Value isFirst = cmpIndex(b, loc, arith::CmpIPredicate::eq, t, zero);
  buildIf(b, loc, isFirst, [&](OpBuilder &nb, Location nloc) {
    Value all = scanRange(nb, nloc, scratch, sums, sumsEnd, type);
    memref::StoreOp::create(nb, nloc, all, scratch, totalAt);
  });
  barrier(b, loc);
  // Each thread: its stretch's prefix plus its own within the stretch.
  Value stretch = divIndex(b, loc, t, perValue);
  Value prefixAt = addIndex(b, loc, sums, stretch);
  Value prefix = memref::LoadOp::create(b, loc, scratch, prefixAt);
  Value within = memref::LoadOp::create(b, loc, scratch, t);
  total = memref::LoadOp::create(b, loc, scratch, totalAt);
  // Every thread has read the scratch before any thread writes it again
  // (the caller's next use of it must follow a barrier).
  barrier(b, loc);
  return arith::AddIOp::create(b, loc, prefix, within);
}
