"""Calls: element types, dynamic shapes, strided inputs, errors and the calls
after them, donation, out=, threads, two modules at once."""

import threading

import numpy as np
import pytest

import nd
from conftest import reference

GATHER = """
func.func @main(%data: tensor<?x?x{t}>, %ids: tensor<?xi64>)
    -> tensor<?x?x{t}> {{
  %r = nd.gather %data[%ids]
      : tensor<?x?x{t}>, tensor<?xi64> -> tensor<?x?x{t}>
  return %r : tensor<?x?x{t}>
}}
"""

SCATTER_ELEMENTS = """
func.func @main(%data: tensor<?x{t}>, %ids: tensor<?xi32>, %u: tensor<?x{t}>)
    -> tensor<?x{t}> {{
  %r = nd.scatter_elements %data[%ids], %u
      : tensor<?x{t}>, tensor<?xi32>, tensor<?x{t}>
  return %r : tensor<?x{t}>
}}
"""

# A KV cache updated in place (donated) and rows gathered from it.
KV = """
func.func @main(%cache: tensor<4x3xf32>, %rows: tensor<?x1xi64>,
                %values: tensor<?x3xf32>, %ids: tensor<?xi64>)
    -> (tensor<4x3xf32>, tensor<?x3xf32>) {
  %0 = nd.scatter_nd %cache[%rows], %values
      : tensor<4x3xf32>, tensor<?x1xi64>, tensor<?x3xf32>
  %1 = nd.gather %0[%ids] : tensor<4x3xf32>, tensor<?xi64> -> tensor<?x3xf32>
  return %0, %1 : tensor<4x3xf32>, tensor<?x3xf32>
}
"""

# (MLIR element type, numpy dtype)
DTYPES = [("f16", np.float16), ("i1", np.bool_), ("i8", np.int8),
          ("ui8", np.uint8), ("i16", np.int16), ("ui32", np.uint32),
          ("i64", np.int64), ("f32", np.float32), ("f64", np.float64),
          ("complex<f32>", np.complex64), ("complex<f64>", np.complex128)]


def _values(rng, dtype, shape):
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(np.bool_)
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.standard_normal(shape) +
                1j * rng.standard_normal(shape)).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    return rng.integers(0, 100, shape).astype(dtype)


@pytest.mark.parametrize("mlir_type,dtype", DTYPES,
                         ids=[name for name, _ in DTYPES])
def test_dtypes(build, rng, mlir_type, dtype):
    """Each element type in and out, a gather and a scatter, through numpy's
    own dtype (f16 and bool included)."""
    safe = mlir_type.replace("<", "_").replace(">", "")
    gather = build(GATHER.format(t=mlir_type), entry=f"gather_{safe}")
    assert gather.inputs[0].numpy_dtype == np.dtype(dtype)
    data = _values(rng, dtype, (5, 3))
    ids = np.array([4, 0, -1, 2], np.int64)
    got = gather(data, ids)
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, data[ids])

    scatter = build(SCATTER_ELEMENTS.format(t=mlir_type),
                    entry=f"scatter_{safe}")
    data = _values(rng, dtype, (6,))
    updates = _values(rng, dtype, (3,))
    ids = np.array([5, 0, -2], np.int32)
    got = scatter(data, ids, updates)
    np.testing.assert_array_equal(
        got, reference.scatter_elements(data, ids, updates))


def test_dynamic_shapes(build, rng):
    """One library, many shapes: every dynamic dim comes from the call."""
    module = build(GATHER.format(t="f32"), entry="gather_f32")
    assert module.inputs[0].dims == (None, None)
    for rows, cols, count in [(1, 1, 1), (7, 3, 10), (100, 17, 0),
                              (3, 0, 2), (50, 64, 1000)]:
        data = rng.standard_normal((rows, cols)).astype(np.float32)
        ids = rng.integers(-rows, rows, count).astype(np.int64)
        got = module(data, ids)
        assert got.shape == (count, cols)
        np.testing.assert_array_equal(got, reference.gather(data, ids))


def test_strided_inputs(build, rng):
    """Views with any strides (transposed, reversed, every other element,
    broadcast) are read as they are."""
    module = build(GATHER.format(t="f32"), entry="gather_f32")
    base = rng.standard_normal((8, 6)).astype(np.float32)
    ids = np.array([0, 2, -1], np.int64)
    for view in (base.T, base[::-1], base[::2, 1::2], base[:, ::-3],
                 np.broadcast_to(base[0], (4, 6))):
        assert not view.flags.c_contiguous
        np.testing.assert_array_equal(module(view, ids), view[ids])
    # Indices as a strided view too, and as a Python list.
    np.testing.assert_array_equal(
        module(base, np.arange(8, dtype=np.int64)[::-2]), base[7::-2])
    np.testing.assert_array_equal(module(base, [1, -1]), base[[1, -1]])


