"""lumen-cli at first contact: --help names every command, a mistyped command is called one,
a wrong output extension is answered with the ones that command writes, HDR and batch usage
mistakes say what to give instead, and --timings shows no transfers where nothing is copied.

Each test asserts the exit status and the exact message, so that a vaguer message fails."""
import os
import re
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

PHOTO = os.path.join(lt.photos_dir(), "chelsea.png")  # small colour PNG: fast runs
HDR = os.path.join(lt.data_dir(), "hdr")
COMMANDS = ["process", "compare", "hdr", "batch", "detect", "detect-objects", "tags", "thumbnails", "presets"]
TRY_HELP = "Try “lumen-cli --help” for the options."
PHOTO_EXTS = ".png, .jpg, .jpeg, .tif or .tiff"


def stack(name):
    """The exposures of one of the corpus's stacks, by name."""
    d = os.path.join(HDR, name)
    return [os.path.join(d, n) for n in sorted(os.listdir(d)) if n != "exposures.txt"]


def build_has_openexr():
    """Whether the build of LUMEN_CLI writes OpenEXR, from its build folder's config.h."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(lt.lumen_cli())))
    with open(os.path.join(build, "config.h")) as f:
        m = re.search(r"#define LUMEN_HAVE_OPENEXR (\d)", f.read())
    if m is None:
        raise AssertionError("config.h does not say whether OpenEXR is built in")
    return m.group(1) == "1"


def timing_labels(stdout):
    """The labels of the '  label   N ms' lines, in order."""
    return re.findall(r"^\s+(\S+)\s+[0-9.]+ ms$", stdout, re.M)


class UsageTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-usage-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, *names):
        return os.path.join(self.dir, *names)

    def assertError(self, proc, message):
        """Exit 1, nothing on stdout, and exactly MESSAGE as the one line on stderr."""
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual(proc.stderr, f"lumen-cli: {message}\n", lt.describe(proc))

    def assertUsage(self, proc, message):
        """Exit 2: MESSAGE, then the line pointing to --help."""
        self.assertEqual(proc.returncode, 2, lt.describe(proc))
        self.assertEqual(proc.stdout, "")
        self.assertEqual(proc.stderr, f"lumen-cli: {message}\n{TRY_HELP}\n", lt.describe(proc))

    def run_in(self, cwd, args):
        """lumen-cli ARGS run from the folder CWD (lt.run runs from the test's own)."""
        env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
        return subprocess.run([lt.lumen_cli()] + args, capture_output=True, text=True, cwd=cwd,
                              env=env, timeout=600)


class Help(UsageTest):
    def test_help_lists_every_command(self):
        """--help has a line per command, with what it does; the default is marked."""
        proc = lt.run_ok(self, ["--help"])
        lines = {}
        for line in proc.stdout.splitlines():
            m = re.match(r"^\s+lumen-cli (\[process\]|compare|hdr|batch|detect|detect-objects|tags|thumbnails|presets)\s.*?\s{2,}(\S.*)$", line)
            if m:
                lines[m.group(1).strip("[]")] = m.group(2)
        lt.say(proc.stdout)
        self.assertEqual(sorted(lines), sorted(COMMANDS), "--help must list every command")
        self.assertIn("default", lines["process"])
        for name, description in lines.items():
            self.assertGreaterEqual(len(description.split()), 4, f"{name}: no real description")
        self.assertIn("lumen-cli COMMAND --help", proc.stdout)


class UnknownCommand(UsageTest):
    MESSAGE = "unknown command “{}” (the commands: process, compare, hdr, batch, detect, detect-objects, tags, thumbnails, presets)"

    def test_unknown_command(self):
        out = self.path("out.png")
        for args in (["frobnicate"], ["frobnicate", "-o", out, PHOTO],
                     ["hrd", "-o", self.path("out.hdr"), *stack("forest")[:2]]):
            with self.subTest(args=args[:2]):
                proc = lt.run(args)
                self.assertUsage(proc, self.MESSAGE.format(args[0]))
                self.assertEqual(os.listdir(self.dir), [], "nothing may be written")

    def test_photo_first_still_works(self):
        """A photo as the first word is processed: an existing file (with or without an
        image extension), and `process` named explicitly."""
        lt.run_ok(self, [PHOTO, "-o", self.path("a.png")])
        lt.run_ok(self, ["process", "-o", self.path("b.png"), PHOTO])
        with open(PHOTO, "rb") as src, open(self.path("snapshot"), "wb") as dst:
            dst.write(src.read())
        proc = self.run_in(self.dir, ["snapshot", "-o", "c.png"])
        self.assertEqual((proc.returncode, proc.stderr), (0, ""), lt.describe(proc))
        self.assertEqual(lt.diff(lt.imread(self.path("a.png")), lt.imread(self.path("c.png")))[0], 0)

    def test_missing_photo_is_not_a_command(self):
        """A missing file with an image extension is a missing file, not a command."""
        proc = self.run_in(self.dir, ["photo.jpg", "-o", "out.png"])
        self.assertError(proc, "photo.jpg: no such file")


class OutputExtensions(UsageTest):
    def test_photo_commands_list_photo_formats(self):
        """The operations and compare's heatmap write 8-bit files: a .gif is answered with
        those, a .hdr is refused before any work with the same list."""
        for name in ("x.gif", "x.hdr", "x.EXR"):
            out = self.path(name)
            want = (f"{out}: unknown output format; use a name ending in {PHOTO_EXTS}"
                    if name.endswith(".gif") else
                    f"{out}: .hdr and .exr hold HDR radiance, which lumen-cli hdr writes; use a "
                    f"name ending in {PHOTO_EXTS}")
            with self.subTest(command="process", output=name):
                self.assertError(lt.run(["--blur", "1", "-o", out, PHOTO]), want)
            with self.subTest(command="compare", output=name):
                proc = lt.run(["compare", "--backends", "cpu,cpu", "--heatmap", out, PHOTO])
                self.assertError(proc, want)
            self.assertEqual(os.listdir(self.dir), [], "nothing may be written")

    def test_hdr_lists_radiance_formats(self):
        out = self.path("x.gif")
        exts = (".png, .jpg, .jpeg, .tif, .tiff, .hdr or .exr" if build_has_openexr()
                else ".png, .jpg, .jpeg, .tif, .tiff or .hdr")
        proc = lt.run(["hdr", "--method", "mertens", "-o", out, *stack("sunset-handheld")])
        self.assertError(proc, f"{out}: unknown output format; use a name ending in {exts}")
        self.assertEqual(os.listdir(self.dir), [])


class Hdr(UsageTest):
    def test_one_exposure_is_a_usage_error(self):
        one = stack("forest")[0]
        for method in ("debevec", "mertens"):
            with self.subTest(method=method):
                proc = lt.run(["hdr", "--method", method, "-o", self.path("out.png"), one])
                self.assertUsage(proc, "an HDR merge needs at least two exposures; one was given")
                self.assertEqual(os.listdir(self.dir), [])

    def test_no_exif_times_points_to_the_flags(self):
        """The courtyard's PNGs carry no EXIF: the message names the first file without a
        time and the two flags that give times; given them, the merge runs."""
        files = stack("courtyard")
        out = self.path("out.hdr")
        proc = lt.run(["hdr", "-o", out, *files])
        self.assertError(proc, f"no exposure time given: {files[0]}: has no EXIF data to read the "
                               "exposure time from; give the times with --times T1,T2,… or "
                               "--exposures FILE")
        self.assertFalse(os.path.exists(out))
        lt.run_ok(self, ["hdr", "--exposures", os.path.join(HDR, "courtyard", "exposures.txt"),
                         "-o", out])
        self.assertTrue(os.path.exists(out))


class Batch(UsageTest):
    WANT = ("{}: holds no stacks: an INPUT is a folder of stack folders, each with 2 or more "
            "exposures (and optionally exposures.txt), or a manifest .tsv of "
            "stack_id<TAB>image<TAB>seconds lines")

    def test_input_without_stacks(self):
        """An empty folder, a stack folder given for its parent, a manifest of comments only:
        exit 1 naming the input, and OUTDIR untouched (no journal)."""
        empty = self.path("empty")
        os.mkdir(empty)
        manifest = self.path("stacks.tsv")
        with open(manifest, "w") as f:
            f.write("# stack_id\timage\tseconds\n")
        outdir = self.path("out")
        for name, inputs in (("empty folder", [empty]),
                             ("a stack folder", [os.path.join(HDR, "forest")]),
                             ("empty manifest", [manifest]),
                             ("one of two", [HDR, empty])):
            with self.subTest(input=name):
                proc = lt.run(["batch", "--progress", "none", "-o", outdir, *inputs])
                self.assertError(proc, self.WANT.format(inputs[-1]))
                self.assertFalse(os.path.exists(outdir), "OUTDIR was created")
        existing = self.path("existing")
        os.mkdir(existing)
        self.assertError(lt.run(["batch", "-o", existing, empty]), self.WANT.format(empty))
        self.assertEqual(os.listdir(existing), [], "something was written in OUTDIR")


class TimingsOnTheCpu(UsageTest):
    """On the CPU the work memory is the host's: no upload or download line."""

    def test_process(self):
        proc = lt.run_ok(self, ["--backend", "cpu", "--timings", "--blur", "1", "-o",
                                self.path("t.png"), PHOTO])
        # "rename": the output put in place; "other": what of the command's time no line names,
        # so that the lines add up to it.
        self.assertEqual(timing_labels(proc.stdout), ["load", "blur", "save", "rename", "other", "total"], proc.stdout)

    def test_compare(self):
        proc = lt.run_ok(self, ["compare", "--backends", "cpu,cpu", "--blur", "1", PHOTO])
        self.assertEqual(timing_labels(proc.stdout), ["blur", "total"] * 2, proc.stdout)
        self.assertRegex(proc.stdout, r"(?m)^speedup of cpu over cpu: [0-9.]+× on the operations$")

    def test_hdr(self):
        proc = lt.run_ok(self, ["hdr", "--backend", "cpu", "--method", "mertens", "--timings",
                                "-o", self.path("t.png"), *stack("sunset-handheld")])
        self.assertEqual(timing_labels(proc.stdout), ["start-up", "load", "fuse", "tonemap", "save",
                                                      "total"], proc.stdout)

    def test_cuda_keeps_transfers(self):
        """Where CUDA runs, its upload and download are still shown."""
        if not (lt.has_gpu() and lt.build_has_cuda()):
            self.skipTest("no usable CUDA device in this build and machine")
        proc = lt.run_ok(self, ["--backend", "cuda", "--timings", "--blur", "1", "-o",
                                self.path("t.png"), PHOTO])
        self.assertEqual(timing_labels(proc.stdout),
                         ["load", "upload", "blur", "download", "save", "rename", "other", "total"], proc.stdout)


if __name__ == "__main__":
    unittest.main(verbosity=2)
