"""lumen-cli --preset and lumen-cli presets (core/library/presets.h).

A preset named or given as a file renders what the same operations given by --params render
(the same bytes); --preset goes onto --params' operations by appending (its operations that are
on take the place of the same ones, the others stay) or, with --preset-mode replace, replaces
the look but keeps --params' crop. Black and white gives a gray image. `presets` lists the
built-in ones, imports a file byte for byte, exports and deletes it. Bad input (a missing
preset, a file Lumen does not read, a fifo, a bad mode, a built-in to delete) exits 1 or 2 with
one line naming it, and writes no output.
"""
import os
import stat
import sys
import tempfile
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

ROOT = os.environ.get("LUMEN_SOURCE_ROOT", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILTIN = os.path.join(ROOT, "data", "presets")


class Presets(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-presets-")
        self.dir = self._tmp.name
        self._home = os.environ.get("XDG_DATA_HOME")
        os.environ["XDG_DATA_HOME"] = self.path("data")
        rng = np.random.default_rng(33)
        self.photo = self.path("photo.png")
        cv2.imwrite(self.photo, rng.integers(0, 256, (40, 60, 3), dtype=np.uint8))

    def tearDown(self):
        if self._home is None:
            os.environ.pop("XDG_DATA_HOME", None)
        else:
            os.environ["XDG_DATA_HOME"] = self._home
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def write(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)
        return self.path(name)

    def render(self, *flags, name="out.png"):
        out = self.path(name)
        lt.run_ok(self, list(flags) + ["-o", out, self.photo])
        return lt.read_bytes(out)

    def fails(self, flags, code, *words):
        out = self.path("failed.png")
        proc = lt.run(list(flags) + ["-o", out, self.photo], timeout=20)
        self.assertEqual(proc.returncode, code, lt.describe(proc))
        lines = proc.stderr.strip().splitlines()
        self.assertTrue(lines and lines[0].startswith("lumen-cli: "), lt.describe(proc))
        for w in words:
            self.assertIn(w, lines[0])
        self.assertFalse(os.path.exists(out))
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_named_and_file_as_params(self):
        for name in ["Warm", "Black and white", "High contrast", "Vivid", "Faded", "Cool"]:
            file = os.path.join(BUILTIN, name + ".lumen")
            want = self.render("--params", file, name="want.png")
            self.assertEqual(self.render("--preset", name), want, name)
            self.assertEqual(self.render("--preset", file), want, name)
        self.render("--preset", "Black and white", name="bw.png")
        bw = cv2.imread(self.path("bw.png"))
        self.assertTrue((bw[:, :, 0] == bw[:, :, 1]).all() and (bw[:, :, 1] == bw[:, :, 2]).all())

    def test_onto_params(self):
        own = self.write("own.lumen", "[exposure]\nenabled=true\nev=1\n\n[crop]\nenabled=true\nwidth=30\nheight=20\n")
        bw = "[gray]\nenabled=true\nmode=luminosity\n\n[contrast]\nenabled=true\ncontrast=0.15\n"
        # Append: the photo's exposure and crop stay, grayscale and contrast come.
        both = self.write("both.lumen", open(own).read() + "\n" + bw)
        self.assertEqual(self.render("--params", own, "--preset", "Black and white"),
                         self.render("--params", both, name="want.png"))
        # Replace: the look is the preset's (exposure gone), the crop stays.
        crop_bw = self.write("crop-bw.lumen", "[crop]\nenabled=true\nwidth=30\nheight=20\n\n" + bw)
        self.assertEqual(self.render("--params", own, "--preset", "Black and white", "--preset-mode", "replace"),
                         self.render("--params", crop_bw, name="want.png"))
        self.assertEqual(cv2.imread(self.path("out.png")).shape[:2], (20, 30))
        # Flags given too override it.
        w5000 = self.write("w.lumen", "[wb]\nenabled=true\ntemperature=5000\n")
        self.assertEqual(self.render("--preset", "Warm", "--wb", "5000"),
                         self.render("--params", w5000, name="want.png"))

    def test_manage(self):
        proc = lt.run_ok(self, ["presets", "list"])
        rows = [line.split("\t") for line in proc.stdout.splitlines()]
        names = [r[0] for r in rows]
        for name in ["Black and white", "High contrast", "Warm"]:
            self.assertIn(name, names)
        self.assertEqual(names, sorted(names, key=str.casefold))
        self.assertTrue(all(r[1] == "built-in" for r in rows))
        text = "[saturation]\nenabled=true\nsaturation=0.25\n"
        src = self.write("Punchy.lumen", text)
        proc = lt.run_ok(self, ["presets", "import", src])
        kept = proc.stdout.strip()
        self.assertEqual(kept, os.path.join(self.path("data"), "lumen", "presets", "Punchy.lumen"))
        self.assertEqual(open(kept).read(), text)
        self.assertIn("Punchy\tuser\t" + kept, lt.run_ok(self, ["presets", "list"]).stdout)
        self.assertEqual(self.render("--preset", "Punchy"), self.render("--params", src, name="want.png"))
        out = self.path("exported.lumen")
        lt.run_ok(self, ["presets", "export", "Punchy", out])
        self.assertEqual(open(out).read(), text)
        lt.run_ok(self, ["presets", "delete", "Punchy"])
        self.assertNotIn("Punchy", lt.run_ok(self, ["presets", "list"]).stdout)

    def test_bad_input(self):
        self.fails(["--preset", "No such"], 1, "No such")
        bad = self.write("bad.lumen", "[gray]\nenabled=true\ncolour=red\n")
        self.fails(["--preset", bad], 1, bad)
        fifo = self.path("fifo.lumen")
        os.mkfifo(fifo)
        self.fails(["--preset", fifo], 1, fifo)
        self.fails(["--preset", "Warm", "--preset-mode", "sideways"], 2, "--preset-mode")
        for args, code, word in [(["presets", "import", bad], 1, bad),
                                 (["presets", "import", fifo], 1, fifo),
                                 (["presets", "import", self.path("missing.lumen")], 1, "missing.lumen"),
                                 (["presets", "import", os.path.join(BUILTIN, "Warm.lumen"), "a/b"], 1, "a/b"),
                                 (["presets", "delete", "Warm"], 1, "Warm"),
                                 (["presets", "export", "No such", self.path("x.lumen")], 1, "No such"),
                                 (["presets", "export", "Warm", fifo], 1, fifo),
                                 (["presets", "frobnicate"], 2, "presets"),
                                 (["presets", "import"], 2, "presets")]:
            proc = lt.run(args, timeout=20)
            self.assertEqual(proc.returncode, code, lt.describe(proc))
            self.assertIn(word, proc.stderr.splitlines()[0], lt.describe(proc))
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))
        self.assertFalse(os.path.exists(os.path.join(self.path("data"), "lumen", "presets", "bad.lumen")))


if __name__ == "__main__":
    unittest.main()
