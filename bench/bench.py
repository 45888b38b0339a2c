#!/usr/bin/env python3
"""nd's benchmark: scatter/gather workloads of real models, in ONNX form, run
by nd (nd-run), numpy, PyTorch and ONNX Runtime side by side.

    python3 bench/bench.py                 # the full benchmark (minutes)
    python3 bench/bench.py --tiny          # small shapes, seconds (check-nd)
    python3 bench/bench.py --only a,e,g    # some workloads
    python3 bench/bench.py --scale 1,0.25  # at full and at quarter size
    python3 bench/bench.py --nd jit,aot    # nd-run and nd's Python package
    python3 bench/bench.py --target cuda --gpu-dir DIR
                                           # nd on an NVIDIA GPU beside torch
                                           # CUDA (DIR from
                                           # scripts/gpu-prepare.sh)

Every workload is built as a one-node ONNX model that nd-run and ONNX Runtime
both load, with .npy inputs. With --nd aot, nd.compile (python/nd) compiles
the same model into a library that Python calls with its inputs prepared
once (--aot-dir keeps the libraries, with nd's runtime, for a machine that
has no LLVM or MLIR). nd's result is compared bit for bit with an
independent numpy reference at every thread count (for add reductions numpy
applies the updates in row-major order with np.add.at, which is the order nd
defines): a mismatch fails the run (exit status 1). The peers' results are
compared too; a wrong one is marked and not counted as the best peer.

Times are medians of N runs after one warm-up run, at 1 thread and at more
threads (numpy is single-threaded). The tables give the best peer / nd ratio,
nd's share of this machine's copy bandwidth (bytes that must move / time,
against a large copy measured in the same run), nd's 2-thread speedup, nd's
checked / unchecked ratio, and which targets nd meets.
"""

import argparse
import dataclasses
import datetime
import importlib.util
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, List, Tuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import debian_python  # noqa: E402

# numpy may be missing on a fresh machine: find_peers installs it first.
try:
    import numpy as np
except ImportError:
    np = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Targets of the benchmark.
TARGET_SPEEDUP = 1.5  # nd vs. the best peer, same thread count
TARGET_BANDWIDTH = 0.70  # streaming workloads, share of copy bandwidth
TARGET_SCALING = 1.6  # nd at 2 threads vs. 1 thread ...
SCALING_MIN_SECONDS = 10e-3  # ... for workloads above 10 ms at 1 thread

ONNX_OPSET = 17  # the newest opset Debian's python3-onnx (1.12) knows


