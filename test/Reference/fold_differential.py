"""Differential test of nd's constant folder against the numpy reference.

Draws random cases of every op, attribute and out-of-bounds mode (seeded),
writes them as one module of functions on constant operands, folds it with
`nd-opt --canonicalize`, and compares every folded result with the
reference's, bit for bit (NaN payloads aside). Cases whose indices are out of
range under oob<error> must instead be rejected by the verifier, naming the
value and the position the reference reports.

Usage: python3 fold_differential.py --nd-opt PATH [--seed N] [--cases N]
                                    [--error-cases N]
Exit status 0 when every case agrees.
"""

import argparse
import os
import subprocess
import sys

import numpy as np

# Run from the source tree: leave no __pycache__ behind.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nd_cases  # noqa: E402
import nd_reference as ref  # noqa: E402


def run_nd_opt(nd_opt, text):
    return subprocess.run(
        [nd_opt, "--canonicalize",
         "--mlir-print-elementsattrs-with-hex-if-larger=0", "-"],
        input=text, capture_output=True, text=True, check=False)


def check_folds(nd_opt, rng, count):
    cases = {}
    for i in range(count):
        op = nd_cases.OPS[i % len(nd_cases.OPS)]
        oob = ref.OOB_MODES[(i // len(nd_cases.OPS)) % len(ref.OOB_MODES)]
        cases[f"case_{i}"] = nd_cases.random_case(rng, op, oob)
    module = "\n\n".join(case.to_mlir(name) for name, case in cases.items())
    result = run_nd_opt(nd_opt, module)
    if result.returncode != 0:
        print(result.stderr[:4000])
        return [f"nd-opt failed on the module of {count} cases"]
    folded = nd_cases.parse_constants(result.stdout, cases)
    failures = []
    for name, case in cases.items():
        expected = case.expected()
        got = folded.get(name)
        if got is None:
            failures.append(f"{name}: not folded: {case}")
        elif not nd_cases.same_values(got, expected):
            failures.append(f"{name}: {case}\n  nd:        {got.tolist()}\n"
                            f"  reference: {expected.tolist()}")
    nd_cases.summarize("folded", cases.values())
    return failures


def check_errors(nd_opt, rng, count):
    failures = []
    checked = 0
    while checked < count:
        op = nd_cases.OPS[checked % len(nd_cases.OPS)]
        case = nd_cases.random_case(rng, op, "error")
        name = "write_indices" if op == "tensor_scatter" else "indices"
        indices = case.array(name)
        if indices is None or indices.size == 0:
            continue
        position = tuple(int(rng.integers(0, d)) for d in indices.shape)
        # Out of range in every mode and dim of these small cases.
        indices[position] = -1000 - int(rng.integers(0, 50)) \
            if op == "tensor_scatter" or rng.random() < 0.5 \
            else 1000 + int(rng.integers(0, 50))
        expected = case.expected()
        if not isinstance(expected, ref.IndexOutOfRange):
            failures.append(f"the reference accepts {case}")
            continue
        checked += 1
        result = run_nd_opt(nd_opt, case.to_mlir("error_case"))
        kind = "write index" if op == "tensor_scatter" else "index"
        where = ", ".join(str(p) for p in expected.position)
        message = (f"{kind} {expected.value} at position [{where}] of "
                   f"operand '{name}' is out of range")
        if result.returncode == 0 or message not in result.stderr:
            failures.append(f"{case}: expected an error containing "
                            f"\"{message}\", got:\n{result.stderr[:1000]}")
    print(f"rejected {count} cases with an index out of range")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nd-opt", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=360)
    parser.add_argument("--error-cases", type=int, default=24)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    failures = check_folds(args.nd_opt, rng, args.cases)
    failures += check_errors(args.nd_opt, rng, args.error_cases)
    return nd_cases.finish(failures)


if __name__ == "__main__":
    sys.exit(main())
