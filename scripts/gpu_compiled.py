#!/usr/bin/env python3
"""nd's GPU check of a library that `nd-compile --target=cuda` built
(libkv_cuda.so, from test/nd-compile/Inputs/kv_update.mlir with input 0
donated: a 4x3 f32 cache updated in place at `rows` with `values`, then rows
`ids` of it gathered), through its C entry points
(include/nd-c/CudaRuntime.h):

  gpu_compiled.py DIR

- the host form (kv_host) on numpy arrays: the cache updated in place and
  handed back as output 0, the gathered rows in a buffer nd allocated;
- an id out of range: ND_ERROR_CHECK_FAILED with nd's message, and the next
  call works;
- the device form (kv) on device buffers on the legacy default stream and,
  with torch, on torch's current stream and on a stream of torch's whose
  inputs are written behind a kernel that keeps the GPU busy (a call that
  ran on another stream would read them before they are there): the same
  values, read back from the GPU;
- an id out of range in the device form: the call returns at once, and the
  failure (nd's message) comes from the next call on the stream, or from
  nd_cuda_synchronize, and the call after it works.

Expected values come from numpy. Exit status 0 when everything passed, 1 on
a failure, 2 without a usable GPU (the library still loads, and a call
returns the driver's status). Needs python3 and numpy (torch optional).
"""

import ctypes
import os
import sys

import numpy as np

ND_DTYPE_I64 = 4
ND_DTYPE_F32 = 11
ND_ERROR_CHECK_FAILED = 2

# nd_tensor and nd_context of nd-c/Runtime.h: nd_c_api.py, which
# gpu-prepare.sh copies beside this script.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nd_c_api import Context, Tensor  # noqa: E402


def tensor(pointer, shape, dtype, keep):
    dims = (ctypes.c_int64 * max(len(shape), 1))(*shape)
    keep.append(dims)
    return Tensor(pointer, ctypes.cast(dims, ctypes.POINTER(ctypes.c_int64)),
                  None, dtype, len(shape), None)


def inputs_of(ids):
    """The call's inputs and the results numpy expects."""
    cache = np.arange(12, dtype=np.float32).reshape(4, 3)
    rows = np.array([[2], [0]], np.int64)
    values = np.array([[100, 101, 102], [200, 201, 202]], np.float32)
    ids = np.array(ids, np.int64)
    updated = cache.copy()
    updated[rows[:, 0]] = values
    # (No rows to expect where an id is out of range: the call fails.)
    valid = bool(np.all((ids >= -4) & (ids < 4)))
    return [cache, rows, values, ids], updated, updated[ids] if valid else None


