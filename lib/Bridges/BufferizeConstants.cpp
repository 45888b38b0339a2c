//===- BufferizeConstants.cpp - tensor constants as globals -----*- C++ -*-===//
//
// `--nd-bufferize-constants` (right before one-shot bufferization): each
// `arith.constant` of a ranked tensor type in the module's functions becomes
// `memref.get_global` of a private constant global of its value, read as
// `bufferization.to_tensor restrict` (not writable), as one-shot
// bufferization would make it, with one lookup per constant in a map of the
// module's globals by value.
//
// Bridge over a gap of MLIR 22 (docs/Rationale.md, "Bridges over gaps of
// MLIR 22"): one-shot bufferization makes each constant's global with
// `bufferization::getGlobalFor`, which looks for a global of the same value
// by scanning every op of the module, once per constant: O(N^2) for N
// constants. Retired once that lookup keeps a map of the globals by value.
// What it makes is what upstream makes (the name `__constant_<shape>x<type>`,
// private, constant, the alignment, a global the module has with the same
// initial value and alignment reused), so that --nd-stable-constant-names
// names and orders the globals alike and the output does not change.
//
//===----------------------------------------------------------------------===//

#include "nd/Bridges/Bridges.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::nd {
#define GEN_PASS_DEF_NDBUFFERIZECONSTANTS
#include "nd/Bridges/Passes.h.inc"
} // namespace mlir::nd

using namespace mlir;

namespace {
/// The globals of the module by initial value and alignment (0: none), the
/// first of the module's order where several match, as upstream's scan
/// finds them.
using GlobalsByValue =
    llvm::DenseMap<std::pair<Attribute, uint64_t>, memref::GlobalOp>;
} // namespace

/// `__constant_<shape>x<element type>`, upstream's name for the global of a
/// constant of type `type` (`__constant_4x1xi64`, `__constant_xf32`).
static std::string getConstantName(RankedTensorType type) {
  std::string name = "__constant_";
  llvm::raw_string_ostream os(name);
  llvm::interleave(type.getShape(), os, "x");
  os << "x" << type.getElementType();
  return name;
}

/// The global of `constant`'s value: one of `globals`, or a new one inserted
/// through `symbols` (renamed where its name is taken) and added to them.
static memref::GlobalOp getGlobalFor(arith::ConstantOp constant,
                                     uint64_t alignment, SymbolTable &symbols,
                                     GlobalsByValue &globals) {
  auto [it, inserted] =
      globals.try_emplace({constant.getValue(), alignment}, nullptr);
  if (!inserted)
    return it->second;
  auto type = cast<RankedTensorType>(constant.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  OpBuilder b(constant.getContext());
  IntegerAttr alignmentAttr;
  if (alignment > 0)
    alignmentAttr = b.getI64IntegerAttr(static_cast<int64_t>(alignment));
  auto global = memref::GlobalOp::create(
      b, constant.getLoc(), getConstantName(type), b.getStringAttr("private"),
      memrefType, cast<ElementsAttr>(constant.getValue()), /*constant=*/true,
      alignmentAttr);
  symbols.insert(global);
  it->second = global;
  return global;
}

namespace {
struct NdBufferizeConstantsPass
    : public mlir::nd::impl::NdBufferizeConstantsBase<
          NdBufferizeConstantsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<arith::ConstantOp> constants;
    for (auto function : module.getOps<func::FuncOp>())
      function.walk([&](arith::ConstantOp constant) {
        auto type = dyn_cast<RankedTensorType>(constant.getType());
        if (type && !type.getEncoding())
          constants.push_back(constant);
      });
    if (constants.empty())
      return markAllAnalysesPreserved();

    GlobalsByValue globals;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (std::optional<Attribute> value = global.getInitialValue())
        globals.try_emplace({*value, global.getAlignment().value_or(0)},
                            global);
    SymbolTable symbols(module);
    IRRewriter rewriter(&getContext());
    for (arith::ConstantOp constant : constants) {
      memref::GlobalOp global =
          getGlobalFor(constant, alignment, symbols, globals);
      rewriter.setInsertionPoint(constant);
      Value buffer = memref::GetGlobalOp::create(
          rewriter, constant.getLoc(), global.getType(), global.getName());
      rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
          constant, constant.getType(), buffer, /*restrict=*/true,
          /*writable=*/false);
    }
  }
};
} // namespace
