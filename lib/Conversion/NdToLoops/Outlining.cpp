//===- Outlining.cpp - each nd op as a call of its own function -*- C++ -*-===//
//
// LoweringState::outline and LoweringState::callShared (see
// LoweringState.h): the private functions the ops become, and the buffers
// their calls pass.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "nd/Dialect/Nd/IR/NdOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::nd;
using namespace mlir::nd::lowering;

SymbolTable &LoweringState::symbols(ModuleOp module) {
  std::unique_ptr<SymbolTable> &table = tables[module.getOperation()];
  if (!table)
    table = std::make_unique<SymbolTable>(module);
  return *table;
}

void LoweringState::declare(OpBuilder &b, Operation *op, StringRef name,
                            FunctionType type) {
  auto module = op->getParentOfType<ModuleOp>();
  if (!module || !declared.insert({module.getOperation(), name}).second)
    return;
  if (symbols(module).lookup(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
  fn.setPrivate();
  symbols(module).insert(fn);
}

void LoweringState::callShared(
    OpBuilder &b, Location loc, Operation *op, StringRef name,
    FunctionType type, ValueRange operands,
    function_ref<void(OpBuilder &, Location, ValueRange)> body) {
  auto module = op->getParentOfType<ModuleOp>();
  if (declared.insert({module.getOperation(), name}).second &&
      !symbols(module).lookup(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(module.getBody());
    auto fn = func::FuncOp::create(b, module.getLoc(), name, type);
    fn.setPrivate();
    symbols(module).insert(fn);
    SmallVector<Location> locs(type.getNumInputs(), module.getLoc());
    Block *entry = b.createBlock(&fn.getBody(), {}, type.getInputs(), locs);
    b.setInsertionPointToStart(entry);
    // The function is built in the middle of another one's body: its
    // constants and reports are its own.
    Value outerSite = site;
    site = Value();
    {
      SharedConstantScope constants(entry);
      body(b, module.getLoc(), entry->getArguments());
    }
    site = outerSite;
  }
  func::CallOp::create(b, loc, name, type.getResults(), operands);
}

/// The operand an op updates, which its result is an updated copy of: the
/// data of the scatters.
static std::optional<unsigned> updatedOperand(Operation *op) {
  if (isa<ScatterNDOp, ScatterElementsOp, TensorScatterOp>(op))
    return 0;
  return std::nullopt;
}

/// Whether nothing ever writes the buffer of `value`: a constant, or an
/// argument of a function that one-shot bufferization may not write
/// (`bufferization.writable = false`, as nd-donation marks every argument
/// not donated). Such a buffer can be read through one `to_buffer` for all
/// the ops that read it.
static bool isNeverWritten(Value value) {
  if (value.getDefiningOp<arith::ConstantOp>())
    return true;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return false;
  auto function = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!function)
    return false;
  auto writable = function.getArgAttrOfType<BoolAttr>(
      arg.getArgNumber(),
      bufferization::BufferizationDialect::kWritableAttrName);
  return writable && !writable.getValue();
}

Value LoweringState::sharedReadBuffer(OpBuilder &b, Value tensor) {
  Value &buffer = readBuffers[tensor];
  if (buffer)
    return buffer;
  OpBuilder::InsertionGuard guard(b);
  if (auto arg = dyn_cast<BlockArgument>(tensor))
    b.setInsertionPointToStart(arg.getOwner());
  else
    b.setInsertionPointAfter(tensor.getDefiningOp());
  auto type = cast<RankedTensorType>(tensor.getType());
  auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
  buffer = bufferization::ToBufferOp::create(b, tensor.getLoc(), bufferType,
                                             tensor, /*read_only=*/true);
  return buffer;
}

func::FuncOp LoweringState::buildFunction(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange operands,
    FunctionType type, std::optional<unsigned> destination,
    MemRefType bufferType,
    function_ref<Value(OpBuilder &, Location, ValueRange)> lower) {
  Location loc = op->getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  Type resultType = op->getResult(0).getType();
  std::string name = "__" + op->getName().getStringRef().str();
  std::replace(name.begin(), name.end(), '.', '_');
  SmallVector<Type> inputs(type.getInputs());
  if (destination)
    inputs[*destination] = bufferType;
  if (checkBounds)
    inputs.push_back(rewriter.getI64Type());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(rewriter, loc, name,
                                 rewriter.getFunctionType(inputs, resultType));
  fn.setPrivate();
  // Renamed on a clash (one symbol table per module and pass run).
  symbols(module).insert(fn);
  SmallVector<Location> locs(inputs.size(), loc);
  Block *entry = rewriter.createBlock(&fn.getBody(), {}, inputs, locs);
  rewriter.setInsertionPointToStart(entry);
  site = checkBounds ? entry->getArguments().back() : Value();
  SmallVector<Value> args(entry->getArguments().take_front(operands.size()));
  // The body sees tensors: the destination writable, the others read-only.
  for (auto [i, arg] : llvm::enumerate(args)) {
    if (!isa<MemRefType>(arg.getType()) ||
        isa<MemRefType>(operands[i].getType()))
      continue;
    bool updated = destination && i == *destination;
    arg = bufferization::ToTensorOp::create(
        rewriter, loc, operands[i].getType(), arg, /*restrict=*/true,
        /*writable=*/updated);
  }
  Value result;
  {
    SharedConstantScope constants(entry);
    result = lower(rewriter, loc, args);
  }
  site = Value();
  func::ReturnOp::create(rewriter, loc, result);
  // A lowering that checks nothing at run time needs no site.
  if (checkBounds && entry->getArguments().back().use_empty())
    (void)fn.eraseArgument(operands.size());
  return fn;
}

// A scatter's data goes in as a buffer: to one-shot bufferization the
// caller writes that buffer (in place, or into a copy where the tensor is
// read later or is not writable), and the function returns a new tensor
// (which is the buffer it was given: drop-equivalent-buffer-results drops
// it after bufferization). The alias sets the analysis compares stay one op
// long, where a call that updated its tensor operand in place would join
// the whole chain of updates into one set (time cubic in its length).
// Each such buffer carries an id of its own (`nd.update`): the op is pure,
// and CSE would otherwise make the buffers of two updates of one tensor
// one.
// Canonicalization rewrites the `to_buffer` of a `tensor.cast` into a
// new `to_buffer` (without the id) of the cast's source: the buffer is
// taken of that source here, and cast.
Value LoweringState::updatedBuffer(ConversionPatternRewriter &rewriter,
                                   Location loc, Value source,
                                   MemRefType bufferType) {
  while (auto castOp = source.getDefiningOp<tensor::CastOp>()) {
    if (!isa<RankedTensorType>(castOp.getSource().getType()))
      break;
    source = castOp.getSource();
  }
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto sourceBufferType =
      MemRefType::get(sourceType.getShape(), sourceType.getElementType());
  Value operand;
  if (isNeverWritten(source)) {
    // Data that nothing may write (a constant, an argument not donated) is
    // copied here, from the buffer all its readers share: the analysis
    // would copy it too, after comparing each use of that data with every
    // other (time quadratic in the number of ops that update one
    // argument).
    Value shared = sharedReadBuffer(rewriter, source);
    SmallVector<Value> sizes;
    for (auto [d, size] : llvm::enumerate(sourceType.getShape()))
      if (ShapedType::isDynamic(size))
        sizes.push_back(memref::DimOp::create(rewriter, loc, shared, d));
    operand = memref::AllocOp::create(rewriter, loc, sourceBufferType, sizes,
                                      rewriter.getI64IntegerAttr(64));
    memref::CopyOp::create(rewriter, loc, shared, operand);
  } else {
    // It also folds the `to_buffer` of a `to_tensor` into the memref,
    // which the update would then write unseen by the analysis: such data
    // is copied first.
    if (source.getDefiningOp<bufferization::ToTensorOp>())
      source = bufferization::AllocTensorOp::create(rewriter, loc, sourceType,
                                                    ValueRange{}, source);
    auto buffer = bufferization::ToBufferOp::create(rewriter, loc,
                                                    sourceBufferType, source);
    buffer->setAttr(kUpdateAttr, rewriter.getI64IntegerAttr(updates++));
    operand = buffer;
  }
  if (sourceBufferType != bufferType)
    operand = memref::CastOp::create(rewriter, loc, bufferType, operand);
  return operand;
}

Value LoweringState::callSite(ConversionPatternRewriter &rewriter,
                              Operation *op) {
  declare(rewriter, op, kSiteFn,
          rewriter.getFunctionType({}, {rewriter.getI64Type()}));
  auto where =
      func::CallOp::create(rewriter, op->getLoc(), kSiteFn,
                           TypeRange{rewriter.getI64Type()}, ValueRange{});
  where->setAttr(kSiteAttr, rewriter.getStringAttr(describeLocation(op)));
  return where.getResult(0);
}

void LoweringState::outline(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange operands,
    function_ref<Value(OpBuilder &, Location, ValueRange)> lower) {
  Location loc = op->getLoc();
  std::optional<unsigned> destination = updatedOperand(op);
  auto module = op->getParentOfType<ModuleOp>();
  Type resultType = op->getResult(0).getType();
  // The operands as the function takes them: read-only tensors that nothing
  // writes as one shared buffer each (so that one-shot bufferization does
  // not compare every op that reads them with every other), the rest as
  // they are.
  SmallVector<Value> callOperands(operands);
  for (auto [i, operand] : llvm::enumerate(callOperands)) {
    if (destination && i == *destination)
      continue;
    if (isa<RankedTensorType>(operand.getType()) && isNeverWritten(operand))
      operand = sharedReadBuffer(rewriter, operand);
  }
  auto type =
      rewriter.getFunctionType(ValueRange(callOperands).getTypes(), resultType);
  // Everything the body may depend on (see the declaration).
  Attribute key = rewriter.getArrayAttr(
      {op->getName().getIdentifier(), op->getAttrDictionary(),
       TypeAttr::get(type),
       rewriter.getI64IntegerAttr(destination ? *destination : -1)});
  // The destination's buffer: identity layout, as function boundaries have.
  MemRefType bufferType;
  if (destination) {
    auto tensorType = cast<RankedTensorType>(resultType);
    bufferType =
        MemRefType::get(tensorType.getShape(), tensorType.getElementType());
  }
  func::FuncOp &fn = outlined[{module.getOperation(), key}];
  if (!fn)
    fn = buildFunction(rewriter, op, operands, type, destination, bufferType,
                       lower);
  if (destination)
    callOperands[*destination] =
        updatedBuffer(rewriter, loc, callOperands[*destination], bufferType);
  if (fn.getNumArguments() > operands.size())
    callOperands.push_back(callSite(rewriter, op));
  auto call = func::CallOp::create(rewriter, loc, fn, callOperands);
  rewriter.replaceOp(op, call.getResults());
}
