#!/usr/bin/env python3
"""Batch export of edited photos: `lumen-cli batch develop` on the GPU and on the CPU against
darktable-cli run in parallel on all cores (one process per photo, as many at once as there are
cores, each with a configdir of its own and --apply-custom-presets 0, as its usage text asks for
several instances), on the same photos with an equivalent edit: exposure +0.4 EV, contrast +0.2,
a tone curve, sharpening. Prints a Markdown table (photos/s, and each against darktable).

    bench-batch-develop.py [--photos 1000] [--megapixels 24] [--backends cuda,cpu]
                           [--peer darktable|none] [--peer-photos N] [--work DIR] [--keep]

The photos are generated (distinct content, baseline JPEG, quality 92), each a file of its own
with its sidecar (photo.jpg.lumen for Lumen, photo.jpg.xmp for darktable). darktable comes from
$LUMEN_PEERS_RAW (bench/peer-raw-bundle.sh, with DT_IOPS extended by the modules the history
uses: colisa tonecurve sharpen) or the system. LUMEN_CLI names lumen-cli (default: build/).
The edits are close, not identical: the figures compare throughput, not pictures. darktable-cli
may be timed on the first N photos only (--peer-photos; its rate per photo does not depend on
how many follow), so that both fit in one call on the GPU machine."""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
LUMEN_EDIT = ["--exposure", "0.4", "--contrast", "0.2", "--curve", "0:10,128:140,255:250",
              "--sharpen", "0.8", "--sharpen-radius", "2"]
QUALITY = 92
DISTINCT = 16  # distinct pictures; the others are copies of them (each its own file)


def lumen_cli():
    path = os.environ.get("LUMEN_CLI") or os.path.join(HERE, "..", "build", "app", "lumen-cli")
    if not os.access(path, os.X_OK):
        raise SystemExit(f"bench-batch-develop: no lumen-cli at {path}: build it or set LUMEN_CLI")
    return path


def darktable_cli():
    root = os.environ.get("LUMEN_PEERS_RAW")
    if root:
        return os.path.join(root, "bin", "darktable-cli")
    return shutil.which("darktable-cli")


def make_picture(k, width, height):
    """A photo-like picture: smooth gradients, discs, texture and noise, seeded by K."""
    rng = np.random.default_rng(k)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    img = np.empty((height, width, 3), np.float32)
    for c in range(3):
        fx, fy = rng.uniform(0.5, 3, 2) / max(width, height)
        img[..., c] = 128 + 90 * np.sin(2 * np.pi * (fx * x + fy * y) + rng.uniform(0, 6))
    for _ in range(12):
        cx, cy, r = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0.02, 0.2) * height
        img[(x - cx) ** 2 + (y - cy) ** 2 < r * r] = rng.uniform(20, 235, 3)
    img += rng.normal(0, 8, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def hexfloats(*values, ints=()):
    return struct.pack("<" + "f" * len(values), *values).hex()


def tonecurve_params():
    """darktable 4.2's tonecurve (version 5): three curves of 20 nodes (L: the same points as
    LUMEN_EDIT's --curve; a and b: straight), their node counts and types, autoscale RGB,
    preset 0, unbound 1, preserve colours: luminance."""
    nodes = [[(0.0, 10 / 255), (128 / 255, 140 / 255), (1.0, 250 / 255)], [(0.0, 0.0), (1.0, 1.0)],
             [(0.0, 0.0), (1.0, 1.0)]]
    data = b""
    for curve in nodes:
        padded = curve + [(0.0, 0.0)] * (20 - len(curve))
        data += b"".join(struct.pack("<ff", x, y) for x, y in padded)
    data += struct.pack("<3i", *(len(c) for c in nodes))
    data += struct.pack("<3i", 2, 2, 2)  # monotone hermite
    data += struct.pack("<4i", 3, 0, 1, 1)
    return data.hex()


def darktable_xmp():
    """A darktable 4.2 sidecar whose history is LUMEN_EDIT's equivalent."""
    steps = [("exposure", 6, struct.pack("<i4fi", 0, 0.0, 0.4, 50.0, -4.0, 0).hex()),
             ("colisa", 1, hexfloats(0.2, 0.0, 0.0)),
             ("tonecurve", 5, tonecurve_params()),
             ("sharpen", 1, hexfloats(2.0, 0.8, 0.5))]
    items = "".join(
        f'     <rdf:li darktable:num="{n}" darktable:operation="{op}" darktable:enabled="1"'
        f' darktable:modversion="{v}" darktable:params="{p}" darktable:multi_name=""'
        f' darktable:multi_priority="0"/>\n' for n, (op, v, p) in enumerate(steps))
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="XMP Core 4.4.0-Exiv2">\n'
            ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
            '  <rdf:Description rdf:about="" xmlns:darktable="http://darktable.sf.net/"'
            f' darktable:xmp_version="4" darktable:history_end="{len(steps)}">\n'
            '   <darktable:history>\n    <rdf:Seq>\n' + items +
            '    </rdf:Seq>\n   </darktable:history>\n  </rdf:Description>\n </rdf:RDF>\n</x:xmpmeta>\n')


