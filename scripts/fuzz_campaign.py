"""The loop the random differential campaigns share (fuzz-tiling.py,
fuzz-allocations.py): each case runs in a folder of its own, outcomes are
counted, and a failing case's folder is kept (under --keep) and named in its
report."""

import collections
import os
import shutil
import tempfile


def run_cases(count, keep, run_case, order):
    """Runs `run_case(index, directory)` for `count` cases; it returns
    (outcome, report), the report naming the case when the outcome is
    "failure". Prints each outcome's count (in `order`) and every failure;
    returns the number of failures."""
    outcomes = collections.Counter()
    failures = []
    with tempfile.TemporaryDirectory() as work:
        for index in range(count):
            directory = os.path.join(work, f"case_{index}")
            os.makedirs(directory)
            outcome, report = run_case(index, directory)
            outcomes[outcome] += 1
            if outcome != "failure":
                continue
            kept = directory
            if keep:
                kept = os.path.join(keep, f"case_{index}")
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(directory, kept)
            failures.append(f"{report}\n  files: {kept}")
    print(f"ran {count} cases: " + ", ".join(
        f"{name} {outcomes[name]}" for name in order))
    for failure in failures:
        print("FAILURE", failure)
    print(f"{len(failures)} failures")
    return len(failures)
