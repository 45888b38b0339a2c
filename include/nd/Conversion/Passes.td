//===- Passes.td - nd conversion passes --------------------*- tablegen -*-===//

#ifndef ND_CONVERSION_PASSES_TD
#define ND_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerScatter : Pass<"lower-scatter", "ModuleOp"> {
  let summary = "Lower the nd ops to linalg, scf, tensor and arith";
  let description = [{
    Rewrites every nd op into upstream dialects, keeping value semantics:

    - `nd.gather_nd` and `nd.gather_elements` become a `linalg.generic` with
      parallel iterators over the result that reads `data` through
      `tensor.extract`, so upstream tiling, fusion and vectorisation apply;
    - `nd.scatter_nd` and `nd.scatter_elements` become `scf.for` nests over the
      update entries in row-major order that thread `data` through their
      iteration arguments (destination-passing style: one-shot bufferization
      updates `data`'s buffer in place when `data` is dead afterwards). With
      `k < rank(data)` each entry writes a slice of the result in place: a
      `linalg.copy` of the update slice, or a `linalg.generic` combining the
      two under a reduction, between `tensor.extract_slice` and
      `tensor.insert_slice`.

    Negative indices are normalised (`i + dim`). With `check-bounds` (the
    default), every index component and every dynamic dimension that the
    verifier could not check is checked at run time before anything is
    written; a failed check prints a message naming the op, its location, the
    operand, the offending value and the dimension to stderr and exits with
    status 1. The error path is an `llvm.func` helper calling `fprintf` and
    `exit`, inserted into the module with its message strings.

    Before:

    ```mlir
    %r = nd.gather_elements %data[%indices] axis(1)
        : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
    ```

    After (`check-bounds=false`):

    ```mlir
    %e = tensor.empty() : tensor<2x2xf32>
    %r = linalg.generic {indexing_maps = [#id, #id],
                         iterator_types = ["parallel", "parallel"]}
        ins(%indices : tensor<2x2xi64>) outs(%e : tensor<2x2xf32>) {
    ^bb0(%i: i64, %out: f32):
      // normalise %i, then tensor.extract %data[linalg.index 0, %i]
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::complex::ComplexDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect"
  ];
  let options = [
    Option<"checkBounds", "check-bounds", "bool", /*default=*/"true",
           "Check index values and dynamic shapes at run time; false drops "
           "the checks for callers that guarantee valid input">
  ];
}

#endif // ND_CONVERSION_PASSES_TD
