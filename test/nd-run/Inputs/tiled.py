"""Writes the cases of the tiling test (tiled.test) into a directory, one
subdirectory per case: module.mlir (an @main of nd ops and upstream ops
around them), schedule.mlir (a transform library whose @__transform_main
tiles or fuses the ops of module.mlir), in_N.npy, expect_N.npy and `args` /
`expected` (the file lists nd-run takes). The expected values come from the
independent numpy reference of test/Reference (nd_reference.py)."""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..",
                                "Reference"))
import nd_reference as ref  # noqa: E402

RNG = np.random.default_rng(20261126)

SCHEDULE = """module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
{body}
    transform.yield
  }}
}}
"""


def match(name, op):
    return (f"    %{name} = transform.structured.match ops{{[\"{op}\"]}} in "
            f"%root : (!transform.any_op) -> !transform.any_op")


def forall(name, target, sizes):
    return (f"    %{name}, %{name}_loop = transform.structured.tile_using_forall "
            f"%{target} tile_sizes {sizes} : (!transform.any_op) -> "
            f"(!transform.any_op, !transform.any_op)")


def sequential(name, target, sizes):
    loops = sum(1 for s in sizes if s != 0)
    results = ", ".join(["!transform.any_op"] * (loops + 1))
    handles = f"%{name}_loops:{loops}" if loops > 1 else f"%{name}_loops"
    return (f"    %{name}, {handles} = transform.structured.tile_using_for "
            f"%{target} tile_sizes {sizes} : (!transform.any_op) -> "
            f"({results})")


def mlir_type(array):
    dtype = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16",
             np.dtype(np.float64): "f64", np.dtype(np.int32): "i32",
             np.dtype(np.int64): "i64", np.dtype(np.int8): "i8"}[array.dtype]
    return f"tensor<{'x'.join(str(d) for d in array.shape)}x{dtype}>"


def dynamic(type_text):
    """`tensor<4x5xf32>` -> `tensor<?x?xf32>`."""
    inner = type_text[len("tensor<"):-1]
    dims = inner.split("x")
    return "tensor<" + "x".join(["?"] * (len(dims) - 1) + [dims[-1]]) + ">"


def write_case(out, name, inputs, body, results, expected, schedule,
               arg_types=None):
    """`body` is the function body (ops on %a0, %a1, ...) ending with the
    values `results` of types given by `expected`'s arrays (or explicit
    types in `results`, a list of (value, type))."""
    case = os.path.join(out, name)
    os.makedirs(case)
    arg_types = arg_types or [mlir_type(a) for a in inputs]
    signature = ", ".join(f"%a{n}: {t}" for n, t in enumerate(arg_types))
    result_types = ", ".join(t for _, t in results)
    with open(os.path.join(case, "module.mlir"), "w") as f:
        f.write(f"func.func @main({signature}) -> ({result_types}) {{\n")
        for line in body:
            f.write(f"  {line}\n")
        values = ", ".join(v for v, _ in results)
        f.write(f"  return {values} : {result_types}\n}}\n")
    with open(os.path.join(case, "schedule.mlir"), "w") as f:
        f.write(SCHEDULE.format(body="\n".join(schedule)))
    for n, array in enumerate(inputs):
        np.save(os.path.join(case, f"in_{n}.npy"), array)
    for n, array in enumerate(expected):
        np.save(os.path.join(case, f"expect_{n}.npy"), array)
    with open(os.path.join(case, "args"), "w") as f:
        f.write(" ".join(os.path.join(case, f"in_{n}.npy")
                         for n in range(len(inputs))))
    with open(os.path.join(case, "expected"), "w") as f:
        f.write(" ".join(os.path.join(case, f"expect_{n}.npy")
                         for n in range(len(expected))))


def indices(shape, size, dtype=np.int64, negative=True, outside=0.0):
    """Random index values for a dim of `size`, some negative, and about
    `outside` of them out of range."""
    values = RNG.integers(-size if negative else 0, size, shape)
    far = RNG.random(shape) < outside
    values[far] = RNG.integers(size, 3 * size, far.sum()) * \
        RNG.choice([-1, 1], far.sum())
    return values.astype(dtype)


