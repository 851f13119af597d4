"""lumen-cli on hostile text inputs and numbers (issue 13, item 4).

The text files lumen-cli reads (a --params sidecar, an --exposures list, a --response-in
curve) must be regular files of bounded size: /dev/zero, a fifo or a folder is refused at
once instead of read for ever. A sidecar value that is not UTF-8 is an error naming the file
and the key, not a GLib-CRITICAL and a default. Every number, on the command line and in
these files, goes through one parser: a subnormal (1e-320) is a number, nan, inf and 1e400
are not. Whatever of a user's text a message quotes is at most about 80 characters, with
bytes that are not UTF-8 and control characters escaped.

Each refusal: the exit status the contract gives (1 for a bad input, 2 for a bad flag), one
line on stderr that starts with "lumen-cli: " and names the file (or flag) and the cause,
and no output file.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

COFFEE = os.path.join(lt.photos_dir(), "chelsea.png")
FOREST = os.path.join(lt.data_dir(), "hdr", "forest")
# A message that quotes ~80 characters of a user's text, plus the file name and the words
# around it, stays well under this; a 10 MB line echoed whole does not.
MAX_LINE = 400
# What a refusal of /dev/zero or a fifo may take (the bug: for ever).
QUICK = 10


def run_raw(args, timeout=60):
    """lumen-cli with ARGS (str or bytes); stdout and stderr as bytes."""
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    return subprocess.run([lt.lumen_cli()] + list(args), capture_output=True, timeout=timeout, env=env)


class TextInputs(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-text-")
        self.dir = self._tmp.name
        self.out = os.path.join(self.dir, "out.png")

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data.encode() if isinstance(data, str) else data)
        return path

    def refused(self, args, named, cause, status=1, timeout=QUICK):
        """Runs lumen-cli ARGS and checks the one-line refusal; returns the line (text)."""
        proc = run_raw(args, timeout=timeout)
        try:
            err = proc.stderr.decode("utf-8")  # strict: raw bytes must come back escaped
        except UnicodeDecodeError as e:
            self.fail(f"stderr is not UTF-8 text ({e}): {proc.stderr[:300]!r}")
        lt.say(f"  exit {proc.returncode}: {err.strip()[:300]}")
        self.assertEqual(proc.returncode, status, f"stderr: {err[:500]!r}")
        lines = err.splitlines()
        if status == 2:  # a usage error adds the pointer to --help
            lines = [ln for ln in lines if "--help" not in ln]
        self.assertEqual(len(lines), 1, f"want one line on stderr, got {err[:500]!r}")
        line = lines[0]
        self.assertTrue(line.startswith("lumen-cli: "), line)
        self.assertIn(named, line, "the message must name the file or flag at fault")
        self.assertRegex(line, re.compile(cause, re.I), "the message must say why")
        self.assertLessEqual(len(line), MAX_LINE, "a user's text was quoted beyond ~80 characters")
        self.assertNotRegex(line, r"[\x00-\x08\x0b-\x1f\x7f]", "a control character reached the terminal")
        self.assertFalse(os.path.exists(self.out), "an output was written")
        self.assertEqual([n for n in os.listdir(self.dir) if lt.TMP_INFIX in n], [])
        return line

    def fifo(self):
        path = os.path.join(self.dir, "pipe.txt")
        os.mkfifo(path)
        return path

    def huge(self, name):
        """A regular file of 17 MiB (sparse: quick to make), over the 16 MiB bound."""
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.truncate(17 << 20)
        return path

    # --- not files, or too large ----------------------------------------------------------
    def test_params_not_a_regular_file(self):
        for path, cause in (("/dev/zero", r"not a regular file"), (self.fifo(), r"not a regular file"),
                            (self.dir, r"folder"), (self.huge("big.lumen"), r"larger than 16")):
            with self.subTest(path=path):
                self.refused(["--params", path, "-o", self.out, COFFEE], path, cause)

    def test_exposures_not_a_regular_file(self):
        for path, cause in (("/dev/zero", r"not a regular file"), (self.fifo(), r"not a regular file"),
                            (self.dir, r"folder"), (self.huge("big.txt"), r"larger than 16")):
            with self.subTest(path=path):
                self.refused(["hdr", "--exposures", path, "-o", self.out], path, cause)

    def test_response_not_a_regular_file(self):
        exposures = os.path.join(FOREST, "exposures.txt")
        for path, cause in (("/dev/zero", r"not a regular file"), (self.fifo(), r"not a regular file"),
                            (self.huge("big.txt"), r"larger than 16")):
            with self.subTest(path=path):
                self.refused(["hdr", "--response-in", path, "--exposures", exposures, "-o", self.out], path,
                             cause)

    # --- sidecar values -------------------------------------------------------------------
    def test_sidecar_value_not_utf8(self):
        """Today a GLib-CRITICAL, exit 0 and the default mode: the key named instead."""
        side = self.write("look.lumen", b"[gray]\nenabled=true\nmode=\xff\xfe\n")
        line = self.refused(["--params", side, "-o", self.out, COFFEE], side, r"UTF-8")
        self.assertIn("[gray] mode", line)
        self.assertIn("\\xFF\\xFE", line, "the bytes are shown escaped")
        self.assertNotIn("CRITICAL", line)

    def test_sidecar_bad_escape(self):
        """A value GKeyFile cannot unescape: refused, not read as its default."""
        side = self.write("look.lumen", "[gray]\nenabled=true\nmode=bt601\\\n")
        line = self.refused(["--params", side, "-o", self.out, COFFEE], side, r"backslash")
        self.assertIn("[gray] mode", line)

    def test_sidecar_long_lines_quoted_short(self):
        cases = {
            "value": "[gray]\nenabled=true\nmode=" + "x" * 10_000_000 + "\n",
            "line": "[gray]\n" + "x" * 10_000_000 + "\n",
            "group": "[" + "g" * 1_000_000 + "]\nenabled=true\n",
        }
        for name, text in cases.items():
            with self.subTest(case=name):
                side = self.write(name + ".lumen", text)
                line = self.refused(["--params", side, "-o", self.out, COFFEE], side,
                                    r"unknown|not a \[group\]")
                self.assertIn("…", line, "a cut quotation ends with an ellipsis")

    def test_sidecar_garbage_bytes(self):
        rng = random.Random(13)
        data = bytes(rng.choice(b"\x01\x1b\x7f\x80\xc3\xff=[]\n ab") for _ in range(4000))
        side = self.write("noise.lumen", data.replace(b"\n", b"\n#", 1))
        self.refused(["--params", side, "-o", self.out, COFFEE], side, r"line|unknown|UTF-8|not")

    def test_sidecar_nul_byte(self):
        side = self.write("nul.lumen", b"[gray]\nenabled=true\nmode=bt601\x00luminosity\n")
        self.refused(["--params", side, "-o", self.out, COFFEE], side, r"line 3.*NUL|NUL.*line 3")

    def test_sidecar_said_twice(self):
        """GKeyFile merges a group given twice and keeps a key's last value: two sidecars put
        together would apply half of each. Refused, naming both lines."""
        cases = {
            "group": ("[lumen]\nversion=1\n[exposure]\nenabled=true\nev=1\n[gray]\nenabled=true\n"
                      "[exposure]\nev=-2\n", r"line 8: \[exposure\] is given twice \(first on line 3\)"),
            "key": ("[exposure]\nenabled=true\nev=1\n  ev = -2\n",
                    r"line 4: \[exposure\] ev is given twice \(first on line 3\)"),
            "enabled": ("[blur]\nenabled=false\nsigma=3\nenabled=true\n",
                        r"line 4: \[blur\] enabled is given twice \(first on line 2\)"),
        }
        for name, (text, cause) in cases.items():
            with self.subTest(case=name):
                side = self.write(name + ".lumen", text)
                self.refused(["--params", side, "-o", self.out, COFFEE], side, cause)
        # The same key in two groups is two keys.
        side = self.write("two.lumen", "[exposure]\nenabled=true\nev=0.5\n[blur]\nenabled=true\nsigma=0.5\n")
        proc = lt.run(["--params", side, "-o", self.out, COFFEE])
        self.assertEqual(proc.returncode, 0, proc.stderr)

    def test_sidecar_localized_key(self):
        """A localized key (ev[de]) was dropped unseen in every locale but its own, and kept in
        that one: refused in any locale as other unknown keys are."""
        side = self.write("local.lumen", "[exposure]\nenabled=true\nev[de]=2\n")
        for language in ("C", "de"):
            with self.subTest(language=language):
                env = dict(os.environ, LANGUAGE=language, LC_ALL="C.UTF-8")
                proc = subprocess.run([lt.lumen_cli(), "--params", side, "-o", self.out, COFFEE],
                                      capture_output=True, text=True, timeout=QUICK, env=env)
                self.assertEqual(proc.returncode, 1, proc.stderr)
                self.assertIn(side, proc.stderr)
                self.assertIn("ev[de]", proc.stderr)
                self.assertFalse(os.path.exists(self.out))

    # --- exposures and response files -----------------------------------------------------
    def test_exposures_long_line_and_bad_bytes(self):
        text = "exposure01.jpg 0.002\n" + "y" * 10_000_000 + "\n"
        path = self.write("long.txt", text)
        line = self.refused(["hdr", "--exposures", path, "-o", self.out], path, r"line 2.*file seconds")
        self.assertIn("…", line)
        path = self.write("bytes.txt", b"exposure01.jpg 0.002\nexp\xff\x1b[31m.jpg 0.008\n")
        line = self.refused(["hdr", "--exposures", path, "-o", self.out], path, r"line 2 .*UTF-8")
        self.assertIn("\\xFF\\x1B", line)

    def test_exposures_times(self):
        """Times read by the one parser: a fraction is a time, nan is not; a subnormal is a
        number but no exposure time (it would be minus infinity in the merge's logarithm)."""
        photo = os.path.join(FOREST, "exposure01.jpg")
        path = self.write("nan.txt", f"{photo} nan\n{photo} 1\n")
        self.refused(["hdr", "--exposures", path, "-o", self.out], path, r"line 1.*file seconds")
        path = self.write("tiny.txt", f"{photo} 1e-320\n{os.path.join(FOREST, 'exposure02.jpg')} 1/125\n")
        self.refused(["hdr", "--exposures", path, "-o", self.out], path, r"line 1: .*between .* seconds")

    def test_response_values(self):
        """A curve Lumen wrote reads back; one whose value is a subnormal (0 as a float), nan
        or not UTF-8 is refused naming the line."""
        exposures = os.path.join(FOREST, "exposures.txt")
        good = ["# a camera response\n"] + ["1 1 1\n"] * 256
        for value, cause in (("1e-320", r"line 5.*three positive numbers"), ("nan", r"line 5.*three positive"),
                             ("1 1", r"line 5.*three positive"), ("\udcff", r"line 5 .*UTF-8")):
            with self.subTest(value=value):
                lines = list(good)
                lines[4] = f"{value} 1 1\n"
                path = self.write("curve.txt", "".join(lines).encode("utf-8", "surrogateescape"))
                self.refused(["hdr", "--response-in", path, "--exposures", exposures, "-o", self.out], path,
                             cause)

    # --- numbers on the command line ------------------------------------------------------
    def test_subnormal_is_a_number(self):
        """1e-320 was "not a number" on the command line and in a sidecar: it is one (blur σ
        in 0..200, so it is taken, as 0)."""
        proc = run_raw(["--blur", "1e-320", "-o", self.out, COFFEE])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, b"")
        os.remove(self.out)
        side = self.write("tiny.lumen", "[blur]\nenabled=true\nsigma=1e-320\n")
        proc = run_raw(["--params", side, "-o", self.out, COFFEE])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        os.remove(self.out)

    def test_numbers_refused(self):
        exposures = os.path.join(FOREST, "exposures.txt")
        hdr = ["hdr", "--exposures", exposures, "-o", self.out]
        cases = [
            (["--blur", "1e400", "-o", self.out, COFFEE], "blur", r"not a finite number"),
            (["--blur", "nan", "-o", self.out, COFFEE], "blur", r"not a number"),
            (["--quality", "nan", "-o", self.out, COFFEE], "--quality", r"not a number"),
            (["--quality", "92.5", "-o", self.out, COFFEE], "--quality", r"whole number"),
            (["compare", "--backends", "cpu,cpu", "--gain", "inf", COFFEE], "--gain", r"not a finite"),
            (hdr + ["--gamma-correction", "nan"], "--gamma-correction", r"not a number"),
            (hdr + ["--gamma-correction", "inf"], "--gamma-correction", r"not a finite number"),
            (hdr + ["--gamma-correction", "-1"], "--gamma-correction", r"outside"),
            (hdr + ["--gamma", "nan"], "--gamma", r"not a number"),
            (hdr + ["--gamma", "1e-320"], "--gamma", r"outside 0\.1\.\.5"),
            (hdr + ["--bias", "inf"], "--bias", r"not a finite number"),
            (["hdr", "--times", "nan,1", "-o", self.out, os.path.join(FOREST, "exposure01.jpg"),
              os.path.join(FOREST, "exposure02.jpg")], "--times", r"not a time in seconds"),
        ]
        for args, named, cause in cases:
            with self.subTest(args=" ".join(args[-6:])):
                self.refused(args, named, cause, status=2)

    def test_tiny_time_refused(self):
        """--times 1e-320 is a number but no exposure time: refused as out of range (exit 1),
        not merged into infinities."""
        a, b = os.path.join(FOREST, "exposure01.jpg"), os.path.join(FOREST, "exposure02.jpg")
        self.refused(["hdr", "--times", "1e-320,1", "-o", self.out, a, b], "exposure01.jpg",
                     r"between 1e-09 and 1e\+06 seconds")

    def test_flag_value_bytes_escaped(self):
        """An operation flag's value of raw bytes: quoted escaped, not "Invalid byte sequence
        in conversion input" with no name."""
        line = self.refused([b"--gray", b"a\xff\x1bb" + b"z" * 100_000, b"-o", self.out.encode(),
                             COFFEE.encode()], "gray mode", r"unknown value", status=2)
        self.assertIn("a\\xFF\\x1Bb", line)
        self.assertIn("…", line)


if __name__ == "__main__":
    unittest.main(verbosity=2)
