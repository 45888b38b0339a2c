"""nd.compile: the cache (hits and misses), models as files, text and
OpenVINO IR with weights, compile errors, targets, and where nd is found."""

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import nd
from conftest import SOURCE_ROOT

GATHER = """
func.func @main(%data: tensor<4x2xf32>, %ids: tensor<3xi64>)
    -> tensor<3x2xf32> {
  %r = nd.gather %data[%ids]
      : tensor<4x2xf32>, tensor<3xi64> -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
"""

OPENVINO_INPUTS = os.path.join(SOURCE_ROOT, "test", "Target", "OpenVINO",
                               "Inputs")


def _entries(cache):
    return sorted(entry for entry in os.listdir(cache))


def test_cache_hits_and_misses(tmp_path):
    cache = str(tmp_path / "cache")
    model = tmp_path / "gather.mlir"
    model.write_text(GATHER)
    data = np.arange(8, dtype=np.float32).reshape(4, 2)
    ids = np.array([3, 0, 3], np.int64)

    first = nd.compile(str(model), cache_dir=cache)
    assert first.from_cache is False and first.entry == "gather"
    np.testing.assert_array_equal(first(data, ids), data[ids])
    again = nd.compile(str(model), cache_dir=cache)
    assert again.from_cache is True and again.path == first.path
    np.testing.assert_array_equal(again(data, ids), data[ids])
    assert len(_entries(cache)) == 1

    # Every option is part of the key.
    unchecked = nd.compile(str(model), cache_dir=cache, check_bounds=False)
    assert unchecked.from_cache is False and unchecked.path != first.path
    assert nd.compile(str(model), cache_dir=cache,
                      check_bounds=False).from_cache is True
    assert nd.compile(str(model), cache_dir=cache, opt=1).from_cache is False
    assert nd.compile(str(model), cache_dir=cache,
                      entry="other").from_cache is False
    assert len(_entries(cache)) == 4

    # So are the model's bytes: the same path with new contents is a miss.
    model.write_text(GATHER.replace("%ids]", "%ids] axis(0)"))
    changed = nd.compile(str(model), cache_dir=cache)
    assert changed.from_cache is False and changed.path != first.path
    model.write_text(GATHER)
    assert nd.compile(str(model), cache_dir=cache).path == first.path

    # Text and file compile alike; the text is kept beside its library, under
    # the name nd's messages give it.
    text = nd.compile(GATHER, cache_dir=cache)
    assert text.entry == "module"
    folder = os.path.dirname(text.path)
    with open(os.path.join(folder, "module.mlir")) as f:
        assert f.read() == GATHER
    with pytest.raises(nd.Error, match=r"^module.mlir:4:8: nd.gather: index "
                       r"4 in operand 'indices'"):
        text(data, np.array([0, 4, 1], np.int64))
    assert not [e for e in _entries(cache) if e.startswith(".")]


def test_default_cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("ND_CACHE_DIR", str(tmp_path / "mine"))
    assert nd.default_cache_dir() == str(tmp_path / "mine")
    module = nd.compile(GATHER)
    assert module.path.startswith(str(tmp_path / "mine") + os.sep)
    monkeypatch.delenv("ND_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert nd.default_cache_dir() == str(tmp_path / "xdg" / "nd")


def test_openvino_weights_are_part_of_the_key(tmp_path):
    """ScatterUpdate-3 with its indices in the weights file: new weights
    are a new library."""
    shutil.copy(os.path.join(OPENVINO_INPUTS, "scatter_update.xml"),
                tmp_path / "scatter_update.xml")
    weights = tmp_path / "scatter_update.bin"
    cache = str(tmp_path / "cache")
    data = np.arange(15, dtype=np.float32).reshape(3, 5)
    updates = -np.arange(1, 7, dtype=np.float32).reshape(3, 2)
    for columns in ([0, 2], [4, 1]):
        weights.write_bytes(np.array(columns + [1], "<i8").tobytes())
        module = nd.compile(str(tmp_path / "scatter_update.xml"),
                            cache_dir=cache)
        assert module.from_cache is False
        expected = data.copy()
        expected[:, columns] = updates
        np.testing.assert_array_equal(module(data, updates), expected)
    assert len(_entries(cache)) == 2
    # --weights: the same bytes elsewhere are a hit.
    other = tmp_path / "other.bin"
    other.write_bytes(weights.read_bytes())
    again = nd.compile(str(tmp_path / "scatter_update.xml"), cache_dir=cache,
                       weights=str(other))
    assert again.from_cache is True


def test_compile_errors(tmp_path):
    cache = str(tmp_path / "cache")
    with pytest.raises(nd.CompileError) as caught:
        nd.compile(GATHER.replace("tensor<3x2xf32> {", "tensor<3x3xf32> {"),
                   cache_dir=cache)
    assert caught.value.status == "compile failed"
    assert "module.mlir:" in caught.value.message
    assert "error:" in caught.value.message
    assert caught.value.command[0].endswith("nd-compile")
    with pytest.raises(nd.Error, match="no model file 'missing.onnx'"):
        nd.compile("missing.onnx", cache_dir=cache)
    with pytest.raises(nd.Error, match="opt must be 0, 1, 2 or 3"):
        nd.compile(GATHER, cache_dir=cache, opt=4)
    with pytest.raises(nd.CompileError, match="donate"):
        nd.compile(GATHER, cache_dir=cache, donate=[5])
    # Nothing half-made stays behind.
    assert not os.path.exists(cache) or _entries(cache) == []


def test_targets(tmp_path):
    # Target "cuda" has tests of its own (test_cuda.py).
    with pytest.raises(nd.Error, match="unknown target 'tpu' \\(targets: "
                       "cpu, cuda\\)"):
        nd.compile(GATHER, target="tpu", cache_dir=str(tmp_path))


def _run_isolated(tmp_path, code, env_extra):
    """Runs `code` with a copy of the package that is in no nd tree, so
    that only what `env_extra` names can lead it to nd."""
    import nd as package
    copy = tmp_path / "isolated"
    if not copy.exists():
        shutil.copytree(os.path.dirname(package.__file__), copy / "nd",
                        ignore=shutil.ignore_patterns("__pycache__"))
    env = {key: value for key, value in os.environ.items()
           if key not in ("ND_BUILD_DIR", "PYTHONPATH")}
    env["PATH"] = "/usr/bin:/bin"
    env["PYTHONPATH"] = str(copy)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], env=env,
                          cwd=str(tmp_path), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def test_where_nd_is_found(tmp_path, build_root):
    """$ND_BUILD_DIR leads to nd; without it, the error lists where the
    package looked."""
    code = ("import nd, numpy as np\n"
            f"m = nd.compile({GATHER!r}, cache_dir='cache')\n"
            "ones = np.ones((4, 2), np.float32)\n"
            "print(m(ones, np.array([0, 1, 2])).sum())\n")
    found = _run_isolated(tmp_path, code, {"ND_BUILD_DIR": build_root})
    assert found.returncode == 0, found.stdout
    assert found.stdout.strip() == "6.0"

    lost = _run_isolated(tmp_path, code, {})
    if os.path.exists("/usr/lib/libnd_runtime.so") or \
            os.path.exists("/usr/local/lib/libnd_runtime.so"):
        pytest.skip("nd is installed on this system")
    assert lost.returncode != 0
    assert "nd._errors.Error: cannot find libnd_runtime.so; looked in:" \
        in lost.stdout
    assert f"{tmp_path / 'isolated'}/lib/libnd_runtime.so (a folder above " \
           f"the package)" in lost.stdout
    assert "Set ND_BUILD_DIR to nd's build directory or installed prefix" \
        in lost.stdout

    explicit = _run_isolated(
        tmp_path, f"import nd\nnd.configure(root={build_root!r})\n" + code,
        {})
    assert explicit.returncode == 0, explicit.stdout
    assert explicit.stdout.strip() == "6.0"


