"""lumen-cli tile by tile (LUMEN_TILE=WxH forces tiles, as a GPU short of memory does): the same
pixels as the render in one piece, 8-bit and 16-bit, every geometry with blur and equalize,
and --timings names the tiles. On the CPU always; on CUDA too where a device is there."""
import os
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

PIPELINES = [
    ["--rotate", "90", "--straighten", "-3", "--blur", "30", "--equalize", "luma", "--equalize-amount", "0.7"],
    ["--crop", "10,20,300,200", "--exposure", "0.4", "--gray", "bt601", "--blur", "2.5", "--resize", "700x0"],
]


def cli(args, tile=None):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    env.pop("LUMEN_TILE", None)
    if tile:
        env["LUMEN_TILE"] = tile
    return subprocess.run([lt.lumen_cli()] + [str(a) for a in args], capture_output=True, text=True,
                          timeout=600, env=env)


class TilesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        for name in os.listdir(self.tmp):
            os.remove(os.path.join(self.tmp, name))
        os.rmdir(self.tmp)

    def backends(self):
        return ["cpu", "cuda"] if lt.has_gpu() else ["cpu"]

    def check(self, source, args, backend):
        whole = os.path.join(self.tmp, "whole.png")
        tiled = os.path.join(self.tmp, "tiled.png")
        one = cli(args + ["--backend", backend, "-o", whole, source])
        self.assertEqual(one.returncode, 0, one.stderr)
        many = cli(args + ["--backend", backend, "--timings", "-o", tiled, source], tile="37x53")
        self.assertEqual(many.returncode, 0, many.stderr)
        self.assertRegex(many.stdout, r"tiles: \d+ of 37×53, \d lanes?")
        self.assertNotIn("tiles:", cli(args + ["--backend", backend, "--timings", "-o", whole, source]).stdout)
        a, b = lt.imread(whole), lt.imread(tiled)
        self.assertEqual(a.dtype, b.dtype)
        self.assertTrue(np.array_equal(a, b), f"{backend} {' '.join(args)}: tiled differs from one piece")

    def test_8bit(self):
        for backend in self.backends():
            for args in PIPELINES:
                self.check(os.path.join(lt.photos_dir(), "chelsea.png"), args, backend)

    def test_16bit(self):
        img = lt.imread(os.path.join(lt.photos_dir(), "coffee-alpha.png"))
        h, w = img.shape[:2]
        yy, xx = np.mgrid[0:h, 0:w]
        deep = np.clip(img.astype(np.int64) * 257 - ((xx * 37 + yy * 91) % 257)[..., None], 0, 65535)
        source = os.path.join(self.tmp, "deep.png")
        cv2.imwrite(source, deep.astype(np.uint16))
        for backend in self.backends():
            self.check(source, ["--straighten", "5", "--blur", "20", "--resize", "500x0"], backend)
            self.assertEqual(lt.imread(os.path.join(self.tmp, "tiled.png")).dtype, np.uint16)


if __name__ == "__main__":
    unittest.main()
