#!/usr/bin/env python3
"""nd's GPU benchmark: the workloads of bench/bench.py (and the MoE and paged
KV-cache workloads h, i, j) run by nd's GPU code beside PyTorch on CUDA, with
and without torch.use_deterministic_algorithms(True).

  bench_gpu.py --write-mlir PATH     the workloads as MLIR functions (on the
                                     build machine, for gpu-prepare.sh)
  gpu_check.py bench DIR             the benchmark (on the GPU machine)

Each workload's inputs are drawn with a fixed seed on the GPU machine. nd's
result is compared bit for bit with nd's CPU code (libbench_cpu.so, on the
same inputs) and run twice on the GPU (repeatability: bit-identical runs).
Times are medians of wall-clock times per call, each call followed by a
synchronization of the stream (nd's calls queue their work and return).
nd's function is called as a C caller calls it: the memref descriptors of
its inputs are built once per workload, not in Python at every call (which
took 5-13 us a call on an H100 machine, 2026-11-28); each call still goes
through nd_cuda_begin and nd_cuda_end and allocates its result. torch is
called from Python as its users call it.
`% BW` is the bytes a workload must move (read once + written once) per
second against the device's copy bandwidth, measured here with a
device-to-device copy of 1 GiB. The floor is what the workload cannot beat
there: those bytes at that bandwidth plus its launches (counted by nd's
runtime, nd_cuda_driver_calls) at the cost of a launch measured there (the
GPU time per kernel of a CUDA graph of one-element torch kernels). The
driver calls of one call are listed as launches/copies/memsets/
synchronizations/allocations.

Results go to DIR/bench.json as they come: a driver error (which may kill
the process's CUDA context) ends the process with status 3 after recording
it, and `--resume` goes on with the next workload in a fresh process.
"""

import ctypes
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def zipf_ids(rng, n, vocab, s):
    p = np.arange(1, vocab + 1, dtype=np.float64) ** -s
    p /= p.sum()
    return rng.permutation(vocab)[rng.choice(vocab, size=n, p=p)]


class Workload:
    def __init__(self, key, title, op, attrs, make, torch_run, moved,
                 donated=False, reduction=False, runs=20):
        self.key, self.title, self.op, self.attrs = key, title, op, attrs
        self.make, self.torch_run, self.moved = make, torch_run, moved
        self.donated, self.reduction, self.runs = donated, reduction, runs


# Inputs: {"data", "indices", "updates"} in the op's operand order; bf16
# arrays as float32 values exact in bf16 (converted on the device).

def kv_cache(rng, seq=4096):
    data = rng.standard_normal((1, 32, seq, 128)).astype(np.float16)
    indices = np.zeros((1, 32, 1, 3), np.int64)
    indices[0, :, 0, 1] = np.arange(32)
    indices[0, :, 0, 2] = seq - 1
    updates = rng.standard_normal((1, 32, 1, 128)).astype(np.float16)
    return {"data": data, "indices": indices, "updates": updates}


def points(rng):
    data = rng.standard_normal((256, 256, 256)).astype(np.float32)
    flat = rng.choice(256 ** 3, size=1 << 20, replace=False)
    indices = np.stack(np.unravel_index(flat, (256,) * 3), axis=-1)
    return {"data": data, "indices": indices.astype(np.int64),
            "updates": rng.standard_normal(1 << 20).astype(np.float32)}


def yolo(rng):
    shape = (1, 3, 80, 80, 85)
    grid = np.indices(shape[:-1] + (2,)).transpose(1, 2, 3, 4, 5, 0)
    return {"data": rng.random(shape, dtype=np.float32),
            "indices": np.ascontiguousarray(grid).astype(np.int64),
            "updates": rng.random(shape[:-1] + (2,), dtype=np.float32)}


def histogram(rng):
    return {"data": np.zeros(1 << 16, np.float32),
            "indices": rng.integers(0, 1 << 16, size=(4 << 20, 1),
                                    dtype=np.int64),
            "updates": rng.random(4 << 20, dtype=np.float32)}


