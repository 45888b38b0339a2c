#!/usr/bin/env python3
"""Random tensor and TOSA gather / scatter programs checked against numpy.

`generate tensor|tosa SEED COUNT` writes an MLIR module whose @main runs
COUNT random ops and prints each result with printMemrefF32:
- tensor: tensor.gather / tensor.scatter of ranks 1-3, sizes 0-4 with many
  unit dims, every gather_dims / scatter_dims subset, rank-reduced and
  rank-preserving slices, i8/i16/i32/i64/index indices;
- tosa: tosa.gather / tosa.scatter with N, K, C of 1-3, W of 1-4 (N = 1
  often),
  i32/i64 indices;
both with negative and duplicate indices and static and dynamic shapes.

`check tensor|tosa SEED COUNT OUTPUT` recomputes every case with numpy,
independently of nd, from the ops' documentation and the TOSA specification
(negative indices counted from the end and duplicates resolved last-wins, as
nd defines them) and compares the printed sizes and values.
"""

import re
import sys

import numpy as np

INDEX_TYPES = ["i8", "i16", "i32", "i64", "index"]


def tensor_type(shape, element="f32"):
    dims = "x".join("?" if d is None else str(d) for d in shape)
    return f"tensor<{dims}x{element}>" if shape else f"tensor<{element}>"


def dense(array, element):
    if array.size == 0:
        # A zero-element literal is written as a splat.
        zero = "0.0" if element == "f32" else "0"
        return f"dense<{zero}> : {tensor_type(array.shape, element)}"
    if element == "f32":
        text = np.array2string(array.astype(np.float64), separator=", ",
                               threshold=1 << 30, max_line_width=1 << 30,
                               formatter={"float": lambda v: f"{v:.1f}"})
    else:
        text = np.array2string(array, separator=", ", threshold=1 << 30,
                               max_line_width=1 << 30)
    return f"dense<{text}> : {tensor_type(array.shape, element)}"


def make_case(rng):
    rank = int(rng.integers(1, 4))
    shape = [int(rng.choice([0, 1, 1, 2, 3, 4])) if rng.random() < 0.9
             else int(rng.integers(1, 5)) for _ in range(rank)]
    if rng.random() < 0.8:
        shape = [max(d, 1) for d in shape]
    k = int(rng.integers(1, rank + 1))
    dims = sorted(int(d) for d in rng.choice(rank, size=k, replace=False))
    batch = [int(rng.choice([1, 1, 2, 3])) for _ in range(int(rng.integers(0, 3)))]
    if rng.random() < 0.1:
        batch.append(0)
    index_type = str(rng.choice(INDEX_TYPES))
    indices = np.zeros(batch + [k], dtype=np.int64)
    for j, d in enumerate(dims):
        size = shape[d]
        if size == 0:
            # Nothing can be addressed: make the batch empty instead.
            batch = batch + [0] if 0 not in batch else batch
            indices = np.zeros(batch + [k], dtype=np.int64)
            break
        indices[..., j] = rng.integers(-size, size, size=batch)
    case = {
        "op": str(rng.choice(["gather", "scatter"])),
        "shape": shape,
        "dims": dims,
        "batch": batch,
        "indices": indices,
        "index_type": index_type,
        "reduced": bool(rng.random() < 0.5),
        "dynamic": bool(rng.random() < 0.3),
        "data": rng.integers(-50, 50, size=shape).astype(np.float32),
    }
    slices = slice_shape(case, case["reduced"])
    case["source"] = rng.integers(100, 200, size=batch + slices).astype(np.float32)
    return case


def slice_shape(case, reduced):
    return [1 if d in case["dims"] else size
            for d, size in enumerate(case["shape"])
            if not (reduced and d in case["dims"])]


def expected(case):
    data, dims = case["data"], case["dims"]
    batch = case["batch"]
    if case["op"] == "gather":
        result = np.zeros(batch + slice_shape(case, case["reduced"]),
                          dtype=np.float32)
        for b in np.ndindex(*batch):
            at = [slice(None)] * data.ndim
            for j, d in enumerate(dims):
                at[d] = int(case["indices"][b][j])
            piece = data[tuple(at)]
            if not case["reduced"]:
                piece = np.expand_dims(piece, tuple(dims))
            result[b] = piece
        return result
    result = data.copy()
    for b in np.ndindex(*batch):
        at = [slice(None)] * data.ndim
        for j, d in enumerate(dims):
            at[d] = int(case["indices"][b][j])
        piece = case["source"][b]
        if not case["reduced"]:
            piece = np.squeeze(piece, tuple(dims)) if dims else piece
        result[tuple(at)] = piece
    return result


