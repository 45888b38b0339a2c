#!/usr/bin/python3
"""Random tiling and fusion of nd ops against the untiled programs.

Each case is a random nd op (test/Reference/nd_cases.py: every op, attribute,
oob mode and element type; static shapes, a static 0 dim, or a dynamic dim
that is 0 at run time only; every fifth case with an index out of range)
and a random schedule of upstream's transforms on it, with random tile
sizes:

  for      transform.structured.tile_using_for on the op;
  forall   transform.structured.tile_using_forall on the op (never every
           size 0: MLIR 22's interpreter crashes on that before nd's code
           runs, docs/Rationale.md, "Tiling and fusion");
  fuse     an elementwise consumer of the op's result (a linalg.generic
           copy), tiled with tile_using_forall, the op fused into its tiles
           (fuse_into_containing_op; not where the result has a static 0
           dim: MLIR 22 crashes tiling such a linalg op, in
           linalg::computeTileSizes, before nd's code runs);
  chain    transform.structured.fuse on that consumer (scf.for tiles, the op
           fused).

`nd-opt` applies the schedule; `nd-run` runs the untiled and the tiled
program on the same inputs. A case passes when the transform refuses with
nd's message ("cannot be tiled as asked", status 1, no crash), or when both
programs return the same result bit for bit, or both stop with a run-time
error. One known gap is counted apart, not as a failure: where an index
value out of range lies under a dim that is 0 at run time only, the tiled
program has a loop without trips and checks nothing (docs/Rationale.md,
"Tiling and fusion"). Anything else (a crash of either tool, a wrong value,
one program failing alone) is a failure, printed with the case, the
schedule and the directory that holds them (--keep).

Usage: fuzz-tiling.py --nd-opt PATH --nd-run PATH [--seed N] [--cases N]
                      [--keep DIR]
Prints the seed, the count of each outcome, every failure, and exits 1 if
there is one.
"""

import argparse
import os
import re
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "Reference"))
import fuzz_campaign  # noqa: E402
import nd_cases  # noqa: E402
import nd_reference as ref  # noqa: E402

SCHEDULES = ("for", "forall", "fuse", "chain")
CRASH = ("Stack dump", "PLEASE submit", "Assertion", "Segmentation fault")
TIMEOUT = 120
# The element type of a tensor type.
ELEMENT = re.compile(r"tensor<(?:[0-9?]+x)*(.+)>$")


def draw_case(rng, index):
    """A random case; every fifth one with an index out of range."""
    op = nd_cases.OPS[index % len(nd_cases.OPS)]
    shapes = nd_cases.SHAPES[int(rng.integers(0, len(nd_cases.SHAPES)))]
    # Static shapes twice as often: most tiles of them run.
    if rng.random() < 0.4:
        shapes = "static"
    while True:
        case = nd_cases.random_shaped_case(rng, op, shapes)
        if index % 5 != 4:
            return case, shapes
        name = "write_indices" if op == "tensor_scatter" else "indices"
        indices = case.array(name)
        if indices is None or indices.size == 0:
            continue
        position = tuple(int(rng.integers(0, d)) for d in indices.shape)
        indices[position] = -1000 - int(rng.integers(0, 50))
        return case, shapes


def loop_extents(case):
    """The sizes of the op's iterated loops (its tiling domain): a gather's
    result dims, a scatter's update dims."""
    if case.op in ("gather_nd", "gather"):
        return list(case.result_shape)
    if case.op == "gather_elements":
        return list(case.array("indices").shape)
    if case.op == "tensor_scatter":
        return list(case.array("update").shape)
    return list(case.array("updates").shape)


def random_sizes(rng, extents, some=False):
    """A tile size per loop: 0 (not tiled) or 1 to the extent + 1; with
    `some`, never all 0."""
    sizes = [0 if rng.random() < 0.35 else int(rng.integers(1, max(e, 1) + 2))
             for e in extents]
    if some and extents and not any(sizes):
        sizes[int(rng.integers(0, len(sizes)))] = 1
    return sizes


