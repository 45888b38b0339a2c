"""`pip install` of the package, offline, and the installed package at work
(docs/python.md)."""

import os
import shutil
import subprocess
import sys

from conftest import SOURCE_ROOT

import nd


def test_pip_install_target(tmp_path, build_root):
    # From a copy: an in-place build would write build/ and *.egg-info into
    # the source tree.
    source = tmp_path / "source"
    shutil.copytree(os.path.join(SOURCE_ROOT, "python"), source,
                    ignore=shutil.ignore_patterns("__pycache__", "tests",
                                                  "build", "*.egg-info"))
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-cache-dir",
         "--no-build-isolation", "--no-index", "--quiet", "--target",
         str(target), str(source)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert install.returncode == 0, install.stdout
    assert (target / "nd" / "_module.py").exists()
    assert (target / f"nd-{nd.__version__}.dist-info").is_dir()

    code = (
        "import nd, numpy as np\n"
        "print(nd.__file__)\n"
        "m = nd.compile('''func.func @main(%d: tensor<3xi32>, "
        "%i: tensor<2xi64>) -> tensor<2xi32> {\n"
        "  %r = nd.gather %d[%i] : tensor<3xi32>, tensor<2xi64> -> "
        "tensor<2xi32>\n"
        "  return %r : tensor<2xi32>\n}''', cache_dir='cache')\n"
        "print(m(np.array([10, 20, 30], np.int32), np.array([2, -3])))\n"
        "try:\n"
        "    m(np.array([10, 20, 30], np.int32), np.array([3, 0]))\n"
        "except nd.Error as e:\n"
        "    print(e.status, '|', e)\n")
    env = {key: value for key, value in os.environ.items()
           if key != "PYTHONPATH"}
    env.update(PYTHONPATH=str(target), ND_BUILD_DIR=build_root,
               PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([sys.executable, "-c", code], env=env,
                         cwd=str(tmp_path), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    assert run.returncode == 0, run.stdout
    lines = run.stdout.splitlines()
    assert lines[0] == str(target / "nd" / "__init__.py")
    assert lines[1] == "[30 10]"
    assert lines[2] == ("check failed | module.mlir:2:8: nd.gather: index 3 "
                        "in operand 'indices' is out of range for dim 0 of "
                        "operand 'data' (size 3)")