def emit_case(n, case, out):
    shape, batch, k = case["shape"], case["batch"], len(case["dims"])
    itype = case["index_type"]
    dims = ", ".join(map(str, case["dims"]))
    dyn = case["dynamic"]
    data_t = tensor_type(shape)
    ind_t = tensor_type(batch + [k], itype)
    src_t = tensor_type(batch + slice_shape(case, case["reduced"]))
    # With dynamic operands only the index depth and the unit dims of the
    # rank-preserving form stay static.
    def dyn_shape(s):
        return [None] * len(s)
    ddata_t = tensor_type(dyn_shape(shape)) if dyn else data_t
    dind_t = tensor_type(dyn_shape(batch) + [k], itype) if dyn else ind_t
    slices = [1 if d in case["dims"] else None
              for d in range(len(shape))
              if not (case["reduced"] and d in case["dims"])]
    dsrc_t = tensor_type(dyn_shape(batch) + slices) if dyn else src_t
    result_t = ddata_t if case["op"] == "scatter" else dsrc_t
    out.append(f"func.func @op{n}(%d: {ddata_t}, %i: {dind_t}, %s: {dsrc_t}) -> {result_t} {{")
    if case["op"] == "gather":
        out.append(f"  %r = tensor.gather %d[%i] gather_dims([{dims}]) : "
                   f"({ddata_t}, {dind_t}) -> {result_t}")
    else:
        out.append(f"  %r = tensor.scatter %s into %d[%i] scatter_dims([{dims}]) unique : "
                   f"({dsrc_t}, {ddata_t}, {dind_t}) -> {result_t}")
    out.append(f"  return %r : {result_t}")
    out.append("}")
    out.append(f"func.func @case{n}() {{")
    # Operands come from a call so that nothing folds at compile time.
    out.append(f"  %d0, %i0, %s0 = call @operands{n}() : () -> ({data_t}, {ind_t}, {src_t})")
    for name, static, dynamic in (("d", data_t, ddata_t), ("i", ind_t, dind_t),
                                  ("s", src_t, dsrc_t)):
        if static == dynamic:
            out.append(f"  %{name} = tensor.cast %{name}0 : {static} to {static}")
        else:
            out.append(f"  %{name} = tensor.cast %{name}0 : {static} to {dynamic}")
    out.append(f"  %r = call @op{n}(%d, %i, %s) : ({ddata_t}, {dind_t}, {dsrc_t}) -> {result_t}")
    out.append(f"  %u = tensor.cast %r : {result_t} to tensor<*xf32>")
    out.append("  call @print(%u) : (tensor<*xf32>) -> ()")
    out.append("  return")
    out.append("}")
    out.append(f"func.func @operands{n}() -> ({data_t}, {ind_t}, {src_t}) {{")
    out.append(f"  %d = arith.constant {dense(case['data'], 'f32')}")
    out.append(f"  %i = arith.constant {dense(case['indices'], itype)}")
    out.append(f"  %s = arith.constant {dense(case['source'], 'f32')}")
    out.append(f"  return %d, %i, %s : {data_t}, {ind_t}, {src_t}")
    out.append("}")


def make_tosa_case(rng):
    # TOSA tensors have no zero-size dims.
    n, k, c = (int(rng.integers(1, 4)) for _ in range(3))
    n = 1 if rng.random() < 0.3 else n
    op = str(rng.choice(["gather", "scatter"]))
    w = int(rng.integers(1, 5))
    if op == "scatter":
        w = min(w, k)  # TOSA: K >= W
    indices = np.zeros((n, w), dtype=np.int64)
    for b in range(n):
        if op == "scatter" and rng.random() < 0.8:
            indices[b] = rng.permutation(k)[:w]  # unique, as TOSA asks
        else:
            indices[b] = rng.integers(0, k, size=w)
        negative = rng.random(w) < 0.2
        indices[b][negative] -= k
    return {
        "op": op,
        "values": rng.integers(-50, 50, size=(n, k, c)).astype(np.float32),
        "indices": indices,
        "input": rng.integers(100, 200, size=(n, w, c)).astype(np.float32),
        "index_type": str(rng.choice(["i32", "i64"])),
        "dynamic": bool(rng.random() < 0.3),
        "static_result": bool(rng.random() < 0.5),
    }


def tosa_expected(case):
    values, indices = case["values"], case["indices"]
    n, w = indices.shape
    if case["op"] == "gather":
        result = np.zeros((n, w, values.shape[2]), dtype=np.float32)
        for b, i in np.ndindex(n, w):
            result[b, i] = values[b, indices[b, i]]
        return result
    result = values.copy()
    for b, i in np.ndindex(n, w):
        result[b, indices[b, i]] = case["input"][b, i]
    return result