def die(message):
    print(f"bench: error: {message}", file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------------------
# Workloads
# ---------------------------------------------------------------------------

@dataclass
class Workload:
    key: str
    title: str
    shapes: str
    op: str
    attrs: dict
    # (rng, tiny, scale) -> {"data": ..., "indices": ..., "updates": ...} in
    # the order of the ONNX node's inputs.
    make: Callable
    # inputs -> the expected result, computed with numpy in nd's order.
    reference: Callable
    # inputs -> bytes that must move (read once + written once).
    moved: Callable
    moved_text: str
    numpy: List[Tuple[str, Callable]]
    torch: List[Tuple[str, Callable]]
    runs: int
    reduction: bool = False  # float add: peers may reorder
    donate: bool = False  # nd-run --donate 0; in place for numpy and torch
    streaming: bool = False  # held to the copy-bandwidth target
    scale: float = 1.0  # of the model's sizes (--scale)


def scatter_nd_key(indices):
    """The index columns of ScatterND/GatherND indices, as views."""
    return tuple(indices[..., i] for i in range(indices.shape[-1]))


def zipf_ids(rng, n, vocab, s):
    """n ids in [0, vocab) whose frequencies follow Zipf's law with exponent
    s, the most frequent ids spread over the range."""
    p = np.arange(1, vocab + 1, dtype=np.float64) ** -s
    p /= p.sum()
    return rng.permutation(vocab)[rng.choice(vocab, size=n, p=p)]


def add_at_reference(data, key, updates):
    """data with updates added in row-major order of the updates: np.add.at
    applies them one by one, in order, which is nd's defined order."""
    out = data.copy()
    np.add.at(out, key, updates)
    return out


def nbytes(*arrays):
    return sum(int(a.nbytes) for a in arrays)


# Peer formulations: setup(inputs) returns run(), which computes the result
# (into a preallocated array wherever the peer allows one) and returns it.
# Index views (the columns of an index tensor) move no data; the in-place
# formulations, whose runs take microseconds, make them outside the timed
# region.

def np_copy_then(update):
    """numpy, out of place: copy data into the result, then update that."""
    def setup(d):
        out = np.empty_like(d["data"])

        def run():
            np.copyto(out, d["data"])
            update(out, d)
            return out
        return run
    return setup


def np_into(shape_of, compute):
    """numpy, a new array each call or one preallocated `out`."""
    def setup(d):
        out = np.empty(shape_of(d), d["data"].dtype) if shape_of else None
        return lambda: compute(d, out)
    return setup


def np_set(out, d):
    out[scatter_nd_key(d["indices"])] = d["updates"]


def np_set_flat(out, d):
    flat = np.ravel_multi_index(scatter_nd_key(d["indices"]), out.shape)
    out.reshape(-1)[flat] = d["updates"]


def np_set_in_place(d):
    cache = d["data"].copy()
    key = scatter_nd_key(d["indices"])
    upd = d["updates"]

    def run():
        cache[key] = upd
        return cache
    return run


def np_add_at(out, d):
    np.add.at(out, scatter_nd_key(d["indices"]), d["updates"])


def np_histogram_bincount(d, out):
    data = d["data"]
    sums = np.bincount(d["indices"][:, 0], weights=d["updates"],
                       minlength=data.shape[0])
    return np.add(data, sums, out=out, casting="same_kind")


def np_scatter_elements_add_bincount(d, out):
    data, ind = d["data"], d["indices"]
    flat = ind * data.shape[1] + np.arange(data.shape[1], dtype=ind.dtype)
    sums = np.bincount(flat.reshape(-1), weights=d["updates"].reshape(-1),
                       minlength=data.size)
    return np.add(data, sums.reshape(data.shape), out=out, casting="same_kind")


def batch_rows(d, xp):
    """GatherND with batch_dims=1 as rows of data viewed as a matrix: the
    row numbers of the gathered rows (numpy or torch, `xp`)."""
    data, ind = d["data"], d["indices"]
    offsets = xp.arange(data.shape[0], dtype=ind.dtype) * data.shape[1]
    return ind[..., 0] + offsets[:, None]


def mlm_shape(d):
    return d["indices"].shape[:2] + d["data"].shape[2:]


def np_mlm_take(d, out):
    data = d["data"]
    rows = data.reshape(-1, data.shape[-1])
    return np.take(rows, batch_rows(d, np), axis=0, out=out)


def np_mlm_fancy(d, out):
    return d["data"][np.arange(d["data"].shape[0])[:, None],
                     d["indices"][..., 0]]


def embedding_shape(d):
    return d["indices"].shape[:1] + d["data"].shape[1:]


def np_embedding_take(d, out):
    return np.take(d["data"], d["indices"][:, 0], axis=0, out=out)


def np_take_along(d, out):
    return np.take_along_axis(d["data"], d["indices"], axis=1)


def np_take_flat(d, out):
    data, ind = d["data"], d["indices"]
    offsets = np.arange(data.shape[0], dtype=ind.dtype) * data.shape[1]
    return np.take(data.reshape(-1), ind + offsets[:, None], out=out)


def np_put_along(out, d):
    np.put_along_axis(out, d["indices"], d["updates"], axis=1)


# PyTorch formulations, on tensors that share the numpy inputs' memory.

def tensors(d):
    import torch
    return {name: torch.from_numpy(a) for name, a in d.items()}


def torch_copy_then(update):
    """torch, out of place: copy_ data into the result, then update that."""
    def setup(d):
        import torch
        t = tensors(d)
        out = torch.empty_like(t["data"])

        def run():
            out.copy_(t["data"])
            update(out, t)
            return out
        return run
    return setup


def torch_into(shape_of, compute):
    """torch, into one preallocated `out`."""
    def setup(d):
        import torch
        t = tensors(d)
        out = torch.empty(shape_of(d), dtype=t["data"].dtype)
        return lambda: compute(t, out)
    return setup


def torch_index_put(accumulate):
    def update(out, t):
        out.index_put_(scatter_nd_key(t["indices"]), t["updates"],
                       accumulate=accumulate)
    return update


def torch_index_add(out, t):
    out.index_add_(0, t["indices"][:, 0], t["updates"])


def torch_scatter_add_rows(out, t):
    out.scatter_add_(0, t["indices"][:, 0], t["updates"])


def torch_scatter_add_axis0(out, t):
    out.scatter_add_(0, t["indices"], t["updates"])


def torch_scatter_axis1(out, t):
    out.scatter_(1, t["indices"], t["updates"])


def torch_index_put_in_place(d):
    t = tensors(d)
    cache = t["data"].clone()
    key = scatter_nd_key(t["indices"])

    def run():
        cache.index_put_(key, t["updates"])
        return cache
    return run


def torch_mlm_gather(t, out):
    import torch
    data, ind = t["data"], t["indices"]
    index = ind.expand(ind.shape[0], ind.shape[1], data.shape[2])
    return torch.gather(data, 1, index, out=out)


def torch_mlm_index_select(t, out):
    import torch
    data = t["data"]
    rows = data.reshape(-1, data.shape[-1])
    torch.index_select(rows, 0, batch_rows(t, torch).reshape(-1),
                       out=out.view(-1, data.shape[-1]))
    return out


def torch_embedding_index_select(t, out):
    import torch
    return torch.index_select(t["data"], 0, t["indices"][:, 0], out=out)


def torch_gather_elements(t, out):
    import torch
    return torch.gather(t["data"], 1, t["indices"], out=out)


# Inputs. Shapes are those of the models named; `tiny` shrinks every dim,
# `scale` the dims that count tokens, rows, entries or positions (the bytes
# move about in proportion; a model's row width stays).

def scaled(n, scale, minimum=1):
    """n times scale, rounded, at least `minimum`."""
    return max(minimum, int(round(n * scale)))


def make_kv_cache(rng, tiny, scale=1.0, seq=4096):
    heads, dim = (4, 8) if tiny else (32, 128)
    seq = scaled(16 if tiny else seq, scale)
    data = rng.standard_normal((1, heads, seq, dim)).astype(np.float16)
    # The new token's key for every head, written at one position.
    pos = seq - 1
    indices = np.zeros((1, heads, 1, 3), np.int64)
    indices[0, :, 0, 1] = np.arange(heads)
    indices[0, :, 0, 2] = pos
    updates = rng.standard_normal((1, heads, 1, dim)).astype(np.float16)
    return {"data": data, "indices": indices, "updates": updates}


def make_points(rng, tiny, scale=1.0):
    n = scaled(8 if tiny else 256, scale ** (1 / 3), minimum=2)
    count = min(scaled(64 if tiny else 1 << 20, scale), n ** 3)
    data = rng.standard_normal((n, n, n)).astype(np.float32)
    flat = rng.choice(n ** 3, size=count, replace=False)
    indices = np.stack(np.unravel_index(flat, (n, n, n)), axis=-1)
    updates = rng.standard_normal(count).astype(np.float32)
    return {"data": data, "indices": indices.astype(np.int64),
            "updates": updates}


def make_yolo(rng, tiny, scale=1.0):
    # YOLOv5's Detect head exports `y[..., 0:2] = xy` as a ScatterND with one
    # index tuple per element of the slice.
    grid = scaled(4 if tiny else 80, scale ** 0.5)
    shape = (1, 3, grid, grid, 6 if tiny else 85)
    data = rng.random(shape, dtype=np.float32)
    grid = np.indices(shape[:-1] + (2,)).transpose(1, 2, 3, 4, 5, 0)
    indices = np.ascontiguousarray(grid).astype(np.int64)
    updates = rng.random(shape[:-1] + (2,), dtype=np.float32)
    return {"data": data, "indices": indices, "updates": updates}


def make_histogram(rng, tiny, scale=1.0):
    bins = 32 if tiny else 1 << 16
    count = scaled(256 if tiny else 4 << 20, scale)
    data = np.zeros(bins, np.float32)
    indices = rng.integers(0, bins, size=(count, 1), dtype=np.int64)
    updates = rng.random(count, dtype=np.float32)
    return {"data": data, "indices": indices, "updates": updates}


def make_embedding_grad(rng, tiny, scale=1.0):
    vocab, dim, count = (64, 8, 32) if tiny else (50257, 768, 8192)
    vocab, count = scaled(vocab, scale), scaled(count, scale)
    data = (rng.standard_normal((vocab, dim)) * 1e-3).astype(np.float32)
    indices = zipf_ids(rng, count, vocab, 1.0).astype(np.int64)[:, None]
    updates = rng.standard_normal((count, dim)).astype(np.float32)
    return {"data": data, "indices": indices, "updates": updates}


def make_mlm(rng, tiny, scale=1.0):
    batch, seq, hidden, masked = (2, 8, 4, 3) if tiny else (64, 512, 1024, 80)
    batch = scaled(batch, scale)
    data = rng.standard_normal((batch, seq, hidden)).astype(np.float32)
    positions = np.stack([np.sort(rng.choice(seq, masked, replace=False))
                          for _ in range(batch)])
    return {"data": data, "indices": positions.astype(np.int64)[..., None]}


def make_embedding(rng, tiny, scale=1.0):
    vocab, dim, count = (64, 8, 32) if tiny else (50257, 768, 65536)
    vocab, count = scaled(vocab, scale), scaled(count, scale)
    data = rng.standard_normal((vocab, dim)).astype(np.float32)
    indices = zipf_ids(rng, count, vocab, 1.0).astype(np.int64)[:, None]
    return {"data": data, "indices": indices}


def make_gnn(rng, tiny, scale=1.0):
    # ogbn-arxiv: 169,343 nodes, 1,166,243 edges, 128 features; messages are
    # summed into each edge's destination (in-degrees follow a power law).
    nodes, edges, features = (50, 200, 4) if tiny else (169343, 1166243, 128)
    nodes, edges = scaled(nodes, scale), scaled(edges, scale)
    data = rng.standard_normal((nodes, features)).astype(np.float32)
    dst = zipf_ids(rng, edges, nodes, 0.7).astype(np.int64)
    indices = np.repeat(dst[:, None], features, axis=1)
    updates = rng.standard_normal((edges, features)).astype(np.float32)
    return {"data": data, "indices": indices, "updates": updates}


def make_sorted_logits(rng, tiny, scale=1.0):
    # Top-p sampling over Llama 3's vocabulary: gather the logits in sorted
    # order.
    shape = (scaled(4 if tiny else 64, scale), 16 if tiny else 128256)
    data = rng.standard_normal(shape).astype(np.float32)
    indices = np.argsort(-data, axis=1, kind="stable").astype(np.int64)
    return {"data": data, "indices": indices}


def make_unsort(rng, tiny, scale=1.0):
    # ... and scatter per-token values back to vocabulary order.
    shape = (scaled(4 if tiny else 64, scale), 16 if tiny else 128256)
    logits = rng.standard_normal(shape).astype(np.float32)
    indices = np.argsort(-logits, axis=1, kind="stable").astype(np.int64)
    data = np.zeros(shape, np.float32)
    updates = rng.random(shape, dtype=np.float32)
    return {"data": data, "indices": indices, "updates": updates}


def make_moe_combine(rng, tiny, scale=1.0):
    # A mixture-of-experts layer's combine: each of the tokens gets the
    # outputs of its top-8 experts, rows grouped by expert (a permutation of
    # the tokens, each 8 times), added into the tokens' hidden states. f32
    # here (numpy has no bf16); scripts/bench_gpu.py runs bf16 too.
    tokens, hidden = (16, 8) if tiny else (4096, 7168)
    tokens = scaled(tokens, scale)
    rows = rng.permutation(np.repeat(np.arange(tokens), 8))
    return {"data": np.zeros((tokens, hidden), np.float32),
            "indices": rows.astype(np.int64)[:, None],
            "updates": rng.standard_normal((8 * tokens, hidden)).astype(
                np.float32)}


def make_moe_dispatch(rng, tiny, scale=1.0):
    # ... and its dispatch: the tokens' rows gathered in expert order.
    tokens, hidden = (16, 8) if tiny else (4096, 7168)
    tokens = scaled(tokens, scale)
    rows = rng.permutation(np.repeat(np.arange(tokens), 8))
    return {"data": rng.standard_normal((tokens, hidden)).astype(np.float32),
            "indices": rows.astype(np.int64)[:, None]}


def make_paged_kv(rng, tiny, scale=1.0):
    # vLLM's reshape_and_cache: each new token's keys (8 heads x 128) written
    # into its slot of a paged cache, in place. f32 here (bf16 on the GPU
    # bench).
    slots, heads, dim, count = (64, 2, 8, 16) if tiny else (524288, 8, 128,
                                                            4096)
    slots = scaled(slots, scale)
    count = min(scaled(count, scale), slots)
    chosen = rng.choice(slots, size=count, replace=False)
    return {"data": np.zeros((slots, heads, dim), np.float32),
            "indices": chosen.astype(np.int64)[:, None],
            "updates": rng.standard_normal((count, heads, dim)).astype(
                np.float32)}


# References: independent numpy code, in nd's order.

def ref_scatter_nd_set(d):
    out = d["data"].copy()
    np_set(out, d)
    return out


def ref_scatter_nd_add(d):
    return add_at_reference(d["data"], scatter_nd_key(d["indices"]),
                            d["updates"])


def ref_gather_nd_batch1(d):
    data, ind = d["data"], d["indices"]
    out = np.empty((data.shape[0], ind.shape[1], data.shape[2]), data.dtype)
    for b in range(data.shape[0]):
        out[b] = data[b][ind[b, :, 0]]
    return out


def ref_gather_nd(d):
    return d["data"][scatter_nd_key(d["indices"])]


def ref_scatter_elements_add_axis0(d):
    ind = d["indices"]
    cols = np.broadcast_to(np.arange(ind.shape[1]), ind.shape)
    return add_at_reference(d["data"], (ind, cols), d["updates"])


def ref_gather_elements_axis1(d):
    ind = d["indices"]
    rows = np.arange(ind.shape[0])[:, None]
    return d["data"][rows, ind]


def ref_scatter_elements_axis1(d):
    out = d["data"].copy()
    ind = d["indices"]
    rows = np.arange(ind.shape[0])[:, None]
    out[rows, ind] = d["updates"]
    return out


# Bytes that must move: what must be read, once, plus what must be written.

def moved_scatter(d, covered_fraction=0.0):
    # indices and updates are read; the elements of data that no update
    # overwrites are read; the result is written.
    data = d["data"]
    return (nbytes(d["indices"], d["updates"]) +
            int(data.nbytes * (1 - covered_fraction)) + data.nbytes)


def moved_scatter_nd_unique(d):
    # The index tuples are distinct: each covers one slice.
    data, ind = d["data"], d["indices"]
    slices = ind.size // ind.shape[-1]
    slice_elems = data.size
    for dim in data.shape[:ind.shape[-1]]:
        slice_elems //= dim
    return moved_scatter(d, slices * slice_elems / data.size)


def moved_donated(d):
    # Only the updated slices are read and written.
    return nbytes(d["indices"]) + 2 * nbytes(d["updates"])


def moved_gather_rows(d, rows_of):
    data = d["data"]
    rows = rows_of(d)
    row_bytes = data.itemsize * data.shape[-1]
    distinct = np.unique(rows).size
    out_rows = rows.size
    return nbytes(d["indices"]) + distinct * row_bytes + out_rows * row_bytes


def moved_mlm(d):
    data, ind = d["data"], d["indices"]
    offsets = (np.arange(data.shape[0]) * data.shape[1])[:, None]
    return moved_gather_rows(d, lambda d: ind[..., 0] + offsets)


def moved_embedding(d):
    return moved_gather_rows(d, lambda d: d["indices"][:, 0])


def moved_gather_permutation(d):
    # Every element of data is read once; the result is written.
    data, ind = d["data"], d["indices"]
    return nbytes(ind, data) + ind.size * data.itemsize


def make_workloads():
    scatter_nd = "ScatterND"
    np_copyto_set = ("copyto+set", np_copy_then(np_set))
    np_copyto_flat_set = ("copyto+flat set", np_copy_then(np_set_flat))
    np_copyto_add_at = ("copyto+add.at", np_copy_then(np_add_at))
    np_in_place = ("in-place set", np_set_in_place)
    torch_put = ("copy_+index_put_", torch_copy_then(torch_index_put(False)))
    torch_put_acc = ("copy_+index_put_(acc)",
                     torch_copy_then(torch_index_put(True)))
    torch_index_add_ = ("copy_+index_add_", torch_copy_then(torch_index_add))
    torch_in_place = ("in-place index_put_", torch_index_put_in_place)

    def data_shape(d):
        return d["data"].shape

    def indices_shape(d):
        return d["indices"].shape

    workloads = [
        Workload("a", "KV-cache ScatterND",
                 "f16 data [1,32,4096,128], indices [1,32,1,3], updates "
                 "[1,32,1,128], out of place",
                 scatter_nd, {}, make_kv_cache, ref_scatter_nd_set,
                 moved_scatter_nd_unique,
                 "read data (except the updated rows), indices, updates; "
                 "write the result",
                 [np_copyto_set], [torch_put],
                 runs=30, streaming=True),
        Workload("a'", "KV-cache, donated",
                 "a with the 32 MiB cache donated (updated in place)",
                 scatter_nd, {}, make_kv_cache, ref_scatter_nd_set,
                 moved_donated,
                 "read indices, updates; write the updated rows",
                 [np_in_place], [torch_in_place],
                 runs=50, donate=True),
        Workload("b", "point ScatterND",
                 "f32 data [256,256,256], 2^20 distinct k=3 index tuples",
                 scatter_nd, {}, make_points, ref_scatter_nd_set,
                 moved_scatter_nd_unique,
                 "read data (except the 2^20 updated elements), indices, "
                 "updates; write the result",
                 [np_copyto_set, np_copyto_flat_set], [torch_put],
                 runs=10),
        Workload("b2", "YOLOv5 ScatterND",
                 "f32 data [1,3,80,80,85], k=5 indices [1,3,80,80,2,5] "
                 "(y[..., 0:2] = xy)",
                 scatter_nd, {}, make_yolo, ref_scatter_nd_set,
                 moved_scatter_nd_unique,
                 "read data (except the updated elements), indices, updates; "
                 "write the result",
                 [np_copyto_set, np_copyto_flat_set], [torch_put],
                 runs=100),
        Workload("c1", "histogram ScatterND add",
                 "f32 data [65536], 4M indices [4194304,1] (uniform), "
                 "updates [4194304]",
                 scatter_nd, {"reduction": "add"}, make_histogram,
                 ref_scatter_nd_add, moved_scatter,
                 "read data, indices, updates; write the result",
                 [np_copyto_add_at,
                  ("bincount", np_into(data_shape, np_histogram_bincount))],
                 [torch_index_add_, torch_put_acc,
                  ("copy_+scatter_add_",
                   torch_copy_then(torch_scatter_add_rows))],
                 runs=20, reduction=True),
        Workload("c2", "embedding-gradient ScatterND add",
                 "f32 data [50257,768], indices [8192,1] (Zipf, s=1), "
                 "updates [8192,768]",
                 scatter_nd, {"reduction": "add"}, make_embedding_grad,
                 ref_scatter_nd_add, moved_scatter,
                 "read data, indices, updates; write the result",
                 [np_copyto_add_at], [torch_index_add_, torch_put_acc],
                 runs=10, reduction=True),
        Workload("d", "BERT-MLM GatherND",
                 "batch_dims=1, f32 data [64,512,1024], indices [64,80,1] "
                 "(80 distinct positions per sequence)",
                 "GatherND", {"batch_dims": 1}, make_mlm, ref_gather_nd_batch1,
                 moved_mlm,
                 "read indices and each gathered row once; write the result",
                 [("take(out=)", np_into(mlm_shape, np_mlm_take)),
                  ("fancy", np_into(None, np_mlm_fancy))],
                 [("gather(out=)", torch_into(mlm_shape, torch_mlm_gather)),
                  ("index_select(out=)",
                   torch_into(mlm_shape, torch_mlm_index_select))],
                 runs=30, streaming=True),
        Workload("e", "embedding GatherND",
                 "f32 data [50257,768], indices [65536,1] (Zipf, s=1)",
                 "GatherND", {}, make_embedding, ref_gather_nd,
                 moved_embedding,
                 "read indices and each distinct row once; write the result",
                 [("take(out=)", np_into(embedding_shape, np_embedding_take))],
                 [("index_select(out=)",
                   torch_into(embedding_shape, torch_embedding_index_select))],
                 runs=10, streaming=True),
        Workload("f", "GNN ScatterElements add",
                 "axis 0, f32 data [169343,128], indices and updates "
                 "[1166243,128] (destinations Zipf, s=0.7)",
                 "ScatterElements", {"axis": 0, "reduction": "add"}, make_gnn,
                 ref_scatter_elements_add_axis0, moved_scatter,
                 "read data, indices, updates; write the result",
                 [("bincount",
                   np_into(data_shape, np_scatter_elements_add_bincount))],
                 [("copy_+scatter_add_",
                   torch_copy_then(torch_scatter_add_axis0))],
                 runs=5, reduction=True),
        Workload("g", "GatherElements",
                 "axis 1, f32 data [64,128256], indices a permutation of "
                 "each row (sorting logits)",
                 "GatherElements", {"axis": 1}, make_sorted_logits,
                 ref_gather_elements_axis1, moved_gather_permutation,
                 "read data and indices; write the result",
                 [("take_along_axis", np_into(None, np_take_along)),
                  ("take flat(out=)", np_into(indices_shape, np_take_flat))],
                 [("gather(out=)",
                   torch_into(indices_shape, torch_gather_elements))],
                 runs=20, streaming=True),
        Workload("g'", "ScatterElements",
                 "axis 1, f32 data, updates [64,128256], indices a "
                 "permutation of each row",
                 "ScatterElements", {"axis": 1}, make_unsort,
                 ref_scatter_elements_axis1,
                 lambda d: moved_scatter(d, covered_fraction=1.0),
                 "read indices, updates (the permutation overwrites all of "
                 "data); write the result",
                 [("copyto+put_along_axis", np_copy_then(np_put_along))],
                 [("copy_+scatter_", torch_copy_then(torch_scatter_axis1))],
                 runs=20),
        Workload("h", "MoE combine ScatterND add",
                 "f32 data [4096,7168], indices [32768,1] (each token 8 "
                 "times, grouped by expert), updates [32768,7168]",
                 scatter_nd, {"reduction": "add"}, make_moe_combine,
                 ref_scatter_nd_add, moved_scatter,
                 "read data, indices, updates; write the result",
                 [np_copyto_add_at], [torch_index_add_, torch_put_acc],
                 runs=5, reduction=True),
        Workload("i", "MoE dispatch GatherND",
                 "f32 data [4096,7168], indices [32768,1] (each token 8 "
                 "times, grouped by expert)",
                 "GatherND", {}, make_moe_dispatch, ref_gather_nd,
                 moved_embedding,
                 "read indices and each distinct row once; write the result",
                 [("take(out=)", np_into(embedding_shape, np_embedding_take))],
                 [("index_select(out=)",
                   torch_into(embedding_shape, torch_embedding_index_select))],
                 runs=5, streaming=True),
        Workload("j", "paged KV-cache write, donated",
                 "f32 cache [524288,8,128] (2 GiB) updated in place at 4096 "
                 "distinct slots, updates [4096,8,128]",
                 scatter_nd, {}, make_paged_kv, ref_scatter_nd_set,
                 moved_donated,
                 "read indices, updates; write the updated rows",
                 [np_in_place], [torch_in_place],
                 runs=20, donate=True),
    ]
    # a' again with a cache 8 times as long: the donated time must not grow.
    donated = workloads[1]
    workloads.insert(2, dataclasses.replace(
        donated, key="a'256", title="KV-cache, donated, 256 MiB",
        shapes="a' with a 256 MiB cache, [1,32,32768,128]",
        make=lambda rng, tiny, scale=1.0: make_kv_cache(rng, tiny, scale,
                                                        seq=32768)))
    return workloads


def at_scales(workloads, scales):
    """Each workload at each scale, scale by scale; a workload at a scale
    below 1 is named KEY:SCALE."""
    out = []
    for scale in scales:
        for w in workloads:
            if scale == 1.0:
                out.append(w)
                continue
            out.append(dataclasses.replace(
                w, key=f"{w.key}:{scale:g}",
                title=f"{w.title}, {scale:g} of its size", scale=scale))
    return out


def shapes_text(inputs):
    """The inputs' dtypes and shapes, for a workload at a scale."""
    return ", ".join(f"{name} {a.dtype} [{','.join(map(str, a.shape))}]"
                     for name, a in inputs.items())


# ---------------------------------------------------------------------------
# Models, runs, checks
# ---------------------------------------------------------------------------

class Failure(Exception):
    """A wrong result, or a tool that failed."""


def build_model(workload, inputs, result, path):
    import onnx
    from onnx import TensorProto, helper
    types = {np.dtype(np.float16): TensorProto.FLOAT16,
             np.dtype(np.float32): TensorProto.FLOAT,
             np.dtype(np.int64): TensorProto.INT64}
    graph_inputs = [helper.make_tensor_value_info(name, types[a.dtype],
                                                  list(a.shape))
                    for name, a in inputs.items()]
    output = helper.make_tensor_value_info("output", types[result.dtype],
                                           list(result.shape))
    node = helper.make_node(workload.op, list(inputs), ["output"],
                            **workload.attrs)
    graph = helper.make_graph([node], workload.op, graph_inputs, [output])
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", ONNX_OPSET)],
        producer_name="nd-bench")
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def unit_roundoff(dtype):
    return float(np.finfo(dtype).eps) / 2


