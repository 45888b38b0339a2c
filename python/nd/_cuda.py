"""Modules that nd-compile --target=cuda built (include/nd-c/CudaRuntime.h):
libnd_cuda_runtime.so through ctypes, and the device form of a call on torch
CUDA tensors, on torch's current stream whatever it is (the legacy default
stream, the per-thread one or a stream of the caller's), with no host round
trip: the call returns once its work is queued, and a failed check of its
kernels raises nd.Error from the next call on that stream or from
synchronize(). (The host form is an ordinary call of _module.BoundCall on the
entry NAME_host.)"""

import ctypes
import os
import threading

from . import _arrays
from ._errors import ArgumentError, DTypeError, Error
from ._runtime import STATUS_NAMES, Context, Tensor, runtime

CUDA_RUNTIME_NAME = "libnd_cuda_runtime.so"

# nd_cuda_entry_fn, pointers passed as addresses.
CUDA_ENTRY_TYPE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p,
                                   ctypes.c_void_p, ctypes.c_void_p,
                                   ctypes.c_size_t, ctypes.c_void_p,
                                   ctypes.c_size_t)

# What the host form of a cuda entry exports beside the device form.
HOST_SUFFIX = "_host"

_lock = threading.Lock()
_loaded = None


class CudaRuntime:
    """libnd_cuda_runtime.so, from the lib/ folder of the loaded
    libnd_runtime.so, loaded with RTLD_GLOBAL so that the libraries in nd's
    cache find it. `free` releases an output nd allocated (the host form's
    and the device form's alike)."""

    def __init__(self, path):
        self.path = path
        try:
            self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError as error:
            raise Error(f"cannot load {path}: {error}") from None
        lib = self.lib
        lib.nd_cuda_tensor_free.argtypes = [ctypes.POINTER(Tensor)]
        lib.nd_cuda_tensor_free.restype = None
        lib.nd_cuda_copy_async.argtypes = [ctypes.c_void_p, ctypes.c_void_p,
                                           ctypes.c_size_t, ctypes.c_void_p]
        lib.nd_cuda_copy_async.restype = ctypes.c_int32
        lib.nd_cuda_synchronize.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                            ctypes.c_size_t]
        lib.nd_cuda_synchronize.restype = ctypes.c_int32
        lib.nd_cuda_set_synchronous.argtypes = [ctypes.c_int32]
        lib.nd_cuda_set_synchronous.restype = ctypes.c_int32
        lib.nd_cuda_last_message.argtypes = []
        lib.nd_cuda_last_message.restype = ctypes.c_char_p
        self.free = lib.nd_cuda_tensor_free

    def _raise(self, status, message):
        raise Error(message, status=STATUS_NAMES.get(status, "error"),
                    code=status)

    def copy_async(self, dst, src, size, stream):
        """Queues a copy between device buffers on `stream`; nd.Error if the
        driver refuses it."""
        status = self.lib.nd_cuda_copy_async(dst, src, size, stream)
        if status != 0:
            self._raise(status, self.lib.nd_cuda_last_message().decode(
                errors="replace"))

    def synchronize(self, stream):
        """Waits for `stream`; nd.Error for a failed check of nd's calls on
        it that was not reported yet."""
        message = ctypes.create_string_buffer(4096)
        status = self.lib.nd_cuda_synchronize(stream, message, len(message))
        if status != 0:
            self._raise(status, message.value.decode(errors="replace"))


def cuda_runtime():
    """The loaded CUDA runtime, loading it on first use."""
    global _loaded
    if _loaded is not None:
        return _loaded
    with _lock:
        if _loaded is None:
            lib_dir = os.path.dirname(runtime().path)
            path = os.path.join(lib_dir, CUDA_RUNTIME_NAME)
            if not os.path.exists(path):
                raise Error(f"cannot find {CUDA_RUNTIME_NAME} beside "
                            f"{runtime().path} (nd was built without the "
                            f"CUDA toolkit's cuda.h?)")
            _loaded = CudaRuntime(path)
    return _loaded


def is_device_tensor(value):
    """Whether `value` is a torch tensor in CUDA memory."""
    return _arrays.is_torch_tensor(value) and value.device.type == "cuda"


def _torch_dtype(spec):
    """torch's dtype for nd's element type of `spec`, or None."""
    torch = _arrays.torch_module()
    names = {"bool": "bool", "i8": "int8", "i16": "int16", "i32": "int32",
             "i64": "int64", "u8": "uint8", "f16": "float16",
             "bf16": "bfloat16", "f32": "float32", "f64": "float64",
             "complex64": "complex64", "complex128": "complex128"}
    name = names.get(spec.dtype)
    return getattr(torch, name, None) if name else None


def _fill(tensor, value, spec, keep):
    """nd_tensor `tensor` over torch CUDA tensor `value` (no copy)."""
    shape = (ctypes.c_int64 * max(value.dim(), 1))(*value.shape)
    strides = (ctypes.c_int64 * max(value.dim(), 1))(*value.stride())
    keep.extend((shape, strides))
    tensor.data = value.data_ptr() or None
    tensor.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    tensor.strides = ctypes.cast(strides, ctypes.POINTER(ctypes.c_int64))
    tensor.dtype = spec.code
    tensor.rank = value.dim()
    tensor.owner = None