def make_photos(folder, count, megapixels, cli):
    os.makedirs(folder, exist_ok=True)
    width = int(round((megapixels * 1e6 * 3 / 2) ** 0.5))
    height = int(round(width * 2 / 3))
    sidecar = os.path.join(folder, "..", "edit.lumen")
    subprocess.run([cli] + LUMEN_EDIT + ["--params-out", sidecar], check=True)
    xmp = darktable_xmp()
    def original(k):
        path = os.path.join(folder, f"photo-{k:05d}.jpg")
        cv2.imwrite(path, cv2.cvtColor(make_picture(k, width, height), cv2.COLOR_RGB2BGR),
                    [cv2.IMWRITE_JPEG_QUALITY, QUALITY])
        return path

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        originals = list(pool.map(original, range(min(count, DISTINCT))))
    photos = []
    for k in range(count):
        path = os.path.join(folder, f"photo-{k:05d}.jpg")
        if k >= len(originals):
            shutil.copyfile(originals[k % len(originals)], path)
        shutil.copyfile(sidecar, path + ".lumen")
        with open(path + ".xmp", "w") as f:
            f.write(xmp)
        photos.append(path)
    return photos, width, height


def run_lumen(cli, photos_dir, out, backend):
    shutil.rmtree(out, ignore_errors=True)
    t = time.perf_counter()
    r = subprocess.run([cli, "batch", "develop", "--backend", backend, "--progress", "none", "--timings",
                        "--quality", str(QUALITY), "-o", out, photos_dir], capture_output=True, text=True)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise SystemExit(f"bench-batch-develop: lumen-cli batch develop --backend {backend}: {r.stderr.strip()}")
    return wall, r.stdout


def run_darktable(dt, photos, out, workers, work):
    os.makedirs(out, exist_ok=True)
    slots = [os.path.join(work, f"dt-{i}") for i in range(workers)]

    def one(args):
        slot, photo = args
        target = os.path.join(out, os.path.basename(photo))
        argv = [dt, photo, photo + ".xmp", target, "--apply-custom-presets", "0", "--core", "--disable-opencl",
                "--configdir", os.path.join(slot, "config"), "--cachedir", os.path.join(slot, "cache"),
                "--library", ":memory:", "--conf", f"plugins/imageio/format/jpeg/quality={QUALITY}"]
        r = subprocess.run(argv, capture_output=True, text=True)
        if r.returncode != 0 or not os.path.exists(target):
            raise SystemExit(f"bench-batch-develop: darktable-cli made no {target}: {r.stderr.strip()[-300:]}")

    # Each slot's configdir made once before the clock starts, as a darktable that has run before.
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, [(s, photos[0]) for s in slots]))
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    t = time.perf_counter()
    queue = [(slots[i % workers], p) for i, p in enumerate(photos)]
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, queue))
    return time.perf_counter() - t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", type=int, default=1000)
    ap.add_argument("--megapixels", type=float, default=24)
    ap.add_argument("--backends", default="cuda,cpu")
    ap.add_argument("--peer", default="darktable", choices=["darktable", "none"])
    ap.add_argument("--peer-photos", type=int, help="time darktable-cli on this many of the photos (default: all)")
    ap.add_argument("--work", help="a folder for the photos and outputs (default: a temporary one)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    a = ap.parse_args()
    cli = lumen_cli()
    work = a.work or tempfile.mkdtemp(prefix="lumen-bench-develop-")
    try:
        photos_dir = os.path.join(work, "photos")
        shutil.rmtree(photos_dir, ignore_errors=True)
        t = time.perf_counter()
        photos, width, height = make_photos(photos_dir, a.photos, a.megapixels, cli)
        print(f"# made {a.photos} photos in {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)
        rows = []
        for backend in a.backends.split(","):
            wall, timings = run_lumen(cli, photos_dir, os.path.join(work, f"out-{backend}"), backend)
            worker = next((l.split(": ", 1)[1] for l in timings.splitlines() if l.startswith("render worker")), backend)
            rows.append((f"lumen-cli batch develop --backend {backend}", worker, wall, a.photos))
            print(f"# lumen-cli batch develop --backend {backend}: {a.photos} photos in {wall:.2f} s", file=sys.stderr,
                  flush=True)
            for line in timings.splitlines():
                print(f"#   {line}", file=sys.stderr, flush=True)
        peer = None
        dt = darktable_cli() if a.peer == "darktable" else None
        if a.peer == "darktable" and not dt:
            print("bench-batch-develop: no darktable-cli (set LUMEN_PEERS_RAW or install darktable): not timed",
                  file=sys.stderr)
        if dt:
            workers = os.cpu_count() or 1
            peer_photos = photos[:a.peer_photos] if a.peer_photos else photos
            wall = run_darktable(dt, peer_photos, os.path.join(work, "out-darktable"), workers, work)
            peer = len(peer_photos) / wall
            rows.append((f"darktable-cli × {workers} in parallel", "CPU (--core --disable-opencl)", wall,
                         len(peer_photos)))
        print(f"\n{a.photos} photos of {width}×{height} ({width * height / 1e6:.1f} MP), JPEG quality {QUALITY}, "
              f"edits: exposure, contrast, curve, sharpen; {os.cpu_count()} cores\n")
        print("| program | where | photos | wall (s) | photos/s | × darktable-cli |")
        print("|---|---|---:|---:|---:|---:|")
        for name, where, wall, n in rows:
            ratio = f"{n / wall / peer:.1f}" if peer else "–"
            print(f"| {name} | {where} | {n} | {wall:.2f} | {n / wall:.2f} | {ratio} |")
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
