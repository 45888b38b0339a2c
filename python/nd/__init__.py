"""nd from Python: compile ONNX, OpenVINO IR and MLIR models of the
scatter/gather family ahead of time with nd-compile and call them with numpy
arrays or torch tensors.

    import nd
    module = nd.compile("model.onnx")          # or nd.load("libmodel.so")
    result = module(data, indices, updates)

Pure Python over nd's C runtime (libnd_runtime.so, include/nd-c/Runtime.h)
with ctypes. nd is found through nd.configure(...), $ND_BUILD_DIR (a build
directory or installed prefix), the package's own place in nd's source or
build tree or an installed prefix, nd-compile on PATH, or the system's
prefixes; an error lists the places looked in.
"""

from __future__ import annotations

from os import PathLike
from typing import Optional, Union

# nd's version (project(nd VERSION ...) in CMakeLists.txt, which
# test/Python/version.test holds this to).
__version__ = "0.1.0"

from ._errors import ArgumentError, CompileError, DTypeError, Error
from ._runtime import configure
from ._module import BoundCall, Module, TensorSpec
from ._compile import CompileOptions, compile, default_cache_dir
from ._cuda import set_synchronous as cuda_set_synchronous
from ._cuda import synchronize as cuda_synchronize

__all__ = ["ArgumentError", "BoundCall", "CompileError", "CompileOptions",
           "DTypeError", "Error", "Module", "TensorSpec", "compile",
           "configure", "cuda_set_synchronous", "cuda_synchronize",
           "default_cache_dir", "load", "runtime_version"]


def load(path: Union[str, "PathLike[str]"],
         entry: Optional[str] = None) -> Module:
    """Loads a library that nd-compile built (for the CPU or, with
    --target=cuda, for NVIDIA GPUs): an nd.Module. `entry` is the name
    nd-compile --entry gave its entry (default: NAME of libNAME.so, as
    nd-compile names it)."""
    return Module(path, entry)


def runtime_version() -> str:
    """The version of the loaded libnd_runtime.so ("MAJOR.MINOR.PATCH")."""
    from ._runtime import runtime
    return runtime().version
