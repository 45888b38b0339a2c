#!/usr/bin/env python3
"""What nd's out-of-bounds modes and per-element reductions cost: the same
op under oob<error>, oob<skip> and oob<clamp> (every index in range, so that
the three do the same work), and scatter_elements under reduction<add>,
reduction<mean> and use_init_val(false), side by side through nd-run.

    python3 bench/modes.py --nd-run build/bin/nd-run [--threads 1]
                           [--rounds 3] [--runs 15] [--only NAME,...]

Prints, per workload, the median run time of each variant in each round
(rounds alternate the variants, so that a change in the machine's load
touches them alike) and each variant's ratio to the first one, from the
minimum over the rounds. Results are checked against each other: the three
oob modes must give the same bits (no index is out of range).
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debian_python  # noqa: E402

debian_python.ensure(["numpy"])
import numpy as np  # noqa: E402


def workloads(rng):
    """name -> (op template with {mode} or {reduction}, operand types,
    result type, input arrays, variants)."""
    modes = [("error", {"mode": "error"}), ("skip", {"mode": "skip"}),
             ("clamp", {"mode": "clamp"})]
    table = rng.standard_normal((50000, 16)).astype(np.float32)
    ids = rng.integers(-50000, 50000, (200000, 1)).astype(np.int64)
    points = rng.standard_normal((100000,)).astype(np.float32)
    point_ids = rng.integers(-100000, 100000, (1000000, 1)).astype(np.int64)
    point_updates = rng.standard_normal((1000000,)).astype(np.float32)
    matrix = rng.standard_normal((1000, 1000)).astype(np.float32)
    columns = rng.integers(-1000, 1000, (1000, 1000)).astype(np.int64)
    yield ("gather_nd",
           "nd.gather_nd %a0[%a1] oob<{mode}> : tensor<50000x16xf32>, "
           "tensor<200000x1xi64> -> tensor<200000x16xf32>",
           "tensor<200000x16xf32>", [table, ids], modes)
    yield ("scatter_nd_points",
           "nd.scatter_nd %a0[%a1], %a2 reduction<add> oob<{mode}> : "
           "tensor<100000xf32>, tensor<1000000x1xi64>, tensor<1000000xf32>",
           "tensor<100000xf32>", [points, point_ids, point_updates], modes)
    yield ("gather_elements",
           "nd.gather_elements %a0[%a1] axis(1) oob<{mode}> : "
           "tensor<1000x1000xf32>, tensor<1000x1000xi64> -> "
           "tensor<1000x1000xf32>", "tensor<1000x1000xf32>",
           [matrix, columns], modes)
    yield ("scatter_elements",
           "nd.scatter_elements %a0[%a1], %a2 axis(1) reduction<add> "
           "oob<{mode}> : tensor<1000x1000xf32>, tensor<1000x1000xi64>, "
           "tensor<1000x1000xf32>", "tensor<1000x1000xf32>",
           [matrix, columns, matrix[::-1].copy()], modes)
    yield ("scatter_elements_reductions",
           "nd.scatter_elements %a0[%a1], %a2 axis(1) {reduction} : "
           "tensor<1000x1000xf32>, tensor<1000x1000xi64>, "
           "tensor<1000x1000xf32>", "tensor<1000x1000xf32>",
           [matrix, columns, matrix[::-1].copy()],
           [("add", {"reduction": "reduction<add>"}),
            ("add use_init_val(false)",
             {"reduction": "reduction<add> use_init_val(false)"}),
            ("mean", {"reduction": "reduction<mean>"})])


def run(nd_run, directory, op, types, result, inputs, threads, runs, out):
    signature = ", ".join(f"%a{n}: {t}" for n, t in enumerate(types))
    model = os.path.join(directory, "model.mlir")
    with open(model, "w") as f:
        f.write(f"func.func @main({signature}) -> {result} {{\n"
                f"  %r = {op}\n  return %r : {result}\n}}\n")
    os.makedirs(out, exist_ok=True)
    command = [nd_run, model, *inputs, "--bench", str(runs), "--quiet",
               "--threads", str(threads), "--output-dir", out]
    done = subprocess.run(command, capture_output=True, text=True,
                          check=False)
    line = [l for l in done.stdout.splitlines() if l.startswith("run")]
    if done.returncode != 0 or not line:
        sys.exit(f"modes: nd-run failed: {done.stderr[-2000:]}")
    median = re.search(r"median ([0-9.]+) (us|ms|s)\b", line[0])
    scale = {"us": 1e-3, "ms": 1.0, "s": 1e3}[median.group(2)]
    return float(median.group(1)) * scale


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nd-run", required=True)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as directory:
        for name, template, result, arrays, variants in workloads(rng):
            if only and name not in only:
                continue
            types = [re.findall(r"tensor<[^>]*>", template)[n]
                     for n in range(len(arrays))]
            inputs = []
            for n, array in enumerate(arrays):
                inputs.append(os.path.join(directory, f"in_{n}.npy"))
                np.save(inputs[-1], array)
            times = {label: [] for label, _ in variants}
            for _ in range(args.rounds):
                for label, fill in variants:
                    out = os.path.join(directory, label.replace(" ", "_"))
                    times[label].append(run(
                        args.nd_run, directory, template.format(**fill),
                        types, result, inputs, args.threads, args.runs, out))
            if name != "scatter_elements_reductions":
                outputs = [np.load(os.path.join(directory, label,
                                                "output_0.npy"))
                           for label, _ in variants]
                if any(o.tobytes() != outputs[0].tobytes()
                       for o in outputs[1:]):
                    sys.exit(f"modes: {name}: the oob modes disagree")
            first = min(times[variants[0][0]])
            print(f"{name} ({args.threads} thread(s)):")
            for label, _ in variants:
                rounds = ", ".join(f"{t:.2f}" for t in times[label])
                print(f"  {label:26} {rounds} ms; "
                      f"x{min(times[label]) / first:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
