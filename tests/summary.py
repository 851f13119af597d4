#!/usr/bin/python3
"""Counts the results of `meson test` in one or more build folders and prints, last,
"N passed, N failed". Exits 1 when a test failed or a folder has no results."""
import json
import os
import sys

PASSED = {"OK", "EXPECTEDFAIL"}
SKIPPED = {"SKIP"}


def main(build_dirs):
    passed = failed = 0
    skipped, failures = [], []
    for build in build_dirs:
        log = os.path.join(build, "meson-logs", "testlog.json")
        if not os.path.exists(log):
            failures.append(f"{build}: no test results ({log} missing)")
            failed += 1
            continue
        with open(log) as f:
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
    for name in skipped:
        print(f"skipped: {name}")
    for name in failures:
        print(f"FAILED: {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
