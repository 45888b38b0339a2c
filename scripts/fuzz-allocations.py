"""Allocation failures of nd's generated code under random address-space
limits.

Each case is a random nd op on dynamic shapes (every op, reduction and oob
mode; f32 data) whose buffers (a gather's result, a scatter's copy of data,
the tallies of a mean) are some MiB, built into a library by nd-compile and
called through nd's C interface (ctypes, nd_c_api.py) in a child process
whose address space is then limited (RLIMIT_AS, as `ulimit -v`) to what it
uses plus a random amount from 4 MiB to three times the case's inputs: some
calls have room for every buffer of the compiled code, some fail to allocate
one. The child runs one thread (the OpenMP runtime then starts none) and
allocates nothing large itself once the limit is set. A case passes when the
call returns what the same call returns without a limit (the same bytes, by
a hash; or the same status and message), or ND_ERROR_OUT_OF_MEMORY with
nd's message "cannot allocate N bytes"; never a crash (before, the compiled
code wrote through a failed allocation). Anything else (a signal, another status or message, a wrong
value) is a failure, printed with the case, its limit and its files
(--keep).

Usage: fuzz-allocations.py --build DIR [--seed N] [--cases N] [--keep DIR]
Prints the seed, the count of each outcome and every failure; exits 1 if
there is one.
"""

import argparse
import ctypes
import hashlib
import os
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "Reference"))
import fuzz_campaign  # noqa: E402
import nd_c_api  # noqa: E402
import nd_cases  # noqa: E402
from nd_cases import Case  # noqa: E402

TIMEOUT = 120
MiB = 1 << 20


def floats(rng, shape):
    return rng.standard_normal(shape).astype(np.float32)


def draw_case(rng):
    """A random op whose buffers are 1 to 64 MiB, all dims dynamic."""
    op = str(rng.choice(nd_cases.OPS))
    oob = str(rng.choice(["error", "skip", "clamp"]))
    rows = int(rng.integers(8, 64))
    width = int(2 ** rng.integers(12, 18))
    if op in ("gather", "gather_nd"):
        data = floats(rng, (rows, width))
        n = int(rng.integers(1, 256))
        ids = rng.integers(0, rows, size=(n,)).astype(np.int64)
        if op == "gather":
            return Case(op, [("data", data, "f32"), ("indices", ids, "i64")],
                        {"axis": 0, "batch_dims": 0, "oob": oob},
                        (n, width))
        return Case(op, [("data", data, "f32"),
                         ("indices", ids.reshape(n, 1), "i64")],
                    {"batch_dims": 0, "oob": oob}, (n, width))
    if op == "gather_elements":
        data = floats(rng, (rows, width))
        ids = rng.integers(0, width, size=(rows, width)).astype(np.int64)
        return Case(op, [("data", data, "f32"), ("indices", ids, "i64")],
                    {"axis": 1, "oob": oob}, (rows, width))
    if op == "tensor_scatter":
        cache = floats(rng, (2, rows, width))
        update = floats(rng, (2, 1, width))
        writes = rng.integers(0, rows, size=(2,)).astype(np.int64)
        return Case(op, [("past_cache", cache, "f32"), ("update", update, "f32"),
                         ("write_indices", writes, "i64")],
                    {"axis": 1, "mode": "linear", "oob": "clamp"},
                    cache.shape)
    data = floats(rng, (rows, width))
    n = int(rng.integers(1, 64))
    if op == "scatter_nd":
        ids = rng.integers(0, rows, size=(n, 1)).astype(np.int64)
        reduction = str(rng.choice(["none", "add", "max"]))
        return Case(op, [("data", data, "f32"), ("indices", ids, "i64"),
                         ("updates", floats(rng, (n, width)), "f32")],
                    {"reduction": reduction, "oob": oob}, data.shape)
    ids = rng.integers(0, rows, size=(n, width)).astype(np.int64)
    reduction = str(rng.choice(["none", "add", "mean", "max"]))
    return Case(op, [("data", data, "f32"), ("indices", ids, "i64"),
                     ("updates", floats(rng, (n, width)), "f32")],
                {"axis": 0, "reduction": reduction,
                 "use_init_val": bool(rng.random() < 0.7), "oob": oob},
                data.shape)