def emit_tosa_case(n, case, out):
    itype = case["index_type"]
    vt = tensor_type(case["values"].shape)
    it = tensor_type(case["indices"].shape, itype)
    nt = tensor_type(case["input"].shape)
    dyn = case["dynamic"]
    dvt = tensor_type([None] * 3) if dyn else vt
    dit = tensor_type([None] * 2, itype) if dyn else it
    dnt = tensor_type([None] * 3) if dyn else nt
    if case["op"] == "gather":
        # A dynamic gather may declare its static result: nd checks it.
        rt = tensor_type(tosa_expected(case).shape)
        drt = rt if not dyn or case["static_result"] else tensor_type([None] * 3)
        out.append(f"func.func @op{n}(%v: {dvt}, %i: {dit}, %in: {dnt}) -> {drt} {{")
        out.append(f"  %r = tosa.gather %v, %i : ({dvt}, {dit}) -> {drt}")
    else:
        drt = dvt
        out.append(f"func.func @op{n}(%v: {dvt}, %i: {dit}, %in: {dnt}) -> {drt} {{")
        out.append(f"  %r = tosa.scatter %v, %i, %in : ({dvt}, {dit}, {dnt}) -> {drt}")
    out.append(f"  return %r : {drt}")
    out.append("}")
    out.append(f"func.func @case{n}() {{")
    out.append(f"  %v0, %i0, %in0 = call @operands{n}() : () -> ({vt}, {it}, {nt})")
    for name, static, dynamic in (("v", vt, dvt), ("i", it, dit), ("in", nt, dnt)):
        out.append(f"  %{name} = tensor.cast %{name}0 : {static} to {dynamic}")
    out.append(f"  %r = call @op{n}(%v, %i, %in) : ({dvt}, {dit}, {dnt}) -> {drt}")
    out.append(f"  %u = tensor.cast %r : {drt} to tensor<*xf32>")
    out.append("  call @print(%u) : (tensor<*xf32>) -> ()")
    out.append("  return")
    out.append("}")
    out.append(f"func.func @operands{n}() -> ({vt}, {it}, {nt}) {{")
    out.append(f"  %v = arith.constant {dense(case['values'], 'f32')}")
    out.append(f"  %i = arith.constant {dense(case['indices'], itype)}")
    out.append(f"  %in = arith.constant {dense(case['input'], 'f32')}")
    out.append(f"  return %v, %i, %in : {vt}, {it}, {nt}")
    out.append("}")


FAMILIES = {
    "tensor": (make_case, emit_case, expected),
    "tosa": (make_tosa_case, emit_tosa_case, tosa_expected),
}


def cases(family, seed, count):
    rng = np.random.default_rng(seed)
    make = FAMILIES[family][0]
    return [make(rng) for _ in range(count)]


def generate(family, seed, count):
    out = [
        "func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }",
        "func.func @print(%t: tensor<*xf32>) {",
        "  %m = bufferization.to_buffer %t read_only : tensor<*xf32> to memref<*xf32>",
        "  call @printMemrefF32(%m) : (memref<*xf32>) -> ()",
        "  return",
        "}",
    ]
    all_cases = cases(family, seed, count)
    emit = FAMILIES[family][1]
    for n, case in enumerate(all_cases):
        emit(n, case, out)
    out.append("func.func @main() {")
    for n in range(len(all_cases)):
        out.append(f"  call @case{n}() : () -> ()")
    out.append("  return")
    out.append("}")
    print("\n".join(out))


def check(family, seed, count, output):
    text = open(output).read()
    blocks = text.split("Unranked Memref")[1:]
    all_cases = cases(family, seed, count)
    expect = FAMILIES[family][2]
    if len(blocks) != len(all_cases):
        print(f"error: {len(blocks)} results printed, {len(all_cases)} expected")
        return 1
    failures = 0
    for n, (case, block) in enumerate(zip(all_cases, blocks)):
        want = expect(case)
        sizes = re.search(r"sizes = \[([^\]]*)\]", block).group(1)
        got_shape = [int(v) for v in sizes.split(",") if v.strip()]
        data = block.split("data =", 1)[1]
        got = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?(?:e[+-]?\d+)?", data)]
        if got_shape != list(want.shape):
            print(f"case {n} ({case['op']}): shape {got_shape}, expected {list(want.shape)}")
            failures += 1
        elif want.size and got != [float(v) for v in want.flatten()]:
            print(f"case {n} ({case['op']}): values differ")
            print(f"  got      {got}")
            print(f"  expected {[float(v) for v in want.flatten()]}")
            failures += 1
    print(f"{len(all_cases) - failures} of {len(all_cases)} cases match numpy")
    return 1 if failures else 0


if __name__ == "__main__":
    family, seed, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if sys.argv[1] == "generate":
        generate(family, seed, count)
    else:
        sys.exit(check(family, seed, count, sys.argv[5]))
