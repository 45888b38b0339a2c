#!/usr/bin/env python3
"""What a call of nd's Python package costs beside numpy's and PyTorch's, on
calls so small that the call is all there is, and what `out=` saves on a
large one.

    python3 bench/call_overhead.py            # tens of seconds
    python3 bench/call_overhead.py --quick    # seconds: check-nd runs it
    python3 bench/call_overhead.py --json figures.json

Tiny calls: a GatherElements of f32[4, 5] by i64[4, 2] along axis 1, made
by nd (a plain `module(data, idx)` call with numpy arrays, a call bound once
with `Module.bind` and run, a plain call with torch CPU tensors and one
bound to them), numpy
(`np.take_along_axis`) and PyTorch (`torch.gather`). Each figure is the
median, over --repeats runs, of a run's time per call (--calls calls in a
loop, after a warm-up run).

out=: a gather of 32 MiB (rows of an f32[65536, 128] table by 65536 ids, a
permutation) with nd, without `out=` (nd's buffer, reused from call to
call by nd's allocator) and with `out=` (a numpy array made once, which the
generated code computes into), beside numpy's `np.take(..., out=)` and
`torch.index_select(..., out=)`; medians of --repeats calls after one
warm-up call, at --threads threads for nd.

Results are checked against numpy before anything is timed (a wrong one ends
the run with status 1). No figure is a pass or a failure: this measures,
and says where it ran.
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import debian_python  # noqa: E402

TINY = """
func.func @main(%data: tensor<4x5xf32>, %idx: tensor<4x2xi64>)
    -> tensor<4x2xf32> {
  %r = nd.gather_elements %data[%idx] axis(1)
      : tensor<4x5xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
"""

ROWS = """
func.func @main(%data: tensor<?x?xf32>, %ids: tensor<?xi64>)
    -> tensor<?x?xf32> {
  %r = nd.gather %data[%ids] : tensor<?x?xf32>, tensor<?xi64>
      -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""


def die(message):
    print(f"call_overhead: error: {message}", file=sys.stderr)
    sys.exit(1)


def per_call(function, calls, repeats):
    """The median over `repeats` runs of a run's seconds per call."""
    for _ in range(calls):
        function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(calls):
            function()
        times.append((time.perf_counter() - start) / calls)
    return statistics.median(times)


def import_nd():
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import nd
    return nd


def tiny_calls(nd, np, torch, args, cache):
    """[(name, seconds per call)] of the tiny calls."""
    module = nd.compile(TINY, cache_dir=cache, entry="call_overhead_tiny")
    rng = np.random.default_rng(7)
    data = rng.standard_normal((4, 5)).astype(np.float32)
    idx = rng.integers(0, 5, (4, 2))
    expected = np.take_along_axis(data, idx, 1)
    bound = module.bind(data, idx)
    checks = [module(data, idx), bound()]
    candidates = [("nd module(numpy)", lambda: module(data, idx)),
                  ("nd bind()()", bound)]
    if torch is not None:
        t_data, t_idx = torch.from_numpy(data), torch.from_numpy(idx)
        checks += [module(t_data, t_idx).numpy(),
                   torch.gather(t_data, 1, t_idx).numpy()]
        bound_torch = module.bind(t_data, t_idx)
        checks.append(bound_torch().numpy())
        candidates += [("nd module(torch)", lambda: module(t_data, t_idx)),
                       ("nd bind(torch)()", bound_torch)]
    candidates.append(("numpy take_along_axis",
                       lambda: np.take_along_axis(data, idx, 1)))
    if torch is not None:
        candidates.append(("torch gather",
                           lambda: torch.gather(t_data, 1, t_idx)))
    for got in checks:
        if not np.array_equal(got, expected):
            die("a tiny call gave another result than numpy's")
    return [(name, per_call(f, args.calls, args.repeats))
            for name, f in candidates]


def median_seconds(function, repeats):
    function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def out_calls(nd, np, torch, args, cache):
    """[(name, seconds per call, copies)] of the large gather."""
    module = nd.compile(ROWS, cache_dir=cache, entry="call_overhead_rows")
    rows, cols = args.rows, 128
    rng = np.random.default_rng(11)
    data = rng.standard_normal((rows, cols)).astype(np.float32)
    ids = rng.permutation(rows).astype(np.int64)
    out = np.empty((rows, cols), np.float32)
    expected = data[ids]
    threads = args.threads
    plain = module.bind(data, ids, threads=threads)
    into = module.bind(data, ids, out=out, threads=threads)
    if not np.array_equal(plain(), expected) or \
            not np.array_equal(into(), expected) or \
            not np.array_equal(module(data, ids, out=out, threads=threads),
                               expected):
        die("the large gather gave another result than numpy's")
    figures = [
        ("nd module(data, ids)",
         median_seconds(lambda: module(data, ids, threads=threads),
                        args.repeats), None),
        ("nd module(data, ids, out=out)",
         median_seconds(lambda: module(data, ids, out=out, threads=threads),
                        args.repeats), into.copied_outputs),
        ("numpy take(data, ids, axis=0)",
         median_seconds(lambda: np.take(data, ids, axis=0), args.repeats),
         None),
        ("numpy take(..., out=out)",
         median_seconds(lambda: np.take(data, ids, axis=0, out=out),
                        args.repeats), None)]
    if torch is not None:
        t_data, t_ids = torch.from_numpy(data), torch.from_numpy(ids)
        t_out = torch.from_numpy(out)
        figures += [
            ("torch index_select",
             median_seconds(lambda: torch.index_select(t_data, 0, t_ids),
                            args.repeats), None),
            ("torch index_select(..., out=)",
             median_seconds(lambda: torch.index_select(t_data, 0, t_ids,
                                                       out=t_out),
                            args.repeats), None)]
    return figures


def print_tables(tiny, large, args, torch):
    figures = dict(tiny)
    bind = figures["nd bind()()"]
    # A plain call beside a bound one of the same kind of inputs.
    same = {"nd module(numpy)": bind, "nd bind()()": bind,
            "nd module(torch)": figures.get("nd bind(torch)()"),
            "nd bind(torch)()": figures.get("nd bind(torch)()")}
    print(f"Tiny calls: GatherElements of f32[4, 5] by i64[4, 2], axis 1; "
          f"median of {args.repeats} runs of {args.calls} calls")
    print("| call | us per call | / nd bind()() | / nd bind of the same "
          "inputs |")
    print("|---|---:|---:|---:|")
    for name, seconds in tiny:
        base = same.get(name)
        ratio = f"{seconds / base:.2f}" if base else ""
        print(f"| {name} | {seconds * 1e6:.2f} | {seconds / bind:.2f} | "
              f"{ratio} |")
    base = large[0][1]
    mib = args.rows * 128 * 4 / 2 ** 20
    print()
    print(f"A gather of {mib:g} MiB (rows of f32[{args.rows}, 128] by "
          f"{args.rows} ids); median of {args.repeats} calls; nd at "
          f"{args.threads} thread(s), numpy and torch at their defaults")
    print("| call | ms | / nd without out= |")
    print("|---|---:|---:|")
    for name, seconds, copies in large:
        note = "" if copies is None else f" (outputs copied: {copies})"
        print(f"| {name}{note} | {seconds * 1e3:.2f} | "
              f"{seconds / base:.2f} |")
    print()
    print(f"Where: {platform.node()}, {platform.processor() or 'cpu'}, "
          f"{os.cpu_count()} cores, load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}; python "
          f"{platform.python_version()}, numpy {args.numpy_version}"
          + (f", torch {torch.__version__}" if torch is not None else
             ", no torch"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="few calls and a 1 MiB gather: proves the "
                             "script runs (check-nd), measures nothing")
    parser.add_argument("--calls", type=int, default=None,
                        help="calls per timed run of a tiny call "
                             "(default 20000; --quick 50)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed runs (default 9; --quick 2)")
    parser.add_argument("--threads", type=int, default=1,
                        help="nd's threads for the large gather (default 1)")
    parser.add_argument("--cache-dir", default=None,
                        help="nd.compile's cache (default: nd's)")
    parser.add_argument("--json", default=None,
                        help="also write the figures to this file")
    args = parser.parse_args()
    args.calls = args.calls or (50 if args.quick else 20000)
    args.repeats = args.repeats or (2 if args.quick else 9)
    args.rows = 2048 if args.quick else 65536
    if args.calls < 1 or args.repeats < 1 or args.threads < 0:
        die("--calls and --repeats take 1 or more, --threads 0 or more")

    debian_python.ensure(["numpy"])
    import numpy as np
    try:
        import torch
    except ImportError:
        torch = None
    args.numpy_version = np.__version__
    nd = import_nd()
    tiny = tiny_calls(nd, np, torch, args, args.cache_dir)
    large = out_calls(nd, np, torch, args, args.cache_dir)
    print_tables(tiny, large, args, torch)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tiny_us": {n: s * 1e6 for n, s in tiny},
                       "gather_ms": {n: s * 1e3 for n, s, _ in large},
                       "quick": args.quick}, f, indent=1)


if __name__ == "__main__":
    main()