def compare(got, expected, what, tolerance=None):
    """Raises Failure unless got equals expected bit for bit (or, with a
    tolerance array, element-wise within it)."""
    got = np.asarray(got)
    if got.shape != expected.shape or got.dtype != expected.dtype:
        raise Failure(f"{what}: got {got.dtype} {list(got.shape)}, expected "
                       f"{expected.dtype} {list(expected.shape)}")
    if tolerance is None:
        if got.dtype.kind == "f":
            bits = np.dtype(f"u{got.dtype.itemsize}")
            bad = got.view(bits) != expected.view(bits)
        else:
            bad = got != expected
        how = "bit for bit"
    else:
        bad = ~(np.abs(got.astype(np.float64) - expected) <= tolerance)
        how = "by more than the rounding bound"
    count = int(np.count_nonzero(bad))
    if count:
        first = tuple(int(i) for i in np.argwhere(bad)[0])
        raise Failure(f"{what}: {count} of {got.size} elements differ from "
                       f"numpy's reference ({how}); first at {list(first)}: "
                       f"got {got[first]!r}, expected {expected[first]!r}")


def spec_reference(workload, inputs):
    """The result of test/Reference/nd_reference.py, numpy code written loop
    by loop from the specifications: too slow for the full shapes, it checks
    the vectorised references on the tiny ones."""
    path = os.path.join(ROOT, "test", "Reference", "nd_reference.py")
    spec = importlib.util.spec_from_file_location("nd_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    op = {"ScatterND": module.scatter_nd, "GatherND": module.gather_nd,
          "ScatterElements": module.scatter_elements,
          "GatherElements": module.gather_elements}[workload.op]
    return op(*inputs.values(), **workload.attrs)


