"""Prints the PTX of the GPU binaries in MLIR text (the `assembly` objects of
gpu.binary ops, as gpu-module-to-binary{format=isa} makes them)."""
import re
import sys

text = open(sys.argv[1]).read()
for match in re.finditer(r'assembly = "((?:[^"\\]|\\.)*)"', text):
    body = re.sub(r"\\([0-9A-Fa-f]{2})",
                  lambda m: chr(int(m.group(1), 16)), match.group(1))
    sys.stdout.write(body.replace('\\"', '"').replace("\\\\", "\\"))
