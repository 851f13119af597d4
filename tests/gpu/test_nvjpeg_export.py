"""JPEG export through nvJPEG (lumen-cli --jpeg-encoder nvjpeg, core/render/jpeg-gpu.c), on a
GPU: at q95, q90 and q75 on real photos, the decoded file against the CPU writer's (the same
render, --jpeg-encoder cpu) and against the source (the same render written losslessly as
PNG); the figures printed here are those of docs/files.md. It holds that nvJPEG's file is as
close to the source as the CPU's (PSNR within 1.5 dB), of the same size and chroma sampling,
with the CPU writer's metadata segments (EXIF, XMP, ICC, IPTC) byte for byte; and that what
nvJPEG does not take (gray, tiles, --to-srgb) falls back to the CPU writer's bytes with a
note, while a 16-bit result (a raw's) is rounded to 8 bits on the device and encoded there. Skipped (exit 77) without a device; without libnvjpeg too, unless
LUMEN_REQUIRE_NVJPEG=1 (the GPU machine's run) makes that a failure."""
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

QUALITIES = [95, 90, 75]
NOTE = "not encoded with nvJPEG"
METADATA = (0xE1, 0xE2, 0xED)  # APP1 EXIF and XMP, APP2 ICC, APP13 IPTC
PIPELINE = ["--exposure", "0.3", "--blur", "1.5", "--resize", "1200x0"]  # EXIF then says 1200 wide


def run(args, env=None):
    environ = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    environ.pop("LUMEN_TILE", None)
    environ.update(env or {})
    return subprocess.run([lt.lumen_cli()] + [str(a) for a in args], capture_output=True, text=True,
                          errors="replace", env=environ, timeout=600)


def metadata(path):
    return [(m, bytes(p)) for m, _, p in lt.jpeg_segments(lt.read_bytes(path)) if m in METADATA]


def sampling(path):
    """(component id, h, v) of the frame header's components."""
    for m, _, p in lt.jpeg_segments(lt.read_bytes(path)):
        if 0xC0 <= m <= 0xCF and m not in (0xC4, 0xC8, 0xCC):
            return [(p[6 + 3 * k], p[7 + 3 * k] >> 4, p[7 + 3 * k] & 15) for k in range(p[5])]
    return None


def decode(path):
    return lt.imread(path, cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION).astype(np.int16)


def stats(a, b):
    d = np.abs(a - b)
    mse = float(np.mean(d.astype(np.float64) ** 2))
    return int(d.max()), float(d.mean()), (99.0 if mse == 0 else 10 * math.log10(255.0 ** 2 / mse))


def photos():
    found = lt.photos(".jpg") + [os.path.join(lt.photos_dir(), "chelsea.png")]
    return found + [p for p in lt.extra_photos(".jpg")]


