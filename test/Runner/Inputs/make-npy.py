"""Writes the .npy files of the TensorFile tests into the directory argv[1]:
valid files of every dtype and format version, and one malformed file per
class the reader must reject."""

import os
import sys

import numpy as np

out = sys.argv[1]


def path(name):
    return os.path.join(out, name)


def save(name, array, version=None):
    with open(path(name), "wb") as f:
        np.lib.format.write_array(f, array, version=version,
                                  allow_pickle=array.dtype == object)


def raw(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def header_v1(text):
    """A format 1.0 prologue around the header dict `text`."""
    body = text.encode("latin1")
    body += b" " * ((-(10 + len(body) + 1)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(body).to_bytes(2, "little") + body


# Valid files, one per dtype.
save("bool.npy", np.array([True, False, True]))
save("i8.npy", np.array([-128, 0, 127], np.int8))
save("i16.npy", np.array([-32768, 32767], np.int16))
save("i32.npy", np.array([[-2147483648], [2147483647]], np.int32))
save("i64.npy", np.array([-9223372036854775808, 9223372036854775807], np.int64))
save("u8.npy", np.array([0, 255], np.uint8))
save("u16.npy", np.array([0, 65535], np.uint16))
save("u32.npy", np.array([0, 4294967295], np.uint32))
save("u64.npy", np.array([0, 18446744073709551615], np.uint64))
save("f16.npy", np.array([1.0, -2.5, 65504, np.inf, np.nan, 0.1], np.float16))
save("f32.npy", np.array([[1.5, -0.1], [1e-30, 3.4028235e38]], np.float32))
save("f64.npy", np.array([0.1, -1e300, -0.0], np.float64))
save("c64.npy", np.array([1 + 2j, -0.5 - 1j], np.complex64))
save("c128.npy", np.array([[0.1 + 0.2j]], np.complex128))
save("scalar.npy", np.array(3.5, np.float32))
save("empty.npy", np.zeros((0, 3), np.float32))
save("rank3.npy", np.arange(24, dtype=np.int32).reshape(2, 3, 4))
save("v2.npy", np.array([1, 2, 3], np.int16), version=(2, 0))
save("v3.npy", np.array([4.0, 5.0], np.float64), version=(3, 0))

# Malformed or unsupported files.
save("fortran.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
save("big-endian.npy", np.array([1, 2], ">i4"))
save("object.npy", np.array([1, "a"], dtype=object))
save("unicode.npy", np.array(["ab", "c"]))
save("structured.npy", np.zeros(2, dtype=[("a", "<i4"), ("b", "<f4")]))
save("datetime.npy", np.array(["2020-01-01"], "datetime64[D]"))
save("longdouble.npy", np.array([1.0], np.longdouble))
valid = open(path("f32.npy"), "rb").read()
raw("truncated-data.npy", valid[:-3])
raw("trailing-data.npy", valid + b"xx")
raw("truncated-header.npy", valid[:40])
raw("truncated-prologue.npy", valid[:8])
raw("bad-magic.npy", b"\x93NUMPZ" + valid[6:])
raw("bad-version.npy", valid[:6] + b"\x04\x00" + valid[8:])
raw("header-length.npy", valid[:8] + (60000).to_bytes(2, "little") + valid[10:])
raw("no-newline.npy", valid[:10] + valid[10:127].replace(b"\n", b" ") + valid[128:])
raw("missing-key.npy", header_v1("{'descr': '<f4', 'fortran_order': False, }") + bytes(4))
raw("extra-key.npy", header_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': 1, }") + bytes(4))
raw("negative-shape.npy", header_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }"))
raw("not-a-dict.npy", header_v1("hello") + bytes(4))
raw("huge-shape.npy", header_v1("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }"))
raw("huge-size.npy", header_v1("{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000), }") + bytes(16))
raw("python2-long.npy", header_v1("{'descr': '<i2', 'fortran_order': False, 'shape': (2L,), }") + b"\x01\x00\x02\x00")
raw("empty-file.npy", b"")
