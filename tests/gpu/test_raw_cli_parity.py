"""A raw developed by lumen-cli on the GPU against the CPU, end to end (load, the development,
the display transform, the edits, the writers): Bayer, X-Trans, LinearRaw and monochrome DNGs
written here with a known scene (clipped highlights included), and the rawtran-doc CR2 where
it is installed, with every demosaic and both highlight modes. The scene-referred .exr must be
the same file (the development is bit-identical), the 16-bit TIFF within 1 level (the contract
of every operation), also with the edits that act on scene light. Skipped (exit 77) without a
CUDA device."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, os.path.join(HERE, "..", "raw"))
import cv2  # noqa: E402
import dng  # noqa: E402
import lumen_testlib as lt  # noqa: E402

CR2 = os.environ.get("LUMEN_CR2", "/usr/share/doc/rawtran/IMG_5952.CR2")


def run(args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    return subprocess.run([lt.lumen_cli()] + [str(a) for a in args], capture_output=True, text=True,
                          errors="replace", env=env, timeout=600)


def scene(h, w, seed):
    """Smooth colour fields with edges and a clipped highlight, linear, 0..1.3."""
    rng = np.random.default_rng(seed)
    yy, xx = np.mgrid[:h, :w] / max(h, w)
    img = np.stack([0.3 + 0.25 * np.sin(7 * xx + c) * np.cos(5 * yy - c) for c in range(3)], -1)
    img[h // 3:h // 2, w // 4:w // 2] *= np.array([3.0, 2.2, 1.4])  # past white: clipped
    img += rng.normal(0, 0.01, img.shape)
    return np.clip(img, 0, None)


class RawCliParity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory(prefix="lumen-raw-parity-")
        d = cls.dir.name
        probe = os.path.join(d, "probe.dng")
        dng.write(probe, np.full((64, 64), 1000, np.uint16), "RGGB")
        r = run(["--backend", "cuda", "-o", os.path.join(d, "probe.exr"), probe])
        if r.returncode != 0 and ("CUDA" in r.stderr or "GPU" in r.stderr):
            print("SKIP: no CUDA device: " + r.stderr.strip())
            sys.exit(77)
        assert r.returncode == 0, r.stderr
        cm = [[0.6257, -0.0303, -0.1000], [-0.7880, 1.5621, 0.2396], [-0.1714, 0.1904, 0.7046]]
        cls.files = []
        for name, cfa, shape in (("bayer", "GRBG", (401, 603)), ("xtrans", "XTRANS", (402, 600)),
                                 ("linear", None, (201, 303, 3)), ("mono", None, (201, 303))):
            s = scene(shape[0], shape[1], len(cls.files))
            if len(shape) == 2 and cfa:
                data = dng.mosaic(s, cfa)
            elif len(shape) == 3:
                data = s
            else:
                data = s[..., 1]
            raw = np.clip(512 + data / np.array(1.0) * (16383 - 512), 0, 16383).astype(np.uint16)
            path = os.path.join(d, name + ".dng")
            dng.write(path, raw, cfa, black=(512,), white=16383, color_matrix=cm,
                      as_shot_neutral=(0.47, 1.0, 0.66), orientation=6 if name == "bayer" else 1)
            cls.files.append(path)
        if os.path.exists(CR2):
            cls.files.append(CR2)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def write(self, path, backend, out, flags):
        r = run(["--backend", backend, "-o", out, *flags, path])
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, "rb") as f:
            return f.read()

    def develop(self, path, backend, out, flags):
        self.write(path, backend, out, flags)
        return cv2.imread(out, cv2.IMREAD_UNCHANGED)

    def test_parity(self):
        d = self.dir.name
        for path in self.files:
            xtrans = "xtrans" in path
            methods = ["auto", "markesteijn1"] if xtrans else ["auto", "bilinear"]
            for method in methods:
                for hl in ("clip", "reconstruct"):
                    flags = ["--raw-demosaic", method, "--raw-highlights", hl]
                    with self.subTest(file=os.path.basename(path), method=method, highlights=hl):
                        # The scene's EXR: the same file, byte for byte (its writer is
                        # deterministic, so equal bytes are equal halves).
                        a = self.write(path, "cpu", os.path.join(d, "cpu.exr"), flags)
                        b = self.write(path, "cuda", os.path.join(d, "gpu.exr"), flags)
                        print(f"{os.path.basename(path)} {method} {hl}: exr {'identical' if a == b else 'DIFFERENT'}"
                              f" ({len(a)} bytes)")
                        self.assertEqual(a, b, "the scene differs between the backends")
                        edits = flags + ["--contrast", "0.2", "--saturation", "0.2"]
                        a = self.develop(path, "cpu", os.path.join(d, "cpu.tif"), edits)
                        b = self.develop(path, "cuda", os.path.join(d, "gpu.tif"), edits)
                        self.assertEqual(a.dtype, np.uint16)
                        dev = int(np.abs(a.astype(np.int32) - b).max())
                        print(f"{os.path.basename(path)} {method} {hl}: 16-bit TIFF max |Δ| {dev}")
                        self.assertLessEqual(dev, 1)

    def test_scene_edits(self):
        """The edits on scene light: the exposure and white balance are one gain, the same bits on
        both backends (the .exr the same file); blur (direct and, at σ 30, on its grid) is held
        to the 16-bit contract after the display transform."""
        d = self.dir.name
        for path in (self.files[0], self.files[-1]):
            name = os.path.basename(path)
            with self.subTest(file=name, edits="gain"):
                flags = ["--exposure", "0.7", "--wb", "4300,8"]
                a = self.write(path, "cpu", os.path.join(d, "cpu.exr"), flags)
                b = self.write(path, "cuda", os.path.join(d, "gpu.exr"), flags)
                print(f"{name} exposure+wb: exr {'identical' if a == b else 'DIFFERENT'}")
                self.assertEqual(a, b, "the edited scene differs between the backends")
            for sigma in ("2", "30"):
                with self.subTest(file=name, blur=sigma):
                    flags = ["--blur", sigma, "--exposure", "-0.3"]
                    a = self.develop(path, "cpu", os.path.join(d, "cpu.tif"), flags)
                    b = self.develop(path, "cuda", os.path.join(d, "gpu.tif"), flags)
                    dev = int(np.abs(a.astype(np.int32) - b).max())
                    print(f"{name} blur {sigma}: 16-bit TIFF max |Δ| {dev}")
                    self.assertLessEqual(dev, 1)


if __name__ == "__main__":
    unittest.main(verbosity=2)
