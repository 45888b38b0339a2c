#!/usr/bin/python3
"""nd's C runtime and Python API under abuse.

Builds one library with nd-compile (test/nd-compile/Inputs/kv_update.mlir,
input 0 donated: four inputs of static and dynamic dims, two outputs, one of
them the donated input's buffer), then calls it, in a child process, with
random arguments that break the rules of include/nd-c/Runtime.h and of
nd.Module:

  c       the entry through ctypes: NULL or wrong-length tensor arrays,
          NULL shapes, NULL data with elements, ranks and dtypes out of
          range, negative and huge dims (2^31, 2^62, dims whose product
          overflows), zero strides, caller output buffers of the wrong
          shape, dtype or rank, contexts with no or tiny message buffers
          and odd thread counts; and nd_tensor_free, nd_status_string,
          nd_dtype_name, nd_dtype_size, nd_set_threads on junk;
  python  nd.load's module: strings, None, numbers, bytes, dicts, (nested)
          lists, arrays of every dtype and rank, 0-stride arrays of 2^40
          elements (np.broadcast_to), views, wrong counts of arguments,
          out= and threads= of every kind.

Only what the API can check is drawn: a data pointer always holds the
elements its shape and strides address, or is NULL (a caller's buffer too
small for the shape it claims is not detectable). A call passes when it
returns (C: a status, with the message in the context's buffer; Python: a
result, or nd.Error, or TypeError for a call Python itself refuses). A
crash of the child, another exception, a status without a message or a
success that handed out no output is a failure; the child prints each case
before making it, so that a crash names its case.

Usage: fuzz-api.py --build DIR [--seed N] [--calls N] [--api c|python|all]
Prints the seed, the count of each outcome per API and every failure; exits
1 if there is one.
"""

import argparse
import collections
import ctypes
import os
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import nd_c_api  # noqa: E402
SOURCE = os.path.dirname(HERE)
MODEL = os.path.join(SOURCE, "test", "nd-compile", "Inputs", "kv_update.mlir")
# kv's signature (Inputs/kv_update.mlir): cache f32 [4, 3] donated,
# rows i64 [?, 1], updates f32 [?, 3], ids i64 [?]; outputs f32 [4, 3]
# (the cache) and f32 [?, 3].
F32, I64 = nd_c_api.F32, nd_c_api.I64
HUGE = [2**31, 2**32 + 1, 2**40, 2**62, 2**63 - 1]
TIMEOUT = 300


Tensor, Context, int64s = nd_c_api.Tensor, nd_c_api.Context, nd_c_api.int64s


def valid_inputs(rng):
    """Arrays that fit kv's signature (rows and ids in range)."""
    n, m = int(rng.integers(0, 4)), int(rng.integers(0, 4))
    return [np.arange(12, dtype=np.float32).reshape(4, 3),
            rng.integers(0, 4, size=(n, 1)).astype(np.int64),
            rng.standard_normal((n, 3)).astype(np.float32),
            rng.integers(0, 4, size=(m,)).astype(np.int64)]


# ---------------------------------------------------------------------------
# The C API
# ---------------------------------------------------------------------------

class CCall:
    """One call's arguments, kept alive until the call returns."""

    def __init__(self):
        self.keep = []
        self.what = []

    def tensor(self, array):
        shape = int64s(list(array.shape))
        self.keep += [array, shape]
        dtype = F32 if array.dtype == np.float32 else I64
        return Tensor(array.ctypes.data if array.size else None, shape, None,
                      dtype, array.ndim, None)


