"""Fixtures of the package's tests (run by check-nd through
test/Python/pytest.test, with the package imported from the build tree).

Expected values come from numpy, from test/Reference/nd_reference.py (written
from the ONNX and OpenVINO specifications) or from ONNX's own test data,
never from nd."""

import importlib.util
import os
import sys

import numpy as np
import pytest

import nd

SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
ONNX_NODE_TESTS = "/usr/share/libonnx-testdata/data/node"


def _load_reference():
    path = os.path.join(SOURCE_ROOT, "test", "Reference", "nd_reference.py")
    spec = importlib.util.spec_from_file_location("nd_reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


reference = _load_reference()


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory):
    """One cache for the session: a module compiled by two tests is built
    once."""
    return str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def build(cache_dir):
    """nd.compile into the session's cache."""
    def compile_(model, **options):
        options.setdefault("cache_dir", cache_dir)
        return nd.compile(model, **options)
    return compile_


@pytest.fixture(scope="session")
def build_root():
    """The build directory (or prefix) whose runtime the package loaded."""
    from nd import _runtime
    return os.path.dirname(os.path.dirname(_runtime.runtime().path))


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def torch_or_skip():
    if not importlib.util.find_spec("torch"):
        pytest.skip("no torch for this python")
    import torch
    return torch


@pytest.fixture
def torch():
    return torch_or_skip()


def onnx_or_skip():
    if not importlib.util.find_spec("onnx"):
        pytest.skip("no onnx for this python")
    import onnx
    return onnx


def pytest_report_header(config):
    from nd import _runtime
    return [f"nd package: {os.path.dirname(nd.__file__)}",
            f"nd runtime: {_runtime.runtime().path} "
            f"({nd.runtime_version()})",
            f"nd-compile: {_runtime.compiler_path()}",
            f"numpy {np.__version__}, python {sys.version.split()[0]}"]
