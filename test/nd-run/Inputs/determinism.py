"""Writes the models, inputs and numpy references of determinism.test into
the directory argv[1], one set per element type: duplicate-heavy scatters
under every reduction, large enough to be split among threads (above the
lowering's grain of 32768 element moves).

The module det.mlir has an @main taking the inputs in_N.npy and returning
one result per scatter, of these kinds (PLAN says which element types and
reductions each runs):
  ScatterND points   data [64],       indices [200000, 1]
  ScatterND narrow   data [4096, 4],  indices [100000, 1]
  ScatterND wide     data [16, 512],  indices [2000, 1]
  ScatterElements    data [512, 300], axis 0 and axis 1
  ScatterElements    data [100],      indices [200000]
expect_N.npy is result N computed with numpy in row-major order of the
entries (the ONNX reference loop), which nd must match at one thread; the
test then requires the results at 2, 3 and 7 threads to be bit-identical to
the one-thread ones. The files `args` and `expected` list
the inputs and the references in order.
"""

import sys

import numpy as np

sys.dont_write_bytecode = True
import det_files  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(7)

TYPES = {
    "f32": np.float32,
    "f16": np.float16,
    "i32": np.int32,
    "i1": np.bool_,
}
# ScatterND/ScatterElements reduction -> numpy ufunc applying it in order.
UFUNCS = {
    "add": np.add,
    "mul": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
    "sub": np.subtract,
}


def values(shape, name):
    if name == "i1":
        return rng.integers(0, 2, shape).astype(np.bool_)
    if name == "i32":
        return rng.integers(-1000, 1000, shape).astype(np.int32)
    # Near 1, so that long products and sums of floats stay finite but
    # still round differently in every order.
    return (1 + rng.standard_normal(shape) / 64).astype(TYPES[name])


def apply(out_array, index, update, reduction, name):
    """out[index] (op)= update, entry by entry in order."""
    if reduction == "none":
        for i, u in zip(index, update):
            out_array[i] = u
        return
    ufunc = UFUNCS[reduction]
    if name == "i1":
        ufunc = {"add": np.logical_or, "max": np.logical_or,
                 "sub": np.logical_xor}.get(reduction, np.logical_and)
    ufunc.at(out_array, index, update)


def ttype(shape, name):
    return "tensor<" + "".join(f"{d}x" for d in shape) + name + ">"


# Which reductions each element type runs on each kind of scatter: every
# reduction somewhere for f32, the common ones for the other types (`sub`
# exists on ScatterND only).
PLAN = {
    "f32": {"points": ["none", "add", "mul", "max", "min", "sub"],
            "narrow": ["add", "sub"], "wide": ["add"], "axis0": ["add"],
            "axis1": ["none"], "rank1": ["max"]},
    "f16": {"points": ["add", "max"], "wide": ["add", "sub"],
            "axis1": ["add"]},
    "i32": {"points": ["add", "mul", "min"], "narrow": ["none"],
            "axis0": ["add"]},
    "i1": {"points": ["none", "add", "mul", "sub"], "axis1": ["add"]},
}

inputs, arg_types, results, body = [], [], [], []


def arg(array, mlir_name):
    inputs.append(array)
    arg_types.append(ttype(array.shape, mlir_name))
    return f"%a{len(inputs) - 1}", arg_types[-1]


def scatter(op, expected, dt):
    results.append((expected, dt))
    body.append(op)


def scatter_nd(name, data, indices, updates, reductions):
    d, dt = arg(data, name)
    i, it = arg(indices, "i64")
    u, ut = arg(updates, name)
    rows = data.shape[0]
    norm = np.where(indices[:, 0] < 0, indices[:, 0] + rows, indices[:, 0])
    for reduction in reductions:
        expected = data.copy()
        apply(expected, norm, updates, reduction, name)
        scatter(f"nd.scatter_nd {d}[{i}], {u} reduction<{reduction}> : "
                f"{dt}, {it}, {ut}", expected, dt)


def scatter_elements(name, data, indices, updates, axis, reductions):
    d, dt = arg(data, name)
    i, it = arg(indices, "i32" if indices.dtype == np.int32 else "i64")
    u, ut = arg(updates, name)
    target = list(np.indices(indices.shape))
    size = data.shape[axis]
    target[axis] = np.where(indices < 0, indices + size, indices)
    flat = np.ravel_multi_index(tuple(t.ravel() for t in target), data.shape)
    for reduction in reductions:
        expected = data.copy()
        apply(expected.reshape(-1), flat, updates.ravel(), reduction, name)
        scatter(f"nd.scatter_elements {d}[{i}], {u} axis({axis}) "
                f"reduction<{reduction}> : {dt}, {it}, {ut}", expected, dt)


for name, plan in PLAN.items():
    for kind, reductions in plan.items():
        if kind == "points":
            # k == rank: 200000 entries into 64 elements.
            scatter_nd(name, values((64,), name),
                       rng.integers(-64, 64, (200000, 1)).astype(np.int64),
                       values((200000,), name), reductions)
        elif kind == "narrow":
            # Slices of 4: row owners.
            scatter_nd(name, values((4096, 4), name),
                       rng.integers(-300, 300, (100000, 1)).astype(np.int64),
                       values((100000, 4), name), reductions)
        elif kind == "wide":
            # Slices of 512: column partitions.
            scatter_nd(name, values((16, 512), name),
                       rng.integers(-16, 16, (2000, 1)).astype(np.int64),
                       values((2000, 512), name), reductions)
        elif kind in ("axis0", "axis1"):
            # Both axes of [512, 300], heavily duplicated.
            axis = int(kind[-1])
            shape = (400, 300) if axis == 0 else (512, 250)
            scatter_elements(name, values((512, 300), name),
                             rng.integers(-40, 40, shape).astype(np.int32),
                             values(shape, name), axis, reductions)
        else:
            # Rank 1: row owners along the axis.
            scatter_elements(name, values((100,), name),
                             rng.integers(-100, 100, (200000,)).astype(np.int64),
                             values((200000,), name), 0, reductions)

det_files.write(out, arg_types,
                [(op, dt) for op, (_, dt) in zip(body, results)], inputs,
                [expected for expected, _ in results])