def mutate_tensor(rng, call, tensor, array):
    """Breaks one rule of `tensor` (which describes `array`)."""
    choice = int(rng.integers(0, 9))
    if choice == 0:
        tensor.shape = None
        call.what.append("shape NULL")
    elif choice == 1 and array.size:
        tensor.data = None
        call.what.append("data NULL with elements")
    elif choice == 2:
        tensor.rank = int(rng.choice([-1, -2**31, 0, 1, 3, 33, 1000]))
        # The shape array holds `rank` dims, as the caller promises.
        dims = [1] * max(tensor.rank, 0)
        shape = int64s(dims)
        call.keep.append(shape)
        tensor.shape = shape
        tensor.data = None
        call.what.append(f"rank {tensor.rank}")
    elif choice == 3:
        tensor.dtype = int(rng.choice([-1, 0, 3, 14, 15, 1000, -2**31]))
        call.what.append(f"dtype {tensor.dtype}")
    elif choice == 4:
        dims = list(array.shape) or [1]
        dims[int(rng.integers(0, len(dims)))] = int(rng.choice(
            [-1, -2**63, *HUGE]))
        shape = int64s(dims)
        call.keep.append(shape)
        tensor.shape, tensor.rank, tensor.data = shape, len(dims), None
        call.what.append(f"dims {dims}, data NULL")
    elif choice == 5 and array.size:
        strides = int64s([0] * array.ndim)
        call.keep.append(strides)
        tensor.strides = strides
        call.what.append("zero strides")
    elif choice == 6:
        dims = [0] + [int(rng.choice(HUGE)) for _ in range(array.ndim - 1)]
        shape = int64s(dims)
        call.keep.append(shape)
        tensor.shape, tensor.data = shape, None
        call.what.append(f"empty dims {dims}")
    elif choice == 7:
        bad = rng.integers(-2**62, 2**62, size=array.shape)
        values = bad.astype(array.dtype) if array.dtype == np.int64 else array
        call.keep.append(values)
        tensor.data = values.ctypes.data if values.size else None
        call.what.append("index values anywhere")
    else:
        call.what.append("valid")


def c_outputs(rng, call):
    """Outputs: nd's to allocate, or caller buffers, some of the wrong
    kind."""
    outputs = (Tensor * 2)()
    for k in range(2):
        if rng.random() < 0.6:
            continue
        rows = int(rng.choice([0, 1, 3, 4, 5]))
        buffer = np.zeros((rows, 3), np.float32)
        shape = int64s([rows, 3])
        call.keep += [buffer, shape]
        dtype = int(rng.choice([F32, F32, I64, 99]))
        rank = int(rng.choice([2, 2, 1, 0]))
        outputs[k] = Tensor(buffer.ctypes.data if buffer.size else None,
                            shape if rng.random() < 0.9 else None, None,
                            dtype, rank, None)
        call.what.append(f"output {k}: buffer [{rows}, 3] dtype {dtype} "
                         f"rank {rank}")
    return outputs


def c_context(rng, call):
    kind = int(rng.integers(0, 4))
    if kind == 0:
        call.what.append("no context")
        return None, None
    size = int(rng.choice([0, 1, 8, 512]))
    buffer = ctypes.create_string_buffer(max(size, 1))
    context = Context(int(rng.choice([0, 1, 2, -7, 2**31 - 1])), 0,
                      ctypes.cast(buffer, ctypes.c_char_p) if size else None,
                      size, 0)
    call.keep += [buffer, context]
    call.what.append(f"context threads {context.threads} message {size}")
    return context, buffer


def c_call(rng, entry):
    """One abusive call of the entry: what it was, and a failure or None."""
    call = CCall()
    arrays = valid_inputs(rng)
    tensors = (Tensor * 4)(*[call.tensor(a) for a in arrays])
    for _ in range(int(rng.integers(0, 3))):
        k = int(rng.integers(0, 4))
        call.what.append(f"input {k}:")
        mutate_tensor(rng, call, tensors[k], arrays[k])
    outputs = c_outputs(rng, call)
    context, buffer = c_context(rng, call)
    num_inputs = int(rng.choice([4, 4, 4, 0, 3, 5, 2**40]))
    num_outputs = int(rng.choice([2, 2, 2, 0, 1, 3]))
    inputs = tensors if rng.random() < 0.95 else None
    outs = outputs if rng.random() < 0.95 else None
    call.what.append(f"counts {num_inputs}/{num_outputs}"
                     f"{'' if inputs else ', inputs NULL'}"
                     f"{'' if outs else ', outputs NULL'}")
    print("c:", "; ".join(call.what), flush=True)
    status = entry(ctypes.byref(context) if context else None, inputs,
                   num_inputs, outs, num_outputs)
    failure = None
    if status == 0:
        if outs is None or not outputs[1].data and not outputs[1].shape:
            failure = "status 0 without outputs"
    elif status not in (1, 2, 3):
        failure = f"status {status}"
    elif context and context.message_size > 1 and not buffer.value:
        failure = f"status {status} without a message"
    if outs is not None:
        for k in range(2):
            if outputs[k].owner:
                LIB.nd_tensor_free(ctypes.byref(outputs[k]))
    return status, failure


