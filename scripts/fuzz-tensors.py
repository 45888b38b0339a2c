#!/usr/bin/python3
"""Runs nd's tensor readers and nd-run on mutated .npy and .pb files.

Meant for a sanitizer build (not part of check-nd):

  cmake -G Ninja -S . -B build-asan -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \\
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DLLVM_USE_LINKER=lld \\
    "-DCMAKE_CXX_FLAGS=-fsanitize=address,undefined -fno-sanitize-recover=all -g" \\
    "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \\
    "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined"
  ninja -C build-asan nd-run nd-tensor-tool
  /usr/bin/python3 scripts/fuzz-tensors.py build-asan --files 400

Seeds are valid files written with NumPy and ONNX's Python package (every
dtype, ranks 0 to 4, empty tensors, .npy versions 1.0 to 3.0, raw and typed
TensorProto fields). Each mutant (byte flips, truncations, appended bytes,
rewritten .npy headers with extreme dims and dtypes, rewritten TensorProto
dims, types and fields) is given to `nd-tensor-tool print`, `convert` and
`compare`, and as one input of an nd-run model. A run is a finding when it
ends by a signal, with a status other than 0 or 1, with a sanitizer report,
with status 1 but no error message, or when it outlasts the time limit.
Findings are kept in OUT/findings with the command that produced them; the
script prints the counts and exits 1 when there is a finding.
"""

import argparse
import io
import os
import random
import re
import shutil
import subprocess
import sys

import numpy as np
import onnx
from onnx import numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
SANITIZER_REPORT = re.compile(
    rb"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")

# Dims that break naive arithmetic: zero, one, the edges of 32- and 64-bit
# integers, and values whose products overflow.
EXTREME_DIMS = [0, 1, 2, 3, 7, 255, 65535, 2**31 - 1, 2**31, 2**32,
                2**32 + 1, 2**40, 2**62, 2**63 - 1, 2**63, 2**64, -1, -2**63,
                10**30]
NPY_CODES = ["b1", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4",
             "f8", "c8", "c16", "f16", "V2", "O", "U3", "S1", "M8", "i", "",
             "c32", "f4f4"]
NPY_ORDERS = ["<", ">", "|", "=", "!", ""]

# Models nd-run is given the mutants to: (module, inputs, position of the
# mutant). The other inputs are valid and fit the module.
MODELS = {
    "identity_f32": """
func.func @main(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  return %a : tensor<?x?xf32>
}""",
    "identity_i64_3d": """
func.func @main(%a: tensor<?x?x?xi64>) -> tensor<?x?x?xi64> {
  return %a : tensor<?x?x?xi64>
}""",
    "gather_elements": """
func.func @main(%d: tensor<?x?xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %g = nd.gather_elements %d[%i] axis(1)
      : tensor<?x?xf32>, tensor<?x?xi64> -> tensor<?x?xf32>
  return %g : tensor<?x?xf32>
}""",
    "scatter_nd": """
func.func @main(%d: tensor<?x?xf32>, %i: tensor<?x1xi64>, %u: tensor<?x?xf32>)
    -> tensor<?x?xf32> {
  %s = nd.scatter_nd %d[%i], %u reduction<add>
      : tensor<?x?xf32>, tensor<?x1xi64>, tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}""",
}


