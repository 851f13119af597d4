#!/usr/bin/python3
"""lumen-cli detect-objects on each backend against cv2.CascadeClassifier.detectMultiScale2 on all cores.

Each photo is upscaled with cv2.resize to about 12, 24 and 50 MP and written as PNG, so that
both sides read the same bytes. Lumen's time is what `--timings` calls detection: the gray
conversion, on the GPU the upload, the pyramid, the cascade and the way back, and the grouping
(the model's parse, the PNG decode and the backend's start-up are shown apart); OpenCV's is
cvtColor and detectMultiScale2 with cv2.setNumThreads(os.cpu_count()), in this Python's cv2 or,
where that has no CascadeClassifier (opencv-python-headless) or --opencv-peer is given, in
bench/peer-cascade.cpp built against Debian's OpenCV 4.6. Each run of lumen-cli
is a new process, so its time is a user's, cold; the best of --repeat runs is kept on each
side. The boxes and their neighbour counts must be the same multiset on every backend and in
OpenCV; a difference is reported and the exit status is 1.

  bench/bench-detect.py [--lumen build/app/lumen-cli] [--backends cuda,cpu] [--mp 12,24,50]
                        [--models faces,faces-lbp] [--repeat 3] [--opencv-peer BIN] [--json FILE] [PHOTO...]

Photos: the arguments, else ../shared/data/photos' first JPEG when present, else
tests/data/photos/forest-path.jpg. Prints a Markdown table; --json writes the figures.
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
CASCADES = os.environ.get("LUMEN_CASCADE_DIR", "/usr/share/opencv4")
MODELS = {
    "faces": "haarcascades/haarcascade_frontalface_default.xml",
    "faces-alt": "haarcascades/haarcascade_frontalface_alt.xml",
    "faces-lbp": "lbpcascades/lbpcascade_frontalface_improved.xml",
    "eyes": "haarcascades/haarcascade_eye.xml",
    "upper-bodies": "haarcascades/haarcascade_upperbody.xml",
    "full-bodies": "haarcascades/haarcascade_fullbody.xml",
    "cat-faces-lbp": "lbpcascades/lbpcascade_frontalcatface.xml",
}
TIMINGS = re.compile(r"model ([\d.]+) s, photo ([\d.]+) s, start-up ([\d.]+) s, detection ([\d.]+) s")
BACKEND = re.compile(r"^backend: (.*)$", re.M)


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


def run_lumen(lumen, backend, model, png, args, tmp):
    out = os.path.join(tmp, "boxes.json")
    cmd = [lumen, "detect-objects", "--backend", backend, "--model", model, "--timings",
           "--scale-factor", str(args.scale_factor),
           "--min-neighbors", str(args.min_neighbors), "--min-size", args.min_size, "-o", out, png]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, LC_ALL="C"))
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: status {r.returncode}: {r.stderr.strip()}")
    m = TIMINGS.search(r.stdout)
    if not m:
        sys.exit(f"lumen-cli printed no timings: {r.stdout!r}")
    model_s, photo_s, start_s, detect_s = map(float, m.groups())
    with open(out) as f:
        boxes = sorted((b["x"], b["y"], b["width"], b["height"], b["score"]) for b in json.load(f))
    return {"detect": detect_s, "model": model_s, "photo": photo_s, "start": start_s, "wall": wall,
            "device": BACKEND.search(r.stdout).group(1)}, boxes


def run_opencv(model, png, args):
    w, h = map(int, args.min_size.lower().split("x"))
    if args.opencv_peer:
        img = cv2.imread(png, cv2.IMREAD_COLOR)
        raw = png + ".bgr"
        if not os.path.exists(raw):
            img.tofile(raw)
        r = subprocess.run([args.opencv_peer, os.path.join(CASCADES, MODELS[model]), raw, str(img.shape[1]),
                            str(img.shape[0]), str(args.scale_factor), str(args.min_neighbors), str(w), str(h), "1"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit(f"{args.opencv_peer}: status {r.returncode}: {r.stderr.strip()}")
        lines = r.stdout.splitlines()
        first = lines[0].split()
        args.opencv_version = f"{first[1]} (bench/peer-cascade.cpp), {first[3]} threads"
        boxes = sorted(tuple(int(v) for v in line.split()) for line in lines[1:])
        return float(first[5]), boxes
    cascade = cv2.CascadeClassifier(os.path.join(CASCADES, MODELS[model]))
    img = cv2.imread(png, cv2.IMREAD_COLOR)
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
    ap.add_argument("--backends", default="cuda,cpu")
    ap.add_argument("--mp", default="12,24,50")
    ap.add_argument("--models", default="faces,faces-lbp")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--scale-factor", type=float, default=1.1)
    ap.add_argument("--min-neighbors", type=int, default=3)
    ap.add_argument("--min-size", default="30x30")
    ap.add_argument("--json")
    ap.add_argument("--opencv-peer")
    args = ap.parse_args()
    if not args.opencv_peer and not hasattr(cv2, "CascadeClassifier"):
        args.opencv_peer = os.path.join(ROOT, ".dv", "peer-cascade")
    args.opencv_version = f"{cv2.__version__}, {os.cpu_count()} threads"
    cv2.setNumThreads(os.cpu_count())
    photos = args.photos or default_photos()
    backends = args.backends.split(",")
    print(f"{os.cpu_count()} cores; scale factor {args.scale_factor}, minNeighbors {args.min_neighbors}, "
          f"minSize {args.min_size}; best of {args.repeat}\n")
    print("| photo | size | model | backend | Lumen detect s | start-up s | OpenCV s | OpenCV / Lumen "
          "| boxes | identical |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---|")
    failed = False
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-detect-") as tmp:
        for photo in photos:
            for mp in (int(m) for m in args.mp.split(",")):
                png, (w, h) = scaled(photo, mp, tmp)
                for model in args.models.split(","):
                    ocv, ob = None, None
                    for _ in range(args.repeat):
                        o, ob = run_opencv(model, png, args)
                        ocv = o if ocv is None else min(ocv, o)
                    for backend in backends:
                        lumen = None
                        for _ in range(args.repeat):
                            t, lb = run_lumen(args.lumen, backend, model, png, args, tmp)
                            lumen = t if lumen is None or t["detect"] < lumen["detect"] else lumen
                        same = lb == ob
                        failed |= not same
                        rows.append({"photo": os.path.basename(photo), "width": w, "height": h, "model": model,
                                     "backend": backend, "device": lumen["device"], "lumen_s": lumen["detect"],
                                     "start_s": lumen["start"], "opencv_s": ocv, "boxes": len(lb),
                                     "identical": same})
                        print(f"| {os.path.basename(photo)} | {w}×{h} ({w * h / 1e6:.1f} MP) | {model} | {backend} "
                              f"| {lumen['detect']:.4f} | {lumen['start']:.3f} | {ocv:.3f} "
                              f"| {ocv / lumen['detect']:.1f}× | {len(lb)} | {'yes' if same else 'NO'} |", flush=True)
                        if not same:
                            print(f"  Lumen only: {sorted(set(lb) - set(ob))}\n"
                                  f"  OpenCV only: {sorted(set(ob) - set(lb))}", file=sys.stderr)
                os.unlink(png)
                if os.path.exists(png + ".bgr"):
                    os.unlink(png + ".bgr")
    print(f"\nOpenCV {args.opencv_version}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"opencv": args.opencv_version, "cores": os.cpu_count(), "rows": rows}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