def embedding_grad(rng):
    return {"data": (rng.standard_normal((50257, 768)) * 1e-3).astype(
                np.float32),
            "indices": zipf_ids(rng, 8192, 50257, 1.0).astype(np.int64)[:, None],
            "updates": rng.standard_normal((8192, 768)).astype(np.float32)}


def mlm(rng):
    positions = np.stack([np.sort(rng.choice(512, 80, replace=False))
                          for _ in range(64)])
    return {"data": rng.standard_normal((64, 512, 1024)).astype(np.float32),
            "indices": positions.astype(np.int64)[..., None]}


def embedding(rng):
    return {"data": rng.standard_normal((50257, 768)).astype(np.float32),
            "indices": zipf_ids(rng, 65536, 50257, 1.0).astype(np.int64)[:, None]}


def gnn(rng):
    dst = zipf_ids(rng, 1166243, 169343, 0.7).astype(np.int64)
    return {"data": rng.standard_normal((169343, 128)).astype(np.float32),
            "indices": np.repeat(dst[:, None], 128, axis=1),
            "updates": rng.standard_normal((1166243, 128)).astype(np.float32)}


def sorted_logits(rng):
    data = rng.standard_normal((64, 128256)).astype(np.float32)
    return {"data": data,
            "indices": np.argsort(-data, axis=1, kind="stable").astype(np.int64)}


def unsort(rng):
    logits = rng.standard_normal((64, 128256)).astype(np.float32)
    return {"data": np.zeros((64, 128256), np.float32),
            "indices": np.argsort(-logits, axis=1, kind="stable").astype(np.int64),
            "updates": rng.random((64, 128256), dtype=np.float32)}


def bf16_values(rng, shape):
    """float32 values exact in bf16."""
    values = rng.standard_normal(shape).astype(np.float32)
    return (values.view(np.uint32) & 0xFFFF0000).view(np.float32)


def moe_combine(dtype):
    def make(rng):
        tokens = rng.permutation(np.repeat(np.arange(4096), 8))
        updates = bf16_values(rng, (32768, 7168))
        return {"data": np.zeros((4096, 7168), np.float32),
                "indices": tokens.astype(np.int64)[:, None],
                "updates": updates, "dtype": dtype}
    return make


def moe_dispatch(rng):
    tokens = rng.permutation(np.repeat(np.arange(4096), 8))
    return {"data": bf16_values(rng, (4096, 7168)),
            "indices": tokens.astype(np.int64)[:, None], "dtype": "bf16"}


def paged_kv(rng):
    slots = rng.choice(524288, size=4096, replace=False)
    return {"data": np.zeros((524288, 8, 128), np.float32),
            "indices": slots.astype(np.int64)[:, None],
            "updates": bf16_values(rng, (4096, 8, 128)), "dtype": "bf16"}


# Bytes a workload must move: what must be read once plus what is written.

def nbytes(t, *names):
    return sum(t[n].numel() * t[n].element_size() for n in names)


def moved_scatter_unique(t, slices, slice_elems):
    data = nbytes(t, "data")
    covered = slices * slice_elems * t["data"].element_size()
    return nbytes(t, "indices", "updates") + 2 * data - covered


def moved_gather(t, rows, row_bytes):
    import torch
    distinct = torch.unique(rows).numel()
    return nbytes(t, "indices") + distinct * row_bytes + rows.numel() * row_bytes


# PyTorch formulations: run(t) computes the result into preallocated `out`
# where torch allows one.

def torch_copy_index_put(accumulate=False):
    def setup(t):
        out = t["data"].clone()
        key = tuple(t["indices"][..., i] for i in range(t["indices"].shape[-1]))

        def run():
            out.copy_(t["data"])
            out.index_put_(key, t["updates"], accumulate=accumulate)
            return out
        return run
    return setup


def torch_in_place_index_put(t):
    cache = t["data"]
    key = tuple(t["indices"][..., i] for i in range(t["indices"].shape[-1]))

    def run():
        cache.index_put_(key, t["updates"])
        return cache
    return run


