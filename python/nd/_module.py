"""A library that nd-compile built, called with numpy arrays or torch
tensors (include/nd-c/Runtime.h).

A call has two paths. The common case (positional numpy arrays or torch CPU
tensors of the entry's element types, contiguous, no `out=` nor `threads=`)
takes the fast one: the ctypes structures of a call, the signature's facts
and the checks of the last shapes seen are kept per module, so that a call
reads each input's data pointer and shape, and nothing else is built. Every
other call, and a fast one that finds anything unusual, takes the general
path (BoundCall), which checks and converts everything and raises the
errors. Both give the same results."""

from __future__ import annotations

import ctypes
import os
import re
import threading
from typing import (TYPE_CHECKING, Any, Dict, List, Optional, Sequence,
                    Tuple, Union)

import numpy as np

from . import _arrays
from . import _cuda
from ._errors import ArgumentError, DTypeError, Error
from ._runtime import (ABI_VERSION, DYNAMIC, ENTRY_TYPE, MAX_THREADS,
                       STATUS_NAMES, Context, DType, Runtime, Signature,
                       Tensor, TensorType, runtime)

if TYPE_CHECKING:
    from os import PathLike

# Bytes for a failed call's message; a longer one is cut (and says so).
_MESSAGE_SIZE = 4096
# An output of a static shape smaller than this is allocated by numpy and
# given to the entry as the buffer to compute it into. Larger ones come from
# nd's allocator, which keeps freed large buffers (and their faulted-in huge
# pages) for the next call (lib/Runtime/Memory.h: 1 MiB and up).
_NUMPY_OUTPUT_BYTES = 1 << 20

#: What a call returns: one output as itself, several as a tuple.
Result = Any


class TensorSpec:
    """One input or output of an entry, as its signature describes it.

    name: the model's name of the input ("" when none; outputs: "").
    dtype: nd's name of the element type ("f32", "bf16", "bool", ...).
    numpy_dtype: numpy's dtype for it (None for bf16).
    rank, dims: dims holds, per dim, its size where the signature fixes it,
        else the model's name of it (an ONNX symbolic dim such as 'N':
        every dim of that name has one size in a call), else None (known at
        run time only).
    sizes: the static size of each dim, or None.
    dim_names: the model's name of each dim, or None.
    donated: (inputs) the call updates this input in place.
    alias: (outputs) the position of the donated input whose buffer this
        output is, or None for a fresh buffer."""

    __slots__ = ("name", "dtype", "numpy_dtype", "code", "rank", "dims",
                 "sizes", "dim_names", "donated", "alias")

    def __init__(self, tensor_type: TensorType,
                 dtypes: Dict[int, DType]) -> None:
        dtype = dtypes.get(tensor_type.dtype)
        if dtype is None:
            raise Error(f"element type #{tensor_type.dtype} is not one of "
                        f"nd's runtime's")
        rank = tensor_type.rank
        self.name: str = (tensor_type.name or b"").decode()
        self.dtype: str = dtype.name
        self.numpy_dtype: Optional[np.dtype] = dtype.numpy
        self.code: int = dtype.code
        self.rank: int = rank
        self.sizes: Tuple[Optional[int], ...] = tuple(
            None if tensor_type.dims[d] == DYNAMIC else tensor_type.dims[d]
            for d in range(rank))
        names = tensor_type.dim_names
        self.dim_names: Tuple[Optional[str], ...] = tuple(
            (names[d].decode() or None) if names else None
            for d in range(rank))
        self.dims: Tuple[Union[int, str, None], ...] = tuple(
            size if size is not None else name
            for size, name in zip(self.sizes, self.dim_names))
        self.donated: bool = bool(tensor_type.donated)
        self.alias: Optional[int] = \
            tensor_type.alias if tensor_type.alias >= 0 else None

    def __repr__(self) -> str:
        dims = ", ".join("?" if d is None else str(d) for d in self.dims)
        text = f"{self.dtype}[{dims}]"
        if self.name:
            text = f"{self.name}: {text}"
        if self.donated:
            text += " (donated)"
        if self.alias is not None:
            text += f" (input #{self.alias})"
        return text


