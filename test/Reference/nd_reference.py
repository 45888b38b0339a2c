"""An independent numpy reference of the nd ops.

Written from the ONNX and OpenVINO specifications (and docs/Rationale.md for
what they leave open), not from nd's code: each function follows the spec's
own description, loop by loop, so that it can serve as the oracle of
differential tests of nd (its folder today, its lowering once it handles
every op, attribute and mode).

Every function takes and returns numpy arrays and never modifies its
arguments. Element types: numpy's bool, int8..int64, uint8..uint64,
float16, float32, float64, complex64 and complex128 (numpy has no bfloat16).

Index values out of range raise IndexOutOfRange under oob="error" (the
default); oob="skip" drops the write (scatters) or reads zeros (gathers);
oob="clamp" clamps each component into [0, d-1] (an entry into a dim of size
0 behaves as under skip).
"""

import numpy as np

REDUCTIONS = ("none", "add", "mul", "max", "min", "sub", "mean")
OOB_MODES = ("error", "skip", "clamp")


class IndexOutOfRange(ValueError):
    """An index value outside [-d, d-1] under oob="error"."""

    def __init__(self, value, position, dim, size, operand="indices"):
        self.value = value
        self.position = tuple(position)
        self.dim = dim
        self.size = size
        self.operand = operand
        super().__init__(
            f"index {value} at position {list(self.position)} of operand "
            f"'{operand}' is out of range for dim {dim} (size {size})")


def _resolve(value, size, oob, position, dim):
    """The position index `value` addresses in a dim of `size`, or None."""
    value = int(value)
    if -size <= value < size:
        return value + size if value < 0 else value
    if oob == "error":
        raise IndexOutOfRange(value, position, dim, size)
    if oob == "skip" or size == 0:
        return None
    return 0 if value < 0 else size - 1


def _zero(dtype):
    return np.zeros((), dtype=dtype)[()]


# ---------------------------------------------------------------------------
# Element arithmetic (docs/Rationale.md, "Reductions, per element type")
# ---------------------------------------------------------------------------

def _ieee_max(a, b, maximum):
    """IEEE 754-2019 maximum / minimum: NaN propagates, -0 < +0."""
    if np.isnan(a) or np.isnan(b):
        return a if np.isnan(a) else b
    if a == b:
        # Equal values differ at most in the sign of a zero.
        if maximum:
            return a if not np.signbit(a) else b
        return a if np.signbit(a) else b
    return max(a, b) if maximum else min(a, b)


def combine(reduction, current, update):
    """f(current, update) of one element, in the element type."""
    dtype = np.asarray(current).dtype
    current = dtype.type(current)
    update = dtype.type(update)
    with np.errstate(over="ignore", invalid="ignore"):
        if reduction == "none":
            return update
        if dtype == np.bool_:
            # ONNX bool: add and max are or, mul and min are and; OpenVINO's
            # sub is xor.
            if reduction in ("add", "max"):
                return np.bool_(current or update)
            if reduction in ("mul", "min"):
                return np.bool_(current and update)
            if reduction == "sub":
                return np.bool_(current != update)
        elif reduction == "add":
            return dtype.type(current + update)
        elif reduction == "sub":
            return dtype.type(current - update)
        elif reduction == "mul":
            return dtype.type(current * update)
        elif reduction in ("max", "min"):
            if np.issubdtype(dtype, np.complexfloating):
                raise ValueError("max/min are not defined on complex numbers")
            if np.issubdtype(dtype, np.floating):
                return _ieee_max(current, update, reduction == "max")
            return max(current, update) if reduction == "max" else min(
                current, update)
    raise ValueError(f"reduction {reduction!r} is not defined on {dtype}")


