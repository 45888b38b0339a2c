"""Prints the shell block of README.md that follows the marker
`<!-- test/nd-compile/readme.test: NAME -->`, so that the test runs the
README's commands as they are written.

    readme_block.py README.md NAME
"""

import sys


def main():
    path, name = sys.argv[1], sys.argv[2]
    marker = "<!-- test/nd-compile/readme.test: %s -->" % name
    lines = open(path, encoding="utf-8").read().splitlines()
    try:
        start = lines.index(marker)
    except ValueError:
        sys.exit("%s: no line '%s'" % (path, marker))
    if start + 1 >= len(lines) or lines[start + 1] != "```sh":
        sys.exit("%s: '%s' is not followed by a ```sh block" % (path, marker))
    block = []
    for line in lines[start + 2:]:
        if line == "```":
            print("\n".join(block))
            return
        block.append(line)
    sys.exit("%s: the block after '%s' does not end" % (path, marker))


if __name__ == "__main__":
    main()