def c_junk(rng):
    """The runtime's other functions on junk."""
    value = int(rng.choice([-1, 0, 5, 14, 15, 2**31 - 1, -2**31]))
    print(f"c: status/dtype functions of {value}, frees of empty tensors",
          flush=True)
    LIB.nd_status_string(value)
    LIB.nd_dtype_name(value)
    LIB.nd_dtype_size(value)
    LIB.nd_tensor_free(None)
    empty = Tensor()
    LIB.nd_tensor_free(ctypes.byref(empty))
    LIB.nd_set_threads(None, value)


LIB = None


def run_c(library, runtime, seed, calls):
    global LIB
    LIB = ctypes.CDLL(runtime)
    LIB.nd_status_string.restype = ctypes.c_char_p
    LIB.nd_status_string.argtypes = [ctypes.c_int32]
    LIB.nd_dtype_name.restype = ctypes.c_char_p
    LIB.nd_dtype_name.argtypes = [ctypes.c_int32]
    LIB.nd_dtype_size.restype = ctypes.c_size_t
    LIB.nd_dtype_size.argtypes = [ctypes.c_int32]
    LIB.nd_tensor_free.argtypes = [ctypes.c_void_p]
    LIB.nd_set_threads.argtypes = [ctypes.c_void_p, ctypes.c_int32]
    lib = ctypes.CDLL(library)
    entry = lib.kv
    entry.restype = ctypes.c_int32
    entry.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                      ctypes.c_void_p, ctypes.c_size_t]
    rng = np.random.default_rng(seed)
    outcomes = collections.Counter()
    for _ in range(calls):
        if rng.random() < 0.1:
            c_junk(rng)
            outcomes["junk"] += 1
            continue
        status, failure = c_call(rng, entry)
        outcomes[f"status {status}"] += 1
        if failure:
            print("FAILURE c:", failure, flush=True)
    print("c outcomes:", ", ".join(f"{k} {v}" for k, v in
                                    sorted(outcomes.items())), flush=True)


# ---------------------------------------------------------------------------
# The Python API
# ---------------------------------------------------------------------------

def junk(rng):
    """A value no entry takes, or one that may fit."""
    kinds = [
        lambda: "a string", lambda: None, lambda: 3, lambda: 2.5,
        lambda: b"\x00\x01", lambda: {"a": 1}, lambda: [1, 2, 3],
        lambda: [[1.0, 2.0, 3.0]] * 4, lambda: [[1, "x"]], lambda: [],
        lambda: np.float32(1), lambda: np.zeros((4, 3), np.float64),
        lambda: np.zeros((4, 3), np.int8), lambda: np.zeros((4, 3, 1),
                                                            np.float32),
        lambda: np.zeros((2, 1), np.int64), lambda: np.zeros((0,), np.int64),
        lambda: np.array(["a", "b"]), lambda: np.zeros(3, dtype=object),
        lambda: np.broadcast_to(np.float32(1), (2**40, 3)),
        lambda: np.broadcast_to(np.int64(0), (2**40, 1)),
        lambda: np.broadcast_to(np.int64(0), (2**59,)),
        lambda: np.arange(24, dtype=np.float32).reshape(4, 6)[:, ::2],
        lambda: np.zeros((4, 3), np.float32).T,
        lambda: np.full((2, 1), 2**40, np.int64),
        lambda: np.zeros((4, 3), np.complex64),
        lambda: np.zeros((), np.float32),
    ]
    return kinds[int(rng.integers(0, len(kinds)))]()


