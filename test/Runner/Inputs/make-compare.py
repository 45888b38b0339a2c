"""Writes the .npy pairs of the comparison tests into the directory argv[1]."""

import os
import sys

import numpy as np

out = sys.argv[1]


def save(name, values, dtype):
    np.save(os.path.join(out, name + ".npy"), np.array(values, dtype))


base = [[1.0, 2.0], [3.0, 4.0]]
save("f32", base, np.float32)
save("f32-close", np.array(base) * (1 + 5e-6), np.float32)
save("f32-far", [[1.0, 2.0], [3.5, 4.5]], np.float32)
save("f64", base, np.float64)
save("f32-flat", [1.0, 2.0, 3.0, 4.0], np.float32)
save("nan", [np.nan, 1.0], np.float32)
save("nan-free", [1.0, 1.0], np.float32)
save("inf", [np.inf, 1.0], np.float64)
save("minus-inf", [-np.inf, 1.0], np.float64)
save("zero", [0.0], np.float32)
save("tiny", [5e-7], np.float32)
save("small", [2e-6], np.float32)
save("i32", [1, 2, 3], np.int32)
save("i32-off", [1, 2, 4], np.int32)
# Differ by one, but equal once rounded to double: compared exactly.
save("i64", [2**62, 1], np.int64)
save("i64-off", [2**62 + 1, 1], np.int64)
save("u64", [2**64 - 1], np.uint64)
save("u64-off", [2**64 - 2], np.uint64)
save("bool", [True, False], np.bool_)
save("bool-off", [True, True], np.bool_)
# 1000.5 is one f16 step above 1000: within f16's tolerance, not f32's.
save("f16", [1000.0], np.float16)
save("f16-close", [1000.5], np.float16)
save("f16-far", [1010.0], np.float16)
save("f32-1000", [1000.0], np.float32)
save("f32-1000-close", [1000.5], np.float32)
save("c64", [1 + 2j], np.complex64)
save("c64-off", [1 + 2.5j], np.complex64)
