#!/usr/bin/env python3
"""The test cases of nd's GPU check: every op x reduction x oob mode x element
type, static and dynamic shapes, plus larger cases that take the kernels'
other paths (16-byte vectors, several blocks, several passes of the sort,
heavy duplicates), the error path and a donated buffer.

Writes, into DIR:
  cases.mlir      a module of functions @case_N on their operands as
                  arguments (C interface), one per case;
  cases.json      what each case is and its inputs' files;
  case_N_iM.npy   the inputs (bf16 as its raw uint16 bits).
The expected results are added later by `gpu_check.py expect`, which runs
the same module compiled by nd's CPU pipeline.

Usage: gpu_cases.py DIR [--seed N] [--quick | --fuzz N] [--sample N]

--sample N keeps N of the random and larger cases (evenly spread) and every
error and donated case: a small set for dry runs of the check's machinery.
"""

import argparse
import json
import os
import re
import sys

import numpy as np

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test", "Reference"))
import nd_cases  # noqa: E402
from nd_cases import Case  # noqa: E402

# The storage dtype of each MLIR element type of the inputs and results.
STORAGE = {
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32",
    "i64": "int64", "index": "int64", "ui8": "uint8", "ui16": "uint16",
    "ui32": "uint32", "ui64": "uint64", "f16": "float16", "bf16": "uint16",
    "f32": "float32", "f64": "float64", "complex<f32>": "complex64",
    "complex<f64>": "complex128",
}

_TENSOR = re.compile(r"tensor<((?:\d+x)*)([^>]+)>")


def dynamic(text):
    """`text` with every dim of every tensor type dynamic."""
    def repl(match):
        dims = match.group(1)
        count = dims.count("x")
        return "tensor<" + "?x" * count + match.group(2) + ">"
    return _TENSOR.sub(repl, text)


def with_c_interface(text):
    """The function of `text` exported with MLIR's C interface."""
    first, rest = text.split("\n", 1)
    head, brace = first.rsplit("{", 1)
    return head + "attributes {llvm.emit_c_interface} {" + brace + "\n" + rest


def bf16_bits(array):
    """The bf16 bits of float32 values exact in bf16 (multiples of 1/8 of
    small magnitude, NaN, -0: the random cases' values)."""
    return (np.ascontiguousarray(array, np.float32).view(np.uint32) >>
            16).astype(np.uint16)


class Entry:
    """One function of the module and how to call it."""

    def __init__(self, what, case=None, text=None, inputs=None,
                 elements=None, result_element=None, result_rank=None,
                 donated=()):
        self.what = what
        self.case = case
        self.text = text
        self.inputs = inputs
        self.elements = elements
        self.result_element = result_element
        self.result_rank = result_rank
        self.donated = list(donated)


def case_entry(case, what, dyn=False, bf16=False):
    """The function of `case`; with `bf16`, its f32 operands as bf16."""
    text = case.to_mlir("NAME", constants=False)
    element = case.operands[0][2]
    present = [(a, e) for _, a, e in case.operands if a is not None]
    if bf16:
        text = text.replace("xf32>", "xbf16>").replace("<f32>", "<bf16>")
        present = [(bf16_bits(a), "bf16") if e == "f32" else (a, e)
                   for a, e in present]
        element = "bf16"
    if dyn:
        text = dynamic(text)
    return Entry(what, case, with_c_interface(text), [a for a, _ in present],
                 [e for _, e in present], element, len(case.result_shape))


def describe(case, element, dyn):
    a = case.attrs
    parts = [case.op, element]
    for key in ("reduction", "use_init_val", "axis", "batch_dims", "mode"):
        if key in a:
            parts.append(f"{key}={a[key]}")
    parts.append(f"oob={a['oob']}")
    parts.append("dynamic" if dyn else "static")
    shapes = ",".join(str(list(arr.shape)) for _, arr, _ in case.operands
                      if arr is not None)
    return " ".join(parts) + " " + shapes


def random_entries(rng, quick):
    """Every op x element type x oob mode, random shapes and attributes
    (reductions drawn), every third one with dynamic shapes; bf16 from f32."""
    entries = []
    dtypes = nd_cases.DATA_DTYPES + ["bfloat16"]
    rounds = 1 if quick else 2
    count = 0
    for _ in range(rounds):
        for op in nd_cases.OPS:
            for dtype in dtypes:
                for oob in ("error", "skip", "clamp"):
                    bf16 = dtype == "bfloat16"
                    case = nd_cases.random_case(rng, op, oob,
                                                "float32" if bf16 else dtype)
                    dyn = count % 3 == 2
                    count += 1
                    element = "bf16" if bf16 else case.operands[0][2]
                    entries.append(case_entry(case, describe(case, element, dyn),
                                              dyn, bf16))
    return entries


