"""Writes the files of a determinism test into a directory: det.mlir (an
@main taking the inputs and returning one result per op), in_N.npy,
expect_N.npy, and `args` and `expected`, which list the inputs and the
references in order."""

import os

import numpy as np


def write(out, arg_types, ops, inputs, expected):
    """`ops` is a list of (op text, result type); `expected` the arrays."""
    result_types = ", ".join(t for _, t in ops)
    with open(os.path.join(out, "det.mlir"), "w") as f:
        signature = ", ".join(f"%a{n}: {t}" for n, t in enumerate(arg_types))
        f.write(f"func.func @main({signature}) -> ({result_types}) {{\n")
        for n, (op, _) in enumerate(ops):
            f.write(f"  %r{n} = {op}\n")
        names = ", ".join(f"%r{n}" for n in range(len(ops)))
        f.write(f"  return {names} : {result_types}\n}}\n")
    for n, array in enumerate(inputs):
        np.save(os.path.join(out, f"in_{n}.npy"), array)
    for n, array in enumerate(expected):
        np.save(os.path.join(out, f"expect_{n}.npy"), array)
    with open(os.path.join(out, "args"), "w") as f:
        f.write(" ".join(os.path.join(out, f"in_{n}.npy")
                         for n in range(len(inputs))))
    with open(os.path.join(out, "expected"), "w") as f:
        f.write(" ".join(os.path.join(out, f"expect_{n}.npy")
                         for n in range(len(expected))))