def torch_copy_index_add(t):
    out = t["data"].clone()
    index = t["indices"][:, 0]

    def run():
        out.copy_(t["data"])
        out.index_add_(0, index, t["updates"])
        return out
    return run


def torch_copy_scatter_add(t):
    out = t["data"].clone()

    def run():
        out.copy_(t["data"])
        out.scatter_add_(0, t["indices"], t["updates"])
        return out
    return run


def torch_copy_scatter(t):
    out = t["data"].clone()

    def run():
        out.copy_(t["data"])
        out.scatter_(1, t["indices"], t["updates"])
        return out
    return run


def torch_mlm_gather(t):
    import torch
    data, ind = t["data"], t["indices"]
    index = ind.expand(ind.shape[0], ind.shape[1], data.shape[2])
    out = torch.empty(index.shape, dtype=data.dtype, device=data.device)
    return lambda: torch.gather(data, 1, index, out=out)


def torch_index_select(t):
    import torch
    index = t["indices"][:, 0]
    out = torch.empty((index.numel(),) + tuple(t["data"].shape[1:]),
                      dtype=t["data"].dtype, device=t["data"].device)
    return lambda: torch.index_select(t["data"], 0, index, out=out)


def torch_gather_elements(t):
    import torch
    out = torch.empty(t["indices"].shape, dtype=t["data"].dtype,
                      device=t["data"].device)
    return lambda: torch.gather(t["data"], 1, t["indices"], out=out)


def mlm_moved(t):
    import torch
    data, ind = t["data"], t["indices"]
    offsets = torch.arange(data.shape[0], device=ind.device)[:, None] * \
        data.shape[1]
    return moved_gather(t, ind[..., 0] + offsets,
                        data.shape[2] * data.element_size())


WORKLOADS = [
    Workload("a", "KV-cache ScatterND f16 [1,32,4096,128], out of place",
             "scatter_nd", {}, kv_cache, torch_copy_index_put(),
             lambda t: moved_scatter_unique(t, 32, 128), runs=50),
    Workload("a'", "the same, in place (donated)", "scatter_nd", {}, kv_cache,
             torch_in_place_index_put,
             lambda t: nbytes(t, "indices") + 2 * nbytes(t, "updates"),
             donated=True, runs=100),
    Workload("b", "point ScatterND f32 [256]^3, 2^20 k=3 tuples", "scatter_nd",
             {}, points, torch_copy_index_put(),
             lambda t: moved_scatter_unique(t, 1 << 20, 1), runs=20),
    Workload("b2", "YOLOv5 ScatterND k=5 f32 [1,3,80,80,85]", "scatter_nd", {},
             yolo, torch_copy_index_put(),
             lambda t: moved_scatter_unique(t, 38400, 1), runs=50),
    Workload("c1", "histogram ScatterND add, 4M -> 64K f32", "scatter_nd",
             {"reduction": "add"}, histogram, torch_copy_index_add,
             lambda t: nbytes(t, "indices", "updates") + 2 * nbytes(t, "data"),
             reduction=True, runs=20),
    Workload("c2", "embedding-gradient ScatterND add f32 [50257,768] <- 8192",
             "scatter_nd", {"reduction": "add"}, embedding_grad,
             torch_copy_index_add,
             lambda t: nbytes(t, "indices", "updates") + 2 * nbytes(t, "data"),
             reduction=True, runs=20),
    Workload("d", "BERT GatherND batch_dims=1 f32 [64,512,1024], [64,80,1]",
             "gather_nd", {"batch_dims": 1}, mlm, torch_mlm_gather, mlm_moved,
             runs=50),
    Workload("e", "embedding GatherND f32 [50257,768], 65,536 ids",
             "gather_nd", {}, embedding, torch_index_select,
             lambda t: moved_gather(t, t["indices"][:, 0],
                                    768 * t["data"].element_size()), runs=30),
    Workload("f", "GNN ScatterElements add axis 0, f32 1.17M x 128",
             "scatter_elements", {"axis": 0, "reduction": "add"}, gnn,
             torch_copy_scatter_add,
             lambda t: nbytes(t, "indices", "updates") + 2 * nbytes(t, "data"),
             reduction=True, runs=5),
    Workload("g", "GatherElements axis 1 f32 [64,128256], permutations",
             "gather_elements", {"axis": 1}, sorted_logits,
             torch_gather_elements,
             lambda t: nbytes(t, "indices", "data") + nbytes(t, "data"),
             runs=20),
    Workload("g'", "ScatterElements axis 1 f32 [64,128256], permutations",
             "scatter_elements", {"axis": 1}, unsort, torch_copy_scatter,
             lambda t: nbytes(t, "indices", "updates") + nbytes(t, "data"),
             runs=20),
    Workload("h", "MoE combine ScatterND add bf16 [4096,7168] <- 32,768 rows",
             "scatter_nd", {"reduction": "add"}, moe_combine("bf16"),
             torch_copy_index_add,
             lambda t: nbytes(t, "indices", "updates") + 2 * nbytes(t, "data"),
             reduction=True, runs=10),
    Workload("h32", "MoE combine, f32", "scatter_nd", {"reduction": "add"},
             moe_combine("f32"), torch_copy_index_add,
             lambda t: nbytes(t, "indices", "updates") + 2 * nbytes(t, "data"),
             reduction=True, runs=10),
    Workload("i", "MoE dispatch GatherND bf16 [4096,7168] -> 32,768 rows",
             "gather_nd", {}, moe_dispatch, torch_index_select,
             lambda t: nbytes(t, "indices", "data") +
             32768 * 7168 * t["data"].element_size(), runs=10),
    Workload("j", "paged KV write ScatterND bf16 [524288,8,128] <- 4096, in "
             "place", "scatter_nd", {}, paged_kv, torch_in_place_index_put,
             lambda t: nbytes(t, "indices") + 2 * nbytes(t, "updates"),
             donated=True, runs=50),
]

