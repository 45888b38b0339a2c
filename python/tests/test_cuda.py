"""nd.compile(model, target="cuda"): GPU libraries from nd-compile
--target=cuda. On a machine without a CUDA driver (the build machines) a call
raises nd.Error with the runtime's message, every time, and the process goes
on; with a driver, the host form (numpy) and the device form (torch CUDA
tensors) compute what numpy does. Skipped without the CUDA toolkit's ptxas or
nd's CUDA runtime."""

import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

import nd

TOOLKIT = os.environ.get("CUDA_HOME", "/usr/local/cuda")

GATHER = """
func.func @main(%data: tensor<4x2xf32>, %ids: tensor<3xi64>)
    -> tensor<3x2xf32> {
  %r = nd.gather %data[%ids]
      : tensor<4x2xf32>, tensor<3xi64> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
"""

ROWS = """
func.func @main(%table: tensor<?x4xf32>, %ids: tensor<?xi32>)
    -> tensor<?x4xf32> {
  %r = nd.gather %table[%ids]
      : tensor<?x4xf32>, tensor<?xi32> -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
"""


def _has_driver():
    try:
        ctypes.CDLL("libcuda.so.1")
    except OSError:
        return False
    return True


def _has_cuda_runtime():
    from nd import _runtime
    lib = os.path.dirname(_runtime.runtime().path)
    return os.path.exists(os.path.join(lib, "libnd_cuda_runtime.so"))


pytestmark = pytest.mark.skipif(
    not (os.path.exists(os.path.join(TOOLKIT, "bin", "ptxas")) and
         os.path.exists(os.path.join(TOOLKIT, "bin", "fatbinary")) and
         _has_cuda_runtime()),
    reason=f"no ptxas and fatbinary in {TOOLKIT}/bin, or nd was built "
           f"without its CUDA runtime")

DRIVER = _has_driver()


@pytest.mark.skipif(DRIVER, reason="a CUDA driver is present")
def test_no_driver_calls_raise(build):
    module = build(GATHER, target="cuda")
    assert module.target == "cuda"
    assert [s.dtype for s in module.inputs] == ["f32", "i64"]
    assert module.outputs[0].dims == (3, 2)
    data = np.arange(8, dtype=np.float32).reshape(4, 2)
    ids = np.array([3, 0, 3], np.int64)
    for _ in range(2):
        with pytest.raises(nd.Error) as caught:
            module(data, ids)
        assert caught.value.message.startswith(
            "no CUDA driver: libcuda.so.1 cannot be loaded")
        assert caught.value.status == "driver error"
        assert caught.value.code == 5
    # The interpreter carries on, and so does a CPU module of the same
    # model.
    np.testing.assert_array_equal(build(GATHER)(data, ids), data[ids])
    # nd.load knows the library for a GPU one.
    loaded = nd.load(module.path, entry=module.entry)
    assert loaded.target == "cuda"
    with pytest.raises(nd.Error, match="no CUDA driver"):
        loaded(data, ids)


def test_cache_keys_cover_target_and_options(tmp_path):
    cache = str(tmp_path / "cache")
    cpu = nd.compile(GATHER, cache_dir=cache)
    cuda = nd.compile(GATHER, target="cuda", cache_dir=cache)
    assert cpu.target == "cpu" and cuda.target == "cuda"
    assert cuda.from_cache is False and cuda.path != cpu.path
    again = nd.compile(GATHER, target="cuda", cache_dir=cache)
    assert again.from_cache is True and again.path == cuda.path
    sm80 = nd.compile(GATHER, target="cuda", cuda_chips=["sm_80"],
                      cache_dir=cache)
    assert sm80.from_cache is False and sm80.path not in (cuda.path,
                                                          cpu.path)
    toolkit = nd.compile(GATHER, target="cuda", cuda_toolkit=TOOLKIT,
                         cache_dir=cache)
    assert toolkit.from_cache is False
    assert len(os.listdir(cache)) == 4


def test_refused_options(tmp_path):
    cache = str(tmp_path / "cache")
    with pytest.raises(nd.Error, match="cpu is for target 'cpu'"):
        nd.compile(GATHER, target="cuda", cpu="native", cache_dir=cache)
    with pytest.raises(nd.Error, match="cuda_chips and cuda_toolkit are for "
                       "target 'cuda'"):
        nd.compile(GATHER, cuda_chips=["sm_90"], cache_dir=cache)
    with pytest.raises(nd.CompileError, match="unknown CUDA chip 'sm_1'"):
        nd.compile(GATHER, target="cuda", cuda_chips="sm_1", cache_dir=cache)
    with pytest.raises(nd.CompileError, match="has no ptxas"):
        nd.compile(GATHER, target="cuda", cuda_toolkit=str(tmp_path),
                   cache_dir=cache)


