"""What a module's signature tells and holds calls to: an ONNX model's
symbolic dims (dim_param) in TensorSpec, enforced at call time with
messages that name them, for inputs and out= buffers alike. The model is
test/nd-compile/Inputs/symbolic_model.py's (GatherElements, axis 1, of
data[N, 5] with idx[N, 4]); expected values from numpy."""

import importlib.util
import os

import numpy as np
import pytest

import nd
from conftest import SOURCE_ROOT, onnx_or_skip


def _symbolic_model():
    onnx_or_skip()
    path = os.path.join(SOURCE_ROOT, "test", "nd-compile", "Inputs",
                        "symbolic_model.py")
    spec = importlib.util.spec_from_file_location("symbolic_model", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build()


@pytest.fixture(scope="module")
def symbolic(build):
    return build(_symbolic_model(), entry="symbolic")


def test_symbolic_dims_in_the_signature(symbolic):
    data, idx = symbolic.inputs
    (out,) = symbolic.outputs
    assert data.dims == ("N", 5) and data.sizes == (None, 5)
    assert data.dim_names == ("N", None)
    assert idx.dims == ("N", 4) and out.dims == ("N", 4)
    assert repr(data) == "data: f32[N, 5]"
    assert "symbolic(data: f32[N, 5], idx: i64[N, 4]) -> (f32[N, 4])" \
        in repr(symbolic)


def test_symbolic_dims_enforced(symbolic, rng):
    """Inputs that agree on N run; inputs that do not are an ArgumentError
    naming both dims, on the fast path and the general path alike."""
    data = rng.standard_normal((3, 5)).astype(np.float32)
    idx = rng.integers(0, 5, (3, 4))
    expected = np.take_along_axis(data, idx, 1)
    np.testing.assert_array_equal(symbolic(data, idx), expected)
    message = ("input #1 ('idx') dim 0 (N) is 2 but input #0 ('data') dim 0 "
               "(N) is 3")
    for call in (lambda: symbolic(data, idx[:2]),
                 lambda: symbolic(data, idx[:2].tolist()),
                 lambda: symbolic(idx=idx[:2], data=data),
                 lambda: symbolic.bind(data, idx[:2])):
        with pytest.raises(nd.ArgumentError) as caught:
            call()
        assert caught.value.message == message
    # And the same shapes are fine once they agree again.
    np.testing.assert_array_equal(symbolic(data[:2], idx[:2]), expected[:2])
    np.testing.assert_array_equal(symbolic(data, idx), expected)


def test_symbolic_dims_of_out_buffers(symbolic, rng):
    data = rng.standard_normal((3, 5)).astype(np.float32)
    idx = rng.integers(0, 5, (3, 4))
    with pytest.raises(nd.ArgumentError) as caught:
        symbolic(data, idx, out=np.zeros((4, 4), np.float32))
    assert caught.value.message == ("output #0 dim 0 (N) is 4 but input #0 "
                                    "('data') dim 0 (N) is 3")
    out = np.zeros((3, 4), np.float32)
    assert symbolic(data, idx, out=out) is out
    np.testing.assert_array_equal(out, np.take_along_axis(data, idx, 1))


def test_symbolic_dims_enforced_by_the_runtime(symbolic, rng):
    """The C runtime holds a call to the names too (nd-run and C callers
    get the same check): a call past the package's own check, through
    ctypes, is refused with the same message."""
    import ctypes
    from nd._runtime import Context, Tensor

    data = np.zeros((3, 5), np.float32)
    idx = np.zeros((2, 4), np.int64)
    shapes = [(ctypes.c_int64 * 2)(*a.shape) for a in (data, idx)]
    inputs = (Tensor * 2)()
    for tensor, array, shape, spec in zip(inputs, (data, idx), shapes,
                                          symbolic.inputs):
        tensor.data = array.__array_interface__["data"][0]
        tensor.shape = shape
        tensor.dtype = spec.code
        tensor.rank = 2
    outputs = (Tensor * 1)()
    message = ctypes.create_string_buffer(256)
    context = Context(message=ctypes.addressof(message), message_size=256)
    status = symbolic._function(ctypes.addressof(context),
                                ctypes.addressof(inputs), 2,
                                ctypes.addressof(outputs), 1)
    assert status == 1
    assert message.value.decode() == ("input #1 ('idx') dim 0 (N) is 2 but "
                                      "input #0 ('data') dim 0 (N) is 3")
    assert not outputs[0].data
