"""Runs the example commands of the README and the manual as written.

Each ```sh block of README.md or docs/*.md (or of the markdown files given
with --doc) that follows a line `<!-- example: NAME ... -->` is an example
(NAME is unique across the files): its text runs as one bash script (`set -e -o pipefail`) in a
fresh directory that looks like the repository root after the build (a
symbolic link to each entry of the source root, a copy of `python/`, which
`pip install ./python` builds in, and `build` to the build directory), so
that `build/bin/...`, `examples/...` and `test/...` resolve as the pages say;
TMPDIR and XDG_CACHE_HOME (nd.compile's cache) are a directory of its own.
What the page says the example prints, its lines of comments (`# ...`) after the commands and the
``` block that follows a line `<!-- output: NAME -->` in the same file, must
be lines of its output, in that order. Prints, for each example run,

    === NAME
    <its stdout and stderr>
    === NAME: exit status N
    === NAME: the page's output: found (or the first line not found)

for FileCheck to check further.

Usage: python3 readme_examples.py --source DIR --build DIR [--doc FILE]...
       [NAME...]
(the NAMEs in the order given, every example in the files' order when no
NAME is given; an unknown NAME is an error; --doc paths are relative to the
source directory)
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

_MARK = re.compile(r"^<!-- (example|output): (\w+)")


def _block(path, lines, i, fence, kind, name):
    """The lines of the fenced block that starts at lines[i + 1]."""
    if i + 1 >= len(lines) or lines[i + 1].strip() != fence:
        raise SystemExit(f"{path}:{i + 1}: {kind} '{name}' is not "
                         f"followed by a {fence} block")
    end = i + 2
    while end < len(lines) and lines[end].strip() != "```":
        end += 1
    return lines[i + 2:end]


def examples(text, path="README.md"):
    """[(name, script, expected output lines)] of the examples of the
    markdown `text` (read from `path`, which messages name), in order."""
    found = []
    outputs = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = _MARK.match(line)
        if not match:
            continue
        kind, name = match.groups()
        if kind == "output":
            outputs[name] = [line for line in
                             _block(path, lines, i, "```", kind, name)
                             if line.strip()]
            continue
        script = _block(path, lines, i, "```sh", kind, name)
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


def documents(source):
    """README.md and the pages of docs/, relative to `source`."""
    pages = sorted(entry for entry in os.listdir(os.path.join(source, "docs"))
                   if entry.endswith(".md"))
    return ["README.md"] + [os.path.join("docs", page) for page in pages]


# Entries of the source root that an example writes into, and which the view
# therefore copies: `pip install ./python` builds in place (build/ and
# nd.egg-info beside the package).
_COPIED = ("python",)


def checkout_view(source, build, directory):
    """Links the source root's entries and `build` into `directory` (copies
    those of _COPIED)."""
    for entry in os.listdir(source):
        if entry in ("build", ".git"):
            continue
        if entry in _COPIED:
            shutil.copytree(os.path.join(source, entry),
                            os.path.join(directory, entry),
                            ignore=shutil.ignore_patterns("__pycache__",
                                                          "build",
                                                          "*.egg-info"))
            continue
        os.symlink(os.path.join(source, entry), os.path.join(directory, entry))
    os.symlink(build, os.path.join(directory, "build"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--build", required=True)
    parser.add_argument("--doc", action="append", default=None,
                        help="a markdown file to take examples from "
                        "(default: README.md and docs/*.md)")
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    found = []
    where = {}
    for doc in args.doc or documents(args.source):
        with open(os.path.join(args.source, doc)) as f:
            for example in examples(f.read(), doc):
                if example[0] in where:
                    print(f"{doc}: example '{example[0]}' is also in "
                          f"{where[example[0]]}")
                    return 1
                where[example[0]] = doc
                found.append(example)
    known = [name for name, _, _ in found]
    unknown = [name for name in args.names if name not in known]
    if unknown:
        print(f"unknown examples {unknown}; the pages have {known}")
        return 1
    if args.names:
        chosen = {name: (name, script, expected)
                  for name, script, expected in found}
        found = [chosen[name] for name in args.names]
    for name, script, expected in found:
        with tempfile.TemporaryDirectory() as directory:
            root = os.path.join(directory, "checkout")
            temporary = os.path.join(directory, "tmp")
            os.mkdir(root)
            os.mkdir(temporary)
            checkout_view(os.path.abspath(args.source),
                          os.path.abspath(args.build), root)
            result = subprocess.run(
                ["bash", "-e", "-o", "pipefail", "-c", script],
                cwd=root, env=dict(os.environ, TMPDIR=temporary,
                                   XDG_CACHE_HOME=temporary),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                check=False)
        print(f"=== {name}")
        print(result.stdout, end="")
        print(f"=== {name}: exit status {result.returncode}")
        missing = first_missing(expected, result.stdout)
        print(f"=== {name}: the page's output: " +
              ("found" if missing is None else f"not found: {missing}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
