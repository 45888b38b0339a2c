//===- NdOps.td - nd dialect ops ---------------------------*- tablegen -*-===//
//
// The ops of the scatter-gather family. Operands and attributes are named and
// ordered as in ONNX. Shape rules are checked by the verifiers where the
// dimensions are static and at run time by the lowering where they are not.
//
//===----------------------------------------------------------------------===//

#ifndef ND_DIALECT_ND_IR_NDOPS_TD
#define ND_DIALECT_ND_IR_NDOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "nd/Dialect/Nd/IR/NdDialect.td"
include "nd/Dialect/Nd/IR/NdAttrs.td"
include "nd/Dialect/Nd/IR/NdInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Nd_ElementType : AnyTypeOf<[AnySignlessInteger, AnyUnsignedInteger, F16,
                                BF16, F32, F64, Complex<F32>, Complex<F64>],
    "signless or unsigned integer, f16, bf16, f32, f64, complex<f32> or "
    "complex<f64>">;

def Nd_Tensor : RankedTensorOf<[Nd_ElementType]>;

def Nd_IndexTensor : RankedTensorOf<[I32, I64, Index]>;

def Nd_MemRef : MemRefOf<[Nd_ElementType]>;

def Nd_IndexMemRef : MemRefOf<[I32, I64, Index]>;

// Every nd op takes tensors (value semantics, with a result) or buffers
// (memrefs of any layout, updated in place, without a result): the form
// bufferization gives it and the lowering starts from.
def Nd_Shaped : AnyTypeOf<[Nd_Tensor, Nd_MemRef],
    "ranked tensor or memref of signless or unsigned integer, f16, bf16, "
    "f32, f64, complex<f32> or complex<f64> values",
    "::mlir::ShapedType">;

def Nd_IndexShaped : AnyTypeOf<[Nd_IndexTensor, Nd_IndexMemRef],
    "ranked tensor or memref of 32/64-bit signless integer or index values",
    "::mlir::ShapedType">;

//===----------------------------------------------------------------------===//
// What every op of the family shares
//===----------------------------------------------------------------------===//

// Memory effects and speculation (one definition, NdOpTrait in NdOps.h).
def Nd_OpTrait : NativeOpTrait<"NdOpTrait"> {
  let cppNamespace = "::mlir::nd";
}

// `getNormalizedAxis()` of the ops with an `axis` (NdAxisOpTrait in NdOps.h).
def Nd_AxisOpTrait : NativeOpTrait<"NdAxisOpTrait"> {
  let cppNamespace = "::mlir::nd";
}

// An op of the family: its effects and speculation, its model (iteration
// space, row addressing, shape constraints: IterationSpaceOpInterface) and
// the shapes of its result. `traits` are the op's own.
class Nd_FamilyOp<string mnemonic, list<Trait> traits = []>
    : Nd_Op<mnemonic, !listconcat([
        Nd_OpTrait,
        MemoryEffectsOpInterface,
        ConditionallySpeculatable,
        DeclareOpInterfaceMethods<Nd_IterationSpaceOpInterface>
      ], traits, [
        DeclareOpInterfaceMethods<ReifyRankedShapedTypeOpInterface,
                                  ["reifyResultShapes"]>
      ])>;

//===----------------------------------------------------------------------===//
// ND ops: index tuples address slices
//===----------------------------------------------------------------------===//

