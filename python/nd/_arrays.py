"""Arrays in and out of a call: numpy arrays, torch CPU tensors (through
`Tensor.numpy()`, which shares their memory) and other DLPack producers
(through numpy.from_dlpack), checked against an entry's signature; nd's
output buffers as numpy arrays (or torch tensors) that own them.

One casting rule for every input that is not donated: numpy's `same_kind`
(numpy.can_cast(given, expected, "same_kind")). An array, tensor or list of
another element type is converted when the rule allows it (f64 into f32, i32
into i64, a list of Python ints into i64 or f32) and refused with a
DTypeError when it does not (float into int, int into bool, i64 into u8). A
donated input and an `out=` buffer are used in place: they must have the
entry's element type."""

from __future__ import annotations

import ctypes
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, List, Optional, Tuple

import numpy as np

from ._errors import ArgumentError, DTypeError
from ._runtime import Runtime, Tensor

if TYPE_CHECKING:
    from ._module import TensorSpec

# DLPack's kDLCPU.
_DLPACK_CPU = 1
# How bf16 elements travel through numpy: their bits.
BF16_BITS = np.dtype(np.int16)
# numpy's dtype kinds of numbers (and bool).
_NUMERIC_KINDS = "biufc"


def torch_module() -> Optional[ModuleType]:
    """torch, if this process imported it (a torch tensor can only come from
    a process that did: nd never imports it on its own)."""
    return sys.modules.get("torch")


def is_torch_tensor(value: Any) -> bool:
    torch = torch_module()
    return torch is not None and isinstance(value, torch.Tensor)


def describe(what: str, position: int, spec: "TensorSpec") -> str:
    """"input #1 ('indices')", as nd's messages say it."""
    text = f"{what} #{position}"
    return f"{text} ('{spec.name}')" if spec.name else text


def dtype_text(dtype: np.dtype, runtime: Runtime) -> str:
    """An element type in nd's words where nd has it."""
    for known in runtime.dtypes.values():
        if known.numpy is not None and known.numpy == dtype:
            return known.name
    return str(dtype)


# ---------------------------------------------------------------------------
# The data pointer of a numpy array
# ---------------------------------------------------------------------------

def _interface_address(array: np.ndarray) -> int:
    return array.__array_interface__["data"][0]


def _find_data_offset() -> Optional[int]:
    """Where a numpy array object holds its data pointer: numpy's C struct
    (PyArrayObject_fields, whose layout every compiled numpy extension relies
    on) puts it right after the object header, 16 bytes on a 64-bit release
    build of CPython. Checked here against __array_interface__ on arrays
    with and without an offset into their buffer; None where it does not
    hold (the slower __array_interface__ is used then)."""
    offset = 2 * ctypes.sizeof(ctypes.c_void_p)
    base = np.arange(11, dtype=np.int64)
    probes = (base, base[3:], base[::-2], np.zeros((2, 3), np.float32).T)
    for probe in probes:
        found = ctypes.c_void_p.from_address(id(probe) + offset).value
        if found != _interface_address(probe):
            return None
    return offset


_DATA_OFFSET = _find_data_offset()


def _offset_address(array: np.ndarray,
                    _read: Callable[[int], ctypes.c_void_p] =
                    ctypes.c_void_p.from_address,
                    _offset: int = _DATA_OFFSET or 0) -> int:
    return _read(id(array) + _offset).value or 0


#: The address of a numpy array's first element: a field read in about
#: 0.1 us where __array_interface__ takes about 1 us (a call's inputs and
#: outputs are read on every call).
data_address: Callable[[np.ndarray], int] = \
    _offset_address if _DATA_OFFSET is not None else _interface_address


# ---------------------------------------------------------------------------
# Inputs and outputs
# ---------------------------------------------------------------------------

