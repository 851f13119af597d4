"""Raw brackets merged in linear light by lumen-cli hdr (core/merge/raw-brackets.c).

One known linear scene, a real radiance map (tests/data/hdr/courtyard merged by OpenCV, as
scenes.hdr makes it) with two neutral patches brighter than anything in it, is shot by a known
camera (the Canon EOS 30D's ColorMatrix, RGGB, black 512, white 16383, its as-shot neutral for
D65, as make_dngs.full_case) at 1/4 s, 1 s and 4 s: the sensor values scaled by the time,
with shot and read noise, clipped at the white level, each DNG with its ExposureTime. The
1/4 s frame clips nowhere; the 1 s frame (the reference) clips the patches and the sky; the
4 s frame most of the scene. The two frames other than the reference say another as-shot
white balance (a camera on auto), which the merge must not use.

The merged .exr, developed through the DNGs' own matrix, must be the scene in the reference
exposure's scale (1.0 = green's white level at 1 s): everywhere (every pixel is unclipped in
the 1/4 s frame), and in the patches, clipped in both longer frames (one with green clipped
and red not: magenta, where a merge trusts a frame with a clipped channel), neutral and at
their level. Hand-held frames line up with --align. Also refused, each with one line naming
the file: a raw with a JPEG, raws of two sizes or of two cameras, a raw without an exposure
time (and no --times), a .hdr output, fusion and a camera response; the batch fails a raw stack with its reason."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))
os.environ.setdefault("OPENCV_IO_ENABLE_OPENEXR", "1")
import cv2  # noqa: E402
import dng  # noqa: E402
import lumen_testlib as lt  # noqa: E402
import make_dngs  # noqa: E402
import metrics  # noqa: E402
import scenes  # noqa: E402

TIMES = (0.25, 1.0, 4.0)
REFERENCE = 1
SIZE = 256
FULL_WELL = 10000.0  # electrons at the white level
READ_NOISE = 3.0
PATCHES = ((1.5, (40, 40)), (2.8, (40, 190)))  # (level, (y, x)) of 24 × 24 neutral squares
PATCH = 24
Y2020 = np.array([0.2627, 0.6780, 0.0593])


def scene(size=SIZE):
    """The truth in the reference's scale: the radiance map scaled so that the 1/4 s frame's
    largest white-balanced camera value is 0.7 of white, and the two patches."""
    s = scenes.hdr("courtyard", size).astype(np.float64)
    balanced = metrics.apply(to_camera(), s) / make_dngs.camera_neutral()
    s *= 0.7 / (TIMES[0] * balanced.max())
    for level, (y, x) in PATCHES:
        s[y:y + PATCH, x:x + PATCH] = level
    return s


def to_camera():
    """Linear Rec. 2020 → the 30D's raw RGB, the raw green of a white of Y = 1 at white."""
    e = make_dngs.EOS30D
    return e @ metrics.REC2020_TO_XYZ / (e @ metrics.xyz(*metrics.D65))[1]


def sensor(truth, seconds, seed):
    """The 30D's sensor values for TRUTH exposed SECONDS (in the reference's scale), with shot
    and read noise drawn from SEED (None: none)."""
    m = dng.mosaic(metrics.apply(to_camera(), truth) * seconds / TIMES[REFERENCE], "RGGB")
    frac = np.clip(m, 0, 1)
    if seed is not None:
        rng = np.random.default_rng(seed)
        electrons = rng.poisson(np.clip(m, 0, None) * FULL_WELL) + rng.normal(0.0, READ_NOISE, m.shape)
        frac = np.clip(electrons / FULL_WELL, 0, 1)
    return np.round(make_dngs.BLACK + frac * (make_dngs.WHITE - make_dngs.BLACK))


