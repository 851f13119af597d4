"""Lumen's operations on 16-bit versions of the test photos against OpenCV on CV_16U and
against references in double: test_oracle16.py corpus|extra [PHOTO…] (as test_oracle.py:
`extra` is skipped, exit 77, when the larger data is absent).

Each photo becomes 16-bit at test time: v·257 plus a smooth term of ±127 (different in each
channel), so that all 16 bits vary and an operation that drops to 8 bits anywhere fails.
Photos above 0.3 MP are cut to their central 640×480 (the operations are the same everywhere;
CI must stay fast). Lumen runs as lumen-cli on 16-bit PNG files, which it must read and
write as 16 bits.

Bounds, each derived from the 8-bit test's (test_oracle.py, test_oracle_geom.py) and printed
with what was measured, in u16:
- rotate / flip: exact (cv2.rotate, cv2.flip): an index move.
- straighten: against the bicubic definition in double within 1 + E(δ), E the position term
  of test_oracle_geom.py's bound computed on the 16-bit values, δ = 4·max(w, h)·2⁻²⁴ pixels:
  Lumen's source positions are float (cx + c·dx − s·dy, a few roundings of half an ulp of
  the largest coordinate). At 8 bits that term stays under half a step and the bound is 1;
  in u16 it is 257 times larger (measured up to 3.3 u16 at sharp edges). Against
  cv2.warpAffine INTER_CUBIC on CV_16U within 1 + E(1/64 + δ) (OpenCV's positions on a 1/32
  grid); OpenCV's 16-bit weights are float, so the 8-bit bound's fixed-point term becomes
  16·2⁻²³ of the range.
- resize: INTER_AREA on CV_16U within 1 (both take the same weighted mean in float and round
  once: ½ + ½ plus float error far below a u16); Lanczos-3 within 1 of the double definition.
- blur: cv2.GaussianBlur on CV_16U, reflect-101, with Lumen's kernel size round(6σ+1)|1
  given explicitly: for ksize (0, 0) OpenCV takes 8σ+1 taps on 16-bit data (6σ+1 only on
  8-bit), whose tails beyond 3σ (0.27 % of the weight) move the result by up to ~180 u16
  (printed, not bounded). Within 2 u16: Lumen lies within ½ + 0.03 of the exact convolution
  (tests/unit/test-blur16.c), OpenCV's 16-bit fixed point within ½ + ~0.65 of its own float
  result (measured 1.14 at most); the 8-bit test's 1 is the same two roundings, where the
  fixed-point share stays below half a step.
- gray bt601: cv2.cvtColor RGB2GRAY on CV_16U rounds fixed-point weights of 14 bits
  (4899, 9617, 1868 / 2¹⁴), which lie up to 2.5·10⁻⁵ from 0.299, 0.587, 0.114: on 65535 that
  is 1.6 u16, plus the two roundings: within 2 (at 8 bits the weights' share is 0.006, so 1).
- equalize: OpenCV has no 16-bit equalizeHist; Lumen's definition (docs/numerics.md: 65536 bins,
  lut[v] = round-half-up(65535·(cdf[v] − cdf[first])/(N − cdf[first]))) is implemented here
  in numpy and must agree exactly: per channel (rgb), on gray photos, and in luma mode
  (16-bit BT.601 luma in float32, the shift added on the 0..255 scale, as docs/numerics.md says).
- lumen-cli compare (CPU against CPU) on the 16-bit photo reports its figures in u16 and in
  8-bit steps.
"""
import math
import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import lumen_testlib as lt  # noqa: E402
import oracle_main  # noqa: E402
import test_oracle_geom as geom  # noqa: E402

MAX_SIDE = (640, 480)


def quantize_u16(x32):
    """lm_quantize_u16 in float32: clamp(x·257), then + 0.5 and truncate."""
    s = np.float32(x32) * np.float32(257.0)
    s = np.where(s > 0, s, np.float32(0)).astype(np.float32)
    s = np.where(s < 65535, s, np.float32(65535)).astype(np.float32)
    return (s + np.float32(0.5)).astype(np.int64).astype(np.uint16)


def equalize_lut16(values):
    """Lumen's 16-bit equalize table for the samples VALUES (docs/numerics.md)."""
    hist = np.bincount(values.ravel(), minlength=65536).astype(np.uint64)
    total = int(values.size)
    first = int(np.flatnonzero(hist)[0])
    if int(hist[first]) == total:
        return np.arange(65536, dtype=np.uint16)
    cdf = np.cumsum(hist).astype(object)  # exact integers
    c0 = int(hist[first])
    den = total - c0
    lut = np.zeros(65536, np.uint16)
    for v in range(first + 1, 65536):
        num = 65535 * (int(cdf[v]) - c0)
        lut[v] = (2 * num + den) // (2 * den)
    return lut


