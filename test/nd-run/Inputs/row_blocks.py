"""Writes the model, inputs and numpy references of row-blocks.test into the
directory argv[1]: row scatters with more entries than one batch (2^20) and
than their destination has cache lines, so that their rows form cache-sized
blocks and their entries are bucketed batch by batch:

  0  scatter_nd points, f32 data [600000], indices [1300000, 1], add
  1  scatter_nd points, f32 data [600000], indices [1300000, 1], add,
     oob<skip> (a seventh of the indices out of range)
  2  scatter_nd rows of 4, f32 data [200000, 4], indices [1100000, 1],
     none, oob<clamp>
  3  scatter_elements rank 1, f32 data [600000], indices [1300000], mean
  4  scatter_elements rank 1, f32 data [600000], indices [1300000], mean,
     use_init_val(false)
  5  scatter_nd points, i32 data [300000], indices [1200000, 1], max
  6  scatter_nd points, f32 data [4000000], indices [100000, 1], none (fewer
     entries than lines: owners without blocks)

Duplicates are everywhere. expect_N.npy applies the updates one by one in
row-major order (ufunc.at; the last of duplicates for none; a mean sums in
that order, then divides once), as the specifications do.
"""

import sys

import numpy as np

sys.dont_write_bytecode = True
import det_files  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(31)

args, types, ops, expected = [], [], [], []
MLIR = {np.float32: "f32", np.int32: "i32", np.int64: "i64"}


def ttype(array):
    dims = "".join(f"{d}x" for d in array.shape)
    return f"tensor<{dims}{MLIR[array.dtype.type]}>"


def arg(array):
    args.append(array)
    types.append(ttype(array))
    return f"%a{len(args) - 1}", types[-1]


def values(shape, dtype):
    if dtype == np.float32:
        return rng.standard_normal(shape).astype(np.float32)
    return rng.integers(-1000, 1000, shape).astype(dtype)


def last_wins(out, rows, updates):
    last = len(rows) - 1 - np.unique(rows[::-1], return_index=True)[1]
    out[rows[last]] = updates[last]


def scatter_nd(data, low, high, count, reduction, oob="error"):
    size = data.shape[0]
    indices = rng.integers(low, high, (count, 1)).astype(np.int64)
    updates = values((count,) + data.shape[1:], data.dtype.type)
    keep, rows = det_files.resolve(indices[:, 0], size, oob)
    result = data.copy()
    if reduction == "none":
        last_wins(result, rows[keep], updates[keep])
    else:
        {"add": np.add, "max": np.maximum}[reduction].at(
            result, rows[keep], updates[keep])
    d, dt = arg(data)
    i, it = arg(indices)
    u, ut = arg(updates)
    mode = "" if oob == "error" else f" oob<{oob}>"
    red = "" if reduction == "none" else f" reduction<{reduction}>"
    ops.append((f"nd.scatter_nd {d}[{i}], {u}{red}{mode} : {dt}, {it}, {ut}",
                dt))
    expected.append(result)


def scatter_mean(data, count, use_init_val):
    size = data.shape[0]
    indices = rng.integers(-size, size, count).astype(np.int64)
    updates = values((count,), np.float32)
    rows = indices % size
    sums = data.copy() if use_init_val else np.zeros_like(data)
    np.add.at(sums, rows, updates)
    counts = np.bincount(rows, minlength=size).astype(np.float32)
    if use_init_val:
        result = sums / (counts + np.float32(1))
    else:
        result = np.where(counts > 0, sums / np.maximum(counts, 1), data)
    d, dt = arg(data)
    i, it = arg(indices)
    u, ut = arg(updates)
    init = "" if use_init_val else " use_init_val(false)"
    ops.append((f"nd.scatter_elements {d}[{i}], {u} axis(0) reduction<mean>"
                f"{init} : {dt}, {it}, {ut}", dt))
    expected.append(result.astype(np.float32))


scatter_nd(values((600000,), np.float32), -600000, 600000, 1300000, "add")
scatter_nd(values((600000,), np.float32), -700000, 700000, 1300000, "add",
           "skip")
scatter_nd(values((200000, 4), np.float32), -230000, 230000, 1100000,
           "none", "clamp")
scatter_mean(values((600000,), np.float32), 1300000, True)
scatter_mean(values((600000,), np.float32), 1300000, False)
scatter_nd(values((300000,), np.int32), -300000, 300000, 1200000, "max")
scatter_nd(values((4000000,), np.float32), -4000000, 4000000, 100000, "none")

det_files.write(out, types, ops, args, expected)
