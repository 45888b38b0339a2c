#!/usr/bin/env python3
"""nd's GPU check: runs the cases gpu_cases.py wrote, compiled by nd-to-gpu,
against the results of nd's CPU path, bit for bit; and the GPU benchmark.

Subcommands (DIR is the folder gpu-prepare.sh fills):

  expect DIR          run the cases with the CPU library (libcases_cpu.so,
                      nd-to-llvm) and store each result (or error message)
                      as the expected one (on the build machine);
  check DIR --target cuda|host
                      run the cases with the GPU library (libcases_cuda.so)
                      or with its kernels run on the host CPU
                      (libcases_host.so, nd-to-gpu{run-on-host}): each case
                      twice, both bit-identical to the expected result (NaNs
                      equal whatever their payload); an error case must fail
                      with the expected message, and the next call work;
  bench DIR           the benchmark workloads on the GPU (bench_gpu.py).

Needs python3 and numpy only (torch for `bench`); the libraries find nd's
runtime (libnd_cuda_runtime.so) beside them.
"""

import argparse
import ctypes
import json
import os
import sys
import time

import numpy as np

ND_CUDA_OK = 0
ND_CUDA_ERROR_CHECK_FAILED = 2

# ---------------------------------------------------------------------------
# Calling a compiled function through MLIR's C interface
# ---------------------------------------------------------------------------

_DESCRIPTORS = {}


def descriptor_type(rank):
    """The memref descriptor struct of `rank` (MLIR's C interface)."""
    if rank not in _DESCRIPTORS:
        fields = [("allocated", ctypes.c_void_p), ("aligned", ctypes.c_void_p),
                  ("offset", ctypes.c_int64)]
        if rank:
            fields += [("sizes", ctypes.c_int64 * rank),
                       ("strides", ctypes.c_int64 * rank)]
        _DESCRIPTORS[rank] = type(f"MemRef{rank}", (ctypes.Structure,),
                                  {"_fields_": fields})
    return _DESCRIPTORS[rank]


def descriptor(pointer, shape):
    """A descriptor of a contiguous row-major buffer at `pointer`."""
    desc = descriptor_type(len(shape))()
    desc.allocated = desc.aligned = pointer
    desc.offset = 0
    stride = 1
    strides = []
    for dim in reversed(shape):
        strides.append(stride)
        stride *= max(int(dim), 1)
    for i, (dim, step) in enumerate(zip(shape, reversed(strides))):
        desc.sizes[i] = int(dim)
        desc.strides[i] = step
    return desc


def shape_of(desc, rank):
    return tuple(int(desc.sizes[i]) for i in range(rank))


class Runtime:
    """libnd_cuda_runtime.so: the call scope, nd's error report, buffers."""

    def __init__(self, path):
        self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        lib = self.lib
        lib.nd_cuda_begin.argtypes = [ctypes.c_void_p]
        lib.nd_cuda_begin.restype = ctypes.c_int32
        lib.nd_cuda_end.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.nd_cuda_end.restype = ctypes.c_int32
        lib.nd_cuda_available.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.nd_cuda_available.restype = ctypes.c_int32
        lib.nd_cuda_alloc.argtypes = [ctypes.c_size_t]
        lib.nd_cuda_alloc.restype = ctypes.c_void_p
        lib.nd_cuda_free.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        lib.nd_cuda_free.restype = None
        lib.nd_cuda_copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                     ctypes.c_size_t]
        lib.nd_cuda_copy.restype = ctypes.c_int32
        lib.nd_cuda_last_message.argtypes = []
        lib.nd_cuda_last_message.restype = ctypes.c_char_p

    def available(self):
        message = ctypes.create_string_buffer(1024)
        status = self.lib.nd_cuda_available(message, len(message))
        return status, message.value.decode()

    def begin(self, stream=None):
        return self.lib.nd_cuda_begin(stream)

    def end(self):
        message = ctypes.create_string_buffer(4096)
        status = self.lib.nd_cuda_end(message, len(message))
        return status, message.value.decode()


_LIBC = ctypes.CDLL(None)
_LIBC.free.argtypes = [ctypes.c_void_p]


