#!/usr/bin/python3
"""Issue 32's noise reduction table: Lumen's denoise against OpenCV's
fastNlMeansDenoisingColored on photos with added noise, and their speed at 24 MP.

Quality: the middle SIZE×SIZE of each photo (8-bit) with seeded noise at each level:
  g5, g15, g30: Gaussian of σ 5, 15, 30 levels on the 8-bit values, clipped and rounded;
  p30, p300: Poisson on linear light (sRGB decoded), 30 or 300 photons at white, re-encoded.
OpenCV at its best PSNR over a grid (per photo and level): h ∈ s·{0.35, 0.5, 0.7, 0.9, 1.1},
hColor ∈ h·{0.5, 1, 1.5, 2}, templates 5 and 7, search window 21 (s: the noise's measured σ).
Lumen at its defaults (σ estimated on the image) and at its best over luma ∈ {0.6, 0.8, 1.0,
1.2, 1.4, 1.6} × chroma ∈ {1.0, 1.5, 2.0} (σ estimated). PSNR in dB and SSIM (skimage, 3
channels) on the 8-bit results. --quick: NLM's grid without template 7 and hColor 2h, Lumen's
without luma 1.6 and chroma 1.0 (for a small machine).

Speed (--speed): a 24 MP image (beach-aerial-15mp.jpg upscaled, Gaussian σ 15): lumen-cli
--timings' "denoise" line on the CPU and, where a device is usable, on CUDA (best of 3), and
fastNlMeansDenoisingColored (h = hColor = 10, 5/21; cv2.setNumThreads default) once.

    bench/bench-denoise.py [--photos DIR] [--size N] [--quick] [--speed] [--cli PATH]

Photos: DIR, else $LUMEN_EXTRA_DATA/photos, else shared/data/photos beside the checkout (or
beside its worktree folder); the run says so and stops (exit 0) when they are absent.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LEVELS = ["g5", "g15", "g30", "p30", "p300"]
PHOTOS = ["astronaut.png", "forest-path.jpg", "ladybird.jpg", "boats-sunset.jpg"]

try:
    from skimage.metrics import structural_similarity
except ImportError:  # the table then shows PSNR alone
    structural_similarity = None


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 10.0 * np.log10(255.0 ** 2 / mse)


def ssim(a, b):
    if structural_similarity is None:
        return float("nan")
    return structural_similarity(a, b, channel_axis=2, data_range=255)


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_encode(x):
    return np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(np.maximum(x, 0), 1 / 2.4) - 0.055)


def add_noise(clean, level, seed):
    rng = np.random.default_rng(seed)
    if level.startswith("g"):
        noisy = clean + rng.normal(0.0, float(level[1:]), clean.shape)
    else:
        photons = float(level[1:])
        lin = srgb_decode(clean / 255.0)
        noisy = 255.0 * srgb_encode(rng.poisson(lin * photons) / photons)
    return np.clip(np.rint(noisy), 0, 255).astype(np.uint8)


def lumen(cli, src, out, args, backend="cpu"):
    proc = subprocess.run([cli, "--backend", backend, "--timings", "--denoise", *map(str, args), src, "-o", out],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"lumen-cli failed on {src}: {proc.stderr.strip()}")
    m = re.search(r"^\s*denoise\s+([0-9.]+) ms", proc.stdout + proc.stderr, re.M)
    return cv2.imread(out, cv2.IMREAD_COLOR), float(m.group(1)) if m else float("nan")


def nlm_best(noisy, clean, s, quick):
    best = None
    templates = (5,) if quick else (5, 7)
    colours = (0.5, 1.0, 1.5) if quick else (0.5, 1.0, 1.5, 2.0)
    for t in templates:
        for fh in (0.35, 0.5, 0.7, 0.9, 1.1):
            for fc in colours:
                h = fh * s
                out = cv2.fastNlMeansDenoisingColored(noisy, None, h, fc * h, t, 21)
                p = psnr(out, clean)
                if best is None or p > best[0]:
                    best = (p, ssim(out, clean), h, fc * h, t)
    return best


def lumen_best(cli, src, out, clean, quick):
    best = None
    for luma in ((0.6, 0.8, 1.0, 1.2, 1.4) if quick else (0.6, 0.8, 1.0, 1.2, 1.4, 1.6)):
        for chroma in ((1.5, 2.0) if quick else (1.0, 1.5, 2.0)):
            img, _ = lumen(cli, src, out, [luma, "--denoise-chroma", chroma])
            p = psnr(img, clean)
            if best is None or p > best[0]:
                best = (p, ssim(img, clean), luma, chroma)
    return best


def quality(cli, photos, size, quick, tmp):
    print(f"| photo | noise | noisy | OpenCV NLM best (h, hColor, template) | Lumen defaults | "
          f"Lumen best (luma, chroma) |")
    print("|---|---|---|---|---|---|")
    wins = [0, 0]
    cases = 0
    for name in photos:
        img = cv2.imread(name, cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        side = min(size, h, w)
        clean = img[(h - side) // 2:(h - side) // 2 + side, (w - side) // 2:(w - side) // 2 + side]
        for k, level in enumerate(LEVELS):
            noisy = add_noise(clean.astype(np.float64), level, 1000 + k)
            s = float(np.std(noisy.astype(np.float64) - clean))
            src = os.path.join(tmp, "noisy.png")
            out = os.path.join(tmp, "out.png")
            cv2.imwrite(src, noisy)
            nlm = nlm_best(noisy, clean, s, quick)
            dflt, _ = lumen(cli, src, out, [1.2])
            lb = lumen_best(cli, src, out, clean, quick)
            dp, ds = psnr(dflt, clean), ssim(dflt, clean)
            cases += 1
            wins[0] += dp >= nlm[0]
            wins[1] += lb[0] >= nlm[0] and lb[1] >= nlm[1]
            print(f"| {os.path.basename(name)} {side}² | {level} (σ {s:.1f}) | {psnr(noisy, clean):.2f} / "
                  f"{ssim(noisy, clean):.3f} | {nlm[0]:.2f} / {nlm[1]:.3f} ({nlm[2]:.1f}, {nlm[3]:.1f}, {nlm[4]}) | "
                  f"{dp:.2f} / {ds:.3f} | {lb[0]:.2f} / {lb[1]:.3f} ({lb[2]}, {lb[3]}) |", flush=True)
    print(f"\nLumen's defaults reach NLM's best PSNR in {wins[0]} of {cases} cases; Lumen's best reaches "
          f"NLM's best PSNR and SSIM in {wins[1]} of {cases}.")


def speed(cli, photos_dir, tmp):
    name = os.path.join(photos_dir, "beach-aerial-15mp.jpg")
    if not os.path.exists(name):
        print(f"speed: {name} is absent: skipped")
        return
    img = cv2.resize(cv2.imread(name, cv2.IMREAD_COLOR), (6000, 4000), interpolation=cv2.INTER_CUBIC)
    noisy = add_noise(img.astype(np.float64), "g15", 7)
    src = os.path.join(tmp, "24mp.png")
    cv2.imwrite(src, noisy)
    out = os.path.join(tmp, "24mp-out.png")
    print("\n| 24 MP (6000×4000), σ 15 | denoise time |\n|---|---|")
    for backend in ("cpu", "cuda"):
        times = []
        for _ in range(3 if backend == "cuda" else 1):
            proc = subprocess.run([cli, "--backend", backend, "--timings", "--denoise", "1.2", src, "-o", out],
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                print(f"| Lumen {backend} | not run: {proc.stderr.strip().splitlines()[-1] if proc.stderr else 'failed'} |")
                break
            m = re.search(r"^\s*denoise\s+([0-9.]+) ms", proc.stdout + proc.stderr, re.M)
            times.append(float(m.group(1)))
        if times:
            print(f"| Lumen {backend} (lumen-cli --timings, best of {len(times)}) | {min(times):.1f} ms |", flush=True)
    start = time.monotonic()
    cv2.fastNlMeansDenoisingColored(noisy, None, 10, 10, 5, 21)
    print(f"| OpenCV fastNlMeansDenoisingColored 5/21, {cv2.getNumThreads()} threads, {cv2.__version__} | "
          f"{(time.monotonic() - start) * 1000:.0f} ms |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    extra = os.environ.get("LUMEN_EXTRA_DATA")
    shared = [os.path.join(d, "photos") for d in ([extra] if extra else []) + [os.path.join(ROOT, "..", "shared", "data"),
                                                                                 os.path.join(ROOT, "..", "..", "shared", "data")]]
    ap.add_argument("--photos", default=next((d for d in shared if os.path.isdir(d)), shared[-1]))
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--only", nargs="*", help="photo names (default: four of the corpus)")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "lumen-cli"))
    a = ap.parse_args()
    if not os.path.isdir(a.photos):
        print(f"bench-denoise: no photos at {a.photos}: skipped")
        return 0
    photos = [os.path.join(a.photos, n) for n in (a.only or PHOTOS) if os.path.exists(os.path.join(a.photos, n))]
    with tempfile.TemporaryDirectory(prefix="lumen-bench-denoise-") as tmp:
        print(f"OpenCV {cv2.__version__}; crops of {a.size}²{' (quick grids)' if a.quick else ''}\n")
        quality(a.cli, photos, a.size, a.quick, tmp)
        if a.speed:
            speed(a.cli, a.photos, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
