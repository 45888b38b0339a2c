"""Arrays in and out of a call: numpy arrays, torch CPU tensors (through
`Tensor.numpy()`, which shares their memory) and other DLPack producers
(through numpy.from_dlpack), checked against an entry's signature; nd's
output buffers as numpy arrays (or torch tensors) that own them."""

import ctypes
import sys

import numpy as np

from ._errors import ArgumentError, DTypeError
from ._runtime import Tensor

# DLPack's kDLCPU.
_DLPACK_CPU = 1
# How bf16 elements travel through numpy: their bits.
_BF16_BITS = np.dtype(np.int16)


def torch_module():
    """torch, if this process imported it (a torch tensor can only come from
    a process that did: nd never imports it on its own)."""
    return sys.modules.get("torch")


def is_torch_tensor(value):
    torch = torch_module()
    return torch is not None and isinstance(value, torch.Tensor)


def describe(what, position, spec):
    """"input #1 ('indices')", as nd's messages say it."""
    text = f"{what} #{position}"
    return f"{text} ('{spec.name}')" if spec.name else text


def dtype_text(array, runtime):
    """An array's element type in nd's words where nd has it."""
    for dtype in runtime.dtypes.values():
        if dtype.numpy is not None and dtype.numpy == array.dtype:
            return dtype.name
    return str(array.dtype)


def as_array(value, spec, what, runtime):
    """(a numpy array that shares `value`'s memory where it can, whether
    `value` is a torch tensor). bf16 tensors come as int16 views of their
    bits."""
    torch = torch_module()
    if torch is not None and isinstance(value, torch.Tensor):
        if value.device.type != "cpu":
            raise ArgumentError(
                f"{what} is a torch tensor on {value.device}; this module "
                f"runs on the CPU (target 'cpu'): pass a CPU tensor "
                f"(.cpu())")
        tensor = value.detach()
        if tensor.dtype == torch.bfloat16:
            if spec.dtype != "bf16":
                raise DTypeError(f"{what}: expected element type "
                                 f"{spec.dtype}, got bf16")
            return tensor.view(torch.int16).numpy(), True
        if spec.dtype == "bf16":
            raise DTypeError(f"{what}: expected element type bf16, got "
                             f"{tensor.dtype}")
        try:
            return tensor.numpy(), True
        except (TypeError, RuntimeError) as error:
            raise DTypeError(f"{what}: {error}") from None
    if isinstance(value, np.ndarray):
        return value, False
    if hasattr(value, "__dlpack__") and hasattr(np, "from_dlpack"):
        device = value.__dlpack_device__()[0]
        if device != _DLPACK_CPU:
            raise ArgumentError(
                f"{what} is on DLPack device {device}, not the CPU; this "
                f"module runs on the CPU (target 'cpu')")
        return np.from_dlpack(value), False
    if spec.donated:
        raise ArgumentError(f"{what} is donated: pass an array (numpy or "
                            f"torch) for the call to update in place, not "
                            f"{type(value).__name__}")
    if spec.numpy_dtype is None:
        raise DTypeError(f"{what} is {spec.dtype}, which numpy has no "
                         f"dtype for: pass a torch.bfloat16 tensor")
    return np.asarray(value, dtype=spec.numpy_dtype), False


def check_array(array, spec, what, from_torch, runtime, convert):
    """`array` as the call takes it, or an exception: its element type, rank
    and static dims must be the signature's. A non-native byte order is
    converted where `convert` allows a copy (an input that is not
    donated)."""
    if spec.dtype == "bf16" and not from_torch:
        raise DTypeError(f"{what} is bf16, which numpy has no dtype for: "
                         f"pass a torch.bfloat16 tensor")
    expected = spec.numpy_dtype if spec.numpy_dtype is not None else \
        _BF16_BITS
    if array.dtype != expected:
        native = array.dtype.newbyteorder("=")
        if native == expected and convert:
            array = array.astype(expected)
        else:
            raise DTypeError(f"{what}: expected element type "
                             f"{spec.dtype}, got {dtype_text(array, runtime)}")
    if array.ndim != spec.rank:
        raise ArgumentError(f"{what}: expected rank {spec.rank}, got "
                            f"{array.ndim} (shape {list(array.shape)})")
    for d, (dim, size) in enumerate(zip(spec.dims, array.shape)):
        if dim is not None and dim != size:
            raise ArgumentError(f"{what}: dim {d} must be {dim}, got {size} "
                                f"(shape {list(array.shape)})")
    return array


