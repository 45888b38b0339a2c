//===- RowModelTest.cpp - print the row model of nd ops ---------*- C++ -*-===//
//
// Prints what the model of each nd op says (NdRowAddressing.h), for
// FileCheck against values worked out by hand from the specifications:
//
//   nd-row-model-test FILE.mlir   for every nd op of the file: its entry
//                                 dims, where each data dim takes its
//                                 coordinate, its shape constraints (and
//                                 which a lowering checks at run time), and
//                                 with constant indices the data row of
//                                 every entry;
//   nd-row-model-test --rules     the index rules on a grid of values, on
//                                 integers and on IR values built (and
//                                 folded) by IndexBuilder: one line per case
//                                 when both agree, a MISMATCH line when not.
//
//===----------------------------------------------------------------------===//

#include "nd/Dialect/Nd/IR/NdDialect.h"
#include "nd/Dialect/Nd/IR/NdOps.h"
#include "nd/Dialect/Nd/Utils/IndexArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

using namespace mlir;
using namespace mlir::nd;

//===----------------------------------------------------------------------===//
// The model of each op of a file
//===----------------------------------------------------------------------===//

static StringRef ruleName(ShapeRule rule) {
  switch (rule) {
  case ShapeRule::IndexDepth:
    return "index-depth";
  case ShapeRule::BatchDim:
    return "batch-dim";
  case ShapeRule::EntryDim:
    return "entry-dim";
  case ShapeRule::SliceDim:
    return "slice-dim";
  case ShapeRule::WithinData:
    return "within-data";
  case ShapeRule::ResultDim:
    return "result-dim";
  case ShapeRule::CacheDim:
    return "cache-dim";
  case ShapeRule::SequenceLength:
    return "sequence-length";
  case ShapeRule::BatchSize:
    return "batch-size";
  }
  return "?";
}

static void printAddress(llvm::raw_ostream &os, const DimAddress &address) {
  switch (address.kind) {
  case AddressKind::Entry:
    os << "entry " << address.entryDim;
    return;
  case AddressKind::Index:
    os << "index " << address.component;
    return;
  case AddressKind::Sequence:
    os << "sequence (write index + entry " << address.entryDim << ")";
    return;
  case AddressKind::Component:
    os << "component";
    return;
  }
}

static void printAddressing(llvm::raw_ostream &os,
                            IterationSpaceOpInterface op) {
  IterationSpace space = op.getIterationSpace();
  RowAddressing rows = op.getRowAddressing();
  os << "  entries:";
  for (const DimRef &dim : rows.entryDims)
    os << " " << space.names[dim.value] << "[" << dim.dim << "]";
  os << "\n  " << space.names[rows.data] << ":";
  for (const DimAddress &address : rows.dataDims) {
    os << " (";
    printAddress(os, address);
    os << ")";
  }
  os << " row from dim " << rows.rowStart << "\n";
  os << "  rows of " << space.names[rows.rows] << ", "
     << (rows.gather ? "read" : "written") << "\n";
  if (!rows.indices)
    return;
  os << "  " << space.names[*rows.indices] << ":";
  for (const DimAddress &address : rows.indexDims) {
    os << " (";
    printAddress(os, address);
    os << ")";
  }
  os << "\n";
}

static void printConstraints(llvm::raw_ostream &os,
                             IterationSpaceOpInterface op) {
  SmallVector<ArrayRef<int64_t>> shapes = getValueShapes(op);
  for (const ShapeConstraint &c : op.getShapeConstraints()) {
    auto [lhs, rhs] = getConstraintSizes(c, shapes);
    os << "  " << ruleName(c.rule) << ": " << c.lhsName << "[" << c.lhs.dim
       << "] ";
    if (c.rule == ShapeRule::IndexDepth)
      os << "== " << c.depth;
    else
      os << (c.atMost ? "<= " : "== ") << c.rhsName << "[" << c.rhs.dim << "]";
    if (c.needsRuntimeCheck(lhs, rhs))
      os << " (run time)";
    os << "\n";
  }
}

/// The data row of every entry where the index values are constant.
static void printRows(llvm::raw_ostream &os, IterationSpaceOpInterface op) {
  RowAddressing rows = op.getRowAddressing();
  SmallVector<int64_t> values;
  if (rows.indices) {
    DenseIntElementsAttr attr;
    if (!matchPattern(op->getOperand(*rows.indices), m_Constant(&attr)))
      return;
    for (const APInt &value : attr.getValues<APInt>())
      values.push_back(value.getSExtValue());
  }
  std::optional<ConstantRows> constant =
      evaluateRows(rows, getValueShapes(op), values);
  if (!constant) {
    os << "  rows: not static\n";
    return;
  }
  os << "  rows of " << constant->rowLength << ":";
  for (const std::optional<int64_t> &row : constant->dataRows) {
    if (row)
      os << " " << *row;
    else
      os << " bad";
  }
  os << "\n";
}

static int printModels(MLIRContext &context, const char *path) {
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(path, &context);
  if (!module)
    return 1;
  llvm::raw_ostream &os = llvm::outs();
  module->walk([&](IterationSpaceOpInterface op) {
    os << op->getName();
    if (auto loc = dyn_cast<NameLoc>(op->getLoc()))
      os << " \"" << loc.getName().getValue() << "\"";
    os << "\n";
    printAddressing(os, op);
    printConstraints(os, op);
    printRows(os, op);
  });
  return 0;
}

