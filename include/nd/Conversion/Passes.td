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

def ConvertTensorToNd : Pass<"convert-tensor-to-nd"> {
  let summary = "Convert tensor.gather and tensor.scatter to nd ops";
  let description = [{
    Rewrites upstream `tensor.gather` into `nd.gather_nd` and `tensor.scatter`
    into `nd.scatter_nd`, which `--lower-scatter` (or `--nd-to-llvm`) then
    lowers: this gives the two upstream ops a lowering to loops and LLVM.

    `nd.gather_nd` and `nd.scatter_nd` index the leading dimensions of
    `data`. Where `gather_dims` / `scatter_dims` are the leading dimensions
    `[0, 1, ..., k-1]`, the source (gather) or destination (scatter) is used
    as it is; otherwise it is transposed (`linalg.transpose`) so that the
    indexed dimensions come first, in their order, followed by the others in
    theirs, and a scatter's result is transposed back. A transposition that
    only moves dimensions of static size 1 is a reshape instead of a copy.
    The rank-preserving form of the gathered or scattered slices (the indexed
    dimensions kept with size 1) becomes the rank-reduced form nd uses through
    `tensor.expand_shape` / `tensor.collapse_shape`, which copy nothing.

    Index element types: `i32`, `i64` and `index` are used as they are;
    narrower integers are sign-extended to `i32`, those between 33 and 63
    bits to `i64`. Indices wider than 64 bits are not converted.

    Semantics: where the upstream ops define the result, nd gives the same
    result. Where their behaviour is undefined, nd's rules apply (see
    docs/Rationale.md): a coordinate outside `[-d, d-1]` is nd's run-time
    error, a negative coordinate in that range counts from the end, and
    duplicate coordinates in a `tensor.scatter` (whose `unique` promise is
    then false) leave the last update in row-major order of `indices`. The
    nd ops carry the location of the op they replace wrapped in a name
    location naming that op, so run-time messages point at the original op.

    Ops that cannot be converted (an element type nd does not support,
    indices wider than 64 bits, a scatter result type that is not `dest`'s
    type or a less static version of it) are reported with the reason and
    the pass fails.

    Before:

    ```mlir
    %g = tensor.gather %source[%indices] gather_dims([1])
        : (tensor<3x4x5xf32>, tensor<6x1xindex>) -> tensor<6x3x1x5xf32>
    ```

    After:

    ```mlir
    %e = tensor.empty() : tensor<4x3x5xf32>
    %t = linalg.transpose ins(%source : tensor<3x4x5xf32>)
        outs(%e : tensor<4x3x5xf32>) permutation = [1, 0, 2]
    %r = nd.gather_nd %t[%indices]
        : tensor<4x3x5xf32>, tensor<6x1xindex> -> tensor<6x3x5xf32>
    %g = tensor.expand_shape %r [[0], [1], [2, 3]] output_shape [6, 3, 1, 5]
        : tensor<6x3x5xf32> into tensor<6x3x1x5xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::nd::NdDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

def ConvertTosaToNd : Pass<"convert-tosa-to-nd"> {
  let summary = "Convert tosa.gather and tosa.scatter to nd ops";
  let description = [{
    Rewrites TOSA's `tosa.gather` (`values [N,K,C]`, `indices [N,W]` ->
    `[N,W,C]`) and `tosa.scatter` (`values_in [N,K,C]`, `indices [N,W]`,
    `input [N,W,C]` -> `[N,K,C]`) into nd ops:

    - `tosa.gather` becomes `nd.gather_nd` with `batch_dims = 1` on the
      indices reshaped to `[N,W,1]` (`tensor.expand_shape`, no copy):
      `output[n,w,:] = values[n, indices[n,w], :]`;
    - `tosa.scatter` becomes `nd.scatter_nd` on `values_in` with index
      tuples `(n, indices[n,w])` of shape `[N,W,2]`, built by a
      `linalg.generic`, and `input` as the updates. With a static `N` of 1
      the batch dimension is reshaped away instead and the indices are used
      as they are (no tuples).

    Run this pass before upstream's `--tosa-to-linalg` and `--tosa-to-scf`,
    which lower `tosa.gather` and `tosa.scatter` themselves. The other TOSA
    ops of a program (`tosa.const`, `tosa.reshape`, arithmetic) go through
    upstream's TOSA conversions as usual before `--nd-to-llvm`, e.g.
    `--pass-pipeline="builtin.module(convert-tosa-to-nd,func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),nd-to-llvm)"`.

    Semantics: TOSA requires `0 <= indices[n,w] < K` and, for a scatter, no
    repeated index within a batch; where a program breaks these rules, nd's
    rules apply instead of TOSA's unpredictable result (see
    docs/Rationale.md): an index outside `[-K, K-1]` is nd's run-time error,
    a negative one counts from the end, and a repeated index leaves the last
    update in row-major order of `indices`.

    Ops that cannot be converted (unranked tensors, an element type nd does
    not support, a result type more static than nd can check) are reported
    with the reason and the pass fails.

    Before:

    ```mlir
    %0 = tosa.gather %values, %indices
        : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x4x3xf32>
    ```

    After:

    ```mlir
    %i = tensor.expand_shape %indices [[0], [1, 2]] output_shape [2, 4, 1]
        : tensor<2x4xi32> into tensor<2x4x1xi32>
    %0 = nd.gather_nd %values[%i] batch_dims(1)
        : tensor<2x5x3xf32>, tensor<2x4x1xi32> -> tensor<2x4x3xf32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::nd::NdDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // ND_CONVERSION_PASSES_TD