def npy_seeds():
    rng = np.random.default_rng(0)
    arrays = [
        np.array([True, False, True]),
        np.arange(-4, 4, dtype=np.int8).reshape(2, 4),
        np.arange(6, dtype=np.int16),
        np.arange(12, dtype=np.int32).reshape(3, 4),
        np.array([[0], [1], [-1]], dtype=np.int64),
        np.arange(24, dtype=np.int64).reshape(2, 3, 4),
        np.arange(5, dtype=np.uint8),
        np.arange(5, dtype=np.uint16),
        np.arange(5, dtype=np.uint32),
        np.array([0, 2**64 - 1], dtype=np.uint64),
        np.array([1.0, np.inf, np.nan], dtype=np.float16),
        rng.standard_normal((2, 3)).astype(np.float32),
        rng.standard_normal((3, 3)).astype(np.float32),
        np.array(2.5, dtype=np.float64),
        np.array([1 + 2j], dtype=np.complex64),
        np.array([[1 - 1j]], dtype=np.complex128),
        np.zeros((0, 3), np.float32),
        np.zeros((2, 0, 2), np.int64),
        np.zeros((1, 1, 1, 1), np.float32),
    ]
    seeds = []
    for n, array in enumerate(arrays):
        for version in [(1, 0), (2, 0), (3, 0)]:
            path = "seed%d_v%d.npy" % (n, version[0])
            seeds.append((path, array, version))
    return seeds


def pb_seeds():
    seeds = []
    for n, (_, array, version) in enumerate(npy_seeds()):
        if version == (1, 0):
            seeds.append(numpy_helper.from_array(array, "t%d" % n))
    # Typed fields rather than raw_data.
    seeds.append(onnx.helper.make_tensor("f", onnx.TensorProto.FLOAT, [2, 2],
                                         [1.0, 2.0, 3.0, 4.0]))
    seeds.append(onnx.helper.make_tensor("i", onnx.TensorProto.INT64, [3],
                                         [1, -1, 0]))
    seeds.append(onnx.helper.make_tensor("b", onnx.TensorProto.BOOL, [2],
                                         [1, 0]))
    seeds.append(onnx.helper.make_tensor("h", onnx.TensorProto.FLOAT16, [2],
                                         [15360, 48128]))
    seeds.append(onnx.helper.make_tensor("bf", onnx.TensorProto.BFLOAT16, [2],
                                         [16256, 49152]))
    seeds.append(onnx.helper.make_tensor("u32", onnx.TensorProto.UINT32, [2],
                                         [1, 2**32 - 1]))
    seeds.append(onnx.helper.make_tensor("c", onnx.TensorProto.COMPLEX64, [1],
                                         [1 + 2j]))
    return seeds


def npy_header(descr, fortran, shape_text):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': (%s), }" % (
        descr, fortran, shape_text)


def npy_bytes(header, data, version=1, length=None):
    body = header.encode("latin1")
    prefix = 10 if version == 1 else 12
    body += b" " * ((-(prefix + len(body) + 1)) % 64) + b"\n"
    if length is None:
        length = len(body)
    width = 2 if version == 1 else 4
    length &= (1 << (8 * width)) - 1
    return (b"\x93NUMPY" + bytes([version, 0]) +
            length.to_bytes(width, "little") + body + data)


def mutate_bytes(rng, data):
    data = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0 and data:
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    elif kind == 1 and data:
        del data[rng.randrange(len(data)):]
    elif kind == 2:
        data += bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    elif data:
        pos = rng.randrange(len(data))
        data[pos:pos] = bytes(rng.randrange(256)
                              for _ in range(rng.randint(1, 16)))
    return bytes(data)


