"""Writes the model, inputs and numpy references of streaming-gathers.test
into the directory argv[1]: gathers whose results are large enough (16 MiB
or more) to be written with non-temporal stores, next to ones that are not,
static and dynamic, with duplicate and negative indices:

  0  gather_nd  f32 data [4096, 256],     indices [17000, 1]  -> 17.4 MB, streamed
  1  gather_nd  f32 data [2, 4096, 128],  indices [2, 17000, 1], batch_dims 1
                                                              -> 17.4 MB, streamed
  2  gather_nd  f32 (dynamic) data [?, 256], indices [?, 1]   -> streamed at run time
  3  gather_nd  f32 data [4096, 250],     indices [17000, 1]  -> rows of 1000 bytes:
                                                                 not streamed
  4  gather_nd  oob<skip>, f16 data [4096, 512], indices [17000, 1] with ids out of
                range (zero rows)                             -> 17.4 MB, streamed
  5  gather     f32 data [4096, 256], ids [17000]             -> streamed
  6  gather     f32 data [256, 4096] axis 0 rows of 16 KiB, ids [1100] -> 18 MB, streamed
  7  gather     f32 data [4096, 64],  ids [17000]             -> 4.4 MB, not streamed

expect_N.npy is numpy's result for output N.
"""

import sys

import numpy as np

sys.dont_write_bytecode = True
import det_files  # noqa: E402

out = sys.argv[1]
rng = np.random.default_rng(11)


def ids(n, size, low=None):
    low = -size if low is None else low
    return rng.integers(low, size, n).astype(np.int64)


def table(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


args, types, ops, expected = [], [], [], []


def arg(array, type_text):
    args.append(array)
    types.append(type_text)
    return f"%a{len(args) - 1}"


# 0: rows of 1 KiB.
d0 = table(4096, 256)
i0 = ids(17000, 4096)[:, None]
a, b = arg(d0, "tensor<4096x256xf32>"), arg(i0, "tensor<17000x1xi64>")
ops.append((f"nd.gather_nd {a}[{b}] : tensor<4096x256xf32>, "
            f"tensor<17000x1xi64> -> tensor<17000x256xf32>",
            "tensor<17000x256xf32>"))
expected.append(d0[i0[:, 0] % 4096])

# 1: batch dims.
d1 = table(2, 4096, 128)
i1 = ids(2 * 17000, 4096).reshape(2, 17000, 1)
a, b = arg(d1, "tensor<2x4096x128xf32>"), arg(i1, "tensor<2x17000x1xi64>")
ops.append((f"nd.gather_nd {a}[{b}] batch_dims(1) : tensor<2x4096x128xf32>, "
            f"tensor<2x17000x1xi64> -> tensor<2x17000x128xf32>",
            "tensor<2x17000x128xf32>"))
expected.append(np.stack([d1[n][i1[n, :, 0] % 4096] for n in range(2)]))

# 2: dynamic shapes, the same data as 0.
a, b = arg(d0, "tensor<?x256xf32>"), arg(i0, "tensor<?x1xi64>")
ops.append((f"nd.gather_nd {a}[{b}] : tensor<?x256xf32>, tensor<?x1xi64> "
            f"-> tensor<?x256xf32>", "tensor<?x256xf32>"))
expected.append(d0[i0[:, 0] % 4096])

# 3: rows that are not whole 64-byte vectors.
d3 = table(4096, 250)
a, b = arg(d3, "tensor<4096x250xf32>"), arg(i0, "tensor<17000x1xi64>")
ops.append((f"nd.gather_nd {a}[{b}] : tensor<4096x250xf32>, "
            f"tensor<17000x1xi64> -> tensor<17000x250xf32>",
            "tensor<17000x250xf32>"))
expected.append(d3[i0[:, 0] % 4096])

# 4: oob<skip>, f16, a fifth of the ids out of range.
d4 = table(4096, 512, dtype=np.float16)
i4 = ids(17000, 5120, low=-5120)[:, None]
a, b = arg(d4, "tensor<4096x512xf16>"), arg(i4, "tensor<17000x1xi64>")
ops.append((f"nd.gather_nd {a}[{b}] oob<skip> : tensor<4096x512xf16>, "
            f"tensor<17000x1xi64> -> tensor<17000x512xf16>",
            "tensor<17000x512xf16>"))
inside = (i4[:, 0] >= -4096) & (i4[:, 0] < 4096)
e4 = np.zeros((17000, 512), np.float16)
e4[inside] = d4[i4[inside, 0] % 4096]
expected.append(e4)

def gather_rows(data, indices):
    """An nd.gather of whole rows (axis 0) of `data` at `indices`."""
    rows, cols = data.shape
    data_type = f"tensor<{rows}x{cols}xf32>"
    index_type = f"tensor<{len(indices)}xi64>"
    result_type = f"tensor<{len(indices)}x{cols}xf32>"
    a, b = arg(data, data_type), arg(indices, index_type)
    ops.append((f"nd.gather {a}[{b}] : {data_type}, {index_type} -> "
                f"{result_type}", result_type))
    expected.append(np.take(data, indices, axis=0))


# 5: nd.gather of rows; 6: of long rows; 7: a result below the streaming
# size.
i5 = ids(17000, 4096)
gather_rows(d0, i5)
gather_rows(table(256, 4096), ids(1100, 256))
gather_rows(table(4096, 64), i5)

det_files.write(out, types, ops, args, expected)
