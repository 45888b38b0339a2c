"""Every function a public header declares with an export macro
(ND_CUDA_EXPORT, ND_RUNTIME_EXPORT), in the header and the nd-c headers it
includes, is defined by a shared library: `nm -D --defined-only LIB` on
stdin. Prints how many were declared and each one the library lacks; exits
1 if one is missing or none was found (runtime-exports.test)."""

import os
import re
import sys

DECLARATION = re.compile(
    r"\bND_[A-Z]+_EXPORT\b[^;{(]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
INCLUDE = re.compile(r'#include\s+"(nd-c/[^"]+)"')


def declared(include_dir, header, seen):
    if header in seen:
        return []
    seen.add(header)
    with open(os.path.join(include_dir, header)) as f:
        text = f.read()
    # Comments may quote declarations; they declare nothing.
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    # So do the preprocessor's lines (the macros' own definitions).
    includes = INCLUDE.findall(text)
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)
    names = [m.group(1) for m in DECLARATION.finditer(text)]
    for included in includes:
        names += declared(include_dir, included, seen)
    return names


def main():
    include_dir, header = sys.argv[1], sys.argv[2]
    names = sorted(set(declared(include_dir, header, set())))
    defined = set()
    for line in sys.stdin:
        fields = line.split()
        if len(fields) == 3 and fields[1] in ("T", "W", "i"):
            defined.add(fields[2].split("@")[0])
    missing = [n for n in names if n not in defined]
    print(f"{header}: {len(names)} functions declared, "
          f"{len(names) - len(missing)} defined")
    for name in missing:
        print(f"missing: {name}")
    sys.exit(1 if missing or not names else 0)


if __name__ == "__main__":
    main()