//===----------------------------------------------------------------------===//
// The index rules on integers and on IR values
//===----------------------------------------------------------------------===//

namespace {
/// One case of a rule on both arithmetics.
struct RuleCase {
  std::string name;
  int64_t position;
  bool bad;
};
} // namespace

/// The value IR built by IndexBuilder folded to, nullopt if it did not.
static std::optional<int64_t> folded(Value v) { return getConstantIntValue(v); }

static void report(const RuleCase &expected, std::optional<int64_t> position,
                   std::optional<int64_t> bad) {
  llvm::raw_ostream &os = llvm::outs();
  bool agree = position && bad && *position == expected.position &&
               (*bad != 0) == expected.bad;
  if (!agree) {
    os << "MISMATCH " << expected.name << ": IR gives ";
    if (position && bad)
      os << *position << (*bad ? " bad" : "");
    else
      os << "no constant";
    os << "\n";
    return;
  }
  os << expected.name << " -> ";
  if (expected.bad)
    os << "bad\n";
  else
    os << expected.position << "\n";
}

static StringRef oobName(OobMode oob) { return stringifyOobMode(oob); }

/// resolveIndexWith(raw, size) under every mode.
static void printIndexRule(OpBuilder &b, Location loc, int64_t raw,
                           int64_t size) {
  for (OobMode oob : {OobMode::Error, OobMode::Skip, OobMode::Clamp}) {
    ConstantIndexArithmetic c;
    ResolvedIndexOf<ConstantIndexArithmetic> onInts =
        resolveIndexWith(c, oob, raw, size);
    IndexBuilder ib(b, loc);
    Value rawValue = ib.constant(raw);
    Value sizeValue = ib.constant(size);
    ResolvedIndexOf<IndexBuilder> onIR =
        resolveIndexWith(ib, oob, rawValue, sizeValue);
    RuleCase expected{
        ("index " + Twine(raw) + " size " + Twine(size) + " " + oobName(oob))
            .str(),
        onInts.bad ? 0 : onInts.position, onInts.bad};
    std::optional<int64_t> position = folded(onIR.position);
    if (onInts.bad)
      position = 0;
    report(expected, position, folded(onIR.bad));
  }
}

/// The write-index rule and the sequence position of row `s`.
static void printWriteRule(OpBuilder &b, Location loc, int64_t w,
                           int64_t maxSeq, int64_t seqLen, int64_t s) {
  for (TensorScatterMode mode :
       {TensorScatterMode::Linear, TensorScatterMode::Circular}) {
    for (OobMode oob : {OobMode::Error, OobMode::Clamp}) {
      ConstantIndexArithmetic c;
      int64_t lastStart = c.sub(maxSeq, seqLen);
      ResolvedIndexOf<ConstantIndexArithmetic> start =
          resolveWriteIndexWith(c, mode, oob, w, lastStart);
      int64_t position =
          sequencePositionWith(c, mode, start.position, s, maxSeq);

      IndexBuilder ib(b, loc);
      Value wValue = ib.constant(w);
      Value lastValue = ib.constant(lastStart);
      Value sValue = ib.constant(s);
      Value maxValue = ib.constant(maxSeq);
      ResolvedIndexOf<IndexBuilder> irStart =
          resolveWriteIndexWith(ib, mode, oob, wValue, lastValue);
      Value irPosition =
          sequencePositionWith(ib, mode, irStart.position, sValue, maxValue);
      RuleCase expected{("write " + Twine(w) + " row " + Twine(s) + " of " +
                         Twine(seqLen) + " into " + Twine(maxSeq) + " " +
                         stringifyTensorScatterMode(mode) + " " + oobName(oob))
                            .str(),
                        start.bad ? 0 : position, start.bad};
      std::optional<int64_t> irValue = folded(irPosition);
      if (start.bad)
        irValue = 0;
      report(expected, irValue, folded(irStart.bad));
    }
  }
}

static int printRules(MLIRContext &context) {
  OpBuilder b(&context);
  Location loc = b.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());
  auto func = func::FuncOp::create(b, loc, "rules", b.getFunctionType({}, {}));
  b.setInsertionPointToStart(func.addEntryBlock());
  for (int64_t raw : {-6, -5, -1, 0, 4, 5, 100})
    printIndexRule(b, loc, raw, 5);
  printIndexRule(b, loc, 0, 0);
  for (int64_t w : {-1, 0, 5, 6, 7})
    printWriteRule(b, loc, w, /*maxSeq=*/8, /*seqLen=*/3, /*s=*/2);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (argc != 2) {
    llvm::errs() << "usage: nd-row-model-test FILE.mlir | --rules\n";
    return 2;
  }
  DialectRegistry registry;
  registry.insert<arith::ArithDialect, func::FuncDialect, NdDialect,
                  tensor::TensorDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  if (std::strcmp(argv[1], "--rules") == 0)
    return printRules(context);
  return printModels(context, argv[1]);
}