def mutate_npy(rng, array, version):
    """A mutant .npy image of `array`."""
    npy_format = np.lib.format
    descr = npy_format.dtype_to_descr(array.dtype)
    data = array.tobytes()
    kind = rng.randrange(7)
    if kind == 6:
        # Well-formed: the same elements in another shape, or no element
        # in a shape with huge dims.
        text = ", ".join(str(d) for d in odd_shape(rng, array.size))
        if "," not in text and text:
            text += ","
        size = 0 if "0" in text.split(", ") else array.size
        return npy_bytes(npy_header(descr, "False", text),
                         data if size else b"", version)
    if kind == 0:
        buf = io.BytesIO()
        npy_format.write_array(buf, array, version=(version, 0))
        return mutate_bytes(rng, buf.getvalue())
    if kind == 1:
        # Extreme dims, data of the right size where that is possible.
        dims = [rng.choice(EXTREME_DIMS) for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.5 and dims:
            dims[rng.randrange(len(dims))] = 0
        text = ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "")
        return npy_bytes(npy_header(descr, "False", text), data, version)
    if kind == 2:
        code = rng.choice(NPY_ORDERS) + rng.choice(NPY_CODES)
        text = ", ".join(str(d) for d in array.shape) + (
            "," if array.ndim == 1 else "")
        return npy_bytes(npy_header(code, "False", text), data, version)
    if kind == 3:
        text = ", ".join(str(d) for d in array.shape) + (
            "," if array.ndim == 1 else "")
        return npy_bytes(npy_header(descr, rng.choice(["True", "1", "None"]),
                                    text), data, version)
    if kind == 4:
        # A lying header length.
        text = ", ".join(str(d) for d in array.shape) + (
            "," if array.ndim == 1 else "")
        length = rng.choice([0, 1, 9, 2**15, 2**16 - 1, 2**31, 2**32 - 1])
        return npy_bytes(npy_header(descr, "False", text), data, version,
                         length)
    # Garbage in the dict.
    junk = rng.choice(["(", ")", "{", "'", "\"", ",,", "-", "1L", "0x10",
                       "1e3", " ", "\x00", "((2,),)", "[2]"])
    text = ", ".join(str(d) for d in array.shape) + (
        "," if array.ndim == 1 else "")
    header = npy_header(descr, "False", text)
    pos = rng.randrange(len(header))
    return npy_bytes(header[:pos] + junk + header[pos:], data, version)


def odd_shape(rng, size):
    """Dims holding `size` elements in a random rank, or no element with
    huge dims beside a zero."""
    if rng.random() < 0.5 or size == 0:
        dims = [rng.choice([1, 2, 3, 2**31, 2**62, 2**63 - 1])
                for _ in range(rng.randint(1, 4))]
        dims[rng.randrange(len(dims))] = 0
        return dims
    dims = []
    rest = size
    for factor in range(2, size + 1):
        while rest % factor == 0 and rng.random() < 0.7:
            dims.append(factor)
            rest //= factor
    dims.append(rest)
    for _ in range(rng.randint(0, 2)):
        dims.insert(rng.randrange(len(dims) + 1), 1)
    return dims


def mutate_pb(rng, proto):
    proto = onnx.TensorProto.FromString(proto.SerializeToString())
    kind = rng.randrange(6)
    if kind == 5:
        # Well-formed: another shape of the same element count, or none.
        count = 1
        for d in proto.dims:
            count *= d
        dims = odd_shape(rng, count)
        del proto.dims[:]
        proto.dims.extend(dims)
        if 0 in dims:
            proto.ClearField("raw_data")
            for field in ["float_data", "int32_data", "int64_data",
                          "double_data", "uint64_data"]:
                proto.ClearField(field)
        return proto.SerializeToString()
    if kind == 0:
        return mutate_bytes(rng, proto.SerializeToString())
    if kind == 1:
        del proto.dims[:]
        dims = [rng.choice([d for d in EXTREME_DIMS if -2**63 <= d < 2**63])
                for _ in range(rng.randint(0, 4))]
        if rng.random() < 0.5 and dims:
            dims[rng.randrange(len(dims))] = 0
        proto.dims.extend(dims)
    elif kind == 2:
        proto.data_type = rng.randrange(0, 30)
    elif kind == 3:
        # Values in a field the type does not use, or both kinds of storage.
        field = rng.choice(["float_data", "int32_data", "int64_data",
                            "double_data", "uint64_data"])
        values = [rng.choice([0, 1, 255, 65536, 2**31 - 1]) for _ in
                  range(rng.randint(0, 6))]
        getattr(proto, field).extend(values)
    else:
        proto.raw_data = mutate_bytes(rng, proto.raw_data or b"\x00" * 8)
        if rng.random() < 0.3:
            proto.data_location = onnx.TensorProto.EXTERNAL
    return proto.SerializeToString()