def default_entry(path: str) -> str:
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
    numpy.asarray takes. Their element types, ranks, static dims and named
    dims are checked before the call; an input of another element type is
    converted where numpy's same_kind casting allows it. Outputs are numpy
    arrays over the buffers they were computed into (nd's, released by
    nd_tensor_free when the array is collected, or, for a small output of a
    static shape, numpy's), or torch tensors over the same buffers when an
    input or `out` is a torch tensor. A donated input is updated in place,
    and the output that is its buffer is that very object. One output comes
    back as itself, several as a tuple.

    `out=`: an array (one output) or a sequence with one array or None per
    output. A C-contiguous, aligned array that shares no memory with an
    input or another output receives the result in place; any other gets
    it by a copy. `threads=`: the threads of this call (default:
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

    def __init__(self, path: Union[str, "PathLike[str]"],
                 entry: Optional[str] = None,
                 from_cache: Optional[bool] = None,
                 target: Optional[str] = None) -> None:
        self._runtime: Runtime = runtime()
        self.path: str = os.path.abspath(os.fspath(path))
        self.entry: str = entry or default_entry(self.path)
        #: True when nd.compile found the library in its cache, False when
        #: it compiled it, None for nd.load.
        self.from_cache: Optional[bool] = from_cache
        if target == "cuda":
            _cuda.cuda_runtime()
        self._library = self._open(target)
        #: "cpu", or "cuda" for a library nd-compile --target=cuda built.
        self.target: str = "cpu"
        self._device_function: Any = None
        self._allocator: Any = self._runtime
        try:
            self._device_function = _cuda.CUDA_ENTRY_TYPE(
                (self.entry, self._library))
            getattr(self._library, self.entry + _cuda.HOST_SUFFIX)
            self.target = "cuda"
            self._allocator = _cuda.cuda_runtime()
        except (AttributeError, ValueError):
            self._device_function = None
        self._signature, self._function = self._read_signature()
        dtypes = self._runtime.dtypes
        signature = self._signature
        self.inputs: Tuple[TensorSpec, ...] = tuple(
            TensorSpec(signature.inputs[i], dtypes)
            for i in range(signature.num_inputs))
        self.outputs: Tuple[TensorSpec, ...] = tuple(
            TensorSpec(signature.outputs[k], dtypes)
            for k in range(signature.num_outputs))
        #: The positions of the donated inputs.
        self.donated: Tuple[int, ...] = tuple(
            i for i, spec in enumerate(self.inputs) if spec.donated)
        self._plan = _Plan(self)
        # Ready structures of fast calls, one per call in flight.
        self._slots: List[_Slot] = []

    def _open(self, target: Optional[str]) -> ctypes.CDLL:
        try:
            return ctypes.CDLL(self.path)
        except OSError as error:
            if target is not None or _cuda.CUDA_RUNTIME_NAME not in \
                    str(error):
                raise Error(f"cannot load {self.path}: {error}") from None
        # nd.load of a GPU library: the CUDA runtime first.
        _cuda.cuda_runtime()
        try:
            return ctypes.CDLL(self.path)
        except OSError as again:
            raise Error(f"cannot load {self.path}: {again}") from None

    def _read_signature(self) -> Tuple[Signature, Any]:
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
        return signature, function

    @property
    def threads(self) -> int:
        """The default thread count of this library's calls (0: OpenMP's,
        OMP_NUM_THREADS or every core). Modules of one library file share
        it."""
        return self._signature.threads

    @threads.setter
    def threads(self, count: int) -> None:
        count = _thread_count(count, "Module.threads")
        self._runtime.lib.nd_set_threads(ctypes.byref(self._signature), count)

    def __call__(self, *args: Any, out: Any = None,
                 threads: Optional[int] = None, **named: Any) -> Result:
        plan = self._plan
        if plan.fast and not named and out is None and threads is None and \
                len(args) == plan.num_inputs:
            slots = self._slots
            slot = slots.pop() if slots else _Slot(self)
            try:
                result = slot.call(args)
            finally:
                slots.append(slot)
            if result is not _GENERAL:
                return result
        values = self._collect(args, named)
        if self.target == "cuda" and \
                any(_cuda.is_device_tensor(v) for v in values):
            return _cuda.call_device(self, values, out)
        return BoundCall(self, values, out, threads)()

    def bind(self, *args: Any, out: Any = None,
             threads: Optional[int] = None, **named: Any) -> "BoundCall":
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
                   "; this module runs on the CPU (target 'cpu')"))
        return BoundCall(self, values, out, threads)

    def _collect(self, args: Sequence[Any],
                 named: Dict[str, Any]) -> List[Any]:
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

    def _names(self) -> str:
        return ", ".join(spec.name or f"#{i}"
                         for i, spec in enumerate(self.inputs))

    def __repr__(self) -> str:
        inputs = ", ".join(repr(spec) for spec in self.inputs)
        outputs = ", ".join(repr(spec) for spec in self.outputs)
        return f"<nd.Module {self.entry}({inputs}) -> ({outputs}) from " \
               f"{self.path}>"