# The shapes and element types of each workload's operands, for the MLIR.
SIGNATURES = {
    "a": ("f16", [(1, 32, 4096, 128), (1, 32, 1, 3), (1, 32, 1, 128)]),
    "a'": ("f16", [(1, 32, 4096, 128), (1, 32, 1, 3), (1, 32, 1, 128)]),
    "b": ("f32", [(256, 256, 256), (1 << 20, 3), (1 << 20,)]),
    "b2": ("f32", [(1, 3, 80, 80, 85), (1, 3, 80, 80, 2, 5),
                   (1, 3, 80, 80, 2)]),
    "c1": ("f32", [(65536,), (4 << 20, 1), (4 << 20,)]),
    "c2": ("f32", [(50257, 768), (8192, 1), (8192, 768)]),
    "d": ("f32", [(64, 512, 1024), (64, 80, 1)]),
    "e": ("f32", [(50257, 768), (65536, 1)]),
    "f": ("f32", [(169343, 128), (1166243, 128), (1166243, 128)]),
    "g": ("f32", [(64, 128256), (64, 128256)]),
    "g'": ("f32", [(64, 128256), (64, 128256), (64, 128256)]),
    "h": ("bf16", [(4096, 7168), (32768, 1), (32768, 7168)]),
    "h32": ("f32", [(4096, 7168), (32768, 1), (32768, 7168)]),
    "i": ("bf16", [(4096, 7168), (32768, 1)]),
    "j": ("bf16", [(524288, 8, 128), (4096, 1), (4096, 8, 128)]),
}
RESULTS = {"d": (64, 80, 1024), "e": (65536, 768), "g": (64, 128256),
           "i": (32768, 7168)}


def function_name(key):
    return "bench_" + key.replace("'", "_in_place")


