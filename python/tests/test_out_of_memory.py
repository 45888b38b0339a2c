"""A buffer the compiled code cannot allocate: nd.Error with status "out of
memory" and nd's message, and the process goes on (before, the generated
code wrote through the null buffer and the Python process died)."""

import os
import subprocess
import sys
import textwrap

GATHER = """
func.func @main(%data: tensor<?x?xf32>, %ids: tensor<?xi64>)
    -> tensor<?x?xf32> {
  %r = nd.gather %data[%ids]
      : tensor<?x?xf32>, tensor<?xi64> -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
"""

# Under a limit of 8 GiB of address space (its own process: the limit
# cannot be lifted again), a gather of 2^14 rows of 2^20 floats (64 GiB),
# then one of two rows.
CHILD = textwrap.dedent("""
    import resource
    import sys
    import numpy as np
    import nd
    module = nd.compile(sys.argv[1], cache_dir=sys.argv[2])
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))
    table = np.zeros((2, 1 << 20), np.float32)
    table[1, 5] = 7
    try:
        module(table, np.zeros(1 << 14, np.int64))
        print("no error")
    except nd.Error as error:
        print(f"{type(error).__name__} {error.status}: {error.message}")
    rows = module(table, np.array([1, 0], np.int64))
    print(f"then {rows.shape} {rows[0, 5]} {rows[1, 5]}")
""")


def test_out_of_memory_and_the_call_after(tmp_path, cache_dir):
    model = tmp_path / "gather.mlir"
    model.write_text(GATHER)
    result = subprocess.run([sys.executable, "-c", CHILD, str(model),
                             cache_dir], capture_output=True, text=True,
                            env=dict(os.environ), check=False, timeout=600)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Error out of memory: ")
    assert lines[0].endswith(":4:8: cannot allocate 68719476736 bytes for "
                             "a buffer of the compiled code"), lines[0]
    assert lines[1] == "then (2, 1048576) 7.0 0.0"