_MISSING = object()
# What a fast call returns when the call must take the general path.
_GENERAL = object()


def _thread_count(count: Any, what: str) -> int:
    if count is None:
        return 0
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
        raise ArgumentError(f"{what} takes a thread count (an int), not "
                            f"{count!r}")
    if count < 0:
        raise ArgumentError(f"{what} must be 0 (the default) or more, not "
                            f"{count}")
    if count > MAX_THREADS:
        raise ArgumentError(f"{what} takes at most {MAX_THREADS} threads "
                            f"(nd's thread count is a 32-bit int), not "
                            f"{count}")
    return int(count)


# ---------------------------------------------------------------------------
# What a module's calls share
# ---------------------------------------------------------------------------

class _Plan:
    """The facts of a module's signature that every call asks: per input
    its numpy and torch dtypes, rank and static dims; the named dims; per
    output how its buffer comes about."""

    def __init__(self, module: Module) -> None:
        self.num_inputs = len(module.inputs)
        self.fast = module.target == "cpu"
        self.inputs = [(spec.numpy_dtype, spec.rank, spec.sizes)
                       for spec in module.inputs]
        self.donated = module.donated
        self._torch_dtypes: Optional[List[Any]] = None
        self._torch_outputs: Optional[bool] = None
        # [(name, [(input, dim), ...])] of the names of several dims.
        places: Dict[str, List[Tuple[int, int]]] = {}
        for i, spec in enumerate(module.inputs):
            for d, name in enumerate(spec.dim_names):
                if name is not None:
                    places.setdefault(name, []).append((i, d))
        self.named = [(name, where) for name, where in places.items()
                      if len(where) > 1]
        # Outputs numpy allocates, as destinations: (shape, dtype) or None.
        destinations = bool(module._signature.destinations)
        self.numpy_outputs = [_numpy_output(spec, destinations)
                              for spec in module.outputs]

    def torch_dtypes(self, module: Module) -> List[Any]:
        """torch's dtype of each input (None: not taken by a fast call)."""
        if self._torch_dtypes is None:
            self._torch_dtypes = [
                _arrays.torch_dtype(spec)
                if spec.numpy_dtype is not None and
                spec.numpy_dtype.kind != "c" else None
                for spec in module.inputs]
        return self._torch_dtypes

    def torch_outputs(self, module: Module) -> bool:
        """Whether torch has the element type of every output nd or numpy
        allocates."""
        if self._torch_outputs is None:
            self._torch_outputs = all(
                spec.alias is not None or _arrays.torch_can_hold(spec)
                for spec in module.outputs)
        return self._torch_outputs

    def shape_fits(self, i: int, shape: Tuple[int, ...]) -> bool:
        """Whether input i may have `shape` (its rank and static dims)."""
        _, rank, sizes = self.inputs[i]
        if len(shape) != rank:
            return False
        return all(size is None or size == got
                   for size, got in zip(sizes, shape))

    def names_agree(self, shapes: Sequence[Tuple[int, ...]]) -> bool:
        """Whether the inputs' dims of one name have one size."""
        for _, where in self.named:
            first = shapes[where[0][0]][where[0][1]]
            if any(shapes[i][d] != first for i, d in where[1:]):
                return False
        return True


