"""Random test cases of the nd ops, their MLIR form, and their expected value.

A Case is one op with concrete operands and attributes. random_case() draws
one (every op, attribute and mode, static shapes including zero-size dims,
negative and out-of-range indices); random_shaped_case() draws one of a
kind of SHAPES: "static", "empty" (a static 0 dim, and a gather's result
type may be less static than its operands) or "dynamic-empty" (a dim that
is 0 at run time is dynamic in the function's types, others may be too).
Case.to_mlir() writes it as a function
whose operands are constants (or arguments, for a run on inputs);
Case.expected() asks the reference (nd_reference.py) for the result, or the
IndexOutOfRange it raises; parse_constants() reads the constants nd-opt
prints, so that a script can compare nd's result with the reference's.
"""

import collections
import re

import numpy as np

import nd_reference as ref

MLIR_ELEMENT_TYPES = {
    "bool": "i1", "int8": "i8", "int16": "i16", "int32": "i32",
    "int64": "i64", "uint8": "ui8", "uint16": "ui16", "uint32": "ui32",
    "uint64": "ui64", "float16": "f16", "float32": "f32", "float64": "f64",
    "complex64": "complex<f32>", "complex128": "complex<f64>",
}
DATA_DTYPES = list(MLIR_ELEMENT_TYPES)
INDEX_TYPES = {"i32": np.int32, "i64": np.int64, "index": np.int64}
OPS = ("scatter_nd", "gather_nd", "scatter_elements", "gather_elements",
       "gather", "tensor_scatter")
SHAPES = ("static", "empty", "dynamic-empty")
# The operand whose type a scatter's result has.
SCATTER_DATA = {"scatter_nd": "data", "scatter_elements": "data",
                "tensor_scatter": "past_cache"}


def tensor_type(shape, element, dynamic=()):
    """`tensor<...>` of `shape`, with the dims in `dynamic` as `?`."""
    dims = "".join("?x" if i in dynamic else f"{d}x"
                   for i, d in enumerate(shape))
    return f"tensor<{dims}{element}>"


def dense_literal(array):
    """`dense<...>` of `array`: exact (hex for floating-point data)."""
    array = np.asarray(array)
    if array.size == 0:
        return "dense<>"
    if array.dtype == np.bool_:
        body = str(array.tolist()).replace("True", "true").replace(
            "False", "false")
        return f"dense<{body}>"
    if np.issubdtype(array.dtype, np.integer):
        return f"dense<{array.tolist()}>"
    little = array.astype(array.dtype.newbyteorder("<"))
    return f'dense<"0x{little.tobytes().hex().upper()}">'


