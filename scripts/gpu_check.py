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
                      with the expected message (reported asynchronously by
                      nd_cuda_synchronize the first time, by the call itself
                      in synchronous mode the second), and the next call
                      work. Verdicts go to DIR/check-TARGET.json as they
                      come; a driver error (a fault kills the process's CUDA
                      context) ends the process with status 3 after recording
                      it, and `--resume` goes on from the next case in a
                      fresh process; `--deadline` (seconds since the epoch)
                      stops cleanly with status 4;
  bench DIR           the benchmark workloads on the GPU (bench_gpu.py), to
                      DIR/bench.json, with the same --resume and --deadline;
  report DIR          the summary of check-cuda.json, bench.json and
                      compiled.txt, printed and written to
                      DIR/gpu-results.md (for docs/gpu-results.md).

Needs python3 and numpy only (torch for `bench`); the libraries find nd's
runtime (libnd_cuda_runtime.so) beside them.
"""

import argparse
import ctypes
import datetime
import json
import os
import subprocess
import sys
import time

import numpy as np

ND_CUDA_OK = 0
ND_CUDA_ERROR_CHECK_FAILED = 2
ND_CUDA_ERROR_DRIVER = 5

# Exit statuses of `check` and `bench` besides 0 (passed) and 1 (failures):
# no usable GPU, a driver error (go on in a fresh process), out of time.
EXIT_NO_GPU = 2
EXIT_FAULT = 3
EXIT_DEADLINE = 4

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
        lib.nd_cuda_synchronize.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                            ctypes.c_size_t]
        lib.nd_cuda_synchronize.restype = ctypes.c_int32
        lib.nd_cuda_set_synchronous.argtypes = [ctypes.c_int32]
        lib.nd_cuda_set_synchronous.restype = ctypes.c_int32

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

    def synchronize(self, stream=None):
        """Waits for `stream` (None: the legacy default stream): the first
        unreported failure of nd's calls on it, or (0, "")."""
        message = ctypes.create_string_buffer(4096)
        status = self.lib.nd_cuda_synchronize(stream, message, len(message))
        return status, message.value.decode()

    def set_synchronous(self, synchronous):
        return self.lib.nd_cuda_set_synchronous(1 if synchronous else 0)

    def driver_calls(self):
        """nd_cuda_driver_calls as a dict."""
        counts = CallCounts()
        self.lib.nd_cuda_driver_calls(ctypes.byref(counts))
        return {name: getattr(counts, name) for name, _ in counts._fields_}


class CallCounts(ctypes.Structure):
    """nd_cuda_call_counts of nd-c/CudaRuntime.h."""
    _fields_ = [(name, ctypes.c_uint64) for name in (
        "launches", "copies", "memsets", "synchronizations", "allocations",
        "frees", "lookups")]


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

    def settle(self, status, message):
        return status, message


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
        # The legacy default stream, as nd_cuda_copy's.
        return self.runtime.begin(None)

    def settle(self, status, message):
        """The call's own status: a failed check of its kernels is reported
        by nd_cuda_synchronize (or, in synchronous mode, by the call)."""
        if status != ND_CUDA_OK:
            return status, message
        return self.runtime.synchronize(None)


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
    status, message = memory.settle(*runtime.end())
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
    """Where `got` first differs from `expected` (vectorised: a late
    difference in a large result costs no more than an early one)."""
    if got.shape != expected.shape:
        return f"shape {list(got.shape)}, expected {list(expected.shape)}"
    flat_got, flat_expected = got.reshape(-1), expected.reshape(-1)
    if np.issubdtype(expected.dtype, np.complexfloating):
        flat_got = np.stack([flat_got.real, flat_got.imag], -1)
        flat_expected = np.stack([flat_expected.real, flat_expected.imag], -1)
    if np.issubdtype(flat_expected.dtype, np.floating):
        bits = np.dtype(f"u{flat_expected.dtype.itemsize}")
        nan_got, nan_expected = np.isnan(flat_got), np.isnan(flat_expected)
        same = (flat_got.view(bits) == flat_expected.view(bits)) | \
            (nan_got & nan_expected)
    else:
        same = flat_got == flat_expected
    if same.ndim > 1:
        same = same.all(axis=-1)
    wrong = np.flatnonzero(~same)
    if wrong.size == 0:
        return "?"
    i = int(wrong[0])
    where = np.unravel_index(i, got.shape)
    return (f"at {list(map(int, where))}: {got.reshape(-1)[i]!r}, expected "
            f"{expected.reshape(-1)[i]!r} ({wrong.size} elements differ)")


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


