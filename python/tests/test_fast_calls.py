"""Plain calls take a fast path where their arguments are the common case
(contiguous arrays or torch CPU tensors of the entry's element types, by
position, no out= nor threads=): these tests hold it to the general path
(Module.bind), result for result and error for error, and check out=
written in place, the casting rule, the thread count's range and the
arguments that are no arrays. Expected values from numpy."""

import threading

import numpy as np
import pytest

import nd

TINY = """
func.func @main(%data: tensor<4x5xf32>, %idx: tensor<4x2xi64>)
    -> tensor<4x2xf32> {
  %r = nd.gather_elements %data[%idx] axis(1)
      : tensor<4x5xf32>, tensor<4x2xi64> -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
"""

ROWS = """
func.func @main(%data: tensor<?x?xf32>, %ids: tensor<?xi64>)
    -> tensor<?x?xf32> {
  %r = nd.gather %data[%ids] : tensor<?x?xf32>, tensor<?xi64>
      -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""

# Two results, one of them the donated cache's buffer.
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


@pytest.fixture(scope="module")
def tiny(build):
    return build(TINY, entry="fast_tiny")


@pytest.fixture(scope="module")
def rows(build):
    return build(ROWS, entry="fast_rows")


def _tiny_inputs(rng):
    data = rng.standard_normal((4, 5)).astype(np.float32)
    idx = rng.integers(0, 5, (4, 2))
    return data, idx, np.take_along_axis(data, idx, 1)


def test_fast_and_general_paths_agree(tiny, rows, rng):
    """Call after call, the plain call (fast) and the bound call (general)
    give numpy's result; small static outputs are numpy's own arrays,
    dynamic ones arrays over nd's buffers."""
    data, idx, expected = _tiny_inputs(rng)
    bound = tiny.bind(data, idx)
    for _ in range(3):
        fast = tiny(data, idx)
        np.testing.assert_array_equal(fast, expected)
        np.testing.assert_array_equal(bound(), expected)
        assert fast.base is None and fast.flags.owndata
        assert fast.dtype == np.float32 and fast.flags.writeable
    # Results of different calls are different arrays.
    assert not np.shares_memory(tiny(data, idx), tiny(data, idx))
    # New values in the same arrays, new shapes in the same module.
    data[:] = 7
    np.testing.assert_array_equal(tiny(data, idx), np.full((4, 2), 7))
    for shape, count in [((6, 3), 4), ((1, 1), 0), ((9, 2), 12), ((6, 3), 2)]:
        table = rng.standard_normal(shape).astype(np.float32)
        ids = rng.integers(-shape[0], shape[0], count)
        got = rows(table, ids)
        np.testing.assert_array_equal(got, table[ids])
        assert got.shape == (count, shape[1])


def test_unusual_arguments_take_the_general_path(tiny, rng):
    """Strided, misaligned, byte-swapped, read-only and listed inputs give
    the same results as contiguous arrays."""
    data, idx, expected = _tiny_inputs(rng)
    wide = np.zeros((4, 10), np.float32)
    wide[:, ::2] = data
    frozen = data.copy()
    frozen.setflags(write=False)
    raw = np.zeros(4 * 5 * 4 + 1, np.uint8)
    misaligned = raw[1:].view(np.float32).reshape(4, 5)
    misaligned[:] = data
    assert not misaligned.flags.aligned
    for variant in (wide[:, ::2], frozen, misaligned, data.astype(">f4"),
                    data.tolist()):
        np.testing.assert_array_equal(tiny(variant, idx), expected)