# The element type and rank each model argument takes: (model, slot).
SLOTS = {
    ("identity_f32", 0): (np.float32, 2),
    ("identity_i64_3d", 0): (np.int64, 3),
    ("gather_elements", 0): (np.float32, 2),
    ("gather_elements", 1): (np.int64, 2),
    ("scatter_nd", 0): (np.float32, 2),
    ("scatter_nd", 1): (np.int64, 2),
    ("scatter_nd", 2): (np.float32, 2),
}
INDEX_VALUES = [0, 1, 2, -1, -2, 3, -3, 5, 2**31, -2**31 - 1, 2**62,
                2**63 - 1, -2**63]


def semantic_input(rng, dtype, rank):
    """A well-formed .npy image of the dtype an argument takes, with odd
    shapes and values: the rank off by one at times, dims from 0 to 5, a
    zero dim beside huge ones, index values at the edges of int64."""
    if rng.random() < 0.1:
        rank += rng.choice([-1, 1])
    if rng.random() < 0.15 and rank > 0:
        dims = [rng.choice([1, 2, 2**31, 2**62, 2**63 - 1])
                for _ in range(rank)]
        dims[rng.randrange(rank)] = 0
        code = np.lib.format.dtype_to_descr(np.dtype(dtype))
        text = ", ".join(str(d) for d in dims) + ("," if rank == 1 else "")
        return npy_bytes(npy_header(code, "False", text), b"")
    shape = [rng.choice([0, 1, 1, 2, 2, 3, 5]) for _ in range(rank)]
    if dtype == np.int64:
        if rng.random() < 0.5 and rank == 2 and shape[1] != 1:
            shape[1] = 1 if rng.random() < 0.7 else shape[1]
        values = [rng.choice(INDEX_VALUES) for _ in range(int(np.prod(shape)))]
        array = np.array(values, np.int64).reshape(shape)
    else:
        values = [rng.choice([0.0, 1.5, -2.0, float("nan"), float("inf")])
                  for _ in range(int(np.prod(shape)))]
        array = np.array(values, np.float32).reshape(shape)
    buf = io.BytesIO()
    np.lib.format.write_array(buf, array)
    return buf.getvalue()


