#!/usr/bin/env python3
"""Lumen's file encoders and decoders against OpenCV's imwrite and imread, pair by pair.

    bench-io.py --bench-io BUILD/bench/bench-io [--sizes 24,100] [--pairs N] [--out DIR]

The image is a real photo of the shared data (beach-aerial-15mp.jpg) resized with cubic
interpolation to 6000×4000 (24 MP) and 12000×8334 (100 MP). Each pair is one timed run of
Lumen's (bench-io: lm_io_save or lm_io_load inside its process, the image decoded
beforehand) and one of OpenCV's in this process, in turn, so that the machine's drift
touches both alike; the figures are the medians of each side and of the ratios Lumen/OpenCV
pair by pair, with each side's CPU time (all threads) beside: on a busy machine the steadier
figure. Lumen's save is lm_io_save as lumen-cli's, with its fsync and rename (never a partial
file); OpenCV's imwrite syncs nothing. Both write to the same folder (--out, by default a temporary one); OpenCV's
codecs run on one thread, Lumen's on every core (OMP_NUM_THREADS to pin them), which is the
point. PNG at a given level is compared with imwrite at the same IMWRITE_PNG_COMPRESSION;
OpenCV's own default (no parameter: SUB filter, level 1, Z_RLE) is a row of its own. TIFF
"deflate", "lzw" and "none" are OpenCV's IMWRITE_TIFF_COMPRESSION 8, 5 and 1 against
Lumen's fixed choice (LZW with the horizontal predictor, its strips compressed on every core),
which the row names. The TIFF decodes read OpenCV's files (strips of one row, as libtiff
writes by default), which Lumen decodes on every core."""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import cv2


def make_image(mp, folder):
    src = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data", "photos", "beach-aerial-15mp.jpg")
    src = os.environ.get("LUMEN_BENCH_PHOTO", src)
    size = {24: (6000, 4000), 100: (12000, 8334)}[mp]
    img = cv2.resize(cv2.imread(src, cv2.IMREAD_COLOR), size, interpolation=cv2.INTER_CUBIC)
    return img


def lumen_ms(bench, args):
    """(wall, CPU of all threads) in ms, as bench-io measured them inside its process."""
    out = subprocess.run([bench] + args, check=True, capture_output=True, text=True).stdout
    wall, cpu = out.split()[:2]
    return float(wall), float(cpu)


def opencv_ms(fn):
    t, c = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - t) * 1e3, (time.process_time() - c) * 1e3


def pairs(n, lumen, opencv):
    """Medians of wall and CPU times of each side, and of the wall ratios pair by pair."""
    a, b = [], []
    for _ in range(n):
        a.append(lumen())
        b.append(opencv())
    ratios = [x[0] / y[0] for x, y in zip(a, b)]
    med = lambda v, i: statistics.median(x[i] for x in v)
    return (med(a, 0), med(b, 0), statistics.median(ratios), min(ratios), max(ratios), med(a, 1), med(b, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench-io", required=True)
    ap.add_argument("--sizes", default="24,100")
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--out", default=None)
    ap.add_argument("--only", default=None, help="comma-separated row-name prefixes to run")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    records = []
    with tempfile.TemporaryDirectory(dir=args.out) as tmp:
        for mp in [int(s) for s in args.sizes.split(",")]:
            img = make_image(mp, tmp)
            # Inputs in the formats both decode, written once by OpenCV.
            src_png = os.path.join(tmp, "src.png")
            cv2.imwrite(src_png, img)
            src_jpg = os.path.join(tmp, "src.jpg")
            cv2.imwrite(src_jpg, img, [cv2.IMWRITE_JPEG_QUALITY, 95])
            src_tif = os.path.join(tmp, "src.tif")
            cv2.imwrite(src_tif, img, [cv2.IMWRITE_TIFF_COMPRESSION, 5])
            src_zip = os.path.join(tmp, "src-deflate.tif")
            cv2.imwrite(src_zip, img, [cv2.IMWRITE_TIFF_COMPRESSION, 8])
            out_l, out_c = os.path.join(tmp, "lumen"), os.path.join(tmp, "opencv")
            h, w = img.shape[:2]
            rows = []
            save = lambda ext, extra: (lambda: lumen_ms(args.bench_io, ["save", src_png, out_l + ext] + extra))
            cvw = lambda ext, params: (lambda: cv2.imwrite(out_c + ext, img, params))
            for level in (1, 3, 6):
                rows.append((f"png level {level}", ".png", save(".png", ["--png-level", str(level)]),
                             cvw(".png", [cv2.IMWRITE_PNG_COMPRESSION, level])))
            rows.append(("png: Lumen default (1) vs OpenCV default", ".png", save(".png", []), cvw(".png", [])))
            # Lumen writes 4:4:4 at quality 90 and above: against OpenCV at 4:4:4 (the same
            # work) and at its default (4:2:0).
            # (OpenCV before 4.7 has no sampling parameter: that row is left out there.)
            if hasattr(cv2, "IMWRITE_JPEG_SAMPLING_FACTOR"):
                rows.append(("jpeg q95 encode 4:4:4", ".jpg", save(".jpg", ["--quality", "95"]),
                             cvw(".jpg", [cv2.IMWRITE_JPEG_QUALITY, 95, cv2.IMWRITE_JPEG_SAMPLING_FACTOR,
                                          cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444])))
            rows.append(("jpeg q95 encode vs OpenCV 4:2:0", ".jpg", save(".jpg", ["--quality", "95"]),
                         cvw(".jpg", [cv2.IMWRITE_JPEG_QUALITY, 95])))
            for name, code in (("lzw", 5), ("deflate", 8), ("none", 1)):
                rows.append((f"tiff encode: Lumen LZW vs OpenCV {name}", ".tif", save(".tif", []),
                             cvw(".tif", [cv2.IMWRITE_TIFF_COMPRESSION, code])))
            for name, path in (("jpeg", src_jpg), ("png", src_png), ("tiff lzw", src_tif),
                               ("tiff deflate", src_zip)):
                rows.append((f"{name} decode", None, (lambda p=path: lumen_ms(args.bench_io, ["load", p])),
                             (lambda p=path: cv2.imread(p, cv2.IMREAD_UNCHANGED))))
            for name, ext, lumen, opencv in rows:
                if args.only and not any(name.startswith(p) for p in args.only.split(",")):
                    continue
                opencv_t = lambda fn=opencv: opencv_ms(fn)
                lumen()  # warm-up of both: the page cache, the allocator
                opencv_t()
                lm, cm, r, rmin, rmax, lcpu, ccpu = pairs(args.pairs, lumen, opencv_t)
                sizes = ""
                if ext:
                    sizes = f"{os.path.getsize(out_l + ext) / 1e6:.1f} / {os.path.getsize(out_c + ext) / 1e6:.1f} MB"
                records.append(dict(mp=mp, width=w, height=h, case=name, lumen_ms=lm, opencv_ms=cm,
                                    ratio=r, ratio_min=rmin, ratio_max=rmax, lumen_cpu_ms=lcpu,
                                    opencv_cpu_ms=ccpu, sizes=sizes))
                print(f"| {mp} MP | {name} | {lm:.0f} | {cm:.0f} | {r:.2f} ({rmin:.2f}–{rmax:.2f}) | "
                      f"{lcpu:.0f} | {ccpu:.0f} | {sizes} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(machine=platform.node(), cpus=os.cpu_count(), opencv=cv2.__version__,
                           records=records), f, indent=1)


if __name__ == "__main__":
    main()