class Results:
    """Verdicts as they come, in a JSON file that a later process of the
    same check (--resume) goes on from."""

    def __init__(self, path, resume, **fields):
        self.path = path
        self.data = {"entries": {}, **fields}
        if resume and os.path.exists(path):
            with open(path) as f:
                self.data = json.load(f)

    @property
    def entries(self):
        return self.data["entries"]

    def save(self):
        temporary = self.path + ".tmp"
        with open(temporary, "w") as f:
            json.dump(self.data, f, indent=1)
        os.replace(temporary, self.path)


def no_gpu(args, runtime, manifest, why):
    """Without a usable GPU: the library still loads, and a call fails with
    the driver's status and message."""
    lib = ctypes.CDLL(os.path.join(args.dir, "libcases_cuda.so"))
    case = manifest["cases"][0]
    arrays = load_inputs(args.dir, case)
    status, message, _, _ = call(lib, HostMemory(runtime), runtime, case,
                                 arrays)
    print(f"check: no usable GPU: {why}\n"
          f"check: libcases_cuda.so loaded; a call returns status "
          f"{status}: {message}")
    return EXIT_NO_GPU


def run_cases(args, runtime, memory, lib, cases, results):
    """Checks the cases not in `results` yet; returns EXIT_FAULT after a
    driver error, EXIT_DEADLINE when out of time, else None."""
    good = next(c for c in cases if c.get("expect") and not c.get("crash"))
    done = 0
    for case in cases:
        if case["name"] in results.entries or case.get("crash"):
            continue
        if args.deadline and time.time() > args.deadline:
            results.save()
            return EXIT_DEADLINE
        try:
            outcome = check_case(args.dir, memory, runtime, lib, case)
            if outcome is None and case.get("error"):
                # The call after a failed one works.
                outcome = check_case(args.dir, memory, runtime, lib, good)
                if outcome:
                    outcome = "the call after the error: " + outcome
        except DriverFault as fault:
            outcome = f"FAULT: {fault}"
        results.entries[case["name"]] = {
            "what": case["what"], "verdict": outcome or "pass"}
        done += 1
        if (outcome or "").startswith("FAULT"):
            results.save()
            print(f"FAULT {case['name']} ({case['what']}): {outcome}; the "
                  f"check goes on in a fresh process")
            return EXIT_FAULT
        if done % 25 == 0:
            results.save()
    results.save()
    return None


def cmd_check(args):
    runtime = Runtime(os.path.join(args.dir, "libnd_cuda_runtime.so"))
    manifest = load_manifest(args.dir)
    cases = manifest["cases"]
    if any("expect" not in c for c in cases):
        print("check: no expected results: run `gpu_check.py expect` first")
        return EXIT_NO_GPU
    if args.target == "cuda":
        status, why = runtime.available()
        if status != ND_CUDA_OK:
            return no_gpu(args, runtime, manifest, why)
        memory = DeviceMemory(runtime)
        name = "libcases_cuda.so"
    else:
        memory = HostMemory(runtime)
        name = "libcases_host.so"
    if args.only:
        wanted = set(args.only.split(","))
        cases = [c for c in cases if c["name"] in wanted]
    results = Results(os.path.join(args.dir, f"check-{args.target}.json"),
                      args.resume, target=args.target)
    start = time.time()
    lib = ctypes.CDLL(os.path.join(args.dir, name))
    results.data.setdefault("load_seconds", time.time() - start)
    stopped = run_cases(args, runtime, memory, lib, cases, results)
    results.data["seconds"] = results.data.get("seconds", 0) + \
        time.time() - start
    results.save()
    if stopped == EXIT_FAULT:
        return EXIT_FAULT
    print(summarize_cases(results.data, cases))
    if stopped == EXIT_DEADLINE:
        print("check: out of time before every case ran")
        return EXIT_DEADLINE
    return 1 if failed_cases(results.data) else 0