def reduction_tolerance(workload, inputs):
    """Per-element bound on the difference between two summation orders of
    the same terms: each order is within (m-1)·u·Σ|x| of the exact sum (m
    terms per element, u the unit roundoff), so two orders differ by at most
    2·m·u·(|data| + m·max|update|)."""
    data, ind = inputs["data"], inputs["indices"]
    if workload.op == "ScatterND":
        flat = np.ravel_multi_index(scatter_nd_key(ind),
                                    data.shape[:ind.shape[-1]])
        m = np.bincount(flat.reshape(-1),
                        minlength=int(np.prod(data.shape[:ind.shape[-1]])))
        m = m.reshape(data.shape[:ind.shape[-1]] +
                      (1,) * (data.ndim - ind.shape[-1]))
    else:
        cols = np.arange(ind.shape[1], dtype=ind.dtype)
        m = np.bincount((ind * data.shape[1] + cols).reshape(-1),
                        minlength=data.size).reshape(data.shape)
    u = unit_roundoff(data.dtype)
    largest = float(np.abs(inputs["updates"]).max())
    return 2 * m * u * (np.abs(data.astype(np.float64)) + m * largest)


def median_time(run, runs, budget):
    """Median seconds of `runs` calls after one warm-up call; fewer calls
    (at least one) where they would take longer than `budget` seconds. The
    same rule holds in ort_run.js."""
    start = time.perf_counter()
    result = run()
    warm = time.perf_counter() - start
    if warm * runs > budget:
        runs = max(1, min(runs, int(budget / max(warm, 1e-9))))
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        result = run()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), runs, result


UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0}


def head(text, lines=6):
    """The first lines of a tool's error output (which may dump IR)."""
    kept = text.strip().splitlines()
    more = f"\n[{len(kept) - lines} more lines]" if len(kept) > lines else ""
    return "\n".join(kept[:lines]) + more


def parse_duration(value, unit):
    return float(value) * UNITS[unit]


def run_nd(cmd, model, input_paths, outdir, threads, runs, donate,
           check_bounds):
    argv = cmd + [model] + input_paths + [
        "--quiet", "--output-dir", outdir, "--bench", str(runs),
        "--threads", str(threads)]
    if donate:
        # The peers update the cache in place run after run; so does nd.
        argv += ["--donate", "0", "--carry-donated"]
    if not check_bounds:
        argv += ["--check-bounds=false"]
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        raise Failure(f"nd-run failed (exit {proc.returncode}): "
                       f"{shlex.join(argv)}\n{head(proc.stderr)}")
    run = re.search(r"run \((\d+) runs\): min ([\d.]+) (us|ms|s), "
                    r"median ([\d.]+) (us|ms|s)", proc.stdout)
    compiled = re.search(r"compile: ([\d.]+) (us|ms|s)", proc.stdout)
    if not run or not compiled:
        raise Failure(f"cannot read nd-run's timing from:\n{proc.stdout}")
    output = np.load(os.path.join(outdir, "output_0.npy"))
    return {"median": parse_duration(run.group(4), run.group(5)),
            "min": parse_duration(run.group(2), run.group(3)),
            "compile": parse_duration(compiled.group(1), compiled.group(2)),
            "runs": int(run.group(1))}, output


class NdAot:
    """nd through its Python package (python/nd): each workload's ONNX model
    compiled ahead of time into a library (nd.compile, nd-compile), called
    from Python through a call bound to its inputs once (Module.bind), the
    cache donated where nd-run donates it.

    With --aot-dir DIR the libraries are kept in DIR/lib with
    libnd_runtime.so and LLVM's OpenMP runtime beside them: copied to a
    machine without LLVM or MLIR, DIR and this checkout measure nd there
    (--nd aot --aot-dir DIR), with the libraries DIR holds."""

    def __init__(self, args, build):
        sys.path.insert(0, os.path.join(ROOT, "python"))
        import nd
        self.nd = nd
        self.args = args
        self.bundle = (os.path.join(os.path.abspath(args.aot_dir), "lib")
                       if args.aot_dir else None)
        # nd-run compiles for this machine's CPU; so do the libraries timed
        # beside it, unless they are kept for another machine.
        self.cpu = args.aot_cpu or (None if self.bundle else "native")
        if self.bundle and os.path.exists(os.path.join(self.bundle,
                                                       "libnd_runtime.so")):
            nd.configure(root=os.path.dirname(self.bundle))
        elif os.path.exists(os.path.join(build, "lib", "libnd_runtime.so")):
            nd.configure(root=build)
        try:
            self.version = nd.runtime_version()
        except nd.Error as error:
            die(f"--nd aot: {error}")
        self.runtime_path = nd._runtime.runtime().path

    def prebuilt(self, name):
        """The library DIR holds for `name`, or None."""
        if not self.bundle:
            return None
        path = os.path.join(self.bundle, f"lib{name}.so")
        return path if os.path.exists(path) else None

    def library_name(self, w, check_bounds):
        safe = re.sub(r"[^A-Za-z0-9]+", "_", w.key)
        return (f"bench_{safe}_{'checked' if check_bounds else 'unchecked'}"
                f"{'_tiny' if self.args.tiny else ''}")

    def module(self, w, model, check_bounds):
        """(the workload's module, seconds nd-compile took, or None for a
        library of --aot-dir)."""
        nd = self.nd
        name = self.library_name(w, check_bounds)
        prebuilt = self.prebuilt(name)
        if prebuilt:
            return nd.load(prebuilt), None
        start = time.perf_counter()
        try:
            module = nd.compile(model, donate=[0] if w.donate else [],
                                check_bounds=check_bounds, entry=name,
                                cpu=self.cpu,
                                cache_dir=os.path.join(self.args.workdir,
                                                       "aot-cache"))
        except nd.Error as error:
            raise Failure(f"nd AOT failed: nd.compile: {error}")
        seconds = time.perf_counter() - start
        if self.bundle:
            self.keep(module.path)
        return module, seconds

    def keep(self, library):
        """Copies `library` into DIR/lib, with what it needs at run time
        besides the C library."""
        os.makedirs(self.bundle, exist_ok=True)
        shutil.copy(library, self.bundle)
        for needed in (self.runtime_path,
                       os.path.join(os.path.dirname(self.runtime_path),
                                    "libomp.so.5"),
                       "/usr/lib/llvm-22/lib/libomp.so.5"):
            target = os.path.join(self.bundle, os.path.basename(needed))
            if os.path.exists(needed) and not os.path.exists(target):
                shutil.copy(os.path.realpath(needed), target)

    def run(self, module, inputs, threads, runs, donate):
        """Times `runs` calls after one warm-up call, as nd-run --bench
        does: donated, the cache is updated in place call after call (a
        copy of the input's)."""
        arrays = list(inputs.values())
        if donate:
            arrays[0] = arrays[0].copy()
        try:
            call = module.bind(*arrays, threads=threads)
            seconds, n, result = median_time(call, runs, float("inf"))
        except self.nd.Error as error:
            raise Failure(f"nd AOT failed: {error.status}: {error}")
        return {"median": seconds, "runs": n}, np.asarray(result)


def find_ort():
    """The onnxruntime-node install bench/install-onnxruntime.sh made, or
    None."""
    if not shutil.which("node"):
        return None
    for base in (os.environ.get("ND_BENCH_ORT_DIR"),
                 os.path.join(HERE, ".ort")):
        if base and os.path.isfile(os.path.join(
                base, "node_modules", "onnxruntime-node", "package.json")):
            return base
    return None