def handles(count):
    return ", ".join(["!transform.any_op"] * count)


def schedule_text(kind, sizes, target):
    """The transform library of a schedule on `target` ("nd.<op>" or the
    consumer "linalg.generic")."""
    match = (f'    %m = transform.structured.match ops{{["{target}"]}} in '
             f"%root : (!transform.any_op) -> !transform.any_op")
    loops = sum(1 for s in sizes if s)
    body = [match]
    if kind == "for":
        names = "%t" + (f", %l:{loops}" if loops > 1 else
                        ", %l" if loops else "")
        body.append(f"    {names} = transform.structured.tile_using_for %m "
                    f"tile_sizes {sizes} : (!transform.any_op) -> "
                    f"({handles(loops + 1)})")
    elif kind == "forall":
        body.append(f"    %t, %l = transform.structured.tile_using_forall %m "
                    f"tile_sizes {sizes} : (!transform.any_op) -> "
                    f"({handles(2)})")
    elif kind == "fuse":
        body.append(f"    %op = transform.structured.match ops{{[\"{{op}}\"]}}"
                    f" in %root : (!transform.any_op) -> !transform.any_op")
        body.append(f"    %t, %l = transform.structured.tile_using_forall %m "
                    f"tile_sizes {sizes} : (!transform.any_op) -> "
                    f"({handles(2)})")
        body.append("    %f, %nl = transform.structured.fuse_into_containing_op"
                    " %op into %l : (!transform.any_op, !transform.any_op) -> "
                    "(!transform.any_op, !transform.any_op)")
    else:
        names = "%t" + (f", %l:{loops}" if loops > 1 else
                        ", %l" if loops else "")
        body.append(f"    {names} = transform.structured.fuse %m tile_sizes "
                    f"{sizes} : (!transform.any_op) -> ({handles(loops + 1)})")
    return ("module attributes {transform.with_named_sequence} {\n"
            "  transform.named_sequence @__transform_main(%root: "
            "!transform.any_op {transform.readonly}) {\n" +
            "\n".join(body) + "\n    transform.yield\n  }\n}\n")


def with_consumer(text, case):
    """The module of `case` with an elementwise copy of the op's result
    (a linalg.generic) returned instead."""
    result = case.result_type()
    rank = len(case.result_shape)
    lines = text.rstrip().split("\n")
    body = lines[:-2]  # without `return` and `}`
    sizes = []
    for d in sorted(case.result_dynamic):
        body.append(f"  %c{d} = arith.constant {d} : index")
        body.append(f"  %d{d} = tensor.dim %r, %c{d} : {result}")
        sizes.append(f"%d{d}")
    body.append(f"  %e = tensor.empty({', '.join(sizes)}) : {result}")
    dims = ", ".join(f"d{i}" for i in range(rank))
    identity = f"affine_map<({dims}) -> ({dims})>"
    iterators = ", ".join(['"parallel"'] * rank)
    element = ELEMENT.match(result).group(1)
    body.append(f"  %c = linalg.generic {{indexing_maps = [{identity}, "
                f"{identity}], iterator_types = [{iterators}]}} ins(%r : "
                f"{result}) outs(%e : {result}) {{")
    body.append(f"  ^bb0(%x: {element}, %y: {element}):")
    body.append(f"    linalg.yield %x : {element}")
    body.append(f"  }} -> {result}")
    body.append(f"  return %c : {result}")
    body.append("}")
    return "\n".join(body) + "\n"


