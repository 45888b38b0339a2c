"""Differential test of nd's compiled code against the numpy reference.

Draws random cases (seeded) like fold_differential.py, runs each through
`nd-run` on .npy inputs (so that no folding can happen: the operands are
function arguments), and compares the results with the reference's bit for
bit; a case with an index out of range under oob<error> must stop with the
run-time error naming the value. Every op, oob mode, reduction and
use_init_val is drawn, with static shapes, or with a dim of size 0 that is
static (`--shapes empty`) or dynamic, 0 only at run time (`--shapes
dynamic-empty`); `--shapes all` takes turns.

Usage: python3 run_differential.py --nd-run PATH [--seed N] [--cases N]
                                   [--shapes static|empty|dynamic-empty|all]
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

# Run from the source tree: leave no __pycache__ behind.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nd_cases  # noqa: E402
import nd_reference as ref  # noqa: E402


def draw(rng, index, shapes):
    """A random case of `shapes`; every fifth one with an index out of
    range."""
    while True:
        op = nd_cases.OPS[index % len(nd_cases.OPS)]
        case = nd_cases.random_shaped_case(rng, op, shapes)
        if index % 5 == 4:
            name = "write_indices" if op == "tensor_scatter" else "indices"
            indices = case.array(name)
            if indices is None or indices.size == 0:
                continue
            position = tuple(int(rng.integers(0, d)) for d in indices.shape)
            indices[position] = -1000 - int(rng.integers(0, 50))
        return case


def run_case(nd_run, case, directory):
    model, inputs = case.write_run_files(directory)
    output_dir = os.path.join(directory, "out")
    os.makedirs(output_dir, exist_ok=True)
    result = subprocess.run([nd_run, model, *inputs, "--output-dir",
                             output_dir, "--quiet"], capture_output=True,
                            text=True, check=False)
    expected = case.expected()
    if isinstance(expected, ref.IndexOutOfRange):
        if result.returncode == 0 or f"index {expected.value}" not in result.stderr:
            return f"expected an index error for {expected.value}, got " \
                   f"status {result.returncode}: {result.stderr[:500]}"
        return None
    if result.returncode != 0:
        return f"nd-run failed: {result.stderr[:1000]}"
    got = np.load(os.path.join(output_dir, "output_0.npy"))
    if not nd_cases.same_values(got, expected):
        return f"nd:        {got.tolist()}\n  reference: {expected.tolist()}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nd-run", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=40)
    parser.add_argument("--shapes", default="static",
                        choices=nd_cases.SHAPES + ("all",))
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    failures = []
    kinds = nd_cases.SHAPES if args.shapes == "all" else (args.shapes,)
    ops = len(nd_cases.OPS)
    cases = [draw(rng, i, kinds[(i // ops) % len(kinds)])
             for i in range(args.cases)]
    with tempfile.TemporaryDirectory() as directory:
        for case in cases:
            failure = run_case(args.nd_run, case, directory)
            if failure:
                failures.append(f"{case}\n  {failure}")
    nd_cases.summarize("ran", cases,
                       None if args.shapes == "static" else args.shapes)
    return nd_cases.finish(failures)


if __name__ == "__main__":
    sys.exit(main())
