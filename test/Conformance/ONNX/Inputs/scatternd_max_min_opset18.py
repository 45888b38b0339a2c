# Writes the inputs and expected outputs of the ONNX ScatterND-18 spec
# examples "_scatternd_max" and "_scatternd_min" (values copied from the
# operator's documentation) as .npy files named <prefix>.<name>.npy.
#
# The documentation's "Expecting output" comments of these examples (and of
# "_scatternd_add" / "_scatternd_multiply") show updates[1] in slice 2, which
# indices [[0], [0]] never touch: by the spec's own formula slice 2 keeps
# data[2], as the reference implementation and ONNX's generated test data for
# add and multiply do. Slices 0, 1 and 3 are copied from the comments; slice 2
# is data[2].
import sys

import numpy as np

prefix = sys.argv[1]
data = [[[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
        [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
        [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]],
        [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]]
indices = [[0], [0]]
updates = [[[5, 5, 5, 5], [6, 6, 6, 6], [7, 7, 7, 7], [8, 8, 8, 8]],
           [[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 4, 4, 4]]]
expected_max = [[[5, 5, 5, 5], [6, 6, 7, 8], [8, 7, 7, 7], [8, 8, 8, 8]],
                [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
                data[2],
                [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]]
expected_min = [[[1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3], [4, 3, 2, 1]],
                [[1, 2, 3, 4], [5, 6, 7, 8], [8, 7, 6, 5], [4, 3, 2, 1]],
                data[2],
                [[8, 7, 6, 5], [4, 3, 2, 1], [1, 2, 3, 4], [5, 6, 7, 8]]]
for name, value, dtype in [("data", data, np.float32),
                           ("indices", indices, np.int64),
                           ("updates", updates, np.float32),
                           ("max", expected_max, np.float32),
                           ("min", expected_min, np.float32)]:
    np.save(prefix + "." + name + ".npy", np.array(value, dtype=dtype))
