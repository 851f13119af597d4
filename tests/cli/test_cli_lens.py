"""lumen-cli's lens correction: --lens auto finds the profile the photo's EXIF names (a synthetic
EXIF written with exiftool on a real photo: Canon EOS 5D Mark III, EF24-105mm f/4L IS USM at 24 mm
f/4) and corrects it; a lens named on the command line corrects a photo without EXIF; the sidecar
keeps the names. Refused in one line naming the file, exit 1 and nothing written: a lens or
camera lensfun's database lacks, a photo that names no lens, a zoom without its focal length, a
lens without the profile asked for. The pixels themselves are held to lensfun's own C API in
tests/unit/test-lens.c.
"""
import os
import sys
import tempfile
import unittest

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

CANON = os.path.join(lt.data_dir(), "lens", "canon-5d3-24mm.jpg")  # 480 × 300, synthetic EXIF
PLAIN = os.path.join(lt.photos_dir(), "chelsea.png")                # no EXIF
LENS = "Canon EF 24-105mm f/4L IS USM"


class Lens(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-lens-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def render(self, name, *flags, src=CANON):
        out = os.path.join(self.dir, name + ".png")
        lt.run_ok(self, list(flags) + ["-o", out, src])
        return lt.imread(out)

    def test_from_exif(self):
        """The EXIF's lens at 24 mm f/4 on full frame: corners lifted (vignetting, ×2 and more in
        linear light), the centre nearly unchanged, the size kept."""
        src = lt.imread(CANON)
        got = self.render("auto", "--lens", "auto")
        self.assertEqual(got.shape, src.shape)
        corner = got[:20, :20].astype(float).mean() - src[:20, :20].astype(float).mean()
        h, w = src.shape[:2]
        centre = np.abs(got[h // 2 - 10:h // 2 + 10, w // 2 - 10:w // 2 + 10].astype(int)
                        - src[h // 2 - 10:h // 2 + 10, w // 2 - 10:w // 2 + 10].astype(int)).mean()
        lt.say(f"  corner +{corner:.1f} levels, centre |Δ| {centre:.2f}")
        self.assertGreater(corner, 20)
        self.assertLess(centre, 3)
        # Vignetting alone off: the corners stay as dark as they were.
        geometry = self.render("geometry", "--lens", "auto", "--lens-vignetting", "0")
        self.assertLess(abs(geometry[:20, :20].astype(float).mean() - src[:20, :20].astype(float).mean()), 5)

    def test_named_and_sidecar(self):
        """A photo without EXIF, its lens, camera, focal length and aperture given; the sidecar
        written with --params-out gives the same pixels back."""
        flags = ["--lens", LENS, "--lens-camera", "Canon EOS 5D Mark III", "--lens-focal", "24",
                 "--lens-aperture", "4"]
        first = self.render("named", *flags, src=PLAIN)
        self.assertGreater(lt.diff(first, lt.imread(PLAIN))[0], 0)
        preset = os.path.join(self.dir, "lens.lumen")
        lt.run_ok(self, flags + ["--params-out", preset])
        with open(preset, encoding="utf-8") as f:
            text = f.read()
        self.assertIn(f"lens={LENS}\n", text)
        again = self.render("again", "--params", preset, src=PLAIN)
        self.assertEqual(lt.diff(first, again)[0], 0)

    def refused(self, src, *flags, says):
        out = os.path.join(self.dir, "refused.png")
        proc = lt.run(list(flags) + ["-o", out, src])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        lines = proc.stderr.strip().split("\n")
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(os.path.basename(src), lines[0])
        self.assertIn(says, lines[0])
        self.assertFalse(os.path.exists(out))
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_refused(self):
        self.refused(CANON, "--lens", "Nonexistent 13mm f/0.7", says="no lens “Nonexistent 13mm f/0.7”")
        self.refused(CANON, "--lens", "auto", "--lens-camera", "No Such Camera 9000",
                     says="no camera “No Such Camera 9000”")
        self.refused(PLAIN, "--lens", "auto", says="names no lens")
        self.refused(PLAIN, "--lens", LENS, says="focal length")
        self.refused(PLAIN, "--lens", "Nikon AI-S Nikkor 35mm f/1.4", "--lens-distortion", "0",
                     says="no profile of “Nikon AI-S Nikkor 35mm f/1.4”")

    def test_bad_values(self):
        """Out of range or not a name: a usage error (exit 2) naming the flag's value."""
        for flags in (["--lens-distortion", "2"], ["--lens", "a\tb"], ["--lens-focal", "-1"]):
            proc = lt.run(["--lens", "auto"] + flags + ["-o", os.path.join(self.dir, "x.png"), CANON])
            self.assertEqual(proc.returncode, 2, lt.describe(proc))


if __name__ == "__main__":
    unittest.main(verbosity=2)