class Library:
    def __init__(self, directory):
        self.runtime = ctypes.CDLL(
            os.path.join(directory, "libnd_cuda_runtime.so"),
            mode=ctypes.RTLD_GLOBAL)
        self.runtime.nd_cuda_tensor_free.argtypes = [ctypes.POINTER(Tensor)]
        self.runtime.nd_cuda_alloc.restype = ctypes.c_void_p
        self.runtime.nd_cuda_alloc.argtypes = [ctypes.c_size_t]
        self.runtime.nd_cuda_free.argtypes = [ctypes.c_void_p,
                                              ctypes.c_void_p]
        self.runtime.nd_cuda_copy.argtypes = [ctypes.c_void_p,
                                              ctypes.c_void_p,
                                              ctypes.c_size_t]
        self.runtime.nd_cuda_synchronize.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
        self.lib = ctypes.CDLL(os.path.join(directory, "libkv_cuda.so"))
        self.host = self.lib.kv_host
        self.host.argtypes = [ctypes.POINTER(Context), ctypes.POINTER(Tensor),
                              ctypes.c_size_t, ctypes.POINTER(Tensor),
                              ctypes.c_size_t]
        self.device = self.lib.kv
        self.device.argtypes = [ctypes.POINTER(Context), ctypes.c_void_p,
                                ctypes.POINTER(Tensor), ctypes.c_size_t,
                                ctypes.POINTER(Tensor), ctypes.c_size_t]
        self.message = ctypes.create_string_buffer(4096)
        self.context = Context(0, 0, ctypes.cast(self.message,
                                                 ctypes.c_char_p),
                               len(self.message), 0)

    def call_host(self, ids):
        """(status, message, cache, gathered, expected cache, expected
        rows, whether output 0 is the cache's buffer)."""
        arrays, updated, gathered = inputs_of(ids)
        keep = []
        dtypes = [ND_DTYPE_F32, ND_DTYPE_I64, ND_DTYPE_F32, ND_DTYPE_I64]
        inputs = (Tensor * 4)(*[tensor(a.ctypes.data, a.shape, d, keep)
                                for a, d in zip(arrays, dtypes)])
        outputs = (Tensor * 2)()
        status = self.host(ctypes.byref(self.context), inputs, 4, outputs, 2)
        message = self.message.value.decode(errors="replace")
        if status != 0:
            return status, message, None, None, updated, gathered, False
        same = outputs[0].data == arrays[0].ctypes.data
        shape = tuple(outputs[1].shape[d] for d in range(2))
        got = np.ctypeslib.as_array(
            ctypes.cast(outputs[1].data, ctypes.POINTER(ctypes.c_float)),
            shape).copy()
        for k in range(2):
            self.runtime.nd_cuda_tensor_free(ctypes.byref(outputs[k]))
        return status, message, arrays[0], got, updated, gathered, same

    def synchronize(self, stream):
        message = ctypes.create_string_buffer(4096)
        status = self.runtime.nd_cuda_synchronize(stream, message,
                                                  len(message))
        return status, message.value.decode(errors="replace")

    def call_device(self, ids, where="default"):
        """The device form on nd_cuda_alloc buffers and the legacy default
        stream, or on torch tensors and torch's current stream ("default")
        or a busy stream of torch's ("side"). The status is the call's own:
        its failed check comes from nd_cuda_synchronize."""
        arrays, updated, gathered = inputs_of(ids)
        keep = []
        dtypes = [ND_DTYPE_F32, ND_DTYPE_I64, ND_DTYPE_F32, ND_DTYPE_I64]
        torch = torch_with_cuda()
        stream = None
        if torch:
            buffers = [torch.from_numpy(a).cuda() for a in arrays]
            torch.cuda.synchronize()
            side = torch.cuda.current_stream()
            if where == "side":
                # The inputs land on a stream of torch's behind a kernel
                # that keeps the GPU busy for a while (copies between
                # device buffers do not make the host wait): a call that
                # ran on another stream would read them before they are
                # there.
                side = torch.cuda.Stream()
                with torch.cuda.stream(side):
                    torch.cuda._sleep(200_000_000)
                    sources = buffers  # alive until the stream has run
                    buffers = [torch.empty_like(b).copy_(b) for b in sources]
                    keep.append(sources)
            pointers = [b.data_ptr() for b in buffers]
            stream = side.cuda_stream or None
        else:
            pointers = []
            for a in arrays:
                pointer = self.runtime.nd_cuda_alloc(a.nbytes)
                self.runtime.nd_cuda_copy(pointer, a.ctypes.data, a.nbytes)
                pointers.append(pointer)
        inputs = (Tensor * 4)(*[tensor(p, a.shape, d, keep)
                                for p, a, d in zip(pointers, arrays, dtypes)])
        outputs = (Tensor * 2)()
        status = self.device(ctypes.byref(self.context), stream, inputs, 4,
                             outputs, 2)
        message = self.message.value.decode(errors="replace")
        if status == 0:
            status, message = self.synchronize(stream)
        cache = np.zeros((4, 3), np.float32)
        got = None
        if status == 0:
            same = outputs[0].data == pointers[0]
            self.runtime.nd_cuda_copy(cache.ctypes.data, pointers[0],
                                      cache.nbytes)
            shape = tuple(outputs[1].shape[d] for d in range(2))
            got = np.zeros(shape, np.float32)
            self.runtime.nd_cuda_copy(got.ctypes.data, outputs[1].data,
                                      got.nbytes)
            message = f"output 0 is the cache's buffer: {same}"
        for k in range(2):
            self.runtime.nd_cuda_tensor_free(ctypes.byref(outputs[k]))
        if not torch:
            for pointer in pointers:
                self.runtime.nd_cuda_free(pointer, None)
        return status, message, cache, got, updated, gathered

    def device_error(self):
        """A failed check of the device form: reported by the next call on
        the stream (which runs nothing), then by nd_cuda_synchronize; the
        call after each works. Returns what went wrong, or None."""
        stream = None
        torch = torch_with_cuda()
        if torch:
            stream = torch.cuda.current_stream().cuda_stream or None
        problems = []
        for reporter in ("next call", "synchronize"):
            arrays, _, _ = inputs_of([2, 4])
            pointers = [self.runtime.nd_cuda_alloc(a.nbytes) for a in arrays]
            for p, a in zip(pointers, arrays):
                self.runtime.nd_cuda_copy(p, a.ctypes.data, a.nbytes)
            keep = []
            dtypes = [ND_DTYPE_F32, ND_DTYPE_I64, ND_DTYPE_F32, ND_DTYPE_I64]
            inputs = (Tensor * 4)(*[tensor(p, a.shape, d, keep) for p, a, d
                                    in zip(pointers, arrays, dtypes)])
            outputs = (Tensor * 2)()
            status = self.device(ctypes.byref(self.context), stream, inputs,
                                 4, outputs, 2)
            if status != 0:
                problems.append(f"the failing call returned {status}")
            if reporter == "next call":
                status = self.device(ctypes.byref(self.context), stream,
                                     inputs, 4, (Tensor * 2)(), 2)
                message = self.message.value.decode(errors="replace")
            else:
                status, message = self.synchronize(stream)
            if status != ND_ERROR_CHECK_FAILED or "out of range" not in \
                    message:
                problems.append(f"{reporter}: status {status}: {message}")
            for k in range(2):
                self.runtime.nd_cuda_tensor_free(ctypes.byref(outputs[k]))
            for pointer in pointers:
                self.runtime.nd_cuda_free(pointer, stream)
            status, message, _, got, _, gathered = self.call_device([1])
            if status != 0 or not np.array_equal(got, gathered):
                problems.append(f"after the {reporter}'s report: status "
                                f"{status}: {message}")
        return "; ".join(problems) or None


