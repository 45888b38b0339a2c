"""Checks that DIR/NAME.back.npy equals DIR/NAME.npy (dtype, shape, values;
NaN equal to NaN) for each NAME in argv[2:]."""

import os
import sys

import numpy as np

directory, names = sys.argv[1], sys.argv[2:]
for name in names:
    original = np.load(os.path.join(directory, name + ".npy"))
    back = np.load(os.path.join(directory, name + ".back.npy"))
    assert original.dtype == back.dtype, (name, original.dtype, back.dtype)
    assert original.shape == back.shape, (name, original.shape, back.shape)
    same_nan = original.dtype.kind in "fc"
    assert np.array_equal(original, back, equal_nan=same_nan), (name, original, back)
print(len(names), "round trips identical")