def tensor(shape, element):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def mlir_of(workload):
    element, shapes = SIGNATURES[workload.key]
    names = ["data", "indices", "updates"][:len(shapes)]
    types = [tensor(s, "i64" if n == "indices" else element)
             for n, s in zip(names, shapes)]
    result = tensor(RESULTS.get(workload.key, shapes[0]), element)
    args = []
    for i, (name, type_) in enumerate(zip(names, types)):
        donated = " {nd.donated}" if i == 0 and workload.donated else ""
        args.append(f"%{name}: {type_}{donated}")
    props = []
    for key, value in workload.attrs.items():
        if key == "reduction":
            props.append(f"reduction = #nd.reduction<{value}>")
        else:
            props.append(f"{key} = {value} : i64")
    prop_text = f" <{{{', '.join(props)}}}>" if props else ""
    values = ", ".join(f"%{n}" for n in names)
    return (f"func.func @{function_name(workload.key)}({', '.join(args)}) -> "
            f"{result} attributes {{llvm.emit_c_interface}} {{\n"
            f'  %r = "nd.{workload.op}"({values}){prop_text} : '
            f"({', '.join(types)}) -> {result}\n"
            f"  return %r : {result}\n}}\n")


def write_mlir(path):
    with open(path, "w") as f:
        f.write("\n".join(mlir_of(w) for w in WORKLOADS))


# ---------------------------------------------------------------------------
# Running
# ---------------------------------------------------------------------------

HEADER = ["workload", "nd us", "floor us", "nd/floor", "nd % BW", "torch us",
          "torch det us", "nd/torch", "nd/torch det", "driver calls",
          "bit-exact vs CPU", "repeatable"]

EXIT_NO_GPU, EXIT_FAULT, EXIT_DEADLINE = 2, 3, 4


def median_time(run, sync, runs, warmup=2):
    for _ in range(warmup):
        run()
    sync()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def copy_bandwidth(torch, stream):
    """Bytes per second of a device-to-device copy, counting read + write."""
    size = 1 << 30
    src = torch.empty(size, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    with torch.cuda.stream(stream):
        t = median_time(lambda: dst.copy_(src), stream.synchronize, 20)
    del src, dst
    return 2 * size / t


def launch_cost(torch, stream):
    """Seconds of GPU time per kernel launched back to back: a CUDA graph of
    200 one-element kernels, timed with events (no host in the way); where
    graphs fail, the same kernels launched one by one (an upper bound)."""
    x = torch.zeros(1, device="cuda")
    count = 200
    with torch.cuda.stream(stream):
        for _ in range(3):
            x.add_(1)
        stream.synchronize()
        try:
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):
                for _ in range(count):
                    x.add_(1)

            def replay():
                graph.replay()
        except Exception:  # graphs unavailable: eager launches

            def replay():
                for _ in range(count):
                    x.add_(1)
        replay()
        stream.synchronize()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        times = []
        for _ in range(5):
            start.record(stream)
            replay()
            stop.record(stream)
            stop.synchronize()
            times.append(start.elapsed_time(stop) * 1e-3 / count)
    return statistics.median(times)


class NdFunction:
    """A workload's function in a library, called on torch CUDA tensors or
    (the CPU library) numpy arrays."""

    def __init__(self, lib, workload):
        from gpu_check import descriptor_type
        self.fn = getattr(lib, "_mlir_ciface_" + function_name(workload.key))
        self.fn.restype = None
        self.rank = len(RESULTS.get(workload.key,
                                    SIGNATURES[workload.key][1][0]))
        self.result_type = descriptor_type(self.rank)

    def __call__(self, pointers_and_shapes):
        return self.call(self.arguments(pointers_and_shapes))

    def arguments(self, pointers_and_shapes):
        """The inputs' descriptors, by reference, to call with again and
        again (as a C caller holds them)."""
        from gpu_check import descriptor
        descs = [descriptor(p, s) for p, s in pointers_and_shapes]
        return descs, [ctypes.byref(d) for d in descs]

    def call(self, arguments):
        result = self.result_type()
        self.fn(ctypes.byref(result), *arguments[1])
        return result


class Fault(Exception):
    """A driver error: the process's CUDA context may be dead."""


