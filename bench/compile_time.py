#!/usr/bin/env python3
"""Compile time of nd's pipeline against the number of nd ops in a module.

Generates modules of N nd ops of one kind (scatter_nd, gather_nd,
scatter_elements, gather_elements, a mix of the four, or mixed-dynamic: the
four on static data, then the four on data with a dynamic dim, in turn) in
one function,
either independent (every op on the function's arguments, every result
returned) or chained (each op on the previous op's result), and times

- `nd-opt MODULE --nd-to-llvm -o /dev/null` (wall time of the process,
  start-up included, and its peak memory; `--flags` changes the flags), and
- nd-run's JIT compile of the same module (`nd-run --bench 1` prints it:
  import, nd-to-llvm, LLVM's code generation),

then prints seconds per size and the growth from one size to the next
against the growth of N: a linear pipeline gives ratios near 1.

    python3 bench/compile_time.py                      # 1, 1k, 3k, 10k ops
    python3 bench/compile_time.py --sizes 1,1000 --kinds scatter_nd --shapes chain
    python3 bench/compile_time.py --tiny               # seconds; check-nd runs it

The op shapes are those of a small layer: data tensor<8x16xf32>, scatter_nd
indices tensor<4x1xi64> and updates tensor<4x16xf32>, scatter_elements
indices and updates tensor<4x16>, gathers of 8 rows (so that a chain of
gathers keeps data's type).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debian_python  # noqa: E402

KINDS = ["scatter_nd", "gather_nd", "scatter_elements", "gather_elements"]
DATA = "tensor<8x16xf32>"

# Operands of the function: data, then the index and update tensors of every
# kind (a module takes only those its ops use).
ARGS = {
    "nd_indices": "tensor<4x1xi64>",
    "nd_updates": "tensor<4x16xf32>",
    "gnd_indices": "tensor<8x1xi64>",
    "el_indices": "tensor<4x16xi64>",
    "el_updates": "tensor<4x16xf32>",
    "gel_indices": "tensor<8x16xi64>",
}
USES = {
    "scatter_nd": ["nd_indices", "nd_updates"],
    "gather_nd": ["gnd_indices"],
    "scatter_elements": ["el_indices", "el_updates"],
    "gather_elements": ["gel_indices"],
}


DYNAMIC_DATA = "tensor<?x16xf32>"


def op_text(kind, result, data, data_type=DATA, indices=None):
    """One nd op of `kind` on `data`, defining `result` (both of type
    `data_type`: DATA, or DYNAMIC_DATA for the dynamic ops of
    mixed-dynamic); `indices` names its index operand (default: the
    function's argument)."""
    t = data_type
    i = indices or "%" + USES[kind][0]
    if kind == "scatter_nd":
        return (f"  {result} = nd.scatter_nd {data}[{i}], %nd_updates"
                f" : {t}, {ARGS['nd_indices']}, {ARGS['nd_updates']}\n")
    if kind == "gather_nd":
        return (f"  {result} = nd.gather_nd {data}[{i}]"
                f" : {t}, {ARGS['gnd_indices']} -> {t}\n")
    if kind == "scatter_elements":
        return (f"  {result} = nd.scatter_elements {data}[{i}],"
                f" %el_updates axis(0)"
                f" : {t}, {ARGS['el_indices']}, {ARGS['el_updates']}\n")
    if kind == "gather_elements":
        return (f"  {result} = nd.gather_elements {data}[{i}] axis(0)"
                f" : {t}, {ARGS['gel_indices']} -> {t}\n")
    raise ValueError(kind)


def kinds_of(kind):
    return KINDS if kind.startswith("mixed") else [kind]


def distinct_rows(n, count=4, size=8):
    """`count` distinct row numbers of [0, size), some negative: a
    different list for every n below 8*7*6*5 * 2^count."""
    free = list(range(size))
    rows = []
    for _ in range(count):
        rows.append(free.pop(n % len(free)))
        n //= len(free) + 1
    return [r - size if (n >> j) & 1 else r for j, r in enumerate(rows)]


def base16(n, length):
    """`length` index values in [-8, 8): the base-16 digits of n."""
    values = []
    for _ in range(length):
        values.append(n % 16 - 8)
        n //= 16
    return values


def constant_indices(name, n):
    """A constant index tensor for argument `name`, different for each n
    (independent ops: identical ops would be one op after CSE)."""
    if name == "nd_indices":
        rows = distinct_rows(n)
        return "[" + ", ".join(f"[{r}]" for r in rows) + "]"
    if name == "gnd_indices":
        return "[" + ", ".join(f"[{v}]" for v in base16(n, 8)) + "]"
    if name == "el_indices":
        columns = [distinct_rows(n if c == 0 else c) for c in range(16)]
        return "[" + ", ".join(
            "[" + ", ".join(str(columns[c][r]) for c in range(16)) + "]"
            for r in range(4)) + "]"
    if name == "gel_indices":
        digits = base16(n, 128)
        return "[" + ", ".join(
            "[" + ", ".join(str(digits[r * 16 + c]) for c in range(16)) + "]"
            for r in range(8)) + "]"
    raise ValueError(name)


def module_text(kind, count, shape):
    """A module with @main holding `count` ops of `kind` ("mixed" cycles
    through the four, "mixed-dynamic" through the four static and the four
    dynamic), independent or chained."""
    kinds = kinds_of(kind)
    # mixed-dynamic: the four kinds on static data, then on data of a
    # dynamic dim (a tensor.cast on each side), in turn.
    dynamic_every = len(kinds) if kind == "mixed-dynamic" else 0
    args = ["%data"]
    arg_types = [DATA]
    for k in kinds:
        for name in USES[k]:
            args.append("%" + name)
            arg_types.append(ARGS[name])
    signature = ", ".join(f"{a}: {t}" for a, t in zip(args, arg_types))
    body = []
    results = []
    previous = "%data"
    for i in range(count):
        result = f"%r{i}"
        data = previous if shape == "chain" else "%data"
        op_kind = kinds[i % len(kinds)]
        indices = None
        if shape == "independent":
            # Each op its own constant indices, so that no two ops are the
            # same op to CSE.
            name = USES[op_kind][0]
            literal = constant_indices(name, i // len(kinds))
            indices = f"%k{i}"
            body.append(f"  {indices} = arith.constant dense<{literal}> : "
                        f"{ARGS[name]}\n")
        if dynamic_every and (i // dynamic_every) % 2 == 1:
            body.append(f"  %d{i} = tensor.cast {data} : {DATA} to "
                        f"{DYNAMIC_DATA}\n")
            body.append(op_text(op_kind, f"%y{i}", f"%d{i}", DYNAMIC_DATA,
                                indices))
            body.append(f"  {result} = tensor.cast %y{i} : {DYNAMIC_DATA} "
                        f"to {DATA}\n")
        else:
            body.append(op_text(op_kind, result, data, DATA, indices))
        previous = result
        results.append(result)
    returned = [previous] if shape == "chain" else results
    result_types = ", ".join([DATA] * len(returned))
    return (f"func.func @main({signature}) -> ({result_types}) {{\n"
            + "".join(body) + f"  return {', '.join(returned)} : "
            f"{result_types}\n}}\n")


def write_inputs(directory, kind):
    """The .npy inputs of @main for nd-run, in argument order: valid
    indices, so that the compiled code runs to its end."""
    import numpy as np  # only for nd-run's inputs (see main)
    rng = np.random.default_rng(0)
    values = {
        "data": rng.standard_normal((8, 16)).astype(np.float32),
        "nd_indices": np.array([[1], [3], [5], [7]], dtype=np.int64),
        "nd_updates": rng.standard_normal((4, 16)).astype(np.float32),
        "gnd_indices": rng.integers(0, 8, (8, 1)).astype(np.int64),
        "el_indices": np.stack([rng.permutation(8)[:4] for _ in range(16)],
                               axis=1).astype(np.int64),
        "el_updates": rng.standard_normal((4, 16)).astype(np.float32),
        "gel_indices": rng.integers(0, 8, (8, 16)).astype(np.int64),
    }
    names = ["data"] + [n for k in kinds_of(kind) for n in USES[k]]
    paths = []
    for name in names:
        path = os.path.join(directory, name + ".npy")
        np.save(path, values[name])
        paths.append(path)
    return paths


def run_timed(command, timeout):
    """(wall seconds, peak RSS in MB, stdout) of `command`; None for the
    figures when it failed or ran past `timeout`."""
    with tempfile.TemporaryFile("w+") as out, \
            tempfile.TemporaryFile("w+") as err:
        start = time.monotonic()
        process = subprocess.Popen(command, stdout=out, stderr=err)
        # wait4 gives this child's own peak memory.
        while True:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > timeout:
                process.kill()
                os.wait4(process.pid, 0)
                return None, None, "timeout"
            time.sleep(0.002)
        wall = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            sys.stderr.write(err.read())
            return None, None, "exit status %d" % process.returncode
        return wall, usage.ru_maxrss / 1024, out.read()


def nd_opt_time(nd_opt, flags, path, timeout):
    return run_timed([nd_opt, path] + flags + ["-o", os.devnull], timeout)


def nd_run_compile_time(nd_run, path, inputs, timeout):
    wall, _, out = run_timed([nd_run, path] + inputs +
                             ["--bench", "1", "--quiet", "--threads", "1"],
                             timeout)
    if wall is None:
        return None, out
    match = re.search(r"compile: ([0-9.]+) (us|ms|s)\b", out)
    if not match:
        return None, "no compile time in nd-run's output"
    scale = {"us": 1e-6, "ms": 1e-3, "s": 1.0}[match.group(2)]
    return float(match.group(1)) * scale, "ok"


def fmt(seconds):
    if seconds is None:
        return "-"
    return f"{seconds:.3f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1,1000,3000,10000",
                        help="numbers of ops (comma-separated)")
    parser.add_argument("--jit-sizes", default="1,1000",
                        help="numbers of ops for nd-run's JIT compile")
    parser.add_argument("--kinds",
                        default=",".join(KINDS + ["mixed", "mixed-dynamic"]))
    parser.add_argument("--shapes", default="independent,chain")
    parser.add_argument("--nd-opt", default=None)
    parser.add_argument("--flags", default="--nd-to-llvm",
                        help="nd-opt's flags (space-separated)")
    parser.add_argument("--nd-run", default=None)
    parser.add_argument("--timeout", type=float, default=600,
                        help="seconds one command may take")
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--tiny", action="store_true",
                        help="1 and 10 ops, JIT of 10 ops: shows the script "
                        "works (no timing is asserted)")
    options = parser.parse_args()
    if options.tiny:
        options.sizes, options.jit_sizes = "1,10", "10"

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    nd_opt = options.nd_opt or os.path.join(root, "build", "bin", "nd-opt")
    nd_run = options.nd_run or os.path.join(root, "build", "bin", "nd-run")
    for tool in (nd_opt, nd_run):
        if not shutil.which(tool):
            sys.exit(f"compile_time.py: cannot run '{tool}' (build nd first "
                     "or pass --nd-opt/--nd-run)")
    def counts(flag, text):
        try:
            values = [int(s) for s in text.split(",") if s]
        except ValueError:
            values = [0]
        if any(v < 1 for v in values):
            sys.exit(f"compile_time.py: {flag} takes numbers of ops of 1 or "
                     f"more, comma-separated (got '{text}'; an empty list "
                     "skips them)")
        return values

    sizes = counts("--sizes", options.sizes)
    jit_sizes = counts("--jit-sizes", options.jit_sizes)
    if jit_sizes:
        debian_python.ensure(["numpy"])
    kinds = [k for k in options.kinds.split(",") if k]
    shapes = [s for s in options.shapes.split(",") if s]
    for k in kinds:
        if k not in KINDS + ["mixed", "mixed-dynamic"]:
            sys.exit(f"compile_time.py: unknown kind '{k}'")
    for s in shapes:
        if s not in ("independent", "chain"):
            sys.exit(f"compile_time.py: unknown shape '{s}'")

    workdir = options.workdir or tempfile.mkdtemp(prefix="nd-compile-time-")
    os.makedirs(workdir, exist_ok=True)
    failed = False
    print(f"nd-opt {options.flags}: wall seconds (process start included), "
          "peak MB; growth = time ratio / size ratio (1: linear)")
    print("| kind | shape | " + " | ".join(f"{n} ops" for n in sizes) +
          " | growth |")
    print("|---|---|" + "---|" * (len(sizes) + 1))
    for kind in kinds:
        for shape in shapes:
            cells, times = [], []
            for n in sizes:
                path = os.path.join(workdir, f"{kind}-{shape}-{n}.mlir")
                with open(path, "w") as f:
                    f.write(module_text(kind, n, shape))
                wall, rss, status = nd_opt_time(nd_opt, options.flags.split(),
                                                path, options.timeout)
                if wall is None:
                    failed = True
                    cells.append(status)
                else:
                    cells.append(f"{wall:.3f} s, {rss:.0f} MB")
                times.append(wall)
            growth = []
            for (n0, t0), (n1, t1) in zip(zip(sizes, times),
                                          zip(sizes[1:], times[1:])):
                if t0 and t1 and n0 > 1:
                    growth.append(f"{(t1 / t0) / (n1 / n0):.2f}")
            print(f"| {kind} | {shape} | " + " | ".join(cells) + " | " +
                  (", ".join(growth) or "-") + " |")
            sys.stdout.flush()

    if jit_sizes:
        print()
        print("nd-run JIT compile (import, nd-to-llvm, LLVM code generation), "
              "seconds")
        print("| kind | shape | " +
              " | ".join(f"{n} ops" for n in jit_sizes) + " |")
        print("|---|---|" + "---|" * len(jit_sizes))
    for kind in kinds if jit_sizes else []:
        inputs = write_inputs(workdir, kind)
        for shape in shapes:
            cells = []
            for n in jit_sizes:
                path = os.path.join(workdir, f"{kind}-{shape}-{n}.mlir")
                with open(path, "w") as f:
                    f.write(module_text(kind, n, shape))
                seconds, status = nd_run_compile_time(nd_run, path, inputs,
                                                      options.timeout)
                if seconds is None:
                    failed = True
                    cells.append(status)
                else:
                    cells.append(fmt(seconds))
            print(f"| {kind} | {shape} | " + " | ".join(cells) + " |")
            sys.stdout.flush()
    print("failed" if failed else "ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
