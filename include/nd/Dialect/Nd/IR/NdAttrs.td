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
      I32EnumCase<"Min", 4, "min">,
      I32EnumCase<"Sub", 5, "sub">,
      I32EnumCase<"Mean", 6, "mean">
    ]> {
  let cppNamespace = "::mlir::nd";
}

def Nd_ReductionAttr : EnumAttr<Nd_Dialect, Nd_ReductionKind, "reduction"> {
  let summary = "scatter reduction kind";
  let description = [{
    The reduction of ONNX ScatterND / ScatterElements and OpenVINO
    ScatterNDUpdate-15 / ScatterElementsUpdate-12, spelled
    `#nd.reduction<none|add|mul|max|min|sub|mean>`. `none` overwrites (the
    last update in row-major order of the indices wins on duplicates); the
    others combine the value in place with the update:

    - `add`, `mul`, `max`, `min`: ONNX `add`, `mul`, `max`, `min` (OpenVINO
      `sum`, `prod`, `max`, `min`);
    - `sub`: `data - update` (OpenVINO ScatterNDUpdate-15; `nd.scatter_nd`
      only; `xor` on `i1`);
    - `mean`: the mean of the value in place and every update addressing it
      (OpenVINO ScatterElementsUpdate-12; `nd.scatter_elements` only; integers
      round down, towards negative infinity; not defined on `i1` and complex
      numbers).

    See docs/Rationale.md for the exact per-type semantics.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Nd_OobMode : I32Enum<"OobMode",
    "what an index value outside [-d, d-1] does", [
      I32EnumCase<"Error", 0, "error">,
      I32EnumCase<"Skip", 1, "skip">,
      I32EnumCase<"Clamp", 2, "clamp">
    ]> {
  let cppNamespace = "::mlir::nd";
}

def Nd_OobAttr : EnumAttr<Nd_Dialect, Nd_OobMode, "oob"> {
  let summary = "out-of-bounds index mode";
  let description = [{
    What an index value outside `[-d, d-1]` (for a dim of size `d`) does,
    spelled `#nd.oob<error|skip|clamp>`; values in range mean the same under
    every mode (negative ones count from the end):

    - `error` (the default; ONNX): a verifier error where the value is a
      constant, a run-time error otherwise;
    - `skip` (StableHLO and JAX drop the write; OpenVINO Gather-8 reads
      zero): a scatter drops the write of that index entry (a whole slice for
      the ND ops and `nd.tensor_scatter`), a gather reads zeros for it;
    - `clamp` (StableHLO and JAX clamp the read): each index component is
      clamped into `[0, d-1]` (a value below `-d` becomes 0, one above `d-1`
      becomes `d-1`). Into a dim of size 0 nothing can be clamped: the entry
      is then treated as under `skip`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

def Nd_TensorScatterMode : I32Enum<"TensorScatterMode",
    "how nd.tensor_scatter places the update along the sequence axis", [
      I32EnumCase<"Linear", 0, "linear">,
      I32EnumCase<"Circular", 1, "circular">
    ]> {
  let cppNamespace = "::mlir::nd";
}

def Nd_TensorScatterModeAttr
    : EnumAttr<Nd_Dialect, Nd_TensorScatterMode, "tensor_scatter_mode"> {
  let summary = "write mode of nd.tensor_scatter";
  let description = [{
    ONNX TensorScatter's `mode`, spelled
    `#nd.tensor_scatter_mode<linear|circular>`: `linear` writes positions
    `w .. w + sequence_length - 1` of the sequence axis, which must fit;
    `circular` takes them modulo `max_sequence_length`.
  }];
  let assemblyFormat = "`<` $value `>`";
}

#endif // ND_DIALECT_ND_IR_NDATTRS_TD