def mean(values, dtype):
    """OpenVINO ScatterElementsUpdate-12's mean of `values` (in order).

    Integers: the exact sum, divided rounding towards negative infinity.
    Floats: the sum in the element type, in order, then one division.
    """
    dtype = np.dtype(dtype)
    if dtype == np.bool_ or np.issubdtype(dtype, np.complexfloating):
        raise ValueError(f"mean is not defined on {dtype}")
    if np.issubdtype(dtype, np.integer):
        total = sum(int(v) for v in values)
        return dtype.type(total // len(values))
    with np.errstate(over="ignore", invalid="ignore"):
        total = dtype.type(values[0])
        for value in values[1:]:
            total = dtype.type(total + dtype.type(value))
        return dtype.type(total / dtype.type(len(values)))


def _apply_writes(out, writes, updates, reduction, use_init_val=True):
    """Applies (target, source) element writes in order to `out` (flat).

    `updates` is flat; targets and sources are flat positions.
    """
    if reduction == "mean":
        groups = {}
        for target, source in writes:
            groups.setdefault(target, []).append(updates[source])
        for target, values in groups.items():
            if use_init_val:
                values = [out[target]] + values
            out[target] = mean(values, out.dtype)
        return out
    written = set()
    for target, source in writes:
        first = target not in written
        written.add(target)
        if reduction == "none" or (first and not use_init_val):
            out[target] = updates[source]
        else:
            out[target] = combine(reduction, out[target], updates[source])
    return out


def _flat(shape, position):
    return int(np.ravel_multi_index(tuple(position), shape)) if shape else 0


# ---------------------------------------------------------------------------
# ScatterND (ONNX 11-18, OpenVINO ScatterNDUpdate-3/15) and GatherND
# ---------------------------------------------------------------------------

def scatter_nd(data, indices, updates, reduction="none", oob="error"):
    """ONNX ScatterND / OpenVINO ScatterNDUpdate-15.

    output = copy(data); for each idx of indices.shape[:-1] in row-major
    order: output[indices[idx]] = f(output[indices[idx]], updates[idx]).
    """
    if reduction == "mean":
        raise ValueError("mean is not defined on scatter_nd")
    data = np.asarray(data)
    indices = np.asarray(indices)
    k = indices.shape[-1]
    slice_shape = data.shape[k:]
    expected = indices.shape[:-1] + slice_shape
    updates = np.asarray(updates, dtype=data.dtype)
    if updates.shape != expected:
        # OpenVINO: a single element for a 0-D expected shape.
        if expected == () and updates.size == 1:
            updates = updates.reshape(())
        else:
            raise ValueError(f"updates shape {updates.shape} != {expected}")
    out = data.copy()
    flat_out = out.reshape(-1)
    flat_updates = updates.reshape(-1)
    slice_size = int(np.prod(slice_shape, dtype=np.int64))
    writes = []
    for entry, idx in enumerate(np.ndindex(*indices.shape[:-1])):
        coords = []
        for j in range(k):
            p = _resolve(indices[idx + (j,)], data.shape[j], oob, idx + (j,), j)
            if p is None:
                break
            coords.append(p)
        else:
            base = _flat(data.shape, tuple(coords) + (0,) * len(slice_shape)) \
                if slice_size else 0
            writes += [(base + s, entry * slice_size + s)
                       for s in range(slice_size)]
    _apply_writes(flat_out, writes, flat_updates, reduction)
    return out


def gather_nd(data, indices, batch_dims=0, oob="error"):
    """ONNX GatherND / OpenVINO GatherND-8 (batch dims kept).

    output[n, i, s] = data[n, indices[n, i, :], s] for batch index n.
    """
    data = np.asarray(data)
    indices = np.asarray(indices)
    b = batch_dims
    k = indices.shape[-1]
    if data.shape[:b] != indices.shape[:b]:
        raise ValueError("batch dims differ")
    slice_shape = data.shape[b + k:]
    out = np.zeros(indices.shape[:-1] + slice_shape, dtype=data.dtype)
    for idx in np.ndindex(*indices.shape[:-1]):
        coords = list(idx[:b])
        for j in range(k):
            p = _resolve(indices[idx + (j,)], data.shape[b + j], oob,
                         idx + (j,), b + j)
            if p is None:
                break
            coords.append(p)
        else:
            out[idx] = data[tuple(coords)]
    return out


# ---------------------------------------------------------------------------
# ScatterElements (ONNX, OpenVINO ScatterElementsUpdate-3/12), GatherElements
# ---------------------------------------------------------------------------

def _element_targets(data_shape, indices, axis, oob):
    """(p, the data position p addresses) for every position p of indices in
    row-major order: p with its axis coordinate replaced by indices[p]
    (None where skipped)."""
    axis = axis + len(data_shape) if axis < 0 else axis
    for position in np.ndindex(*indices.shape):
        p = _resolve(indices[position], data_shape[axis], oob, position, axis)
        if p is None:
            yield position, None
            continue
        target = list(position)
        target[axis] = p
        yield position, tuple(target)


def scatter_elements(data, indices, updates, axis=0, reduction="none",
                     use_init_val=True, oob="error"):
    """ONNX ScatterElements / OpenVINO ScatterElementsUpdate-12.

    For each position p of indices (row-major), the element of data at p with
    its axis coordinate replaced by indices[p] is combined with updates[p].
    """
    if reduction == "sub":
        raise ValueError("sub is not defined on scatter_elements")
    data = np.asarray(data)
    indices = np.asarray(indices)
    updates = np.asarray(updates, dtype=data.dtype)
    writes = [(_flat(data.shape, target), _flat(indices.shape, position))
              for position, target in _element_targets(data.shape, indices,
                                                       axis, oob)
              if target is not None]
    out = data.copy()
    _apply_writes(out.reshape(-1), writes, updates.reshape(-1), reduction,
                  use_init_val)
    return out


def gather_elements(data, indices, axis=0, oob="error"):
    """ONNX GatherElements: output[p] = data[p with axis coord indices[p]]."""
    data = np.asarray(data)
    indices = np.asarray(indices)
    out = np.zeros(indices.shape, dtype=data.dtype)
    for position, source in _element_targets(data.shape, indices, axis, oob):
        if source is not None:
            out[position] = data[source]
    return out


# ---------------------------------------------------------------------------
# Gather (ONNX 1/11/13, OpenVINO Gather-1/7/8)
# ---------------------------------------------------------------------------

def gather(data, indices, axis=0, batch_dims=0, oob="error"):
    """ONNX Gather / OpenVINO Gather-8.

    output[p_0..p_{a-1}, i_b..i_{M-1}, s..] =
        data[p_0..p_{a-1}, indices[p_0..p_{b-1}, i_b..i_{M-1}], s..]
    """
    data = np.asarray(data)
    indices = np.asarray(indices)
    axis = axis + data.ndim if axis < 0 else axis
    b = batch_dims
    if data.shape[:b] != indices.shape[:b]:
        raise ValueError("batch dims differ")
    # Every index value is resolved (and, under "error", checked), whether or
    # not an element is read through it ("It is an error if any of the index
    # values are out of bounds").
    resolved = {position: _resolve(indices[position], data.shape[axis], oob,
                                   position, axis)
                for position in np.ndindex(*indices.shape)}
    outer_shape = data.shape[:axis]
    out = np.zeros(outer_shape + indices.shape[b:] + data.shape[axis + 1:],
                   dtype=data.dtype)
    for outer in np.ndindex(*outer_shape):
        for inner in np.ndindex(*indices.shape[b:]):
            p = resolved[outer[:b] + inner]
            if p is None:
                continue
            out[outer + inner] = data[outer + (p,)]
    return out


# ---------------------------------------------------------------------------
# TensorScatter (ONNX 24)
# ---------------------------------------------------------------------------

def tensor_scatter(past_cache, update, write_indices=None, axis=-2,
                   mode="linear", oob="error"):
    """ONNX TensorScatter-24, with nd's rules for write indices.

    for prefix_idx in ndindex(past_cache.shape[:axis]):
        for s in range(sequence_length):
            pos = write_indices[prefix_idx[0]] + s   (mod max_seq if circular)
            present[prefix_idx + (pos,)] = update[prefix_idx + (s,)]

    Circular mode wraps the position along `axis` only. A write index w is
    in range when w >= 0 and, in linear mode, w + sequence_length <=
    max_sequence_length; under oob="skip" a batch entry with one out of
    range writes nothing, under oob="clamp" w is clamped into that range.
    """
    past_cache = np.asarray(past_cache)
    update = np.asarray(update, dtype=past_cache.dtype)
    axis = axis + past_cache.ndim if axis < 0 else axis
    if axis == 0:
        raise ValueError("axis must not be the batch axis")
    max_seq = past_cache.shape[axis]
    seq_len = update.shape[axis]
    if write_indices is None:
        write_indices = np.zeros(past_cache.shape[0], dtype=np.int64)
    write_indices = np.asarray(write_indices)
    # Every write index is checked, whether or not the batch entry writes
    # anything; None is a skipped entry.
    starts = []
    for batch, w in enumerate(int(w) for w in write_indices):
        if w >= 0 and (mode == "circular" or w + seq_len <= max_seq):
            starts.append(w)
        elif oob == "error":
            raise IndexOutOfRange(w, (batch,), axis, max_seq, "write_indices")
        elif oob == "skip":
            starts.append(None)
        else:
            starts.append(0 if w < 0 else max_seq - seq_len)
    present = past_cache.copy()
    for prefix in np.ndindex(*past_cache.shape[:axis]):
        w = starts[prefix[0]]
        if w is None:
            continue
        for s in range(seq_len):
            pos = w + s
            if mode == "circular":
                pos %= max_seq
            present[prefix + (pos,)] = update[prefix + (s,)]
    return present