def dynamic(case):
    """`case` with every dim of its operands and result dynamic."""
    case.dynamic = {name: frozenset(range(array.ndim))
                    for name, array, _ in case.operands if array is not None}
    case.result_dynamic = frozenset(range(len(case.result_shape)))
    return case


def digest(pointer, nbytes):
    """The SHA-256 of `nbytes` bytes at `pointer`, read in place."""
    hasher = hashlib.sha256()
    if nbytes:
        hasher.update(memoryview((ctypes.c_char * nbytes).from_address(
            pointer)))
    return hasher.hexdigest()


def child(directory, margin):
    """Calls the case in `directory` (under the limit, with a margin):
    prints the outcome."""
    import resource
    runtime = nd_c_api.load_runtime(os.path.join(os.environ["ND_LIB_DIR"],
                                                 "libnd_runtime.so"))
    entry = nd_c_api.load_entry(os.path.join(directory, "libcase.so"), "case")
    count = len([f for f in os.listdir(directory) if f.startswith("input_")])
    keep = []
    arrays = [np.load(os.path.join(directory, f"input_{i}.npy"))
              for i in range(count)]
    inputs = (nd_c_api.Tensor * count)(*[nd_c_api.tensor_of(a, keep)
                                         for a in arrays])
    output = nd_c_api.Tensor()
    message = ctypes.create_string_buffer(1024)
    context = nd_c_api.Context(1, 0, ctypes.cast(message, ctypes.c_char_p),
                               1024, 0)
    runtime.nd_status_string(0)
    if margin is not None:
        with open("/proc/self/status") as f:
            size = next(int(line.split()[1]) for line in f
                        if line.startswith("VmSize:")) * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size + margin, size + margin))
    status = entry(ctypes.byref(context), inputs, count, ctypes.byref(output),
                   1)
    if status:
        print(f"status {status}: {message.value.decode()}", flush=True)
        return 0
    elements = 1
    for d in range(output.rank):
        elements *= output.shape[d]
    print(f"ok {digest(output.data, elements * 4)}", flush=True)
    runtime.nd_tensor_free(ctypes.byref(output))
    return 0


def call(build, directory, margin):
    """The child's outcome line, or None and why it has none."""
    env = dict(os.environ, OMP_NUM_THREADS="1",
               ND_LIB_DIR=os.path.join(build, "lib"))
    command = [sys.executable, os.path.abspath(__file__), "--child",
               directory]
    if margin is not None:
        command += ["--margin", str(margin)]
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                env=env, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {TIMEOUT} s"
    out = result.stdout.strip()
    if result.returncode or not out:
        return None, f"the call ended with status {result.returncode}:\n" \
                     f"{result.stderr[-3000:]}"
    return out, None


def check_case(build, case, margin, directory):
    """The outcome of one case: "ran", "out of memory" or "failure", and
    what went wrong. The expected outcome is the same call's without a
    limit."""
    model, _ = case.write_run_files(directory)
    built = subprocess.run([os.path.join(build, "bin", "nd-compile"), model,
                            "--entry", "case", "-o",
                            os.path.join(directory, "libcase.so")],
                           capture_output=True, text=True, check=False,
                           timeout=TIMEOUT)
    if built.returncode:
        return "failure", f"nd-compile failed: {built.stderr[-2000:]}"
    free, error = call(build, directory, None)
    if error:
        return "failure", f"without a limit: {error}"
    limited, error = call(build, directory, margin)
    if error:
        return "failure", error
    if limited.startswith("status 3: ") and "cannot allocate" in limited:
        return "out of memory", None
    if limited == free:
        return "ran", None
    return "failure", f"{limited}\n  without a limit: {free}"


def case_bytes(case):
    return sum(array.nbytes for _, array, _ in case.operands
               if array is not None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=12)
    parser.add_argument("--keep", help="keep each failing case here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--margin", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.margin)
    print(f"seed {args.seed}")
    rng = np.random.default_rng(args.seed)

    def run_case(index, directory):
        case = dynamic(draw_case(rng))
        margin = int(rng.integers(4 * MiB,
                                  3 * case_bytes(case) + 4 * MiB + 1))
        outcome, detail = check_case(args.build, case, margin, directory)
        return outcome, (f"case {index}: {case}, {margin} bytes above the "
                         f"child's size\n  {detail}")

    failures = fuzz_campaign.run_cases(args.cases, args.keep, run_case,
                                       ("ran", "out of memory", "failure"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
