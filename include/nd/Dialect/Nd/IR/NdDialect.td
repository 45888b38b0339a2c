//===- NdDialect.td - nd dialect definition ----------------*- tablegen -*-===//
//
// The nd dialect: index-driven data movement (the ONNX / OpenVINO
// scatter-gather family) with exact, verified semantics.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDDIALECT_TD
#define ND_DIALECT_ND_IR_NDDIALECT_TD

include "mlir/IR/OpBase.td"

def Nd_Dialect : Dialect {
  let name = "nd";
  let cppNamespace = "::mlir::nd";
  let summary = "Index-driven data movement: scatter and gather ops of ONNX "
                "and OpenVINO";
  let description = [{
    The `nd` dialect models the scatter-gather family of ONNX and OpenVINO,
    each op in two forms:

    - on ranked tensors, with value semantics: the op's result is a new
      tensor (a scatter's is its `data` updated; the scatters are
      destination-style on `data`, so that tiling and fusion treat them as
      upstream treats linalg ops). Operands the op only reads may also be
      memrefs (a tensor nothing writes, read through one shared buffer);
    - on buffers (memrefs of any layout, no result): a scatter updates its
      destination in place, a gather writes into its `into` operand. This is
      what one-shot bufferization makes of the tensor form, and what the
      lowering (`--lower-scatter`) takes. A scatter on buffers marked
      `disposable` updates a fresh buffer that nothing reads if the op fails:
      a failed run-time check may leave it partly updated (bufferization
      sets it where it copied the destination); without it, a failed check
      leaves the destination as it was.

    | form | `nd.scatter_nd` | `nd.gather_nd` |
    |------|-----------------|----------------|
    | tensors | `%r = nd.scatter_nd %d[%i], %u : tensor<8x4xf32>, tensor<3x1xi64>, tensor<3x4xf32>` | `%r = nd.gather_nd %d[%i] : tensor<8x4xf32>, tensor<3x1xi64> -> tensor<3x4xf32>` |
    | buffers | `nd.scatter_nd %d[%i], %u : memref<8x4xf32>, memref<3x1xi64>, memref<3x4xf32>` | `nd.gather_nd %d[%i] into %r : memref<8x4xf32>, memref<3x1xi64> into memref<3x4xf32>` |

    Every op describes its iteration space (its loops, their kinds and
    iterator types, and the indexing map of every operand:
    `IterationSpaceOpInterface`), from which its tiling (`TilingInterface`),
    bufferization (`BufferizableOpInterface`) and sharding
    (`ShardingInterface`) follow. The ops:

    | op                    | ONNX                                 | OpenVINO                       |
    |-----------------------|--------------------------------------|--------------------------------|
    | `nd.scatter_nd`       | ScatterND 11, 13, 16, 18             | ScatterNDUpdate-3, -15         |
    | `nd.gather_nd`        | GatherND 11, 12, 13                  | GatherND-8                     |
    | `nd.scatter_elements` | Scatter 9, 11; ScatterElements 11-18 | ScatterElementsUpdate-3, -12   |
    | `nd.gather_elements`  | GatherElements 11, 13                | GatherElements-6               |
    | `nd.gather`           | Gather 1, 11, 13                     | Gather-1, -7, -8               |
    | `nd.tensor_scatter`   | TensorScatter 24                     |                                |

    Attributes shared by the family: `#nd.reduction` (the scatters' combining
    operation, including OpenVINO's `sub` and `mean`), `#nd.oob` (what an
    index out of range does: `error`, the default, `skip` or `clamp`) and
    `#nd.tensor_scatter_mode`.

    Every shape rule of the specifications is checked by the verifiers where
    the dimensions involved are static; dynamic dimensions are checked at run
    time by the lowering. Index values may be negative (counted from the end
    of the dimension they index); an index outside `[-d, d-1]` is, under the
    default `oob<error>`, an error: a verifier error where `indices` is a
    constant and the dimension static, otherwise caught at run time by the
    lowering unless the caller disables the checks.

    Folding (`--canonicalize`) never removes a run-time check that could
    still fail. A scatter that writes nothing is its `data`; a gather with an
    empty result is an empty constant (or `tensor.empty`); a gather from a
    splat, or a scatter of the same splat under `none`, `max` or `min`, is
    that splat at any size; ops with all operands constant are computed when
    the result and the updates have at most 65536 elements. Constant
    duplicate indices under reduction `none` get a warning from the
    canonicalization that drops the updates they overwrite.
  }];
  // Shape reification materialises `tensor.dim` (and, for operands read
  // through buffers, `memref.dim`) ops; folding materialises
  // `arith.constant` and `tensor.empty` ops.
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  // `nd.donated` on a function argument: the caller hands the buffer over,
  // the compiled function may update it in place and return it.
  // `nd.dim_names` on a function argument or result: the name of each dim
  // ("" for none), such as an ONNX model's symbolic dims; dims of one name
  // have one size in a call of the compiled entry.
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral getDonatedAttrName() {
      return ::llvm::StringLiteral("nd.donated");
    }
    static constexpr ::llvm::StringLiteral getDimNamesAttrName() {
      return ::llvm::StringLiteral("nd.dim_names");
    }
  }];
}

class Nd_Op<string mnemonic, list<Trait> traits = []>
    : Op<Nd_Dialect, mnemonic, traits>;

#endif // ND_DIALECT_ND_IR_NDDIALECT_TD