def failed_cases(data):
    return [(name, entry) for name, entry in data["entries"].items()
            if entry["verdict"] != "pass"]


def summarize_cases(data, cases):
    """Per op: cases passed of cases run; the first failures in full (a
    broken library fails every case alike)."""
    per_op = {}
    for name, entry in data["entries"].items():
        op = entry["what"].split()[0]
        counts = per_op.setdefault(op, [0, 0])
        counts[0] += 1
        counts[1] += entry["verdict"] == "pass"
    lines = []
    failures = failed_cases(data)
    for name, entry in failures[:25]:
        lines.append(f"FAIL {name} ({entry['what']}): {entry['verdict']}")
    if len(failures) > 25:
        lines.append(f"... and {len(failures) - 25} more failures")
    crashed = sum(1 for c in cases if c.get("crash"))
    not_run = len(cases) - crashed - len(data["entries"])
    lines.append(
        f"target {data['target']}: library loaded in "
        f"{data.get('load_seconds', 0):.2f} s; {len(data['entries'])} cases "
        f"in {data.get('seconds', 0):.1f} s, each run twice: " +
        ", ".join(f"{op} {ok}/{n}" for op, (n, ok) in sorted(per_op.items())))
    if crashed:
        lines.append(f"{crashed} cases not checked: the CPU library crashes "
                     "on them")
    if not_run > 0:
        lines.append(f"{not_run} cases not run")
    lines.append(f"{len(failures)} failures")
    return "\n".join(lines)


class DriverFault(Exception):
    """A driver error: the process's CUDA context may be dead."""


def check_case(directory, memory, runtime, lib, case):
    """None if the case gives the expected result twice, else why not. An
    error case runs once reported asynchronously (nd_cuda_synchronize) and
    once in synchronous mode (the call's own status)."""
    element = case["result"]["element"]
    outputs = []
    for run in range(2):
        arrays = [a.copy() for a in load_inputs(directory, case)]
        synchronous = bool(case.get("error")) and run == 1 and \
            isinstance(memory, DeviceMemory)
        if synchronous:
            runtime.set_synchronous(True)
        try:
            status, message, out, after = call(lib, memory, runtime, case,
                                               arrays)
        except RuntimeError as error:
            raise DriverFault(str(error)) from None
        finally:
            if synchronous:
                runtime.set_synchronous(False)
        if status == ND_CUDA_ERROR_DRIVER and isinstance(memory,
                                                         DeviceMemory):
            raise DriverFault(message)
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
    return bench_gpu.main(args.dir, args.only, args.quick, args.resume,
                          args.deadline)


def cmd_profile(args):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_gpu
    return bench_gpu.profile(args.dir, args.only, deadline=args.deadline)


# ---------------------------------------------------------------------------
# The record of a run
# ---------------------------------------------------------------------------

def load_json(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def environment():
    """The GPU and its driver (nvidia-smi), or what is known without one."""
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
             "--format=csv,noheader"], capture_output=True, text=True,
            timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        out = ""
    return out or "no nvidia-smi (no NVIDIA GPU or driver)"


def case_table(data, cases):
    """Every case's verdict, one row each."""
    if not data:
        return ["The test cases did not run."]
    rows = ["| case | what | verdict |", "|---|---|---|"]
    for case in cases:
        entry = data["entries"].get(case["name"])
        verdict = entry["verdict"] if entry else (
            "not checked (the CPU library crashes)" if case.get("crash")
            else "not run")
        rows.append(f"| {case['name']} | {case['what']} | "
                    f"{verdict.replace('|', '/')} |")
    return rows