def run_ort(ort_dir, model, input_paths, outdir, thread_counts, runs, budget):
    env = dict(os.environ, ND_BENCH_ORT_DIR=ort_dir)
    argv = ["node", os.path.join(HERE, "ort_run.js"), model, outdir,
            ",".join(str(t) for t in thread_counts), str(runs),
            str(budget)] + input_paths
    proc = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=env)
    if proc.returncode != 0:
        raise Failure(f"ONNX Runtime failed (exit {proc.returncode}): "
                       f"{shlex.join(argv)}\n{head(proc.stderr)}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def copy_bandwidth(thread_counts, tiny, have_torch):
    """Bytes moved per second (read + write) by a large array copy: numpy's
    copyto at 1 thread, torch's copy_ at every thread count; the best."""
    size = (4 << 20) if tiny else (256 << 20)
    runs = 3 if tiny else 10
    src = np.random.default_rng(1).random(size // 4, dtype=np.float32)
    dst = np.empty_like(src)
    result = {}
    seconds, _, _ = median_time(lambda: np.copyto(dst, src), runs, 1e9)
    by_threads = {1: (2 * size / seconds, "numpy copyto")}
    if have_torch:
        import torch
        tsrc, tdst = torch.from_numpy(src), torch.from_numpy(dst)
        for t in thread_counts:
            torch.set_num_threads(t)
            seconds, _, _ = median_time(lambda: tdst.copy_(tsrc), runs, 1e9)
            bw = 2 * size / seconds
            if t not in by_threads or bw > by_threads[t][0]:
                by_threads[t] = (bw, "torch copy_")
    for t in thread_counts:
        # Without torch, more threads are compared with the 1-thread copy.
        result[t] = by_threads.get(t, by_threads[1])
    return result, size


# ---------------------------------------------------------------------------
# The benchmark
# ---------------------------------------------------------------------------

def fmt_time(seconds):
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.3g} us"
    if seconds < 1:
        return f"{seconds * 1e3:.3g} ms"
    return f"{seconds:.3g} s"


def machine_description():
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    memory = ""
    try:
        with open("/proc/meminfo") as f:
            kib = int(f.readline().split()[1])
            memory = f", {kib / (1 << 20):.0f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return f"{model}, {len(os.sched_getaffinity(0))} cores{memory}"


def versions(have_torch, ort_dir):
    text = [f"numpy {np.__version__}"]
    if have_torch:
        import torch
        text.append(f"PyTorch {torch.__version__}")
    if ort_dir:
        with open(os.path.join(ort_dir, "node_modules", "onnxruntime-node",
                               "package.json")) as f:
            text.append(f"ONNX Runtime {json.load(f)['version']} (npm "
                        f"onnxruntime-node, CPU)")
    return ", ".join(text)


def run_workload(w, args, cmd, aot, thread_counts, ort_dir, have_torch,
                 results):
    rng = np.random.default_rng(args.seed)
    inputs = w.make(rng, args.tiny, w.scale)
    expected = w.reference(inputs)
    tolerance = reduction_tolerance(w, inputs) if w.reduction else None
    # The tiny mode holds the reference itself to the specifications.
    spec_error = None
    if args.tiny:
        try:
            compare(spec_reference(w, inputs), expected,
                    f"{w.key}: test/Reference (the specification) against "
                    "the benchmark's reference")
        except Failure as error:
            spec_error = str(error)
            print(f"MISMATCH {error}", file=sys.stderr, flush=True)
    runs = max(2, int(w.runs * args.runs_scale)) if not args.tiny else 2
    budget = args.budget

    safe = re.sub(r"[^A-Za-z0-9]+", "_", w.key)
    wdir = os.path.join(args.workdir, safe)
    os.makedirs(wdir, exist_ok=True)
    model = os.path.join(wdir, "model.onnx")
    # A machine that runs nd's libraries of --aot-dir alone needs no model.
    if cmd or ort_dir or not aot or not all(
            aot.prebuilt(aot.library_name(w, c)) for c in (True, False)):
        if not importlib.util.find_spec("onnx"):
            die(f"no onnx for {sys.executable}, which builds the models "
                f"(workload {w.key}): install it (scripts/setup.sh)")
        build_model(w, inputs, expected, model)
    input_paths = []
    for name, array in inputs.items():
        path = os.path.join(wdir, f"{name}.npy")
        np.save(path, array)
        input_paths.append(path)

    r = {"title": w.title, "runs": runs, "moved_bytes": w.moved(inputs),
         "shapes": shapes_text(inputs) if w.scale != 1.0 else w.shapes,
         "nd": {}, "nd_unchecked": {}, "nd_aot": {}, "nd_aot_unchecked": {},
         "nd_aot_compile": {}, "numpy": None, "torch": {}, "ort": {},
         "errors": [spec_error] if spec_error else [], "peer_errors": []}
    results[w.key] = r

    def check(got, what, peer=False):
        """nd must match the reference bit for bit, and numpy (the
        reference's own library, one thread) must too, within the rounding
        bound for reductions: a mismatch fails the benchmark. PyTorch and
        ONNX Runtime are held to the same standard, but a wrong result of
        theirs is reported (and the figure excluded from the best peer)
        rather than failing nd's benchmark. Returns the mismatch or None."""
        try:
            compare(got, expected, what,
                    tolerance if w.reduction and (peer or what_is_numpy(what))
                    else None)
        except Failure as error:
            (r["peer_errors"] if peer else r["errors"]).append(str(error))
            print(f"{'WRONG (peer)' if peer else 'MISMATCH'} {error}",
                  file=sys.stderr, flush=True)
            return str(error)
        return None

    def what_is_numpy(what):
        return what.startswith(f"{w.key}: numpy ")

    # nd: bit-identical to the row-major reference, checked or not, at every
    # thread count, through nd-run (JIT) and through the Python package
    # (AOT); nd's figures ("nd", "nd_unchecked") are nd-run's where it runs.
    aot_keys = ("nd_aot", "nd_aot_unchecked") if cmd else \
        ("nd", "nd_unchecked")
    for check_bounds in (True, False):
        if not aot:
            break
        label = "" if check_bounds else " unchecked"
        try:
            module, seconds = aot.module(w, model, check_bounds)
        except Failure as error:
            r["errors"].append(str(error))
            print(f"FAILED {w.key}: {error}", file=sys.stderr, flush=True)
            continue
        r["nd_aot_compile"][str(check_bounds).lower()] = seconds
        for t in thread_counts:
            try:
                timing, output = aot.run(module, inputs, t, runs, w.donate)
            except Failure as error:
                r["errors"].append(str(error))
                print(f"FAILED {w.key}: {error}", file=sys.stderr, flush=True)
                continue
            if not check(output, f"{w.key}: nd AOT at {t} thread(s){label}"):
                r[aot_keys[0 if check_bounds else 1]][t] = timing
    for check_bounds in (True, False):
        if not cmd:
            break
        for t in thread_counts:
            outdir = os.path.join(wdir, f"nd_T{t}_{int(check_bounds)}")
            try:
                timing, output = run_nd(cmd, model, input_paths, outdir, t,
                                        runs, w.donate, check_bounds)
            except Failure as error:
                r["errors"].append(str(error))
                print(f"FAILED {w.key}: {error}", file=sys.stderr, flush=True)
                continue
            label = "" if check_bounds else " --check-bounds=false"
            if not check(output, f"{w.key}: nd at {t} thread(s){label}"):
                (r["nd"] if check_bounds else r["nd_unchecked"])[t] = timing

    # numpy: one thread.
    best = None
    for label, setup in w.numpy:
        seconds, n, out = median_time(setup(inputs), runs, budget)
        if not check(out, f"{w.key}: numpy {label}"):
            if best is None or seconds < best["median"]:
                best = {"median": seconds, "how": label, "runs": n}
    r["numpy"] = best

    if have_torch:
        import torch
        for t in thread_counts:
            torch.set_num_threads(t)
            best = None
            for label, setup in w.torch:
                seconds, n, out = median_time(setup(inputs), runs, budget)
                wrong = check(out.numpy(),
                              f"{w.key}: torch {label} at {t} thread(s)",
                              peer=True)
                # A right result beats a wrong one, then the faster.
                if best is None or (not wrong, -seconds) > (
                        not best["wrong"], -best["median"]):
                    best = {"median": seconds, "how": label, "runs": n,
                            "wrong": wrong}
            r["torch"][t] = best

    # ONNX Runtime has no donation: the donated variants have no ORT figure.
    if ort_dir and not w.donate:
        outdir = os.path.join(wdir, "ort")
        os.makedirs(outdir, exist_ok=True)
        try:
            ort = run_ort(ort_dir, model, input_paths, outdir, thread_counts,
                          runs, budget)
        except Failure as error:
            r["peer_errors"].append(str(error))
            print(f"FAILED (peer) {w.key}: {error}", file=sys.stderr,
                  flush=True)
            ort = {"runs": {}}
        for t in thread_counts:
            seconds = ort["runs"].get(str(t))
            if seconds is None:
                continue
            out = np.load(os.path.join(outdir, f"output_T{t}.npy"))
            wrong = check(out, f"{w.key}: ONNX Runtime at {t} thread(s)",
                          peer=True)
            r["ort"][t] = {"median": statistics.median(seconds),
                           "runs": len(seconds), "wrong": wrong}
    if not args.keep:
        shutil.rmtree(wdir, ignore_errors=True)
    status = nd_status(r) or "ok"
    if r["peer_errors"]:
        status += " (a peer's result is wrong, see below)"
    print(f"{w.key}: {status}", flush=True)


def nd_status(r):
    """FAILED where nd-run or nd through Python failed, MISMATCH where a
    result was wrong, None where all is well."""
    if any(e.startswith(("nd-run failed", "nd AOT failed"))
           for e in r["errors"]):
        return "FAILED"
    return "MISMATCH" if r["errors"] else None


def evaluate(workloads, results, thread_counts, bandwidth):
    """Adds the derived figures and the target verdicts to `results`."""
    low = thread_counts[0]
    for w in workloads:
        r = results.get(w.key)
        if r is None:
            continue
        r["derived"] = {}
        for t in thread_counts:
            nd = r["nd"].get(t)
            peers = []
            if r["numpy"]:
                peers.append(("numpy", r["numpy"]["median"]))
            # A peer whose result is wrong is no competitor.
            if r["torch"].get(t) and not r["torch"][t]["wrong"]:
                peers.append(("torch", r["torch"][t]["median"]))
            if r["ort"].get(t) and not r["ort"][t]["wrong"]:
                peers.append(("ORT", r["ort"][t]["median"]))
            d = {}
            if peers:
                name, seconds = min(peers, key=lambda p: p[1])
                d["best_peer"] = (name, seconds)
                if nd:
                    d["speedup"] = seconds / nd["median"]
            if nd:
                d["bandwidth"] = (r["moved_bytes"] / nd["median"] /
                                  bandwidth[t][0])
                unchecked = r["nd_unchecked"].get(t)
                if unchecked:
                    d["checked_ratio"] = nd["median"] / unchecked["median"]
                if t == 2 and r["nd"].get(1):
                    d["scaling"] = r["nd"][1]["median"] / nd["median"]
            targets = []
            if "speedup" in d:
                targets.append(("1.5x", d["speedup"] >= TARGET_SPEEDUP,
                                f"{d['speedup']:.2f}x"))
            if w.streaming and "bandwidth" in d:
                targets.append(("70% BW", d["bandwidth"] >= TARGET_BANDWIDTH,
                                f"{100 * d['bandwidth']:.0f}%"))
            if "scaling" in d and r["nd"][low]["median"] > SCALING_MIN_SECONDS:
                targets.append(("2T 1.6x", d["scaling"] >= TARGET_SCALING,
                                f"{d['scaling']:.2f}x"))
            d["targets"] = targets
            r["derived"][t] = d


def legend(workloads, results):
    lines = ["| | workload | shapes | bytes that must move | MB | runs |",
             "|---|---|---|---|---|---|"]
    for w in workloads:
        r = results.get(w.key)
        if r is None:
            continue
        lines.append(f"| {w.key} | {w.title} | {r['shapes']} | {w.moved_text} | "
                     f"{r['moved_bytes'] / 1e6:.3g} | {r['runs']} |")
    return "\n".join(lines)


def peer_cell(result, nominal_runs, notes=()):
    """A peer's time, with how, fewer runs than asked, and WRONG."""
    if not result:
        return "n/a"
    notes = list(notes)
    if result.get("how"):
        notes.insert(0, result["how"])
    if result["runs"] < nominal_runs:
        runs = result["runs"]
        notes.append(f"{runs} run{'s' if runs > 1 else ''}")
    if result.get("wrong"):
        notes.append("WRONG")
    text = fmt_time(result["median"])
    return f"{text} ({', '.join(notes)})" if notes else text


def table(workloads, results, t):
    lines = []
    # nd through Python (AOT) beside nd-run (JIT), where both ran.
    both = any(r.get("nd_aot") for r in results.values())
    head = ["", "nd", "nd unchecked", "checked / unchecked"]
    if both:
        head += ["nd AOT (Python)", "AOT / JIT"]
    head += ["numpy", "torch", "ONNX Runtime", "best peer / nd",
             "nd % of copy BW"]
    if t == 2:
        head.append("nd 2T / 1T")
    head.append("targets")
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + "---|" * len(head))
    for w in workloads:
        r = results.get(w.key)
        if r is None:
            continue
        d = r["derived"][t]
        nd = r["nd"].get(t)
        unchecked = r["nd_unchecked"].get(t)
        n = r["runs"]
        cells = [f"{w.key}. {w.title}",
                 fmt_time(nd["median"]) if nd else "FAILED",
                 fmt_time(unchecked["median"]) if unchecked else "FAILED",
                 f"{d['checked_ratio']:.2f}" if "checked_ratio" in d else ""]
        if both:
            aot = r["nd_aot"].get(t)
            cells += [fmt_time(aot["median"]) if aot else "FAILED",
                      f"{aot['median'] / nd['median']:.2f}"
                      if aot and nd else ""]
        cells += [peer_cell(r["numpy"], n, ["1 thread"] if t != 1 else []),
                 peer_cell(r["torch"].get(t), n),
                 (peer_cell(r["ort"].get(t), n) if not w.donate
                  else "n/a (no donation)"),
                 (f"{d['speedup']:.2f} ({d['best_peer'][0]})"
                  if "speedup" in d else ""),
                 f"{100 * d['bandwidth']:.1f}" if "bandwidth" in d else ""]
        if t == 2:
            cells.append(f"{d['scaling']:.2f}" if "scaling" in d else "")
        cells.append(", ".join(f"{name} {'yes' if ok else 'NO'} ({value})"
                               for name, ok, value in d["targets"]))
        if nd_status(r):
            cells[0] += f" **{nd_status(r)}**"
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary(workloads, results, thread_counts):
    lines = []
    for target in ("1.5x", "70% BW", "2T 1.6x"):
        met, missed = [], []
        for w in workloads:
            r = results.get(w.key)
            if r is None:
                continue
            for t in thread_counts:
                for name, ok, value in r["derived"][t]["targets"]:
                    if name != target:
                        continue
                    where = f"{w.key}@{t}T" if target != "2T 1.6x" else w.key
                    (met if ok else missed).append(f"{where} {value}")
        if met or missed:
            line = f"- {target}: met {len(met)} of {len(met) + len(missed)}"
            if missed:
                line += f"; missed: {', '.join(missed)}"
            lines.append(line)
    return "\n".join(lines)


