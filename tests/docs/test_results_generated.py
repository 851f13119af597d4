#!/usr/bin/env python3
"""bench/RESULTS.md is bench/write-results.py's output over bench/results/, byte for byte: a
table or a paragraph edited in RESULTS.md alone would be lost at the next run of the script.
Edit bench/results/ (text/ for the parts written by hand) and run the script instead."""
import difflib
import os
import subprocess
import sys
import tempfile

root = os.environ.get("LUMEN_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
script = os.path.join(root, "bench", "write-results.py")
kept = os.path.join(root, "bench", "RESULTS.md")

with tempfile.TemporaryDirectory(prefix="lumen-results-") as tmp:
    out = os.path.join(tmp, "RESULTS.md")
    subprocess.run([sys.executable, script, "-o", out], check=True)
    with open(out, encoding="utf-8") as f:
        made = f.read()
with open(kept, encoding="utf-8") as f:
    have = f.read()

if made != have:
    diff = difflib.unified_diff(have.splitlines(), made.splitlines(), "bench/RESULTS.md",
                                "bench/write-results.py's output", lineterm="", n=1)
    print("\n".join(list(diff)[:60]))
    print("bench/RESULTS.md differs from what bench/write-results.py makes of bench/results/")
    sys.exit(1)
print(f"bench/RESULTS.md is bench/write-results.py's output ({len(have.encode())} bytes)")
