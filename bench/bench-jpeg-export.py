#!/usr/bin/env python3
"""lumen-cli's JPEG export on a GPU: --jpeg-encoder nvjpeg (the render's result encoded where
it is, only the file downloaded) against cpu (the result downloaded, libjpeg-turbo), at 24
and 50 MP. GPU machine only: exits 77 without a device.

    bench-jpeg-export.py --cli BUILD/app/lumen-cli [--sizes 24,50] [--pairs N] [--quality Q]
                         [--out DIR] [--json FILE]

The input is a real photo of the shared data (beach-aerial-15mp.jpg, or LUMEN_BENCH_PHOTO)
resized with cubic interpolation to 6000×4000 and 8660×5774 and written as JPEG q95. Each pair
runs the same command (--backend cuda, an exposure change, --quality Q, --timings) once with
each encoder, in turn, so that the machine's drift touches both alike; the figures are the
medians of the wall time of the whole command, and of what follows the render in it: the
`download` and `save` lines of --timings for cpu, `save (nvJPEG)` for nvjpeg (encoder start,
encode, the file's bytes back, the atomic write with its fsync). OpenCV's imwrite of the same
pixels at the same quality (one thread, no fsync) is a row for scale."""
import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time

import cv2

SIZES = {24: (6000, 4000), 50: (8660, 5774)}


def has_gpu():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU " in out.stdout


def timings(stdout):
    """{label: ms} of lumen-cli --timings."""
    return {m.group(1).strip(): float(m.group(2))
            for m in re.finditer(r"^  (\S.*?)\s+([0-9.]+) ms$", stdout, re.M)}


def one(cli, encoder, src, out, quality):
    args = [cli, "--backend", "cuda", "--exposure", "0.2", "--quality", str(quality), "--timings",
            "--jpeg-encoder", encoder, "-o", out, src]
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    t = time.monotonic()
    proc = subprocess.run(args, capture_output=True, text=True, env=env)
    wall = (time.monotonic() - t) * 1000
    if proc.returncode != 0 or "not encoded with nvJPEG" in proc.stderr:
        raise SystemExit(f"{' '.join(args)}: exit {proc.returncode}: {proc.stderr}")
    tm = timings(proc.stdout)
    after = tm.get("save (nvJPEG)", 0.0) + tm.get("download", 0.0) + tm.get("save", 0.0)
    return wall, after, os.path.getsize(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--sizes", default="24,50")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--quality", type=int, default=92)
    ap.add_argument("--out")
    ap.add_argument("--json")
    a = ap.parse_args()
    if not has_gpu():
        print("SKIP: no CUDA device")
        return 77
    folder = a.out or tempfile.mkdtemp(prefix="lumen-bench-jpeg-")
    photo = os.environ.get("LUMEN_BENCH_PHOTO", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                             "shared", "data", "photos", "beach-aerial-15mp.jpg"))
    rows = []
    print(f"== JPEG export, lumen-cli --backend cuda --quality {a.quality}, {os.cpu_count()} cores, "
          f"{platform.node()}, medians of {a.pairs} pairs")
    print(f"{'size':>6} {'encoder':>8} {'wall ms':>9} {'after render ms':>16} {'file MB':>8}")
    for mp in (int(s) for s in a.sizes.split(",")):
        img = cv2.resize(cv2.imread(photo, cv2.IMREAD_COLOR), SIZES[mp], interpolation=cv2.INTER_CUBIC)
        src = os.path.join(folder, f"jpeg-export-{mp}mp.jpg")
        cv2.imwrite(src, img, [cv2.IMWRITE_JPEG_QUALITY, 95])
        got = {"cpu": [], "nvjpeg": []}
        for k in range(a.pairs):
            for enc in (("cpu", "nvjpeg") if k % 2 == 0 else ("nvjpeg", "cpu")):
                got[enc].append(one(a.cli, enc, src, os.path.join(folder, f"out-{enc}.jpg"), a.quality))
        cv_ms = []
        for _ in range(a.pairs):
            t = time.monotonic()
            cv2.imwrite(os.path.join(folder, "out-opencv.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, a.quality])
            cv_ms.append((time.monotonic() - t) * 1000)
        row = {"mp": mp, "opencv_imwrite_ms": statistics.median(cv_ms)}
        for enc, runs in got.items():
            wall, after, size = (statistics.median(r[i] for r in runs) for i in range(3))
            row[enc] = {"wall_ms": wall, "after_render_ms": after, "bytes": size}
            print(f"{mp:>4}MP {enc:>8} {wall:>9.1f} {after:>16.1f} {size / 1e6:>8.2f}")
        print(f"{mp:>4}MP {'opencv':>8} {'':>9} {row['opencv_imwrite_ms']:>16.1f}   (imwrite alone)")
        print(f"{mp:>4}MP nvjpeg/cpu: wall {row['nvjpeg']['wall_ms'] / row['cpu']['wall_ms']:.2f}x, after render "
              f"{row['nvjpeg']['after_render_ms'] / row['cpu']['after_render_ms']:.2f}x")
        rows.append(row)
        os.remove(src)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"quality": a.quality, "cores": os.cpu_count(), "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
