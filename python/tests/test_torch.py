"""torch tensors in and out: CPU tensors are passed without a copy and the
outputs come back as torch tensors over nd's buffers; bf16 through torch;
other DLPack producers through numpy.from_dlpack. Expected values from
torch's own indexing."""

import numpy as np
import pytest

import nd

GATHER = """
func.func @main(%data: tensor<?x4x{t}>, %ids: tensor<?xi64>)
    -> tensor<?x4x{t}> {{
  %r = nd.gather %data[%ids]
      : tensor<?x4x{t}>, tensor<?xi64> -> tensor<?x4x{t}>
  return %r : tensor<?x4x{t}>
}}
"""

APPEND = """
func.func @main(%cache: tensor<2x8x4x{t}>, %pos: tensor<2x1x2xi64>,
                %token: tensor<2x1x4x{t}>) -> tensor<2x8x4x{t}> {{
  %r = nd.scatter_nd %cache[%pos], %token
      : tensor<2x8x4x{t}>, tensor<2x1x2xi64>, tensor<2x1x4x{t}>
  return %r : tensor<2x8x4x{t}>
}}
"""


def test_torch_in_torch_out(build, torch):
    module = build(GATHER.format(t="f32"), entry="tgather_f32")
    data = torch.randn(6, 4)
    ids = torch.tensor([5, 0, -1])
    got = module(data, ids)
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
    assert torch.equal(got, data[ids])
    # Strided and autograd tensors are read as they are.
    wide = torch.randn(4, 12)
    assert torch.equal(module(wide.t()[::2], ids), wide.t()[::2][ids])
    weights = torch.randn(6, 4, requires_grad=True)
    assert torch.equal(module(weights, ids), weights.detach()[ids])
    # Mixed torch and numpy inputs: torch out.
    assert isinstance(module(data.numpy(), ids), torch.Tensor)
    assert isinstance(module(data.numpy(), ids.numpy()), np.ndarray)


def test_torch_donated_cache(build, torch):
    """A donated torch tensor is updated in place and returned as itself."""
    module = build(APPEND.format(t="f16"), entry="tappend_f16", donate=[0])
    cache = torch.zeros(2, 8, 4, dtype=torch.float16)
    expected = cache.clone()
    for step in range(3):
        pos = torch.tensor([[[0, step]], [[1, 7 - step]]])
        token = torch.randn(2, 1, 4).to(torch.float16)
        out = module(cache, pos, token)
        assert out is cache
        expected[0, step] = token[0, 0]
        expected[1, 7 - step] = token[1, 0]
        assert torch.equal(cache, expected)


def test_bfloat16(build, torch):
    """bf16, which numpy lacks, through torch.bfloat16 tensors; numpy arrays
    get a clear error."""
    module = build(APPEND.format(t="bf16"), entry="tappend_bf16", donate=[0])
    assert module.inputs[0].dtype == "bf16"
    assert module.inputs[0].numpy_dtype is None
    cache = torch.zeros(2, 8, 4, dtype=torch.bfloat16)
    token = torch.tensor([[[1.5, -2.0, 3.25, 1e30]], [[0.5, 7.0, -1.0, 2.0]]],
                         dtype=torch.bfloat16)
    module(cache, torch.tensor([[[0, 2]], [[1, 3]]]), token)
    assert torch.equal(cache[0, 2], token[0, 0])
    assert torch.equal(cache[1, 3], token[1, 0])
    assert cache.sum(dim=2).count_nonzero() == 2

    gather = build(GATHER.format(t="bf16"), entry="tgather_bf16")
    data = torch.randn(5, 4).to(torch.bfloat16)
    got = gather(data, torch.tensor([4, 1]))
    assert got.dtype == torch.bfloat16 and torch.equal(got, data[[4, 1]])
    with pytest.raises(TypeError, match="input #0 is bf16, which numpy has no "
                       "dtype for"):
        gather(np.zeros((5, 4), np.float32), np.array([0]))
    with pytest.raises(TypeError, match="expected element type bf16, got "
                       "torch.float32"):
        gather(torch.zeros(5, 4), torch.tensor([0]))


def test_torch_out_and_errors(build, torch):
    module = build(GATHER.format(t="f32"), entry="tgather_f32")
    data = torch.randn(6, 4)
    out = torch.empty(2, 4)
    assert module(data, torch.tensor([1, 2]), out=out) is out
    assert torch.equal(out, data[[1, 2]])
    with pytest.raises(nd.Error, match="index 6 in operand 'indices' is out "
                       "of range for dim 0 of operand 'data' \\(size 6\\)"):
        module(data, torch.tensor([6]))
    with pytest.raises(ValueError, match="input #0 is a torch tensor on meta; "
                       "this module runs on the CPU"):
        module(torch.empty(6, 4, device="meta"), torch.tensor([0]))
    # Tensors convert under numpy's same_kind casting, as arrays do: i32
    # into i64 is taken, f32 into i64 refused.
    assert torch.equal(module(data, torch.tensor([1], dtype=torch.int32)),
                       data[[1]])
    with pytest.raises(TypeError, match="input #1: expected element type i64, "
                       "got f32 \\(numpy's same_kind casting"):
        module(data, torch.tensor([1.0]))


class Producer:
    """A DLPack producer that is neither numpy nor torch."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        return self.tensor.__dlpack__()

    def __dlpack_device__(self):
        return self.tensor.__dlpack_device__()


def test_dlpack_producer(build, torch):
    module = build(GATHER.format(t="f32"), entry="tgather_f32")
    data = torch.randn(3, 4)
    got = module(Producer(data), Producer(torch.tensor([2, 2])))
    assert isinstance(got, np.ndarray)
    np.testing.assert_array_equal(got, data.numpy()[[2, 2]])
