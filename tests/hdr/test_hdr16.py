"""HDR from 16-bit exposures: lumen-cli hdr takes them as linear data (core/hdr/merge-math.h:
radiance = the hat-weighted mean of v / (65535 t), no calibration).

The stack is made here from a real radiance map: OpenCV's own Debevec merge of the corpus'
courtyard stack (calibrated by OpenCV), scaled so that its median is 0.18, times each exposure
time, clipped at 65535 and rounded, as a raw converter's linear 16-bit output of that scene.
The merge must give the radiance back: every term v / (65535 t) with v ≥ LO = 256 is off by at
most ½ / v ≤ ½ / 256 (the rounding), so their weighted mean is within ½ / 256 ≈ 0.195 %, and
the OpenEXR file (half floats) adds 2^-11; the merge must also equal a numpy reading of the
definition within the half's rounding. Also: tone-mapped --depth 16 output, fusion and
alignment of 16-bit stacks (those of the 8-bit rounding), and refusals (a mixed 8/16-bit
stack, a camera response for linear data, --depth 16 to JPEG).
"""
import os

os.environ["OPENCV_IO_ENABLE_OPENEXR"] = "1"  # before cv2 is imported: OpenCV reads EXR only then

import re  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
import unittest  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from hdrlib import lt, stack  # noqa: E402

LO, HI = 256, 65535 - 2048
HALF_EPS = 2.0 ** -11
TIMES = [1 / 16, 1 / 2, 4.0]


def opencv_reads_exr():
    """Whether the oracle can read EXR (Debian's python3-opencv can; some wheels cannot)."""
    try:
        ok, data = cv2.imencode(".exr", np.ones((1, 1, 3), np.float32))
        return bool(ok) and cv2.imdecode(data, cv2.IMREAD_UNCHANGED) is not None
    except cv2.error:
        return False


def build_writes_exr():
    proc = lt.run(["batch", "--format", "exr", "--progress", "none", "-o", "/nonexistent-lumen-probe",
                   "/nonexistent-lumen-probe"])
    return "without the OpenEXR library" not in proc.stderr


def linear_merge(images, times):
    """merge-math.h's definition in numpy (float64): RGB order in, RGB out."""
    num = np.zeros(images[0].shape, np.float64)
    den = np.zeros(images[0].shape, np.float64)
    v = [im.astype(np.int64) for im in images]
    for im, t in zip(v, times):
        w = np.where((im < LO) | (im > HI), 0, np.where(im < 32768, im - LO + 1, HI - im + 1)).astype(np.float64)
        num += w * im / (65535.0 * t)
        den += w
    short, long_ = int(np.argmin(times)), int(np.argmax(times))
    fallback = np.where(v[long_] < LO, v[long_] / (65535.0 * times[long_]), v[short] / (65535.0 * times[short]))
    return np.where(den > 0, num / np.maximum(den, 1), fallback)


