"""Writes an OpenVINO weights file: the little-endian bytes of each TYPE:VALUES
argument, one after the other (each starts where the previous one ends).

    mkbin.py OUT.bin TYPE:VALUES...

TYPE is a NumPy dtype name (int64, int32, uint8, float32, float16, bool, ...);
VALUES are comma-separated numbers (true/false for bool), or empty for none.
"""
import sys

import numpy as np


def main():
    out, items = sys.argv[1], sys.argv[2:]
    data = b""
    for item in items:
        dtype, _, values = item.partition(":")
        dtype = np.dtype(dtype).newbyteorder("<")
        if dtype == np.bool_:
            parsed = [v.strip() == "true" for v in values.split(",") if v]
        else:
            parsed = [float(v) if dtype.kind == "f" else int(v)
                      for v in values.split(",") if v]
        data += np.array(parsed, dtype=dtype).tobytes()
    with open(out, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