def values(rng, shape, dtype):
    return nd_cases._random_values(rng, shape, dtype)


def big_entries(rng):
    """Cases large enough for the kernels' other paths."""
    out = []

    def add(op, operands, attrs, result_shape, dyn=False, note=""):
        case = Case(op, operands, attrs, result_shape)
        element = case.operands[0][2]
        out.append(case_entry(case, describe(case, element, dyn) +
                              (" " + note if note else ""), dyn))

    def scatter_rows(reductions, shape, span, count, oob, note):
        """scatter_nd cases of `count` rows into data of `shape` (rows,
        width), indices drawn from [-span, span): one per (reduction, dtype,
        element)."""
        rows, width = shape
        for reduction, dtype, element in reductions:
            data = values(rng, (rows, width), dtype)
            ids = rng.integers(-span, span, size=(count, 1)).astype(np.int64)
            updates = values(rng, (count, width), dtype)
            add("scatter_nd", [("data", data, element),
                               ("indices", ids, "i64"),
                               ("updates", updates, element)],
                {"reduction": reduction, "oob": oob}, (rows, width),
                note=note)

    # Row gathers: vectors (rows of whole 16-byte units), several rows per
    # block, long rows split among blocks.
    for dtype, element, width in (("float32", "f32", 64), ("float16", "f16", 40),
                                  ("int8", "i8", 48), ("float64", "f64", 2),
                                  ("float32", "f32", 3)):
        data = values(rng, (300, width), dtype)
        ids = rng.integers(-300, 300, size=(3000, 1)).astype(np.int64)
        add("gather_nd", [("data", data, element), ("indices", ids, "i64")],
            {"batch_dims": 0, "oob": "error"}, (3000, width),
            note="rows")
    data = values(rng, (4, 70000), np.float32)
    ids = rng.integers(0, 4, size=(3, 1)).astype(np.int32)
    add("gather_nd", [("data", data, "f32"), ("indices", ids, "i32")],
        {"batch_dims": 0, "oob": "error"}, (3, 70000), note="long rows")
    data = values(rng, (8, 50, 32), np.float16)
    ids = rng.integers(-60, 60, size=(8, 20, 1)).astype(np.int64)
    add("gather_nd", [("data", data, "f16"), ("indices", ids, "i64")],
        {"batch_dims": 1, "oob": "skip"}, (8, 20, 32), dyn=True,
        note="batch rows")
    data = values(rng, (6, 40, 16), np.float32)
    ids = rng.integers(-45, 45, size=(5, 7)).astype(np.int64)
    add("gather", [("data", data, "f32"), ("indices", ids, "i64")],
        {"axis": 1, "batch_dims": 0, "oob": "clamp"}, (6, 5, 7, 16),
        note="rows")
    # gather_elements: even and uneven dims, along either axis.
    data = values(rng, (16, 3000), np.float32)
    ids = np.argsort(rng.random((16, 3000)), axis=1).astype(np.int64)
    add("gather_elements", [("data", data, "f32"), ("indices", ids, "i64")],
        {"axis": 1, "oob": "error"}, (16, 3000), note="permutation")
    data = values(rng, (300, 6, 5), np.int32)
    ids = rng.integers(-310, 310, size=(200, 4, 5)).astype(np.int32)
    add("gather_elements", [("data", data, "i32"), ("indices", ids, "i32")],
        {"axis": 0, "oob": "skip"}, (200, 4, 5), note="uneven")
    # Scatters with many duplicates, under every reduction: the sort runs
    # several tiles and passes; rows take vectors.
    scatter_rows((("add", "float32", "f32"), ("mul", "float16", "f16"),
                  ("max", "float32", "f32"), ("min", "int32", "i32"),
                  ("sub", "float64", "f64"), ("add", "uint8", "ui8"),
                  ("max", "uint16", "ui16"), ("none", "float32", "f32"),
                  ("add", "complex64", "complex<f32>"), ("add", "bool", "i1")),
                 (100, 32), 100, 5000, "error", "duplicate rows")
    # Points: many entries, keys of 12 bits (3 passes), 5 tiles.
    data = values(rng, (64, 64), np.float32)
    ids = rng.integers(-64, 64, size=(20000, 2)).astype(np.int32)
    updates = values(rng, (20000,), np.float32)
    add("scatter_nd", [("data", data, "f32"), ("indices", ids, "i32"),
                       ("updates", updates, "f32")],
        {"reduction": "add", "oob": "error"}, (64, 64), note="points")
    ids = rng.integers(-70, 70, size=(20000, 2)).astype(np.int64)
    add("scatter_nd", [("data", data, "f32"), ("indices", ids, "i64"),
                       ("updates", updates, "f32")],
        {"reduction": "none", "oob": "skip"}, (64, 64), dyn=True,
        note="points")
    # Every entry on one element.
    ids = np.zeros((6000, 2), np.int64)
    add("scatter_nd", [("data", data, "f32"), ("indices", ids, "i64"),
                       ("updates", updates[:6000], "f32")],
        {"reduction": "add", "oob": "error"}, (64, 64), note="one element")
    # Wide rows.
    data = values(rng, (20, 3000), np.float32)
    ids = rng.integers(0, 20, size=(50, 1)).astype(np.int64)
    updates = values(rng, (50, 3000), np.float32)
    add("scatter_nd", [("data", data, "f32"), ("indices", ids, "i64"),
                       ("updates", updates, "f32")],
        {"reduction": "add", "oob": "error"}, (20, 3000), note="wide rows")
    # scatter_elements: mean and use_init_val(false), every type family.
    for reduction, use_init, dtype, element in (
            ("mean", True, "float32", "f32"), ("mean", False, "float16", "f16"),
            ("mean", True, "int32", "i32"), ("mean", False, "int64", "i64"),
            ("mean", True, "uint16", "ui16"), ("max", False, "float32", "f32"),
            ("add", False, "int8", "i8"), ("mul", True, "float64", "f64"),
            ("none", True, "float32", "f32")):
        data = values(rng, (40, 8), dtype)
        ids = rng.integers(-40, 40, size=(3000, 8)).astype(np.int64)
        updates = values(rng, (3000, 8), dtype)
        add("scatter_elements", [("data", data, element),
                                 ("indices", ids, "i64"),
                                 ("updates", updates, element)],
            {"axis": 0, "reduction": reduction, "use_init_val": use_init,
             "oob": "error"}, (40, 8), note="tallied")
    # Index rows that hold one value (a GNN's aggregation): rows scattered.
    for reduction, use_init, dtype, element, oob in (
            ("add", True, "float32", "f32", "error"),
            ("mean", False, "float32", "f32", "skip"),
            ("none", True, "float16", "f16", "clamp"),
            ("max", True, "int32", "i32", "error")):
        data = values(rng, (50, 3, 16), dtype)
        dst = rng.integers(-55, 55, size=(2000, 1, 1)).astype(np.int64)
        ids = np.ascontiguousarray(np.broadcast_to(dst, (2000, 3, 16)))
        if oob == "error":
            ids = ids % 50
        updates = values(rng, (2000, 3, 16), dtype)
        add("scatter_elements", [("data", data, element),
                                 ("indices", ids, "i64"),
                                 ("updates", updates, element)],
            {"axis": 0, "reduction": reduction, "use_init_val": use_init,
             "oob": oob}, (50, 3, 16), dyn=oob == "skip", note="index rows")
    data = values(rng, (16, 3000), np.float32)
    ids = np.argsort(rng.random((16, 3000)), axis=1).astype(np.int64)
    updates = values(rng, (16, 3000), np.float32)
    add("scatter_elements", [("data", data, "f32"), ("indices", ids, "i64"),
                             ("updates", updates, "f32")],
        {"axis": 1, "reduction": "none", "use_init_val": True,
         "oob": "error"}, (16, 3000), note="permutation")
    # The sort's large path (more than 32768 entries or 65536 rows): 8-bit
    # digits over several tiles with the look-back, dropped entries, every
    # reduction family; the small path at its limit (8 tiles).
    data = values(rng, (300, 8), np.float32)
    ids = rng.integers(-320, 320, size=(40000, 1)).astype(np.int64)
    updates = values(rng, (40000, 8), np.float32)
    add("scatter_nd", [("data", data, "f32"), ("indices", ids, "i64"),
                       ("updates", updates, "f32")],
        {"reduction": "add", "oob": "skip"}, (300, 8), note="large sort")
    # Long runs (more than 64 entries a row: the hub kernel, its batches
    # of straight-line loads) in other widths and reductions, with dropped
    # entries among the runs.
    scatter_rows((("mul", "float16", "f16"), ("max", "float64", "f64"),
                  ("min", "int8", "i8"), ("add", "complex64", "complex<f32>")),
                 (40, 8), 44, 36000, "skip", "long runs")
    data = values(rng, (30, 4), np.float32)
    ids = rng.integers(-33, 33, size=(10000, 4)).astype(np.int64)
    updates = values(rng, (10000, 4), np.float32)
    add("scatter_elements", [("data", data, "f32"), ("indices", ids, "i64"),
                             ("updates", updates, "f32")],
        {"axis": 0, "reduction": "mean", "use_init_val": False,
         "oob": "skip"}, (30, 4), note="long runs")
    data = values(rng, (70000,), np.float32)
    ids = rng.integers(-70000, 70000, size=(6000,)).astype(np.int64)
    updates = values(rng, (6000,), np.float32)
    add("scatter_elements", [("data", data, "f32"), ("indices", ids, "i64"),
                             ("updates", updates, "f32")],
        {"axis": 0, "reduction": "mean", "use_init_val": False,
         "oob": "error"}, (70000,), note="many rows")
    data = values(rng, (4096, 2), np.int32)
    ids = rng.integers(0, 4096, size=(32768, 1)).astype(np.int32)
    updates = values(rng, (32768, 2), np.int32)
    add("scatter_nd", [("data", data, "i32"), ("indices", ids, "i32"),
                       ("updates", updates, "i32")],
        {"reduction": "max", "oob": "error"}, (4096, 2), note="8 tiles")
    # tensor_scatter: rows of vectors, linear and circular.
    for mode in ("linear", "circular"):
        cache = values(rng, (2, 4, 64, 32), np.float16)
        update = values(rng, (2, 4, 16, 32), np.float16)
        high = 48 if mode == "linear" else 120
        writes = rng.integers(0, high + 1, size=(2,)).astype(np.int64)
        add("tensor_scatter", [("past_cache", cache, "f16"),
                               ("update", update, "f16"),
                               ("write_indices", writes, "i64")],
            {"axis": 2, "mode": mode, "oob": "error"}, (2, 4, 64, 32),
            note="cache")
    return out


