"""Checks that what README.md and docs/*.md point to exists.

- Every relative markdown link `[text](path#anchor)` names a file or folder
  of the source tree and, with an anchor into a markdown file, one of its
  headings (GitHub's anchors: lower case, punctuation dropped, spaces as
  hyphens).
- Every path quoted in backticks that starts in the source tree
  (`examples/scatter_nd.mlir`, `test/Conformance/ONNX/*_opset18.test`) or
  under `include/` (`nd/Pipelines/Pipelines.h`, `nd-c/Runtime.h`) exists;
  one that starts with `build/` exists in the build directory when --build
  is given.
- Every section of the rationale quoted by name (`docs/Rationale.md,
  "Threads and determinism"`, `[Rationale, "GPU"](...)`) is a heading of
  docs/Rationale.md.
- Every ```sh block is accounted for: marked `<!-- example: NAME -->` (and
  NAME is named by a test under test/ that runs readme_examples.py), marked
  `<!-- test/PATH: NAME -->` (and test/PATH exists), or marked `<!-- not
  run: REASON -->`, saying why it is not run as written.

Prints one line per problem (`FILE:LINE: ...`) and a summary; exits 1 if
there is a problem.

Usage: python3 check_docs.py --source DIR [--build DIR]
"""

import argparse
import glob
import os
import re
import sys

_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_CODE = re.compile(r"`([^`\n]+)`")
_SECTION = re.compile(r"Rationale(?:\.md)?`?(?:,|\s)\s*\(?\"([^\"]+)\"")
_MARK = re.compile(r"^<!-- (example|output|not run): ?(.*?) ?-->$|"
                   r"^<!-- (example): (\w+)|"
                   r"^<!-- (test/[^:]+): (\w+) -->$")
# Characters that make a quoted word a pattern, an option or a placeholder
# rather than a path.
_NOT_PATH = set(" {}$<>=,;'\"()|&")


def anchor(heading):
    """GitHub's anchor of a heading."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def headings(path):
    """The headings of a markdown file (outside fenced blocks)."""
    found = []
    fenced = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                fenced = not fenced
                continue
            if not fenced and line.startswith("#"):
                found.append(line.lstrip("#").strip())
    return found


def documents(source):
    pages = sorted(entry for entry in os.listdir(os.path.join(source, "docs"))
                   if entry.endswith(".md"))
    return ["README.md"] + [os.path.join("docs", page) for page in pages]


def prose(text):
    """(line number, line) of the text outside fenced blocks."""
    fenced = False
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def exists(pattern):
    return bool(glob.glob(pattern)) if "*" in pattern else \
        os.path.exists(pattern)


class Checker:
    def __init__(self, source, build):
        self.source = source
        self.build = build
        self.problems = []
        self.counts = {"links": 0, "paths": 0, "sections": 0, "blocks": 0}
        self.roots = set(os.listdir(source)) - {"build", ".git"}
        self.example_tests = self._example_tests()
        rationale = os.path.join(source, "docs", "Rationale.md")
        self.sections = {" ".join(h.split()) for h in headings(rationale)}

    def _example_tests(self):
        """The text of every test under test/ that runs readme_examples.py."""
        texts = []
        for path in glob.glob(os.path.join(self.source, "test", "**", "*.test"),
                              recursive=True):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if "readme_examples.py" in text:
                texts.append(text)
        return texts

    def problem(self, doc, line, message):
        self.problems.append(f"{doc}:{line}: {message}")

    def check_link(self, doc, line, target):
        if re.match(r"^[a-z]+:", target):
            return
        self.counts["links"] += 1
        path, _, fragment = target.partition("#")
        here = os.path.dirname(os.path.join(self.source, doc))
        full = os.path.normpath(os.path.join(here, path)) if path else \
            os.path.join(self.source, doc)
        if not os.path.exists(full):
            self.problem(doc, line, f"link to '{target}': no file '{path}'")
            return
        if fragment and full.endswith(".md"):
            if fragment not in {anchor(h) for h in headings(full)}:
                self.problem(doc, line, f"link to '{target}': no heading "
                             f"with anchor '#{fragment}' in {path or doc}")

    def check_path(self, doc, line, text):
        if set(text) & _NOT_PATH or "/" not in text or "://" in text:
            return
        text = text.rstrip(".:")
        first = text.split("/")[0]
        if first == "build":
            if self.build is None:
                return
            full = os.path.join(self.build, text[len("build/"):])
        elif first in ("nd", "nd-c") and text.endswith((".h", ".td")):
            # A header, in the source tree or generated into the build's.
            full = os.path.join(self.source, "include", text)
            if not exists(full) and self.build is not None:
                full = os.path.join(self.build, "include", text)
        elif first in self.roots:
            full = os.path.join(self.source, text)
        else:
            return
        self.counts["paths"] += 1
        if not exists(full):
            self.problem(doc, line, f"path `{text}` does not exist")

    def check_sections(self, doc, text):
        for match in _SECTION.finditer(text):
            self.counts["sections"] += 1
            name = " ".join(match.group(1).split())
            if name not in self.sections:
                line = text.count("\n", 0, match.start()) + 1
                self.problem(doc, line, f"docs/Rationale.md has no section "
                             f"\"{name}\"")

    def check_blocks(self, doc, lines):
        for i, line in enumerate(lines):
            if line.strip() != "```sh":
                continue
            self.counts["blocks"] += 1
            mark = _MARK.match(lines[i - 1]) if i else None
            if not mark:
                self.problem(doc, i + 1, "```sh block without a mark "
                             "(<!-- example: NAME -->, <!-- test/PATH: NAME "
                             "-->, or <!-- not run: REASON -->)")
                continue
            kind = mark.group(1) or mark.group(3) or mark.group(5)
            value = mark.group(2) or mark.group(4) or mark.group(6)
            if kind == "example":
                name = value.split()[0] if value else ""
                if not any(re.search(rf"\b{re.escape(name)}\b", text)
                           for text in self.example_tests):
                    self.problem(doc, i + 1, f"example '{name}' is run by no "
                                 "test (no test/**/*.test running "
                                 "readme_examples.py names it)")
            elif kind == "not run":
                if not value:
                    self.problem(doc, i + 1, "'not run' without a reason")
            elif kind.startswith("test/"):
                if not os.path.exists(os.path.join(self.source, kind)):
                    self.problem(doc, i + 1, f"no test {kind}")
            else:
                self.problem(doc, i, f"a ```sh block marked '{kind}'")

    def check(self, doc):
        with open(os.path.join(self.source, doc), encoding="utf-8") as f:
            text = f.read()
        for number, line in prose(text):
            for match in _LINK.finditer(line):
                self.check_link(doc, number, match.group(1))
            for match in _CODE.finditer(_LINK.sub("", line)):
                self.check_path(doc, number, match.group(1))
        self.check_sections(doc, text)
        self.check_blocks(doc, text.splitlines())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", required=True)
    parser.add_argument("--build")
    args = parser.parse_args()
    checker = Checker(os.path.abspath(args.source),
                      os.path.abspath(args.build) if args.build else None)
    docs = documents(checker.source)
    for doc in docs:
        checker.check(doc)
    for problem in checker.problems:
        print(problem)
    counts = checker.counts
    print(f"{len(docs)} files: {counts['links']} links, {counts['paths']} "
          f"paths, {counts['sections']} rationale sections, "
          f"{counts['blocks']} sh blocks; {len(checker.problems)} problems")
    return 1 if checker.problems else 0


if __name__ == "__main__":
    sys.exit(main())
