"""Writes the model, inputs and references of determinism-modes.test into
the directory argv[1]: the out-of-bounds modes (skip, clamp) of the four ops
and scatter_elements' mean and use_init_val(false), on inputs large enough
for the work to be split among threads (above the lowering's grain of 32768
element moves), with many duplicates and, under skip and clamp, many index
values out of range. The references come from test/Reference/nd_reference.py
(numpy, in row-major order of the entries).

The module det.mlir has an @main taking the inputs in_N.npy and returning
one result per op; expect_N.npy is result N. The files `args` and `expected`
list the inputs and the references in order.
"""

import os
import sys

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Reference"))
import nd_reference as ref  # noqa: E402
import det_files  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(11)

MLIR = {np.float32: "f32", np.float16: "f16", np.int32: "i32",
        np.int64: "i64"}

inputs, arg_types, results, body, expected = [], [], [], [], []


def values(shape, dtype):
    if dtype == np.int32:
        return rng.integers(-1000, 1000, shape).astype(np.int32)
    # Near 1: sums and means of floats round differently in every order.
    return (1 + rng.standard_normal(shape) / 64).astype(dtype)


def ttype(shape, dtype):
    return "tensor<" + "".join(f"{d}x" for d in shape) + MLIR[dtype] + ">"


def arg(array):
    inputs.append(array)
    arg_types.append(ttype(array.shape, array.dtype.type))
    return f"%a{len(inputs) - 1}", arg_types[-1]


def op(text, reference):
    results.append(ttype(reference.shape, reference.dtype.type))
    body.append(text.format(result=results[-1]))
    expected.append(reference)


def scatter_nd(data, indices, reduction, oob):
    updates = values(indices.shape[:-1] + data.shape[indices.shape[-1]:],
                     data.dtype.type)
    d, dt = arg(data)
    i, it = arg(indices)
    u, ut = arg(updates)
    op(f"nd.scatter_nd {d}[{i}], {u} reduction<{reduction}> oob<{oob}> : "
       f"{dt}, {it}, {ut}",
       ref.scatter_nd(data, indices, updates, reduction, oob))


def gather_nd(data, indices, oob):
    d, dt = arg(data)
    i, it = arg(indices)
    op(f"nd.gather_nd {d}[{i}] oob<{oob}> : {dt}, {it} -> {{result}}",
       ref.gather_nd(data, indices, 0, oob))


def scatter_elements(data, indices, axis, reduction, use_init_val, oob):
    updates = values(indices.shape, data.dtype.type)
    d, dt = arg(data)
    i, it = arg(indices)
    u, ut = arg(updates)
    init = "true" if use_init_val else "false"
    op(f"nd.scatter_elements {d}[{i}], {u} axis({axis}) "
       f"reduction<{reduction}> use_init_val({init}) oob<{oob}> : "
       f"{dt}, {it}, {ut}",
       ref.scatter_elements(data, indices, updates, axis, reduction,
                            use_init_val, oob))


def gather_elements(data, indices, axis, oob):
    d, dt = arg(data)
    i, it = arg(indices)
    op(f"nd.gather_elements {d}[{i}] axis({axis}) oob<{oob}> : {dt}, {it} "
       f"-> {{result}}", ref.gather_elements(data, indices, axis, oob))


def index(low, high, shape):
    return rng.integers(low, high, shape).astype(np.int64)


# ScatterND: points (row owners, skipped entries bucketed apart), narrow
# slices (row owners), wide slices (column partitions).
scatter_nd(values((64,), np.float32), index(-90, 90, (100000, 1)), "add",
           "skip")
scatter_nd(values((64,), np.int32), index(-90, 90, (100000, 1)), "none",
           "clamp")
scatter_nd(values((1024, 4), np.float32), index(-1300, 1300, (30000, 1)),
           "add", "skip")
scatter_nd(values((16, 512), np.float32), index(-20, 20, (200, 1)), "sub",
           "clamp")
scatter_nd(values((16, 512), np.float16), index(-20, 20, (200, 1)), "add",
           "skip")
# GatherND and GatherElements.
gather_nd(values((1000, 8), np.float32), index(-1200, 1200, (30000, 1)),
          "skip")
gather_nd(values((40, 50), np.int32), index(-60, 60, (30000, 2)), "clamp")
gather_elements(values((256, 300), np.float32), index(-400, 400, (256, 250)),
                1, "skip")
gather_elements(values((256, 300), np.int32), index(-400, 400, (200, 300)),
                0, "clamp")
# ScatterElements: mean and use_init_val(false) on both axes of a matrix
# (partitions of rows or columns) and on rank 1 (row owners).
scatter_elements(values((256, 300), np.float32), index(-40, 40, (200, 300)),
                 0, "mean", True, "error")
scatter_elements(values((256, 300), np.int32), index(-40, 40, (256, 250)),
                 1, "mean", False, "error")
scatter_elements(values((256, 300), np.float16), index(-40, 40, (256, 250)),
                 1, "mean", True, "skip")
scatter_elements(values((256, 300), np.float32), index(-60, 60, (200, 300)),
                 0, "add", False, "skip")
scatter_elements(values((256, 300), np.int32), index(-400, 400, (256, 250)),
                 1, "max", False, "clamp")
scatter_elements(values((100,), np.float32), index(-100, 100, (100000,)), 0,
                 "mean", True, "error")
scatter_elements(values((100,), np.int32), index(-130, 130, (100000,)), 0,
                 "mean", False, "skip")
scatter_elements(values((100,), np.float32), index(-130, 130, (100000,)), 0,
                 "mul", False, "clamp")
scatter_elements(values((5000,), np.int32), index(-6000, 6000, (100000,)),
                 0, "min", False, "skip")

det_files.write(out, arg_types, list(zip(body, results)), inputs, expected)
