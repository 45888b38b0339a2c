//===- NdAttrs.td - nd dialect attributes ------------------*- tablegen -*-===//

#ifndef ND_DIALECT_ND_IR_NDATTRS_TD
#define ND_DIALECT_ND_IR_NDATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "nd/Dialect/Nd/IR/NdDialect.td"

def Nd_ReductionKind : I32Enum<"ReductionKind",
    "how a scatter combines an update with the value already in place", [
      I32EnumCase<"None", 0, "none">,
      I32EnumCase<"Add", 1, "add">,
      I32EnumCase<"Mul", 2, "mul">,
      I32EnumCase<"Max", 3, "max">,
      I32EnumCase<"Min", 4, "min">
    ]> {
  let cppNamespace = "::mlir::nd";
}

def Nd_ReductionAttr : EnumAttr<Nd_Dialect, Nd_ReductionKind, "reduction"> {
  let summary = "scatter reduction kind";
  let description = [{
    The reduction of ONNX ScatterND / ScatterElements, spelled
    `#nd.reduction<none|add|mul|max|min>`. `none` overwrites (the last update
    in row-major order of the indices wins on duplicates); the others combine
    the value in place with the update, see docs/Rationale.md for the exact
    per-type semantics.
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // ND_DIALECT_ND_IR_NDATTRS_TD