def floats(shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def main(out):
    # gather_nd with a batch dim, tiled on all three result dims.
    data = floats((16, 40, 24))
    idx = indices((16, 30, 1), 40)
    res = ref.gather_nd(data, idx, batch_dims=1)
    write_case(out, "gather_nd_batch", [data, idx],
               [f"%r = nd.gather_nd %a0[%a1] batch_dims(1) : "
                f"{mlir_type(data)}, {mlir_type(idx)} -> {mlir_type(res)}"],
               [("%r", mlir_type(res))], [res],
               [match("g", "nd.gather_nd"), forall("t", "g", "[4, 8, 8]")])

    # nd.gather along axis 1 under skip (some indices out of range), tiles
    # of data's dims and of the indices' first dim.
    data = RNG.integers(-1000, 1000, (12, 50, 10)).astype(np.int32)
    idx = indices((7, 3), 50, np.int32, outside=0.2)
    res = ref.gather(data, idx, axis=1, oob="skip")
    write_case(out, "gather_axis_skip", [data, idx],
               [f"%r = nd.gather %a0[%a1] axis(1) oob<skip> : "
                f"{mlir_type(data)}, {mlir_type(idx)} -> {mlir_type(res)}"],
               [("%r", mlir_type(res))], [res],
               [match("g", "nd.gather"), forall("t", "g", "[5, 2, 0, 4]")])

    # gather_elements along axis 1 under clamp, data wider than indices.
    data = floats((20, 30), np.float16)
    idx = indices((20, 25), 30, outside=0.1)
    res = ref.gather_elements(data, idx, axis=1, oob="clamp")
    write_case(out, "gather_elements_clamp", [data, idx],
               [f"%r = nd.gather_elements %a0[%a1] axis(1) oob<clamp> : "
                f"{mlir_type(data)}, {mlir_type(idx)} -> {mlir_type(res)}"],
               [("%r", mlir_type(res))], [res],
               [match("g", "nd.gather_elements"), forall("t", "g", "[3, 7]")])

    # scatter_nd add with many duplicates: the entries tiled sequentially and
    # the slices in the inner loop; and the slices alone in parallel.
    data = floats((50, 64))
    idx = indices((200, 1), 50)
    upd = floats((200, 64))
    res = ref.scatter_nd(data, idx, upd, reduction="add")
    body = [f"%r = nd.scatter_nd %a0[%a1], %a2 reduction<add> : "
            f"{mlir_type(data)}, {mlir_type(idx)}, {mlir_type(upd)}"]
    write_case(out, "scatter_nd_add_entries", [data, idx, upd], body,
               [("%r", mlir_type(res))], [res],
               [match("s", "nd.scatter_nd"),
                sequential("t", "s", [32, 16])])
    write_case(out, "scatter_nd_add_slices", [data, idx, upd], body,
               [("%r", mlir_type(res))], [res],
               [match("s", "nd.scatter_nd"), forall("t", "s", "[0, 16]")])

    # scatter_nd of points (k = 2) under none: the last duplicate wins, in
    # row-major order of the entries, across sequential tiles of them.
    data = RNG.integers(-50, 50, (30, 20)).astype(np.int32)
    idx = np.stack([indices((500,), 30), indices((500,), 20)], axis=-1)
    upd = RNG.integers(-50, 50, (500,)).astype(np.int32)
    res = ref.scatter_nd(data, idx, upd)
    write_case(out, "scatter_nd_points_none", [data, idx, upd],
               [f"%r = nd.scatter_nd %a0[%a1], %a2 : {mlir_type(data)}, "
                f"{mlir_type(idx)}, {mlir_type(upd)}"],
               [("%r", mlir_type(res))], [res],
               [match("s", "nd.scatter_nd"), sequential("t", "s", [64])])

    # scatter_elements along axis 0 under max, entries and columns tiled
    # sequentially.
    data = RNG.integers(-100, 100, (40, 33)).astype(np.int32)
    idx = indices((60, 30), 40)
    upd = RNG.integers(-100, 100, (60, 30)).astype(np.int32)
    res = ref.scatter_elements(data, idx, upd, axis=0, reduction="max")
    write_case(out, "scatter_elements_max", [data, idx, upd],
               [f"%r = nd.scatter_elements %a0[%a1], %a2 axis(0) "
                f"reduction<max> : {mlir_type(data)}, {mlir_type(idx)}, "
                f"{mlir_type(upd)}"],
               [("%r", mlir_type(res))], [res],
               [match("s", "nd.scatter_elements"),
                sequential("t", "s", [16, 8])])

    # scatter_elements under mean: only the columns may be cut (in
    # parallel); every update of an element stays in one tile.
    data = floats((12, 17))
    idx = indices((30, 15), 12)
    upd = floats((30, 15))
    res = ref.scatter_elements(data, idx, upd, axis=0, reduction="mean")
    write_case(out, "scatter_elements_mean", [data, idx, upd],
               [f"%r = nd.scatter_elements %a0[%a1], %a2 axis(0) "
                f"reduction<mean> : {mlir_type(data)}, {mlir_type(idx)}, "
                f"{mlir_type(upd)}"],
               [("%r", mlir_type(res))], [res],
               [match("s", "nd.scatter_elements"), forall("t", "s", "[0, 5]")])

    # A KV-cache write in circular mode, tiled by batch entry, head and
    # feature.
    past = floats((3, 4, 16, 8), np.float16)
    upd = floats((3, 4, 5, 8), np.float16)
    write = np.array([2, 14, 9], np.int64)
    res = ref.tensor_scatter(past, upd, write, axis=-2, mode="circular")
    write_case(out, "tensor_scatter_circular", [past, write, upd],
               [f"%r = nd.tensor_scatter %a0[%a1], %a2 mode<circular> : "
                f"{mlir_type(past)}[{mlir_type(write)}], {mlir_type(upd)}"],
               [("%r", mlir_type(res))], [res],
               [match("s", "nd.tensor_scatter"),
                forall("t", "s", "[1, 2, 0, 4]")])

    # Dynamic shapes: a gather_nd tiled in parallel and a scatter_nd whose
    # entries are tiled sequentially, on tensors of unknown sizes.
    data = floats((37, 29))
    idx = indices((23, 1), 37)
    res = ref.gather_nd(data, idx)
    write_case(out, "gather_nd_dynamic", [data, idx],
               [f"%r = nd.gather_nd %a0[%a1] : tensor<?x?xf32>, "
                f"tensor<?x1xi64> -> tensor<?x?xf32>"],
               [("%r", "tensor<?x?xf32>")], [res],
               [match("g", "nd.gather_nd"), forall("t", "g", "[8, 8]")],
               arg_types=["tensor<?x?xf32>", "tensor<?x1xi64>"])
    upd = floats((23, 29))
    res = ref.scatter_nd(data, idx, upd, reduction="mul")
    write_case(out, "scatter_nd_dynamic", [data, idx, upd],
               [f"%r = nd.scatter_nd %a0[%a1], %a2 reduction<mul> : "
                f"tensor<?x?xf32>, tensor<?x1xi64>, tensor<?x?xf32>"],
               [("%r", "tensor<?x?xf32>")], [res],
               [match("s", "nd.scatter_nd"), sequential("t", "s", [5, 8])],
               arg_types=["tensor<?x?xf32>", "tensor<?x1xi64>",
                          "tensor<?x?xf32>"])

    # A fused chain: an embedding lookup, a gather along its rows, and an
    # elementwise consumer (x + x, exact) that is tiled, the gathers fused
    # into each of its tiles.
    table = floats((100, 64))
    ids = indices((32, 1), 100)
    cols = indices((32, 48), 64)
    rows = ref.gather_nd(table, ids)
    picked = ref.gather_elements(rows, cols, axis=1)
    res = picked + picked
    write_case(out, "fused_chain", [table, ids, cols],
               ["%g = nd.gather_nd %a0[%a1] : tensor<100x64xf32>, "
                "tensor<32x1xi64> -> tensor<32x64xf32>",
                "%p = nd.gather_elements %g[%a2] axis(1) : tensor<32x64xf32>, "
                "tensor<32x48xi64> -> tensor<32x48xf32>",
                "%e = tensor.empty() : tensor<32x48xf32>",
                "%r = linalg.add ins(%p, %p : tensor<32x48xf32>, "
                "tensor<32x48xf32>) outs(%e : tensor<32x48xf32>) -> "
                "tensor<32x48xf32>"],
               [("%r", "tensor<32x48xf32>")], [res],
               [match("add", "linalg.add"),
                "    %t, %loops:2 = transform.structured.fuse %add tile_sizes "
                "[8, 16] : (!transform.any_op) -> (!transform.any_op, "
                "!transform.any_op, !transform.any_op)"])

    # A scatter_elements whose data is wider than its indices off the axis,
    # fused into a consumer tiled across data's columns: the issue's case
    # (4 columns of data, 2 of indices, tiles of 2) and a larger one whose
    # last consumer tiles lie past the indices.
    fused_scatter_elements(out, "scatter_elements_wider_issue",
                           np.zeros((4, 4), np.int32),
                           np.array([[0, 1], [2, 3]], np.int64),
                           np.array([[1, 2], [3, 4]], np.int32), "[4, 2]")
    fused_scatter_elements(out, "scatter_elements_wider_data",
                           RNG.integers(-50, 50, (12, 10)).astype(np.int32),
                           indices((5, 6), 12),
                           RNG.integers(-50, 50, (5, 6)).astype(np.int32),
                           "[4, 3]")


def fused_scatter_elements(out, name, data, idx, upd, tile_sizes):
    """nd.scatter_elements along axis 0 into `x + x`, the add tiled with
    `tile_sizes` and the scatter fused into its tiles."""
    res = ref.scatter_elements(data, idx, upd, axis=0)
    t = mlir_type(data)
    write_case(out, name, [data, idx, upd],
               [f"%s = nd.scatter_elements %a0[%a1], %a2 axis(0) : {t}, "
                f"{mlir_type(idx)}, {mlir_type(upd)}",
                f"%e = tensor.empty() : {t}",
                f"%r = linalg.add ins(%s, %s : {t}, {t}) outs(%e : {t}) -> "
                f"{t}"],
               [("%r", t)], [res + res],
               [match("add", "linalg.add"),
                match("s", "nd.scatter_elements"),
                forall("t", "add", tile_sizes),
                "    %f, %nl = transform.structured.fuse_into_containing_op "
                "%s into %t_loop : (!transform.any_op, !transform.any_op) -> "
                "(!transform.any_op, !transform.any_op)"])


if __name__ == "__main__":
    main(sys.argv[1])