def error_entries(rng):
    """Cases with an index out of range under oob<error>: every op."""
    out = []
    for i, op in enumerate(nd_cases.OPS):
        while True:
            case = nd_cases.random_case(rng, op, "error", "float32")
            name = "write_indices" if op == "tensor_scatter" else "indices"
            indices = case.array(name)
            if indices is not None and indices.size:
                break
        position = tuple(int(rng.integers(0, d)) for d in indices.shape)
        indices[position] = -1000 - i
        element = case.operands[0][2]
        out.append(case_entry(case, describe(case, element, i % 2 == 1) +
                              " bad index", dyn=i % 2 == 1))
    # A dynamic shape mismatch: updates shorter than indices.
    data = np.arange(12, dtype=np.float32).reshape(3, 4)
    ids = np.zeros((2, 4), np.int64)
    updates = np.ones((2, 3), np.float32)
    text = with_c_interface(
        "func.func @NAME(%data: tensor<?x?xf32>, %indices: tensor<?x?xi64>, "
        "%updates: tensor<?x?xf32>) -> tensor<?x?xf32> {\n"
        "  %r = nd.scatter_elements %data[%indices], %updates axis(0) "
        ": tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>\n"
        "  return %r : tensor<?x?xf32>\n}")
    out.append(Entry("scatter_elements f32 dynamic shape mismatch", None, text,
                     [data, ids, updates], ["f32", "i64", "f32"], "f32", 2))
    return out