@pytest.mark.skipif(not DRIVER, reason="no CUDA driver")
def test_host_form_on_a_gpu(build, rng):
    module = build(ROWS, target="cuda")
    table = rng.standard_normal((50, 4)).astype(np.float32)
    ids = rng.integers(-50, 50, 37).astype(np.int32)
    np.testing.assert_array_equal(module(table, ids), table[ids])
    out = np.zeros((37, 4), np.float32)
    assert module(table, ids, out=out) is out
    np.testing.assert_array_equal(out, table[ids])
    with pytest.raises(nd.Error, match="out of range") as caught:
        module(table, np.array([1, 50], np.int32))
    assert caught.value.status == "check failed"
    np.testing.assert_array_equal(module(table, ids[:5]), table[ids[:5]])


@pytest.mark.skipif(not DRIVER, reason="no CUDA driver")
def test_device_form_on_a_gpu(build, rng):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    module = build(ROWS, target="cuda")
    table = rng.standard_normal((50, 4)).astype(np.float32)
    ids = rng.integers(-50, 50, 37).astype(np.int32)
    result = module(torch.from_numpy(table).cuda(),
                    torch.from_numpy(ids).cuda())
    assert result.is_cuda and tuple(result.shape) == (37, 4)
    np.testing.assert_array_equal(result.cpu().numpy(), table[ids])
    static = build(GATHER, target="cuda")
    data = torch.arange(8, dtype=torch.float32, device="cuda").reshape(4, 2)
    picked = static(data, torch.tensor([3, 0, 3], device="cuda"))
    assert picked.is_cuda
    np.testing.assert_array_equal(picked.cpu().numpy(),
                                  data.cpu().numpy()[[3, 0, 3]])
    with pytest.raises(nd.Error, match="out of range"):
        module(torch.from_numpy(table).cuda(),
               torch.tensor([1, 50], dtype=torch.int32, device="cuda"))


COPIES = """
func.func @main(%cache: tensor<4x3xf32>, %x: tensor<?x3xf32>)
    -> (tensor<4x3xf32>, tensor<?x3xf32>) {
  return %cache, %x : tensor<4x3xf32>, tensor<?x3xf32>
}
"""

# Runs in a process of its own, whose driver is the stand-in.
_HOST_FORM_SCRIPT = """
import sys
import numpy as np
import nd
module = nd.load(sys.argv[1], entry="copies")
cache = np.arange(12, dtype=np.float32).reshape(4, 3)
x = np.arange(6, dtype=np.float32).reshape(3, 2).T
same, copy = module(cache, x)
print("same cache", same is cache, "copy", copy.tolist(),
      "owns", copy.base is not None)
out = np.zeros((2, 3), np.float32)
print("out", module(cache, x, out=[None, out])[1] is out, out.tolist())
try:
    module(cache, x.astype(np.complex64))
except nd.Error as error:
    print("error", error.status, error.message)
"""


