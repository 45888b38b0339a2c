"""Imports nd from an installed prefix (the folder given first) with no
environment variable to lead it (test/Package/install.test runs it under
`env -i`), and prints where it found itself and its tools, and what a call
of a model it compiled gives. Expected values worked by hand: rows 2 and -3
of [10, 20, 30] are 30 and 10."""

import sys

sys.path.insert(0, sys.argv[1])

import numpy as np  # noqa: E402

import nd  # noqa: E402
from nd import _runtime  # noqa: E402

print("package:", nd.__file__)
print("runtime:", _runtime.runtime().path)
print("compiler:", _runtime.compiler_path())
module = nd.compile("""
func.func @main(%d: tensor<3xi32>, %i: tensor<2xi64>) -> tensor<2xi32> {
  %r = nd.gather %d[%i] : tensor<3xi32>, tensor<2xi64> -> tensor<2xi32>
  return %r : tensor<2xi32>
}""", cache_dir=sys.argv[2])
print("call:", module(np.array([10, 20, 30], np.int32), np.array([2, -3])))