class NvjpegExport(unittest.TestCase):
    figures = {q: [] for q in QUALITIES}

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="lumen-nvjpeg-")
        probe = os.path.join(cls.dir, "probe.jpg")
        proc = run(["--backend", "cuda", "--jpeg-encoder", "nvjpeg", "--resize", "64x0", "-o", probe,
                    os.path.join(lt.photos_dir(), "chelsea.png")])
        if proc.returncode != 0 or NOTE in proc.stderr:
            shutil.rmtree(cls.dir, True)
            if os.environ.get("LUMEN_REQUIRE_NVJPEG") == "1":
                raise AssertionError(f"nvJPEG does not encode here: {lt.describe(proc)}")
            raise unittest.SkipTest(f"nvJPEG does not encode here: {proc.stderr.strip()}")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, True)
        for q in QUALITIES:
            rows = cls.figures[q]
            if not rows:
                continue
            # Each row: max and mean |d| nvJPEG vs CPU; max, mean, PSNR nvJPEG vs source; the
            # same for the CPU's file; nvJPEG's size over the CPU's.
            lt.say(f"nvjpeg export q{q} ({len(rows)} renders): nvJPEG vs CPU file max |d| {max(r[0] for r in rows)}, "
                   f"mean {max(r[1] for r in rows):.3f} (worst image); vs source: nvJPEG max {max(r[2] for r in rows)} "
                   f"mean {max(r[3] for r in rows):.3f} PSNR >= {min(r[4] for r in rows):.2f} dB, "
                   f"CPU max {max(r[5] for r in rows)} mean {max(r[6] for r in rows):.3f} "
                   f"PSNR >= {min(r[7] for r in rows):.2f} dB; size nvJPEG/CPU "
                   f"{min(r[8] for r in rows):.3f}..{max(r[8] for r in rows):.3f}")

    def path(self, name):
        return os.path.join(self.dir, name)

    def export(self, photo, ops, quality, name):
        cpu, gpu, src = self.path(name + "-cpu.jpg"), self.path(name + "-gpu.jpg"), self.path(name + ".png")
        common = ops + ["--backend", "cuda", "--quality", quality]
        for out, extra in ((cpu, ["--jpeg-encoder", "cpu"]), (gpu, ["--jpeg-encoder", "nvjpeg", "--timings"]),
                           (src, ["--png-level", "0"])):
            proc = run(common + extra + ["-o", out, photo])
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            self.assertNotIn(NOTE, proc.stderr)
            if out == gpu:
                self.assertIn("save (nvJPEG)", proc.stdout)
        return cpu, gpu, src

    def test_pixels_and_metadata(self):
        for photo in photos():
            for ops in ([], PIPELINE) if photo.endswith("forest-path.jpg") else ([],):
                for q in QUALITIES:
                    name = f"{os.path.basename(photo)}-q{q}{'-ops' if ops else ''}"
                    with self.subTest(name):
                        cpu, gpu, src = self.export(photo, ops, q, name)
                        a, b, s = decode(gpu), decode(cpu), decode(src)
                        self.assertEqual(a.shape, b.shape)
                        g_c, g_s, c_s = stats(a, b), stats(a, s), stats(b, s)
                        ratio = os.path.getsize(gpu) / os.path.getsize(cpu)
                        self.figures[q].append(g_c[:2] + g_s + c_s + (ratio,))
                        lt.say(f"{name}: nvJPEG vs CPU max {g_c[0]} mean {g_c[1]:.3f}; vs source nvJPEG max {g_s[0]} "
                               f"mean {g_s[1]:.3f} {g_s[2]:.2f} dB, CPU max {c_s[0]} mean {c_s[1]:.3f} "
                               f"{c_s[2]:.2f} dB; size {ratio:.3f} of the CPU's")
                        self.assertEqual(metadata(gpu), metadata(cpu), "metadata segments differ")
                        self.assertEqual(sampling(gpu), sampling(cpu), "chroma sampling differs")
                        self.assertGreaterEqual(g_s[2], c_s[2] - 1.5, "nvJPEG's file is much further from the source")
                        self.assertLessEqual(g_c[1], max(1.0, 1.5 * c_s[1]), "nvJPEG's pixels stray from the CPU's")
                        self.assertLess(ratio, 1.5)
                        for f in (cpu, gpu, src):
                            os.remove(f)
        self.assertTrue(metadata(os.path.join(lt.photos_dir(), "forest-path.jpg")), "the photo has no metadata")
        self.assertEqual(lt.leftovers(self.dir), [])

    def check_falls_back(self, photo, ops, why, env=None):
        cpu, gpu = self.path("fb-cpu.jpg"), self.path("fb-gpu.jpg")
        one = run(ops + ["--backend", "cuda", "--jpeg-encoder", "cpu", "-o", cpu, photo], env)
        self.assertEqual(one.returncode, 0, lt.describe(one))
        proc = run(ops + ["--backend", "cuda", "--jpeg-encoder", "nvjpeg", "-o", gpu, photo], env)
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertRegex(proc.stderr, NOTE + r" \(.*" + why)
        self.assertEqual(lt.read_bytes(gpu), lt.read_bytes(cpu))

    def test_falls_back_where_nvjpeg_does_not_take_it(self):
        forest = os.path.join(lt.photos_dir(), "forest-path.jpg")
        with self.subTest("gray"):
            self.check_falls_back(forest, ["--gray", "bt601"], "grayscale")
        with self.subTest("tiles"):
            self.check_falls_back(forest, ["--blur", "2"], "tiles", {"LUMEN_TILE": "256x256"})
        with self.subTest("to-srgb"):
            self.check_falls_back(forest, ["--to-srgb"], "sRGB")

    def test_sixteen_bits_encoded_on_the_device(self):
        """A 16-bit result (a 16-bit PNG's, a camera raw's) is rounded to 8 bits on the device as
        the CPU's writer rounds it, then encoded by nvJPEG: as close to the CPU writer's file as an
        8-bit photo's, with its metadata (the raw's Rec. 2020 profile) byte for byte."""
        deep = self.path("deep.png")
        cv2.imwrite(deep, lt.imread(os.path.join(lt.photos_dir(), "chelsea.png")).astype(np.uint16) * 257)
        raw = os.path.join(lt.data_dir(), "raw", "forest.dng")
        for name, src in (("16-bit PNG", deep), ("raw", raw)):
            with self.subTest(name):
                cpu, gpu = self.path("cpu16.jpg"), self.path("gpu16.jpg")
                proc = run(["--backend", "cuda", "--jpeg-encoder", "cpu", "-o", cpu, src])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                proc = run(["--backend", "cuda", "--jpeg-encoder", "nvjpeg", "-o", gpu, src])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                self.assertNotIn(NOTE, proc.stderr)
                worst, mean, psnr = stats(decode(gpu), decode(cpu))
                print(f"{name}: nvJPEG against the CPU writer: max |Δ| {worst}, mean {mean:.2f}, PSNR {psnr:.1f} dB")
                self.assertGreater(psnr, 38.0)
                self.assertEqual(metadata(gpu), metadata(cpu))


if __name__ == "__main__":
    if not lt.has_gpu():
        print("SKIP: no CUDA device")
        sys.exit(77)
    unittest.main(verbosity=2)