def nd_description(args, aot):
    """How nd ran, for the report."""
    parts = []
    if "jit" in args.nd:
        parts.append("nd-run (JIT: the time of the compiled function's run)")
    if aot:
        where = "" if not aot.bundle else f", libraries of {aot.bundle}"
        cpu = f", --cpu {aot.cpu}" if aot.cpu else ""
        parts.append(f"the Python package (AOT: a bound call of the library "
                     f"nd-compile built, through {aot.runtime_path} "
                     f"{aot.version}{cpu}{where})")
    text = " and ".join(parts)
    if len(parts) == 2:
        text += "; the nd columns are nd-run's"
    return text


def parse_args():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tiny", action="store_true",
                        help="small shapes and 2 runs: a check that the "
                             "benchmark and every peer work (seconds)")
    parser.add_argument("--nd-run", default=None,
                        help="the nd-run command (default: "
                             "$ND_BUILD_DIR or build/, bin/nd-run)")
    parser.add_argument("--nd", default="jit",
                        help="how nd runs, comma-separated: jit (nd-run), "
                             "aot (the Python package over libraries that "
                             "nd-compile built); default jit")
    parser.add_argument("--aot-dir", default=None,
                        help="with --nd aot: keep the libraries, "
                             "libnd_runtime.so and libomp in DIR/lib, and "
                             "load the libraries found there instead of "
                             "compiling them (no nd-compile, LLVM or MLIR "
                             "needed then)")
    parser.add_argument("--aot-cpu", default=None,
                        help="with --nd aot: the CPU to compile for "
                             "(nd-compile --cpu; default native, as nd-run, "
                             "or with --aot-dir nd-compile's portable "
                             "default)")
    parser.add_argument("--only", default=None,
                        help="comma-separated workload keys (a,a',a'256,b,b2,"
                             "c1,c2,d,e,f,g,g',h,i,j)")
    parser.add_argument("--threads", default=None,
                        help="comma-separated thread counts "
                             "(default: 1, 2 and all cores)")
    parser.add_argument("--peers", default="numpy,torch,ort",
                        help="peers to run besides nd (numpy always runs: it "
                             "is the reference)")
    parser.add_argument("--scale", default="1",
                        help="comma-separated fractions of the models' "
                             "sizes (tokens, rows, entries; a row's width "
                             "stays), each run as its own workload, e.g. "
                             "1,0.25: full and quarter scale, where the "
                             "peers' data sit in cache (a workload at 0.25 "
                             "is named c1:0.25)")
    parser.add_argument("--runs-scale", type=float, default=1.0,
                        help="scale every workload's number of runs")
    parser.add_argument("--budget", type=float, default=15.0,
                        help="seconds a peer may spend on one formulation's "
                             "timed runs at one thread count before N is cut "
                             "(to at least 1)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workdir", default=None,
                        help="where models and tensors are written (default: "
                             "a temporary directory under the build dir)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the models, inputs and outputs")
    parser.add_argument("--json", default=None,
                        help="also write every figure to this JSON file")
    parser.add_argument("--no-install", action="store_true",
                        help="do not run scripts/setup.sh for what is "
                             "missing")
    parser.add_argument("--target", choices=("cpu", "cuda"), default="cpu",
                        help="cuda: nd's GPU code beside torch CUDA, with "
                             "and without deterministic algorithms "
                             "(scripts/bench_gpu.py, on the libraries "
                             "scripts/gpu-prepare.sh built into --gpu-dir)")
    parser.add_argument("--gpu-dir", default=None,
                        help="the folder of scripts/gpu-prepare.sh (default: "
                             "$ND_BUILD_DIR or build/, gpu-check)")
    args = parser.parse_args()
    if args.tiny:
        args.budget = 1.0
    try:
        args.scale = [float(s) for s in args.scale.split(",")]
    except ValueError:
        die(f"--scale takes comma-separated fractions, not '{args.scale}'")
    bad = [s for s in args.scale if not 0 < s <= 1]
    if bad or len(set(args.scale)) != len(args.scale):
        die(f"--scale takes distinct fractions in (0, 1], not "
            f"'{','.join(f'{s:g}' for s in args.scale)}'")
    args.nd = args.nd.split(",")
    unknown = set(args.nd) - {"jit", "aot"}
    if unknown or not args.nd:
        die(f"--nd takes jit, aot or both, not '{','.join(args.nd)}'")
    if args.aot_dir and "aot" not in args.nd:
        die("--aot-dir is for --nd aot")
    return args