def _torch_as_array(value: Any, spec: "TensorSpec",
                    what: str) -> np.ndarray:
    """A torch CPU tensor as a numpy array over its memory (bf16 as the
    int16 view of its bits)."""
    torch = torch_module()
    if value.device.type != "cpu":
        raise ArgumentError(
            f"{what} is a torch tensor on {value.device}; this module "
            f"runs on the CPU (target 'cpu'): pass a CPU tensor (.cpu())")
    tensor = value.detach()
    if tensor.dtype == torch.bfloat16:
        if spec.dtype != "bf16":
            raise DTypeError(f"{what}: expected element type {spec.dtype}, "
                             f"got bf16")
        return tensor.view(torch.int16).numpy()
    if spec.dtype == "bf16":
        raise DTypeError(f"{what}: expected element type bf16, got "
                         f"{tensor.dtype}")
    try:
        return tensor.numpy()
    except (TypeError, RuntimeError) as error:
        raise DTypeError(f"{what}: {error}") from None


def _other_as_array(value: Any, spec: "TensorSpec", what: str) -> np.ndarray:
    """What numpy.asarray makes of a value that is no array (a list, a
    number), or an ArgumentError naming the input."""
    if spec.donated:
        raise ArgumentError(f"{what} is donated: pass an array (numpy or "
                            f"torch) for the call to update in place, not "
                            f"{type(value).__name__}")
    if isinstance(value, (str, bytes)):
        raise ArgumentError(f"{what} is a {type(value).__name__}, not an "
                            f"array: pass a numpy array, a torch tensor or "
                            f"a (nested) list of numbers")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as error:
        raise ArgumentError(f"{what}: numpy cannot make an array of the "
                            f"{type(value).__name__} given ({error})") \
            from None
    if array.dtype.kind not in _NUMERIC_KINDS:
        raise ArgumentError(f"{what}: numpy makes an array of "
                            f"{array.dtype} of the {type(value).__name__} "
                            f"given, not one of numbers")
    return array


def as_array(value: Any, spec: "TensorSpec", what: str) -> Tuple[np.ndarray,
                                                                  bool]:
    """(a numpy array that shares `value`'s memory where it can, whether
    `value` is a torch tensor). bf16 tensors come as int16 views of their
    bits."""
    if isinstance(value, np.ndarray):
        return value, False
    if is_torch_tensor(value):
        return _torch_as_array(value, spec, what), True
    if hasattr(value, "__dlpack__") and hasattr(np, "from_dlpack"):
        device = value.__dlpack_device__()[0]
        if device != _DLPACK_CPU:
            raise ArgumentError(
                f"{what} is on DLPack device {device}, not the CPU; this "
                f"module runs on the CPU (target 'cpu')")
        return np.from_dlpack(value), False
    return _other_as_array(value, spec, what), False


def _refusal(array: np.ndarray, spec: "TensorSpec", what: str,
             runtime: Runtime, convert: bool) -> DTypeError:
    got = dtype_text(array.dtype, runtime)
    text = f"{what}: expected element type {spec.dtype}, got {got}"
    if convert:
        text += (f" (numpy's same_kind casting, which nd converts inputs "
                 f"under, does not take {got} to {spec.dtype})")
    return DTypeError(text)


def check_array(array: np.ndarray, spec: "TensorSpec", what: str,
                from_torch: bool, runtime: Runtime,
                convert: bool) -> np.ndarray:
    """`array` as the call takes it, or an exception: its element type, rank
    and static dims must be the signature's. Where `convert` allows a copy
    (an input that is not donated), another element type is converted under
    numpy's same_kind casting."""
    if spec.dtype == "bf16" and not from_torch:
        raise DTypeError(f"{what} is bf16, which numpy has no dtype for: "
                         f"pass a torch.bfloat16 tensor")
    expected = spec.numpy_dtype if spec.numpy_dtype is not None else \
        BF16_BITS
    if array.dtype != expected and (
            not convert or spec.numpy_dtype is None or
            not np.can_cast(array.dtype, expected, "same_kind")):
        raise _refusal(array, spec, what, runtime, convert)
    # The shape first: a conversion copies the whole array.
    if array.ndim != spec.rank:
        raise ArgumentError(f"{what}: expected rank {spec.rank}, got "
                            f"{array.ndim} (shape {list(array.shape)})")
    for d, (dim, size) in enumerate(zip(spec.sizes, array.shape)):
        if dim is not None and dim != size:
            raise ArgumentError(f"{what}: dim {d} must be {dim}, got {size} "
                                f"(shape {list(array.shape)})")
    if array.dtype != expected:
        try:
            array = array.astype(expected)
        except MemoryError:
            raise ArgumentError(
                f"{what}: converting {array.dtype} to {spec.dtype} needs a "
                f"copy of {array.size} elements, which cannot be allocated "
                f"(shape {list(array.shape)})") from None
    return array


