"""A library that nd-compile built, called with numpy arrays or torch
tensors (include/nd-c/Runtime.h)."""

import ctypes
import os
import re
import threading

import numpy as np

from . import _arrays
from . import _cuda
from ._errors import ArgumentError, DTypeError, Error
from ._runtime import (ABI_VERSION, DYNAMIC, ENTRY_TYPE, STATUS_NAMES,
                       Context, Signature, Tensor, runtime)

# Bytes for a failed call's message; a longer one is cut (and says so).
_MESSAGE_SIZE = 4096

class TensorSpec:
    """One input or output of an entry, as its signature describes it.

    name: the model's name of the input ("" when none; outputs: "").
    dtype: nd's name of the element type ("f32", "bf16", "bool", ...).
    numpy_dtype: numpy's dtype for it (None for bf16).
    rank, dims: dims holds a size or None (known at run time only).
    donated: (inputs) the call updates this input in place.
    alias: (outputs) the position of the donated input whose buffer this
        output is, or None for a fresh buffer."""

    __slots__ = ("name", "dtype", "numpy_dtype", "code", "rank", "dims",
                 "donated", "alias")

    def __init__(self, tensor_type, dtypes):
        dtype = dtypes.get(tensor_type.dtype)
        if dtype is None:
            raise Error(f"element type #{tensor_type.dtype} is not one of "
                        f"nd's runtime's")
        self.name = (tensor_type.name or b"").decode()
        self.dtype = dtype.name
        self.numpy_dtype = dtype.numpy
        self.code = dtype.code
        self.rank = tensor_type.rank
        self.dims = tuple(None if tensor_type.dims[d] == DYNAMIC
                          else tensor_type.dims[d]
                          for d in range(tensor_type.rank))
        self.donated = bool(tensor_type.donated)
        self.alias = tensor_type.alias if tensor_type.alias >= 0 else None

    def __repr__(self):
        dims = ", ".join("?" if d is None else str(d) for d in self.dims)
        text = f"{self.dtype}[{dims}]"
        if self.name:
            text = f"{self.name}: {text}"
        if self.donated:
            text += " (donated)"
        if self.alias is not None:
            text += f" (input #{self.alias})"
        return text


def default_entry(path):
    """The entry nd-compile names after its output, NAME of libNAME.so."""
    name = os.path.basename(path)
    stem, extension = os.path.splitext(name)
    if extension == ".so" and stem.startswith("lib"):
        stem = stem[3:]
    symbol = re.sub(r"[^A-Za-z0-9_]", "_", stem)
    if not symbol or symbol[0].isdigit():
        symbol = "_" + symbol
    return symbol