def _check(value, spec, what):
    expected = _torch_dtype(spec)
    if value.dtype != expected:
        raise DTypeError(f"{what}: expected element type {spec.dtype}, got "
                         f"{value.dtype}")


def call_device(module, values, out):
    """The device form of `module`'s entry on torch CUDA tensors: inputs and
    outputs stay on the GPU, the work runs on torch's current stream, and
    the results are torch CUDA tensors (an output that is a donated input's
    buffer: that input)."""
    torch = _arrays.torch_module()
    cuda = cuda_runtime()
    keep = []
    inputs = (Tensor * max(len(module.inputs), 1))()
    device = None
    for i, (value, spec) in enumerate(zip(values, module.inputs)):
        what = _arrays.describe("input", i, spec)
        if not is_device_tensor(value):
            raise ArgumentError(f"{what} is not a torch CUDA tensor: pass "
                                f"all inputs on the GPU (device form) or "
                                f"all on the host (host form)")
        _check(value, spec, what)
        if spec.donated and not value.is_contiguous():
            raise ArgumentError(f"{what}: a donated input must be "
                                f"contiguous (.contiguous()), to be updated "
                                f"in place")
        device = device or value.device
        _fill(inputs[i], value.detach(), spec, keep)

    given = [None] * len(module.outputs) if out is None else (
        list(out) if isinstance(out, (list, tuple)) else [out])
    if len(given) != len(module.outputs):
        raise ArgumentError(f"out= holds {len(given)} buffer(s); the entry "
                            f"has {len(module.outputs)} output(s)")
    outputs = (Tensor * max(len(module.outputs), 1))()
    results = []
    for k, spec in enumerate(module.outputs):
        what = _arrays.describe("output", k, spec)
        value = given[k]
        if value is None and spec.alias is None and \
                all(d is not None for d in spec.sizes):
            # A static shape: torch allocates it, nd computes into it.
            value = torch.empty(spec.sizes, dtype=_torch_dtype(spec),
                                device=device)
        if value is not None:
            if not is_device_tensor(value):
                raise ArgumentError(f"{what}: out= takes torch CUDA tensors "
                                    f"here")
            _check(value, spec, what)
            _fill(outputs[k], value, spec, keep)
        results.append(value)

    message = ctypes.create_string_buffer(4096)
    context = Context(threads=0, message=ctypes.addressof(message),
                      message_size=len(message))
    stream = _stream_of(torch, device)
    status = module._device_function(
        ctypes.addressof(context), stream, ctypes.addressof(inputs),
        len(module.inputs), ctypes.addressof(outputs), len(module.outputs))
    if status != 0:
        raise Error(message.value.decode(errors="replace"),
                    status=STATUS_NAMES.get(status, "error"), code=status)
    for k, spec in enumerate(module.outputs):
        if results[k] is not None:
            continue
        if spec.alias is not None:
            results[k] = values[spec.alias]
            cuda.free(ctypes.byref(outputs[k]))
            continue
        # A shape known after the call: nd's buffer, copied into torch's on
        # the call's stream (nd frees its buffer after the copy, in stream
        # order).
        tensor = outputs[k]
        shape = tuple(tensor.shape[d] for d in range(spec.rank))
        result = torch.empty(shape, dtype=_torch_dtype(spec), device=device)
        try:
            if result.numel():
                cuda.copy_async(result.data_ptr(), tensor.data,
                                result.numel() * result.element_size(),
                                stream)
        finally:
            cuda.free(ctypes.byref(tensor))
        results[k] = result
    if len(results) == 1:
        return results[0]
    return tuple(results) if results else None


def _stream_of(torch, device):
    """torch's current stream on `device` as torch reports it (cuda_stream):
    0 becomes None, the legacy default stream, which is torch's default
    stream unless torch was built for per-thread default streams (nd cannot
    tell); any other handle (CU_STREAM_PER_THREAD = 2, a stream of torch's)
    is passed as it is."""
    if device is None:
        return None
    return torch.cuda.current_stream(device).cuda_stream or None


def synchronize(stream=None):
    """Waits for a CUDA stream and raises nd.Error for the first failed check
    of nd's calls on it that no call has reported yet (the device form
    reports its checks asynchronously: at the next call on the stream, or
    here). `stream`: a torch.cuda.Stream, a CUstream as an int, or None:
    torch's current stream if torch was imported, else the legacy default
    stream."""
    torch = _arrays.torch_module()
    if stream is None and torch is not None and torch.cuda.is_available():
        stream = torch.cuda.current_stream().cuda_stream
    elif stream is not None and not isinstance(stream, int):
        stream = stream.cuda_stream
    cuda_runtime().synchronize(stream or None)


def set_synchronous(synchronous):
    """Whether every call of a GPU library waits for its stream and raises
    its own failed check (True), or returns once its work is queued (False,
    the default unless ND_CUDA_SYNCHRONOUS=1). For the whole process;
    returns the previous setting."""
    return bool(cuda_runtime().lib.nd_cuda_set_synchronous(
        1 if synchronous else 0))
