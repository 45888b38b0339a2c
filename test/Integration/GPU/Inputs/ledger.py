"""The driver calls of one call of each benchmark workload (bench/bench.py's
GPU workloads, scripts/bench_gpu.py), on the stand-in driver of
fake_cuda_driver.c (LD_LIBRARY_PATH): the device form through nd's call
scope, on the legacy default stream (NULL), CU_STREAM_LEGACY,
CU_STREAM_PER_THREAD and a stream of the caller's.

  ledger.py SCRIPTS_DIR LIBBENCH_CUDA LIBND_CUDA_RUNTIME

For each workload and stream, three calls: the first may allocate what the
runtime keeps (the stream's error record, its pinned slots, the scratch
arena); the third is the steady state, counted and held to BUDGETS below.
Every driver call of every call must name the stream the call was given,
but for the one-time setup of a stream's pinned slots (a driver call that
takes no stream), and no call may look a kernel up (the kernels are listed
when the library loads). Prints one line per workload; exits 1 on a violation."""

import ctypes
import sys

# The most a steady-state call may ask of the driver, per workload: one
# table (docs/Rationale.md, "GPU calls", says why each number). `sync` and
# `lookups` are zero for every workload of the device form.
COLUMNS = ("launches", "copies", "memsets", "sync", "allocs", "frees",
           "lookups")
BUDGETS = {
    #       (launches, copies, memsets, sync, allocs, frees, lookups)
    "a":    (1, 2, 0, 0, 1, 1, 0),
    "a'":   (1, 1, 0, 0, 0, 0, 0),
    "b":    (2, 2, 1, 0, 1, 1, 0),
    "b2":   (2, 2, 1, 0, 1, 1, 0),
    "c1":   (5, 1, 1, 0, 1, 1, 0),
    "c2":   (2, 1, 0, 0, 1, 1, 0),
    "d":    (2, 1, 0, 0, 1, 1, 0),
    "e":    (2, 1, 0, 0, 1, 1, 0),
    "f":    (14, 1, 3, 0, 1, 1, 0),
    "g":    (2, 1, 0, 0, 1, 1, 0),
    "g'":   (2, 2, 1, 0, 1, 1, 0),
    "h":    (2, 1, 0, 0, 1, 1, 0),
    "h32":  (2, 1, 0, 0, 1, 1, 0),
    "i":    (2, 1, 0, 0, 1, 1, 0),
    "j":    (2, 1, 1, 0, 0, 0, 0),
}
# What the runtime sets up once per stream, in the first call on it, with
# driver calls that take no stream: the pinned slots of its error record.
SETUP = {"cuMemAllocHost"}

KIND = {
    "cuLaunchKernel": "launches",
    "cuMemcpyAsync": "copies",
    "cuMemsetD16Async": "memsets", "cuMemsetD32Async": "memsets",
    "cuStreamSynchronize": "sync", "cuEventSynchronize": "sync",
    "cuMemAllocAsync": "allocs", "cuMemAlloc": "allocs",
    "cuMemAllocHost": "allocs", "cuMemAllocManaged": "allocs",
    "cuMemFreeAsync": "frees", "cuMemFree": "frees", "cuMemFreeHost": "frees",
    "cuModuleGetFunction": "lookups",
}
NO_STREAM = ctypes.c_size_t(-1).value


class Driver:
    """The stand-in driver's ledger."""

    def __init__(self):
        self.lib = lib = ctypes.CDLL("libcuda.so.1")
        lib.fake_ledger_length.restype = ctypes.c_long
        lib.fake_ledger_call.restype = ctypes.c_char_p
        lib.fake_ledger_call.argtypes = [ctypes.c_long]
        lib.fake_ledger_stream.restype = ctypes.c_size_t
        lib.fake_ledger_stream.argtypes = [ctypes.c_long]
        lib.fake_fail_next_check.argtypes = [ctypes.c_int64] * 3

    def entries(self, start=0):
        n = self.lib.fake_ledger_length()
        return [(self.lib.fake_ledger_call(i).decode(),
                 self.lib.fake_ledger_stream(i)) for i in range(start, n)]

    def mark(self):
        return self.lib.fake_ledger_length()

    def stream(self):
        handle = ctypes.c_void_p()
        self.lib.cuStreamCreate(ctypes.byref(handle), 1)
        return handle.value


