"""Shared pieces of the HDR tests: the bracketed stacks (hdr/<scene>/ with exposures.txt) of
the corpus, and of the larger data when it is there, a temporary folder per test, and the
comparisons each test reports.

OpenCV reads BGR; Lumen's pixels and response files are R, G, B. OpenCV's HDR classes that
convert to gray inside (AlignMTB, MergeMertens, the tone mappers) call RGB2GRAY, so they are
handed images in RGB order: then they weigh the channels as BT.601 means, as Lumen does."""
import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

HDR = os.path.join(lt.data_dir(), "hdr")


def _scenes(root):
    if not root or not os.path.isdir(root):
        return {}
    return {d: os.path.join(root, d) for d in sorted(os.listdir(root))
            if os.path.isfile(os.path.join(root, d, "exposures.txt"))}


def _extra_scenes():
    found = _scenes(lt.extra_data_dir() and os.path.join(lt.extra_data_dir(), "hdr"))
    if not found:
        lt.say("no extra data: only the corpus's stacks are tested")
    return found


# The corpus's scenes first, then those of the larger data that the corpus lacks.
_FOLDERS = {**_extra_scenes(), **_scenes(HDR)}
CORPUS_STACKS = sorted(_scenes(HDR))
STACKS = CORPUS_STACKS + sorted(set(_FOLDERS) - set(CORPUS_STACKS))
# Under the sanitizers (CI's second run, for memory errors, not numbers): the corpus's first
# stack and its last (the handheld one, which alignment moves), for CI's time on 2 cores.
SANITIZED = os.environ.get("ASAN_OPTIONS") is not None
if SANITIZED and len(CORPUS_STACKS) > 2:
    STACKS = [CORPUS_STACKS[0], CORPUS_STACKS[-1]]
    lt.say("under the sanitizers: the stacks " + ", ".join(STACKS))


def folder_of(name):
    return _FOLDERS[name]


def stack(name):
    """(folder, files, times) of one scene, in exposures.txt's order."""
    folder = _FOLDERS[name]
    with open(os.path.join(folder, "exposures.txt")) as f:
        lines = [l.split() for l in f if l.strip()]
    files = [os.path.join(folder, f) for f, _ in lines]
    return folder, files, np.array([float(t) for _, t in lines])


def exposures_file(name):
    return os.path.join(_FOLDERS[name], "exposures.txt")


def to_rgb(images):
    return [cv2.cvtColor(im, cv2.COLOR_BGR2RGB) if im.ndim == 3 else im for im in images]


def median_relative(ours, ref):
    """|a − b| / |b| per value after each is divided by its median (the radiance's scale is
    the response's, so only the shape is compared)."""
    a, b = ours / np.median(ours), ref / np.median(ref)
    return np.abs(a - b) / np.maximum(np.abs(b), 1e-6)


def rgbe(image, path):
    """IMAGE (float BGR) as a Radiance .hdr file holds it: 8-bit mantissas, shared exponent."""
    cv2.imwrite(path, image)
    return lt.imread(path)


def shifts_printed(proc):
    """{file name: (x, y)} from lumen-cli hdr --align --timings."""
    out = {}
    for line in proc.stdout.splitlines():
        if line.startswith("shift: "):
            name, xy = line[len("shift: "):].rsplit(": ", 1)
            x, y = xy.split()
            out[name] = (int(x), int(y))
    return out


def opencv_shifts(images_bgr):
    """cv2.AlignMTB's shifts (defaults: max bits 6, exclusion 4, cut) against the middle
    exposure, on the gray that its process() computes from RGB-ordered images."""
    align = cv2.createAlignMTB()
    gray = [cv2.cvtColor(im, cv2.COLOR_BGR2GRAY) if im.ndim == 3 else im for im in images_bgr]
    mid = len(gray) // 2
    return [(0, 0) if i == mid else tuple(int(v) for v in align.calculateShift(gray[mid], g))
            for i, g in enumerate(gray)]


