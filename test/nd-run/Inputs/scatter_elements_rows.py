"""Writes the model, inputs and numpy references of
scatter-elements-rows.test into the directory argv[1]: scatter_elements of
32- and 64-bit elements along every kind of axis, with duplicate indices
everywhere (many within 16 consecutive positions, the width a vector of
positions would have), on rows that are not whole vectors:

  0  f32 data [64, 1000] axis 1 (the last), none, i64 indices [64, 1000]
     (rows 0-7 all one value: the last update of the row wins)
  1  f32 data [300, 70] axis 0, add, i32 indices [500, 70]
  2  f64 data [7, 40, 33] axis 1 (a middle one), max, i64 indices [7, 50, 33]
  3  i32 data [50, 257] axis 1, none, i32 indices [40, 300]
  4  f32 data [64, 500] axis 0, mul, oob<skip>, a fifth of the indices out
     of range
  5  i64 data [64, 500] axis 1, none, oob<clamp>, a fifth out of range
  6  f32 data [?, ?] axis 0, add, i64 indices [?, ?] (the inputs of 4, in
     range)
  7  f32 data [32, 100] axis 1, none, index indices [32, 100]

expect_N.npy applies the updates one by one in row-major order (ufunc.at;
the last of duplicate positions for none), as the specifications do.
"""

import sys

import numpy as np

sys.dont_write_bytecode = True
import det_files  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(29)

NP = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i64": np.int64}
IDX = {"i32": np.int32, "i64": np.int64, "index": np.int64}
UFUNC = {"add": np.add, "mul": np.multiply, "max": np.maximum}

args, types, ops, expected = [], [], [], []


def text(shape, dtype, dynamic=False):
    dims = "x".join("?" if dynamic else str(d) for d in shape)
    return f"tensor<{dims}x{dtype}>"


def values(dtype, shape):
    if np.issubdtype(NP[dtype], np.floating):
        # Near 1 so that products stay finite.
        return (1 + 0.01 * rng.standard_normal(shape)).astype(NP[dtype])
    return rng.integers(-1000, 1000, shape).astype(NP[dtype])


def case(dtype, shape, axis, reduction, index_type, index_shape, oob="error",
         dynamic=False, outside=0.0, same_rows=0, spread=None):
    size = shape[axis]
    data = values(dtype, shape)
    updates = values(dtype, index_shape)
    span = spread or size
    indices = rng.integers(-span, span, index_shape) % size - \
        size * rng.integers(0, 2, index_shape)
    indices[:same_rows] = rng.integers(0, size)
    det_files.push_outside(rng, indices, size, outside)
    indices = indices.astype(IDX[index_type])
    keep, resolved = det_files.resolve(indices, size, oob)
    # Flat destination of every update position, in row-major order.
    coords = list(np.indices(index_shape))
    coords[axis] = resolved
    flat = np.ravel_multi_index(coords, shape)[keep]
    chosen = updates[keep]
    result = data.copy().reshape(-1)
    if reduction == "none":
        last = len(flat) - 1 - np.unique(flat[::-1], return_index=True)[1]
        result[flat[last]] = chosen[last]
    else:
        UFUNC[reduction].at(result, flat, chosen)
    n = len(args)
    args.extend([data, indices, updates])
    data_type = text(shape, dtype, dynamic)
    index_text = text(index_shape, index_type, dynamic)
    update_text = text(index_shape, dtype, dynamic)
    types.extend([data_type, index_text, update_text])
    mode = "" if oob == "error" else f" oob<{oob}>"
    red = "" if reduction == "none" else f" reduction<{reduction}>"
    ops.append((f"nd.scatter_elements %a{n}[%a{n + 1}], %a{n + 2} "
                f"axis({axis}){red}{mode} : {data_type}, {index_text}, "
                f"{update_text}", data_type))
    expected.append(result.reshape(shape))


case("f32", (64, 1000), 1, "none", "i64", (64, 1000), same_rows=8)
case("f32", (300, 70), 0, "add", "i32", (500, 70), spread=20)
case("f64", (7, 40, 33), 1, "max", "i64", (7, 50, 33), spread=5)
case("i32", (50, 257), 1, "none", "i32", (40, 300), spread=40)
case("f32", (64, 500), 0, "mul", "i64", (64, 500), oob="skip", outside=0.2,
     spread=10)
case("i64", (64, 500), 1, "none", "i64", (64, 500), oob="clamp", outside=0.2)
case("f32", (64, 500), 0, "add", "i64", (64, 500), dynamic=True, spread=10)
case("f32", (32, 100), 1, "none", "index", (32, 100), spread=10)

det_files.write(out, types, ops, args, expected)