def counts(entries):
    out = dict.fromkeys(COLUMNS, 0)
    for call, _ in entries:
        kind = KIND.get(call)
        if kind:
            out[kind] += 1
    return out


def main(scripts, bench_path, runtime_path):
    sys.path.insert(0, scripts)
    from bench_gpu import WORKLOADS, SIGNATURES, RESULTS, function_name
    from gpu_check import descriptor, descriptor_type

    driver = Driver()
    runtime = ctypes.CDLL(runtime_path, mode=ctypes.RTLD_GLOBAL)
    runtime.nd_cuda_alloc.restype = ctypes.c_void_p
    runtime.nd_cuda_alloc.argtypes = [ctypes.c_size_t]
    runtime.nd_cuda_free.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    runtime.nd_cuda_begin.argtypes = [ctypes.c_void_p]
    runtime.nd_cuda_end.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    loaded = driver.mark()
    bench = ctypes.CDLL(bench_path)
    load = counts(driver.entries(loaded))
    print(f"load: {load['lookups']} lookups")

    streams = [("NULL", None), ("legacy", 1), ("per-thread", 2),
               ("created", driver.stream())]
    sizes = {"f16": 2, "bf16": 2, "f32": 4, "i64": 8}
    failures = []
    for workload in WORKLOADS:
        element, shapes = SIGNATURES[workload.key]
        buffers = []
        for position, shape in enumerate(shapes):
            size = sizes["i64" if position == 1 else element]
            count = 1
            for d in shape:
                count *= d
            buffers.append((runtime.nd_cuda_alloc(count * size), shape))
        fn = getattr(bench, "_mlir_ciface_" + function_name(workload.key))
        fn.restype = None
        rank = len(RESULTS.get(workload.key, shapes[0]))
        steady = None
        for name, stream in streams:
            for run in range(3):
                start = driver.mark()
                result = descriptor_type(rank)()
                message = ctypes.create_string_buffer(1024)
                status = runtime.nd_cuda_begin(stream)
                if status == 0:
                    fn(ctypes.byref(result),
                       *[ctypes.byref(descriptor(p, s)) for p, s in buffers])
                status = runtime.nd_cuda_end(message, len(message))
                if result.allocated != buffers[0][0]:
                    runtime.nd_cuda_free(result.allocated, stream)
                entries = driver.entries(start)
                if status:
                    failures.append(f"{workload.key} on {name}: status "
                                    f"{status}: {message.value.decode()}")
                expected = 0 if stream is None else stream
                strays = sorted({call for call, s in entries
                                 if s != expected and
                                 not (run == 0 and call in SETUP)})
                if strays:
                    failures.append(f"{workload.key} on {name}, call {run}: "
                                    f"not on the call's stream: "
                                    + ", ".join(strays))
                if counts(entries)["lookups"]:
                    failures.append(f"{workload.key} on {name}, call {run}: "
                                    f"a kernel looked up in the call")
            got = counts(entries)
            if steady is None:
                steady = got
            elif got != steady:
                failures.append(f"{workload.key} on {name}: {got}, on NULL "
                                f"{steady}")
        budget = dict(zip(COLUMNS, BUDGETS[workload.key]))
        over = [f"{c} {steady[c]} > {budget[c]}" for c in COLUMNS
                if steady[c] > budget[c]]
        if steady["sync"]:
            over.append("a synchronization in the device form")
        if over:
            failures.append(f"{workload.key}: over budget: " + ", ".join(over))
        print(f"{workload.key}: " +
              " ".join(f"{c} {steady[c]}" for c in COLUMNS) +
              ("" if over else " (within budget)"))
        for pointer, _ in buffers:
            runtime.nd_cuda_free(pointer, None)
    for failure in failures:
        print("FAIL", failure)
    print(f"ledger: {len(WORKLOADS)} workloads on {len(streams)} streams, "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))
