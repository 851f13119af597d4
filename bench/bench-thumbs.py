#!/usr/bin/env python3
"""Thumbnails of a folder of 24 MP JPEGs: lumen-cli thumbnails on the CPU and on the GPU
against GNOME's thumbnailer, cold and cached, in one run.

    bench-thumbs.py --cli BUILD/app/lumen-cli [--folder DIR] [--count 1000] [--size 256]
                    [--width 6000 --height 4000] [--json FILE]

The folder is made once (kept when it already holds COUNT photos of the asked size): varied
photos (four bases of waves of random frequencies and phases with sensor-like noise, each
photo one of them shifted and tinted with hard-edged shapes drawn on it), JPEG q90; every third progressive, every third with an EXIF IFD1 preview (half of
them 160 × 120 as cameras write, half 320 × 213, which 128-pixel thumbnails take). Each run
gets an empty thumbnail cache (XDG_CACHE_HOME of its own); "cold" also drops the photos from
the page cache first (os.posix_fadvise DONTNEED on each file, which needs no root but only
drops clean pages: the figures say the disk's speed as much as ours), "cached" runs again on
the filled cache. Rows:
  lumen-cli cpu   --backend cpu: libjpeg-turbo's IDCT-scaled decode on every core
  lumen-cli gpu   --backend cuda: nvJPEG batches and the resize kernel (skipped without a GPU)
  lumen-cli auto  both at once, as the folder view runs
  GNOME           gdk-pixbuf-thumbnailer -s SIZE IN OUT, one process per file, xargs -P nproc
                  (what GNOME's file manager runs; no cache of its own, so "cached" is empty)
"first 30" is lumen-cli's own --timings line (the first screen of a window's grid); for
GNOME, the same command on the first 30 files alone, after another eviction. Prints a
Markdown table (and --json FILE)."""
import argparse
import json
import multiprocessing
import os
import platform
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np

FIRST = 30