class Case:
    """One op: its kind, named operands (with their MLIR types) and attrs."""

    def __init__(self, op, operands, attrs, result_shape, dynamic=None,
                 result_dynamic=()):
        self.op = op
        # [(name, array, mlir element type)]; None arrays are absent operands.
        self.operands = operands
        self.attrs = attrs
        self.result_shape = tuple(result_shape)
        # {operand name: dims written `?` in its type}, and the result's.
        self.dynamic = dict(dynamic or {})
        self.result_dynamic = frozenset(result_dynamic)

    def zero_size(self):
        """Whether an operand or the result has no element."""
        return 0 in self.result_shape or any(
            array is not None and array.size == 0
            for _, array, _ in self.operands)

    def array(self, name):
        for operand, array, _ in self.operands:
            if operand == name:
                return array
        raise KeyError(name)

    @property
    def element_dtype(self):
        return self.operands[0][1].dtype

    def expected(self):
        """The reference's result, or the IndexOutOfRange it raises."""
        a = self.attrs
        try:
            if self.op == "scatter_nd":
                return ref.scatter_nd(self.array("data"), self.array("indices"),
                                      self.array("updates"), a["reduction"],
                                      a["oob"])
            if self.op == "gather_nd":
                return ref.gather_nd(self.array("data"), self.array("indices"),
                                     a["batch_dims"], a["oob"])
            if self.op == "scatter_elements":
                return ref.scatter_elements(
                    self.array("data"), self.array("indices"),
                    self.array("updates"), a["axis"], a["reduction"],
                    a["use_init_val"], a["oob"])
            if self.op == "gather_elements":
                return ref.gather_elements(self.array("data"),
                                           self.array("indices"), a["axis"],
                                           a["oob"])
            if self.op == "gather":
                return ref.gather(self.array("data"), self.array("indices"),
                                  a["axis"], a["batch_dims"], a["oob"])
            return ref.tensor_scatter(self.array("past_cache"),
                                      self.array("update"),
                                      self.array("write_indices"), a["axis"],
                                      a["mode"], a["oob"])
        except ref.IndexOutOfRange as error:
            return error

    def _types(self):
        return [tensor_type(array.shape, element, self.dynamic.get(name, ()))
                for name, array, element in self.operands
                if array is not None]

    def _properties(self):
        a = self.attrs
        props = [f"oob = #nd.oob<{a['oob']}>"]
        if "reduction" in a:
            props.append(f"reduction = #nd.reduction<{a['reduction']}>")
        if "use_init_val" in a:
            props.append(f"use_init_val = {str(a['use_init_val']).lower()}")
        if "axis" in a:
            props.append(f"axis = {a['axis']} : i64")
        if "batch_dims" in a:
            props.append(f"batch_dims = {a['batch_dims']} : i64")
        if "mode" in a:
            props.append(f"mode = #nd.tensor_scatter_mode<{a['mode']}>")
        return ", ".join(props)

    def result_type(self):
        element = MLIR_ELEMENT_TYPES[self.element_dtype.name]
        return tensor_type(self.result_shape, element, self.result_dynamic)

    def to_mlir(self, name, constants=True):
        """`func.func @name` computing the op: on constant operands, or on
        arguments (in operand order) when `constants` is false."""
        present = [(n, a, e) for n, a, e in self.operands if a is not None]
        types = self._types()
        result = self.result_type()
        lines = []
        if constants:
            lines.append(f"func.func @{name}() -> {result} {{")
            for (operand, array, _), type_ in zip(present, types):
                lines.append(f"  %{operand} = arith.constant "
                             f"{dense_literal(array)} : {type_}")
        else:
            args = ", ".join(f"%{operand}: {type_}"
                             for (operand, _, _), type_ in zip(present, types))
            lines.append(f"func.func @{name}({args}) -> {result} {{")
        values = ", ".join(f"%{operand}" for operand, _, _ in present)
        lines.append(f'  %r = "nd.{self.op}"({values}) <{{{self._properties()}}}>'
                     f' : ({", ".join(types)}) -> {result}')
        lines.append(f"  return %r : {result}")
        lines.append("}")
        return "\n".join(lines)

    def write_run_files(self, directory):
        """Writes the case for nd-run: `case.mlir` (a function @main on the
        operands as arguments) and `input_N.npy` for its N-th argument.
        Returns the paths: (model, [inputs])."""
        import os
        # nd-run reads no `index` tensors: such indices are passed as i64.
        runnable = Case(self.op, [(n, a, "i64" if e == "index" else e)
                                  for n, a, e in self.operands],
                        self.attrs, self.result_shape, self.dynamic,
                        self.result_dynamic)
        model = os.path.join(directory, "case.mlir")
        with open(model, "w") as f:
            f.write(runnable.to_mlir("main", constants=False) + "\n")
        inputs = []
        for i, (_, array, _) in enumerate(
                o for o in self.operands if o[1] is not None):
            path = os.path.join(directory, f"input_{i}.npy")
            np.save(path, array)
            inputs.append(path)
        return model, inputs

    def __repr__(self):
        shapes = {n: (None if a is None else (a.shape, a.dtype.name))
                  for n, a, _ in self.operands}
        types = ""
        if self.dynamic or self.result_dynamic:
            types = f", types {self._types()} -> {self.result_type()}"
        return f"Case({self.op}, {shapes}, {self.attrs}{types})"


# ---------------------------------------------------------------------------
# Random cases
# ---------------------------------------------------------------------------

def _random_shape(rng, rank, zero_chance=0.08, low=1, high=4):
    return tuple(0 if rng.random() < zero_chance else int(rng.integers(low, high + 1))
                 for _ in range(rank))