class HostMemory:
    """Buffers of the CPU library and of the kernels run on the host."""

    def __init__(self, runtime):
        self.runtime = runtime

    def upload(self, array):
        return array.ctypes.data if array.size else None, array

    def download(self, pointer, shape, dtype):
        count = int(np.prod(shape, dtype=np.int64))
        if count == 0:
            return np.zeros(shape, dtype)
        raw = (ctypes.c_char * (count * np.dtype(dtype).itemsize)).from_address(
            pointer)
        return np.frombuffer(bytes(raw), dtype).reshape(shape)

    def free_result(self, allocated):
        if allocated:
            _LIBC.free(allocated)

    def release(self, keep):
        pass

    def begin(self):
        # The CPU code and the kernels run on the host use no stream; nd's
        # error report still records the call's message.
        return ND_CUDA_OK


class DeviceMemory:
    """Device buffers of the GPU library (through nd's runtime)."""

    def __init__(self, runtime):
        self.runtime = runtime

    def upload(self, array):
        if array.size == 0:
            return None, None
        pointer = self.runtime.lib.nd_cuda_alloc(array.nbytes)
        if not pointer:
            raise RuntimeError("nd_cuda_alloc: " +
                               self.runtime.lib.nd_cuda_last_message().decode())
        status = self.runtime.lib.nd_cuda_copy(pointer, array.ctypes.data,
                                               array.nbytes)
        if status:
            raise RuntimeError("nd_cuda_copy: " +
                               self.runtime.lib.nd_cuda_last_message().decode())
        return pointer, pointer

    def download(self, pointer, shape, dtype):
        out = np.zeros(shape, dtype)
        if out.size == 0:
            return out
        status = self.runtime.lib.nd_cuda_copy(out.ctypes.data, pointer,
                                               out.nbytes)
        if status:
            raise RuntimeError("nd_cuda_copy: " +
                               self.runtime.lib.nd_cuda_last_message().decode())
        return out

    def free_result(self, allocated):
        if allocated:
            self.runtime.lib.nd_cuda_free(allocated, None)

    def release(self, keep):
        for pointer in keep:
            if pointer:
                self.runtime.lib.nd_cuda_free(pointer, None)

    def begin(self):
        return self.runtime.begin(None)


def call(lib, memory, runtime, case, arrays):
    """Runs case `case` of library `lib` on `arrays`: (status, message,
    result array or None, [inputs after the call])."""
    function = getattr(lib, "_mlir_ciface_" + case["name"])
    function.restype = None
    result_rank = case["result"]["rank"]
    result = descriptor_type(result_rank)()
    descs, keep, pointers = [], [], []
    for array in arrays:
        pointer, owner = memory.upload(array)
        keep.append(owner)
        pointers.append(pointer)
        descs.append(descriptor(pointer, array.shape))
    status = memory.begin()
    if status == ND_CUDA_OK:
        function(ctypes.byref(result), *[ctypes.byref(d) for d in descs])
    status, message = runtime.end()
    out = None
    after = []
    if status == ND_CUDA_OK:
        shape = shape_of(result, result_rank)
        itemsize = np.dtype(case["result"]["storage"]).itemsize
        data = (result.aligned or 0) + result.offset * itemsize
        out = memory.download(data, shape, case["result"]["storage"])
        for pointer, array in zip(pointers, arrays):
            after.append(memory.download(pointer, array.shape, array.dtype)
                         if pointer else array)
    # A function whose check failed ran to its end: its result is a buffer
    # to free too (nd's runtime ignores pointers it did not allocate).
    if status in (ND_CUDA_OK, ND_CUDA_ERROR_CHECK_FAILED) and \
            result.allocated not in pointers:
        memory.free_result(result.allocated)
    if isinstance(memory, DeviceMemory):
        memory.release([k for k in keep if k])
    return status, message, out, after


# ---------------------------------------------------------------------------
# Comparing results
# ---------------------------------------------------------------------------

def as_floats(array, element):
    """bf16 bits as float32 values (exactly)."""
    if element == "bf16":
        return (array.astype(np.uint32) << 16).view(np.float32)
    return array