def exif_with_preview(preview_jpeg):
    """An APP1 EXIF segment whose IFD1 holds PREVIEW_JPEG (JPEGInterchangeFormat), little-endian."""
    def ifd(entries, next_offset):
        out = struct.pack("<H", len(entries))
        for tag, typ, count, value in entries:
            out += struct.pack("<HHII", tag, typ, count, value)
        return out + struct.pack("<I", next_offset)
    ifd0_at = 8
    ifd0 = ifd([], 0)  # placeholder for the size
    ifd1_at = ifd0_at + len(ifd0)
    ifd1_len = 2 + 3 * 12 + 4
    data_at = ifd1_at + ifd1_len
    ifd0 = ifd([], ifd1_at)
    ifd1 = ifd([(0x0103, 3, 1, 6), (0x0201, 4, 1, data_at), (0x0202, 4, 1, len(preview_jpeg))], 0)
    tiff = b"II*\x00" + struct.pack("<I", ifd0_at) + ifd0 + ifd1 + preview_jpeg
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def base(seed, w, h):
    """Waves at a twentieth of the size (cheap), enlarged, with sensor-like noise."""
    rng = np.random.default_rng(seed)
    sw, sh = max(8, w // 20), max(8, h // 20)
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32)
    small = np.zeros((sh, sw, 3), np.float32)
    for c in range(3):
        for _ in range(5):
            fx, fy = rng.uniform(0.3, 8, 2)
            small[..., c] += np.sin(2 * np.pi * (fx * x / sw + fy * y / sh) + rng.uniform(0, 6))
    img = cv2.resize(np.clip(128 + 25 * small, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_CUBIC)
    noise = rng.integers(0, 13, (h, w, 1), dtype=np.uint8)
    return cv2.subtract(cv2.add(img, np.repeat(noise, 3, axis=2)), (6, 6, 6, 0))


_bases = {}


def make_one(job):
    """Photo I of the folder: one of four bases, shifted, tinted, with shapes drawn on it."""
    folder, i, w, h = job
    if (w, h) not in _bases:
        _bases[(w, h)] = [base(33 + k, w, h) for k in range(4)]
    rng = np.random.default_rng(1000 + i)
    img = np.roll(_bases[(w, h)][i % 4], (int(rng.integers(0, h)), int(rng.integers(0, w))), axis=(0, 1))
    img = cv2.add(img, tuple(int(v) for v in rng.integers(0, 40, 3)) + (0,))
    for _ in range(12):
        color = tuple(int(v) for v in rng.integers(0, 256, 3))
        center = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        cv2.circle(img, center, int(rng.integers(w // 60, w // 6)), color, -1)
    params = [cv2.IMWRITE_JPEG_QUALITY, 90]
    if i % 3 == 1:
        params += [cv2.IMWRITE_JPEG_PROGRESSIVE, 1]
    ok, buf = cv2.imencode(".jpg", img, params)
    data = buf.tobytes()
    if i % 3 == 2:
        pw, ph = (160, 120) if i % 6 == 2 else (320, 213)
        ok, prev = cv2.imencode(".jpg", cv2.resize(img, (pw, ph), interpolation=cv2.INTER_AREA),
                                [cv2.IMWRITE_JPEG_QUALITY, 80])
        data = data[:2] + exif_with_preview(prev.tobytes()) + data[2:]
    with open(os.path.join(folder, f"photo-{i:05d}.jpg"), "wb") as f:
        f.write(data)


def make_folder(folder, count, w, h):
    marker = os.path.join(folder, ".bench-thumbs")
    want = f"{count} {w}x{h}\n"
    if os.path.exists(marker) and open(marker).read() == want:
        return
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    t = time.time()
    cv2.setNumThreads(1)
    with multiprocessing.Pool(os.cpu_count()) as pool:
        for k, _ in enumerate(pool.imap_unordered(make_one, [(folder, i, w, h) for i in range(count)], chunksize=4)):
            if k % 100 == 99:
                print(f"# made {k + 1} of {count} photos ({time.time() - t:.0f} s)", file=sys.stderr)
    with open(marker, "w") as f:
        f.write(want)


def evict(paths):
    for p in paths:
        fd = os.open(p, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def lumen(cli, folder, size, backend, cache):
    env = dict(os.environ, XDG_CACHE_HOME=cache)
    t = time.perf_counter()
    proc = subprocess.run([cli, "thumbnails", "--timings", "--size", str(size), "--backend", backend, folder],
                          capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        raise SystemExit(f"lumen-cli thumbnails --backend {backend} failed: {proc.stderr.strip()}")
    first = re.search(r"first \d+: ([0-9.]+) ms", proc.stdout)
    every = re.search(r"all \d+: ([0-9.]+) ms", proc.stdout)
    return {"first_s": float(first.group(1)) / 1000, "all_s": float(every.group(1)) / 1000, "wall_s": wall}


def gnome(paths, size, out):
    os.makedirs(out, exist_ok=True)
    lines = "".join(f"{p}\0{os.path.join(out, os.path.basename(p) + '.png')}\0" for p in paths)
    t = time.perf_counter()
    subprocess.run(["xargs", "-0", "-n", "2", "-P", str(os.cpu_count()), "gdk-pixbuf-thumbnailer", "-s", str(size)],
                   input=lines.encode(), check=True)
    return time.perf_counter() - t


def has_gpu():
    return shutil.which("nvidia-smi") is not None and subprocess.run(
        ["nvidia-smi", "-L"], capture_output=True).returncode == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--cli", default=os.path.join(here, "..", "build", "app", "lumen-cli"))
    ap.add_argument("--folder", default=os.path.join(tempfile.gettempdir(), "lumen-bench-thumbs"))
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--size", type=int, default=256)
    ap.add_argument("--width", type=int, default=6000)
    ap.add_argument("--height", type=int, default=4000)
    ap.add_argument("--json")
    a = ap.parse_args()

    make_folder(a.folder, a.count, a.width, a.height)
    paths = sorted(os.path.join(a.folder, n) for n in os.listdir(a.folder) if n.endswith(".jpg"))
    gb = sum(os.path.getsize(p) for p in paths) / 1e9
    work = tempfile.mkdtemp(prefix="lumen-bench-thumbs-")
    rows = []
    try:
        backends = ["cpu", "auto"] + (["cuda"] if has_gpu() else [])
        for backend in backends:
            cache = os.path.join(work, "cache-" + backend)
            evict(paths)
            cold = lumen(a.cli, a.folder, a.size, backend, cache)
            warm = lumen(a.cli, a.folder, a.size, backend, cache)
            rows.append({"path": f"lumen-cli {backend}", "cold": cold, "cached": warm})
        if shutil.which("gdk-pixbuf-thumbnailer"):
            evict(paths)
            first = gnome(paths[:FIRST], a.size, os.path.join(work, "gnome-first"))
            evict(paths)
            every = gnome(paths, a.size, os.path.join(work, "gnome"))
            rows.append({"path": f"GNOME gdk-pixbuf-thumbnailer, xargs -P {os.cpu_count()}",
                         "cold": {"first_s": first, "all_s": every}, "cached": None})
    finally:
        shutil.rmtree(work, ignore_errors=True)

    commit = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(f"Thumbnails ({a.size} px) of {len(paths)} JPEGs of {a.width}×{a.height} ({gb:.2f} GB), "
          f"{platform.node()}, {os.cpu_count()} cores, commit {commit}\n")
    print(f"| path | cold: first {FIRST} | cold: all | cold: photos/s | cached: first {FIRST} | cached: all |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        c, w = r["cold"], r["cached"]
        cached = f"{w['first_s']:.3f} s | {w['all_s']:.2f} s" if w else "– | –"
        print(f"| {r['path']} | {c['first_s']:.3f} s | {c['all_s']:.2f} s | {len(paths) / c['all_s']:.0f} | {cached} |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"count": len(paths), "size": a.size, "width": a.width, "height": a.height, "gb": gb,
                       "commit": commit, "host": platform.node(), "cores": os.cpu_count(), "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
