#!/usr/bin/env python3
"""Lumen's CPU operations against OpenCV's, same image, same thread count.

    cpu-vs-opencv.py --bench-ops BUILD/bench/bench-ops [--threads N] [--json FILE] [IMAGE]

Without IMAGE, a 24 MP (6000×4000) test image is made from a real photo of the shared data
(beach-aerial-15mp.jpg, resized with cubic interpolation). Lumen's figures come from
bench-ops (median of warm runs, the operation alone); OpenCV's from the same kind of loop
around the call a user would write, with cv2.setNumThreads(N). Each library works on its
native layout: Lumen on RGBA as decoded, OpenCV on BGR. A second OpenCV column gives the same
calls on BGRA, the bytes Lumen moves: where a case is bound by memory, Lumen's 4 bytes a
pixel against BGR's 3 set a floor of 4/3 on the first ratio, and the second shows what is
left once both move the same bytes."""
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


# bench-ops runs each case on three copies of the image in turn, so that no run is timed from
# the cache the last one filled (the GPU machine's CPU has 300 MiB of L3: one 24 MP RGBA image
# and its result fit, three do not); OpenCV's calls take their copies in the same turn.
COPIES = 3


def median_ms(fns, repeat):
    """The median time of REPEAT calls, going round FNS (one a copy), after one call of each."""
    for fn in fns:
        fn()
    times = []
    for r in range(repeat):
        t = time.perf_counter()
        fns[r % len(fns)]()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def commit():
    """The source tree's commit, "+uncommitted" when it has changes: the figures' version."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        head = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True).stdout.strip()
        return head + (" +uncommitted" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def opencv_cases(img):
    """What an OpenCV user calls for each case, on IMG (BGR, or BGRA: alpha kept as Lumen keeps it)."""
    alpha = img.shape[2] == 4
    gray = cv2.cvtColor(img, cv2.COLOR_BGRA2GRAY if alpha else cv2.COLOR_BGR2GRAY)
    to_colour = cv2.COLOR_GRAY2BGRA if alpha else cv2.COLOR_GRAY2BGR

    def eq_luma():
        ycc = cv2.cvtColor(img, cv2.COLOR_BGR2YCrCb)
        ycc[..., 0] = cv2.equalizeHist(ycc[..., 0])
        out = cv2.cvtColor(ycc, cv2.COLOR_YCrCb2BGR)
        return cv2.merge([*cv2.split(out), img[..., 3]]) if alpha else out

    def eq_rgb():
        planes = cv2.split(img)
        return cv2.merge([cv2.equalizeHist(c) for c in planes[:3]] + list(planes[3:]))

    def blur(src, s):
        return lambda: cv2.GaussianBlur(src, (0, 0), s, borderType=cv2.BORDER_REFLECT_101)

    # Exposure +0.7 EV on the file's sRGB values, as a user would apply it: one table.
    v = np.arange(256, dtype=np.float64) / 255
    lin = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4) * 2 ** 0.7
    srgb = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * np.power(np.maximum(lin, 0), 1 / 2.4) - 0.055)
    exposure_table = np.clip(np.rint(255 * srgb), 0, 255).astype(np.uint8)

    h, w = img.shape[:2]
    turn = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), 1.5, 1.0)
    bgr = img[..., :3] if alpha else img

    def unsharp(sigma):
        # An OpenCV user's unsharp mask: the Gaussian, then 2·img − blur in one weighted sum.
        return lambda: cv2.addWeighted(img, 2.0, cv2.GaussianBlur(img, (0, 0), sigma,
                                                                 borderType=cv2.BORDER_REFLECT_101), -1.0, 0)

    # A vignette as a user applies one: the image times a float mask made once.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r2 = ((xx - w / 2) / (w / 2)) ** 2 + ((yy - h / 2) / (h / 2)) ** 2
    mask = cv2.merge([np.clip(1.0 - 0.5 * r2, 0, 1).astype(np.float32)] * img.shape[2])

    # Lens distortion as OpenCV corrects it: remap through maps made once (bicubic).
    k = np.array([[w, 0, w / 2], [0, w, h / 2], [0, 0, 1]], dtype=np.float64)
    map1, map2 = cv2.initUndistortRectifyMap(k, np.array([-0.1, 0.02, 0, 0, 0]), None, k, (w, h), cv2.CV_16SC2)

    # The colour mixer as a user would write it: HSV, a hue and a saturation table, back.
    hue_table = ((np.arange(256) + 4) % 256).astype(np.uint8)
    sat_table = np.clip(np.arange(256) * 1.2, 0, 255).astype(np.uint8)

    def hsv_mix():
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV_FULL)
        hh, ss, vv = cv2.split(hsv)
        return cv2.cvtColor(cv2.merge([cv2.LUT(hh, hue_table), cv2.LUT(ss, sat_table), vv]), cv2.COLOR_HSV2BGR_FULL)

    # Names match bench-ops' cases; each lambda is what an OpenCV user would call.
    return {
        "points: exposure": lambda: cv2.LUT(img, exposure_table),
        "gray bt601 (rgba->gray)": lambda: cv2.cvtColor(img, cv2.COLOR_BGRA2GRAY if alpha else cv2.COLOR_BGR2GRAY),
        "gray amount 0.5 (rgba->rgba)": lambda: cv2.addWeighted(
            img, 0.5, cv2.cvtColor(cv2.cvtColor(img, cv2.COLOR_BGRA2GRAY if alpha else cv2.COLOR_BGR2GRAY),
                                   to_colour), 0.5, 0),
        "equalize (gray)": lambda: cv2.equalizeHist(gray),
        "equalize luma (rgba)": eq_luma,
        "equalize rgb (rgba)": eq_rgb,
        "blur sigma=1 (rgba)": blur(img, 1),
        "blur sigma=2.5 (rgba)": blur(img, 2.5),
        "blur sigma=10 (rgba)": blur(img, 10),
        "blur sigma=10 (gray)": blur(gray, 10),
        "blur sigma=50 (rgba)": blur(img, 50),
        # Geometry: Lumen's straighten also crops to the largest upright rectangle, which
        # OpenCV's user does with a slice (not timed); its resize picks area or Lanczos-3.
        "rotate 90 (rgba)": lambda: cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE),
        "crop from 300,200 (rgba)": lambda: img[200:, 300:].copy(),
        "straighten 1.5 (rgba)": lambda: cv2.warpAffine(img, turn, (w, h), flags=cv2.INTER_CUBIC,
                                                        borderMode=cv2.BORDER_REPLICATE),
        # Issue 32's operations against what OpenCV offers for the same task: NLM (h 10) for
        # denoise, the domain-transform detailEnhance for local contrast, an HSV table pass for the
        # colour mixer; the tone equalizer has no OpenCV counterpart.
        "denoise, σ 10 (rgba)": lambda: cv2.fastNlMeansDenoisingColored(bgr, None, 10, 10, 7, 21),
        "localcontrast amount=0.3 (rgba)": lambda: cv2.detailEnhance(bgr, sigma_s=10, sigma_r=0.15),
        "points: colormix": hsv_mix,
        "sharpen radius=1 (rgba)": unsharp(1),
        "sharpen radius=4 (rgba)": unsharp(4),
        "vignette amount=-1 (rgba)": lambda: cv2.multiply(img, mask, dtype=cv2.CV_8U),
        "lens 24 mm, all corrections (rgba)": lambda: cv2.remap(img, map1, map2, cv2.INTER_CUBIC),
        "resize to 3000x2000, area (rgba)": lambda: cv2.resize(img, (3000, 2000), interpolation=cv2.INTER_AREA),
        "resize to 4500x3000, lanczos (rgba)": lambda: cv2.resize(img, (4500, 3000),
                                                                  interpolation=cv2.INTER_LANCZOS4),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench-ops", required=True)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=3, help="times each case is measured on both sides, in turn")
    ap.add_argument("--json")
    ap.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
    ap.add_argument("--only", help="comma-separated case names (or their beginnings) to measure, e.g. "
                    "'denoise,sharpen' for the detail operations alone")
    ap.add_argument("image", nargs="?")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="lumen-bench-")
    image = a.image
    if image is None:
        src = cv2.imread(os.path.join(a.data, "photos", "beach-aerial-15mp.jpg"))
        if src is None:
            sys.exit("cpu-vs-opencv: no test photo; give IMAGE or --data")
        image = os.path.join(tmp, "24mp.png")
        cv2.imwrite(image, cv2.resize(src, (6000, 4000), interpolation=cv2.INTER_CUBIC),
                    [cv2.IMWRITE_PNG_COMPRESSION, 1])

    env = dict(os.environ, OMP_NUM_THREADS=str(a.threads), OMP_PROC_BIND="false")
    lumen_json = os.path.join(tmp, "lumen.json")

    def lumen_ms(name):
        """bench-ops' median for case NAME alone (None where this build lacks it)."""
        subprocess.run([a.bench_ops, "--backend", "cpu", "--repeat", str(a.repeat), "--json", lumen_json, image],
                       check=True, env=dict(env, LUMEN_BENCH_ONLY=name), stdout=sys.stderr)
        found = [r["op_ms"] for r in json.load(open(lumen_json)) if r["case"] == name]
        return found[0] if found else None

    cv2.setNumThreads(a.threads)
    img = cv2.imread(image)
    native = [opencv_cases(img.copy()) for _ in range(COPIES)]
    # The same calls on BGRA; the gray-input cases read the same bytes already.
    same_bytes = [opencv_cases(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)) for _ in range(COPIES)]
    # Each case's three figures are taken one after the other, ROUNDS times over: a machine
    # whose speed drifts from minute to minute (other tenants) then touches both sides alike,
    # and the medians over the rounds are given with the spread of the rounds' ratios.
    runs = {}
    slow = set()  # cases of seconds a call (non-local means): one round of one run each
    for rnd in range(a.rounds):
        for name in native[0]:
            if name.startswith("_") or (rnd > 0 and name in slow):
                continue
            if a.only and not name.startswith(tuple(p.strip() for p in a.only.split(","))):
                continue
            ms = lumen_ms(name)
            if ms is None:
                continue
            repeat = a.repeat if "50" not in name else 3
            if name.startswith("denoise"):
                slow.add(name)
                repeat = 1
            r = runs.setdefault(name, {"lumen": [], "opencv": [], "bgra": []})
            r["lumen"].append(ms)
            copies = native[:1] if name in slow else native  # a slow call is its own warm-up's worth
            r["opencv"].append(median_ms([cases[name] for cases in copies], repeat))
            # Equalize's colour modes have no same call on BGRA (OpenCV's YCrCb conversion
            # takes a slow path on four channels), and OpenCV is far behind there already.
            if ("(rgba" in name or name.startswith("points")) and not name.startswith(("equalize", "denoise")):
                r["bgra"].append(median_ms([cases[name] for cases in same_bytes], repeat))
    rows = []
    for name, r in runs.items():
        ratios = [l / o for l, o in zip(r["lumen"], r["opencv"])]
        row = {"case": name, "lumen_ms": statistics.median(r["lumen"]), "opencv_ms": statistics.median(r["opencv"]),
               "ratio_min": min(ratios), "ratio_max": max(ratios), "rounds": r}
        row["ratio"] = row["lumen_ms"] / row["opencv_ms"]
        if r["bgra"]:
            row["opencv_bgra_ms"] = statistics.median(r["bgra"])
            row["ratio_bgra"] = row["lumen_ms"] / row["opencv_bgra_ms"]
        rows.append(row)

    print(f"# {img.shape[1]}×{img.shape[0]}, {a.threads} threads, OpenCV {cv2.__version__}")
    print(f"# medians of {a.rounds} rounds (each the median of {a.repeat} runs); the rounds' ratios in brackets")
    print(f"{'case':36} {'Lumen ms':>9} {'OpenCV ms':>10} {'ratio':>6} {'(rounds)':>12} {'on BGRA ms':>11} {'ratio':>6}")
    for r in rows:
        spread = f"({r['ratio_min']:.2f}–{r['ratio_max']:.2f})"
        four_cols = f"{r['opencv_bgra_ms']:11.2f} {r['ratio_bgra']:6.2f}" if "ratio_bgra" in r else ""
        print(f"{r['case']:36} {r['lumen_ms']:9.2f} {r['opencv_ms']:10.2f} {r['ratio']:6.2f} {spread:>12} {four_cols}")
    if a.json:
        version = commit()  # before the file is opened: a tracked file emptied makes the tree dirty
        with open(a.json, "w") as f:
            json.dump({"threads": a.threads, "opencv": cv2.__version__, "width": img.shape[1],
                       "height": img.shape[0], "date": time.strftime("%Y-%m-%d"), "commit": version,
                       "load": os.getloadavg()[0], "repeat": a.repeat, "rounds": a.rounds, "rows": rows}, f,
                      indent=1)


if __name__ == "__main__":
    main()
