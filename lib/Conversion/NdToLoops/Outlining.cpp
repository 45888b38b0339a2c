//===- Outlining.cpp - each nd op as a call of its own function -*- C++ -*-===//
//
// LoweringState::outline (see LoweringState.h): the private functions the
// ops become, and the buffers their calls pass.
//
//===----------------------------------------------------------------------===//

#include "LoweringState.h"

#include "Scalars.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/NdRuntime/IR/NdRuntime.h"

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

/// The buffer an op on buffers updates: a scatter's destination (operand
/// 0), a gather's `into` (its last operand).
static unsigned updatedOperand(Operation *op) {
  if (isa<DestinationStyleOpInterface>(op))
    return 0;
  return op->getNumOperands() - 1;
}

/// The type of the function argument an operand of type `type` is passed
/// as: the identity layout of its shape.
static MemRefType argumentType(Type type) {
  auto memref = cast<MemRefType>(type);
  return MemRefType::get(memref.getShape(), memref.getElementType());
}

func::FuncOp LoweringState::buildFunction(
    ConversionPatternRewriter &rewriter, Operation *op, FunctionType type,
    function_ref<void(OpBuilder &, Location, ValueRange)> lower) {
  Location loc = op->getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  std::string name = "__" + op->getName().getStringRef().str();
  std::replace(name.begin(), name.end(), '.', '_');
  SmallVector<Type> inputs(type.getInputs());
  if (checkBounds)
    inputs.push_back(rewriter.getI64Type());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToEnd(module.getBody());
  auto fn = func::FuncOp::create(rewriter, loc, name,
                                 rewriter.getFunctionType(inputs, {}));
  fn.setPrivate();
  fn->setAttr(rt::kOpFunctionAttrName, rewriter.getUnitAttr());
  // Renamed on a clash (one symbol table per module and pass run).
  symbols(module).insert(fn);
  SmallVector<Location> locs(inputs.size(), loc);
  Block *entry = rewriter.createBlock(&fn.getBody(), {}, inputs, locs);
  rewriter.setInsertionPointToStart(entry);
  site = checkBounds ? entry->getArguments().back() : Value();
  {
    SharedConstantScope constants(entry);
    lower(rewriter, loc, entry->getArguments().take_front(type.getNumInputs()));
  }
  site = Value();
  func::ReturnOp::create(rewriter, loc);
  // A lowering that checks nothing at run time needs no site.
  if (checkBounds && entry->getArguments().back().use_empty())
    (void)fn.eraseArgument(type.getNumInputs());
  return fn;
}

Value LoweringState::callSite(ConversionPatternRewriter &rewriter,
                              Operation *op) {
  return rt::SiteOp::create(rewriter, op->getLoc(), describeLocation(op));
}

void LoweringState::outline(
    ConversionPatternRewriter &rewriter, Operation *op, ValueRange operands,
    function_ref<void(OpBuilder &, Location, ValueRange)> lower) {
  Location loc = op->getLoc();
  auto module = op->getParentOfType<ModuleOp>();
  unsigned updated = updatedOperand(op);
  // Every buffer is passed with the identity layout of its shape. A buffer
  // of another layout (a tile's subview, say) is copied into a new one
  // first, and the updated one copied back after the call: the lowering
  // reads and writes rows of contiguous elements.
  SmallVector<Value> callOperands(operands);
  SmallVector<Type> inputs;
  Value writeBack;
  for (auto [i, operand] : llvm::enumerate(callOperands)) {
    MemRefType type = argumentType(operand.getType());
    inputs.push_back(type);
    if (operand.getType() == type)
      continue;
    SmallVector<Value> sizes;
    for (auto [d, size] : llvm::enumerate(type.getShape()))
      if (ShapedType::isDynamic(size))
        sizes.push_back(memref::DimOp::create(rewriter, loc, operand, d));
    Value copy = memref::AllocOp::create(rewriter, loc, type, sizes,
                                         rewriter.getI64IntegerAttr(64));
    // A gather's `into` is only written.
    if (i != updated || isa<DestinationStyleOpInterface>(op))
      memref::CopyOp::create(rewriter, loc, operand, copy);
    if (i == updated)
      writeBack = operand;
    operand = copy;
  }
  auto type = rewriter.getFunctionType(inputs, {});
  // Everything the body may depend on (see the declaration).
  Attribute key = rewriter.getArrayAttr(
      {op->getName().getIdentifier(), op->getAttrDictionary(),
       TypeAttr::get(type)});
  func::FuncOp &fn = outlined[{module.getOperation(), key}];
  if (!fn)
    fn = buildFunction(rewriter, op, type, lower);
  if (fn.getNumArguments() > operands.size())
    callOperands.push_back(callSite(rewriter, op));
  func::CallOp::create(rewriter, loc, fn, callOperands);
  // The copies are freed by the deallocation pipeline, like every buffer
  // allocated before it.
  if (writeBack)
    memref::CopyOp::create(rewriter, loc, callOperands[updated], writeBack);
  rewriter.eraseOp(op);
}
