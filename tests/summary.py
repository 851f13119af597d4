#!/usr/bin/python3
"""Counts the results of `meson test` in one or more build folders and prints, last,
"N passed, N failed". Exits 1 when a test failed or a folder has no results.

A folder's results are its meson-logs/testlog.json and every other log of `meson test
--logbase NAME` there (NAME.json: `make check` runs the window tests apart, as ui.json).

When the run gave its tests a temporary folder of their own (BUILD/test-tmp, as `make check`
does), that folder being empty at the end counts as one more test: no test leaves its
temporary files behind."""
import glob
import json
import os
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
SKIPPED = {"SKIP"}


def leftover_files(build):
    """What the tests left in BUILD/test-tmp, or None when the run had no such folder."""
    tmp = os.path.join(build, "test-tmp")
    if not os.path.isdir(tmp):
        return None
    return sorted(os.listdir(tmp))


def main(build_dirs):
    passed = failed = 0
    skipped, failures = [], []
    for build in build_dirs:
        log = os.path.join(build, "meson-logs", "testlog.json")
        if not os.path.exists(log):
            failures.append(f"{build}: no test results ({log} missing)")
            failed += 1
            continue
        others = sorted(set(glob.glob(os.path.join(build, "meson-logs", "*.json"))) - {log})
        for path in [log] + others:
            with open(path) as f:
                for line in f:
                    if not line.strip():
                        continue
                    t = json.loads(line)
                    name = f"{os.path.basename(build)}: {t['name']}"
                    if t["result"] in PASSED:
                        passed += 1
                    elif t["result"] in SKIPPED:
                        skipped.append(name)
                    else:
                        failed += 1
                        failures.append(f"{name} ({t['result']})")
        leftovers = leftover_files(build)
        if leftovers is not None:
            if leftovers:
                failed += 1
                failures.append(f"{os.path.basename(build)}: temporary files left behind: "
                                + ", ".join(leftovers[:10]))
            else:
                passed += 1
    for name in skipped:
        print(f"skipped: {name}")
    for name in failures:
        print(f"FAILED: {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