def _numpy_output(spec: TensorSpec, destinations: bool
                  ) -> Optional[Tuple[Tuple[int, ...], np.dtype]]:
    """(shape, dtype) where numpy allocates output `spec` for the entry to
    compute into: a fresh output of a static shape and few bytes, of an
    entry that computes into the caller's buffers."""
    if not destinations or spec.alias is not None or \
            spec.numpy_dtype is None or None in spec.sizes:
        return None
    shape = tuple(int(size) for size in spec.sizes)  # type: ignore[arg-type]
    if int(np.prod(shape, dtype=np.int64)) * spec.numpy_dtype.itemsize >= \
            _NUMPY_OUTPUT_BYTES:
        return None
    return shape, spec.numpy_dtype


class _Call:
    """The ctypes structures of one call: the tensors, the context with
    its message buffer, and the entry's arguments as addresses."""

    def __init__(self, module: Module) -> None:
        self.module = module
        num_inputs = len(module.inputs)
        num_outputs = len(module.outputs)
        self.inputs = (Tensor * max(num_inputs, 1))()
        self.outputs = (Tensor * max(num_outputs, 1))()
        self.message = ctypes.create_string_buffer(_MESSAGE_SIZE)
        self.context = Context(message=ctypes.addressof(self.message),
                               message_size=_MESSAGE_SIZE)
        self.arguments = (ctypes.addressof(self.context),
                          ctypes.addressof(self.inputs), num_inputs,
                          ctypes.addressof(self.outputs), num_outputs)
        # The shape arrays that output tensors point to.
        self._shapes: List[Any] = []

    def describe_numpy_outputs(
            self, positions: Optional[Sequence[int]] = None
    ) -> List[Optional[Tuple[Tuple[int, ...], np.dtype]]]:
        """For each output (of `positions`, default all) that numpy
        allocates: its (shape, dtype), with its tensor's dtype, rank and
        shape set once; None for the others."""
        plan = self.module._plan
        described: List[Optional[Tuple[Tuple[int, ...], np.dtype]]] = []
        for k, spec in enumerate(self.module.outputs):
            numpy_output = plan.numpy_outputs[k]
            if positions is not None and k not in positions:
                numpy_output = None
            described.append(numpy_output)
            if numpy_output is None:
                continue
            tensor = self.outputs[k]
            tensor.dtype = spec.code
            tensor.rank = spec.rank
            shape = (ctypes.c_int64 * max(spec.rank, 1))(*numpy_output[0])
            self._shapes.append(shape)
            tensor.shape = shape
            tensor.strides = None
        return described

    def error(self, status: int) -> Error:
        """The nd.Error of a call that returned `status`."""
        context = self.context
        message = self.message.value.decode(errors="replace")
        if context.message_length >= _MESSAGE_SIZE:
            message += f" [cut at {_MESSAGE_SIZE - 1} of " \
                       f"{context.message_length} characters]"
        name = STATUS_NAMES.get(status) or \
            self.module._runtime.status_name(status)
        return Error(message, status=name, code=status)

    def take(self, k: int, shape: Tuple[int, ...], spec: TensorSpec,
             torch_mode: bool) -> Any:
        """Output k, which nd allocated, as an array that owns it."""
        dtype = spec.numpy_dtype if spec.numpy_dtype is not None else \
            _arrays.BF16_BITS
        array = _arrays.owned_array(self.module._allocator.free,
                                    self.outputs[k], shape, dtype)
        return _arrays.to_torch(array, spec) if torch_mode else array