class Hdr16Test(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="lumen-hdr16-")
        _, files, times = stack("courtyard")
        images = [cv2.imread(f) for f in files]
        response = cv2.createCalibrateDebevec().process(images, times.astype(np.float32))
        radiance = cv2.createMergeDebevec().process(images, times.astype(np.float32), response)
        rgb = radiance[..., ::-1].astype(np.float64)
        cls.radiance = rgb * (0.18 / np.median(rgb[rgb > 0]))
        cls.stack16 = []  # RGB, uint16
        lines = []
        for i, t in enumerate(TIMES):
            v = np.clip(np.floor(cls.radiance * t * 65535 + 0.5), 0, 65535).astype(np.uint16)
            cls.stack16.append(v)
            name = f"exposure{i + 1}.png"
            assert cv2.imwrite(os.path.join(cls.tmp, name), v[..., ::-1])
            lines.append(f"{name} {t!r}\n")
        cls.exposures = os.path.join(cls.tmp, "exposures.txt")
        with open(cls.exposures, "w") as f:
            f.writelines(lines)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.tmp, name)

    def test_stack_is_16_bit_and_covers_the_scene(self):
        for v in self.stack16:
            self.assertGreater(len(np.unique(v & 0xFF)), 200)
        usable = np.zeros(self.radiance.shape, bool)
        for v in self.stack16:
            usable |= (v >= LO) & (v <= HI)
        self.assertGreater(usable.mean(), 0.99)

    @unittest.skipUnless(build_writes_exr(), "this build has no OpenEXR")
    @unittest.skipUnless(opencv_reads_exr(), "this OpenCV has no OpenEXR codec to read the result back")
    def test_merge_recovers_the_radiance(self):
        out = self.path("linear.exr")
        proc = lt.run_ok(self, ["hdr", "--timings", "--exposures", self.exposures, "-o", out])
        self.assertIn("linear", proc.stdout)  # the method that ran is named
        ours = lt.imread(out)[..., ::-1].astype(np.float64)
        usable = np.zeros(self.radiance.shape, bool)
        for v in self.stack16:
            usable |= (v >= LO) & (v <= HI)
        rel = np.abs(ours - self.radiance)[usable] / self.radiance[usable]
        bound = 0.5 / LO + HALF_EPS + 1e-6
        lt.say(f"linear merge against the radiance: relative error median {np.median(rel):.2e}, "
               f"max {rel.max():.2e} (bound {bound:.2e}) on {usable.mean():.1%} of the samples")
        self.assertLessEqual(rel.max(), bound)
        want = linear_merge(self.stack16, TIMES)
        rel_def = np.abs(ours - want) / np.maximum(want, 1e-30)
        self.assertLessEqual(rel_def[want > 1e-4].max(), HALF_EPS * 1.01)

    def test_tonemapped_16_bit(self):
        a, b = self.path("tm16.tif"), self.path("tm8.png")
        lt.run_ok(self, ["hdr", "--exposures", self.exposures, "--depth", "16", "-o", a])
        lt.run_ok(self, ["hdr", "--exposures", self.exposures, "-o", b])
        wide, narrow = lt.imread(a), lt.imread(b)
        self.assertEqual(wide.dtype, np.uint16)
        self.assertGreater(len(np.unique(wide & 0xFF)), 200)
        # The same value rounded once to 16 bits, once to 8: round(v16 / 257) within 1 of v8.
        self.assertLessEqual(lt.diff((wide.astype(np.int64) + 128) // 257, narrow)[0], 1)

    def test_fusion_and_alignment_use_the_8_bit_rounding(self):
        eight = []
        for i, v in enumerate(self.stack16):
            p = self.path(f"eight{i + 1}.png")
            cv2.imwrite(p, ((v.astype(np.uint32) + 128) // 257).astype(np.uint8)[..., ::-1])
            eight.append(p)
        sixteen = [self.path(f"exposure{i + 1}.png") for i in range(len(TIMES))]
        a, b = self.path("fused16.png"), self.path("fused8.png")
        pa = lt.run_ok(self, ["hdr", "--method", "mertens", "--align", "--timings", "-o", a] + sixteen)
        pb = lt.run_ok(self, ["hdr", "--method", "mertens", "--align", "--timings", "-o", b] + eight)
        self.assertEqual(lt.read_bytes(a), lt.read_bytes(b))
        shifts = [re.findall(r"shift: \S+: (-?\d+ -?\d+)", p.stdout) for p in (pa, pb)]
        self.assertEqual(len(shifts[0]), len(TIMES))
        self.assertEqual(shifts[0], shifts[1])

    def test_batch_equals_hdr(self):
        root = self.path("stacks")
        scene = os.path.join(root, "court16")
        os.makedirs(scene, exist_ok=True)
        for i in range(len(TIMES)):
            shutil.copy(self.path(f"exposure{i + 1}.png"), scene)
        shutil.copy(self.exposures, scene)
        outdir = self.path("batch-out")
        lt.run_ok(self, ["batch", "--progress", "none", "--format", "tif", "--depth", "16", "-o", outdir, root])
        single = self.path("single16.tif")
        lt.run_ok(self, ["hdr", "--exposures", self.exposures, "--depth", "16", "-o", single])
        got = lt.imread(os.path.join(outdir, "court16.tif"))
        self.assertEqual(got.dtype, np.uint16)
        self.assertTrue(np.array_equal(got, lt.imread(single)))
        proc = lt.run(["batch", "--progress", "none", "--format", "jpg", "--depth", "16", "-o",
                       self.path("batch-jpg"), root])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("JPEG", proc.stderr)

    def test_refusals(self):
        eight = self.path("mixed8.png")
        cv2.imwrite(eight, np.zeros((self.radiance.shape[0], self.radiance.shape[1], 3), np.uint8))
        proc = lt.run(["hdr", "--times", "0.0625,0.5", "-o", self.path("m.png"), self.path("exposure1.png"), eight])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("one depth", proc.stderr)
        resp = self.path("cam.resp")
        lt.run_ok(self, ["hdr", "--exposures", stack("courtyard")[0] + "/exposures.txt", "--response-out", resp,
                         "-o", self.path("c.png")])
        proc = lt.run(["hdr", "--exposures", self.exposures, "--response-in", resp, "-o", self.path("r.png")])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("linear", proc.stderr)
        proc = lt.run(["hdr", "--exposures", self.exposures, "--response-out", self.path("x.resp"),
                       "-o", self.path("r.png")])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertFalse(os.path.exists(self.path("x.resp")))
        proc = lt.run(["hdr", "--exposures", self.exposures, "--depth", "16", "-o", self.path("r.jpg")])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("JPEG", proc.stderr)
        for name in ("m.png", "r.png", "r.jpg"):
            self.assertFalse(os.path.exists(self.path(name)))


if __name__ == "__main__":
    unittest.main()