def same_values(got, expected):
    """Bitwise equality, NaNs equal to NaNs whatever their payload."""
    if got.shape != expected.shape or got.dtype != expected.dtype:
        return False
    if np.issubdtype(expected.dtype, np.complexfloating):
        return same_values(got.real.copy(), expected.real.copy()) and \
            same_values(got.imag.copy(), expected.imag.copy())
    if np.issubdtype(expected.dtype, np.floating):
        nan_got, nan_expected = np.isnan(got), np.isnan(expected)
        if not np.array_equal(nan_got, nan_expected):
            return False
        bits = np.dtype(f"u{expected.dtype.itemsize}")
        return np.array_equal(got[~nan_got].view(bits),
                              expected[~nan_expected].view(bits))
    return np.array_equal(got, expected)


def first_difference(got, expected):
    if got.shape != expected.shape:
        return f"shape {list(got.shape)}, expected {list(expected.shape)}"
    flat_got, flat_expected = got.reshape(-1), expected.reshape(-1)
    for i in range(flat_got.size):
        if not same_values(flat_got[i:i + 1], flat_expected[i:i + 1]):
            where = np.unravel_index(i, got.shape)
            return (f"at {list(map(int, where))}: {flat_got[i]!r}, expected "
                    f"{flat_expected[i]!r}")
    return "?"


def load_inputs(directory, case):
    return [np.load(os.path.join(directory, i["file"])) for i in case["inputs"]]


# ---------------------------------------------------------------------------
# Subcommands
# ---------------------------------------------------------------------------

def load_manifest(directory):
    with open(os.path.join(directory, "cases.json")) as f:
        return json.load(f)


def expect_case(directory, lib, memory, runtime, case):
    """Runs `case` with the CPU library in a child process (a crash of the
    CPU code must not end the preparation): the expected file, error
    message, or the signal that ended the child."""
    result_file = os.path.join(directory, case["name"] + "_expected.npy")
    message_file = os.path.join(directory, case["name"] + "_expected.txt")
    for path in (result_file, message_file):
        if os.path.exists(path):
            os.remove(path)
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            arrays = [a.copy() for a in load_inputs(directory, case)]
            status, message, out, _ = call(lib, memory, runtime, case, arrays)
            if status == ND_CUDA_OK:
                np.save(result_file, out)
                code = 0
            elif status == ND_CUDA_ERROR_CHECK_FAILED:
                with open(message_file, "w") as f:
                    f.write(message)
                code = 0
            else:
                print(f"{case['name']}: the CPU library failed: {message}")
        finally:
            os._exit(code)
    _, wait_status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(wait_status):
        return {"crash": f"signal {os.WTERMSIG(wait_status)}"}
    if os.WEXITSTATUS(wait_status) != 0:
        return None
    if os.path.exists(result_file):
        return {"expect": os.path.basename(result_file)}
    with open(message_file) as f:
        return {"error": f.read()}