def test_compile_options(tmp_path):
    """nd.CompileOptions carries the options typed and checked; keyword
    arguments replace its fields; both spellings build the same library."""
    cache = str(tmp_path / "cache")
    options = nd.CompileOptions(check_bounds=False, opt=2, donate=[1, 0, 1])
    assert options.donate == (0, 1) and options.target == "cpu"
    assert nd.CompileOptions(donate=3).donate == (3,)
    first = nd.compile(GATHER, options=nd.CompileOptions(check_bounds=False,
                                                         opt=2),
                       cache_dir=cache)
    again = nd.compile(GATHER, check_bounds=False, opt=2, cache_dir=cache)
    assert again.from_cache is True and again.path == first.path
    replaced = nd.compile(GATHER, options=nd.CompileOptions(opt=2),
                          check_bounds=False, cache_dir=cache)
    assert replaced.path == first.path
    other = nd.compile(GATHER, options=nd.CompileOptions(check_bounds=False,
                                                         opt=2), opt=1,
                       cache_dir=cache)
    assert other.from_cache is False
    with pytest.raises(nd.Error, match="opt must be 0, 1, 2 or 3, not 7"):
        nd.CompileOptions(opt=7)
    with pytest.raises(nd.Error, match="unknown target 'tpu'"):
        nd.CompileOptions(target="tpu")
    with pytest.raises(nd.Error, match=r"donate names input positions \(0 or "
                       r"more\), not \[-1\]"):
        nd.CompileOptions(donate=[-1])
    with pytest.raises(nd.Error, match="cuda_chips and cuda_toolkit are for "
                       "target 'cuda'"):
        nd.CompileOptions(cuda_chips="sm_90")
    with pytest.raises(nd.Error, match="options= takes an nd.CompileOptions, "
                       "not dict"):
        nd.compile(GATHER, options={"opt": 2}, cache_dir=cache)
    with pytest.raises(Exception):
        options.opt = 1  # frozen


def test_no_main_lists_the_functions(tmp_path):
    """A module without @main, compiled without function=, is refused with
    the functions it has."""
    model = tmp_path / "two.mlir"
    model.write_text(GATHER.replace("@main", "@lookup") + """
func.func @append(%cache: tensor<4x2xf32>) -> tensor<4x2xf32> {
  return %cache : tensor<4x2xf32>
}
func.func private @helper(%x: tensor<4x2xf32>) -> tensor<4x2xf32>
""")
    with pytest.raises(nd.CompileError) as caught:
        nd.compile(str(model), cache_dir=str(tmp_path / "cache"))
    assert caught.value.message.endswith(
        "the module has no function @main with a body; its functions: "
        "@lookup, @append (function=NAME compiles one)")
    module = nd.compile(str(model), function="lookup",
                        cache_dir=str(tmp_path / "cache"))
    data = np.arange(8, dtype=np.float32).reshape(4, 2)
    np.testing.assert_array_equal(module(data, np.array([3, 0, 1])),
                                  data[[3, 0, 1]])
