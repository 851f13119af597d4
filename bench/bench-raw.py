#!/usr/bin/env python3
"""The raw development's speed through lumen-cli: DNGs of 24 and 61 MP (Bayer) and 40 MP
(X-Trans) made from a real photo (linearised, enlarged, mosaicked, with sensor noise), each
developed to a JPEG and to the scene's EXR on every backend asked, N times; the steps' times
are lumen-cli --timings' (the GPU's from CUDA events), the whole command's from the wall clock.

    bench-raw.py [--backends cuda,cuda+nvjpeg,cpu] [--outputs jpg,exr] [--runs 5] [--json OUT.json] [--keep DIR]

Needs numpy, OpenCV and tifffile (tests/raw/dng.py); LUMEN_CLI names the binary."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "raw"))
import dng  # noqa: E402

SIZES = [("24 MP Bayer", "RGGB", 4000, 6000), ("61 MP Bayer", "RGGB", 6336, 9504),
         ("40 MP X-Trans", "XTRANS", 5152, 7728)]
CM = [[0.6257, -0.0303, -0.1000], [-0.7880, 1.5621, 0.2396], [-0.1714, 0.1904, 0.7046]]


def photo(data_dir):
    for name in ("forest-path.jpg", "pier-fog.jpg", "chelsea.png"):
        path = os.path.join(data_dir, "photos", name)
        if os.path.exists(path):
            return cv2.imread(path, cv2.IMREAD_COLOR)[..., ::-1].astype(np.float32) / 255
    raise SystemExit("bench-raw: no photo in " + data_dir)


def make_dng(path, rgb, cfa, h, w, rng):
    big = np.clip(cv2.resize(rgb, (w, h), interpolation=cv2.INTER_CUBIC), 0, 1)
    lin = np.where(big <= 0.04045, big / 12.92, ((big + 0.055) / 1.055) ** 2.4)
    mosaic = dng.mosaic(lin * 0.8 / np.array([2.0, 1.0, 1.5], np.float32), cfa)
    raw = 512 + mosaic * (16383 - 512) + rng.normal(0, 6, mosaic.shape)
    dng.write(path, np.clip(raw, 0, 16383).astype(np.uint16), cfa, black=(512,), white=16383,
              color_matrix=CM, as_shot_neutral=(0.5, 1.0, 0.667))


def run(cli, backend, src, out):
    """BACKEND: cpu, cuda, or cuda+nvjpeg (the JPEG encoded on the GPU: --jpeg-encoder nvjpeg)."""
    flags = ["--backend", backend.split("+")[0]]
    if backend.endswith("+nvjpeg") and out.endswith(".jpg"):
        flags += ["--jpeg-encoder", "nvjpeg"]
    t = time.perf_counter()
    r = subprocess.run([cli, *flags, "--timings", "-o", out, src], capture_output=True, text=True)
    wall = (time.perf_counter() - t) * 1000
    if r.returncode != 0:
        raise SystemExit(f"bench-raw: {r.stderr.strip()}")
    steps = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[-1] == "ms":
            steps[" ".join(parts[:-2])] = float(parts[-2])
    return wall, steps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--backends", default="cuda,cpu")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json")
    ap.add_argument("--keep")
    ap.add_argument("--outputs", default="jpg,exr")
    a = ap.parse_args()
    cli = os.environ.get("LUMEN_CLI", "lumen-cli")
    data = os.environ.get("LUMEN_TEST_DATA", os.path.join(HERE, "..", "tests", "data"))
    rgb = photo(data)
    rng = np.random.default_rng(1)
    work = a.keep or tempfile.mkdtemp(prefix="lumen-bench-raw-")
    rows = []
    for label, cfa, h, w in SIZES:
        src = os.path.join(work, label.replace(" ", "-") + ".dng")
        if not os.path.exists(src):
            make_dng(src, rgb, cfa, h, w, rng)
        for backend in a.backends.split(","):
            for ext in a.outputs.split(","):
                if backend.endswith("+nvjpeg") and ext != "jpg":
                    continue
                out = os.path.join(work, f"out-{backend.replace('+', '-')}.{ext}")
                runs = [run(cli, backend, src, out) for _ in range(a.runs + 1)][1:]  # the first warms caches
                walls = [r[0] for r in runs]
                steps = {k: statistics.median(r[1].get(k, 0.0) for r in runs) for k in runs[0][1]}
                row = {"case": label, "backend": backend, "output": ext, "wall_ms": statistics.median(walls),
                       "wall_min_ms": min(walls), "steps_ms": steps}
                rows.append(row)
                shown = ", ".join(f"{k} {v:.2f}" for k, v in steps.items())
                print(f"{label:14} {backend:11} → .{ext}: {row['wall_ms']:8.1f} ms wall (min {row['wall_min_ms']:.1f}); {shown}",
                      flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
