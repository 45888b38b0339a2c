"""Runs the nd-run command line it is given, then moves one element of the
result nd-run wrote to --output-dir by one unit in the last place (integers
by one): a benchmark that checks nd's results must notice."""

import os
import subprocess
import sys

import numpy as np

argv = sys.argv[1:]
status = subprocess.call(argv)
if status:
    sys.exit(status)
path = os.path.join(argv[argv.index("--output-dir") + 1], "output_0.npy")
result = np.load(path)
flat = result.reshape(-1)
if result.dtype.kind == "f":
    flat[-1] = np.nextafter(flat[-1], result.dtype.type(np.inf))
else:
    flat[-1] += 1
np.save(path, result)