def donated_entries(rng):
    """A KV-cache update in place: the result is the donated input."""
    cache = values(rng, (1, 4, 64, 16), np.float16)
    pos = np.zeros((1, 4, 1, 3), np.int64)
    pos[0, :, 0, 1] = np.arange(4)
    pos[0, :, 0, 2] = 63
    kv = values(rng, (1, 4, 1, 16), np.float16)
    t = "tensor<1x4x64x16xf16>"
    text = with_c_interface(
        f"func.func @NAME(%cache: {t} {{nd.donated}}, "
        "%pos: tensor<1x4x1x3xi64>, %kv: tensor<1x4x1x16xf16>) -> "
        f"{t} {{\n"
        "  %r = nd.scatter_nd %cache[%pos], %kv : "
        f"{t}, tensor<1x4x1x3xi64>, tensor<1x4x1x16xf16>\n"
        f"  return %r : {t}\n}}")
    out = [Entry("scatter_nd f16 donated KV cache", None, text,
                 [cache, pos, kv], ["f16", "i64", "f16"], "f16", 4,
                 donated=[0])]
    # Reductions in place: the owners leave rows without entries untouched,
    # on the small path and on the large one.
    for rows, count, note in ((64, 3000, "small"), (50, 40000, "large")):
        data = values(rng, (rows, 4), np.float32)
        ids = rng.integers(0, rows, size=(count, 1)).astype(np.int64)
        updates = values(rng, (count, 4), np.float32)
        t = f"tensor<{rows}x4xf32>"
        text = with_c_interface(
            f"func.func @NAME(%d: {t} {{nd.donated}}, "
            f"%i: tensor<{count}x1xi64>, %u: tensor<{count}x4xf32>) -> "
            f"{t} {{\n"
            "  %r = nd.scatter_nd %d[%i], %u reduction<add> : "
            f"{t}, tensor<{count}x1xi64>, tensor<{count}x4xf32>\n"
            f"  return %r : {t}\n}}")
        out.append(Entry(f"scatter_nd f32 add donated, {note} sort", None,
                         text, [data, ids, updates], ["f32", "i64", "f32"],
                         "f32", 2, donated=[0]))
    return out


