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


def push_outside(rng, indices, size, fraction):
    """Moves about `fraction` of `indices` (in place) out of `[-size, size)`,
    to either side."""
    far = rng.random(indices.shape) < fraction
    indices[far] = rng.integers(size, 3 * size, far.sum()) * \
        rng.choice([-1, 1], far.sum())


def resolve(indices, size, oob):
    """(the entries that take effect, the positions they address) of raw
    `indices` for a dim of `size` under an oob mode: under clamp every entry,
    clamped into range after normalising negative values; otherwise those in
    `[-size, size)`, normalised (the others address 0)."""
    if oob == "clamp":
        rows = np.clip(np.where(indices < 0, indices + size, indices), 0,
                       size - 1)
        return np.ones(indices.shape, bool), rows
    inside = (indices >= -size) & (indices < size)
    return inside, np.where(inside, indices % size, 0)