def box(img, k):
    """Means of K × K blocks."""
    h, w = img.shape[0] // k * k, img.shape[1] // k * k
    return img[:h, :w].reshape(h // k, k, w // k, k, -1).mean(axis=(1, 3))


def write(path, data, seconds, neutral=None, model="EOS 30D"):
    dng.write(path, data, cfa="RGGB", black=(make_dngs.BLACK,), white=make_dngs.WHITE,
              color_matrix=make_dngs.EOS30D, illuminant=21,
              as_shot_neutral=make_dngs.camera_neutral() if neutral is None else neutral,
              make="Canon", model=model, exposure_time=seconds)


def run(*args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    return subprocess.run([lt.lumen_cli(), "hdr", "--backend", "cpu", *[str(a) for a in args]],
                          capture_output=True, text=True, env=env, timeout=120)


class RawMerge(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-raw-merge-")
        cls.d = cls.tmp.name
        cls.truth = scene()
        # Auto white balance: the frames other than the reference say another light.
        tinted = make_dngs.camera_neutral() * np.array([1.15, 1.0, 0.85])
        cls.frames = []
        for i, t in enumerate(TIMES):
            path = os.path.join(cls.d, "frame%d.dng" % i)
            write(path, sensor(cls.truth, t, 31 + i), t, None if i == REFERENCE else tinted)
            cls.frames.append(path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def out(self, name):
        return os.path.join(self.d, name)

    def merged(self, *frames):
        out = self.out("merged.exr")
        r = run("-o", out, *frames)
        self.assertEqual(r.returncode, 0, r.stderr)
        img = cv2.imread(out, cv2.IMREAD_UNCHANGED)
        self.assertIsNotNone(img)
        self.assertEqual(img.dtype, np.float32)
        return img[..., 2::-1].astype(np.float64)

    def test_merge_is_the_scene(self):
        """Against the truth, in 8 × 8 means: the demosaic's own error on the radiance map's
        finest detail (a few percent at single pixels) is not the merge's to answer for."""
        m = self.merged(*self.frames)
        b = metrics.BORDER
        y_truth = box(self.truth[b:-b, b:-b], 8) @ Y2020
        y_got = box(m[b:-b, b:-b], 8) @ Y2020
        lit = y_truth > 0.02
        rel = y_got[lit] / y_truth[lit] - 1
        print("8 × 8 luminance error: median %.4f, p99 %.4f, signed median %.4f over %d"
              % (np.median(np.abs(rel)), np.quantile(np.abs(rel), 0.99), np.median(rel), rel.size))
        self.assertLess(abs(np.median(rel)), 0.003)  # the scale: the reference's
        self.assertLess(np.median(np.abs(rel)), 0.01)
        self.assertLess(np.quantile(np.abs(rel), 0.99), 0.08)
        # Brighter than the reference's white throughout: only the 1/4 s frame saw them.
        over = (box((self.truth[b:-b, b:-b].max(axis=2) > 1.0)[..., None].astype(float), 8)[..., 0] == 1)[lit]
        self.assertGreater(over.sum(), 10)
        self.assertLess(np.median(np.abs(rel[over])), 0.01)
        # The colour: every frame developed with the reference's white balance (the others'
        # own would move red and blue by 15 % where they count).
        sums = m[b:-b, b:-b].reshape(-1, 3).sum(axis=0)
        true_sums = self.truth[b:-b, b:-b].reshape(-1, 3).sum(axis=0)
        balance = (sums / sums[1]) / (true_sums / true_sums[1])
        print("red and blue against green, over the truth's:", balance)
        np.testing.assert_allclose(balance, 1.0, atol=0.005)

    def test_exact_brackets_merge_into_their_development(self):
        """Brackets without noise merge, pixel by pixel, into the development of one exposure
        that saw the whole scene unclipped (the 1/4 s one, in the reference's scale): where
        the longer frames clip, near their clipped sites (a clipped site reaches the pixels
        the demosaic reads it for), and where they do not."""
        frames = []
        for i, t in enumerate(TIMES):
            path = self.out("exact%d.dng" % i)
            write(path, sensor(self.truth, t, None), t)
            frames.append(path)
        m = self.merged(*frames)
        r = subprocess.run([lt.lumen_cli(), "--backend", "cpu", "-o", self.out("whole.exr"), frames[0]],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        whole = cv2.imread(self.out("whole.exr"), cv2.IMREAD_UNCHANGED)[..., 2::-1] * (TIMES[REFERENCE] / TIMES[0])
        b = metrics.BORDER
        y_whole, y_got = whole[b:-b, b:-b] @ Y2020, m[b:-b, b:-b] @ Y2020
        # Above 400 of the 1/4 s frame's levels: its own rounding is then below 0.15 %.
        lit = y_whole > 0.05
        rel = np.abs(y_got[lit] / y_whole[lit] - 1)
        print("luminance against the development: p99 %.4f, max %.4f" % (np.quantile(rel, 0.99), rel.max()))
        self.assertLess(np.quantile(rel, 0.99), 0.02)

    def test_clipped_patches_come_from_the_short_frame(self):
        m = self.merged(*self.frames)
        for level, (y, x) in PATCHES:
            inner = m[y + 4:y + PATCH - 4, x + 4:x + PATCH - 4].reshape(-1, 3)
            mean = inner.mean(axis=0)
            print("patch %.1f: %s" % (level, mean))
            # At its level (not clipped at 1) and neutral (no magenta, no tint from a frame's
            # own white balance): the 1/4 s frame's noise averages out over the patch.
            np.testing.assert_allclose(mean, level, rtol=0.01)

    def test_aligned_on_the_mosaics(self):
        """--align lines hand-held raws up before they are developed: frames cut from a larger
        scene at known offsets, odd ones among them (the colour filter's pattern and the black
        level move with the shift: a pattern left in place swaps red and blue), are found at
        those shifts and merge into the scene; without --align they do not."""
        times = (0.25, 0.5, 1.0)
        offsets = ((16, 16), (19, 11), (12, 23))  # (y, x) of each frame in the larger scene
        origin = offsets[1]  # the shifts are against the middle frame's, as OpenCV's AlignMTB
        big = scene(SIZE + 32)
        frames = []
        for i, (t, (oy, ox)) in enumerate(zip(times, offsets)):
            path = self.out("held%d.dng" % i)
            write(path, sensor(big[oy:oy + SIZE, ox:ox + SIZE], t, 41 + i), t)
            frames.append(path)
        out = self.out("held.exr")
        r = run("--align", "--timings", "-o", out, *frames)
        self.assertEqual(r.returncode, 0, r.stderr)
        shifts = {}
        for line in r.stdout.splitlines():
            if line.startswith("shift: "):
                name, xy = line[len("shift: "):].rsplit(": ", 1)
                shifts[name] = tuple(int(v) for v in xy.split())
        for path, (oy, ox) in zip(frames, offsets):
            self.assertEqual(shifts[os.path.basename(path)], (ox - origin[1], oy - origin[0]))
        m = cv2.imread(out, cv2.IMREAD_UNCHANGED)[..., 2::-1].astype(np.float64)
        # The common area, in the middle frame's coordinates from the largest shift on.
        hx = max(v[0] for v in shifts.values())
        hy = max(v[1] for v in shifts.values())
        y0, x0 = origin[0] + hy, origin[1] + hx
        truth = big[y0:y0 + m.shape[0], x0:x0 + m.shape[1]] * (times[1] / TIMES[REFERENCE])
        self.assertEqual(truth.shape, m.shape)
        b = metrics.BORDER

        def error(img, want):
            y_want = box(want[b:-b, b:-b], 8) @ Y2020
            y_got = box(img[b:-b, b:-b], 8) @ Y2020
            lit = y_want > 0.02
            return np.abs(y_got[lit] / y_want[lit] - 1)

        rel = error(m, truth)
        print("aligned: 8 × 8 luminance error median %.4f, p99 %.4f" % (np.median(rel), np.quantile(rel, 0.99)))
        self.assertLess(np.median(rel), 0.01)
        self.assertLess(np.quantile(rel, 0.99), 0.08)
        sums = m[b:-b, b:-b].reshape(-1, 3).sum(axis=0)
        true_sums = truth[b:-b, b:-b].reshape(-1, 3).sum(axis=0)
        np.testing.assert_allclose((sums / sums[1]) / (true_sums / true_sums[1]), 1.0, atol=0.005)
        r = run("-o", self.out("unaligned.exr"), *frames)
        self.assertEqual(r.returncode, 0, r.stderr)
        u = cv2.imread(self.out("unaligned.exr"), cv2.IMREAD_UNCHANGED)[..., 2::-1].astype(np.float64)
        want = big[origin[0]:origin[0] + SIZE, origin[1]:origin[1] + SIZE] * (times[1] / TIMES[REFERENCE])
        self.assertGreater(np.median(error(u, want)), 0.03)

    def test_clipped_or_black_in_every_frame(self):
        """Where every frame is clipped the merge keeps the shortest one's clip level, neutral
        (4 × the reference's white: the best lower bound, not a magenta or a mean of clips);
        where every frame is black, the longest one's black; nothing undefined anywhere."""
        flat = np.zeros((64, 96, 3))
        flat[:, :32] = 100.0  # clipped at 1/4 s already
        flat[:, 32:64] = 0.3
        frames = []
        for i, t in enumerate(TIMES):
            path = self.out("flat%d.dng" % i)
            write(path, sensor(flat, t, 61 + i), t)
            frames.append(path)
        m = self.merged(*frames)
        self.assertTrue(np.isfinite(m).all())
        clipped, gray, black = m[8:-8, 8:24], m[8:-8, 40:56], m[8:-8, 72:88]
        np.testing.assert_allclose(clipped.reshape(-1, 3).mean(axis=0), 4.0, rtol=0.01)
        np.testing.assert_allclose(gray.reshape(-1, 3).mean(axis=0), 0.3, rtol=0.01)
        # Read noise alone (3 e⁻ of 10⁴ at 4 s, in the 1 s scale): a few 10⁻⁴ at most.
        self.assertLess(np.abs(black).max(), 0.002)

    def test_raw_and_jpeg_refused(self):
        photo = os.path.join(lt.data_dir(), "photos", "forest-path.jpg")
        r = run("--times", "0.25,1", "-o", self.out("mixed.jpg"), self.frames[0], photo)
        self.refused(r, "forest-path.jpg", "mixed.jpg")
        self.assertIn("camera raw", r.stderr)

    def test_sizes_refused(self):
        small = self.out("small.dng")
        write(small, sensor(self.truth[:, :192], 8.0, 7), 8.0)
        r = run("-o", self.out("sizes.exr"), self.frames[0], small)
        self.refused(r, "small.dng", "sizes.exr")
        self.assertIn("192", r.stderr)

    def test_cameras_refused(self):
        other = self.out("other.dng")
        write(other, sensor(self.truth, 8.0, 8), 8.0, model="EOS 40D")
        r = run("-o", self.out("cameras.exr"), self.frames[0], other)
        self.refused(r, "other.dng", "cameras.exr")
        self.assertIn("one camera", r.stderr)

    def test_no_exposure_time_refused(self):
        untimed = self.out("untimed.dng")
        dng.write(untimed, sensor(self.truth, 8.0, 9), cfa="RGGB", black=(make_dngs.BLACK,),
                  white=make_dngs.WHITE, color_matrix=make_dngs.EOS30D,
                  as_shot_neutral=make_dngs.camera_neutral(), make="Canon", model="EOS 30D")
        r = run("-o", self.out("untimed.exr"), self.frames[0], untimed)
        self.refused(r, "untimed.dng", "untimed.exr")
        self.assertIn("--times", r.stderr)
        # Given, the times make the same files a bracket.
        r = run("--times", "0.25,8", "-o", self.out("timed.exr"), self.frames[0], untimed)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_hdr_output_fusion_and_response_refused(self):
        r = run("-o", self.out("scene.hdr"), *self.frames)
        self.refused(r, "scene.hdr", "scene.hdr")
        self.assertIn(".exr", r.stderr)
        r = run("--method", "mertens", "-o", self.out("fused.jpg"), *self.frames)
        self.refused(r, "frame0.dng", "fused.jpg")
        r = run("--response-out", self.out("curve.txt"), "-o", self.out("curved.exr"), *self.frames)
        self.refused(r, "--response-out", "curved.exr")
        self.assertFalse(os.path.exists(self.out("curve.txt")))

    def test_tone_mapped_by_the_sigmoid(self):
        """The default display transform of a raw merge is a raw's: the sigmoid, the same
        bits as --tonemap sigmoid says."""
        a, b = self.out("default.png"), self.out("sigmoid.png")
        for args in (("-o", a), ("--tonemap", "sigmoid", "-o", b), ("--tonemap", "reinhard", "-o",
                                                                      self.out("reinhard.png"))):
            r = run("--depth", "16", *args, *self.frames)
            self.assertEqual(r.returncode, 0, r.stderr)
        pa, pb = cv2.imread(a, cv2.IMREAD_UNCHANGED), cv2.imread(b, cv2.IMREAD_UNCHANGED)
        np.testing.assert_array_equal(pa, pb)
        pr = cv2.imread(self.out("reinhard.png"), cv2.IMREAD_UNCHANGED)
        self.assertGreater(np.abs(pa.astype(int) - pr).max(), 1000)

    def test_batch_refuses_raw_stacks(self):
        """The batch merges what it decodes as it is: a raw stack fails with its reason (not
        merged as a mosaic of 16-bit values), and the batch goes on."""
        manifest = self.out("raws.tsv")
        with open(manifest, "w") as f:
            for path, t in zip(self.frames, TIMES):
                f.write("raws\t%s\t%g\n" % (path, t))
        outdir = self.out("batch")
        env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
        r = subprocess.run([lt.lumen_cli(), "batch", "--backend", "cpu", "--progress", "none", "-o", outdir, manifest],
                           capture_output=True, text=True, env=env, timeout=120)
        self.assertEqual(r.returncode, 1, r.stderr)
        failed = open(os.path.join(outdir, "failed.tsv")).read().splitlines()
        self.assertEqual(len(failed), 1, failed)
        self.assertIn("frame0.dng", failed[0])
        self.assertIn("camera raw", failed[0])
        self.assertFalse([n for n in os.listdir(outdir) if n.startswith("raws.")])

    def refused(self, r, name, output):
        self.assertEqual(r.returncode, 1, r.stderr)
        lines = r.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, r.stderr)
        self.assertIn(name, lines[0])
        self.assertFalse(os.path.exists(self.out(output)))


if __name__ == "__main__":
    unittest.main(verbosity=2)
