"""Images with a side past 65,535 pixels: 1×70000 and 70000×1 strips load and go through every
operation on the CPU backend, against OpenCV where it has the operation (gray, blur, equalize,
rotate and flip, resize) and against known answers elsewhere (the point operations give the
same pixels whatever the image's shape; crop is a copy; straighten's size). A file truly over
the limit is refused with a message that names the file, its size and the limit.
"""
import os
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

N = 70000
SQUARE = (280, 250)  # N pixels as rows × columns: the point operations' layout-free answer
POINT_FLAGS = ["--wb", "5200,12", "--exposure", "0.7", "--contrast", "0.25", "--curve", "0:12,128:140,255:245",
               "--saturation", "0.4"]


class Strips(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-strips-")
        cls.dir = cls._tmp.name
        rng = np.random.default_rng(16)
        # Smooth enough that blur and resize see structure, noisy enough that every value occurs.
        t = np.arange(N, dtype=np.float64)
        base = 127.5 + 100 * np.sin(t / 900.0)[:, None] + rng.normal(0, 20, (N, 3))
        line = np.clip(np.rint(base), 0, 255).astype(np.uint8)  # N × 3, BGR
        cls.img = {"tall": line.reshape(N, 1, 3), "wide": line.reshape(1, N, 3)}
        cls.path = {}
        for name, img in cls.img.items():
            cls.path[name] = os.path.join(cls.dir, name + ".png")
            assert cv2.imwrite(cls.path[name], img)
            gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
            cls.path[name + "-gray"] = os.path.join(cls.dir, name + "-gray.png")
            assert cv2.imwrite(cls.path[name + "-gray"], gray)
        cls.path["square"] = os.path.join(cls.dir, "square.png")
        assert cv2.imwrite(cls.path["square"], line.reshape(*SQUARE, 3))

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def lumen(self, src, *flags, name="out.png"):
        out = os.path.join(self.dir, name)
        if os.path.exists(out):
            os.unlink(out)
        lt.run_ok(self, ["--backend", "cpu", *flags, "-o", out, self.path[src]])
        return lt.imread(out)

    def report(self, what, got, want):
        mx, mean, n = lt.diff(got, want)
        lt.say(f"{what}: max |d| {mx}, mean {mean:.4f}, {n} values differ")
        return mx

    def test_a_load(self):
        """The strips load as they are: the same pixels, the same shape."""
        for name, img in self.img.items():
            with self.subTest(name):
                out = self.lumen(name)
                self.assertEqual(self.report(f"{name} through lumen-cli", out[..., :3], img), 0)

    def test_b_gray(self):
        """--gray bt601 within 1 of cvtColor(BGR2GRAY), one channel out."""
        for name, img in self.img.items():
            with self.subTest(name):
                out = self.lumen(name, "--gray", "bt601")
                self.assertEqual(out.ndim, 2)
                self.assertLessEqual(self.report(f"{name} --gray bt601", out, cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)), 1)

    def test_c_blur(self):
        """--blur 2.5 within 1 of GaussianBlur (reflect-101), along the strip and across it."""
        for name, img in self.img.items():
            with self.subTest(name):
                out = self.lumen(name, "--blur", "2.5")
                want = cv2.GaussianBlur(img, (0, 0), 2.5, borderType=cv2.BORDER_REFLECT_101)
                self.assertLessEqual(self.report(f"{name} --blur 2.5", out[..., :3], want), 1)

    def test_d_equalize(self):
        """--equalize on gray strips is equalizeHist, bit for bit."""
        for name in self.img:
            with self.subTest(name):
                gray = lt.imread(self.path[name + "-gray"])
                out = self.lumen(name + "-gray", "--equalize", "luma")
                self.assertEqual(self.report(f"{name} gray --equalize luma", out, cv2.equalizeHist(gray)), 0)

    def test_e_rotate_flip(self):
        """Quarter turns and mirrors are index moves: exact, and the strips change orientation."""
        cases = [("90", "none", lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE)),
                 ("270", "none", lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE)),
                 ("90", "vertical", lambda a: cv2.flip(cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE), 0)),
                 ("180", "none", lambda a: cv2.rotate(a, cv2.ROTATE_180)),
                 ("0", "horizontal", lambda a: cv2.flip(a, 1)),
                 ("0", "vertical", lambda a: cv2.flip(a, 0))]
        for name, img in self.img.items():
            for angle, flip, cv in cases:
                with self.subTest(name=name, angle=angle, flip=flip):
                    out = self.lumen(name, "--rotate", angle, "--rotate-flip", flip)
                    want = cv(img)
                    self.assertEqual(self.report(f"{name} --rotate {angle} --rotate-flip {flip}", out[..., :3], want), 0)

    def test_f_resize(self):
        """Halving the strip's length is area averaging: within 1 of INTER_AREA."""
        for name, img, size, dims in (("tall", self.img["tall"], f"0x{N // 2}", (1, N // 2)),
                                      ("wide", self.img["wide"], f"{N // 2}x0", (N // 2, 1))):
            with self.subTest(name):
                out = self.lumen(name, "--resize", size)
                want = cv2.resize(img, dims, interpolation=cv2.INTER_AREA)
                self.assertEqual(out.shape[:2], want.shape[:2])
                self.assertLessEqual(self.report(f"{name} --resize {size} vs INTER_AREA", out[..., :3], want), 1)

    def test_g_point_operations(self):
        """White balance, exposure, contrast, curves and saturation are per pixel: the strips'
        pixels equal those of the same pixels laid out as a 280×250 image."""
        square = self.lumen("square", *POINT_FLAGS, name="square-out.png")
        line = square[..., :3].reshape(N, 3)
        self.assertGreater(lt.diff(line, self.img["tall"].reshape(N, 3))[0], 10, "the operations changed nothing")
        for name in self.img:
            with self.subTest(name):
                out = self.lumen(name, *POINT_FLAGS)
                self.assertEqual(self.report(f"{name} point operations vs the square's", out[..., :3].reshape(N, 3),
                                             line), 0)

    def test_h_crop_and_straighten(self):
        """A crop is a copy of its rectangle; straighten keeps a strip a strip."""
        out = self.lumen("tall", "--crop", "0,66000,1,3000")
        self.assertEqual(self.report("tall --crop 0,66000,1,3000", out[..., :3], self.img["tall"][66000:69000]), 0)
        out = self.lumen("wide", "--crop", "66000,0,3000,1")
        self.assertEqual(self.report("wide --crop 66000,0,3000,1", out[..., :3], self.img["wide"][:, 66000:69000]), 0)
        for name in self.img:
            with self.subTest(name):
                out = self.lumen(name, "--straighten", "0.01")
                self.assertGreaterEqual(min(out.shape[:2]), 1)
                self.assertLessEqual(max(out.shape[:2]), N)

    def test_i_over_the_limit(self):
        """A PNG that declares more pixels than Lumen accepts (40000×40000: 1.6 gigapixels) is
        refused before anything is allocated, naming the file, its size and the limit."""
        bad = os.path.join(self.dir, "huge.png")
        with open(bad, "wb") as f:
            f.write(lt.png_with_size(lt.read_bytes(self.path["square"]), 40000, 40000))
        proc = lt.run(["--backend", "cpu", "--gray", "bt601", "-o", os.path.join(self.dir, "huge-out.png"), bad])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        message = proc.stderr.strip()
        lt.say(message)
        self.assertEqual(len(message.splitlines()), 1, message)
        self.assertIn("huge.png", message)
        self.assertIn("40000×40000", message)
        self.assertIn("1600.0 megapixels", message)
        self.assertIn("1073.7 megapixels", message)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "huge-out.png")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
