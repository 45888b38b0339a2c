"""Checks nd's GPU kernels as ptxas and the PTX show them.

  check_ptx.py PTX LOG [--max-registers N] [--vector FUNCTION ...]

PTX is the PTX of the kernels, LOG what `ptxas -v` printed for it. Every
kernel must have no spills and at most N registers (64 by default); no
kernel may load a 64-bit integer as two 32-bit halves (NVPTX's form of an
8-byte load at 4-byte alignment: the half at offset +4 loaded into a 64-bit
register and shifted up by 32); and each FUNCTION (the kernels outlined
from a host function are named FUNCTION_kernel, FUNCTION_kernel_N) must
have a kernel with a 16-byte global load (`ld.global.v4` of 32-bit words, or `ld.global.v2` of 64-bit
ones). Prints one line per property, then `ok` or the failures, and exits
non-zero on a failure.
"""

import argparse
import re
import sys


def kernels_of_log(text):
    """{kernel: (registers, spill store bytes, spill load bytes)}."""
    out = {}
    for block in text.split("Compiling entry function ")[1:]:
        name = re.match(r"'(\w+)'", block).group(1)
        stores = int(re.search(r"(\d+) bytes spill stores", block).group(1))
        loads = int(re.search(r"(\d+) bytes spill loads", block).group(1))
        registers = int(re.search(r"Used (\d+) registers", block).group(1))
        out[name] = (registers, stores, loads)
    return out


def kernels_of_ptx(text):
    """{kernel: its PTX body}."""
    out = {}
    for match in re.finditer(r"\.entry (\w+)\((.*?)\n}\n", text, re.S):
        out[match.group(1)] = match.group(2)
    return out


def function_of(kernel):
    return re.sub(r"_kernel(_\d+)?$", "", kernel)


HIGH_HALF = re.compile(r"ld\.global(?:\.nc)?\.[bu]32\s+(%rd\d+), \[[^\]]*\+4\]")


def splits_a_load(body):
    """Whether a 32-bit load at offset +4 into a 64-bit register is shifted
    into the high half of a 64-bit value."""
    for match in HIGH_HALF.finditer(body):
        shift = r"shl\.b64\s+%rd\d+, " + re.escape(match.group(1)) + r", 32;"
        if re.search(shift, body):
            return True
    return False


WIDE_LOAD = re.compile(
    r"ld\.global(?:\.nc)?\.(?:v4\.[bfsu]32|v2\.[bfsu]64)\s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ptx")
    parser.add_argument("log")
    parser.add_argument("--max-registers", type=int, default=64)
    parser.add_argument("--vector", nargs="*", default=[])
    args = parser.parse_args()
    log = kernels_of_log(open(args.log).read())
    ptx = kernels_of_ptx(open(args.ptx).read())
    failures = []
    if not log or set(log) != set(ptx):
        failures.append("the log and the PTX name different kernels")
    most = max((r for r, _, _ in log.values()), default=0)
    print(f"kernels: {len(log)}")
    print(f"most registers: {most}")
    for kernel, (registers, stores, loads) in sorted(log.items()):
        if registers > args.max_registers:
            failures.append(f"{kernel}: {registers} registers")
        if stores or loads:
            failures.append(f"{kernel}: spills ({stores} bytes stored)")
    split = sorted(k for k, body in ptx.items() if splits_a_load(body))
    print("64-bit loads in two halves: " + (" ".join(split) or "none"))
    failures += [f"{k}: a 64-bit load in two halves" for k in split]
    for function in args.vector:
        wide = sorted(k for k, body in ptx.items()
                      if function_of(k) == function and WIDE_LOAD.search(body))
        print(f"16-byte loads in {function}: {len(wide)} kernel(s)")
        if not wide:
            failures.append(f"{function}: no kernel with a 16-byte load")
    for failure in failures:
        print("FAIL: " + failure)
    print("ok" if not failures else f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