def python_call(rng, module, nd):
    args = valid_inputs(rng)
    what = []
    for _ in range(int(rng.integers(1, 3))):
        k = int(rng.integers(0, 4))
        args[k] = junk(rng)
        what.append(f"arg {k} {type(args[k]).__name__} "
                    f"{getattr(args[k], 'shape', '')} "
                    f"{getattr(args[k], 'dtype', '')}")
    count = int(rng.choice([4, 4, 4, 0, 3, 5]))
    args = (args + [junk(rng)])[:count]
    kwargs = {}
    if rng.random() < 0.2:
        kwargs["out"] = junk(rng)
    if rng.random() < 0.2:
        kwargs["threads"] = rng.choice(["x", -1, 0, 2, 2**31, 2**64, 1.5,
                                        None])
    if rng.random() < 0.05:
        kwargs["bogus"] = 1
    what.append(f"{count} args, keywords {sorted(kwargs)}")
    print("python:", "; ".join(what), flush=True)
    try:
        result = module(*args, **kwargs)
    except (nd.Error, TypeError) as error:
        return type(error).__name__, None
    except Exception as error:  # noqa: BLE001 - what the fuzzer looks for
        return "other", f"{type(error).__name__}: {error}"
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        return "ok", f"a result of {type(result).__name__}"
    return "ok", None


def run_python(library, seed, calls):
    import nd
    module = nd.load(library, "kv")
    rng = np.random.default_rng(seed)
    outcomes = collections.Counter()
    for _ in range(calls):
        outcome, failure = python_call(rng, module, nd)
        outcomes[outcome] += 1
        if failure:
            print("FAILURE python:", failure, flush=True)
    # The module still works.
    args = valid_inputs(np.random.default_rng(0))
    cache, gathered = module(*args)
    print(f"python outcomes: " + ", ".join(
        f"{k} {v}" for k, v in sorted(outcomes.items())) +
        f"; a valid call after them returns {cache.shape} and "
        f"{gathered.shape}", flush=True)


# ---------------------------------------------------------------------------
# The parent
# ---------------------------------------------------------------------------

def child(args):
    library = os.path.join(args.work, "libkv.so")
    runtime = os.path.join(args.build, "lib", "libnd_runtime.so")
    if args.child == "c":
        run_c(library, runtime, args.seed, args.calls)
    else:
        run_python(library, args.seed, args.calls)
    return 0


def supervise(args, api, work):
    """Runs the child for `api`: its failures (a crash names the last case
    it printed)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(args.build, "python") + os.pathsep + \
        env.get("PYTHONPATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, os.path.abspath(__file__), "--child", api,
               "--work", work, "--build", args.build, "--seed",
               str(args.seed), "--calls", str(args.calls)]
    try:
        result = subprocess.run(command, capture_output=True, text=True,
                                env=env, timeout=TIMEOUT, check=False)
    except subprocess.TimeoutExpired as error:
        return [f"{api}: timed out after {TIMEOUT} s"], str(error.stdout)
    lines = result.stdout.splitlines()
    failures = [line for line in lines if line.startswith("FAILURE")]
    summary = [line for line in lines if " outcomes" in line]
    if result.returncode != 0 or not summary:
        last = [line for line in lines if line.startswith(f"{api}:")][-1:]
        failures.append(f"{api}: the child ended with status "
                        f"{result.returncode} after: {last}\n"
                        f"{result.stderr[-2000:]}")
    return failures, "\n".join(summary)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--api", choices=("c", "python", "all"),
                        default="all")
    parser.add_argument("--child", choices=("c", "python"))
    parser.add_argument("--work")
    args = parser.parse_args()
    if args.child:
        return child(args)
    print(f"seed {args.seed}")
    failures = []
    with tempfile.TemporaryDirectory() as work:
        compile_command = [os.path.join(args.build, "bin", "nd-compile"),
                           MODEL, "--donate", "0", "--entry", "kv", "-o",
                           os.path.join(work, "libkv.so")]
        built = subprocess.run(compile_command, capture_output=True, text=True,
                               check=False)
        if built.returncode:
            print(f"nd-compile failed: {built.stderr}")
            return 1
        apis = ("c", "python") if args.api == "all" else (args.api,)
        for api in apis:
            found, summary = supervise(args, api, work)
            print(summary)
            failures += found
    for failure in failures:
        print(failure)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