class Module:
    """A compiled model: its entry and signature, callable with arrays.

        module = nd.load("libmodel.so")
        out = module(data, indices, updates)        # numpy in, numpy out
        out = module(t_data, t_indices, t_updates)  # torch in, torch out

    Inputs are numpy arrays (any strides: strided inputs are passed with
    their strides and nd reads them through a contiguous copy), torch CPU
    tensors, other DLPack producers, or (not donated) anything
    numpy.asarray takes. Their element types, ranks and static dims are
    checked before the call. Outputs are numpy arrays that own nd's buffers
    (no copy: nd_tensor_free releases each when the array is collected), or
    torch tensors over the same buffers when an input or `out` is a torch
    tensor. A donated input is updated in place, and the output that is its
    buffer is that very object. One output comes back as itself, several as
    a tuple.

    `out=`: an array (one output) or a sequence with one array or None per
    output: nd copies the result into each array given (that costs one
    copy) and returns it. `threads=`: the threads of this call (default:
    `Module.threads`). A failed call raises nd.Error with nd's message; the
    module, and the process, go on.

    `Module.bind(...)` makes a call bound to its buffers once, to be run
    many times (a decoder's loop, a benchmark).

    A module of target "cuda" (nd-compile --target=cuda) takes the same
    inputs and gives the same outputs through its entry's host form (the
    inputs copied to the GPU, the results back). Called with torch CUDA
    tensors, it runs the device form instead: on torch's current stream,
    the results torch CUDA tensors, nothing copied through the host (an
    output whose shape is known only after the call is copied once, on the
    device, into a tensor of torch's). Without a CUDA driver a call raises
    nd.Error with the runtime's message ("no CUDA driver: ..."); the module
    stays usable."""

    def __init__(self, path, entry=None, from_cache=None, target=None):
        self._runtime = runtime()
        self.path = os.path.abspath(os.fspath(path))
        self.entry = entry or default_entry(self.path)
        #: True when nd.compile found the library in its cache, False when
        #: it compiled it, None for nd.load.
        self.from_cache = from_cache
        if target == "cuda":
            _cuda.cuda_runtime()
        try:
            self._library = ctypes.CDLL(self.path)
        except OSError as error:
            if target is not None or _cuda.CUDA_RUNTIME_NAME not in \
                    str(error):
                raise Error(f"cannot load {self.path}: {error}") from None
            # nd.load of a GPU library: the CUDA runtime first.
            _cuda.cuda_runtime()
            try:
                self._library = ctypes.CDLL(self.path)
            except OSError as again:
                raise Error(f"cannot load {self.path}: {again}") from None
        #: "cpu", or "cuda" for a library nd-compile --target=cuda built.
        self.target = "cpu"
        self._device_function = None
        self._allocator = self._runtime
        try:
            self._device_function = _cuda.CUDA_ENTRY_TYPE(
                (self.entry, self._library))
            getattr(self._library, self.entry + _cuda.HOST_SUFFIX)
            self.target = "cuda"
            self._allocator = _cuda.cuda_runtime()
        except (AttributeError, ValueError):
            self._device_function = None
        try:
            signature = Signature.in_dll(self._library,
                                         self.entry + "_signature")
            name = self.entry + (_cuda.HOST_SUFFIX if self.target == "cuda"
                                 else "")
            function = ENTRY_TYPE((name, self._library))
        except ValueError:
            raise Error(f"{self.path} exports no entry '{self.entry}' with "
                        f"'{self.entry}_signature': name the entry that "
                        f"nd-compile --entry gave it (entry=...)") from None
        if signature.abi_version != ABI_VERSION:
            raise Error(f"{self.path} was built for nd's ABI version "
                        f"{signature.abi_version}; the runtime speaks "
                        f"version {ABI_VERSION}", status="ABI mismatch",
                        code=4)
        self._signature = signature
        self._function = function
        dtypes = self._runtime.dtypes
        self.inputs = tuple(TensorSpec(signature.inputs[i], dtypes)
                            for i in range(signature.num_inputs))
        self.outputs = tuple(TensorSpec(signature.outputs[k], dtypes)
                             for k in range(signature.num_outputs))
        #: The positions of the donated inputs.
        self.donated = tuple(i for i, spec in enumerate(self.inputs)
                             if spec.donated)

    @property
    def threads(self):
        """The default thread count of this library's calls (0: OpenMP's,
        OMP_NUM_THREADS or every core). Modules of one library file share
        it."""
        return self._signature.threads

    @threads.setter
    def threads(self, count):
        count = _thread_count(count, "Module.threads")
        self._runtime.lib.nd_set_threads(ctypes.byref(self._signature), count)

    def __call__(self, *args, out=None, threads=None, **named):
        if self.target == "cuda":
            values = self._collect(args, named)
            if any(_cuda.is_device_tensor(v) for v in values):
                return _cuda.call_device(self, values, out)
            return BoundCall(self, values, out, threads)()
        return self.bind(*args, out=out, threads=threads, **named)()

    def bind(self, *args, out=None, threads=None, **named):
        """A call bound to these inputs, outputs and thread count: checked
        and prepared once, run by calling it (with no argument) as often as
        wanted on what the buffers hold then. Each run returns what a call
        of the module returns. Runs of one bound call take turns; separate
        calls and bound calls run at once from several threads."""
        values = self._collect(args, named)
        if any(_cuda.is_device_tensor(v) for v in values):
            raise ArgumentError(
                f"{self.entry}: a bound call takes host arrays"
                + (" (the host form); call the module itself with torch "
                   "CUDA tensors" if self.target == "cuda" else
                   f"; this module runs on the CPU (target 'cpu')"))
        return BoundCall(self, values, out, threads)

    def _collect(self, args, named):
        """The inputs, positional or by their model names."""
        if len(args) > len(self.inputs):
            raise ArgumentError(f"{self.entry} takes {len(self.inputs)} "
                                f"input(s), got {len(args)}")
        values = list(args) + [_MISSING] * (len(self.inputs) - len(args))
        names = {spec.name: i for i, spec in enumerate(self.inputs)
                 if spec.name}
        for name, value in named.items():
            if name not in names:
                raise ArgumentError(f"{self.entry} has no input named "
                                    f"'{name}' (inputs: {self._names()})")
            if values[names[name]] is not _MISSING:
                raise ArgumentError(f"input '{name}' is given twice")
            values[names[name]] = value
        missing = [_arrays.describe("input", i, self.inputs[i])
                   for i, value in enumerate(values) if value is _MISSING]
        if missing:
            raise ArgumentError(f"{self.entry} takes {len(self.inputs)} "
                                f"input(s); missing: {', '.join(missing)}")
        return values

    def _names(self):
        return ", ".join(spec.name or f"#{i}"
                         for i, spec in enumerate(self.inputs))

    def __repr__(self):
        inputs = ", ".join(repr(spec) for spec in self.inputs)
        outputs = ", ".join(repr(spec) for spec in self.outputs)
        return f"<nd.Module {self.entry}({inputs}) -> ({outputs}) from " \
               f"{self.path}>"