def luma16(rgb):
    """lm_luma_u16: (0.299 R + 0.587 G) + 0.114 B on the 0..255 scale in float32."""
    r, g, b = (rgb[..., c].astype(np.float32) / np.float32(257.0) for c in range(3))
    y = (np.float32(0.299) * r + np.float32(0.587) * g) + np.float32(0.114) * b
    return quantize_u16(y.astype(np.float32))


class Oracle16(unittest.TestCase):
    PHOTO = None  # set in each photo's subclass

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-oracle16-")
        raw = lt.imread(cls.PHOTO, cv2.IMREAD_UNCHANGED)
        if raw.dtype != np.uint8:
            raise unittest.SkipTest(f"{cls.PHOTO} is not 8-bit")
        cls.alpha = raw.ndim == 3 and raw.shape[2] == 4 and bool((raw[..., 3] != 255).any())
        if raw.ndim == 2:
            img8 = raw
        elif cls.alpha:
            img8 = cv2.cvtColor(raw, cv2.COLOR_BGRA2RGBA)
        else:
            img8 = cv2.cvtColor(lt.imread(cls.PHOTO, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
        h, w = img8.shape[:2]
        if w * h > 1_000_000:
            cw, ch = min(w, MAX_SIDE[0]), min(h, MAX_SIDE[1])
            x0, y0 = (w - cw) // 2, (h - ch) // 2
            img8 = img8[y0:y0 + ch, x0:x0 + cw]
        cls.img = np.ascontiguousarray(lt.widen(img8))  # RGB(A) or gray, uint16
        cls.gray_photo = cls.img.ndim == 2
        cls.h, cls.w = cls.img.shape[:2]
        cls.count = 0
        lt.say(f"photo {os.path.basename(cls.PHOTO)}: {cls.w}×{cls.h} 16-bit, "
               f"{'gray' if cls.gray_photo else 'RGBA' if cls.alpha else 'RGB'}")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    # Lumen ---------------------------------------------------------------------------------
    def lumen(self, src, flags):
        """SRC (RGB(A) or gray uint16) through lumen-cli FLAGS as 16-bit PNG files. Returns
        RGB(A) or gray uint16; an opaque RGBA result comes back RGB."""
        type(self).count += 1
        inp = os.path.join(self.tmp.name, f"case{self.count}-in.png")
        out = os.path.join(self.tmp.name, f"case{self.count}-out.png")
        bgr = src if src.ndim == 2 else cv2.cvtColor(src, cv2.COLOR_RGBA2BGRA if src.shape[2] == 4
                                                      else cv2.COLOR_RGB2BGR)
        self.assertTrue(cv2.imwrite(inp, bgr))
        lt.run_ok(self, list(flags) + ["-o", out, inp])
        self.assertEqual(lt.leftovers(self.tmp.name), [], "temporary files left behind")
        got = cv2.imread(out, cv2.IMREAD_UNCHANGED)
        os.remove(inp)
        os.remove(out)
        self.assertEqual(got.dtype, np.uint16, "lumen-cli wrote fewer than 16 bits")
        if got.ndim == 3:
            got = cv2.cvtColor(got, cv2.COLOR_BGRA2RGBA if got.shape[2] == 4 else cv2.COLOR_BGR2RGB)
        if got.ndim == 3 and got.shape[2] == 4 and (src.ndim == 2 or src.shape[2] == 3 or
                                                   bool((src[..., 3] == 65535).all())):
            self.assertTrue(bool((got[..., 3] == 65535).all()), "opaque alpha changed")
            got = got[..., :3]
        return got

    def report(self, what, got, want):
        """Prints and returns max |Δ| in u16; WANT may be float (an unrounded reference)."""
        self.assertEqual(got.shape, want.shape, what)
        d = np.abs(got.astype(np.float64) - np.asarray(want, np.float64))
        lt.say(f"  {what}: max |Δ| {d.max():.3f} u16 ({d.max() / 257:.4f} 8-bit steps), "
               f"mean |Δ| {d.mean():.4f}, {100 * float(np.mean(d > 0.5)):.3f} % of values off")
        # Every bit varies: a result on 8-bit steps only would mean a drop to 8 bits.
        self.assertGreater(float(np.mean(got % 257 != 0)), 0.3, f"{what}: only 8-bit steps")
        return float(d.max())

    # (a) -----------------------------------------------------------------------------------
    def test_a_rotate(self):
        """Quarter turns and mirrors are cv2.rotate / cv2.flip on CV_16U exactly."""
        for angle, flip, ref in geom.ROTATIONS:
            with self.subTest(angle=angle, flip=flip):
                out = self.lumen(self.img, ["--rotate", angle, "--rotate-flip", flip])
                want = ref(self.img)
                if want.ndim == 3 and out.shape[2] == 3:
                    want = want[..., :3]
                self.assertEqual(self.report(f"rotate {angle} flip {flip} vs OpenCV", out, want), 0)

    # (b) -----------------------------------------------------------------------------------
    def test_b_straighten(self):
        """Against the definition in double within 1 + E(δ), against warpAffine CV_16U within
        1 + E(1/64 + δ) (module docstring)."""
        k0, k1 = geom.kernel_constants()
        delta = 4 * max(self.w, self.h) * 2.0 ** -24  # Lumen's float positions
        slack = 1 / 64 + delta
        for angle in (-1.5, 12.0):
            with self.subTest(angle=angle):
                out = self.lumen(self.img, ["--straighten", str(angle)])
                (ow, oh), sx, sy = geom.straighten_positions(angle, self.w, self.h)
                self.assertEqual(out.shape[:2], (oh, ow), "output size")
                step = max(1, math.ceil(ow * oh / 2.5e5))
                sx, sy, out = sx[::step], sy[::step], out[::step]
                img = self.img if out.ndim == self.img.ndim and (out.ndim == 2 or out.shape[2] == self.img.shape[2]) \
                    else self.img[..., :3]
                exact = np.clip(geom.straighten_reference(img, sx, sy), 0, 65535)
                self.report(f"straighten {angle} vs double bicubic", out, exact)
                r = geom.neighbourhood_range(img, sx, sy, delta)
                bound = 1.0 + r / 2 * (k0 * k1 * 2 * delta)
                d = np.abs(out.astype(np.float64) - exact)
                lt.say(f"    bound 1 + E(δ): largest {bound.max():.1f} u16; worst |Δ| - bound {(d - bound).max():.3f}")
                self.assertTrue(bool((d <= bound + 1e-9).all()), "beyond the bound of float positions")
                cx, cy = (self.w - 1) / 2, (self.h - 1) / 2
                m = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
                m[0, 2] -= cx - (ow - 1) / 2
                m[1, 2] -= cy - (oh - 1) / 2
                cv = cv2.warpAffine(img, m, (ow, oh), flags=cv2.INTER_CUBIC,
                                    borderMode=cv2.BORDER_REPLICATE)[::step]
                self.report(f"straighten {angle} vs cv2.warpAffine INTER_CUBIC CV_16U", out, cv)
                r = geom.neighbourhood_range(img, sx, sy, slack)
                bound = 1.0 + r / 2 * (k0 * k1 * 2 * slack + 16 * 2.0 ** -23)
                d = np.abs(out.astype(np.float64) - cv.astype(np.float64))
                lt.say(f"    bound 1 + E: largest {bound.max():.1f} u16; worst |Δ| - bound {(d - bound).max():.3f}")
                self.assertTrue(bool((d <= bound + 1e-9).all()), "beyond the bound of OpenCV's positions")

    # (c) -----------------------------------------------------------------------------------
    def test_c_resize(self):
        """Area shrinks within 1 u16 of INTER_AREA CV_16U; Lanczos-3 within 1 of double."""
        for name, ow, oh in (("exact2", self.w // 2, self.h // 2),
                             ("by3.3", max(1, round(self.w / 3.3)), max(1, round(self.h / 3.3)))):
            with self.subTest(size=name):
                out = self.lumen(self.img, ["--resize", f"{ow}x{oh}", "--resize-mode", "exact"])
                want = cv2.resize(self.img, (ow, oh), interpolation=cv2.INTER_AREA)
                want = want[..., :3] if want.ndim == 3 and out.shape[2] == 3 else want
                self.assertLessEqual(self.report(f"resize {ow}x{oh} vs cv2.resize INTER_AREA CV_16U", out, want), 1)
        cw, ch = min(self.w, 300), min(self.h, 200)
        crop = np.ascontiguousarray(self.img[:ch, :cw])
        for ow, oh in ((round(cw * 1.37), round(ch * 1.37)), (round(cw / 1.5), round(ch / 1.5))):
            with self.subTest(lanczos=(ow, oh)):
                out = self.lumen(crop, ["--resize", f"{ow}x{oh}", "--resize-mode", "exact"])
                exact = geom.lanczos_reference(crop, ow, oh)
                exact = exact[..., :3] if exact.ndim == 3 and out.shape[2] == 3 else exact
                self.assertLessEqual(self.report(f"resize {cw}x{ch} → {ow}x{oh} vs Lanczos-3 in double", out,
                                                 np.clip(exact, 0, 65535)), 1)

    # (d) -----------------------------------------------------------------------------------
    def test_d_blur(self):
        """Within 2 u16 of cv2.GaussianBlur CV_16U, reflect-101 (module docstring)."""
        for sigma in (0.8, 2.5, 10):
            with self.subTest(sigma=sigma):
                out = self.lumen(self.img, ["--blur", str(sigma)])
                k = int(round(sigma * 6 + 1)) | 1
                want = cv2.GaussianBlur(self.img, (k, k), sigma, borderType=cv2.BORDER_REFLECT_101)
                wide = cv2.GaussianBlur(self.img, (0, 0), sigma, borderType=cv2.BORDER_REFLECT_101)
                if want.ndim == 3 and out.shape[2] == 3:
                    want, wide = want[..., :3], wide[..., :3]
                self.report(f"(blur {sigma} vs cv2.GaussianBlur CV_16U with its own 16-bit size, 8σ+1)", out, wide)
                self.assertLessEqual(self.report(f"blur {sigma} vs cv2.GaussianBlur CV_16U, {k}×{k}", out, want), 2)

    # (e) -----------------------------------------------------------------------------------
    def test_e_gray_bt601(self):
        """Within 2 u16 of cv2.cvtColor RGB2GRAY on CV_16U (module docstring)."""
        if self.gray_photo:
            self.skipTest("a gray photo: nothing to convert")
        out = self.lumen(self.img, ["--gray", "bt601"])
        rgb = np.ascontiguousarray(self.img[..., :3])
        want = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
        if self.alpha:
            self.assertEqual(out.shape[2], 4)
            self.assertTrue(bool((out[..., 3] == self.img[..., 3]).all()), "alpha changed")
            self.assertTrue(bool((out[..., 0] == out[..., 1]).all() and (out[..., 1] == out[..., 2]).all()))
            out = out[..., 0]
        else:
            self.assertEqual(out.ndim, 2, "full grayscale of an opaque photo must be one channel")
        mx = self.report("gray bt601 vs cvtColor RGB2GRAY CV_16U", out, want)
        swapped = cv2.cvtColor(rgb, cv2.COLOR_BGR2GRAY)
        lt.say(f"  (a red/blue swap would give max |Δ| {int(np.abs(swapped.astype(int) - want).max())} u16)")
        self.assertLessEqual(mx, 2)

    # (f) -----------------------------------------------------------------------------------
    def test_f_equalize(self):
        """Exactly Lumen's 16-bit definition, computed here in numpy (rgb, luma, gray)."""
        modes = ("luma",) if self.gray_photo else ("rgb", "luma")
        for mode in modes:
            with self.subTest(mode=mode):
                out = self.lumen(self.img, ["--equalize", mode])
                if self.gray_photo:
                    want = equalize_lut16(self.img)[self.img]
                elif mode == "rgb":
                    want = self.img[..., :3].copy()
                    for c in range(3):
                        want[..., c] = equalize_lut16(self.img[..., c])[self.img[..., c]]
                else:
                    y = luma16(self.img)
                    lut = equalize_lut16(y)
                    shift = (lut[y].astype(np.int64) - y.astype(np.int64)).astype(np.float32) / np.float32(257.0)
                    want = np.empty(self.img.shape[:2] + (3,), np.uint16)
                    for c in range(3):
                        v = self.img[..., c].astype(np.float32) / np.float32(257.0)
                        want[..., c] = quantize_u16((v + shift).astype(np.float32))
                if self.alpha:
                    self.assertTrue(bool((out[..., 3] == self.img[..., 3]).all()), "alpha changed")
                    out = out[..., :3]
                self.assertEqual(self.report(f"equalize {mode} vs numpy (Lumen's 16-bit definition)", out, want), 0)

    # (g) -----------------------------------------------------------------------------------
    def test_g_compare(self):
        """lumen-cli compare on a 16-bit photo (CPU against CPU: equal by construction)
        reports its figures in u16 and in 8-bit steps."""
        src = os.path.join(self.tmp.name, "compare-in.png")
        bgr = self.img if self.img.ndim == 2 else cv2.cvtColor(
            self.img, cv2.COLOR_RGBA2BGRA if self.img.shape[2] == 4 else cv2.COLOR_RGB2BGR)
        self.assertTrue(cv2.imwrite(src, bgr))
        r = lt.run(["compare", "--backends", "cpu,cpu", "--blur", "2.5", src])
        os.remove(src)
        self.assertEqual(r.returncode, 0, r.stderr)
        line = [ln for ln in r.stdout.splitlines() if ln.startswith("diff:")]
        lt.say(f"  {line}")
        self.assertEqual(len(line), 1, r.stdout)
        self.assertIn("max |Δ| 0 u16 (0.000 8-bit steps)", line[0])
        self.assertRegex(r.stdout.splitlines()[0], r"(rgba|gray)16$")


if __name__ == "__main__":
    sys.exit(oracle_main.main(sys.argv[1:], "test_oracle16.py",
                              lambda paths, extra: oracle_main.photo_suite(Oracle16, "Oracle16_", paths)))
