"""Writes a .npy file of dtype argv[2] and shape argv[3:] that holds no
element (one dim is 0), for shapes too large for NumPy to build the array:
python3 empty-npy.py OUT.npy '<f4' 0 4611686018427387904 4611686018427387904"""

import sys

path, descr, dims = sys.argv[1], sys.argv[2], [int(d) for d in sys.argv[3:]]
assert 0 in dims, "the array must be empty"
shape = ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "")
header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, shape)
body = header.encode("latin1")
# Format 1.0: magic, version, 2-byte length, the dict padded so that the
# data starts on a 64-byte boundary, a newline.
body += b" " * ((-(10 + len(body) + 1)) % 64) + b"\n"
with open(path, "wb") as f:
    f.write(b"\x93NUMPY\x01\x00" + len(body).to_bytes(2, "little") + body)