def opencv_aligned(images_bgr, shifts):
    """AlignMTB::process's output: each image moved by its shift (zeros uncovered), then all
    cut to the rectangle from the largest positive shift to the size plus the most negative
    one (its Rect(max, min + size)). process() returns nothing through the Python binding of
    OpenCV 4.6, so its two steps are taken here with its own shiftMat."""
    align = cv2.createAlignMTB()
    moved = [align.shiftMat(im, s) for im, s in zip(images_bgr, shifts)]
    hi = (max(0, *(s[0] for s in shifts)), max(0, *(s[1] for s in shifts)))
    lo = (min(0, *(s[0] for s in shifts)), min(0, *(s[1] for s in shifts)))
    h, w = images_bgr[0].shape[:2]
    return [m[hi[1]:h + lo[1], hi[0]:w + lo[0]] for m in moved]


def debevec_system(images, times, samples=70, lam=10.0, ranks=False):
    """OpenCV's CalibrateDebevec system (its grid, weights and rows) per BGR channel, solved by
    numpy's least squares in double precision (the minimum-norm solution when the system is
    rank-deficient): what Lumen's LAPACK solve must reproduce. The grid's last row is kept
    inside the image, as Lumen keeps it (OpenCV reads one row past the end when the rows
    divide evenly). Returns the ln response (256 × 3, BGR) and, with RANKS, also each
    channel's (rank, columns)."""
    rows, cols = images[0].shape[:2]
    xp = int(np.sqrt(samples * cols / rows))
    yp = samples // xp
    sx, sy = cols // xp, rows // yp
    pts = [(min(sx // 2 + i * sx, cols - 1), min(sy + j * sy, rows - 1)) for i in range(xp) for j in range(yp)]
    w = np.array([z + 1 if z < 128 else 256 - z for z in range(256)], float)
    curves, channel_ranks = [], []
    for c in range(3):
        a = np.zeros((len(pts) * len(images) + 257, 256 + len(pts)))
        b = np.zeros(a.shape[0])
        eq = 0
        for i, (x, y) in enumerate(pts):
            for j, im in enumerate(images):
                z = im[y, x, c]
                a[eq, z], a[eq, 256 + i], b[eq] = w[z], -w[z], w[z] * np.log(times[j])
                eq += 1
        a[eq, 128] = 1
        eq += 1
        for i in range(254):
            a[eq, i], a[eq, i + 1], a[eq, i + 2] = lam * w[i + 1], -2 * lam * w[i + 1], lam * w[i + 1]
            eq += 1
        solution, _, rank, _ = np.linalg.lstsq(a, b, rcond=None)
        curves.append(solution[:256])
        channel_ranks.append((rank, a.shape[1]))
    curves = np.stack(curves, axis=1)
    return (curves, channel_ranks) if ranks else curves


# The levels that measure radiance (core/hdr/merge-math.h); the others bound it.
MEASURED_LO, MEASURED_HI = 1, 247


def clipped_samples(images):
    """(N, H, W, channels) bool: which samples are outside the measured levels, where they
    bound the radiance instead of measuring it."""
    z = np.stack([im if im.ndim == 3 else im[..., None] for im in images])
    return (z < MEASURED_LO) | (z > MEASURED_HI)


def _clip_ends(table, times, logarithms):
    """core/hdr/merge-math.h's lm_hdr_clip_ends in numpy: what each channel clipped in every
    exposure becomes, bright and dark, from a (256, 3) table of ln f⁻¹ or f⁻¹."""
    top, bottom = MEASURED_HI, MEASURED_LO
    if logarithms:
        hi = table[top] + np.maximum(table[top] - table[top - 1], 0)
        lo = table[bottom] - np.maximum(table[bottom + 1] - table[bottom], 0)
        return hi - np.log(min(times)), lo - np.log(max(times))
    hi = table[top] * np.maximum(table[top] / table[top - 1], 1)
    lo = table[bottom] / np.maximum(table[bottom + 1] / table[bottom], 1)
    return hi / min(times), lo / max(times)


def _fallback(z, times, bright, dark):
    """The clip value of each channel from the longest exposure's samples: dark below LO."""
    return np.where(z[int(np.argmax(times))] < MEASURED_LO, dark, bright)


def debevec_definition(images, times, response):
    """Lumen's Debevec merge (core/hdr/merge-math.h) in float64, channels in the order of
    IMAGES (N × H × W × 3, uint8) and RESPONSE ((256, 3) f⁻¹): OpenCV's MergeDebevec over the
    exposures where no channel is clipped (outside the measured levels); where there is none, each channel over its own
    unclipped samples; a channel with none takes the clip value."""
    z = np.stack(images).astype(np.int64)
    g = np.log(response.astype(np.float64))
    v = g[z, np.arange(3)] - np.log(np.asarray(times, np.float64))[:, None, None, None]
    clipped = clipped_samples(images)
    tri = np.where(z < 128, z + 1, 256 - z).astype(np.float64)
    w = np.where(clipped.any(axis=3), 0.0, tri.mean(axis=3))[..., None]
    wsum = w.sum(axis=0)
    own_w = np.where(clipped, 0.0, tri)
    own = (own_w * v).sum(axis=0) / np.maximum(own_w.sum(axis=0), 1e-300)
    bright, dark = _clip_ends(g, times, True)
    fallback = _fallback(z, times, bright, dark)
    ln = np.where(wsum > 0, (w * v).sum(axis=0) / np.maximum(wsum, 1e-300),
                  np.where(own_w.sum(axis=0) > 0, own, fallback))
    return np.exp(ln)


def robertson_weights():
    """OpenCV's Robertson weights of the 256 levels (0 at both ends)."""
    q = 255.0 / 4.0
    e4 = np.exp(4.0)
    v = np.arange(256) / q - 2.0
    w = e4 / (e4 - 1.0) * np.exp(-v * v) + 1.0 / (1.0 - e4)
    w[[0, 255]] = 0.0  # 0 in single precision too; float64 leaves a rounding residue
    return w


def robertson_definition(images, times, response):
    """Lumen's Robertson merge in float64: OpenCV's MergeRobertson, Σ t·w·f⁻¹ / Σ t²·w per
    channel, without the samples outside the measured levels, and a channel with none of them
    (Σ w = 0) takes the clip value, not 0."""
    z = np.stack(images).astype(np.int64)
    f = response.astype(np.float64)
    t = np.asarray(times, np.float64)[:, None, None, None]
    w = np.where(clipped_samples(images), 0.0, robertson_weights()[z])
    num, den = (t * w * f[z, np.arange(3)]).sum(axis=0), (t * t * w).sum(axis=0)
    bright, dark = _clip_ends(f, times, False)
    return np.where(den > 0, num / np.maximum(den, 1e-300), _fallback(z, times, bright, dark))


def opencv_mertens(images_bgr):
    """cv2.MergeMertens with contrast, saturation and well-exposedness all weighted 1 (its
    default leaves well-exposedness out: exposure_weight 0), on RGB-ordered images, as an
    8-bit BGR image: ×255, clipped, rounded."""
    fused = cv2.createMergeMertens(1.0, 1.0, 1.0).process(to_rgb(images_bgr))
    # Lumen writes a gray stack's fusion as RGB.
    fused = cv2.cvtColor(fused, cv2.COLOR_RGB2BGR if fused.ndim == 3 else cv2.COLOR_GRAY2BGR)
    return np.clip(np.round(fused * 255.0), 0, 255).astype(np.uint8)


class HdrTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-hdr-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def merge(self, name, *extra, out="radiance.hdr"):
        """lumen-cli hdr on stack NAME (exposures.txt), the response saved as NAME.resp."""
        lt.run_ok(self, ["hdr", "--exposures", exposures_file(name), "--response-out",
                         self.path(name + ".resp"), "-o", self.path(out), *extra])
        return self.path(out)

    def assertRefused(self, args, *words, out="out.hdr", codes=(1, 2)):
        """lumen-cli hdr ARGS -o OUT fails with one line naming WORDS (case aside; a usage
        error adds the line pointing to --help), and writes nothing."""
        out = self.path(out)
        proc = lt.run(["hdr", *args, "-o", out])
        lines = proc.stderr.splitlines()
        lt.say(f"{' '.join(os.path.basename(str(a)) for a in args)}: exit {proc.returncode}: "
               f"{lines[0] if lines else ''}")
        self.assertIn(proc.returncode, codes, lt.describe(proc))
        self.assertEqual(len(lines), 2 if proc.returncode == 2 else 1, proc.stderr)
        for w in words:
            self.assertIn(w.lower(), lines[0].lower())
        self.assertFalse(os.path.exists(out), "nothing may be written")
        self.assertEqual(lt.leftovers(self.dir), [])
        return proc