def main(directory, only=None, quick=False, resume=False, deadline=0):
    import torch
    from gpu_check import Results, Runtime
    results = Results(os.path.join(directory, "bench.json"), resume)
    if not torch.cuda.is_available():
        results.data["note"] = "torch sees no CUDA device: not run"
        results.save()
        print("bench: torch sees no CUDA device")
        return EXIT_NO_GPU
    runtime = Runtime(os.path.join(directory, "libnd_cuda_runtime.so"))
    status, why = runtime.available()
    if status:
        results.data["note"] = f"nd's runtime has no usable GPU: {why}"
        results.save()
        print(f"bench: nd's runtime has no usable GPU: {why}")
        return EXIT_NO_GPU
    gpu = ctypes.CDLL(os.path.join(directory, "libbench_cuda.so"))
    cpu = ctypes.CDLL(os.path.join(directory, "libbench_cpu.so"))
    stream = torch.cuda.Stream()
    if "bandwidth" not in results.data:
        results.data.update(
            bandwidth=copy_bandwidth(torch, stream),
            launch_us=launch_cost(torch, stream) * 1e6,
            device=torch.cuda.get_device_name(), torch=torch.__version__)
        results.save()
    data = results.data
    print(f"device: {data['device']}; copy bandwidth "
          f"{data['bandwidth'] / 1e12:.2f} TB/s (read + write); a launch "
          f"{data['launch_us']:.1f} us; torch {data['torch']}", flush=True)
    keys = set(only.split(",")) if only else None
    for workload in WORKLOADS:
        if (keys and workload.key not in keys) or \
                workload.key in results.entries:
            continue
        if deadline and time.time() > deadline:
            print("bench: out of time before every workload ran")
            return EXIT_DEADLINE
        try:
            row = run_workload(torch, runtime, gpu, cpu, stream, workload,
                               data, quick)
        except Fault as fault:
            results.entries[workload.key] = [workload.key, f"FAULT: {fault}"]
            results.save()
            print(f"FAULT {workload.key}: {fault}; the benchmark goes on in a "
                  f"fresh process", flush=True)
            return EXIT_FAULT
        except Exception as error:  # report and go on with the others
            row = [workload.key, f"error: {error}"]
        results.entries[workload.key] = row
        results.save()
        print(" | ".join(str(c) for c in row), flush=True)
    failures = [r for r in results.entries.values()
                if len(r) < len(HEADER) or r[-1] != "yes" or r[-2] != "yes"]
    print()
    print("| " + " | ".join(HEADER) + " |")
    print("|" + "---|" * len(HEADER))
    for row in results.entries.values():
        print("| " + " | ".join(str(c) for c in row) + " |")
    return 1 if failures else 0


def to_device(torch, inputs, element):
    tensors = {}
    for name, array in inputs.items():
        if name == "dtype":
            continue
        t = torch.from_numpy(array).cuda()
        if element == "bf16" and name != "indices":
            t = t.to(torch.bfloat16)
        tensors[name] = t
    return tensors


class NdCall:
    """Calls of a workload's GPU function on `stream`, each returning once
    its work is queued; a failure raises (Fault for a driver error)."""

    def __init__(self, runtime, fn, t, names, stream, result_bytes, size):
        self.runtime, self.fn, self.t, self.names = runtime, fn, t, names
        self.handle = ctypes.c_void_p(stream.cuda_stream)
        self.result_bytes, self.size = result_bytes, size
        # Built once: the tensors stay where they are from call to call.
        self.arguments = fn.arguments([(t[n].data_ptr(), tuple(t[n].shape))
                                       for n in names])
        self.data = t["data"].data_ptr()

    def check(self, status, message):
        if status == 5:
            raise Fault(message)
        if status:
            raise RuntimeError(message)

    def __call__(self, keep=False):
        self.check(self.runtime.lib.nd_cuda_begin(self.handle), "")
        desc = self.fn.call(self.arguments)
        self.check(*self.runtime.end())
        if keep:
            return desc
        if desc.allocated != self.data:
            self.runtime.lib.nd_cuda_free(desc.allocated, self.handle)
        return None

    def settle(self):
        """Waits for the stream; raises for a failed check of the calls."""
        self.check(*self.runtime.synchronize(self.handle))

    def result_of(self, desc):
        """The result's raw bits (after the stream's work)."""
        self.settle()
        out = np.empty(self.result_bytes // self.size,
                       np.int16 if self.size == 2 else np.int32)
        self.check(self.runtime.lib.nd_cuda_copy(out.ctypes.data,
                                                 desc.aligned,
                                                 self.result_bytes), "copy")
        if desc.allocated != self.t["data"].data_ptr():
            self.runtime.lib.nd_cuda_free(desc.allocated, self.handle)
        return out