class Runner:
    def __init__(self, build, out, timeout):
        self.bin = os.path.join(build, "bin")
        self.out = out
        self.timeout = timeout
        self.counts = {}
        self.findings = 0
        os.makedirs(os.path.join(out, "findings"), exist_ok=True)
        self.env = dict(os.environ)
        self.env["ASAN_OPTIONS"] = ("allocator_may_return_null=1:"
                                    "detect_leaks=0:abort_on_error=0")
        self.env["UBSAN_OPTIONS"] = "print_stacktrace=1:halt_on_error=1"

    def run(self, label, args, inputs):
        command = [os.path.join(self.bin, args[0])] + args[1:]
        try:
            result = subprocess.run(command, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.PIPE, env=self.env,
                                    timeout=self.timeout)
            rc, stderr = result.returncode, result.stderr
            if SANITIZER_REPORT.search(stderr):
                outcome = "sanitizer"
            elif rc == 1 and b"error" not in stderr:
                outcome = "silent"
            elif rc in (0, 1):
                outcome = "ok" if rc == 0 else "rejected"
            else:
                outcome = "crash"
        except subprocess.TimeoutExpired:
            outcome, stderr = "hang", b""
        key = (label, outcome)
        self.counts[key] = self.counts.get(key, 0) + 1
        if outcome in ("sanitizer", "crash", "hang", "silent"):
            self.findings += 1
            where = os.path.join(self.out, "findings", "%04d" % self.findings)
            os.makedirs(where)
            for path in inputs:
                shutil.copy(path, where)
            with open(os.path.join(where, "command.txt"), "w") as f:
                f.write(" ".join(command) + "\n" + outcome + "\n")
            with open(os.path.join(where, "stderr.txt"), "wb") as f:
                f.write(stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("build", help="build directory with bin/nd-run")
    parser.add_argument("--files", type=int, default=400,
                        help="mutants of each format")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--out", default="fuzz-out")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    shutil.rmtree(args.out, ignore_errors=True)
    work = os.path.join(args.out, "work")
    os.makedirs(work)
    runner = Runner(args.build, args.out, args.timeout)

    # Valid companions of the mutants in nd-run's models.
    valid = {}
    for name, array in [("data", np.arange(6, dtype=np.float32).reshape(2, 3)),
                        ("indices_nd", np.array([[1], [0]], np.int64)),
                        ("updates", np.ones((2, 3), np.float32)),
                        ("indices_el", np.array([[2, 0], [1, 1]], np.int64))]:
        valid[name] = os.path.join(work, name + ".npy")
        np.save(valid[name], array)
    models = {}
    for name, text in MODELS.items():
        models[name] = os.path.join(work, name + ".mlir")
        with open(models[name], "w") as f:
            f.write(text.lstrip())

    npy = npy_seeds()
    pbs = pb_seeds()
    node_tests = "/usr/share/libonnx-testdata/data/node"
    for test in ["test_scatternd", "test_gathernd_example_int32_batch_dim1",
                 "test_scatter_elements_with_negative_indices"]:
        data_set = os.path.join(node_tests, test, "test_data_set_0")
        for name in sorted(os.listdir(data_set)):
            with open(os.path.join(data_set, name), "rb") as f:
                pbs.append(onnx.TensorProto.FromString(f.read()))

    mutants = []
    for n in range(args.files):
        _, array, version = rng.choice(npy)
        path = os.path.join(work, "m%05d.npy" % n)
        with open(path, "wb") as f:
            f.write(mutate_npy(rng, array, version[0]))
        mutants.append(path)
        path = os.path.join(work, "m%05d.pb" % n)
        with open(path, "wb") as f:
            f.write(mutate_pb(rng, rng.choice(pbs)))
        mutants.append(path)

    for n, path in enumerate(mutants):
        converted = os.path.join(work, "converted" + rng.choice([".npy", ".pb"]))
        runner.run("print", ["nd-tensor-tool", "print", path], [path])
        runner.run("convert", ["nd-tensor-tool", "convert", path, converted],
                   [path])
        runner.run("compare", ["nd-tensor-tool", "compare", path, path],
                   [path])
        model = rng.choice(sorted(models))
        if model.startswith("identity"):
            inputs = [None]
        elif model == "gather_elements":
            inputs = [valid["data"], valid["indices_el"]]
        else:
            inputs = [valid["data"], valid["indices_nd"], valid["updates"]]
        slot = rng.randrange(len(inputs))
        # Half of the runs get the mutant, half a well-formed file with odd
        # shapes and values, which gets past the readers to the JIT.
        if rng.random() < 0.5:
            inputs[slot] = path
        else:
            semantic = os.path.join(work, "s%05d.npy" % n)
            with open(semantic, "wb") as f:
                f.write(semantic_input(rng, *SLOTS[(model, slot)]))
            inputs[slot] = semantic
        out_dir = os.path.join(work, "out")
        runner.run("nd-run " + model,
                   ["nd-run", models[model]] + inputs +
                   ["--output-dir", out_dir, "--pb"],
                   [models[model]] + inputs)
        if (n + 1) % 100 == 0:
            print("%d of %d files, %d findings" % (n + 1, len(mutants),
                                                   runner.findings),
                  flush=True)

    total = sum(runner.counts.values())
    print("%d runs on %d mutated files (%d .npy, %d .pb)" %
          (total, len(mutants), args.files, args.files))
    for (label, outcome), count in sorted(runner.counts.items()):
        print("  %-28s %-9s %5d" % (label, outcome, count))
    print("findings: %d%s" % (runner.findings,
                              " (in %s/findings)" % args.out
                              if runner.findings else ""))
    return 1 if runner.findings else 0


if __name__ == "__main__":
    sys.exit(main())