def cmd_expect(args):
    runtime = Runtime(os.path.join(args.dir, "libnd_cuda_runtime.so"))
    lib = ctypes.CDLL(os.path.join(args.dir, "libcases_cpu.so"))
    memory = HostMemory(runtime)
    manifest = load_manifest(args.dir)
    errors, crashes = 0, []
    for case in manifest["cases"]:
        outcome = expect_case(args.dir, lib, memory, runtime, case)
        if outcome is None:
            return 1
        case["expect"] = outcome.get("expect")
        case["error"] = outcome.get("error")
        case["crash"] = outcome.get("crash")
        errors += bool(case["error"])
        if case["crash"]:
            crashes.append(f"{case['name']} ({case['what']}): the CPU "
                           f"library died of {case['crash']}")
    with open(os.path.join(args.dir, "cases.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    for crash in crashes:
        print("CPU CRASH", crash)
    print(f"expected results of {len(manifest['cases'])} cases "
          f"({errors} run-time errors) from the CPU library"
          + (f"; {len(crashes)} cases crash the CPU library and are not "
             "checked" if crashes else ""))
    return 0


def cmd_check(args):
    runtime = Runtime(os.path.join(args.dir, "libnd_cuda_runtime.so"))
    manifest = load_manifest(args.dir)
    if args.target == "cuda":
        status, why = runtime.available()
        if status != ND_CUDA_OK:
            # Without a GPU: the library still loads, and a call fails with
            # the driver's status and message.
            lib = ctypes.CDLL(os.path.join(args.dir, "libcases_cuda.so"))
            case = manifest["cases"][0]
            arrays = load_inputs(args.dir, case)
            status, message, _, _ = call(lib, HostMemory(runtime), runtime,
                                         case, arrays)
            print(f"check: no usable GPU: {why}\n"
                  f"check: libcases_cuda.so loaded; a call returns status "
                  f"{status}: {message}")
            return 2
        memory = DeviceMemory(runtime)
        name = "libcases_cuda.so"
    else:
        memory = HostMemory(runtime)
        name = "libcases_host.so"
    start = time.time()
    lib = ctypes.CDLL(os.path.join(args.dir, name))
    loaded = time.time() - start
    cases = manifest["cases"]
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["name"] in wanted]
    good = next(c for c in manifest["cases"]
                if c.get("expect") and not c.get("crash"))
    failures = []
    per_op = {}
    skipped = 0
    for case in cases:
        if "expect" not in case:
            print("check: no expected results: run `gpu_check.py expect` "
                  "first")
            return 2
        if case.get("crash"):
            skipped += 1
            continue
        op = case["what"].split()[0]
        per_op.setdefault(op, [0, 0])[0] += 1
        outcome = check_case(args.dir, memory, runtime, lib, case)
        if outcome is None and case.get("error"):
            # The call after a failed one works.
            outcome = check_case(args.dir, memory, runtime, lib, good)
            if outcome:
                outcome = "the call after the error: " + outcome
        if outcome:
            per_op[op][1] += 1
            failures.append(f"{case['name']} ({case['what']}): {outcome}")
    # The first failures in full; a broken library fails every case alike.
    for failure in failures[:25]:
        print("FAIL", failure)
    if len(failures) > 25:
        print(f"... and {len(failures) - 25} more failures")
    print(f"target {args.target}: library loaded in {loaded:.2f} s; "
          f"{len(cases)} cases in {time.time() - start:.1f} s, each run "
          "twice: " + ", ".join(f"{op} {n - f}/{n}"
                                for op, (n, f) in sorted(per_op.items())))
    if skipped:
        print(f"{skipped} cases not checked: the CPU library crashes on them")
    print(f"{len(failures)} failures")
    return 1 if failures else 0


def check_case(directory, memory, runtime, lib, case):
    """None if the case gives the expected result twice, else why not."""
    element = case["result"]["element"]
    outputs = []
    for run in range(2):
        arrays = [a.copy() for a in load_inputs(directory, case)]
        status, message, out, after = call(lib, memory, runtime, case, arrays)
        if case.get("error"):
            if status != ND_CUDA_ERROR_CHECK_FAILED:
                return f"run {run}: status {status} ({message!r}), expected " \
                       f"the error {case['error']!r}"
            if message != case["error"]:
                return f"run {run}: message {message!r}, expected " \
                       f"{case['error']!r}"
            continue
        if status != ND_CUDA_OK:
            return f"run {run}: status {status}: {message}"
        expected = np.load(os.path.join(directory, case["expect"]))
        if not same_values(as_floats(out, element),
                           as_floats(expected, element)):
            return f"run {run}: " + first_difference(
                as_floats(out, element), as_floats(expected, element))
        for index in case.get("donated", []):
            if not same_values(as_floats(after[index], element),
                               as_floats(expected, element)):
                return f"run {run}: the donated input {index} does not hold " \
                       "the result"
        outputs.append(out)
    if len(outputs) == 2 and not same_values(outputs[0], outputs[1]):
        return "the two runs differ"
    return None


def cmd_bench(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_gpu
    return bench_gpu.main(args.dir, args.only, args.quick)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    expect = sub.add_parser("expect", help="store the CPU library's results")
    expect.add_argument("dir")
    check = sub.add_parser("check", help="check the cases on a target")
    check.add_argument("dir")
    check.add_argument("--target", choices=("cuda", "host"), default="cuda")
    check.add_argument("--only", help="comma-separated case names")
    bench = sub.add_parser("bench", help="the GPU benchmark")
    bench.add_argument("dir")
    bench.add_argument("--only", help="comma-separated workload keys")
    bench.add_argument("--quick", action="store_true",
                       help="fewer runs per workload")
    args = parser.parse_args()
    return {"expect": cmd_expect, "check": cmd_check,
            "bench": cmd_bench}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