def _random_values(rng, shape, dtype):
    """Values of `dtype` that exercise wrapping, signs, NaN and signed zeros,
    while keeping products of floats finite."""
    dtype = np.dtype(dtype)
    shape = tuple(shape)
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) < 0.5)
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        if rng.random() < 0.3:
            return np.asarray(rng.integers(info.min, info.max, size=shape,
                                           endpoint=True, dtype=dtype))
        low = 0 if info.min == 0 else -9
        return np.asarray(rng.integers(low, 10, size=shape)).astype(dtype)
    if np.issubdtype(dtype, np.complexfloating):
        part = np.float32 if dtype == np.complex64 else np.float64
        real = np.asarray(rng.integers(-16, 17, size=shape) / 4).astype(part)
        imag = np.asarray(rng.integers(-16, 17, size=shape) / 4).astype(part)
        return np.asarray(real + 1j * imag).astype(dtype)
    values = np.asarray(rng.integers(-40, 41, size=shape) / 8).astype(dtype)
    special = np.asarray(rng.random(shape))
    values[special < 0.04] = np.nan
    values[(special >= 0.04) & (special < 0.08)] = -0.0
    return values


def _random_indices(rng, shape, sizes, oob):
    """Index values for dims of `sizes` (one per element, broadcast along the
    last axis when `sizes` is a list per component)."""
    values = np.zeros(shape, dtype=np.int64)
    for position in np.ndindex(*shape):
        size = sizes(position)
        if oob == "error":
            values[position] = rng.integers(-size, size) if size else 0
        else:
            values[position] = rng.integers(-size - 3, size + 3)
    return values


def _index_operand(rng, values):
    index_type = str(rng.choice(list(INDEX_TYPES)))
    return values.astype(INDEX_TYPES[index_type]), index_type


def _reduction(rng, op, dtype):
    allowed = ["none", "add", "mul"]
    if not np.issubdtype(dtype, np.complexfloating):
        allowed += ["max", "min"]
    if op == "scatter_nd":
        allowed.append("sub")
    if op == "scatter_elements" and dtype != np.bool_ and \
            not np.issubdtype(dtype, np.complexfloating):
        allowed.append("mean")
    return str(rng.choice(allowed))


