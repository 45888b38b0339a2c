"""Runs the README's example commands as written.

Each ```sh block of README.md that follows a line `<!-- example: NAME ... -->`
is an example: its text runs as one bash script (`set -e -o pipefail`) in a
fresh directory that looks like the repository root after the build (a
symbolic link to each entry of the source root, and `build` to the build
directory), so that `build/bin/...`, `examples/...` and `test/...` resolve as
in the README; TMPDIR is a directory of its own. What the README says the
example prints, its lines of comments (`# ...`) after the commands and the
``` block that follows a line `<!-- output: NAME -->`, must be lines of its
output, in that order. Prints, for each example run,

    === NAME
    <its stdout and stderr>
    === NAME: exit status N
    === NAME: the README's output: found (or the first line not found)

for FileCheck to check further.

Usage: python3 readme_examples.py --source DIR --build DIR [NAME...]
(every example when no NAME is given; an unknown NAME is an error)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

_MARK = re.compile(r"^<!-- (example|output): (\w+)")


def _block(lines, i, fence, kind, name):
    """The lines of the fenced block that starts at lines[i + 1]."""
    if i + 1 >= len(lines) or lines[i + 1].strip() != fence:
        raise SystemExit(f"README.md:{i + 1}: {kind} '{name}' is not "
                         f"followed by a {fence} block")
    end = i + 2
    while end < len(lines) and lines[end].strip() != "```":
        end += 1
    return lines[i + 2:end]


def examples(readme):
    """[(name, script, expected output lines)] of the README's examples, in
    order."""
    found = []
    outputs = {}
    lines = readme.splitlines()
    for i, line in enumerate(lines):
        match = _MARK.match(line)
        if not match:
            continue
        kind, name = match.groups()
        if kind == "output":
            outputs[name] = [text for text in _block(lines, i, "```", kind, name)
                             if text.strip()]
            continue
        script = _block(lines, i, "```sh", kind, name)
        comments = []
        while script and script[-1].startswith("# "):
            comments.insert(0, script.pop()[2:])
        found.append((name, "\n".join(script) + "\n", comments))
    return [(name, script, comments + outputs.get(name, []))
            for name, script, comments in found]


def first_missing(expected, output):
    """The first of the `expected` lines that is not a line of `output`
    after the lines found before it, or None."""
    lines = [line.rstrip() for line in output.splitlines()]
    position = 0
    for line in expected:
        try:
            position = lines.index(line.rstrip(), position) + 1
        except ValueError:
            return line
    return None


def checkout_view(source, build, directory):
    """Links the source root's entries and `build` into `directory`."""
    for entry in os.listdir(source):
        if entry in ("build", ".git"):
            continue
        os.symlink(os.path.join(source, entry), os.path.join(directory, entry))
    os.symlink(build, os.path.join(directory, "build"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    with open(os.path.join(args.source, "README.md")) as f:
        found = examples(f.read())
    known = [name for name, _, _ in found]
    unknown = [name for name in args.names if name not in known]
    if unknown:
        print(f"unknown examples {unknown}; the README has {known}")
        return 1
    for name, script, expected in found:
        if args.names and name not in args.names:
            continue
        with tempfile.TemporaryDirectory() as directory:
            root = os.path.join(directory, "checkout")
            temporary = os.path.join(directory, "tmp")
            os.mkdir(root)
            os.mkdir(temporary)
            checkout_view(os.path.abspath(args.source),
                          os.path.abspath(args.build), root)
            result = subprocess.run(
                ["bash", "-e", "-o", "pipefail", "-c", script],
                cwd=root, env=dict(os.environ, TMPDIR=temporary),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                check=False)
        print(f"=== {name}")
        print(result.stdout, end="")
        print(f"=== {name}: exit status {result.returncode}")
        missing = first_missing(expected, result.stdout)
        print(f"=== {name}: the README's output: " +
              ("found" if missing is None else f"not found: {missing}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
