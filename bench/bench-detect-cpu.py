#!/usr/bin/python3
"""lumen-cli detect-objects (CPU) against cv2.CascadeClassifier.detectMultiScale2 on all cores.

Each photo is upscaled with cv2.resize to about 12, 24 and 50 MP and written as PNG, so that
both sides read the same bytes. Lumen's time is its gray conversion and detection as
`--timings` reports them (the model's parse and the PNG decode are shown apart); OpenCV's is
cvtColor and detectMultiScale2 with cv2.setNumThreads(os.cpu_count()). The best of --repeat
runs is kept on each side. The boxes and their neighbour counts must be the same multiset; a
difference is reported and the exit status is 1.

  bench/bench-detect-cpu.py [--lumen build/app/lumen-cli] [--mp 12,24,50] [--models faces,faces-lbp]
                            [--repeat 3] [PHOTO...]

Photos: the arguments, else ../shared/data/photos' first JPEG when present, else
tests/data/photos/forest-path.jpg. Prints a Markdown table.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import cv2

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CASCADES = "/usr/share/opencv4"
MODELS = {
    "faces": "haarcascades/haarcascade_frontalface_default.xml",
    "faces-alt": "haarcascades/haarcascade_frontalface_alt.xml",
    "faces-lbp": "lbpcascades/lbpcascade_frontalface_improved.xml",
    "eyes": "haarcascades/haarcascade_eye.xml",
    "upper-bodies": "haarcascades/haarcascade_upperbody.xml",
    "full-bodies": "haarcascades/haarcascade_fullbody.xml",
    "cat-faces-lbp": "lbpcascades/lbpcascade_frontalcatface.xml",
}
TIMINGS = re.compile(r"model ([\d.]+) s, photo ([\d.]+) s, gray ([\d.]+) s, detection ([\d.]+) s")


def default_photos():
    shared = os.path.join(ROOT, "..", "shared", "data", "photos")
    if os.path.isdir(shared):
        jpegs = sorted(n for n in os.listdir(shared) if n.lower().endswith((".jpg", ".jpeg")))
        if jpegs:
            return [os.path.join(shared, jpegs[0])]
    return [os.path.join(ROOT, "tests", "data", "photos", "forest-path.jpg")]


def scaled(photo, mp, tmp):
    img = cv2.imread(photo, cv2.IMREAD_COLOR)
    if img is None:
        sys.exit(f"{photo}: cannot be read")
    h, w = img.shape[:2]
    k = (mp * 1e6 / (w * h)) ** 0.5
    size = (round(w * k), round(h * k))
    img = cv2.resize(img, size, interpolation=cv2.INTER_LINEAR)
    path = os.path.join(tmp, f"{os.path.splitext(os.path.basename(photo))[0]}-{mp}mp.png")
    cv2.imwrite(path, img, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    return path, size


def run_lumen(lumen, model, png, args, tmp):
    out = os.path.join(tmp, "boxes.json")
    cmd = [lumen, "detect-objects", "--model", model, "--timings", "--scale-factor", str(args.scale_factor),
           "--min-neighbors", str(args.min_neighbors), "--min-size", args.min_size, "-o", out, png]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: status {r.returncode}: {r.stderr.strip()}")
    m = TIMINGS.search(r.stdout)
    if not m:
        sys.exit(f"lumen-cli printed no timings: {r.stdout!r}")
    model_s, photo_s, gray_s, detect_s = map(float, m.groups())
    with open(out) as f:
        boxes = sorted((b["x"], b["y"], b["width"], b["height"], b["score"]) for b in json.load(f))
    return {"detect": gray_s + detect_s, "model": model_s, "photo": photo_s, "wall": wall}, boxes


def run_opencv(model, png, args):
    cascade = cv2.CascadeClassifier(os.path.join(CASCADES, MODELS[model]))
    img = cv2.imread(png, cv2.IMREAD_COLOR)
    w, h = map(int, args.min_size.lower().split("x"))
    t0 = time.perf_counter()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    rects, counts = cascade.detectMultiScale2(gray, scaleFactor=args.scale_factor, minNeighbors=args.min_neighbors,
                                              minSize=(w, h))
    t = time.perf_counter() - t0
    boxes = sorted((int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(n)) for r, n in zip(rects, counts))
    return t, boxes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("photos", nargs="*")
    ap.add_argument("--lumen", default=os.path.join(ROOT, "build", "app", "lumen-cli"))
    ap.add_argument("--mp", default="12,24,50")
    ap.add_argument("--models", default="faces,faces-lbp")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale-factor", type=float, default=1.1)
    ap.add_argument("--min-neighbors", type=int, default=3)
    ap.add_argument("--min-size", default="30x30")
    args = ap.parse_args()
    cv2.setNumThreads(os.cpu_count())
    photos = args.photos or default_photos()
    print(f"OpenCV {cv2.__version__}, {cv2.getNumThreads()} threads; {os.cpu_count()} cores; scale factor "
          f"{args.scale_factor}, minNeighbors {args.min_neighbors}, minSize {args.min_size}; best of {args.repeat}\n")
    print("| photo | size | model | Lumen detect s | Lumen model parse s | Lumen PNG decode s | OpenCV s "
          "| Lumen / OpenCV | boxes | identical |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    failed = False
    with tempfile.TemporaryDirectory(prefix="bench-detect-cpu-") as tmp:
        for photo in photos:
            for mp in (int(m) for m in args.mp.split(",")):
                png, (w, h) = scaled(photo, mp, tmp)
                for model in args.models.split(","):
                    lumen, ocv = None, None
                    for _ in range(args.repeat):
                        t, lb = run_lumen(args.lumen, model, png, args, tmp)
                        lumen = t if lumen is None or t["detect"] < lumen["detect"] else lumen
                        o, ob = run_opencv(model, png, args)
                        ocv = o if ocv is None else min(ocv, o)
                    same = lb == ob
                    failed |= not same
                    print(f"| {os.path.basename(photo)} | {w}×{h} ({w * h / 1e6:.1f} MP) | {model} "
                          f"| {lumen['detect']:.3f} | {lumen['model']:.3f} | {lumen['photo']:.3f} | {ocv:.3f} "
                          f"| {lumen['detect'] / ocv:.2f} | {len(lb)} | {'yes' if same else 'NO'} |", flush=True)
                    if not same:
                        print(f"  Lumen only: {sorted(set(lb) - set(ob))}\n  OpenCV only: {sorted(set(ob) - set(lb))}",
                              file=sys.stderr)
                os.unlink(png)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