def element_strides(array):
    """The array's strides in elements, or None where nd cannot take them
    (not multiples of the element size) and the array must be copied."""
    itemsize = array.itemsize
    if any(s % itemsize for s in array.strides):
        return None
    return [s // itemsize for s in array.strides]


def byte_extent(array):
    """[low, high) of the bytes `array` spans."""
    low = high = array.__array_interface__["data"][0]
    for size, stride in zip(array.shape, array.strides):
        if size == 0:
            return low, low
        if stride < 0:
            low += stride * (size - 1)
        else:
            high += stride * (size - 1)
    return low, high + array.itemsize


def fill(tensor, array, code, keep, contiguous_only=False):
    """Points nd_tensor `tensor` at `array`, with `code` its nd dtype;
    appends the ctypes arrays of its shape and strides to `keep`. A layout
    nd cannot take (strides not in whole elements, misaligned data) is
    copied first, unless `contiguous_only`, where the caller has checked
    that it is row-major already. Returns the array the tensor describes."""
    rank = array.ndim
    strides = None
    if not array.flags.c_contiguous:
        strides = element_strides(array) if array.flags.aligned else None
        if strides is None:
            array = np.ascontiguousarray(array)
    elif not array.flags.aligned:
        array = array.copy()
    if rank:
        shape = (ctypes.c_int64 * rank)(*array.shape)
        keep.append(shape)
        tensor.shape = shape
        if strides is not None:
            stride_array = (ctypes.c_int64 * rank)(*strides)
            keep.append(stride_array)
            tensor.strides = stride_array
    tensor.data = array.__array_interface__["data"][0] or None
    tensor.dtype = code
    tensor.rank = rank
    return array


class OwnedBuffer:
    """An output buffer that nd allocated, exposed to numpy through the
    array interface: the array made from it keeps it alive, and
    nd_tensor_free releases it when the array (and every view of it) is
    collected. No copy is made."""

    def __init__(self, runtime, tensor, data, dtype, shape):
        self._free = runtime.free
        self._tensor = Tensor.from_buffer_copy(tensor)
        self.__array_interface__ = {
            "version": 3, "shape": shape, "typestr": dtype.str,
            "data": (data, False)}

    def __del__(self):
        free = self._free
        if free is not None:
            self._free = None
            free(ctypes.byref(self._tensor))


def owned_array(runtime, tensor, spec):
    """The numpy array of an output nd allocated (int16 bits for bf16). An
    output without elements is released at once and an empty array
    returned."""
    shape = tuple(tensor.shape[:spec.rank])
    dtype = spec.numpy_dtype if spec.numpy_dtype is not None else _BF16_BITS
    data = tensor.data
    if not data or 0 in shape:
        runtime.free(ctypes.byref(tensor))
        return np.empty(shape, dtype)
    return np.asarray(OwnedBuffer(runtime, tensor, data, dtype, shape))


def to_torch(array, spec):
    """A torch tensor that shares `array`'s memory (bf16 from its int16
    bits)."""
    torch = torch_module()
    tensor = torch.from_numpy(array)
    if spec.dtype == "bf16":
        tensor = tensor.view(torch.bfloat16)
    return tensor


def torch_can_hold(spec):
    """Whether this torch has the element type of `spec`."""
    if spec.dtype == "bf16":
        return True
    try:
        to_torch(np.empty(0, spec.numpy_dtype), spec)
    except (TypeError, RuntimeError):
        return False
    return True
