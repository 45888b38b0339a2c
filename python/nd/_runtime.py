"""libnd_runtime.so through ctypes: where it and nd-compile are, and the
structs and functions of include/nd-c/Runtime.h.

The layouts below are those of Runtime.h at ND_ABI_VERSION 2; the runtime's
own nd_runtime_abi_version() is checked against it when the library is
loaded, and each compiled library's signature when it is.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import sys
import threading
from typing import TYPE_CHECKING, Dict, List, Optional, Tuple

from ._errors import Error

if TYPE_CHECKING:
    import numpy

# ND_ABI_VERSION of the include/nd-c/Runtime.h this module mirrors.
ABI_VERSION = 2
# ND_DYNAMIC: a dim known at run time only.
DYNAMIC = -1

RUNTIME_NAME = "libnd_runtime.so"
COMPILER_NAME = "nd-compile"
OPENMP_NAME = "libomp.so.5"

# Runtime.h's nd_status values, by name.
STATUS_NAMES = {0: "ok", 1: "invalid argument", 2: "check failed",
                3: "out of memory", 4: "ABI mismatch",
                5: "driver error"}
INVALID_ARGUMENT = 1


class Tensor(ctypes.Structure):
    """nd_tensor."""
    _fields_ = [("data", ctypes.c_void_p),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("owner", ctypes.c_void_p)]


class Context(ctypes.Structure):
    """nd_context."""
    _fields_ = [("threads", ctypes.c_int32),
                ("status", ctypes.c_int32),
                ("message", ctypes.c_void_p),
                ("message_size", ctypes.c_size_t),
                ("message_length", ctypes.c_size_t),
                ("copied_outputs", ctypes.c_int32)]


class TensorType(ctypes.Structure):
    """nd_tensor_type."""
    _fields_ = [("dtype", ctypes.c_int32),
                ("rank", ctypes.c_int32),
                ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("name", ctypes.c_char_p),
                ("donated", ctypes.c_int32),
                ("alias", ctypes.c_int32),
                ("dim_names", ctypes.POINTER(ctypes.c_char_p))]


class Signature(ctypes.Structure):
    """nd_signature."""
    _fields_ = [("abi_version", ctypes.c_int32),
                ("num_inputs", ctypes.c_int32),
                ("num_outputs", ctypes.c_int32),
                ("threads", ctypes.c_int32),
                ("entry", ctypes.c_char_p),
                ("inputs", ctypes.POINTER(TensorType)),
                ("outputs", ctypes.POINTER(TensorType)),
                ("destinations", ctypes.c_int32)]

# The largest thread count nd_context.threads and nd_set_threads hold.
MAX_THREADS = 2 ** 31 - 1


# nd_entry_fn, with its pointers passed as addresses (a bound call computes
# them once). CFUNCTYPE functions release the GIL while they run, so calls
# from several Python threads run at once.
ENTRY_TYPE = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p,
                              ctypes.c_void_p, ctypes.c_size_t,
                              ctypes.c_void_p, ctypes.c_size_t)


# ---------------------------------------------------------------------------
# Where nd is
# ---------------------------------------------------------------------------

_lock = threading.RLock()
_explicit: Dict[str, Optional[str]] = {"root": None, "runtime": None,
                                       "compiler": None}
_loaded: Optional["Runtime"] = None


def configure(root: Optional[str] = None, runtime: Optional[str] = None,
              compiler: Optional[str] = None) -> None:
    """Names where nd is, before the places searched by default: `root` a
    build directory or installed prefix (with bin/nd-compile and
    lib/libnd_runtime.so), or the two files themselves. The runtime cannot
    change once loaded: naming another one then is an error."""
    with _lock:
        if runtime is None and root is not None:
            candidate = os.path.join(root, "lib", RUNTIME_NAME)
            runtime = candidate if os.path.exists(candidate) else None
        if (_loaded is not None and runtime is not None and
                os.path.realpath(runtime) != os.path.realpath(_loaded.path)):
            raise Error(f"nd's runtime is loaded from {_loaded.path} already; "
                        f"it cannot change to {runtime} in this process")
        _explicit.update(root=root, runtime=runtime, compiler=compiler)


def _installed_prefix(here: str) -> Optional[str]:
    """The prefix that `cmake --install` put this package into, from the
    _install.py it wrote beside it (absent elsewhere)."""
    try:
        from . import _install  # type: ignore[attr-defined]
    except ImportError:
        return None
    return os.path.normpath(os.path.join(here, _install.PREFIX_FROM_PACKAGE))


def _roots() -> List[Tuple[str, str]]:
    """[(directory, why)] that may hold bin/nd-compile and lib/, in the
    order searched."""
    roots = []
    if _explicit["root"]:
        roots.append((_explicit["root"], "nd.configure(root=...)"))
    env = os.environ.get("ND_BUILD_DIR")
    if env:
        roots.append((env, "$ND_BUILD_DIR"))
    here = os.path.dirname(os.path.abspath(__file__))
    installed = _installed_prefix(here)
    if installed:
        roots.append((installed, "the prefix cmake --install put nd into"))
    # The package's own place: build/python/nd in the build tree,
    # python/nd in the source tree (beside build/), PREFIX/lib/python3/
    # dist-packages/nd in an installed prefix.
    directory = here
    for _ in range(5):
        directory = os.path.dirname(directory)
        roots.append((directory, "a folder above the package"))
        roots.append((os.path.join(directory, "build"),
                      "a folder above the package"))
    on_path = shutil.which(COMPILER_NAME)
    if on_path:
        roots.append((os.path.dirname(os.path.dirname(
            os.path.realpath(on_path))), "nd-compile on PATH"))
    for prefix in (sys.prefix, "/usr/local", "/usr"):
        roots.append((prefix, "a system prefix"))
    seen = set()
    unique = []
    for directory, why in roots:
        key = os.path.realpath(directory)
        if key not in seen:
            seen.add(key)
            unique.append((directory, why))
    return unique


def _find(explicit_key: str, subdir: str,
          name: str) -> Tuple[Optional[str], List[str]]:
    """The path of `name` and the places looked in."""
    explicit = _explicit[explicit_key]
    if explicit:
        if os.path.exists(explicit):
            return explicit, [explicit]
        raise Error(f"{name}: nd.configure({explicit_key}=...) names "
                    f"{explicit}, which does not exist")
    looked = []
    for directory, why in _roots():
        path = os.path.join(directory, subdir, name)
        looked.append(f"{path} ({why})")
        if os.path.exists(path):
            return path, looked
    return None, looked


def _not_found(name: str, looked: List[str]) -> Error:
    places = "\n  ".join(looked)
    return Error(f"cannot find {name}; looked in:\n  {places}\nSet "
                 f"ND_BUILD_DIR to nd's build directory or installed prefix, "
                 f"or call nd.configure(root=...)")


def compiler_path() -> str:
    """The nd-compile to run: the one beside the loaded runtime where there
    is one, else the first found."""
    with _lock:
        if _explicit["compiler"]:
            return _find("compiler", "bin", COMPILER_NAME)[0]
        if _loaded is not None and not _explicit["root"]:
            beside = os.path.join(os.path.dirname(os.path.dirname(
                _loaded.path)), "bin", COMPILER_NAME)
            if os.path.exists(beside):
                return beside
        path, looked = _find("compiler", "bin", COMPILER_NAME)
        if path is None:
            raise _not_found(COMPILER_NAME, looked)
        return path


# ---------------------------------------------------------------------------
# The runtime
# ---------------------------------------------------------------------------

class Runtime:
    """libnd_runtime.so, loaded with RTLD_GLOBAL so that libraries that
    nd-compile built find it wherever they are (a cache directory has no
    lib/ beside it)."""

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            # A folder that carries LLVM's OpenMP runtime beside nd's (a
            # bundle for a machine without LLVM) provides it to both.
            openmp = os.path.join(os.path.dirname(path), OPENMP_NAME)
            if os.path.exists(openmp):
                ctypes.CDLL(openmp, mode=ctypes.RTLD_GLOBAL)
            self.lib = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
        except OSError as error:
            raise Error(f"cannot load {path}: {error}") from None
        lib = self.lib
        lib.nd_tensor_free.argtypes = [ctypes.POINTER(Tensor)]
        lib.nd_tensor_free.restype = None
        lib.nd_set_threads.argtypes = [ctypes.POINTER(Signature),
                                       ctypes.c_int32]
        lib.nd_set_threads.restype = None
        lib.nd_status_string.argtypes = [ctypes.c_int32]
        lib.nd_status_string.restype = ctypes.c_char_p
        lib.nd_dtype_name.argtypes = [ctypes.c_int32]
        lib.nd_dtype_name.restype = ctypes.c_char_p
        lib.nd_dtype_size.argtypes = [ctypes.c_int32]
        lib.nd_dtype_size.restype = ctypes.c_size_t
        lib.nd_runtime_version.argtypes = []
        lib.nd_runtime_version.restype = ctypes.c_char_p
        lib.nd_runtime_abi_version.argtypes = []
        lib.nd_runtime_abi_version.restype = ctypes.c_int32
        abi = lib.nd_runtime_abi_version()
        if abi != ABI_VERSION:
            raise Error(f"{path} speaks nd's ABI version {abi}; this package "
                        f"speaks version {ABI_VERSION}",
                        status="ABI mismatch", code=4)
        self.version: str = lib.nd_runtime_version().decode()
        self.free = lib.nd_tensor_free
        self.dtypes: Dict[int, DType] = _read_dtypes(lib)

    def status_name(self, status: int) -> str:
        return self.lib.nd_status_string(status).decode()


class DType:
    """An element type of nd's table (nd/Runner/DTypes.def, numbered as
    Runtime.h says): its code, name ("f32"), size and numpy dtype (None for
    bf16, which numpy lacks)."""

    __slots__ = ("code", "name", "size", "numpy")

    def __init__(self, code: int, name: str, size: int,
                 numpy_dtype: Optional["numpy.dtype"]) -> None:
        self.code = code
        self.name = name
        self.size = size
        self.numpy = numpy_dtype

    def __repr__(self) -> str:
        return self.name


def _numpy_dtype(name: str, size: int) -> Optional["numpy.dtype"]:
    """numpy's dtype of nd's element type `name`, from the name's kind and
    width; None where numpy has none (bf16)."""
    import numpy as np
    if name == "bool":
        return np.dtype(np.bool_)
    match = re.fullmatch(r"([iuf]|complex)(\d+)", name)
    if not match:
        return None
    kind = {"i": "i", "u": "u", "f": "f", "complex": "c"}[match.group(1)]
    dtype = np.dtype(f"{kind}{int(match.group(2)) // 8}")
    return dtype if dtype.itemsize == size else None


def _read_dtypes(lib: ctypes.CDLL) -> Dict[int, DType]:
    """nd's element types as the runtime names them, by code."""
    dtypes = {}
    code = 0
    while True:
        name = lib.nd_dtype_name(code)
        if name is None:
            break
        name = name.decode()
        size = lib.nd_dtype_size(code)
        dtypes[code] = DType(code, name, size, _numpy_dtype(name, size))
        code += 1
    return dtypes


def runtime() -> Runtime:
    """The loaded runtime, loading it on first use."""
    global _loaded
    if _loaded is not None:
        return _loaded
    with _lock:
        if _loaded is None:
            path, looked = _find("runtime", "lib", RUNTIME_NAME)
            if path is None:
                raise _not_found(RUNTIME_NAME, looked)
            _loaded = Runtime(os.path.abspath(path))
        return _loaded