def test_bad_index_and_the_calls_after(build):
    """A bad index raises nd.Error with nd's message (the op, its location,
    the operand, the value and the dim); the call changes nothing; the next
    call works."""
    module = build(KV, entry="kv", donate=[0])
    cache = np.arange(12, dtype=np.float32).reshape(4, 3)
    before = cache.copy()
    with pytest.raises(nd.Error) as caught:
        module(cache, np.array([[4]]), np.ones((1, 3), np.float32),
               np.array([0]))
    error = caught.value
    assert error.status == "check failed" and error.code == 2
    assert str(error) == error.message == (
        "module.mlir:5:8: nd.scatter_nd: index 4 in operand 'indices' is out "
        "of range for dim 0 of operand 'data' (size 4)")
    np.testing.assert_array_equal(cache, before)

    with pytest.raises(nd.Error, match=r"module.mlir:7:8: nd.gather: index -5 "
                       r"in operand 'indices' is out of range for dim 0 of "
                       r"operand 'data' \(size 4\)"):
        module(cache, np.zeros((0, 1), np.int64), np.zeros((0, 3), np.float32),
               np.array([1, -5]))

    updated, rows = module(cache, np.array([[2]]), np.full((1, 3), 7,
                                                           np.float32),
                           np.array([2, 0]))
    assert updated is cache
    expected = before.copy()
    expected[2] = 7
    np.testing.assert_array_equal(cache, expected)
    np.testing.assert_array_equal(rows, expected[[2, 0]])


def test_errors_before_the_call(build):
    """What does not fit the signature is a Python exception before the call
    (nd.Error and TypeError or ValueError), naming the input as nd would."""
    module = build(KV, entry="kv", donate=[0])
    cache = np.zeros((4, 3), np.float32)
    rows = np.zeros((1, 1), np.int64)
    values = np.zeros((1, 3), np.float32)
    ids = np.zeros(1, np.int64)
    with pytest.raises(TypeError, match=r"input #1: expected element type "
                       r"i64, got f32"):
        module(cache, rows.astype(np.float32), values, ids)
    # A donated input is updated in place: no conversion.
    with pytest.raises(nd.DTypeError, match=r"input #0: expected element "
                       r"type f32, got f64$"):
        module(cache.astype(np.float64), rows, values, ids)
    with pytest.raises(ValueError, match=r"input #3: expected rank 1, got 2"):
        module(cache, rows, values, ids[None])
    with pytest.raises(nd.ArgumentError, match=r"input #0: dim 0 must be 4, "
                       r"got 5 \(shape \[5, 3\]\)"):
        module(np.zeros((5, 3), np.float32), rows, values, ids)
    with pytest.raises(nd.Error, match=r"kv takes 4 input\(s\); missing: "
                       r"input #3"):
        module(cache, rows, values)
    with pytest.raises(nd.Error, match=r"kv takes 4 input\(s\), got 5"):
        module(cache, rows, values, ids, ids)
    with pytest.raises(ValueError, match="threads= must be 0"):
        module(cache, rows, values, ids, threads=-1)
    # A shape mismatch between dynamic dims is nd's run-time check.
    with pytest.raises(nd.Error) as caught:
        module(cache, np.zeros((2, 1), np.int64), values, ids)
    assert caught.value.status == "check failed"
    assert "nd.scatter_nd" in caught.value.message
    # And after all that, a good call.
    module(cache, rows, values, ids)


def test_shape_before_conversion(build):
    """An input of another element type is converted only once its shape
    fits (a conversion copies it): a broadcast array of 2^59 elements of the
    wrong rank is refused by its rank, and one of the right shape that
    memory cannot hold converted is refused by name, not a MemoryError."""
    module = build(KV, entry="kv", donate=[0])
    cache = np.zeros((4, 3), np.float32)
    rows = np.zeros((1, 1), np.int64)
    ids = np.zeros(1, np.int64)
    flat = np.broadcast_to(np.int64(0), (2 ** 59,))
    with pytest.raises(nd.ArgumentError, match=r"input #2: expected rank 2, "
                       r"got 1"):
        module(cache, rows, flat, ids)
    wide = np.broadcast_to(np.int64(0), (2 ** 58, 3))
    with pytest.raises(nd.ArgumentError, match=r"input #2: converting int64 "
                       r"to f32 needs a copy of 864691128455135232 elements, "
                       r"which cannot be allocated"):
        module(cache, rows, wide, ids)
    module(cache, rows, np.zeros((1, 3), np.float32), ids)