def Nd_ScatterNDOp : Nd_FamilyOp<"scatter_nd", [
    DestinationStyleOpInterface,
    AllElementTypesMatch<["data", "updates"]>
  ]> {
  let summary = "writes (or combines) slices of `updates` into a copy of "
                "`data` at index tuples";
  let description = [{
    ONNX ScatterND (opsets 11, 13, 16, 18) and OpenVINO ScatterNDUpdate-3
    and -15.

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
    and `min` combine, `sub` computes `result - update` (OpenVINO
    ScatterNDUpdate-15; `xor` on `i1`); see docs/Rationale.md for integer
    wrapping, unsigned and `i1` semantics and NaN propagation. `mean` is not
    defined here (only on `nd.scatter_elements`).

    Shape rules:
    - `r >= 1`, `q >= 1`;
    - `1 <= k <= r`. `k` may be dynamic: the ranks then give it,
      `k = q - 1 + r - rank(updates)`, and the lowering checks
      `indices.shape[-1]` against it at run time;
    - `updates.shape == indices.shape[:-1] ++ data.shape[k:]`; as in OpenVINO,
      where that shape is 0-D (`q == 1`, `k == r`, `k` static), an `updates`
      tensor whose dimensions are all 1 is accepted too;
    - `data` and `updates` have the same element type; the result has the
      type of `data`.

    Index values: a component `i` addressing dimension `j` of size `d` may be
    negative and then means `i + d`; it must lie in `[-d, d-1]`. What a value
    outside does is given by `oob` (`#nd.oob`): under `error` (the default) a
    constant `indices` with a value out of range is a verifier error naming
    the value and its position, otherwise the lowering checks every component
    at run time and stops the program with a message naming the op, the
    operand, the value and the dimension (unless the caller disables the
    checks and guarantees valid indices); under `skip` the tuple's whole
    slice is not written; under `clamp` each component is clamped into
    `[0, d-1]`.

    Duplicate index tuples: the specs leave the result undefined for
    `reduction = none`; nd defines it: the update that comes last in row-major
    order of `indices` wins. With a reduction, every duplicate is combined.

    Examples (ONNX ScatterND example 1; ScatterND with reduction add;
    OpenVINO ScatterNDUpdate-15 example 3, `reduction="sub"`, which gives
    `[-59, -68, -17, 4]`; tuples out of range dropped; a dynamic `k`, which
    the ranks fix to 1):

    ```mlir
    %out = nd.scatter_nd %data[%indices], %updates
        : tensor<8xf32>, tensor<4x1xi64>, tensor<4xf32>
    %sum = nd.scatter_nd %data[%indices], %updates reduction<add>
        : tensor<4x4x4xf32>, tensor<2x1xi64>, tensor<2x4x4xf32>
    %sub = nd.scatter_nd %d[%i], %u reduction<sub>
        : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
    %skip = nd.scatter_nd %d[%i], %u oob<skip>
        : tensor<4xi32>, tensor<5x1xi32>, tensor<5xi32>
    %dyn = nd.scatter_nd %d2[%j], %v
        : tensor<4x3xf32>, tensor<?x?xi64>, tensor<?x3xf32>
    ```
  }];

  let arguments = (ins
    Nd_Shaped:$data,
    Nd_IndexShaped:$indices,
    Nd_Shaped:$updates,
    DefaultValuedAttr<Nd_ReductionAttr, "::mlir::nd::ReductionKind::None">:$reduction,
    DefaultValuedAttr<Nd_OobAttr, "::mlir::nd::OobMode::Error">:$oob,
    UnitAttr:$disposable
  );
  let results = (outs Optional<Nd_Tensor>:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` `,` $updates (`reduction` `` $reduction^)?
    (`oob` `` $oob^)? attr-dict
    `:` type($data) `,` type($indices) `,` type($updates)
    `` custom<DestinationResult>(ref(type($data)), type($result))
  }];

  let extraClassDeclaration = [{
    /// Destination style: the result is `data` updated.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getDataMutable();
    }

    /// The number of index components per tuple: `indices.shape[-1]` where
    /// it is static, otherwise the depth the ranks give,
    /// `rank(indices) - 1 + rank(data) - rank(updates)`.
    int64_t getIndexDepth();

    /// Whether `indices.shape[-1]` is dynamic (the lowering then checks it
    /// against getIndexDepth() at run time).
    bool hasDynamicIndexDepth() {
      return ::mlir::ShapedType::isDynamic(
          getIndices().getType().getShape().back());
    }
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Nd_GatherNDOp : Nd_FamilyOp<"gather_nd", [
    InferTypeOpAdaptorWithIsCompatible
  ]> {
  let summary = "gathers slices of `data` at index tuples";
  let description = [{
    ONNX GatherND (opsets 11, 12, 13; `batch_dims` is 0 for opset 11) and
    OpenVINO GatherND-8 (which keeps the batch dims in the result as ONNX
    does).

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
    - `1 <= k <= r - b`. `k` may be dynamic: the ranks then give it,
      `k = q - 1 + r - b - rank(result)` (the result type cannot be inferred
      without it), and the lowering checks `indices.shape[-1]` at run time;
    - `result.shape == indices.shape[:-1] ++ data.shape[b+k:]` (the result
      type is inferred, a batch dim taking its size from `data` where
      `indices` leaves it dynamic; a result type with more static information
      than the inferred one is accepted when compatible); its element type is
      that of `data`.

    Index values may be negative (`i + d`) and must lie in `[-d, d-1]`.
    Under `oob<error>` (the default) a value outside is a verifier error for
    constant indices, a run-time error otherwise (unless the caller disables
    the checks); under `oob<skip>` the tuple's slice reads zeros; under
    `oob<clamp>` each component is clamped into `[0, d-1]`.

    Examples (ONNX GatherND example 5; zeros for tuples out of range; a
    dynamic `k`, fixed to 2 by the ranks):

    ```mlir
    %out = nd.gather_nd %data[%indices] batch_dims(1)
        : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2xi32>
    %zeros = nd.gather_nd %data[%indices] oob<skip>
        : tensor<2x2x2xi32>, tensor<2x1xi64> -> tensor<2x2x2xi32>
    %dyn = nd.gather_nd %d[%j]
        : tensor<4x5x6xf32>, tensor<3x?xi64> -> tensor<3x6xf32>
    ```
  }];

  let arguments = (ins
    Nd_Shaped:$data,
    Nd_IndexShaped:$indices,
    DefaultValuedAttr<I64Attr, "0">:$batch_dims,
    DefaultValuedAttr<Nd_OobAttr, "::mlir::nd::OobMode::Error">:$oob,
    Optional<Nd_MemRef>:$into
  );
  let results = (outs Optional<Nd_Tensor>:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` (`into` $into^)? (`batch_dims` `(` $batch_dims^ `)`)?
    (`oob` `` $oob^)? attr-dict
    `:` type($data) `,` type($indices) (`into` type($into)^)?
    (`->` type($result)^)?
  }];

  // The tensor form, with the attributes' defaults.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$data,
                   "::mlir::Value":$indices,
                   CArg<"uint64_t", "0">:$batch_dims,
                   CArg<"::mlir::nd::OobMode", "::mlir::nd::OobMode::Error">:$oob), [{
      build($_builder, $_state, result, data, indices, batch_dims, oob, ::mlir::Value());
    }]>
  ];

  let extraClassDeclaration = [{
    /// The number of index components per tuple: `indices.shape[-1]` where
    /// it is static, otherwise the depth the ranks give,
    /// `rank(indices) - 1 + rank(data) - batch_dims - rank(result)`.
    int64_t getIndexDepth();

    /// Whether `indices.shape[-1]` is dynamic (the lowering then checks it
    /// against getIndexDepth() at run time).
    bool hasDynamicIndexDepth() {
      return ::mlir::ShapedType::isDynamic(
          getIndices().getType().getShape().back());
    }

    /// Computes the result type of a gather_nd, or reports through
    /// `emitError` (when given) why the operands are invalid. The index
    /// depth must be static: with a dynamic one, the result type fixes it.
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

def Nd_ScatterElementsOp : Nd_FamilyOp<"scatter_elements", [
    Nd_AxisOpTrait,
    DestinationStyleOpInterface,
    AllElementTypesMatch<["data", "updates"]>
  ]> {
  let summary = "writes (or combines) each element of `updates` into a copy "
                "of `data` along `axis`";
  let description = [{
    ONNX Scatter (opsets 9 and 11, deprecated) and ScatterElements (opsets
    11, 13, 16, 18; `reduction` since 16, `max`/`min` since 18); OpenVINO
    ScatterElementsUpdate-3 and -12 (`mean`, `use_init_val`).

    `data`, `indices` and `updates` have the same rank `r >= 1` and
    `indices.shape == updates.shape`. The result is a copy of `data` in which,
    for every position `p` of `indices` in row-major order, the element
    addressed by `p` with its `axis` coordinate replaced by `indices[p]` is
    combined with `updates[p]`. For rank 2:

    ```
    result[indices[i][j]][j] = f(result[indices[i][j]][j], updates[i][j])  // axis = 0
    result[i][indices[i][j]] = f(result[i][indices[i][j]], updates[i][j])  // axis = 1
    ```

    Reductions: `none`, `add`, `mul`, `max`, `min` as for `nd.scatter_nd`;
    `mean` (ScatterElementsUpdate-12) makes each element addressed by at
    least one update the mean of the value in place and of all its updates:
    `(data + u_1 + ... + u_n) / (n + 1)`, rounded down (towards negative
    infinity) for integers, which are summed exactly; floats are summed in
    row-major order in their own type, then divided once. `mean` is not
    defined on `i1` and complex numbers; `sub` is not defined here.

    `use_init_val` (ScatterElementsUpdate-12, default true): when false, an
    element addressed by at least one update does not take part in the
    reduction: it becomes the reduction of its updates alone (the first
    update, combined with the following ones; under `mean`, their mean).
    Elements no update addresses keep their value. It has no effect under
    `none`.

    Shape rules:
    - `rank(data) == rank(indices) == rank(updates) >= 1`;
    - `axis` in `[-r, r-1]` (negative counts from the back);
    - `indices.shape == updates.shape`;
    - `indices.shape[d] <= data.shape[d]` (hence also
      `updates.shape[d] <= data.shape[d]`) for every `d != axis`.

    Index values may be negative (`i + data.shape[axis]`) and must lie in
    `[-s, s-1]` with `s = data.shape[axis]`. Under `oob<error>` (the
    default) a value outside is a verifier error for constant indices, a
    run-time check otherwise (unless disabled); `oob<skip>` drops that
    update, `oob<clamp>` clamps the value into `[0, s-1]`. Duplicates under
    `reduction = none`: the update that comes last in row-major order of
    `indices` wins.

    Examples (ONNX Scatter example 2; OpenVINO ScatterElementsUpdate-12
    example 2, `use_init_val="false"`, which gives `[50, 10, 100, 70]`):

    ```mlir
    %out = nd.scatter_elements %data[%indices], %updates axis(1)
        : tensor<1x5xf32>, tensor<1x2xi64>, tensor<1x2xf32>
    %sum = nd.scatter_elements %d[%i], %u reduction<add> use_init_val(false)
        : tensor<4xf32>, tensor<6xi64>, tensor<6xf32>
    ```
  }];

  let arguments = (ins
    Nd_Shaped:$data,
    Nd_IndexShaped:$indices,
    Nd_Shaped:$updates,
    DefaultValuedAttr<I64Attr, "0">:$axis,
    DefaultValuedAttr<Nd_ReductionAttr, "::mlir::nd::ReductionKind::None">:$reduction,
    DefaultValuedAttr<BoolAttr, "true">:$use_init_val,
    DefaultValuedAttr<Nd_OobAttr, "::mlir::nd::OobMode::Error">:$oob,
    UnitAttr:$disposable
  );
  let results = (outs Optional<Nd_Tensor>:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` `,` $updates (`axis` `(` $axis^ `)`)?
    (`reduction` `` $reduction^)? (`use_init_val` `(` $use_init_val^ `)`)?
    (`oob` `` $oob^)? attr-dict
    `:` type($data) `,` type($indices) `,` type($updates)
    `` custom<DestinationResult>(ref(type($data)), type($result))
  }];

  let extraClassDeclaration = [{
    /// Destination style: the result is `data` updated.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getDataMutable();
    }
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Nd_GatherElementsOp : Nd_FamilyOp<"gather_elements", [
    Nd_AxisOpTrait,
    InferTypeOpAdaptorWithIsCompatible
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
    may be negative and must lie in `[-s, s-1]` with `s = data.shape[axis]`.
    Under `oob<error>` (the default) a value outside is a verifier error for
    constant indices, a run-time check otherwise (unless disabled);
    `oob<skip>` reads a zero for it, `oob<clamp>` clamps it into `[0, s-1]`.

    Example (ONNX GatherElements, test_gather_elements_0):

    ```mlir
    %out = nd.gather_elements %data[%indices] axis(1)
        : tensor<2x2xf32>, tensor<2x2xi64> -> tensor<2x2xf32>
    ```
  }];

  let arguments = (ins
    Nd_Shaped:$data,
    Nd_IndexShaped:$indices,
    DefaultValuedAttr<I64Attr, "0">:$axis,
    DefaultValuedAttr<Nd_OobAttr, "::mlir::nd::OobMode::Error">:$oob,
    Optional<Nd_MemRef>:$into
  );
  let results = (outs Optional<Nd_Tensor>:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` (`into` $into^)? (`axis` `(` $axis^ `)`)?
    (`oob` `` $oob^)? attr-dict
    `:` type($data) `,` type($indices) (`into` type($into)^)?
    (`->` type($result)^)?
  }];

  // The tensor form, with the attributes' defaults.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$data,
                   "::mlir::Value":$indices,
                   CArg<"uint64_t", "0">:$axis,
                   CArg<"::mlir::nd::OobMode", "::mlir::nd::OobMode::Error">:$oob), [{
      build($_builder, $_state, result, data, indices, axis, oob, ::mlir::Value());
    }]>
  ];

  let extraClassDeclaration = [{
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

//===----------------------------------------------------------------------===//
// Axis ops: whole slices along one axis
//===----------------------------------------------------------------------===//

def Nd_GatherOp : Nd_FamilyOp<"gather", [
    Nd_AxisOpTrait,
    InferTypeOpAdaptorWithIsCompatible
  ]> {
  let summary = "gathers slices of `data` along `axis` at the positions in "
                "`indices`";
  let description = [{
    ONNX Gather (opsets 1, 11, 13) and OpenVINO Gather-1, -7 and -8
    (`batch_dims`; Gather-8's zeros for indices out of range are
    `oob<skip>`). The most common gather of real models: every embedding
    lookup.

    Let `r = rank(data) >= 1`, `q = rank(indices) >= 0` (0-D indices are
    allowed), `a` the axis normalised to `[0, r)` and `b = batch_dims`. The
    leading `b` dims of `data` and `indices` are batch dims and must be
    equal; `0 <= b <= min(q, a)`. Each value of `indices` selects a slice of
    `data` along `a` within its batch:

    ```
    result[p..., i..., s...] = data[p..., indices[p[:b]..., i...], s...]
    ```

    where `p` ranges over `data.shape[:a]`, `i` over `indices.shape[b:]` and
    `s` over `data.shape[a+1:]`, so that `result.shape == data.shape[:a] ++ indices.shape[b:] ++
    data.shape[a+1:]` (rank `q + r - 1 - b`; ONNX Gather is `b = 0`). The
    result type is inferred, a batch dim taking its size from `indices` where
    `data` leaves it dynamic; a result type with more static information is
    accepted when compatible. Its element type is that of `data`.

    Shape rules: `r >= 1`; `axis` in `[-r, r-1]`; `0 <= batch_dims <=
    min(q, a)` (OpenVINO's negative `batch_dims` is normalised by the
    importer); `data.shape[:b] == indices.shape[:b]`.

    Index values may be negative (`i + s`, `s = data.shape[a]`) and must lie
    in `[-s, s-1]`. Under `oob<error>` (the default, ONNX) a value outside is
    a verifier error for constant indices and a run-time error otherwise;
    `oob<skip>` (OpenVINO Gather-8) makes its slice zeros; `oob<clamp>`
    clamps it into `[0, s-1]`.

    Examples (ONNX Gather, axis 0 and axis 1; OpenVINO Gather-8 example 2,
    `batch_dims = 1`, and example 7, indices `[3, 10, -20]` giving
    `[4, 0, 0]`):

    ```mlir
    %rows = nd.gather %data[%indices]
        : tensor<3x2xf32>, tensor<2x2xi64> -> tensor<2x2x2xf32>
    %cols = nd.gather %data[%indices] axis(1)
        : tensor<3x3xf32>, tensor<1x2xi64> -> tensor<3x1x2xf32>
    %batched = nd.gather %d[%i] axis(1) batch_dims(1)
        : tensor<2x5xi32>, tensor<2x3xi32> -> tensor<2x3xi32>
    %zeros = nd.gather %d[%i] oob<skip>
        : tensor<5xi32>, tensor<3xi64> -> tensor<3xi32>
    ```
  }];

  let arguments = (ins
    Nd_Shaped:$data,
    Nd_IndexShaped:$indices,
    DefaultValuedAttr<I64Attr, "0">:$axis,
    DefaultValuedAttr<I64Attr, "0">:$batch_dims,
    DefaultValuedAttr<Nd_OobAttr, "::mlir::nd::OobMode::Error">:$oob,
    Optional<Nd_MemRef>:$into
  );
  let results = (outs Optional<Nd_Tensor>:$result);

  let assemblyFormat = [{
    $data `[` $indices `]` (`into` $into^)? (`axis` `(` $axis^ `)`)?
    (`batch_dims` `(` $batch_dims^ `)`)? (`oob` `` $oob^)? attr-dict
    `:` type($data) `,` type($indices) (`into` type($into)^)?
    (`->` type($result)^)?
  }];

  // The tensor form, with the attributes' defaults.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$data,
                   "::mlir::Value":$indices,
                   CArg<"uint64_t", "0">:$axis,
                   CArg<"uint64_t", "0">:$batch_dims,
                   CArg<"::mlir::nd::OobMode", "::mlir::nd::OobMode::Error">:$oob), [{
      build($_builder, $_state, result, data, indices, axis, batch_dims, oob, ::mlir::Value());
    }]>
  ];

  let extraClassDeclaration = [{
    /// Computes the result type of a gather, or reports through `emitError`
    /// (when given) why the operands are invalid.
    static ::mlir::FailureOr<::mlir::RankedTensorType>
    inferResultType(::mlir::RankedTensorType dataType,
                    ::mlir::RankedTensorType indicesType, int64_t axis,
                    int64_t batchDims,
                    ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError);
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
  let hasCanonicalizer = 1;
}

def Nd_TensorScatterOp : Nd_FamilyOp<"tensor_scatter", [
    Nd_AxisOpTrait,
    DestinationStyleOpInterface,
    AllElementTypesMatch<["past_cache", "update"]>
  ]> {
  let summary = "writes `update` into a copy of `past_cache` along the "
                "sequence axis, at a position per batch entry";
  let description = [{
    ONNX TensorScatter (opset 24), the standard KV-cache update of attention
    layers: `past_cache` has shape `(batch, D1, .., max_sequence_length, ..,
    Dn)` with the sequence dim at `axis`, `update` the same shape but
    `sequence_length <= max_sequence_length` at `axis`, and `write_indices`
    (optional, shape `(batch,)`, zeros when absent) the position where each
    batch entry's update starts. The result is a copy of `past_cache` where,
    for every prefix index `p` over the dims before `axis` (batch `p[0]`) and
    every `s < sequence_length`,

    ```
    result[p, pos(write_indices[p[0]] + s), ...] = update[p, s, ...]
    ```

    with `pos(x) = x` in `linear` mode (the default) and
    `pos(x) = x mod max_sequence_length` in `circular` mode: only the
    position along `axis` wraps (as the spec's prose and ONNX Runtime have
    it; the spec's pseudocode applies `np.mod` to the whole index tuple).
    Writes never collide.

    Shape rules: `rank(past_cache) >= 2`; `axis` in `[-r, r-1]` (default
    -2) and not the batch axis 0; `rank(update) == r`;
    `update.shape[d] == past_cache.shape[d]` for `d != axis` and
    `update.shape[axis] <= past_cache.shape[axis]`; `write_indices` is 1-D
    with `past_cache.shape[0]` elements (`i64` in ONNX; `i32` and `index`
    are accepted too).

    Write indices: a write index `w` is in range when `w >= 0` and, in
    `linear` mode, `w + sequence_length <= max_sequence_length` (ONNX
    Runtime rejects negative ones; nd does in both modes). Under
    `oob<error>` (the default) one out of range is a verifier error for
    constant `write_indices` and a run-time error otherwise; under
    `oob<skip>` that batch entry's update is not written; under
    `oob<clamp>` `w` is clamped into `[0, max_sequence_length -
    sequence_length]` (`linear`) or to `w >= 0` (`circular`).

    Examples (ONNX test_tensorscatter, linear, and
    test_tensorscatter_circular, whose second batch entry starts at 3 and
    wraps to 0):

    ```mlir
    %present = nd.tensor_scatter %past[%write_indices], %update
        : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x1x5xf32>
    %wrapped = nd.tensor_scatter %past[%write_indices], %update mode<circular>
        : tensor<2x1x4x5xf32>[tensor<2xi64>], tensor<2x1x2x5xf32>
    %prefill = nd.tensor_scatter %past, %prompt axis(1)
        : tensor<1x8x16xf16>, tensor<1x3x16xf16>
    ```
  }];

  let arguments = (ins
    Nd_Shaped:$past_cache,
    Nd_Shaped:$update,
    Optional<Nd_IndexShaped>:$write_indices,
    DefaultValuedAttr<I64Attr, "-2">:$axis,
    DefaultValuedAttr<Nd_TensorScatterModeAttr,
                      "::mlir::nd::TensorScatterMode::Linear">:$mode,
    DefaultValuedAttr<Nd_OobAttr, "::mlir::nd::OobMode::Error">:$oob,
    UnitAttr:$disposable
  );
  let results = (outs Optional<Nd_Tensor>:$result);

  let assemblyFormat = [{
    $past_cache (`[` $write_indices^ `]`)? `,` $update
    (`axis` `(` $axis^ `)`)? (`mode` `` $mode^)? (`oob` `` $oob^)? attr-dict
    `:` type($past_cache) (`[` type($write_indices)^ `]`)? `,` type($update)
    `` custom<DestinationResult>(ref(type($past_cache)), type($result))
  }];

  let extraClassDeclaration = [{
    /// Destination style: the result is `past_cache` updated.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getPastCacheMutable();
    }
  }];

  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // ND_DIALECT_ND_IR_NDOPS_TD
