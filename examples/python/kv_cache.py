"""A KV cache of 8 positions of 4 values, updated in place one token at a
time from Python: examples/aot/kv_cache.mlir compiled by nd.compile with the
cache donated, called with numpy arrays. The last token's position is out
of range: nd.Error says where, and the cache is as it was."""

import numpy as np

import nd

append = nd.compile("examples/aot/kv_cache.mlir", function="append",
                    donate=[0])
print("inputs:", append.inputs)
print("outputs:", append.outputs)

cache = np.zeros((8, 4), np.float32)
for position in range(3):
    token = np.full((1, 4), position + 1, np.float32)
    assert append(cache, np.array([[position]]), token) is cache
try:
    append(cache, np.array([[8]]), np.full((1, 4), 9, np.float32))
except nd.Error as error:
    print(f"nd.Error ({error.status}): {error}")
print(cache[:4])
