"""Raw brackets merged with --backend cuda against --backend cpu: the frames are developed on
the GPU (bit-identical to the CPU's development, tests/gpu/test_raw_cli_parity.py) and merged
on the CPU, so the merged .exr must be the same file, aligned or not, and the sigmoid's 16-bit
PNG within 1 level (the contract of every operation). Skipped (exit 77) without a CUDA device."""
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
import lumen_testlib as lt  # noqa: E402
import test_raw_merge as rm  # noqa: E402


def run(*args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    return subprocess.run([lt.lumen_cli(), "hdr", *[str(a) for a in args]], capture_output=True, text=True,
                          env=env, timeout=600)


class RawMergeGpu(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="lumen-raw-merge-gpu-")
        d = cls.tmp.name
        truth = rm.scene()
        cls.frames = []
        for i, t in enumerate(rm.TIMES):
            path = os.path.join(d, "frame%d.dng" % i)
            rm.write(path, rm.sensor(truth, t, 51 + i), t)
            cls.frames.append(path)
        r = run("--backend", "cuda", "-o", os.path.join(d, "probe.exr"), *cls.frames)
        if r.returncode != 0 and ("CUDA" in r.stderr or "GPU" in r.stderr):
            print("SKIP: no CUDA device: " + r.stderr.strip())
            sys.exit(77)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def both(self, name, *args):
        outs = []
        for backend in ("cpu", "cuda"):
            out = os.path.join(self.tmp.name, "%s.%s" % (backend, name))
            r = run("--backend", backend, *args, "-o", out, *self.frames)
            self.assertEqual(r.returncode, 0, r.stderr)
            outs.append(out)
        return outs

    def test_scene_is_the_same_file(self):
        for args in ((), ("--align",)):
            a, b = self.both("exr", *args)
            with open(a, "rb") as fa, open(b, "rb") as fb:
                self.assertEqual(fa.read(), fb.read(), args)

    def test_sigmoid_within_one_level(self):
        a, b = self.both("png", "--depth", "16")
        pa = cv2.imread(a, cv2.IMREAD_UNCHANGED).astype(int)
        pb = cv2.imread(b, cv2.IMREAD_UNCHANGED).astype(int)
        self.assertLessEqual(np.abs(pa - pb).max(), 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