def test_errors_are_the_general_paths(tiny, rng):
    """What the fast path cannot take raises what the general path raises,
    and the calls after it work."""
    data, idx, expected = _tiny_inputs(rng)
    with pytest.raises(nd.ArgumentError, match=r"input #0: dim 0 "
                       r"must be 4, got 3 \(shape \[3, 5\]\)"):
        tiny(data[:3], idx)
    with pytest.raises(nd.ArgumentError, match=r"input #1: "
                       r"expected rank 2, got 1"):
        tiny(data, idx[0])
    with pytest.raises(nd.DTypeError, match=r"input #1: expected "
                       r"element type i64, got f32"):
        tiny(data, idx.astype(np.float32))
    with pytest.raises(nd.Error, match=r"index 5 in operand 'indices' is out "
                       r"of range for dim 1 of operand 'data' \(size 5\)"):
        tiny(data, np.full((4, 2), 5))
    np.testing.assert_array_equal(tiny(data, idx), expected)


def test_torch_fast_path(tiny, rows, torch, rng):
    """Contiguous torch CPU tensors in, torch tensors out; others (strided,
    another dtype) through the general path, with the same results."""
    data, idx, expected = _tiny_inputs(rng)
    t_data, t_idx = torch.from_numpy(data), torch.from_numpy(idx)
    for _ in range(3):
        got = tiny(t_data, t_idx)
        assert isinstance(got, torch.Tensor)
        assert torch.equal(got, torch.gather(t_data, 1, t_idx))
    wide = torch.zeros(4, 10)
    wide[:, ::2] = t_data
    assert torch.equal(tiny(wide[:, ::2], t_idx), torch.from_numpy(expected))
    assert torch.equal(tiny(t_data, t_idx.to(torch.int32)),
                       torch.from_numpy(expected))
    table = torch.randn(7, 3)
    ids = torch.tensor([6, 0, -7])
    got = rows(table, ids)
    assert isinstance(got, torch.Tensor) and torch.equal(got, table[ids])


def test_donated_fast_path(build):
    """A donated input is updated in place and returned as itself; one that
    cannot be (read-only, shared with another input) is refused as the
    general path refuses it."""
    module = build(KV, entry="fast_kv", donate=[0])
    cache = np.zeros((4, 3), np.float32)
    expected = cache.copy()
    for step in range(4):
        token = np.full((1, 3), step + 1, np.float32)
        out, row = module(cache, np.array([[step]]), token, np.array([step]))
        expected[step] = step + 1
        assert out is cache
        np.testing.assert_array_equal(cache, expected)
        np.testing.assert_array_equal(row, token)
    with pytest.raises(nd.ArgumentError, match=r"input #2 shares memory with "
                       r"donated input #0"):
        module(cache, np.array([[0]]), cache[1:2], np.array([0]))
    frozen = cache.copy()
    frozen.setflags(write=False)
    with pytest.raises(nd.ArgumentError, match="donated but read-only"):
        module(frozen, np.array([[0]]), np.ones((1, 3), np.float32),
               np.array([0]))


def test_fast_calls_from_threads(rows, rng):
    """Calls of one module from several threads at once each get their own
    structures and results."""
    table = rng.standard_normal((50, 8)).astype(np.float32)
    failures = []

    def work(n):
        try:
            for k in range(200):
                ids = np.array([(n * 7 + k) % 50, n, -1 - n], np.int64)
                np.testing.assert_array_equal(rows(table, ids), table[ids])
        except Exception as error:  # reported below, with its thread
            failures.append((n, error))

    workers = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert not failures


def test_out_is_written_in_place(rows, rng):
    """out=: a contiguous array receives the result where the generated code
    computes it, nothing copied (BoundCall.copied_outputs, the runtime's
    count of the outputs it copied: 0); a strided one through one copy."""
    table = rng.standard_normal((300, 64)).astype(np.float32)
    ids = rng.permutation(300).astype(np.int64)
    out = np.full((300, 64), -1, np.float32)
    address = out.__array_interface__["data"][0]
    assert rows(table, ids, out=out) is out
    np.testing.assert_array_equal(out, table[ids])
    assert out.__array_interface__["data"][0] == address

    call = rows.bind(table, ids, out=out)
    out[:] = -1
    assert call() is out and call.copied_outputs == 0
    np.testing.assert_array_equal(out, table[ids])

    wide = np.zeros((300, 128), np.float32)
    strided = rows.bind(table, ids, out=wide[:, ::2])
    assert strided.copied_outputs == 0
    strided()
    assert strided.copied_outputs == 1
    np.testing.assert_array_equal(wide[:, ::2], table[ids])
    assert not wide[:, 1::2].any()

    # A buffer over the input itself gets the result through a copy: the
    # call reads the table while it writes the result.
    square = rng.standard_normal((64, 64)).astype(np.float32)
    perm = rng.permutation(64).astype(np.int64)
    expected = square[perm]
    over = rows.bind(square, perm, out=square)
    over()
    assert over.copied_outputs == 1
    np.testing.assert_array_equal(square, expected)