def set_up_once(args, missing):
    """Runs scripts/setup.sh (Debian packages, ONNX Runtime from npm, nd's
    build) and starts over, once, unless this run may not install
    (--no-install, and the tiny mode, which runs in tests)."""
    if args.no_install or args.tiny or os.environ.get("ND_BENCH_SETUP_DONE"):
        return
    print(f"bench: {', '.join(missing)} missing: running scripts/setup.sh",
          flush=True)
    subprocess.run(["bash", os.path.join(ROOT, "scripts", "setup.sh")],
                   check=True)
    os.environ["ND_BENCH_SETUP_DONE"] = "1"
    os.execv(sys.executable, [sys.executable] + sys.argv)


def find_peers(args):
    """(have_torch, ort_dir), installing missing peers where allowed."""
    peers = set(args.peers.split(",")) if args.peers else set()
    unknown = peers - {"numpy", "torch", "ort"}
    if unknown:
        die(f"unknown peer(s) {', '.join(sorted(unknown))}")
    missing = [m for m in ("numpy", "onnx") if not importlib.util.find_spec(m)]
    # Libraries of --aot-dir alone need no model, so no onnx.
    aot_alone = args.nd == ["aot"] and args.aot_dir and "ort" not in peers
    if missing and (missing != ["onnx"] or not aot_alone):
        debian_python.ensure(["numpy", "onnx"])
        set_up_once(args, missing)
        die(f"no {' or '.join(missing)} for {sys.executable}: run "
            f"scripts/setup.sh")
    have_torch = "torch" in peers and bool(importlib.util.find_spec("torch"))
    ort_dir = find_ort() if "ort" in peers else None
    missing = ([] if have_torch or "torch" not in peers else ["PyTorch"]) + \
        ([] if ort_dir or "ort" not in peers else ["ONNX Runtime"])
    if missing:
        set_up_once(args, missing)
    print(f"peers: numpy; torch {'yes' if have_torch else 'absent'}; "
          f"ONNX Runtime {'yes' if ort_dir else 'absent'}", flush=True)
    return have_torch, ort_dir


def report(args, workloads, results, thread_counts, bandwidth, copy_size,
           started, loads, have_torch, ort_dir, aot):
    tiny = " (tiny mode: the figures mean nothing)" if args.tiny else ""
    print()
    print(f"nd benchmark{tiny}, {started:%Y-%m-%d %H:%M}, "
          f"{machine_description()}")
    print(f"nd: {nd_description(args, aot)}")
    print(f"peers: {versions(have_torch, ort_dir)}")
    print(f"load average (1 minute): {loads[0]:.2f} before, "
          f"{loads[1]:.2f} after")
    print("copy bandwidth (read + write of a {} MiB array): {}".format(
        copy_size >> 20, ", ".join(
            f"{t} thread{'s' if t > 1 else ''} {bw / 1e9:.1f} GB/s ({how})"
            for t, (bw, how) in bandwidth.items())))
    print("times: medians of the runs after one warm-up run; a peer whose "
          f"runs would take over {args.budget:g} s runs fewer times (noted)")
    print()
    print(legend(workloads, results))
    for t in thread_counts:
        print()
        print(f"### {t} thread{'s' if t > 1 else ''}")
        print()
        print(table(workloads, results, t))
    print()
    print("targets: nd >= 1.5x the best peer; streaming workloads (a, d, e, "
          "g) >= 70% of copy bandwidth; 2 threads >= 1.6x 1 thread above "
          "10 ms")
    print(summary(workloads, results, thread_counts))
    wrong = [e for r in results.values() for e in r["peer_errors"]]
    if wrong:
        print()
        print("peers' results that differ from numpy's reference (marked "
              "WRONG, not counted as the best peer):")
        for e in wrong:
            print(f"- {e.splitlines()[0]}")


def run_cuda(args):
    """The GPU benchmark: scripts/bench_gpu.py on the prepared libraries."""
    build = os.environ.get("ND_BUILD_DIR", os.path.join(ROOT, "build"))
    directory = args.gpu_dir or os.path.join(build, "gpu-check")
    if not os.path.exists(os.path.join(directory, "libbench_cuda.so")):
        die(f"no GPU libraries in {directory}: run scripts/gpu-prepare.sh "
            f"{directory} (on a machine with MLIR and the CUDA toolkit)")
    sys.path.insert(0, directory)
    import bench_gpu  # noqa: E402
    return bench_gpu.main(directory, args.only, args.tiny)


def main():
    args = parse_args()
    if args.target == "cuda":
        return run_cuda(args)
    have_torch, ort_dir = find_peers(args)

    build = os.environ.get("ND_BUILD_DIR", os.path.join(ROOT, "build"))
    cmd = None
    if "jit" in args.nd:
        cmd = shlex.split(args.nd_run) if args.nd_run else [
            os.path.join(build, "bin", "nd-run")]
        if not shutil.which(cmd[0]):
            if not args.nd_run:
                set_up_once(args, ["nd-run"])
            die(f"no nd-run at '{cmd[0]}': build nd first (scripts/setup.sh) "
                f"or pass --nd-run")
    aot = NdAot(args, build) if "aot" in args.nd else None

    cores = len(os.sched_getaffinity(0))
    if args.threads:
        thread_counts = sorted({int(t) for t in args.threads.split(",")})
    else:
        thread_counts = sorted({1, min(2, cores), cores})

    workloads = make_workloads()
    if args.only:
        keys = args.only.split(",")
        known = [w.key for w in workloads]
        for key in keys:
            if key not in known:
                die(f"unknown workload '{key}' (known: {', '.join(known)})")
        workloads = [w for w in workloads if w.key in keys]
    workloads = at_scales(workloads, args.scale)

    own_workdir = args.workdir is None
    if own_workdir:
        os.makedirs(build, exist_ok=True)
        args.workdir = tempfile.mkdtemp(prefix="nd-bench-", dir=build)
    os.makedirs(args.workdir, exist_ok=True)

    started = datetime.datetime.now()
    load_before = os.getloadavg()[0]
    bandwidth, copy_size = copy_bandwidth(thread_counts, args.tiny, have_torch)
    results = {}
    for w in workloads:
        run_workload(w, args, cmd, aot, thread_counts, ort_dir, have_torch,
                     results)
    loads = (load_before, os.getloadavg()[0])
    evaluate(workloads, results, thread_counts, bandwidth)
    if own_workdir and not args.keep:
        shutil.rmtree(args.workdir, ignore_errors=True)

    report(args, workloads, results, thread_counts, bandwidth, copy_size,
           started, loads, have_torch, ort_dir, aot)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"date": started.isoformat(),
                       "machine": machine_description(),
                       "bandwidth": {t: b for t, (b, _) in bandwidth.items()},
                       "results": results}, f, indent=1, default=str)

    errors = [e for r in results.values() for e in r["errors"]]
    if errors:
        print(f"\nbench: {len(errors)} check(s) FAILED:", file=sys.stderr)
        for e in errors:
            print(f"  {e.splitlines()[0]}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
