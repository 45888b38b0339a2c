"""The C interface of nd's runtime (include/nd-c/Runtime.h) through ctypes,
for the scripts that call compiled libraries directly (fuzz-api.py,
fuzz-allocations.py, and gpu_compiled.py on the GPU machine, beside which
gpu-prepare.sh copies this file): the structs, the dtype codes of numpy arrays, and the
runtime's functions with their types."""

import ctypes

import numpy as np

# nd_dtype (nd/Runner/DTypes.def) of each numpy dtype.
DTYPES = {np.dtype(np.bool_): 0, np.dtype(np.int8): 1, np.dtype(np.int16): 2,
          np.dtype(np.int32): 3, np.dtype(np.int64): 4,
          np.dtype(np.uint8): 5, np.dtype(np.uint16): 6,
          np.dtype(np.uint32): 7, np.dtype(np.uint64): 8,
          np.dtype(np.float16): 9, np.dtype(np.float32): 11,
          np.dtype(np.float64): 12, np.dtype(np.complex64): 13,
          np.dtype(np.complex128): 14}
F32, I64 = 11, 4


class Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("dtype", ctypes.c_int32), ("rank", ctypes.c_int32),
                ("owner", ctypes.c_void_p)]


class Context(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_int32), ("status", ctypes.c_int32),
                ("message", ctypes.c_char_p),
                ("message_size", ctypes.c_size_t),
                ("message_length", ctypes.c_size_t),
                ("copied_outputs", ctypes.c_int32)]


def int64s(values):
    """A C array of int64 (at least one element: never a NULL pointer)."""
    return (ctypes.c_int64 * max(len(values), 1))(*values)


def tensor_of(array, keep):
    """An nd_tensor describing the contiguous numpy `array` (appended, with
    its shape, to `keep`, which must outlive the call)."""
    shape = int64s(list(array.shape))
    keep += [array, shape]
    return Tensor(array.ctypes.data if array.size else None, shape, None,
                  DTYPES[array.dtype], array.ndim, None)


def load_runtime(path):
    """libnd_runtime.so with the types of the functions the fuzzers call."""
    lib = ctypes.CDLL(path)
    for name, restype in (("nd_status_string", ctypes.c_char_p),
                          ("nd_dtype_name", ctypes.c_char_p),
                          ("nd_dtype_size", ctypes.c_size_t)):
        function = getattr(lib, name)
        function.restype = restype
        function.argtypes = [ctypes.c_int32]
    lib.nd_tensor_free.argtypes = [ctypes.c_void_p]
    lib.nd_tensor_free.restype = None
    lib.nd_set_threads.argtypes = [ctypes.c_void_p, ctypes.c_int32]
    lib.nd_set_threads.restype = None
    return lib


def load_entry(path, name):
    """The entry `name` of a library nd-compile built."""
    entry = getattr(ctypes.CDLL(path), name)
    entry.restype = ctypes.c_int32
    entry.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t,
                      ctypes.c_void_p, ctypes.c_size_t]
    return entry