def bench_table(bench):
    """One row per workload: nd's time beside its floor and torch's."""
    if not bench or not bench.get("entries"):
        return [bench.get("note", "The benchmark did not run.")
                if bench else "The benchmark did not run."]
    lines = [f"Device: {bench.get('device', '?')}; copy bandwidth "
             f"{bench.get('bandwidth', 0) / 1e12:.2f} TB/s (read + write, "
             f"device-to-device, 1 GiB); a launch {bench.get('launch_us', 0):.1f}"
             f" us back to back; torch {bench.get('torch', '?')}.", ""]
    header = bench_gpu_header()
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "---|" * len(header))
    for key, row in bench["entries"].items():
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    return lines


def bench_gpu_header():
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import bench_gpu
    return bench_gpu.HEADER


def cmd_report(args):
    prepared = os.path.exists(os.path.join(args.dir, "cases.json"))
    cases = load_manifest(args.dir)["cases"] if prepared else []
    check = load_json(os.path.join(args.dir, "check-cuda.json"))
    bench = load_json(os.path.join(args.dir, "bench.json"))
    compiled_path = os.path.join(args.dir, "compiled.txt")
    compiled = open(compiled_path).read().strip() \
        if os.path.exists(compiled_path) else "did not run"
    date = datetime.datetime.now(datetime.timezone.utc).strftime(
        "%Y-%m-%d %H:%M UTC")
    lines = [f"## GPU check of {date}", "",
             f"- GPU and driver: {environment()}",
             f"- Python {sys.version.split()[0]}, numpy {np.__version__}",
             f"- Steps: {args.steps or 'see the log'}", ""]
    lines.append("### Test cases against nd's CPU results")
    lines.append("")
    if not prepared:
        lines += ["Not prepared: a folder of `ND_GPU_BENCH_ONLY=1 "
                  "gpu-prepare.sh` (the benchmark alone).", ""]
    else:
        if check:
            lines += ["```", summarize_cases(check, cases), "```", ""]
        lines += ["<details><summary>Every case</summary>", ""]
        lines += case_table(check, cases)
        lines += ["", "</details>", ""]
    lines += ["### Benchmark", ""]
    lines += bench_table(bench)
    profile_path = os.path.join(args.dir, "profile.txt")
    if os.path.exists(profile_path):
        lines += ["", "<details><summary>Where the time goes (gpu_check.py "
                  "profile: the host's queueing of a call, the GPU's span, "
                  "each kernel's GPU time by torch's profiler)</summary>",
                  "", "```", open(profile_path).read().rstrip(), "```", "",
                  "</details>"]
    lines += ["", "### A library of nd-compile --target=cuda", "", "```",
              compiled, "```", ""]
    text = "\n".join(lines)
    with open(os.path.join(args.dir, "gpu-results.md"), "w") as f:
        f.write(text)
    failures = len(failed_cases(check)) if check else None
    print(f"report: {os.path.join(args.dir, 'gpu-results.md')} ("
          + (f"{len(cases)} cases: " if prepared else "cases not prepared")
          + ((f"{len(check['entries'])} run, {failures} failures"
              if check else "not run") if prepared else "") + "; "
          + (f"{len(bench['entries'])} workloads" if bench and
             bench.get("entries") else "no benchmark") + ")")
    return 0


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
    for command in (check, bench):
        command.add_argument("--resume", action="store_true",
                             help="go on from the verdicts recorded so far")
        command.add_argument("--deadline", type=float, default=0,
                             help="stop cleanly after this time (seconds "
                                  "since the epoch)")
    prof = sub.add_parser("profile", help="where the benchmark's time goes")
    prof.add_argument("dir")
    prof.add_argument("--only", help="comma-separated workload keys")
    prof.add_argument("--deadline", type=float, default=0,
                      help="stop cleanly after this time (seconds since the "
                           "epoch)")
    report = sub.add_parser("report", help="the record of a run")
    report.add_argument("dir")
    report.add_argument("--steps", help="the steps' verdicts, for the record")
    args = parser.parse_args()
    return {"expect": cmd_expect, "check": cmd_check, "bench": cmd_bench,
            "report": cmd_report, "profile": cmd_profile}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