def test_donation(build):
    """A donated input is updated in place, call after call, and is the
    output that the signature says is its buffer."""
    module = build(KV, entry="kv", donate=[0])
    assert module.donated == (0,)
    assert module.inputs[0].donated and module.outputs[0].alias == 0
    assert module.outputs[1].alias is None
    cache = np.zeros((4, 3), np.float32)
    expected = cache.copy()
    for step in range(4):
        token = np.full((1, 3), step + 1, np.float32)
        out, gathered = module(cache, np.array([[step]]), token,
                               np.array([step]))
        expected[step] = step + 1
        assert out is cache
        np.testing.assert_array_equal(cache, expected)
        np.testing.assert_array_equal(gathered, token)

    # One position is a donation too.
    assert build(KV, entry="kv", donate=0).path == module.path

    # Not donated, the same model leaves its input alone.
    plain = build(KV, entry="kv")
    assert plain.donated == ()
    data = np.zeros((4, 3), np.float32)
    out, _ = plain(data, np.array([[1]]), np.ones((1, 3), np.float32),
                   np.array([1]))
    assert out is not data and not np.shares_memory(out, data)
    assert not data.any() and out[1].all()


def test_donation_refusals(build):
    module = build(KV, entry="kv", donate=[0])
    rows = np.zeros((1, 1), np.int64)
    values = np.zeros((1, 3), np.float32)
    ids = np.zeros(1, np.int64)
    with pytest.raises(ValueError, match="a donated input must be contiguous"):
        module(np.zeros((3, 4), np.float32).T, rows, values, ids)
    frozen = np.zeros((4, 3), np.float32)
    frozen.setflags(write=False)
    with pytest.raises(ValueError, match="donated but read-only"):
        module(frozen, rows, values, ids)
    with pytest.raises(ValueError, match="input #0 is donated: pass an array"):
        module([[0.0] * 3] * 4, rows, values, ids)
    cache = np.zeros((4, 3), np.float32)
    with pytest.raises(ValueError, match=r"input #2 shares memory with "
                       r"donated input #0"):
        module(cache, rows, cache[1:2], ids)
    with pytest.raises(ValueError, match="output #0 is the buffer of donated "
                       "input #0"):
        module(cache, rows, values, ids, out=(np.zeros((4, 3), np.float32),
                                               None))


def test_out(build, rng):
    """out=: the caller's array (any strides) receives the result and is
    returned; a buffer of another shape is nd's invalid argument, and
    nothing is written."""
    module = build(GATHER.format(t="f32"), entry="gather_f32")
    data = rng.standard_normal((5, 4)).astype(np.float32)
    ids = np.array([3, 1, 3], np.int64)
    out = np.full((3, 4), -1, np.float32)
    assert module(data, ids, out=out) is out
    np.testing.assert_array_equal(out, data[ids])

    wide = np.zeros((4, 6), np.float32)
    view = wide.T[1:5, :3].T  # (3, 4), strided
    assert module(data, ids, out=view) is view
    np.testing.assert_array_equal(view, data[ids])
    assert not wide[:, 0].any() and not wide[:, 5].any()

    wrong = np.full((2, 4), -1, np.float32)
    with pytest.raises(nd.Error) as caught:
        module(data, ids, out=wrong)
    assert caught.value.status == "invalid argument"
    assert caught.value.message == ("output #0: the call computed shape "
                                    "[3, 4], the buffer has shape [2, 4]")
    assert (wrong == -1).all()
    with pytest.raises(TypeError, match="output #0: expected element type "
                       "f32, got f64"):
        module(data, ids, out=np.zeros((3, 4)))

    kv = build(KV, entry="kv", donate=[0])
    cache = np.zeros((4, 3), np.float32)
    rows = np.empty((2, 3), np.float32)
    result = kv(cache, np.array([[0]]), np.ones((1, 3), np.float32),
                np.array([0, 1]), out=(None, rows))
    assert result[0] is cache and result[1] is rows
    np.testing.assert_array_equal(rows, [[1, 1, 1], [0, 0, 0]])