def element_strides(array: np.ndarray) -> Optional[List[int]]:
    """The array's strides in elements, or None where nd cannot take them
    (not multiples of the element size) and the array must be copied."""
    itemsize = array.itemsize
    if any(s % itemsize for s in array.strides):
        return None
    return [s // itemsize for s in array.strides]


def byte_extent(array: np.ndarray) -> Tuple[int, int]:
    """[low, high) of the bytes `array` spans."""
    low = high = data_address(array)
    for size, stride in zip(array.shape, array.strides):
        if size == 0:
            return low, low
        if stride < 0:
            low += stride * (size - 1)
        else:
            high += stride * (size - 1)
    return low, high + array.itemsize


def fill(tensor: Tensor, array: np.ndarray, code: int,
         keep: List[Any]) -> np.ndarray:
    """Points nd_tensor `tensor` at `array`, with `code` its nd dtype;
    appends the ctypes arrays of its shape and strides to `keep`. A layout
    nd cannot take (strides not in whole elements, misaligned data) is
    copied first. Returns the array the tensor describes."""
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
    tensor.data = data_address(array) or None
    tensor.dtype = code
    tensor.rank = rank
    return array


class OwnedBuffer:
    """An output buffer that nd allocated, exposed to numpy through the
    array interface: the array made from it keeps it alive, and
    nd_tensor_free releases it when the array (and every view of it) is
    collected. No copy is made."""

    __slots__ = ("_free", "_tensor", "__array_interface__")

    def __init__(self, free: Callable[[Any], None], tensor: Tensor, data: int,
                 typestr: str, shape: Tuple[int, ...]) -> None:
        self._free: Optional[Callable[[Any], None]] = free
        self._tensor = Tensor.from_buffer_copy(tensor)
        self.__array_interface__ = {
            "version": 3, "shape": shape, "typestr": typestr,
            "data": (data, False)}

    def __del__(self) -> None:
        free = self._free
        if free is not None:
            self._free = None
            free(ctypes.byref(self._tensor))


def owned_array(free: Callable[[Any], None], tensor: Tensor,
                shape: Tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """The numpy array of an output nd allocated, of `shape` and `dtype`
    (int16 bits for bf16). An output without elements is released at once
    and an empty array returned."""
    data = tensor.data
    if not data or 0 in shape:
        free(ctypes.byref(tensor))
        return np.empty(shape, dtype)
    return np.asarray(OwnedBuffer(free, tensor, data, dtype.str, shape))


def to_torch(array: np.ndarray, spec: "TensorSpec") -> Any:
    """A torch tensor that shares `array`'s memory (bf16 from its int16
    bits)."""
    torch = torch_module()
    assert torch is not None
    tensor = torch.from_numpy(array)
    if spec.dtype == "bf16":
        tensor = tensor.view(torch.bfloat16)
    return tensor


def torch_dtype(spec: "TensorSpec") -> Any:
    """torch's dtype for the element type of `spec`, or None where this
    torch has none."""
    torch = torch_module()
    if torch is None:
        return None
    if spec.dtype == "bf16":
        return torch.bfloat16
    try:
        return torch.from_numpy(np.empty(0, spec.numpy_dtype)).dtype
    except (TypeError, RuntimeError):
        return None


def torch_can_hold(spec: "TensorSpec") -> bool:
    """Whether this torch has the element type of `spec`."""
    return torch_dtype(spec) is not None