def torch_times(torch, workload, t, stream, runs):
    """torch's time without and with deterministic algorithms (None where
    torch refuses)."""
    torch.use_deterministic_algorithms(False)
    torch_time = median_time(workload.torch_run(t), stream.synchronize, runs)
    torch.use_deterministic_algorithms(True)
    try:
        det_time = median_time(workload.torch_run(t), stream.synchronize,
                               max(3, runs // 2))
    except RuntimeError as error:
        det_time = None
        print(f"  {workload.key}: torch deterministic: {error}")
    finally:
        torch.use_deterministic_algorithms(False)
    return torch_time, det_time


def driver_calls(runtime, call):
    """The driver calls of one call, as launches/copies/memsets/syncs/
    allocations, and the launches."""
    before = runtime.driver_calls()
    call()
    after = runtime.driver_calls()
    d = {k: after[k] - before[k] for k in after}
    text = (f"{d['launches']}/{d['copies']}/{d['memsets']}/"
            f"{d['synchronizations']}/{d['allocations']}")
    return text, d["launches"]


def set_up(torch, runtime, gpu, stream, workload):
    """The workload's inputs on the device (drawn with the seed 7) and the
    call of its GPU function on `stream`: (tensors, operand names, NdCall,
    the result's shape)."""
    element = SIGNATURES[workload.key][0]
    inputs = workload.make(np.random.default_rng(7))
    with torch.cuda.stream(stream):
        t = to_device(torch, inputs, element)
        torch.cuda.synchronize()
    names = [n for n in ("data", "indices", "updates") if n in t]
    size = t["data"].element_size()
    result_shape = RESULTS.get(workload.key, tuple(t["data"].shape))
    nd = NdCall(runtime, NdFunction(gpu, workload), t, names, stream,
                int(np.prod(result_shape)) * size, size)
    return t, names, nd, result_shape


def run_workload(torch, runtime, gpu, cpu, stream, workload, data, quick):
    element = SIGNATURES[workload.key][0]
    t, names, nd, result_shape = set_up(torch, runtime, gpu, stream, workload)
    with torch.cuda.stream(stream):
        # Correctness first: twice on the GPU, once on the CPU.
        original = t["data"].clone() if workload.donated else None
        first = nd.result_of(nd(keep=True))
        if workload.donated:
            t["data"].copy_(original)
        second = nd.result_of(nd(keep=True))
        if workload.donated:
            t["data"].copy_(original)
        repeatable = "yes" if np.array_equal(first, second) else "NO"
        expected = cpu_result(torch, cpu, workload, t, names, element,
                              result_shape)
        exact = "yes" if np.array_equal(first, expected) else "NO"

        runs = max(3, workload.runs // 4) if quick else workload.runs
        calls, launches = driver_calls(runtime, nd)
        nd_time = median_time(nd, stream.synchronize, runs)
        nd.settle()
        torch_time, det_time = torch_times(torch, workload, t, stream, runs)
        moved = workload.moved(t)
    floor = moved / data["bandwidth"] + launches * data["launch_us"] * 1e-6
    share = moved / nd_time / data["bandwidth"]
    det = f"{det_time * 1e6:.1f}" if det_time else "-"
    det_ratio = f"{nd_time / det_time:.3f}" if det_time else "-"
    return [workload.key, f"{nd_time * 1e6:.1f}", f"{floor * 1e6:.1f}",
            f"{nd_time / floor:.2f}", f"{100 * share:.0f}%",
            f"{torch_time * 1e6:.1f}", det, f"{nd_time / torch_time:.2f}",
            det_ratio, calls, exact, repeatable]


def profile(directory, only=None, runs=5, deadline=0):
    """Where each workload's time goes, for tuning: the host's time to queue
    one call, the GPU's span from an event before the call to one after it,
    and the GPU time of each kernel (torch's profiler, which sees every
    kernel of the process) for nd and for torch. Prints a table per
    workload and writes it to DIR/profile.txt (as far as it got by the
    deadline). Status 0, EXIT_NO_GPU or EXIT_DEADLINE."""
    import torch
    from torch.profiler import ProfilerActivity
    from gpu_check import Runtime
    if not torch.cuda.is_available():
        print("profile: torch sees no CUDA device")
        return EXIT_NO_GPU
    runtime = Runtime(os.path.join(directory, "libnd_cuda_runtime.so"))
    status, why = runtime.available()
    if status:
        print(f"profile: nd's runtime has no usable GPU: {why}")
        return EXIT_NO_GPU
    gpu = ctypes.CDLL(os.path.join(directory, "libbench_cuda.so"))
    stream = torch.cuda.Stream()
    keys = set(only.split(",")) if only else None
    lines = []

    def say(text):
        print(text, flush=True)
        lines.append(text)

    def kernels(run):
        with torch.profiler.profile(activities=[ProfilerActivity.CUDA]) as p:
            for _ in range(runs):
                run()
            stream.synchronize()
        rows = []
        for e in p.key_averages():
            total = getattr(e, "self_device_time_total", None)
            if total is None:
                total = getattr(e, "self_cuda_time_total", 0)
            if total > 0:
                rows.append((total / runs, e.count / runs, e.key))
        rows.sort(reverse=True)
        return rows

    status = 0
    for workload in WORKLOADS:
        if keys and workload.key not in keys:
            continue
        if deadline and time.time() > deadline:
            say("profile: out of time before every workload ran")
            status = EXIT_DEADLINE
            break
        t, _, nd, _ = set_up(torch, runtime, gpu, stream, workload)
        with torch.cuda.stream(stream):
            for _ in range(3):
                nd()
            nd.settle()
            queue, span = [], []
            start = torch.cuda.Event(enable_timing=True)
            stop = torch.cuda.Event(enable_timing=True)
            for _ in range(max(runs, 10)):
                stream.synchronize()
                begin = time.perf_counter()
                start.record(stream)
                nd()
                stop.record(stream)
                queue.append(time.perf_counter() - begin)
                stop.synchronize()
                span.append(start.elapsed_time(stop) * 1e-3)
            nd.settle()
            say(f"== {workload.key}: host queues a call in "
                f"{statistics.median(queue) * 1e6:.1f} us; GPU span "
                f"{statistics.median(span) * 1e6:.1f} us")
            for total, count, name in kernels(nd):
                say(f"  nd    {total:9.1f} us  x{count:g}  {name[:90]}")
            nd.settle()
            for total, count, name in kernels(workload.torch_run(t))[:6]:
                say(f"  torch {total:9.1f} us  x{count:g}  {name[:90]}")
            del t, nd
            torch.cuda.empty_cache()
    with open(os.path.join(directory, "profile.txt"), "w") as out:
        out.write("\n".join(lines) + "\n")
    return status


def cpu_result(torch, cpu, workload, t, names, element, result_shape):
    """nd's CPU code on the same inputs: the result's raw bits."""
    fn = NdFunction(cpu, workload)
    arrays = []
    for n in names:
        tensor_ = t[n]
        if tensor_.dtype == torch.bfloat16:
            arrays.append(tensor_.view(torch.int16).cpu().numpy().copy())
        else:
            arrays.append(tensor_.cpu().numpy().copy())
    desc = fn([(a.ctypes.data, a.shape) for a in arrays])
    size = t["data"].element_size()
    count = int(np.prod(result_shape))
    raw = (ctypes.c_char * (count * size)).from_address(desc.aligned)
    out = np.frombuffer(bytes(raw), np.int16 if size == 2 else np.int32).copy()
    if desc.allocated != arrays[0].ctypes.data:
        ctypes.CDLL(None).free(ctypes.c_void_p(desc.allocated))
    return out


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--write-mlir":
        write_mlir(sys.argv[2])
        sys.exit(0)
    print(__doc__)
    sys.exit(2)
