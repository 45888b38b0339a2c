//===- NdOps.td - nd dialect ops ---------------------------*- tablegen -*-===//
//
// The four ops of the scatter-gather family. Operands and attributes are named
// and ordered as in ONNX. Shape rules are checked by the verifiers where the
// dimensions are static and at run time by the lowering where they are not.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDOPS_TD
#define ND_DIALECT_ND_IR_NDOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "nd/Dialect/Nd/IR/NdDialect.td"
include "nd/Dialect/Nd/IR/NdAttrs.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Nd_ElementType : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger, F16,
                                BF16, F32, F64, Complex<F32>, Complex<F64>],
    "signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or "
    "complex<f64>">;

def Nd_Tensor : RankedTensorOf<[Nd_ElementType]>;

def Nd_IndexTensor : RankedTensorOf<[I32, I64, Index]>;

//===----------------------------------------------------------------------===//
// ND ops: index tuples address slices
//===----------------------------------------------------------------------===//

def Nd_ScatterNDOp : Nd_Op<"scatter_nd", [
    Pure,
    AllTypesMatch<["data", "result"]>,
    AllElementTypesMatch<["data", "updates"]>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>
  ]> {
  let summary = "writes (or combines) slices of `updates` into a copy of "
                "`data` at index tuples";
  let description = [{
    ONNX ScatterND (opsets 11, 13, 16, 18) and OpenVINO ScatterNDUpdate-3.

    Let `r = rank(data)`, `q = rank(indices)` and `k = indices.shape[-1]`.
    `indices` is a `(q-1)`-dimensional tensor of `k`-tuples; each tuple is a
    partial index into the first `k` dimensions of `data` and addresses a slice
    of rank `r - k` (a single element when `k == r`). The result is a copy of
    `data` in which, for every `idx` of `indices.shape[:-1]` in row-major
    order,

    ```
    result[indices[idx]] = f(result[indices[idx]], updates[idx])
    ```

    where `f` is given by `reduction`: `none` replaces, `add`, `mul`, `max`
    and `min` combine (see docs/Rationale.md for integer wrapping, unsigned
    and `i1` semantics and NaN propagation).

    Shape rules:
    - `r >= 1`, `q >= 1`;
    - `k` is static and `1 <= k <= r`;
    - `updates.shape == indices.shape[:-1] ++ data.shape[k:]`; as in OpenVINO,
      where that shape is 0-D (`q == 1`, `k == r`), an `updates` tensor whose
      dimensions are all 1 is accepted too;
    - `data` and `updates` have the same element type; the result has the
      type of `data`.

    Index values: a component `i` addressing dimension `j` of size `d` may be
    negative and then means `i + d`; it must lie in `[-d, d-1]`. A constant
    `indices` with a value out of range is a verifier error naming the value
    and its position; otherwise the lowering checks every component at run
    time and stops the program with a message naming the op, the operand, the
    value and the dimension (unless the caller disables the checks and
    guarantees valid indices).

    Duplicate index tuples: the specs leave the result undefined for
    `reduction = none`; nd defines it: the update that comes last in row-major
    order of `indices` wins. With a reduction, every duplicate is combined.

    Example (ONNX ScatterND, example 1):

    ```mlir
    %out = nd.scatter_nd %data[%indices], %updates
        : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
    %sum = nd.scatter_nd %data[%indices], %updates reduction<add>
        : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
    ```
  }];

  let arguments = (ins
    Nd_Tensor:$data,
    Nd_IndexTensor:$indices,
    Nd_Tensor:$updates,
    DefaultValuedAttr<Nd_ReductionAttr, "::mlir::nd::ReductionKind::None">:$reduction
  );
  let results = (outs Nd_Tensor:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` `,` $updates (`reduction` `` $reduction^)? attr-dict
    `:` type($data) `,` type($indices) `,` type($updates)
  }];

  let extraClassDeclaration = [{
    /// The number of index components per tuple, `indices.shape[-1]`.
    int64_t getIndexDepth() {
      return getIndices().getType().getShape().back();
    }
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Nd_GatherNDOp : Nd_Op<"gather_nd", [
    Pure,
    InferTypeOpAdaptorWithIsCompatible,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>
  ]> {
  let summary = "gathers slices of `data` at index tuples";
  let description = [{
    ONNX GatherND (opsets 11, 12, 13); `batch_dims` is 0 for opset 11.

    Let `r = rank(data)`, `q = rank(indices)`, `b = batch_dims` and
    `k = indices.shape[-1]`. The leading `b` dimensions of `data` and
    `indices` are batch dimensions and must be equal. Each `k`-tuple of
    `indices` indexes dimensions `b .. b+k-1` of `data` within its batch and
    selects a slice of rank `r - b - k`:

    ```
    result[n..., i..., s...] = data[n..., indices[n..., i..., :], s...]
    ```

    Shape rules:
    - `r >= 1`, `q >= 1`, `0 <= b < min(q, r)`;
    - `data.shape[:b] == indices.shape[:b]`;
    - `k` is static and `1 <= k <= r - b`;
    - `result.shape == indices.shape[:-1] ++ data.shape[b+k:]` (the result
      type is inferred, a batch dim taking its size from `data` where
      `indices` leaves it dynamic; a result type with more static information
      than the inferred one is accepted when compatible); its element type is
      that of `data`.

    Index values may be negative (`i + d`) and must lie in `[-d, d-1]`: a
    verifier error for constant indices, a run-time check otherwise (unless
    the caller disables the checks).

    Example (ONNX GatherND, example 5):

    ```mlir
    %out = nd.gather_nd %data[%indices] batch_dims(1)
        : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
    ```
  }];

  let arguments = (ins
    Nd_Tensor:$data,
    Nd_IndexTensor:$indices,
    DefaultValuedAttr<I64Attr, "0">:$batch_dims
  );
  let results = (outs Nd_Tensor:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` (`batch_dims` `(` $batch_dims^ `)`)? attr-dict
    `:` type($data) `,` type($indices) `->` type($result)
  }];

  let extraClassDeclaration = [{
    /// The number of index components per tuple, `indices.shape[-1]`.
    int64_t getIndexDepth() {
      return getIndices().getType().getShape().back();
    }

    /// Computes the result type of a gather_nd, or reports through
    /// `emitError` (when given) why the operands are invalid.
    static ::mlir::FailureOr<::mlir::RankedTensorType>
    inferResultType(::mlir::RankedTensorType dataType,
                    ::mlir::RankedTensorType indicesType, int64_t batchDims,
                    ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

//===----------------------------------------------------------------------===//
// Elements ops: one index per element, along one axis
//===----------------------------------------------------------------------===//

def Nd_ScatterElementsOp : Nd_Op<"scatter_elements", [
    Pure,
    AllTypesMatch<["data", "result"]>,
    AllElementTypesMatch<["data", "updates"]>,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>
  ]> {
  let summary = "writes (or combines) each element of `updates` into a copy "
                "of `data` along `axis`";
  let description = [{
    ONNX Scatter (opsets 9 and 11, deprecated) and ScatterElements (opsets
    11, 13, 16, 18; `reduction` since 16, `max`/`min` since 18).

    `data`, `indices` and `updates` have the same rank `r >= 1` and
    `indices.shape == updates.shape`. The result is a copy of `data` in which,
    for every position `p` of `indices` in row-major order, the element
    addressed by `p` with its `axis` coordinate replaced by `indices[p]` is
    combined with `updates[p]`. For rank 2:

    ```
    result[indices[i][j]][j] = f(result[indices[i][j]][j], updates[i][j])  // axis = 0
    result[i][indices[i][j]] = f(result[i][indices[i][j]], updates[i][j])  // axis = 1
    ```

    Shape rules:
    - `rank(data) == rank(indices) == rank(updates) >= 1`;
    - `axis` in `[-r, r-1]` (negative counts from the back);
    - `indices.shape == updates.shape`;
    - `indices.shape[d] <= data.shape[d]` (hence also
      `updates.shape[d] <= data.shape[d]`) for every `d != axis`.

    Index values may be negative (`i + data.shape[axis]`) and must lie in
    `[-s, s-1]` with `s = data.shape[axis]`: a verifier error for constant
    indices, a run-time check otherwise (unless disabled). Duplicates under `reduction = none`: the update
    that comes last in row-major order of `indices` wins.

    Example (ONNX Scatter, example 2):

    ```mlir
    %out = nd.scatter_elements %data[%indices], %updates axis(1)
        : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
    ```
  }];

  let arguments = (ins
    Nd_Tensor:$data,
    Nd_IndexTensor:$indices,
    Nd_Tensor:$updates,
    DefaultValuedAttr<I64Attr, "0">:$axis,
    DefaultValuedAttr<Nd_ReductionAttr, "::mlir::nd::ReductionKind::None">:$reduction
  );
  let results = (outs Nd_Tensor:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` `,` $updates (`axis` `(` $axis^ `)`)?
    (`reduction` `` $reduction^)? attr-dict
    `:` type($data) `,` type($indices) `,` type($updates)
  }];

  let extraClassDeclaration = [{
    /// `axis` normalised to `[0, rank)`.
    int64_t getNormalizedAxis() {
      int64_t axis = getAxis();
      return axis < 0 ? axis + getData().getType().getRank() : axis;
    }
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Nd_GatherElementsOp : Nd_Op<"gather_elements", [
    Pure,
    InferTypeOpAdaptorWithIsCompatible,
    DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                              ["reifyResultShapes"]>
  ]> {
  let summary = "gathers one element of `data` per element of `indices` "
                "along `axis`";
  let description = [{
    ONNX GatherElements (opsets 11, 13), the inverse of
    `nd.scatter_elements`.

    `data` and `indices` have the same rank `r >= 1`; the result has the shape
    of `indices` and the element type of `data`. For every position `p` of
    `indices`, the result takes the element of `data` addressed by `p` with
    its `axis` coordinate replaced by `indices[p]`. For rank 2:

    ```
    result[i][j] = data[indices[i][j]][j]  // axis = 0
    result[i][j] = data[i][indices[i][j]]  // axis = 1
    ```

    Shape rules: `rank(data) == rank(indices) >= 1`; `axis` in `[-r, r-1]`;
    `indices.shape[d] <= data.shape[d]` for every `d != axis`; the result
    type is inferred from `indices` and may be more static than it, but its
    dims off the axis must not exceed those of `data` either. Index values
    may be negative and must lie in `[-s, s-1]` with `s = data.shape[axis]`:
    a verifier error for constant indices, a run-time check otherwise (unless
    disabled).

    Example (ONNX GatherElements, test_gather_elements_0):

    ```mlir
    %out = nd.gather_elements %data[%indices] axis(1)
        : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
    ```
  }];

  let arguments = (ins
    Nd_Tensor:$data,
    Nd_IndexTensor:$indices,
    DefaultValuedAttr<I64Attr, "0">:$axis
  );
  let results = (outs Nd_Tensor:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` (`axis` `(` $axis^ `)`)? attr-dict
    `:` type($data) `,` type($indices) `->` type($result)
  }];

  let extraClassDeclaration = [{
    /// `axis` normalised to `[0, rank)`.
    int64_t getNormalizedAxis() {
      int64_t axis = getAxis();
      return axis < 0 ? axis + getData().getType().getRank() : axis;
    }

    /// Computes the result type of a gather_elements, or reports through
    /// `emitError` (when given) why the operands are invalid.
    static ::mlir::FailureOr<::mlir::RankedTensorType>
    inferResultType(::mlir::RankedTensorType dataType,
                    ::mlir::RankedTensorType indicesType, int64_t axis,
                    ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

#endif // ND_DIALECT_ND_IR_NDOPS_TD