@pytest.mark.skipif(DRIVER, reason="a CUDA driver is present")
def test_host_form_on_a_stand_in_driver(build, tmp_path):
    """The host form through Python (numpy in and out, nd's buffers owned by
    the arrays and freed by nd_cuda_tensor_free) on the stand-in driver of
    test/Integration/GPU/Inputs/fake_cuda_driver.c, whose device memory is
    host memory: a module without kernels runs on it."""
    from conftest import SOURCE_ROOT
    driver = tmp_path / "driver"
    driver.mkdir()
    source = os.path.join(SOURCE_ROOT, "test", "Integration", "GPU",
                          "Inputs", "fake_cuda_driver.c")
    subprocess.run(["cc", "-shared", "-fPIC", "-I" + TOOLKIT + "/include",
                    source, "-o", str(driver / "libcuda.so.1")], check=True)
    module = build(COPIES, target="cuda", donate=0, entry="copies")
    env = dict(os.environ, LD_LIBRARY_PATH=str(driver))
    result = subprocess.run(
        [sys.executable, "-c", _HOST_FORM_SCRIPT, module.path], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines() == [
        "same cache True copy [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]] owns True",
        "out True [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]",
        "error invalid argument input #1: expected element type f32, got "
        "complex64 (numpy's same_kind casting, which nd converts inputs "
        "under, does not take complex64 to f32)"]


# The device form through Python on the stand-in driver, whose launches are
# recorded, not run: torch is a stand-in too (CUDA tensors over device
# buffers of nd_cuda_alloc, and a current stream the test sets), so the
# values are not checked, only which stream every driver call of a call
# names and how a failed check reaches Python.
_DEVICE_FORM_SCRIPT = """
import ctypes, sys, types
import nd
from nd import _cuda

driver = ctypes.CDLL("libcuda.so.1")
driver.fake_ledger_length.restype = ctypes.c_long
driver.fake_ledger_call.restype = ctypes.c_char_p
driver.fake_ledger_stream.restype = ctypes.c_size_t
driver.fake_ledger_call.argtypes = [ctypes.c_long]
driver.fake_ledger_stream.argtypes = [ctypes.c_long]
driver.fake_fail_next_check.argtypes = [ctypes.c_int64] * 3
cuda = _cuda.cuda_runtime().lib
cuda.nd_cuda_alloc.restype = ctypes.c_void_p
cuda.nd_cuda_alloc.argtypes = [ctypes.c_size_t]

torch = types.ModuleType("torch")
class DType:
    def __init__(self, name, size):
        self.name, self.size = name, size
for name, size in [("float32", 4), ("int32", 4), ("int64", 8)]:
    setattr(torch, name, DType(name, size))
class Device:
    type = "cuda"
# torch's buffers come from torch's allocator, not from nd: a pool of the
# stand-in's memory taken before any call.
pool = [cuda.nd_cuda_alloc(1 << 20)]
class Tensor:
    def __init__(self, shape, dtype):
        self.shape, self.dtype, self.device = tuple(shape), dtype, Device()
        self.pointer = pool[0]
        pool[0] += (max(self.numel(), 1) * dtype.size + 255) // 256 * 256
    def numel(self):
        n = 1
        for d in self.shape:
            n *= d
        return n
    def element_size(self):
        return self.dtype.size
    def data_ptr(self):
        return self.pointer
    def dim(self):
        return len(self.shape)
    def stride(self):
        strides, step = [], 1
        for d in reversed(self.shape):
            strides.insert(0, step)
            step *= d
        return tuple(strides)
    def is_contiguous(self):
        return True
    def detach(self):
        return self
class Stream:
    def __init__(self, handle):
        self.cuda_stream = handle
current = [Stream(0)]
torch.Tensor = Tensor
torch.empty = lambda shape, dtype=None, device=None: Tensor(shape, dtype)
torch.cuda = types.SimpleNamespace(
    current_stream=lambda device=None: current[0],
    is_available=lambda: True)
sys.modules["torch"] = torch

module = nd.load(sys.argv[1], entry="rows")
table, ids = Tensor((50, 4), torch.float32), Tensor((37,), torch.int32)
created = ctypes.c_void_p()
driver.cuStreamCreate(ctypes.byref(created), 1)
for name, handle in [("default", 0), ("per-thread", 2),
                     ("created", created.value)]:
    current[0] = Stream(handle)
    module(table, ids)
    start = driver.fake_ledger_length()
    result = module(table, ids)
    entries = [(driver.fake_ledger_call(i).decode(),
                driver.fake_ledger_stream(i))
               for i in range(start, driver.fake_ledger_length())]
    strays = sorted({c for c, s in entries if s != handle})
    syncs = sum(c == "cuStreamSynchronize" for c, _ in entries)
    copies = sum(c == "cuMemcpyAsync" for c, _ in entries)
    print(name, "shape", result.shape, "strays", strays, "syncs", syncs,
          "copies", copies)
current[0] = Stream(0)
driver.fake_fail_next_check(2, 77, 50)
module(table, ids)
try:
    module(table, ids)
except nd.Error as error:
    print("next call:", error.status, error.message)
module(table, ids)
print("after the report: ok")
driver.fake_fail_next_check(2, 78, 50)
module(table, ids)
try:
    nd.cuda_synchronize()
except nd.Error as error:
    print("synchronize:", error.status, error.message)
nd.cuda_synchronize()
print("synchronize again: ok")
print("was synchronous:", nd.cuda_set_synchronous(True))
driver.fake_fail_next_check(2, 79, 50)
try:
    module(table, ids)
except nd.Error as error:
    print("synchronous:", error.status, error.message)
"""


@pytest.mark.skipif(DRIVER, reason="a CUDA driver is present")
def test_device_form_streams_on_a_stand_in_driver(build, tmp_path):
    """The device form from Python names torch's current stream in every
    driver call, whatever the stream is (the legacy default stream as 0,
    the per-thread one as 2, a stream of the caller's); it queues its work
    without waiting (no synchronization; the dynamic-shape result copied
    into torch's buffer on the stream); and a failed check raises nd.Error
    at the next call, from nd.cuda_synchronize(), or, in synchronous mode,
    from the call itself."""
    from conftest import SOURCE_ROOT
    driver = tmp_path / "driver"
    driver.mkdir()
    source = os.path.join(SOURCE_ROOT, "test", "Integration", "GPU",
                          "Inputs", "fake_cuda_driver.c")
    subprocess.run(["cc", "-shared", "-fPIC", "-I" + TOOLKIT + "/include",
                    source, "-o", str(driver / "libcuda.so.1")], check=True)
    module = build(ROWS, target="cuda", entry="rows")
    env = dict(os.environ, LD_LIBRARY_PATH=str(driver))
    result = subprocess.run(
        [sys.executable, "-c", _DEVICE_FORM_SCRIPT, module.path], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    for line, name in zip(lines, ["default", "per-thread", "created"]):
        assert line == (f"{name} shape (37, 4) strays [] syncs 0 copies 2"), \
            result.stdout
    message = ("'indices' is out of range for dim 0 of operand 'data' "
               "(size 50)")
    assert lines[3].startswith("next call: check failed "), result.stdout
    assert "index 77 " in lines[3] and lines[3].endswith(message)
    assert lines[4] == "after the report: ok"
    assert lines[5].startswith("synchronize: check failed ")
    assert "index 78 " in lines[5] and lines[5].endswith(message)
    assert lines[6:8] == ["synchronize again: ok", "was synchronous: False"]
    assert lines[8].startswith("synchronous: check failed ")
    assert "index 79 " in lines[8] and lines[8].endswith(message)