def random_case(rng, op=None, oob=None, dtype=None, zero_chance=0.08,
                empty_axis=False):
    """A random valid case of `op` (random if None) under `oob`, each dim 0
    with probability `zero_chance`. Under "error" the indexed dims are not 0
    (every index value would be out of range) unless `empty_axis`."""
    op = op or str(rng.choice(OPS))
    oob = oob or str(rng.choice(ref.OOB_MODES))
    dtype = np.dtype(dtype or str(rng.choice(DATA_DTYPES)))
    element = MLIR_ELEMENT_TYPES[dtype.name]
    low = 1 if oob == "error" and not empty_axis else 0

    if op in ("scatter_nd", "gather_nd"):
        r = int(rng.integers(1, 4))
        b = int(rng.integers(0, r)) if op == "gather_nd" else 0
        k = int(rng.integers(1, r - b + 1))
        q = int(rng.integers(max(1, b + 1), 4))
        data_shape = list(_random_shape(rng, r, zero_chance))
        for j in range(b, b + k):
            data_shape[j] = max(data_shape[j], low)
        tuple_shape = list(_random_shape(rng, q - 1, zero_chance))
        tuple_shape[:b] = data_shape[:b]
        indices_shape = tuple(tuple_shape) + (k,)
        values = _random_indices(
            rng, indices_shape, lambda p: data_shape[b + p[-1]], oob)
        indices, index_type = _index_operand(rng, values)
        data = _random_values(rng, tuple(data_shape), dtype)
        slices = tuple(tuple_shape) + tuple(data_shape[b + k:])
        if op == "gather_nd":
            return Case(op, [("data", data, element),
                             ("indices", indices, index_type)],
                        {"batch_dims": b, "oob": oob}, slices)
        updates = _random_values(rng, slices, dtype)
        return Case(op, [("data", data, element),
                         ("indices", indices, index_type),
                         ("updates", updates, element)],
                    {"reduction": _reduction(rng, op, dtype), "oob": oob},
                    data.shape)

    if op in ("scatter_elements", "gather_elements"):
        r = int(rng.integers(1, 4))
        axis = int(rng.integers(-r, r))
        normalized = axis % r
        data_shape = list(_random_shape(rng, r, zero_chance))
        data_shape[normalized] = max(data_shape[normalized], low)
        indices_shape = tuple(
            int(rng.integers(0, data_shape[d] + 1)) if d != normalized
            else int(rng.integers(0, 5)) for d in range(r))
        values = _random_indices(rng, indices_shape,
                                 lambda p: data_shape[normalized], oob)
        indices, index_type = _index_operand(rng, values)
        data = _random_values(rng, tuple(data_shape), dtype)
        if op == "gather_elements":
            return Case(op, [("data", data, element),
                             ("indices", indices, index_type)],
                        {"axis": axis, "oob": oob}, indices_shape)
        updates = _random_values(rng, indices_shape, dtype)
        return Case(op, [("data", data, element),
                         ("indices", indices, index_type),
                         ("updates", updates, element)],
                    {"axis": axis, "reduction": _reduction(rng, op, dtype),
                     "use_init_val": bool(rng.random() < 0.7), "oob": oob},
                    data.shape)

    if op == "gather":
        r = int(rng.integers(1, 4))
        q = int(rng.integers(0, 3))
        axis = int(rng.integers(-r, r))
        normalized = axis % r
        b = int(rng.integers(0, min(q, normalized) + 1))
        data_shape = list(_random_shape(rng, r, zero_chance))
        data_shape[normalized] = max(data_shape[normalized], low)
        indices_shape = tuple(data_shape[:b]) + \
            _random_shape(rng, q - b, zero_chance)
        values = _random_indices(rng, indices_shape,
                                 lambda p: data_shape[normalized], oob)
        indices, index_type = _index_operand(rng, values)
        data = _random_values(rng, tuple(data_shape), dtype)
        result = tuple(data_shape[:normalized]) + indices_shape[b:] + \
            tuple(data_shape[normalized + 1:])
        return Case(op, [("data", data, element),
                         ("indices", indices, index_type)],
                    {"axis": axis, "batch_dims": b, "oob": oob}, result)

    # tensor_scatter
    r = int(rng.integers(2, 5))
    normalized = int(rng.integers(1, r))
    axis = normalized - r if rng.random() < 0.5 else normalized
    mode = str(rng.choice(["linear", "circular"]))
    cache_shape = list(_random_shape(rng, r, zero_chance))
    cache_shape[0] = max(cache_shape[0], 1)
    max_seq = int(rng.integers(0, 6))
    cache_shape[normalized] = max_seq
    seq_len = int(rng.integers(0, max_seq + 1))
    update_shape = list(cache_shape)
    update_shape[normalized] = seq_len
    operands = [("past_cache", _random_values(rng, tuple(cache_shape), dtype),
                 element),
                ("update", _random_values(rng, tuple(update_shape), dtype),
                 element)]
    if rng.random() < 0.75:
        batch = cache_shape[0]
        if oob == "error":
            high = max_seq - seq_len if mode == "linear" else 2 * max_seq + 1
            writes = rng.integers(0, high + 1, size=batch)
        else:
            writes = rng.integers(-3, max_seq + 3, size=batch)
        indices, index_type = _index_operand(rng, writes.astype(np.int64))
        operands.append(("write_indices", indices, index_type))
    else:
        operands.append(("write_indices", None, None))
    return Case(op, operands, {"axis": axis, "mode": mode, "oob": oob},
                cache_shape)


def random_shaped_case(rng, op, shapes, oob=None):
    """A random case of `op` of the kind `shapes` (one of SHAPES): "static"
    is random_case's; "empty" has a dim of size 0 in an operand or the
    result, static, where a gather's result type may be less static than
    what its operands give; "dynamic-empty" has such a dim dynamic in the
    function's types (0 only at run time), other dims dynamic at random and
    the result type as dynamic as its operands' (a scatter's) or at random
    (a gather's)."""
    if shapes == "static":
        return random_case(rng, op, oob)
    while True:
        case = random_case(rng, op, oob, zero_chance=0.3,
                           empty_axis=rng.random() < 0.25)
        if case.zero_size():
            break
    if shapes == "dynamic-empty":
        zeros = [(name, d) for name, array, _ in case.operands
                 if array is not None
                 for d, size in enumerate(array.shape) if size == 0]
        # An empty result of a gather on non-empty operands (indices with a
        # 0 dim make it empty, and are among the operands) has nothing to
        # make dynamic but the result.
        forced = zeros[int(rng.integers(0, len(zeros)))] if zeros else None
        for name, array, _ in case.operands:
            if array is None:
                continue
            dims = {d for d in range(array.ndim) if rng.random() < 0.3}
            if forced and forced[0] == name:
                dims.add(forced[1])
            if dims:
                case.dynamic[name] = frozenset(dims)
    data = SCATTER_DATA.get(case.op)
    if data:
        case.result_dynamic = case.dynamic.get(data, frozenset())
    else:
        chance = 0.5 if shapes == "dynamic-empty" else 0.3
        case.result_dynamic = frozenset(
            d for d in range(len(case.result_shape)) if rng.random() < chance)
        if not case.dynamic and not case.result_dynamic and \
                0 in case.result_shape:
            case.result_dynamic = frozenset([case.result_shape.index(0)])
    return case