_MISSING = object()


def _thread_count(count, what):
    if count is None:
        return 0
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
        raise ArgumentError(f"{what} takes a thread count (an int), not "
                            f"{count!r}")
    if count < 0:
        raise ArgumentError(f"{what} must be 0 (the default) or more, not "
                            f"{count}")
    return int(count)


def _outputs_given(out, count):
    """`out` as one entry (an array or None) per output."""
    if out is None:
        return [None] * count
    if isinstance(out, (list, tuple)):
        if len(out) != count:
            raise ArgumentError(f"out= holds {len(out)} buffer(s); the entry "
                                f"has {count} output(s)")
        return list(out)
    if count != 1:
        raise ArgumentError(f"the entry has {count} outputs: give out= one "
                            f"buffer or None for each, in a tuple")
    return [out]


class BoundCall:
    """A call of a module bound to its buffers (Module.bind)."""

    def __init__(self, module, values, out, threads):
        runtime = module._runtime
        self._module = module
        self._runtime = runtime
        self._lock = threading.Lock()
        keep = []
        inputs = (Tensor * max(len(module.inputs), 1))()
        arrays = []
        torch_mode = False
        for i, (value, spec) in enumerate(zip(values, module.inputs)):
            what = _arrays.describe("input", i, spec)
            array, from_torch = _arrays.as_array(value, spec, what, runtime)
            torch_mode |= from_torch
            array = _arrays.check_array(array, spec, what, from_torch,
                                        runtime, convert=not spec.donated)
            if spec.donated:
                _check_donated(array, what)
            array = _arrays.fill(inputs[i], array, spec.code, keep)
            arrays.append(array)
        _check_sharing(module, arrays)

        given = _outputs_given(out, len(module.outputs))
        outputs = (Tensor * max(len(module.outputs), 1))()
        results = []
        fresh = []
        for k, (value, spec) in enumerate(zip(given, module.outputs)):
            what = _arrays.describe("output", k, spec)
            if spec.alias is not None:
                # The donated input's buffer, given as the output's: nd
                # computes into it and copies nothing.
                donor = values[spec.alias]
                if value is not None and value is not donor:
                    raise ArgumentError(
                        f"{what} is the buffer of donated input "
                        f"#{spec.alias}: give out= None or that input for it")
                array = arrays[spec.alias]
                _arrays.fill(outputs[k], array, spec.code, keep)
                results.append(donor)
                continue
            if value is None:
                fresh.append(k)
                results.append(None)
                continue
            array, from_torch = _arrays.as_array(value, spec, what, runtime)
            torch_mode |= from_torch
            array = _arrays.check_array(array, spec, what, from_torch,
                                        runtime, convert=False)
            if not array.flags.writeable:
                raise ArgumentError(f"{what}: the buffer is read-only")
            if not array.flags.aligned or \
                    _arrays.element_strides(array) is None:
                raise ArgumentError(f"{what}: the buffer's strides are not "
                                    f"in whole, aligned elements")
            _arrays.fill(outputs[k], array, spec.code, keep)
            results.append(value)

        for k in fresh:
            spec = module.outputs[k]
            what = _arrays.describe("output", k, spec)
            if torch_mode and not _arrays.torch_can_hold(spec):
                raise DTypeError(f"{what} is {spec.dtype}, which torch "
                                 f"{_arrays.torch_module().__version__} has "
                                 f"no dtype for: pass numpy arrays")
            if not torch_mode and spec.numpy_dtype is None:
                raise DTypeError(f"{what} is {spec.dtype}, which numpy has no "
                                 f"dtype for: pass torch tensors (or give "
                                 f"out= a torch.bfloat16 tensor)")

        self._keep = keep
        self._values = values
        self._input_pointers = {inputs[i].data for i in range(len(arrays))
                                if inputs[i].data}
        self._inputs = inputs
        self._outputs = outputs
        self._results = results
        self._fresh = fresh
        self._single = len(results) == 1
        self._torch = torch_mode
        self._message = ctypes.create_string_buffer(_MESSAGE_SIZE)
        self._context = Context(
            threads=_thread_count(threads, "threads="),
            message=ctypes.addressof(self._message),
            message_size=_MESSAGE_SIZE)
        self._arguments = (ctypes.addressof(self._context),
                           ctypes.addressof(inputs), len(module.inputs),
                           ctypes.addressof(outputs), len(module.outputs))

    def __call__(self):
        with self._lock:
            outputs = self._outputs
            for k in self._fresh:
                outputs[k].data = None
                outputs[k].owner = None
            status = self._module._function(*self._arguments)
            if status != 0:
                raise self._error(status)
            results = self._results
            if self._fresh:
                results = list(results)
                for k in self._fresh:
                    results[k] = self._take(k)
        if self._single:
            return results[0]
        return tuple(results) if results else None

    def _take(self, k):
        """Output k, which nd allocated, as an array that owns it."""
        spec = self._module.outputs[k]
        tensor = self._outputs[k]
        shared = tensor.data in self._input_pointers
        array = _arrays.owned_array(self._module._allocator, tensor, spec)
        if shared:
            # Runtime.h never hands an input's buffer over as a fresh
            # output; were it to, the array must not outlive that input.
            array = array.copy()
        return _arrays.to_torch(array, spec) if self._torch else array

    def _error(self, status):
        context = self._context
        message = self._message.value.decode(errors="replace")
        if context.message_length >= _MESSAGE_SIZE:
            message += f" [cut at {_MESSAGE_SIZE - 1} of " \
                       f"{context.message_length} characters]"
        name = STATUS_NAMES.get(status) or self._runtime.status_name(status)
        return Error(message, status=name, code=status)


def _check_donated(array, what):
    """A donated input is updated in place: it must be writable, row-major
    and aligned (Runtime.h)."""
    if not array.flags.writeable:
        raise ArgumentError(f"{what} is donated but read-only")
    if not array.flags.c_contiguous or not array.flags.aligned:
        raise ArgumentError(f"{what}: a donated input must be contiguous and "
                            f"row-major (np.ascontiguousarray, "
                            f".contiguous()), to be updated in place")


def _check_sharing(module, arrays):
    """No input may share memory with a donated one, which the call
    updates while it reads the others."""
    for i in module.donated:
        low, high = _arrays.byte_extent(arrays[i])
        if low == high:
            continue
        for j, other in enumerate(arrays):
            if j == i:
                continue
            other_low, other_high = _arrays.byte_extent(other)
            if other_low < high and low < other_high:
                raise ArgumentError(
                    f"{_arrays.describe('input', j, module.inputs[j])} shares "
                    f"memory with donated "
                    f"{_arrays.describe('input', i, module.inputs[i])}, "
                    f"which the call updates: pass a copy")
