"""lumen-cli --denoise against its definition written again in NumPy (denoise_ref.py), and
against OpenCV's non-local means.

- 16 bits: chelsea.png widened to 16 bits (lumen_testlib.widen: v·257 plus a smooth ±127 term)
  with seeded Gaussian noise of σ 10 levels, through lumen-cli at σ given (12) and at σ
  estimated: within 1 level (257 u16) of the definition, and since both compute in float32 in
  the same order, no more than 0.1 % of the values differ at all (measured: none). The estimate is checked through the
  output: a σ 5 % off moves pixels by several levels.
- Tiles: in 100×70 tiles (LUMEN_TILE) the same bytes as in one piece, σ estimated (the
  tiler's first pass gives every tile the whole input's σ).
- Against cv2.fastNlMeansDenoisingColored: the middle 256×256 of astronaut.tif with seeded
  Gaussian noise of σ 15 (8 bits, clipped and rounded): Lumen at its defaults (σ estimated)
  has a PSNR at least that of NLM at each of (h, hColor) = (0.35σ, 0.35σ), (0.5σ, 0.5σ),
  (0.5σ, σ), (0.7σ, 0.7σ) with 5×5 templates in 21×21 windows: the neighbourhood of NLM's best
  on this photo in the grid search of bench/bench-denoise.py (0.5σ, 0.5σ, 5/21).
"""
import os
import sys
import unittest

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)
import lumen_testlib as lt  # noqa: E402
import denoise_ref as ref  # noqa: E402


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return 10.0 * np.log10(255.0 ** 2 / mse)


class Denoise(lt.RenderTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        rgb8 = lt.imread_rgb(os.path.join(lt.photos_dir(), "chelsea.png"))
        rng = np.random.default_rng(32)
        noisy = lt.widen(rgb8).astype(np.float64) + rng.normal(0.0, 10.0 * 257.0, rgb8.shape)
        cls.rgb16 = np.clip(np.rint(noisy), 0, 65535).astype(np.uint16)
        cls.src16 = os.path.join(cls.folder, "chelsea16.png")
        lt.imwrite_rgb(cls.src16, cls.rgb16)

    def lumen(self, src, name, args, env=None):
        out = os.path.join(self.folder, name)
        old = dict(os.environ)
        os.environ.update(env or {})
        try:
            lt.run_ok(self, ["--denoise", "1.2", *args, src, "-o", out])
        finally:
            os.environ.clear()
            os.environ.update(old)
        return lt.imread_rgb(out)

    def check16(self, noise):
        got = self.lumen(self.src16, f"n{noise}.png", ["--denoise-noise", str(noise)])
        self.assertEqual(got.dtype, np.uint16)
        want, sigma = ref.denoise(self.rgb16.astype(np.float32) / np.float32(257.0), noise=noise)
        want = ref.quantize_u16(want)
        d = np.abs(got.astype(np.int64) - want.astype(np.int64))
        print(f"noise {noise} (σ {sigma:.4f}): max |Δ| {d.max()} u16, {np.count_nonzero(d)} of {d.size} differ")
        self.assertLessEqual(int(d.max()), 257)
        # the same float32 operations in the same order: all but a few values are the same
        self.assertLessEqual(np.count_nonzero(d), d.size // 1000, "the definition and Lumen part ways")
        moved = np.abs(got.astype(np.int64) - self.rgb16.astype(np.int64))
        self.assertGreater(float(moved.mean()), 257.0 * 3, "the noise was not reduced")
        return got

    def test_sigma_given_16bit(self):
        self.check16(12)

    def test_sigma_estimated_16bit(self):
        self.check16(0)

    def test_tiles_same_bytes(self):
        whole = self.lumen(self.src16, "whole.png", [])
        tiled = self.lumen(self.src16, "tiled.png", [], env={"LUMEN_TILE": "100x70"})
        self.assertTrue(np.array_equal(whole, tiled), "tiled render differs from one piece")

    def test_psnr_against_nlm(self):
        img = lt.imread(os.path.join(lt.photos_dir(), "astronaut.tif"), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        clean = img[h // 2 - 128:h // 2 + 128, w // 2 - 128:w // 2 + 128]
        sigma = 15.0
        rng = np.random.default_rng(15)
        noisy = np.clip(np.rint(clean + rng.normal(0.0, sigma, clean.shape)), 0, 255).astype(np.uint8)
        src = os.path.join(self.folder, "astro-noisy.png")
        cv2.imwrite(src, noisy)
        out = os.path.join(self.folder, "astro-lumen.png")
        lt.run_ok(self, ["--denoise", "1.2", src, "-o", out])
        lumen = psnr(lt.imread(out, cv2.IMREAD_COLOR), clean)
        print(f"noisy {psnr(noisy, clean):.2f} dB, Lumen defaults {lumen:.2f} dB")
        for f, fc in ((0.35, 0.35), (0.5, 0.5), (0.5, 1.0), (0.7, 0.7)):
            hh, hc = f * sigma, fc * sigma
            nlm = psnr(cv2.fastNlMeansDenoisingColored(noisy, None, hh, hc, 5, 21), clean)
            print(f"NLM h {hh:.2f}, hColor {hc:.2f}, 5/21: {nlm:.2f} dB")
            self.assertGreaterEqual(lumen, nlm)


if __name__ == "__main__":
    unittest.main(verbosity=2)