def test_outputs_own_their_buffers(build, rng):
    """Outputs are numpy arrays over nd's buffers, alive as long as they
    (or views of them) are."""
    module = build(GATHER.format(t="f32"), entry="gather_f32")
    data = rng.standard_normal((64, 64)).astype(np.float32)
    ids = np.arange(64, dtype=np.int64)[::-1].copy()
    view = module(data, ids)[10:20]
    for _ in range(50):
        module(data, ids)  # buffers freed and reused meanwhile
    np.testing.assert_array_equal(view, data[ids][10:20])
    assert view.base.flags.writeable and view.base.flags.c_contiguous

    # nd_tensor_free runs once the array and its views are gone.
    result = module(data, ids)
    owner = result.base
    freed = []
    free = owner._free
    owner._free = lambda tensor: (freed.append(True), free(tensor))
    part = result[3:5]
    del owner, result
    assert freed == []
    del part
    assert freed == [True]


def test_threads(build, rng):
    """threads= per call, Module.threads per library; the same results."""
    module = build(GATHER.format(t="f64"), entry="gather_f64")
    data = rng.standard_normal((2000, 300))
    ids = rng.integers(0, 2000, 5000).astype(np.int64)
    expected = data[ids]
    assert module.threads == 0
    for threads in (1, 2, 3):
        np.testing.assert_array_equal(module(data, ids, threads=threads),
                                      expected)
    try:
        module.threads = 2
        assert module.threads == 2
        np.testing.assert_array_equal(module(data, ids), expected)
        with pytest.raises(ValueError):
            module.threads = -3
    finally:
        module.threads = 0
    assert module.threads == 0


def test_two_modules_and_threads_at_once(build, rng):
    """Two libraries with the same entry name, loaded at once, each called
    from its own Python threads; each bad call gets its own message."""
    first = build(GATHER.format(t="f32"), entry="model")
    second = build(SCATTER_ELEMENTS.format(t="f32"), entry="model")
    assert first.path != second.path
    data = rng.standard_normal((6, 2)).astype(np.float32)
    flat = rng.standard_normal(6).astype(np.float32)
    updates = rng.standard_normal(2).astype(np.float32)
    failures = []

    def work(n):
        try:
            for _ in range(50):
                ids = np.array([n % 6, -1], np.int64)
                np.testing.assert_array_equal(first(data, ids), data[ids])
                got = second(flat, ids.astype(np.int32), updates)
                np.testing.assert_array_equal(
                    got, reference.scatter_elements(
                        flat, ids.astype(np.int32), updates))
                bad = 6 + n
                with pytest.raises(nd.Error, match=f"index {bad} in "):
                    first(data, np.array([bad], np.int64))
        except Exception as error:  # reported below, with its thread
            failures.append((n, error))

    workers = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not failures


def test_bound_call(build):
    """Module.bind prepares a call once; each run sees what the buffers hold
    then."""
    module = build(KV, entry="kv", donate=[0])
    cache = np.zeros((4, 3), np.float32)
    position = np.zeros((1, 1), np.int64)
    token = np.zeros((1, 3), np.float32)
    ids = np.zeros(1, np.int64)
    step = module.bind(cache, position, token, ids, threads=1)
    for n in range(4):
        position[0, 0] = n
        token[:] = n + 1
        ids[0] = n
        out, row = step()
        assert out is cache
        np.testing.assert_array_equal(row, [[n + 1] * 3])
    np.testing.assert_array_equal(cache[:, 0], [1, 2, 3, 4])
    position[0, 0] = 9
    with pytest.raises(nd.Error, match="index 9 in operand 'indices'"):
        step()
    position[0, 0] = 0
    step()


def test_load(build, rng):
    """nd.load takes a library nd-compile built, with its entry named after
    the file or given."""
    compiled = build(GATHER.format(t="f32"), entry="gather_f32")
    loaded = nd.load(compiled.path)
    assert loaded.entry == "gather_f32" and loaded.from_cache is None
    data = rng.standard_normal((3, 2)).astype(np.float32)
    np.testing.assert_array_equal(loaded(data, np.array([2, 0])),
                                  data[[2, 0]])
    with pytest.raises(nd.Error, match="exports no entry 'other'"):
        nd.load(compiled.path, entry="other")
    with pytest.raises(nd.Error, match="cannot load"):
        nd.load(compiled.path + ".missing")
