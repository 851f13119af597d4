#!/usr/bin/env python3
"""Every relative link of README.md and the documentation (docs/, bench/RESULTS.md,
fuzz/README.md) points at a file that exists, and a link to a heading (`file.md#heading`)
at a heading of that file, named as GitHub names its anchors. README.md stays what a newcomer
needs first: at most 15 KB, the rest in docs/."""
import glob
import os
import re
import sys
import unicodedata

root = os.environ.get("LUMEN_SOURCE_ROOT") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README_MAX = 15 * 1024

LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)


def prose(text):
    """The text without code, whose brackets are not links."""
    return CODE_SPAN.sub("", FENCE.sub("", text))


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = CODE_SPAN.sub(lambda m: m.group(0).strip("`"), heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path):
    seen, out = {}, set()
    for line in FENCE.sub("", open(path, encoding="utf-8").read()).splitlines():
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else f"{s}-{n}")
    return out


def check(path):
    problems = []
    text = open(path, encoding="utf-8").read()
    for target in LINK.findall(prose(text)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue  # http:, https:, mailto: are not this test's to check
        file, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file)) if file else path
        rel = os.path.relpath(path, root)
        if not dest.startswith(root + os.sep):
            problems.append(f"{rel}: {target}: outside the repository")
        elif not os.path.exists(dest):
            problems.append(f"{rel}: {target}: no such file")
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            problems.append(f"{rel}: {target}: no heading #{anchor} in {os.path.relpath(dest, root)}")
    return problems


files = [os.path.join(root, "README.md"), os.path.join(root, "bench", "RESULTS.md"),
         os.path.join(root, "fuzz", "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
problems = []
for path in files:
    if os.path.exists(path):
        problems += check(path)
size = os.path.getsize(os.path.join(root, "README.md"))
if size > README_MAX:
    problems.append(f"README.md: {size} bytes, more than {README_MAX}: move the detail to docs/")
for p in problems:
    print(p)
if problems:
    sys.exit(1)
print(f"{len(files)} files, every relative link resolves; README.md {size} bytes")
