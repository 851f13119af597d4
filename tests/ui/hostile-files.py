"""Writes one of the hostile files the window tests open (tests/ui/test-hostile-files.c), with
Pillow: hostile-files.py KIND PATH.

  unreadable-profile  a 64 × 48 JPEG whose ICC profile is 80 bytes of junk
  scan-bomb           a progressive JPEG of 2000², its last scan repeated 6,000 times (about
                      110 KB; each scan is a pass over every block: 20 s to decode in full)
"""
import io
import struct
import sys

from PIL import Image


def repeat_last_scan(data, extra_scans):
    """DATA (a JPEG) with its last scan repeated EXTRA_SCANS times before EOI."""
    i, last = 2, None
    while data[i + 1] != 0xD9:
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if data[i + 1] != 0xDA:
            i += 2 + length
            continue
        j = i + 2 + length  # the scan's entropy-coded data runs to the next marker
        while not (data[j] == 0xFF and data[j + 1] != 0 and not 0xD0 <= data[j + 1] <= 0xD7):
            j += 1
        last, i = (i, j), j
    return data[:last[1]] + data[last[0]:last[1]] * extra_scans + data[last[1]:]


def main():
    kind, path = sys.argv[1:3]
    if kind == "unreadable-profile":
        Image.new("RGB", (64, 48), (200, 100, 50)).save(path, "JPEG", icc_profile=b"junk" * 20)
    elif kind == "scan-bomb":
        buf = io.BytesIO()
        Image.new("RGB", (2000, 2000), (90, 120, 150)).save(buf, "JPEG", progressive=True, quality=90)
        with open(path, "wb") as f:
            f.write(repeat_last_scan(buf.getvalue(), 6000))
    else:
        sys.exit(f"hostile-files.py: unknown kind {kind}")


if __name__ == "__main__":
    main()
