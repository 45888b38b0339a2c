"""Mutation fuzz of the OpenVINO IR importer (run by hand, not by check-nd).

    fuzz-ir.py NDTRANSLATE [RUNS] [SEED]

Takes every IR file of the tests (the `#--- name.xml` sections of
test/Target/OpenVINO/**/*.test and Inputs/*.xml), mutates it (bytes, spans,
lines, numbers, attribute values, the weights file) and imports the result
with NDTRANSLATE --import-openvino, best a build with ASan and UBSan
(-DLLVM_USE_SANITIZER=Address -DCMAKE_CXX_FLAGS="-fsanitize=undefined
-fno-sanitize=vptr -fno-sanitize-recover=all"
-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=undefined). Every run must either import
(exit 0) or be rejected with an "error:" diagnostic (exit 1); anything else
(a signal, a sanitizer report, another exit status, a failure without a
message) is a finding, saved under fuzz-findings/ with its weights file.
Prints the counts.
"""
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = pathlib.Path(__file__).resolve().parent
TESTS = HERE.parent

NUMBERS = ["0", "1", "-1", "-2", "2", "3", "7", "64", "255", "65535",
           "2147483647", "2147483648", "-2147483649", "4294967296",
           "9223372036854775807", "9223372036854775808",
           "-9223372036854775808", "18446744073709551616",
           "99999999999999999999", "", " ", "1.5", "0x10", "+3", "1e3"]
WORDS = ["opset1", "opset3", "opset4", "opset5", "opset6", "opset7",
         "opset8", "opset12", "opset14", "opset15", "opset16", "opset17",
         "opset0", "opsetX", "Parameter", "Const", "Constant", "Result",
         "Convert", "ScatterNDUpdate", "ScatterElementsUpdate",
         "ScatterUpdate", "GatherND", "Gather", "GatherElements", "Add",
         "f32", "f16", "bf16", "f64", "i8", "i16", "i32", "i64", "u8", "u16",
         "u32", "u64", "boolean", "u1", "u4", "i4", "nf4", "string",
         "dynamic", "FP32", "FP16", "I32", "I64", "U8", "BOOL", "BIN",
         "UNSPECIFIED", "none", "sum", "sub", "prod", "min", "max", "mean",
         "true", "false", "yes", "?", "-1", "1..4", "...", "2,3", "0,0",
         "4,?", "", "&amp;", "<", ">", "\"", "]]>"]


def corpus():
    files = []
    for test in sorted(TESTS.rglob("*.test")):
        text = test.read_text()
        for m in re.finditer(r"^#--- (\S+\.xml)\n(.*?)(?=^#--- |\Z)", text,
                             re.S | re.M):
            files.append((f"{test.name}:{m.group(1)}", m.group(2).encode()))
    for xml in sorted(HERE.glob("*.xml")):
        files.append((xml.name, xml.read_bytes()))
    return files


def weights(rng):
    # Patterned bytes: small non-negative integers when read as i64/i32, so
    # that constant indices and axes are often valid.
    size = rng.choice([0, 1, 7, 16, 24, 64, 256] + [4096] * 13)
    pattern = bytes([0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                     2, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255,
                     255, 255])
    if rng.random() < 0.2:
        return bytes(rng.randrange(256) for _ in range(size))
    return (pattern * (size // len(pattern) + 1))[:size]


def mutate(data, rng):
    text = bytearray(data)
    for _ in range(rng.choice([0, 1, 1, 1, 1, 1, 2, 3])):
        kind = rng.randrange(9)
        if not text:
            break
        i = rng.randrange(len(text))
        if kind == 0:
            text[i] = rng.randrange(256)
        elif kind == 1:
            del text[i:i + rng.randrange(1, 40)]
        elif kind == 2:
            j = min(len(text), i + rng.randrange(1, 200))
            text[i:i] = text[i:j]
        elif kind == 3:
            numbers = [m for m in re.finditer(rb"-?\d+", text)]
            if numbers:
                m = rng.choice(numbers)
                text[m.start():m.end()] = rng.choice(NUMBERS).encode()
        elif kind == 4:
            values = [m for m in re.finditer(rb'="([^"]*)"', text)]
            if values:
                m = rng.choice(values)
                text[m.start(1):m.end(1)] = rng.choice(WORDS).encode()
        elif kind == 5:
            lines = bytes(text).split(b"\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            text = bytearray(b"\n".join(lines))
        elif kind == 6:
            lines = bytes(text).split(b"\n")
            del lines[rng.randrange(len(lines))]
            text = bytearray(b"\n".join(lines))
        elif kind == 7:
            lines = bytes(text).split(b"\n")
            k = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines)), lines[k])
            text = bytearray(b"\n".join(lines))
        else:
            del text[rng.randrange(len(text)):]
    return bytes(text)


def run_one(args):
    tool, name, xml, bin_data, index, workdir = args
    d = pathlib.Path(workdir) / f"r{index}"
    d.mkdir()
    (d / "model.xml").write_bytes(xml)
    (d / "model.bin").write_bytes(bin_data)
    env = dict(os.environ,
               ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:exitcode=86",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:exitcode=87")
    p = subprocess.run([tool, "--import-openvino", str(d / "model.xml"),
                        "-o", os.devnull],
                       capture_output=True, env=env, timeout=120)
    err = p.stderr.decode(errors="replace")
    if p.returncode == 0:
        outcome = "imported"
    elif (p.returncode == 1 and "error: " in err and "Sanitizer" not in err
          and "runtime error" not in err):
        outcome = "rejected"
    else:
        outcome = "finding"
    return name, index, outcome, p.returncode, err, xml, bin_data


def main():
    tool = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    files = corpus()
    jobs = []
    with tempfile.TemporaryDirectory() as workdir:
        for index in range(runs):
            name, data = rng.choice(files)
            jobs.append((tool, name, mutate(data, rng), weights(rng), index,
                         workdir))
        counts = {"imported": 0, "rejected": 0, "finding": 0}
        findings = pathlib.Path("fuzz-findings")
        with ThreadPoolExecutor(max_workers=2) as pool:
            for name, index, outcome, rc, err, xml, bin_data in pool.map(
                    run_one, jobs):
                counts[outcome] += 1
                if outcome == "finding":
                    findings.mkdir(exist_ok=True)
                    (findings / f"{index}.xml").write_bytes(xml)
                    (findings / f"{index}.bin").write_bytes(bin_data)
                    (findings / f"{index}.txt").write_text(
                        f"{name} exit {rc}\n{err}")
                    print(f"finding {index} ({name}): exit {rc}",
                          file=sys.stderr)
    print(f"{len(files)} seed files, {runs} runs (seed {seed}): "
          f"{counts['imported']} imported, {counts['rejected']} rejected "
          f"with a message, {counts['finding']} findings")
    return 1 if counts["finding"] else 0


if __name__ == "__main__":
    sys.exit(main())
