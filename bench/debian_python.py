"""Runs a benchmark script under Debian's python3 when the interpreter that
started it lacks modules that scripts/setup.sh installs for Debian's
(numpy, ONNX, PyTorch): a `python3` earlier on PATH (pyenv, a virtual
environment) does not see them."""

import importlib.util
import os
import subprocess
import sys

DEBIAN_PYTHON = "/usr/bin/python3"


def missing(modules):
    """The modules of `modules` this interpreter cannot import."""
    return [m for m in modules if not importlib.util.find_spec(m)]


def ensure(modules):
    """Starts the script over under Debian's python3 when this interpreter
    lacks one of `modules` and Debian's has them all; returns otherwise."""
    absent = missing(modules)
    if not absent or not os.access(DEBIAN_PYTHON, os.X_OK):
        return
    if os.path.realpath(sys.executable) == os.path.realpath(DEBIAN_PYTHON):
        return
    probe = subprocess.run(
        [DEBIAN_PYTHON, "-c", f"import {', '.join(modules)}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if probe.returncode != 0:
        return
    print(f"{os.path.basename(sys.argv[0])}: {', '.join(absent)} missing "
          f"for {sys.executable}: running under {DEBIAN_PYTHON}",
          file=sys.stderr, flush=True)
    os.execv(DEBIAN_PYTHON, [DEBIAN_PYTHON] + sys.argv)
