#!/usr/bin/env python3
"""Writes a sidecar with three masked instances for bench/ui-latency --sidecar: exposure
(Sky), contrast (Subject) and saturation (Ground), each with a feathered mask of a gradient
and a brush stroke (a pointer drag of POINTS samples), laid out on the photo's aspect ratio.

    bench/make-masked-sidecar.py [--points N] [--primaries] [-o OUT] PHOTO

Mask coordinates are fractions of the photo's long side (docs/masks.md), so one sidecar fits
every photo of an aspect ratio; PHOTO is read for its size only (its header: Pillow opens it
lazily, a 50 MP photo in milliseconds; a camera raw through rawpy where it is installed, else
give --size). The instances are exposure#64, contrast#65 and saturation#66 after their
operations' first instances (what Duplicate makes in the window); --primaries puts the masks on
the first instances instead (exposure, contrast, saturation), whose panels every window has.
E.g. on the GPU machine:

    bench/make-masked-sidecar.py -o /tmp/three.lumen photo-50mp.jpg
    build/bench/ui-latency --backend cuda --sidecar /tmp/three.lumen --instance exposure#64 photo-50mp.jpg
    build/bench/ui-latency --backend cuda --sidecar /tmp/three.lumen --instance saturation#66 photo-50mp.jpg

The first moves the first masked instance (the two after it recompute: their input changed),
the second the last one (the two before it come from the cache).
"""
import argparse
import math
import sys

# Instance, its parameter, its value, its gradient (in fractions of the photo's width and
# height), its brush stroke's path (a sine across the photo at this height and amplitude).
INSTANCES = [
    ("exposure", 64, "Sky", "ev=0.7", ("linear", (0.5, 0.05), (0.5, 0.40)), (0.25, 0.06)),
    ("contrast", 65, "Subject", "contrast=0.4", ("radial", (0.5, 0.55), (0.30, 0.25)), (0.55, 0.10)),
    ("saturation", 66, "Ground", "saturation=0.5", ("linear", (0.5, 1.0), (0.5, 0.6)), (0.85, 0.05)),
]


def photo_size(path):
    try:
        from PIL import Image
        Image.MAX_IMAGE_PIXELS = None  # a header is read, not the pixels
        with Image.open(path) as im:
            return im.size
    except Exception as pil_error:  # not a format Pillow knows: a camera raw?
        try:
            import rawpy
            with rawpy.imread(path) as raw:
                return raw.sizes.width, raw.sizes.height
        except Exception:
            raise SystemExit(f"make-masked-sidecar: {path}: cannot read its size ({pil_error}); give --size WxH")


def fmt(x):
    return f"{x:.9g}"


def stroke(width, height, long_side, y, amplitude, n):
    """A drag from left to right at height Y (fraction of the height), waving by AMPLITUDE."""
    points = []
    for k in range(n):
        t = k / (n - 1)
        px = (0.05 + 0.9 * t) * width
        py = (y + amplitude * math.sin(4 * math.pi * t)) * height
        points.append(f"{fmt(px / long_side)},{fmt(py / long_side)}")
    return " ".join(points)


def sidecar(width, height, n_points, primaries):
    long_side = max(width, height)
    u = lambda fx: fx * width / long_side  # noqa: E731
    v = lambda fy: fy * height / long_side  # noqa: E731
    groups = {op: op if primaries else f"{op}#{ident}" for op, ident, *_ in INSTANCES}
    order = ["rotate", "straighten", "crop", "exposure"]
    order += [] if primaries else [groups["exposure"]]
    order += ["contrast"] + ([] if primaries else [groups["contrast"]])
    order += ["saturation"] + ([] if primaries else [groups["saturation"]])
    order += ["resize"]
    lines = ["[lumen]", "version=2", "order=" + ",".join(order), ""]
    for op, ident, name, param, gradient, (sy, amp) in INSTANCES:
        group = groups[op]
        lines += [f"[{group}]"] + ([] if primaries else [f"name={name}"]) + ["enabled=true", param, ""]
        lines += [f"[{group} mask]", "opacity=1", "feather=0.01", "detail=0.1"]
        kind, a, b = gradient
        if kind == "linear":
            lines.append(f"shape1=linear add from={fmt(u(a[0]))},{fmt(v(a[1]))} to={fmt(u(b[0]))},{fmt(v(b[1]))}")
        else:
            radii = f"{fmt(b[0] * min(width, height) / long_side)},{fmt(b[1] * min(width, height) / long_side)}"
            lines.append(f"shape1=radial add centre={fmt(u(a[0]))},{fmt(v(a[1]))} radii={radii} angle=0 "
                         "softness=0.5")
        lines.append("shape2=brush add")
        lines.append("stroke2.1=paint size=0.03 hardness=0.5 opacity=1 points="
                     + stroke(width, height, long_side, sy, amp, n_points))
        lines.append("")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("photo", nargs="?", help="the photo the sidecar is for (its size)")
    ap.add_argument("--size", help="WIDTHxHEIGHT instead of reading PHOTO")
    ap.add_argument("--points", type=int, default=200, help="points of each brush stroke (default 200)")
    ap.add_argument("--primaries", action="store_true", help="mask the first instances, add none")
    ap.add_argument("-o", "--output", help="write here (default: stdout)")
    args = ap.parse_args()
    if args.size:
        try:
            width, height = (int(x) for x in args.size.lower().split("x"))
        except ValueError:
            ap.error(f"--size {args.size!r}: not WIDTHxHEIGHT")
    elif args.photo:
        width, height = photo_size(args.photo)
    else:
        ap.error("give PHOTO or --size")
    if width < 1 or height < 1 or not 2 <= args.points <= 4096:
        ap.error("sizes from 1, --points from 2 to 4096 (a stroke's limit)")
    text = sidecar(width, height, args.points, args.primaries)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
