"""Writes one of the hostile files the window tests open (tests/ui/test-hostile-files.c), with
Pillow: hostile-files.py KIND PATH.

  unreadable-profile  a 64 × 48 JPEG whose ICC profile is 80 bytes of junk
  scan-bomb           a progressive JPEG of 2000², its last scan repeated 6,000 times (about
                      110 KB; each scan is a pass over every block: 20 s to decode in full)
"""
import io
import os
import sys

from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402


def main():
    kind, path = sys.argv[1:3]
    if kind == "unreadable-profile":
        Image.new("RGB", (64, 48), (200, 100, 50)).save(path, "JPEG", icc_profile=b"junk" * 20)
    elif kind == "scan-bomb":
        buf = io.BytesIO()
        Image.new("RGB", (2000, 2000), (90, 120, 150)).save(buf, "JPEG", progressive=True, quality=90)
        with open(path, "wb") as f:
            f.write(lt.jpeg_repeat_last_scan(buf.getvalue(), 6000))
    else:
        sys.exit(f"hostile-files.py: unknown kind {kind}")


if __name__ == "__main__":
    main()