def run(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {TIMEOUT} s"
    return result.returncode, result.stdout, result.stderr


def crashed(status, stderr):
    return status not in (0, 1) or any(c in stderr for c in CRASH)


def run_program(nd_run, model, inputs, out):
    os.makedirs(out, exist_ok=True)
    status, _, stderr = run([nd_run, model, *inputs, "--output-dir", out,
                             "--quiet"])
    if crashed(status, stderr):
        return "crash", stderr
    if status:
        return "error", stderr
    return "ok", np.load(os.path.join(out, "output_0.npy"))


def has_runtime_empty_dim(case):
    return any(array is not None and array.size == 0
               for _, array, _ in case.operands) or 0 in case.result_shape


def check_case(rng, case, shapes, tools, directory):
    """Runs one case: its outcome and, for a failure, what went wrong."""
    model, inputs = case.write_run_files(directory)
    kind = SCHEDULES[int(rng.integers(0, len(SCHEDULES)))]
    # A domain without loops has no forall to tile into; MLIR 22 crashes
    # tiling a linalg op with a static 0 dim (computeTileSizes), so such a
    # result gets no consumer.
    static_zero = any(size == 0 and d not in case.result_dynamic
                      for d, size in enumerate(case.result_shape))
    if not loop_extents(case) or (kind != "for" and not case.result_shape):
        kind = "for"
    if kind in ("fuse", "chain") and static_zero:
        kind = "forall"
    consumer = kind in ("fuse", "chain")
    if consumer:
        with open(model) as f:
            text = with_consumer(f.read(), case)
        with open(model, "w") as f:
            f.write(text)
        extents = list(case.result_shape)
    else:
        extents = loop_extents(case)
    sizes = random_sizes(rng, extents, some=kind != "for")
    target = "linalg.generic" if consumer else f"nd.{case.op}"
    schedule = os.path.join(directory, "schedule.mlir")
    with open(schedule, "w") as f:
        f.write(schedule_text(kind, sizes, target).replace(
            "{op}", f"nd.{case.op}"))
    what = f"{kind} {sizes} ({shapes})"
    tiled = os.path.join(directory, "tiled.mlir")
    status, _, stderr = run([tools.nd_opt, model,
                             "--transform-preload-library=transform-library-"
                             f"paths={schedule}", "--transform-interpreter",
                             "-o", tiled])
    if crashed(status, stderr):
        return "failure", what, f"nd-opt crashed:\n{stderr[-3000:]}"
    if status:
        if "cannot be tiled as asked" in stderr:
            return "refused", what, None
        return "failure", what, f"nd-opt failed without nd's refusal:\n" \
                                f"{stderr[-2000:]}"
    untiled, before = run_program(tools.nd_run, model, inputs,
                                  os.path.join(directory, "untiled"))
    tiled_kind, after = run_program(tools.nd_run, tiled, inputs,
                                    os.path.join(directory, "tiled"))
    if "crash" in (untiled, tiled_kind):
        return "failure", what, f"nd-run crashed:\n{before if untiled == 'crash' else after}"
    if untiled == "error" and tiled_kind == "error":
        return "both errors", what, None
    if untiled == "ok" and tiled_kind == "ok":
        if nd_cases.same_values(after, before):
            return "same", what, None
        return "failure", what, f"tiled: {after.tolist()}\n  untiled: " \
                                f"{before.tolist()}"
    if untiled == "error" and has_runtime_empty_dim(case) and \
            isinstance(case.expected(), ref.IndexOutOfRange):
        return "known gap", what, None
    return "failure", what, f"untiled {untiled}, tiled {tiled_kind}:\n" \
                            f"{before if untiled == 'error' else after}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nd-opt", required=True)
    parser.add_argument("--nd-run", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--keep", help="keep each failing case here")
    args = parser.parse_args()
    print(f"seed {args.seed}")
    rng = np.random.default_rng(args.seed)

    def run_case(index, directory):
        case, shapes = draw_case(rng, index)
        outcome, what, detail = check_case(rng, case, shapes, args, directory)
        return outcome, f"case {index}: {case}\n  schedule: {what}\n  {detail}"

    failures = fuzz_campaign.run_cases(
        args.cases, args.keep, run_case,
        ("same", "both errors", "refused", "known gap", "failure"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
