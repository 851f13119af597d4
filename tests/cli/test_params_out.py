"""lumen-cli --params-out FILE: the sidecar of the operations given (flags and --params), a
preset that --params reads back to the same output, bit for bit.

The flag run each comparison starts from is held against the input (it must change the photo)
and, for grayscale, against OpenCV: two runs that both did nothing would agree too.
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
import unittest

import cv2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

PHOTO = os.path.join(lt.photos_dir(), "chelsea.png")

# Flag sets, each a look a person would save as a preset.
LOOKS = {
    "bt601": ["--gray", "bt601"],
    "mix-half": ["--gray", "mix", "--gray-red", "0.2", "--gray-green", "0.5", "--gray-blue", "0.3",
                 "--gray-amount", "0.5"],
    "equalize-blur": ["--equalize", "rgb", "--equalize-amount", "0.7", "--blur", "2.3"],
    "all": ["--gray", "average", "--gray-amount", "0.35", "--equalize", "luma", "--blur", "0.7"],
}


class ParamsOut(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-params-out-")
        self.dir = self._tmp.name
        self.bgr = lt.imread(PHOTO)

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def test_round_trip(self):
        """Flags → --params-out (while processing) → --params alone: the same PNG bytes."""
        for name, flags in LOOKS.items():
            with self.subTest(look=name):
                preset, by_flags, by_preset = (self.path(f"{name}{ext}") for ext in (".lumen", "-flags.png",
                                                                                       "-preset.png"))
                lt.run_ok(self, ["--backend", "cpu"] + flags + ["--params-out", preset, "-o", by_flags, PHOTO])
                lt.run_ok(self, ["--backend", "cpu", "--params", preset, "-o", by_preset, PHOTO])
                with open(preset) as f:
                    text = f.read()
                lt.say(f"  {name}: {len(text)} bytes of sidecar")
                self.assertTrue(text.startswith("[lumen]\nversion=1\n"), text[:40])
                flags_img = lt.imread(by_flags)
                # Not a run that did nothing: then an empty preset would agree as well.
                self.assertFalse(flags_img.shape == self.bgr.shape and lt.diff(flags_img, self.bgr)[0] == 0)
                self.assertEqual(lt.read_bytes(by_flags), lt.read_bytes(by_preset),
                                 f"--params {preset} does not reproduce {' '.join(flags)}")
                if name == "bt601":  # the flags themselves do what they say
                    self.assertLessEqual(lt.diff(flags_img, cv2.cvtColor(self.bgr, cv2.COLOR_BGR2GRAY))[0], 1)
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_preset_alone(self):
        """Without -o and IN only the preset is written (exit 0, nothing on stderr); a flag given
        with --params overrides it in the preset too."""
        base = self.path("base.lumen")
        with open(base, "w") as f:
            f.write("[gray]\nenabled=true\nmode=luminosity\namount=0.5\n")
        preset = self.path("preset.lumen")
        proc = lt.run_ok(self, ["--params", base, "--gray", "bt601", "--params-out", preset])
        self.assertEqual(proc.stdout, "")
        self.assertEqual(sorted(os.listdir(self.dir)), ["base.lumen", "preset.lumen"])
        a, b = self.path("a.png"), self.path("b.png")
        lt.run_ok(self, ["--params", preset, "-o", a, PHOTO])
        lt.run_ok(self, ["--gray", "bt601", "--gray-amount", "0.5", "-o", b, PHOTO])
        self.assertEqual(lt.read_bytes(a), lt.read_bytes(b))

    def test_usage(self):
        """IN without -o is still a usage error (exit 2), and then no preset is written; an
        unwritable preset is an error that names it, before any output is written."""
        preset = self.path("p.lumen")
        proc = lt.run(["--blur", "2", "--params-out", preset, PHOTO])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertIn("-o", proc.stderr)
        self.assertFalse(os.path.exists(preset))
        proc = lt.run(["--blur", "2", "--params-out", preset, "-o", self.path("o.png")])
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertFalse(os.path.exists(preset))

        bad = self.path("no-such-folder/p.lumen")
        out = self.path("out.png")
        proc = lt.run(["--blur", "2", "--params-out", bad, "-o", out, PHOTO])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertIn("p.lumen", proc.stderr)
        self.assertFalse(os.path.exists(out))
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_help_and_newer_version(self):
        """--help lists --params-out; a preset of a newer version is refused by name."""
        proc = lt.run_ok(self, ["--help"])
        self.assertIn("--params-out", proc.stdout)
        newer = self.path("newer.lumen")
        with open(newer, "w") as f:
            f.write("[lumen]\nversion=3\n[blur]\nenabled=true\nsigma=1\n")
        proc = lt.run(["--params", newer, "-o", self.path("x.png"), PHOTO])
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertIn("newer.lumen", proc.stderr)
        self.assertIn("newer Lumen (version 3)", proc.stderr)

    def run_env(self, args, env):
        return subprocess.run([lt.lumen_cli()] + args, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", **env))

    def test_together_on_full_disk(self):
        """The preset and the photo are committed together: a disk with room for the preset
        (a few hundred bytes) but not the photo leaves neither (the preset used to be written
        first, whatever the photo's fate). Needs a small tmpfs (root, as in CI)."""
        mnt = self.path("small")
        os.mkdir(mnt)
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], capture_output=True,
                               text=True)
        if mount.returncode != 0:
            self.skipTest(f"cannot mount a small tmpfs to fill: {mount.stderr.strip()}")
        try:
            preset, out = os.path.join(mnt, "p.lumen"), os.path.join(mnt, "out.png")
            proc = lt.run(["--blur", "2", "--params-out", preset, "--png-level", "0", "-o", out, PHOTO])
            self.assertEqual(proc.returncode, 1, lt.describe(proc))
            self.assertRegex(proc.stderr, r"^lumen-cli: [^\n]*out\.png: [^\n]*(?i:no space left on device)\n$")
            self.assertEqual(os.listdir(mnt), [])
        finally:
            subprocess.run(["umount", mnt], check=False)

    def test_together_rename_fails(self):
        """The photo's rename fails after the preset's (LUMEN_ATOMIC_FAIL_AT, core/io/atomic-group.h):
        the old preset is put back (same bytes, same inode), or a new one removed."""
        preset, out = self.path("p.lumen"), self.path("out.png")
        args = ["--blur", "2", "--params-out", preset, "-o", out, PHOTO]
        proc = self.run_env(args, {"LUMEN_ATOMIC_FAIL_AT": "rename:2"})
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertEqual(os.listdir(self.dir), [])
        for p in (preset, out):
            with open(p, "wb") as f:
                f.write(b"old")
        inodes = [os.stat(p).st_ino for p in (preset, out)]
        proc = self.run_env(args, {"LUMEN_ATOMIC_FAIL_AT": "rename:2"})
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual([lt.read_bytes(p) for p in (preset, out)], [b"old", b"old"])
        self.assertEqual([os.stat(p).st_ino for p in (preset, out)], inodes)
        self.assertEqual(sorted(os.listdir(self.dir)), ["out.png", "p.lumen"])

    def test_nodes_refused(self):
        """A preset or an output named by a fifo, a character device or a link to one is refused
        by name before any work (one line, exit 1) and stays what it was; the other file is not
        written either. --params-out /dev/null as root used to replace the node with a regular
        file: the devices here are the test's own (/dev/null's numbers), so that the defect,
        were it back, would replace them and not the system's."""
        nodes = {"fifo.png": stat.S_ISFIFO, "to-fifo.png": stat.S_ISLNK}
        os.mkfifo(self.path("fifo.png"))
        os.symlink("fifo.png", self.path("to-fifo.png"))
        try:
            os.mknod(self.path("null.png"), 0o600 | stat.S_IFCHR, os.makedev(1, 3))
            os.symlink(self.path("null.png"), self.path("to-null.png"))
            nodes.update({"null.png": stat.S_ISCHR, "to-null.png": stat.S_ISLNK})
        except PermissionError:
            lt.say("  not root: no character device of our own")
        preset, out = self.path("p.lumen"), self.path("out.png")
        for name, is_kind in nodes.items():
            node = self.path(name)
            for args in (["--params-out", node], ["--params-out", node, "-o", out, PHOTO],
                         ["--params-out", preset, "-o", node, PHOTO]):
                with self.subTest(args=" ".join(args)):
                    proc = lt.run(["--blur", "2"] + args)
                    self.assertEqual(proc.returncode, 1, lt.describe(proc))
                    self.assertRegex(proc.stderr, r"^lumen-cli: [^\n]*" + re.escape(name)
                                     + r": cannot write: [^\n]*not a regular file\n$")
                    self.assertTrue(is_kind(os.lstat(node).st_mode), f"{name} was replaced")
                    self.assertFalse(os.path.exists(out))
                    self.assertFalse(os.path.exists(preset))
        self.assertEqual(lt.leftovers(self.dir), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
