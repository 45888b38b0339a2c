"""nd.compile: a model to a Module, through nd-compile, with a cache of the
libraries it built keyed by what determines them."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Optional, \
    Tuple, Union

from ._errors import CompileError, Error
from ._module import Module
from ._runtime import compiler_path, runtime

if TYPE_CHECKING:
    from os import PathLike

# Bumped whenever what the cache key covers changes.
_KEY_FORMAT = 1

# The name under which MLIR text given as a string is compiled: locations in
# nd's messages say `module.mlir:LINE:COL`, and the file stays in the
# library's cache folder to read them against.
_TEXT_NAME = "module.mlir"


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    """The options of nd.compile, typed and checked when made (an nd.Error
    names what is wrong); nd.compile(model, options=...) takes them, and its
    keyword arguments, where given, replace the fields of the same names.

    target: "cpu", or "cuda" for NVIDIA GPUs (nd-compile --target=cuda: the
        module takes numpy arrays or torch tensors on the host, and torch
        CUDA tensors without a host round trip; see nd.Module).
    donate: the inputs the entry may update in place (--donate): a
        position or several (kept sorted, without repeats).
    check_bounds: run-time checks of indices and dynamic shapes.
    cpu: the LLVM CPU name to compile for (default nd-compile's, x86-64-v3;
        "native": this machine's). Target "cpu" only.
    opt: LLVM's optimization level, 0 to 3.
    entry: the C name of the entry (default: after the model's file name).
    function: the model's function to compile (MLIR; default main).
    cuda_chips: (target "cuda") the GPUs to assemble code for, such as
        ("sm_90", "sm_80") (default nd-compile's, sm_90 and sm_80).
    cuda_toolkit: (target "cuda") the CUDA toolkit's directory (default
        nd-compile's, /usr/local/cuda)."""

    target: str = "cpu"
    donate: Tuple[int, ...] = ()
    check_bounds: bool = True
    cpu: Optional[str] = None
    opt: int = 3
    entry: Optional[str] = None
    function: Optional[str] = None
    cuda_chips: Optional[Tuple[str, ...]] = None
    cuda_toolkit: Optional[str] = None

    def __post_init__(self) -> None:
        if self.target not in _TARGETS:
            raise Error(f"unknown target '{self.target}' (targets: "
                        f"{', '.join(_TARGETS)})")
        if self.target != "cuda" and (self.cuda_chips is not None or
                                      self.cuda_toolkit is not None):
            raise Error("cuda_chips and cuda_toolkit are for target 'cuda'")
        if self.target == "cuda" and self.cpu is not None:
            raise Error("cpu is for target 'cpu' (the host code of target "
                        "'cuda' is built for nd-compile's default CPU)")
        if isinstance(self.opt, bool) or not isinstance(self.opt, int) or \
                not 0 <= self.opt <= 3:
            raise Error(f"opt must be 0, 1, 2 or 3, not {self.opt!r}")
        object.__setattr__(self, "donate", _positions(self.donate))
        chips = self.cuda_chips
        if isinstance(chips, str):
            chips = (chips,)
        object.__setattr__(self, "cuda_chips",
                           tuple(chips) if chips else None)
        object.__setattr__(self, "check_bounds", bool(self.check_bounds))


def _positions(donate: Union[int, Iterable[int]]) -> Tuple[int, ...]:
    """The donated positions, sorted and without repeats."""
    given = (donate,) if isinstance(donate, int) else tuple(donate)
    try:
        positions = tuple(sorted({int(p) for p in given}))
    except (TypeError, ValueError):
        raise Error(f"donate names input positions (0 or more), not "
                    f"{list(given)}") from None
    if any(p < 0 for p in positions):
        raise Error(f"donate names input positions (0 or more), not "
                    f"{list(given)}")
    return positions


def _cpu_flags(options: Dict[str, Any]) -> List[str]:
    """nd-compile's flags for target "cpu"."""
    flags = ["--check-bounds=" + ("true" if options["check_bounds"]
                                  else "false"),
             f"-O{options['opt']}"]
    if options["cpu"]:
        flags.append("--cpu=" + options["cpu"])
    for position in options["donate"]:
        flags.append(f"--donate={position}")
    if options["function"]:
        flags.append("--function=" + options["function"])
    return flags


def _cuda_flags(options: Dict[str, Any]) -> List[str]:
    """nd-compile's flags for target "cuda"."""
    flags = ["--target=cuda",
             "--check-bounds=" + ("true" if options["check_bounds"]
                                  else "false"),
             f"-O{options['opt']}"]
    if options["cuda_chips"]:
        flags.append("--cuda-chips=" + ",".join(options["cuda_chips"]))
    if options["cuda_toolkit"]:
        flags.append("--cuda-toolkit=" + options["cuda_toolkit"])
    for position in options["donate"]:
        flags.append(f"--donate={position}")
    if options["function"]:
        flags.append("--function=" + options["function"])
    return flags


# What each target adds to nd-compile's command line.
_TARGETS = {"cpu": _cpu_flags, "cuda": _cuda_flags}


def default_cache_dir() -> str:
    """$ND_CACHE_DIR, else $XDG_CACHE_HOME/nd, else ~/.cache/nd."""
    explicit = os.environ.get("ND_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "nd")


def _entry_for(stem: str) -> str:
    """A C identifier for the entry of a model named `stem`, outside nd's
    reserved prefixes."""
    symbol = re.sub(r"[^A-Za-z0-9_]", "_", stem) or "model"
    if symbol[0].isdigit():
        symbol = "_" + symbol
    if symbol.startswith(("nd_", "__nd", "_mlir")):
        symbol = "model_" + symbol
    return symbol


class _Model:
    """What nd-compile is given: a file (its name as the user spelled it,
    which nd's messages repeat) or MLIR text written out under _TEXT_NAME."""

    def __init__(self, model: Any, weights: Optional[str]) -> None:
        self.text: Optional[bytes] = None
        self.weights: Optional[str] = None
        self.path: Optional[str]
        if hasattr(model, "SerializeToString"):
            # An onnx.ModelProto.
            self.text = model.SerializeToString()
            self.name = "model.onnx"
            self.path = None
            return
        if isinstance(model, bytes):
            model = model.decode()
        if isinstance(model, str) and not os.path.exists(model):
            # MLIR text has braces; a path does not.
            if "{" not in model:
                raise Error(f"no model file '{model}' (and it is not MLIR "
                            f"text)")
            self.text = model.encode()
            self.name = _TEXT_NAME
            self.path = None
            return
        self.path = os.fspath(model)
        self.name = self.path
        if not os.path.isfile(self.path):
            raise Error(f"no model file '{self.path}'")
        if weights is not None:
            self.weights = os.fspath(weights)
            if not os.path.isfile(self.weights):
                raise Error(f"no weights file '{self.weights}'")
        elif self.path.endswith(".xml"):
            beside = os.path.splitext(self.path)[0] + ".bin"
            self.weights = beside if os.path.isfile(beside) else None

    def stem(self) -> str:
        if self.path is None:
            return "model" if self.name == "model.onnx" else "module"
        return os.path.splitext(os.path.basename(self.path))[0]

    def digest(self, hasher: Any) -> None:
        """Adds the model's bytes (and its weights') to `hasher`."""
        hasher.update(f"model:{self.name}\0".encode())
        if self.text is not None:
            hasher.update(self.text)
        else:
            _hash_file(hasher, self.path)
        hasher.update(b"\0weights:")
        if self.weights is not None:
            _hash_file(hasher, self.weights)


def _hash_file(hasher: Any, path: str) -> None:
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            hasher.update(block)


def _compiler_identity(path: str) -> List[Any]:
    """What tells one nd-compile from another: its place, size and time of
    change, with the runtime's version."""
    info = os.stat(path)
    return [os.path.realpath(path), info.st_size, info.st_mtime_ns,
            runtime().version]


class _Unset:
    """A keyword argument of nd.compile not given."""

    def __repr__(self) -> str:
        return "(unset)"


_UNSET: Any = _Unset()


def compile(model: Any, target: Any = _UNSET, *,
            options: Optional[CompileOptions] = None,
            donate: Any = _UNSET, check_bounds: Any = _UNSET,
            cpu: Any = _UNSET, opt: Any = _UNSET, entry: Any = _UNSET,
            function: Any = _UNSET,
            weights: Optional[Union[str, "PathLike[str]"]] = None,
            cache_dir: Optional[Union[str, "PathLike[str]"]] = None,
            cuda_chips: Any = _UNSET, cuda_toolkit: Any = _UNSET) -> Module:
    """Compiles `model` with nd-compile and loads the library: an nd.Module.

    model: the path of an ONNX (.onnx), OpenVINO IR (.xml) or MLIR (.mlir)
        model, MLIR text, or an onnx.ModelProto.
    options: an nd.CompileOptions (default: its defaults). The keyword
        arguments target, donate, check_bounds, cpu, opt, entry, function,
        cuda_chips and cuda_toolkit, where given, replace its fields (see
        nd.CompileOptions for each).
    weights: an OpenVINO IR model's weights (default: the .bin beside it).
    cache_dir: where libraries are kept (default $ND_CACHE_DIR, else
        $XDG_CACHE_HOME/nd or ~/.cache/nd).

    The cache key covers the model's bytes (and its weights'), the name
    nd's messages give it, every option, and nd-compile and the runtime's
    version: a second compile of the same model with the same options loads
    the library the first one built (Module.from_cache is then True)."""
    given = {"target": target, "donate": donate,
             "check_bounds": check_bounds, "cpu": cpu, "opt": opt,
             "entry": entry, "function": function, "cuda_chips": cuda_chips,
             "cuda_toolkit": cuda_toolkit}
    if options is not None and not isinstance(options, CompileOptions):
        raise Error(f"options= takes an nd.CompileOptions, not "
                    f"{type(options).__name__}")
    chosen = dataclasses.replace(
        options or CompileOptions(),
        **{key: value for key, value in given.items()
           if value is not _UNSET})
    source = _Model(model, weights)
    entry = chosen.entry or _entry_for(source.stem())
    target = chosen.target
    flags = {"target": target, "donate": list(chosen.donate),
             "check_bounds": chosen.check_bounds, "cpu": chosen.cpu,
             "opt": chosen.opt, "entry": entry, "function": chosen.function}
    if target == "cuda":
        flags["cuda_chips"] = list(chosen.cuda_chips) \
            if chosen.cuda_chips else None
        flags["cuda_toolkit"] = os.path.abspath(chosen.cuda_toolkit) \
            if chosen.cuda_toolkit else None
    return _build(source, flags, entry, cache_dir)


def _build(source: _Model, options: Dict[str, Any], entry: str,
           cache_dir: Optional[Union[str, "PathLike[str]"]]) -> Module:
    """The library of `source` with nd-compile's `options`, from the cache
    or compiled into it."""
    target = options["target"]
    # The runtime first: the nd-compile beside it is the one to run.
    runtime()
    compiler = compiler_path()

    hasher = hashlib.sha256()
    hasher.update(json.dumps([_KEY_FORMAT, options,
                              _compiler_identity(compiler)]).encode())
    source.digest(hasher)
    key = hasher.hexdigest()[:32]

    cache = os.path.abspath(os.fspath(cache_dir) if cache_dir
                            else default_cache_dir())
    folder = os.path.join(cache, key)
    library = os.path.join(folder, f"lib{entry}.so")
    if os.path.exists(library):
        return Module(library, entry, from_cache=True, target=target)

    os.makedirs(cache, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".compiling-", dir=cache)
    try:
        command = _command(compiler, source, options, staging, entry)
        process = subprocess.run(
            command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=staging if source.path is None else None)
        if process.returncode != 0:
            diagnostics = process.stderr.strip() or process.stdout.strip()
            # nd-compile's hint names its flag; here the option is function=.
            diagnostics = diagnostics.replace("(--function NAME compiles one)",
                                              "(function=NAME compiles one)")
            raise CompileError(diagnostics or f"nd-compile exited with "
                               f"status {process.returncode}", command)
        with open(os.path.join(staging, "compile.json"), "w") as f:
            json.dump({"command": command, "options": options}, f, indent=1)
        try:
            os.rename(staging, folder)
        except OSError:
            # Another process put the same library there first.
            if not os.path.exists(library):
                raise
    finally:
        if os.path.exists(staging):
            shutil.rmtree(staging, ignore_errors=True)
    return Module(library, entry, from_cache=False, target=target)


def _command(compiler: str, source: _Model, options: Dict[str, Any],
             staging: str, entry: str) -> List[str]:
    """nd-compile's command line, with the library written into
    `staging` (and MLIR text written there first)."""
    if source.path is None:
        with open(os.path.join(staging, source.name), "wb") as f:
            f.write(source.text)
        model = source.name
    else:
        model = source.path
    command = [compiler, model, "-o",
               os.path.join(staging, f"lib{entry}.so"), "--entry=" + entry]
    command += _TARGETS[options["target"]](options)
    if source.weights is not None and source.path is not None and \
            source.path.endswith(".xml"):
        command.append("--weights=" + os.path.abspath(source.weights))
    return command