class _Slot(_Call):
    """The structures of a fast call, kept by the module between calls:
    each input's tensor holds its dtype, rank and a shape array already,
    and the shapes it last held (checked then) are remembered."""

    def __init__(self, module: Module) -> None:
        super().__init__(module)
        plan = module._plan
        self.plan = plan
        self.function = module._function
        self.input_tensors = [self.inputs[i]
                              for i in range(len(module.inputs))]
        self.shape_arrays: List[Any] = []
        for tensor, spec in zip(self.input_tensors, module.inputs):
            tensor.dtype = spec.code
            tensor.rank = spec.rank
            shape = (ctypes.c_int64 * max(spec.rank, 1))()
            tensor.shape = shape
            self.shape_arrays.append(shape)
        self.shapes: List[Optional[Tuple[int, ...]]] = \
            [None] * len(module.inputs)
        self.output_tensors = [self.outputs[k]
                               for k in range(len(module.outputs))]
        self.numpy_outputs = self.describe_numpy_outputs()
        self.output_ranks = [spec.rank for spec in module.outputs]
        self.aliases = [spec.alias for spec in module.outputs]

    def call(self, args: Sequence[Any]) -> Any:
        """The call of `args`, or _GENERAL where the general path must make
        it (anything but contiguous arrays and tensors of the entry's
        element types, rank and dims, or a check that fails: the general
        path raises its error)."""
        torch_mode = self.read_inputs(args)
        if torch_mode is None or \
                (torch_mode and not self.plan.torch_outputs(self.module)):
            return _GENERAL
        fresh = self.prepare_outputs(torch_mode)
        status = self.function(*self.arguments)
        if status != 0:
            raise self.error(status)
        return self.results(args, fresh, torch_mode)

    def read_inputs(self, args: Sequence[Any]) -> Optional[bool]:
        """Points the input tensors at `args`; whether they are torch
        tensors, or None where the call is not a fast one."""
        plan = self.plan
        shapes = self.shapes
        changed = False
        torch_mode = False
        address = _arrays.data_address
        for i, value in enumerate(args):
            if type(value) is np.ndarray:
                if value.dtype is not plan.inputs[i][0] and \
                        value.dtype != plan.inputs[i][0]:
                    return None
                flags = value.flags
                if not (flags.c_contiguous and flags.aligned):
                    return None
                pointer = address(value)
                shape = value.shape
            else:
                pointer = _torch_address(value, plan, self.module, i)
                if pointer is None:
                    return None
                torch_mode = True
                shape = value.shape
            if shape != shapes[i]:
                shape = tuple(shape)
                if not plan.shape_fits(i, shape):
                    return None
                self.shape_arrays[i][:len(shape)] = shape
                shapes[i] = shape
                changed = True
            self.input_tensors[i].data = pointer
        if changed and plan.named and not plan.names_agree(shapes):
            shapes[:] = [None] * len(shapes)
            return None
        if plan.donated and not _donated_fits(args, plan):
            return None
        return torch_mode

    def prepare_outputs(self, torch_mode: bool) -> List[Optional[Any]]:
        """Points each output at the buffer it gets: a numpy array where
        numpy allocates it (returned), else none (nd allocates it)."""
        fresh: List[Optional[Any]] = []
        for tensor, numpy_output in zip(self.output_tensors,
                                        self.numpy_outputs):
            if numpy_output is None:
                tensor.data = None
                tensor.owner = None
                fresh.append(None)
                continue
            array = np.empty(*numpy_output)
            tensor.data = _arrays.data_address(array) or None
            fresh.append(array)
        return fresh

    def results(self, args: Sequence[Any], fresh: List[Optional[Any]],
                torch_mode: bool) -> Any:
        outputs = self.module.outputs
        results = []
        for k, array in enumerate(fresh):
            alias = self.aliases[k]
            if alias is not None:
                # A donated input's buffer: nd_tensor_free releases only
                # the record of its shape.
                self.module._allocator.free(ctypes.byref(self.outputs[k]))
                results.append(args[alias])
            elif array is not None:
                results.append(_arrays.to_torch(array, outputs[k])
                               if torch_mode else array)
            else:
                tensor = self.output_tensors[k]
                shape = tuple(tensor.shape[d]
                              for d in range(self.output_ranks[k]))
                results.append(self.take(k, shape, outputs[k], torch_mode))
        if len(results) == 1:
            return results[0]
        return tuple(results) if results else None


