"""Writes the model, inputs and numpy references of
vector-gather-elements.test into the directory argv[1]: gather_elements of
32- and 64-bit elements, which move a vector of positions at a time (read
with a hardware gather) and the last positions of a row one by one, on rows
that are not whole vectors, every kind of axis, every index type and oob
mode, static and dynamic shapes:

  0  f32 data [64, 1000] axis 1 (the last), i64 indices [64, 1000]
  1  f32 data [300, 70] axis 0, i32 indices [500, 70]
  2  f64 data [7, 40, 33] axis 1 (a middle one), i64 indices [7, 50, 33]
  3  i32 data [50, 257] axis 1, i32 indices [40, 300]
  4  f32 data [64, 500] axis 1 oob<skip>, a fifth of the indices out of range
  5  i64 data [64, 500] axis 1 oob<clamp>, a fifth of the indices out of range
  6  f32 data [?, ?] axis 1, i64 indices [?, ?] (the data of 0)
  7  f32 data [32, 100] axis 1, index indices [32, 100]

Indices are drawn from the whole range, negative ones included. expect_N.npy
is numpy's result for output N.
"""

import sys

import numpy as np

sys.dont_write_bytecode = True
import det_files  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(23)

NP = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}
IDX = {"i32": np.int32, "i64": np.int64, "index": np.int64}

args, types, ops, expected = [], [], [], []


def text(shape, dtype, dynamic=False):
    dims = "x".join("?" if dynamic else str(d) for d in shape)
    return f"tensor<{dims}x{dtype}>"


def case(dtype, shape, axis, index_type, index_shape, oob="error",
         dynamic=False, outside=0.0):
    size = shape[axis]
    if np.issubdtype(NP[dtype], np.floating):
        data = rng.standard_normal(shape).astype(NP[dtype])
    else:
        data = rng.integers(-1000, 1000, shape).astype(NP[dtype])
    indices = rng.integers(-size, size, index_shape)
    det_files.push_outside(rng, indices, size, outside)
    indices = indices.astype(IDX[index_type])
    inside, resolved = det_files.resolve(indices, size, oob)
    # Indices may be shorter than data off the axis.
    view = data[tuple(slice(None) if d == axis else slice(0, index_shape[d])
                      for d in range(len(shape)))]
    result = np.take_along_axis(view, resolved, axis)
    if oob == "skip":
        result = np.where(inside, result, 0).astype(data.dtype)
    n = len(args)
    args.extend([data, indices])
    data_type = text(shape, dtype, dynamic)
    index_text = text(index_shape, index_type, dynamic)
    result_type = text(index_shape, dtype, dynamic)
    types.extend([data_type, index_text])
    mode = "" if oob == "error" else f" oob<{oob}>"
    ops.append((f"nd.gather_elements %a{n}[%a{n + 1}] axis({axis}){mode} : "
                f"{data_type}, {index_text} -> {result_type}", result_type))
    expected.append(result)


case("f32", (64, 1000), 1, "i64", (64, 1000))
case("f32", (300, 70), 0, "i32", (500, 70))
case("f64", (7, 40, 33), 1, "i64", (7, 50, 33))
case("i32", (50, 257), 1, "i32", (40, 300))
case("f32", (64, 500), 1, "i64", (64, 500), oob="skip", outside=0.2)
case("i64", (64, 500), 1, "i64", (64, 500), oob="clamp", outside=0.2)
case("f32", (64, 1000), 1, "i64", (64, 1000), dynamic=True)
case("f32", (32, 100), 1, "index", (32, 100))

det_files.write(out, types, ops, args, expected)