# ---------------------------------------------------------------------------
# nd-opt's output
# ---------------------------------------------------------------------------

_FUNCTION = re.compile(r"func\.func @(\w+)\(")
_CONSTANT = re.compile(r"(%[\w.]+) = arith\.constant (dense<[^>]*>) : ")
_RETURN = re.compile(r"return (%[\w.]+) :")


def _decode(literal, shape, dtype):
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    body = literal[len("dense<"):-1]
    if body == "":
        return np.zeros(shape, dtype)
    if body in ("true", "false"):
        return np.full(shape, body == "true")
    if body.startswith('"0x'):
        raw = bytes.fromhex(body[3:-1])
        if dtype == np.bool_:
            bits = np.unpackbits(np.frombuffer(raw, np.uint8),
                                 bitorder="little").astype(bool)
            if bits.size < count:
                bits = np.full(count, bits[0])
            return bits[:count].reshape(shape)
        values = np.frombuffer(raw, dtype.newbyteorder("<")).astype(dtype)
        if values.size == 1 and count != 1:
            values = np.full(count, values[0], dtype)
        return values.reshape(shape)
    # Splats and small constants print as text: scalars in row-major order,
    # floats as decimals or as hex bit patterns, complex numbers as pairs.
    part = dtype
    if np.issubdtype(dtype, np.complexfloating):
        part = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
    tokens = re.findall(r"0x[0-9A-Fa-f]+|true|false|[-+]?[0-9][0-9.]*(?:e[-+]?[0-9]+)?",
                        body)
    scalars = [_scalar(token, part) for token in tokens]
    if part is not dtype:
        scalars = [complex(re_, im) for re_, im in zip(scalars[::2], scalars[1::2])]
    values = np.array(scalars, dtype=dtype)
    if values.size == 1 and count != 1:
        values = np.full(count, values[0], dtype)
    return values.reshape(shape)


def _scalar(token, dtype):
    """One scalar of a printed constant, in `dtype` (not complex)."""
    if dtype == np.bool_:
        return token == "true"
    if np.issubdtype(dtype, np.integer):
        return int(token, 0)
    if token.startswith("0x"):
        bits = np.array(int(token, 16), dtype=f"u{dtype.itemsize}")
        return bits.view(dtype)[()]
    return dtype.type(float(token))


def parse_constants(text, cases):
    """{function name: result array, or None where the result is not a
    constant} from nd-opt's printed module (with
    --mlir-print-elementsattrs-with-hex-if-larger=0)."""
    results = {}
    name = None
    constants = {}
    for line in text.splitlines():
        line = line.strip()
        match = _FUNCTION.search(line)
        if match:
            name, constants = match.group(1), {}
            continue
        match = _CONSTANT.match(line)
        if match:
            constants[match.group(1)] = match.group(2)
            continue
        match = _RETURN.match(line)
        if match and name in cases:
            case = cases[name]
            literal = constants.get(match.group(1))
            results[name] = None if literal is None else _decode(
                literal, case.result_shape, case.element_dtype)
    return results


def summarize(verb, cases, kind=None):
    """Prints how many cases (of `kind`, if given) of each op were checked."""
    per_op = collections.Counter(case.op for case in cases)
    kind = f" {kind}" if kind else ""
    print(f"{verb} {len(cases)}{kind} cases: " +
          ", ".join(f"{op} {n}" for op, n in sorted(per_op.items())))


def finish(failures):
    """Prints every failure and their count; the exit status."""
    for failure in failures:
        print("MISMATCH", failure)
    print(f"{len(failures)} mismatches")
    return 1 if failures else 0


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