def torch_with_cuda():
    """torch, where it has CUDA."""
    try:
        import torch
    except ImportError:
        return None
    return torch if torch.cuda.is_available() else None


def main(directory):
    library = Library(directory)
    status, message, *_ = library.call_host([2, 2, 3])
    if status == 5:
        print(f"compiled: libkv_cuda.so loaded; without a usable GPU a call "
              f"returns status {status}: {message}")
        return 2
    failures = []
    status, message, cache, got, updated, gathered, same = \
        library.call_host([2, 2, 3])
    if status != 0:
        failures.append(f"host form: status {status}: {message}")
    elif not (np.array_equal(cache, updated) and
              np.array_equal(got, gathered) and same):
        failures.append(f"host form: cache {cache.tolist()} (expected "
                        f"{updated.tolist()}), rows {got.tolist()} "
                        f"(expected {gathered.tolist()}), output 0 is the "
                        f"cache {same}")
    status, message, *_ = library.call_host([2, 4])
    if status != ND_ERROR_CHECK_FAILED or "out of range" not in message:
        failures.append(f"id 4 of 4 rows: status {status}: {message}")
    status, message, cache, got, updated, gathered, _ = \
        library.call_host([1])
    if status != 0 or not np.array_equal(got, gathered):
        failures.append(f"the call after the error: status {status}: "
                        f"{message}")
    torch = torch_with_cuda()
    places = ["default", "side"] if torch else ["default"]
    for where in places:
        status, message, cache, got, updated, gathered = \
            library.call_device([3, 0], where)
        what = {"default": "torch's current stream" if torch else
                "the legacy default stream",
                "side": "a busy stream of torch's"}[where]
        if status != 0:
            failures.append(f"device form ({what}): status {status}: "
                            f"{message}")
        elif not (np.array_equal(cache, updated) and
                  np.array_equal(got, gathered)) or "True" not in message:
            failures.append(f"device form ({what}): cache {cache.tolist()}, "
                            f"rows {got.tolist()}, {message}")
    problem = library.device_error()
    if problem:
        failures.append(f"device form, id out of range: {problem}")
    where = ", ".join(places)
    for failure in failures:
        print("FAIL compiled:", failure)
    print(f"compiled: libkv_cuda.so (nd-compile --target=cuda), host and "
          f"device forms (streams: {where}), asynchronous errors: "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