def _torch_address(value: Any, plan: _Plan, module: Module,
                   i: int) -> Optional[int]:
    """The data pointer of a torch CPU tensor that a fast call takes as
    input i, or None."""
    torch = _arrays.torch_module()
    if torch is None or type(value) is not torch.Tensor:
        return None
    expected = plan.torch_dtypes(module)[i]
    if expected is None or value.dtype is not expected or \
            not value.is_cpu or value.layout is not torch.strided or \
            not value.is_contiguous():
        return None
    return value.data_ptr()


def _donated_fits(args: Sequence[Any], plan: _Plan) -> bool:
    """Whether each donated input (contiguous, as a fast call's are) is
    writable and shares no memory with another input."""
    extents = []
    for value in args:
        if type(value) is np.ndarray:
            start = _arrays.data_address(value)
            extents.append((start, start + value.nbytes))
        else:
            start = value.data_ptr()
            extents.append((start, start + value.numel() *
                            value.element_size()))
    for i in plan.donated:
        value = args[i]
        if type(value) is np.ndarray and not value.flags.writeable:
            return False
        low, high = extents[i]
        if low == high:
            continue
        for j, (other_low, other_high) in enumerate(extents):
            if j != i and other_low < high and low < other_high:
                return False
    return True


def _outputs_given(out: Any, count: int) -> List[Any]:
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


# ---------------------------------------------------------------------------
# The general path
# ---------------------------------------------------------------------------

class BoundCall(_Call):
    """A call of a module bound to its buffers (Module.bind)."""

    def __init__(self, module: Module, values: List[Any], out: Any,
                 threads: Optional[int]) -> None:
        super().__init__(module)
        self._lock = threading.Lock()
        self._keep: List[Any] = []
        self._torch = False
        arrays = self._fill_inputs(values)
        _check_named_dims(module, arrays)
        _check_sharing(module, arrays)
        given = _outputs_given(out, len(module.outputs))
        self._results = self._fill_outputs(values, arrays, given)
        _check_named_outputs(module, arrays, given, self._results)
        self._check_fresh()
        numpy_outputs = self.describe_numpy_outputs(self._fresh)
        self._fresh_outputs = [(k, numpy_outputs[k]) for k in self._fresh]
        self._values = values
        self._single = len(self._results) == 1
        self.context.threads = _thread_count(threads, "threads=")
        #: The caller's output buffers (out=) that the last run copied the
        #: result into rather than computed it into in place
        #: (nd_context.copied_outputs).
        self.copied_outputs = 0

    def _fill_inputs(self, values: List[Any]) -> List[np.ndarray]:
        module = self.module
        arrays = []
        for i, (value, spec) in enumerate(zip(values, module.inputs)):
            what = _arrays.describe("input", i, spec)
            array, from_torch = _arrays.as_array(value, spec, what)
            self._torch |= from_torch
            array = _arrays.check_array(array, spec, what, from_torch,
                                        module._runtime,
                                        convert=not spec.donated)
            if spec.donated:
                _check_donated(array, what)
            array = _arrays.fill(self.inputs[i], array, spec.code, self._keep)
            arrays.append(array)
        return arrays

    def _fill_outputs(self, values: List[Any], arrays: List[np.ndarray],
                      given: List[Any]) -> List[Any]:
        module = self.module
        results: List[Any] = []
        self._fresh: List[int] = []
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
                _arrays.fill(self.outputs[k], arrays[spec.alias], spec.code,
                             self._keep)
                results.append(donor)
                continue
            if value is None:
                self._fresh.append(k)
                results.append(None)
                continue
            array, from_torch = _arrays.as_array(value, spec, what)
            self._torch |= from_torch
            array = _arrays.check_array(array, spec, what, from_torch,
                                        module._runtime, convert=False)
            if not array.flags.writeable:
                raise ArgumentError(f"{what}: the buffer is read-only")
            if not array.flags.aligned or \
                    _arrays.element_strides(array) is None:
                raise ArgumentError(f"{what}: the buffer's strides are not "
                                    f"in whole, aligned elements")
            _arrays.fill(self.outputs[k], array, spec.code, self._keep)
            results.append(value)
        return results

    def _check_fresh(self) -> None:
        """Outputs nd allocates must have a dtype the caller's kind of array
        has."""
        module = self.module
        for k in self._fresh:
            spec = module.outputs[k]
            what = _arrays.describe("output", k, spec)
            if self._torch and not _arrays.torch_can_hold(spec):
                torch = _arrays.torch_module()
                raise DTypeError(f"{what} is {spec.dtype}, which torch "
                                 f"{getattr(torch, '__version__', '')} has "
                                 f"no dtype for: pass numpy arrays")
            if not self._torch and spec.numpy_dtype is None:
                raise DTypeError(f"{what} is {spec.dtype}, which numpy has no "
                                 f"dtype for: pass torch tensors (or give "
                                 f"out= a torch.bfloat16 tensor)")

    def __call__(self) -> Result:
        module = self.module
        with self._lock:
            outputs = self.outputs
            arrays = []
            for k, numpy_output in self._fresh_outputs:
                if numpy_output is None:
                    outputs[k].data = None
                    outputs[k].owner = None
                    arrays.append(None)
                    continue
                array = np.empty(*numpy_output)
                outputs[k].data = _arrays.data_address(array) or None
                arrays.append(array)
            status = module._function(*self.arguments)
            if status != 0:
                raise self.error(status)
            self.copied_outputs = self.context.copied_outputs
            results = self._results
            if self._fresh:
                results = list(results)
                for (k, _), array in zip(self._fresh_outputs, arrays):
                    spec = module.outputs[k]
                    if array is not None:
                        results[k] = _arrays.to_torch(array, spec) \
                            if self._torch else array
                        continue
                    tensor = outputs[k]
                    shape = tuple(tensor.shape[d] for d in range(spec.rank))
                    results[k] = self.take(k, shape, spec, self._torch)
        if self._single:
            return results[0]
        return tuple(results) if results else None


