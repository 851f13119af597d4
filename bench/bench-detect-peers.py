#!/usr/bin/env python3
"""Source detection's peers on the fields bench-detect wrote (--write-field: field-SIDE.f32,
raw float32): the seed lesson's pipeline in NumPy/SciPy on the CPU and in CuPy/cupyx on the
GPU, and sep's C library (bench-detect-sep, built by tests/gpu/device-pack.sh), in the same
call as bench-detect on the GPU machine (device-run step `detect`).

The pipeline as the lesson writes it: κ-σ clipping (median and std of what is kept, mask,
repeat: astropy's sigma_clipped_stats is not on that machine), the mask above
median + threshold·σ, scipy.ndimage.label (4-connectivity), the minimum area, then
center_of_mass and sum_labels of the residual per label. Steps are timed separately (CuPy
synchronized after each), the median of the runs after a warm-up.

    bench-detect-peers.py --fields DIR [--sizes 2048,8192] [--sep PROGRAM] [--json FILE]
"""
import argparse
import json
import os
import subprocess
import sys
import time


def clip(xp, data, kappa=3.0, max_iterations=10):
    values = data[xp.isfinite(data)]
    for _ in range(max_iterations):
        median, std = xp.median(values), values.std()
        keep = (values >= median - kappa * std) & (values <= median + kappa * std)
        if int(keep.sum()) == values.size:
            break
        values = values[keep]
    return float(xp.median(values)), float(values.std())


def pipeline(xp, ndimage, data, sync, threshold=5.0, min_area=5):
    t = {}
    start = time.perf_counter()
    median, std = clip(xp, data)
    sync()
    t["clip_ms"] = (time.perf_counter() - start) * 1e3
    mark = time.perf_counter()
    residual = data - median
    labels, n = ndimage.label(residual > threshold * std)
    area = xp.bincount(labels.ravel(), minlength=n + 1)
    keep = area >= min_area
    keep[0] = False
    renumber = xp.cumsum(keep) * keep
    labels = renumber[labels]
    n = int(keep.sum())
    sync()
    t["label_ms"] = (time.perf_counter() - mark) * 1e3
    mark = time.perf_counter()
    index = xp.arange(1, n + 1)
    centres = ndimage.center_of_mass(residual, labels, index)
    flux = ndimage.sum_labels(residual, labels, index)
    raw = ndimage.sum_labels(data, labels, index)
    if xp.__name__ == "cupy":
        centres = xp.asarray(centres)
    sync()
    t["measure_ms"] = (time.perf_counter() - mark) * 1e3
    t["total_ms"] = (time.perf_counter() - start) * 1e3
    t["sources"] = n
    del centres, flux, raw
    return t


def median_of(runs):
    out = {}
    for key in runs[0]:
        values = sorted(r[key] for r in runs)
        out[key] = values[len(values) // 2]
    return out


def bench(name, xp, ndimage, data, sync, repeat):
    pipeline(xp, ndimage, data, sync)  # warm-up: CuPy compiles its kernels here
    runs = [pipeline(xp, ndimage, data, sync) for _ in range(repeat)]
    r = median_of(runs)
    r["peer"] = name
    return r


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fields", required=True)
    parser.add_argument("--sizes", default="2048,8192")
    parser.add_argument("--sep")
    parser.add_argument("--json")
    args = parser.parse_args()
    import numpy as np
    import scipy
    from scipy import ndimage
    results = []
    for side in (int(s) for s in args.sizes.split(",")):
        path = os.path.join(args.fields, f"field-{side}.f32")
        data = np.fromfile(path, dtype=np.float32).reshape(side, side)
        cpu_repeat = 3 if side <= 4096 else 1
        r = bench(f"scipy {scipy.__version__}", np, ndimage, data, lambda: None, cpu_repeat)
        r.update(size=side, threads=os.cpu_count())
        results.append(r)
        print(json.dumps(r), flush=True)
        try:
            import cupy as cp
            from cupyx.scipy import ndimage as cndimage
            sync = cp.cuda.Stream.null.synchronize
            r = bench(f"cupy {cp.__version__}", cp, cndimage, cp.asarray(data), sync, 10)
            r.update(size=side)
            results.append(r)
            print(json.dumps(r), flush=True)
            cp.get_default_memory_pool().free_all_blocks()
        except ImportError as e:
            print(f"cupy: not measured ({e})", flush=True)
        if args.sep:
            out = subprocess.run([args.sep, path, str(side), "5" if side <= 4096 else "2"], capture_output=True,
                                 text=True)
            if out.returncode != 0:
                print(f"sep: {out.stderr.strip()}", flush=True)
            else:
                r = json.loads(out.stdout)
                results.append(r)
                print(json.dumps(r), flush=True)
    print("\npeer                  size   sources   clip/background ms   label ms   measure ms   total ms")
    for r in results:
        first = r.get("clip_ms", r.get("background_ms"))
        label = r.get("label_ms", r.get("extract_ms"))
        print(f"{r['peer']:<20} {r['size']:>5} {r['sources']:>9} {first:>20.3f} {label:>10.3f} "
              f"{r.get('measure_ms', float('nan')):>12.3f} {r['total_ms']:>10.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