def fuzz_entries(rng, count):
    """`count` random cases for a random differential test: every op in
    turn, of shapes drawn among static ones, a static 0 dim and a dim that
    is 0 at run time only (nd_cases.random_shaped_case), every fifth one
    under oob<error> with an index out of range."""
    out = []
    for index in range(count):
        op = nd_cases.OPS[index % len(nd_cases.OPS)]
        shapes = nd_cases.SHAPES[int(rng.integers(0, len(nd_cases.SHAPES)))]
        bad = index % 5 == 4
        while True:
            case = nd_cases.random_shaped_case(rng, op, shapes,
                                               "error" if bad else None)
            name = "write_indices" if op == "tensor_scatter" else "indices"
            indices = case.array(name)
            if not bad or (indices is not None and indices.size):
                break
        if bad:
            position = tuple(int(rng.integers(0, d)) for d in indices.shape)
            indices[position] = -1000 - index
        element = case.operands[0][2]
        dyn = bool(case.dynamic or case.result_dynamic)
        what = describe(case, element, dyn) + f" {shapes}" + \
            (" bad index" if bad else "")
        out.append(case_entry(case, what))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quick", action="store_true",
                        help="one round of random cases instead of two")
    parser.add_argument("--sample", type=int, default=0,
                        help="keep this many of the random and larger "
                             "cases")
    parser.add_argument("--fuzz", type=int, metavar="N",
                        help="only N random cases of every kind of shapes, "
                             "some with an index out of range (see "
                             "fuzz_entries)")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    if args.fuzz:
        print(f"seed {args.seed}")
        entries = fuzz_entries(rng, args.fuzz)
    else:
        values = random_entries(rng, args.quick) + big_entries(rng)
        if args.sample:
            step = max(1, len(values) // args.sample)
            values = values[::step][:args.sample]
        entries = values + error_entries(rng) + donated_entries(rng)
    os.makedirs(args.dir, exist_ok=True)
    functions, manifest = [], []
    for n, entry in enumerate(entries):
        name = f"case_{n}"
        functions.append(entry.text.replace("@NAME", "@" + name, 1))
        inputs = []
        for m, (array, element) in enumerate(zip(entry.inputs,
                                                 entry.elements)):
            file = f"{name}_i{m}.npy"
            np.save(os.path.join(args.dir, file),
                    np.ascontiguousarray(array).astype(STORAGE[element]))
            inputs.append({"file": file, "element": element,
                           "storage": STORAGE[element],
                           "rank": int(np.ndim(array))})
        manifest.append({"name": name, "what": entry.what, "inputs": inputs,
                         "result": {"element": entry.result_element,
                                    "storage": STORAGE[entry.result_element],
                                    "rank": entry.result_rank},
                         "donated": entry.donated})
    with open(os.path.join(args.dir, "cases.mlir"), "w") as f:
        f.write("\n\n".join(functions) + "\n")
    with open(os.path.join(args.dir, "cases.json"), "w") as f:
        json.dump({"cases": manifest}, f, indent=1)
    print(f"{len(entries)} cases written to {args.dir}")


if __name__ == "__main__":
    main()