def test_casting_rule(tiny, rows, rng):
    """Inputs convert under numpy's same_kind casting, arrays and lists
    alike: f64 into f32 and a list of ints into i64 are taken; float into
    int is a DTypeError naming the input and both types."""
    data, idx, expected = _tiny_inputs(rng)
    np.testing.assert_array_equal(tiny(data.astype(np.float64), idx),
                                  expected)
    np.testing.assert_array_equal(tiny(data, idx.astype(np.int32)), expected)
    np.testing.assert_array_equal(tiny(data, idx.tolist()), expected)
    np.testing.assert_array_equal(tiny(data.tolist(), idx), expected)
    with pytest.raises(nd.DTypeError) as caught:
        tiny(data, idx.astype(np.float64))
    assert caught.value.message == (
        "input #1: expected element type i64, got f64 (numpy's "
        "same_kind casting, which nd converts inputs under, does not take "
        "f64 to i64)")
    with pytest.raises(nd.DTypeError, match=r"input #1: expected "
                       r"element type i64, got f64"):
        tiny(data, [[0.5, 1.0]] * 4)
    with pytest.raises(nd.DTypeError, match=r"input #0: expected "
                       r"element type f32, got complex128"):
        tiny(data.astype(np.complex128), idx)
    # out= buffers take the entry's element type only.
    with pytest.raises(nd.DTypeError, match="output #0: expected element "
                       "type f32, got f64"):
        rows(data, np.array([0]), out=np.zeros((1, 5)))


def test_arguments_that_are_no_arrays(tiny, rng):
    """A string, a ragged list or an object is nd's ArgumentError naming the
    input, never numpy's bare ValueError."""
    data, idx, _ = _tiny_inputs(rng)
    with pytest.raises(nd.ArgumentError, match=r"^input #0 is a "
                       r"str, not an array"):
        tiny("data", idx)
    with pytest.raises(nd.ArgumentError, match=r"^input #1 is a "
                       r"bytes, not an array"):
        tiny(data, b"idx")
    with pytest.raises(nd.ArgumentError, match=r"^input #1: numpy "
                       r"cannot make an array of the list given"):
        tiny(data, [[0, 1], [2]])
    with pytest.raises(nd.ArgumentError, match=r"^input #0: numpy "
                       r"makes an array of object of the dict given"):
        tiny({"a": 1}, idx)


@pytest.mark.parametrize("count", [2 ** 31, 2 ** 32 + 3, 2 ** 40])
def test_thread_counts_that_do_not_fit(rows, rng, count):
    """threads= and Module.threads refuse what nd's 32-bit count cannot
    hold, by name, and change nothing."""
    table = rng.standard_normal((5, 2)).astype(np.float32)
    ids = np.array([1, 4])
    message = (f"takes at most 2147483647 threads \\(nd's thread count is a "
               f"32-bit int\\), not {count}")
    with pytest.raises(nd.ArgumentError, match=f"^threads= {message}"):
        rows(table, ids, threads=count)
    with pytest.raises(nd.ArgumentError, match=f"^threads= {message}"):
        rows.bind(table, ids, threads=count)
    with pytest.raises(nd.ArgumentError, match=f"^Module.threads {message}"):
        rows.threads = count
    assert rows.threads == 0
    np.testing.assert_array_equal(rows(table, ids, threads=3), table[ids])