def _check_donated(array: np.ndarray, what: str) -> None:
    """A donated input is updated in place: it must be writable, row-major
    and aligned (Runtime.h)."""
    if not array.flags.writeable:
        raise ArgumentError(f"{what} is donated but read-only")
    if not array.flags.c_contiguous or not array.flags.aligned:
        raise ArgumentError(f"{what}: a donated input must be contiguous and "
                            f"row-major (np.ascontiguousarray, "
                            f".contiguous()), to be updated in place")


def _check_sharing(module: Module, arrays: List[np.ndarray]) -> None:
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


def _named_dim(what: str, position: int, spec: TensorSpec, d: int,
               size: int) -> str:
    """"input #1 ('idx') dim 0 (N) is 2", as nd's runtime says it."""
    return f"{_arrays.describe(what, position, spec)} dim {d} " \
           f"({spec.dim_names[d]}) is {size}"


def _check_named_dims(module: Module, arrays: List[np.ndarray]) -> None:
    """Dims of one name have one size among the inputs; the first of each
    name is the one the others are held to."""
    seen: Dict[str, Tuple[str, int]] = {}
    for i, (spec, array) in enumerate(zip(module.inputs, arrays)):
        for d, name in enumerate(spec.dim_names):
            if name is None:
                continue
            size = array.shape[d]
            here = _named_dim("input", i, spec, d, size)
            first = seen.setdefault(name, (here, size))
            if first[1] != size:
                raise ArgumentError(f"{here} but {first[0]}")


def _check_named_outputs(module: Module, arrays: List[np.ndarray],
                         given: List[Any], buffers: List[Any]) -> None:
    """An out= buffer's named dims have the size the inputs give the
    name."""
    sizes: Dict[str, Tuple[str, int]] = {}
    for i, (spec, array) in enumerate(zip(module.inputs, arrays)):
        for d, name in enumerate(spec.dim_names):
            if name is not None and name not in sizes:
                sizes[name] = (_named_dim("input", i, spec, d,
                                          array.shape[d]), array.shape[d])
    for k, (spec, value) in enumerate(zip(module.outputs, given)):
        if value is None or spec.alias is not None:
            continue
        shape = tuple(buffers[k].shape)
        for d, name in enumerate(spec.dim_names):
            if name is not None and name in sizes and \
                    sizes[name][1] != shape[d]:
                raise ArgumentError(
                    f"{_named_dim('output', k, spec, d, shape[d])} but "
                    f"{sizes[name][0]}")
