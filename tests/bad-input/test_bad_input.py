"""lumen-cli on files it must refuse, and outputs it cannot write.

For every case the contract is the same: exit status exactly 1 (not a crash: a negative status
is a signal), exactly one line on stderr that names the file at fault and states the cause in
words, no output file created, an output that already existed left byte-identical (same inode,
same bytes), and no temporary file (".lumen-tmp-") left in the output's folder.

Tests run as root in CI, where permission bits do not stop a write; the unwritable outputs
here are therefore paths whose folder is missing or is a regular file.
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

# Causes, in words a user understands (case-insensitive).
EMPTY = r"empty"
TRUNCATED = r"truncat|ends early|incomplete"
TEXT = r"text file"
MISSING = r"no such file|does not exist"
FOLDER = r"folder|directory"
TOO_LARGE = r"larger|too large|too big"
NOT_AN_IMAGE = r"not an image|not a (valid )?jpeg|unknown (image )?format|unrecogni[sz]ed"
DAMAGED = r"damaged|corrupt|invalid|truncat|ends early"
# Debian's rawtran-doc: a Canon EOS 30D raw file (GPL-3+), cut at test time, never committed.
CR2 = "/usr/share/doc/rawtran/IMG_5952.CR2"


def real_photo(ext, want_sof=None):
    """A photo of the shared data ending in EXT (for JPEGs, optionally of frame type
    WANT_SOF: 0xC0 baseline, 0xC2 progressive); the smallest such, to keep runs quick."""
    found = []
    for p in lt.photos(ext):
        if want_sof is not None and lt.jpeg_sof(lt.read_bytes(p)) != want_sof:
            continue
        found.append(p)
    if not found:
        raise unittest.SkipTest(f"no {ext} photo{' of that kind' if want_sof else ''} in the data")
    return min(found, key=os.path.getsize)


def radiance_rle(width, height):
    """A valid Radiance .hdr of WIDTH × HEIGHT (8..32767 wide), every scanline run-length
    encoded with one literal per channel, so that a cut anywhere lands inside a run."""
    body = bytearray()
    for y in range(height):
        body += bytes([2, 2, width >> 8, width & 0xFF])
        for c in range(4):
            body.append(width)  # a literal of WIDTH bytes (WIDTH <= 128 here)
            body += bytes(128 + (x * 5 + y + c * 11) % 120 for x in range(width))
    header = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (height, width)
    return header + bytes(body)


class BadInput(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-bad-")
        self.dir = self._tmp.name
        self.outdir = os.path.join(self.dir, "out")
        os.mkdir(self.outdir)

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, data):
        path = os.path.join(self.dir, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def run_refused(self, in_path, out_path, named, cause):
        """Runs lumen-cli -o OUT_PATH IN_PATH and checks the one-line refusal; returns it."""
        proc = lt.run(["-o", out_path, in_path], timeout=120)
        lt.say(f"  exit {proc.returncode}: {proc.stderr.strip()}")
        self.assertGreaterEqual(proc.returncode, 0,
                                f"lumen-cli crashed (signal {-proc.returncode})")
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual(proc.stdout, "", "nothing belongs on stdout when the run fails")
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, f"want exactly one line on stderr, got {proc.stderr!r}")
        line = lines[0]
        self.assertIn(named, line, "the message must name the file at fault")
        # The cause is stated after the file name ("lumen-cli: FILE: cause").
        after = line.split(named, 1)[1]
        self.assertRegex(after, re.compile(cause, re.I), "the message must say why")
        for folder in {self.outdir, os.path.dirname(os.path.abspath(out_path))}:
            if os.path.isdir(folder):
                self.assertEqual(lt.leftovers(folder), [], "temporary file left behind")
        return line

    def refuse_input(self, in_path, cause):
        """A bad input: refused with no output created, and an existing output untouched."""
        out = os.path.join(self.outdir, "out.png")
        self.run_refused(in_path, out, in_path, cause)
        self.assertFalse(os.path.lexists(out), "an output was created for a refused input")
        self.assertEqual(os.listdir(self.outdir), [])

        # Again over an existing output: it must keep its bytes and its inode.
        shutil.copyfile(lt.photos(".png")[0], out)
        before, ino = lt.read_bytes(out), os.stat(out).st_ino
        self.run_refused(in_path, out, in_path, cause)
        self.assertEqual(lt.read_bytes(out), before, "the existing output was changed")
        self.assertEqual(os.stat(out).st_ino, ino, "the existing output was replaced")
        self.assertEqual(os.listdir(self.outdir), ["out.png"])

    # --- inputs -------------------------------------------------------------------------
    def test_zero_byte_file(self):
        self.refuse_input(self.write("empty.png", b""), EMPTY)

    def test_truncated_jpeg(self):
        """The first half of a real (baseline) JPEG: the pixel data ends early. libjpeg only
        warns about that and would paint the rest gray; Lumen must refuse it."""
        data = lt.read_bytes(real_photo(".jpg", 0xC0))
        self.refuse_input(self.write("half.jpg", data[:len(data) // 2]), TRUNCATED)

    def test_truncated_progressive_jpeg(self):
        """The same for a progressive JPEG, where libjpeg reads all scans before the first
        row comes out."""
        data = lt.read_bytes(real_photo(".jpg", 0xC2))
        self.refuse_input(self.write("half-progressive.jpg", data[:len(data) // 2]), TRUNCATED)

    def test_truncated_png(self):
        data = lt.read_bytes(real_photo(".png"))
        self.refuse_input(self.write("half.png", data[:len(data) // 2]), TRUNCATED)

    def test_text_file_named_png(self):
        self.refuse_input(self.write("notes.png", b"Shopping list:\n- milk\n- film, 36 exposures\n"),
                          TEXT)

    def test_missing_path(self):
        self.refuse_input(os.path.join(self.dir, "no-such-photo.jpg"), MISSING)

    def test_folder_as_input(self):
        folder = os.path.join(self.dir, "holiday.jpg")
        os.mkdir(folder)
        self.refuse_input(folder, FOLDER)

    def test_png_claiming_100000_square(self):
        """A real PNG whose IHDR (with a correct CRC) claims 100000×100000 pixels: refused
        for its size before any decoder allocates 40 GB for it."""
        forged = lt.png_with_size(lt.read_bytes(real_photo(".png")), 100000, 100000)
        self.refuse_input(self.write("huge.png", forged), TOO_LARGE)

    def test_random_bytes_named_jpg(self):
        rng = random.Random(20240601)  # fixed: the same bytes on every run
        data = bytes(rng.randrange(256) for _ in range(64 * 1024))
        # Not by chance the magic of a format Lumen reads (and not text): then it is noise.
        self.assertNotEqual(data[:2], b"\xff\xd8")
        self.refuse_input(self.write("noise.jpg", data), NOT_AN_IMAGE)

    def test_jpeg_header_then_garbage(self):
        """A real JPEG's start of image and first segment (JFIF), then noise: libjpeg stops
        on a nonsense marker; the message must still say the file is damaged, not only
        libjpeg's internal wording ("Unsupported marker type 0x8e")."""
        photo = lt.read_bytes(real_photo(".jpg", 0xC0))
        first = next(lt.jpeg_segments(photo))  # APP0 (JFIF) of a real photo
        header = photo[:first[1] + 4 + len(first[2])]
        rng = random.Random(7)
        garbage = bytes(rng.randrange(256) for _ in range(64 * 1024))
        self.refuse_input(self.write("garbage.jpg", header + garbage), DAMAGED)

    def test_jpeg_tables_then_garbage(self):
        """Every header segment of a real JPEG up to its scan (tables, frame, Huffman codes),
        then noise as entropy-coded data: a decoder can run on it, so only its warnings tell
        that the pixels are not there."""
        photo = lt.read_bytes(real_photo(".jpg", 0xC0))
        segs = list(lt.jpeg_segments(photo))
        end = segs[-1][1] + 4 + len(segs[-1][2])  # the start of the SOS marker
        n = int.from_bytes(photo[end + 2:end + 4], "big")
        header = photo[:end + 2 + n]  # through the SOS segment
        rng = random.Random(11)
        garbage = bytes(rng.randrange(256) for _ in range(64 * 1024)).replace(b"\xff", b"\x00")
        self.refuse_input(self.write("noise-scan.jpg", header + garbage), DAMAGED)

    def test_truncated_radiance(self):
        """Half of a run-length encoded .hdr: stb_image's loader read a count of 0 for ever at
        the end of such a file; the subprocess timeout turns a hang into a failure."""
        data = radiance_rle(64, 32)
        self.refuse_input(self.write("half.hdr", data[:len(data) // 2]), TRUNCATED)

    def test_radiance_zero_run(self):
        data = bytearray(radiance_rle(64, 32))
        data[data.index(b"\n-Y ") + len(b"\n-Y 32 +X 64\n") + 4] = 0  # row 1's first count
        self.refuse_input(self.write("zero-run.hdr", bytes(data)), DAMAGED)

    def test_radiance_claiming_13000_square(self):
        """53 bytes declaring 13000×13000 pixels: refused before 2.7 GB are allocated."""
        data = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 13000 +X 13000\n"
        self.refuse_input(self.write("huge.hdr", data), TRUNCATED)

    def test_truncated_radiance_as_exposure(self):
        """lumen-cli hdr reading a truncated .hdr among its inputs: the same one-line refusal."""
        data = radiance_rle(64, 32)
        bad = self.write("cut.hdr", data[:len(data) // 2])
        out = os.path.join(self.outdir, "merged.hdr")
        proc = lt.run(["hdr", "--times", "1,2", "-o", out, bad, bad], timeout=20)
        lt.say(f"  exit {proc.returncode}: {proc.stderr.strip()}")
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, f"want exactly one line on stderr, got {proc.stderr!r}")
        self.assertIn(bad, lines[0], "the message must name the file at fault")
        self.assertRegex(lines[0].split(bad, 1)[1], re.compile(TRUNCATED, re.I))
        self.assertEqual(os.listdir(self.outdir), [])

    # --- camera raw files (core/io/raw.c) ------------------------------------------------
    def real_cr2(self):
        if not os.path.exists(CR2):
            self.skipTest(f"{CR2} is missing (make test-deps installs rawtran-doc)")
        return lt.read_bytes(CR2)

    def test_truncated_cr2(self):
        """The first half of a real CR2: LibRaw opens it and its lossless JPEG ends early."""
        data = self.real_cr2()
        self.refuse_input(self.write("half.cr2", data[:len(data) // 2]), TRUNCATED)

    def test_empty_dng(self):
        self.refuse_input(self.write("empty.dng", b""), EMPTY)

    def test_fifo_named_cr2(self):
        """A fifo is refused by name, not opened (a reader would block for ever on it)."""
        fifo = os.path.join(self.dir, "IMG_0001.CR2")
        os.mkfifo(fifo)
        self.refuse_input(fifo, r"not a regular file|fifo|pipe")

    def test_folder_named_nef(self):
        folder = os.path.join(self.dir, "DSC_0001.NEF")
        os.mkdir(folder)
        self.refuse_input(folder, FOLDER)

    def test_cr2_exposure_times(self):
        """A bracket of raws gets its exposure times from the raws (LibRaw), not libexif, which
        reads no TIFF-structured raw: two copies of one CR2 are refused for having the same
        time, 1/400 s, and a truncated one among them for being truncated (first: a whole raw
        is refused as a raw bracket, which this version does not merge)."""
        data = self.real_cr2()
        a, b = self.write("a.cr2", data), self.write("b.cr2", data)
        out = os.path.join(self.outdir, "merged.hdr")
        proc = lt.run(["hdr", "-o", out, a, b], timeout=60)
        lt.say(f"  exit {proc.returncode}: {proc.stderr.strip()}")
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        self.assertEqual(len(proc.stderr.splitlines()), 1, proc.stderr)
        self.assertRegex(proc.stderr, r"same exposure time \(0\.0025 s\)")
        cut = self.write("cut.cr2", data[:len(data) // 2])
        proc = lt.run(["hdr", "--times", "0.01,0.1", "-o", out, cut, a], timeout=60)
        lt.say(f"  exit {proc.returncode}: {proc.stderr.strip()}")
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(cut, lines[0])
        self.assertRegex(lines[0].split(cut, 1)[1], re.compile(TRUNCATED, re.I))
        self.assertEqual(os.listdir(self.outdir), [])

    # --- outputs ------------------------------------------------------------------------
    def test_output_folder_missing(self):
        photo = real_photo(".png")
        out = os.path.join(self.dir, "no-such-folder", "out.png")
        self.run_refused(photo, out, out, r"does not exist|no such (file or )?(folder|directory)")
        self.assertFalse(os.path.lexists(os.path.dirname(out)), "the folder was created")

    def test_output_under_regular_file(self):
        photo = real_photo(".png")
        blocker = self.write("notes.txt", b"a regular file, not a folder\n")
        out = os.path.join(blocker, "out.png")
        self.run_refused(photo, out, out, r"not a (folder|directory)|does not exist|is a file")
        self.assertEqual(lt.read_bytes(blocker), b"a regular file, not a folder\n")
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_output_on_full_disk(self):
        """Every format written to a full disk says so: "No space left on device". TIFF said
        "Maximum TIFF file size exceeded" (libtiff's reading of a seek that failed to write
        out the buffer). Needs a small tmpfs, as root in CI; skipped where none can be mounted."""
        mnt = os.path.join(self.dir, "full")
        os.mkdir(mnt)
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt], capture_output=True,
                               text=True)
        if mount.returncode != 0:
            self.skipTest(f"cannot mount a small tmpfs to fill: {mount.stderr.strip()}")
        try:
            fd = os.open(os.path.join(mnt, "filler"), os.O_WRONLY | os.O_CREAT)
            try:
                while os.write(fd, bytes(65536)) > 0:
                    pass
            except OSError:
                pass  # ENOSPC: the disk is full
            finally:
                os.close(fd)
            photo = real_photo(".tif")
            for ext in (".tif", ".png", ".jpg"):
                with self.subTest(ext=ext):
                    out = os.path.join(mnt, "out" + ext)
                    self.run_refused(photo, out, out, r"no space left on device")
                    self.assertFalse(os.path.lexists(out))
        finally:
            subprocess.run(["umount", mnt], check=False)

    def test_output_is_a_folder(self):
        photo = real_photo(".png")
        out = os.path.join(self.outdir, "taken.png")
        os.mkdir(out)
        self.run_refused(photo, out, out, FOLDER)
        self.assertTrue(os.path.isdir(out))
        self.assertEqual(os.listdir(out), [])


# --- whole files and outputs that are not regular files -----------------------------------
import stat  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402


def exposures(folder, n=2):
    """N small exposures of one synthetic scene (PNG, 64 × 48, each twice as bright)."""
    rng = np.random.default_rng(5)
    scene = rng.uniform(0.02, 0.4, (48, 64, 3))
    paths = []
    for i in range(n):
        path = os.path.join(folder, f"e{i + 1}.png")
        cv2.imwrite(path, np.clip(scene * 2 ** i * 255, 0, 255).astype(np.uint8))
        paths.append(path)
    return paths


NOT_REGULAR = r"not a regular file"


class WholeFiles(unittest.TestCase):
    """Every file Lumen reads whole goes through one reader (core/io/file-read.c) that takes
    regular files only, within a bound: an exposure of hdr or of a batch's stack, a batch's
    manifest, --params and --exposures that are /dev/zero, a fifo with no writer or a sparse
    file of 1 TB are refused at once (well within two seconds, in a few MB) by a line naming
    the file and the cause, exit 1 (a batch's manifest too: bad input, as a damaged one is).
    The batch read /dev/zero until memory ran out (7 GB in 10 s) and waited for ever on a
    fifo; a 1 TB exposure or manifest was "not an image" or "could not allocate 1099511627777
    bytes"."""

    KINDS = ("dev-zero", "fifo", "sparse-1tb")

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-whole-")
        self.dir = self._tmp.name
        self.good = exposures(self.dir)

    def tearDown(self):
        self._tmp.cleanup()

    def hostile(self, kind, path):
        """PATH made a link to /dev/zero (reading it is harmless), a fifo, or a 1 TB hole."""
        if kind == "dev-zero":
            os.symlink("/dev/zero", path)
        elif kind == "fifo":
            os.mkfifo(path)
        else:
            with open(path, "wb") as f:
                try:
                    f.truncate(1 << 40)
                except OSError as e:
                    self.skipTest(f"this file system holds no sparse file of 1 TB: {e}")
        return path

    @staticmethod
    def cause(kind):
        return NOT_REGULAR if kind != "sparse-1tb" else TOO_LARGE

    def assert_at_once(self, seconds, peak_mb):
        self.assertLess(seconds, 2.5, "not refused at once")
        self.assertLess(peak_mb, 400, "memory taken by a file that was to be refused")

    def refused(self, args, named, cause, status=1, lines=1):
        rc, err, seconds, peak_mb = lt.run_guarded(args)
        lt.say(f"  exit {rc} in {seconds:.2f} s, {peak_mb:.0f} MB: {err.strip()[:160]}")
        self.assertGreaterEqual(rc, 0, f"lumen-cli was killed (signal {-rc}): {err}")
        self.assertEqual(rc, status, err)
        self.assert_at_once(seconds, peak_mb)
        self.assertEqual(len(err.splitlines()), lines, err)
        first = err.splitlines()[0]
        self.assertIn(named, first, "the message must name the file")
        self.assertRegex(first.split(named, 1)[1], re.compile(cause, re.I))
        return err

    def test_hdr_exposure(self):
        for kind in self.KINDS:
            with self.subTest(kind=kind):
                bad = self.hostile(kind, os.path.join(self.dir, f"{kind}.png"))
                out = os.path.join(self.dir, "out.hdr")
                self.refused(["hdr", "--backend", "cpu", "--times", "1,2", "-o", out, self.good[0], bad], bad,
                             self.cause(kind))
                self.assertFalse(os.path.lexists(out))

    def test_text_inputs(self):
        """--params and --exposures (the text reader was bounded already: these hold it so)."""
        for kind in self.KINDS:
            with self.subTest(kind=kind):
                params = self.hostile(kind, os.path.join(self.dir, f"{kind}.lumen"))
                out = os.path.join(self.dir, "out.png")
                self.refused(["--backend", "cpu", "--params", params, "-o", out, self.good[0]], params,
                             self.cause(kind))
                listed = self.hostile(kind, os.path.join(self.dir, f"{kind}.txt"))
                self.refused(["hdr", "--backend", "cpu", "--exposures", listed, "-o", out], listed,
                             self.cause(kind))
                self.assertFalse(os.path.lexists(out))

    def test_batch_exposure(self):
        """The stack fails alone, its line in failed.tsv naming the exposure and the cause; the
        batch exits 1 at once."""
        for kind in self.KINDS:
            with self.subTest(kind=kind):
                root = os.path.join(self.dir, f"stacks-{kind}")
                stack = os.path.join(root, "s1")
                os.makedirs(stack)
                shutil.copyfile(self.good[0], os.path.join(stack, "e1.png"))
                bad = self.hostile(kind, os.path.join(stack, "e2.png"))
                with open(os.path.join(stack, "exposures.txt"), "w") as f:
                    f.write("e1.png 1\ne2.png 2\n")
                out = os.path.join(self.dir, f"out-{kind}")
                rc, err, seconds, peak_mb = lt.run_guarded(["batch", "--backend", "cpu", "--progress", "none", "-o",
                                                         out, root])
                lt.say(f"  exit {rc} in {seconds:.2f} s, {peak_mb:.0f} MB")
                self.assertEqual(rc, 1, err)
                self.assert_at_once(seconds, peak_mb)
                with open(os.path.join(out, "failed.tsv")) as f:
                    failed = f.read().splitlines()
                self.assertEqual(len(failed), 1, failed)
                sid, message = failed[0].split("\t", 1)
                self.assertEqual(sid, "s1")
                self.assertIn(bad, message)
                self.assertRegex(message.split(bad, 1)[1], re.compile(self.cause(kind), re.I))
                self.assertFalse(os.path.exists(os.path.join(out, "s1.hdr")))

    def test_batch_manifest(self):
        """A manifest that cannot be read is bad input (exit 1), as one that is not a list of
        stacks; only an INPUT that names nothing usable is a usage error."""
        for kind in self.KINDS:
            with self.subTest(kind=kind):
                manifest = self.hostile(kind, os.path.join(self.dir, f"{kind}.tsv"))
                out = os.path.join(self.dir, f"out-{kind}")
                self.refused(["batch", "--backend", "cpu", "--progress", "none", "-o", out, manifest], manifest,
                             self.cause(kind))


class OutputsNotReplaced(unittest.TestCase):
    """Outputs that are not regular files are refused by name before any work, and stay what
    they were: the rename made /dev/null a regular file (--params-out /dev/null as root), and
    /dev/full too through a link to it (-o link.png). The nodes here are the tests' own (mkfifo,
    and /dev/full's numbers under a name of the test's): where the defect is back, it replaces
    them, not the machine's. And a command's outputs are committed together or not at all."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-nodes-")
        self.dir = self._tmp.name
        self.good = exposures(self.dir)

    def tearDown(self):
        self._tmp.cleanup()

    def nodes(self, ext):
        """{name: the check that it is still what it was}: a fifo, a link to it, and where nodes
        can be made (root) a character device and a link to it."""
        made = {f"fifo{ext}": stat.S_ISFIFO, f"to-fifo{ext}": stat.S_ISLNK}
        os.mkfifo(os.path.join(self.dir, f"fifo{ext}"))
        os.symlink(f"fifo{ext}", os.path.join(self.dir, f"to-fifo{ext}"))
        try:
            os.mknod(os.path.join(self.dir, f"full{ext}"), 0o600 | stat.S_IFCHR, os.makedev(1, 7))
            os.symlink(os.path.join(self.dir, f"full{ext}"), os.path.join(self.dir, f"to-full{ext}"))
            made.update({f"full{ext}": stat.S_ISCHR, f"to-full{ext}": stat.S_ISLNK})
        except PermissionError:
            lt.say("  not root: no character device of the test's own")
        return made

    def check_refused(self, args, name, is_kind, others=()):
        path = os.path.join(self.dir, name)
        rc, err, _, _ = lt.run_guarded(args)
        self.assertEqual(rc, 1, err)
        self.assertRegex(err, r"^lumen-cli: [^\n]*" + re.escape(name) + r": cannot write: [^\n]*"
                         + NOT_REGULAR + r"\n$")
        self.assertTrue(is_kind(os.lstat(path).st_mode), f"{name} was replaced")
        for other in others:
            self.assertFalse(os.path.lexists(other), f"{other} was written")
        self.assertEqual(lt.leftovers(self.dir), [])

    def test_photo_and_heatmap(self):
        """lumen-cli -o NODE (the issue's -o link.png pointing at /dev/full) and compare
        --heatmap NODE."""
        for name, is_kind in self.nodes(".png").items():
            with self.subTest(node=name):
                node = os.path.join(self.dir, name)
                self.check_refused(["--backend", "cpu", "--blur", "1", "-o", node, self.good[0]], name, is_kind)
                self.check_refused(["compare", "--backends", "cpu,cpu", "--blur", "1", "--heatmap", node,
                                    self.good[0]], name, is_kind)

    def test_hdr_outputs(self):
        """hdr -o NODE and --response-out NODE: neither file is written."""
        image, curve = os.path.join(self.dir, "out.hdr"), os.path.join(self.dir, "curve.txt")
        for name, is_kind in self.nodes(".hdr").items():
            with self.subTest(node=name, flag="-o"):
                node = os.path.join(self.dir, name)
                self.check_refused(["hdr", "--backend", "cpu", "--times", "1,2", "--response-out", curve, "-o", node]
                                   + self.good, name, is_kind, [curve])
            with self.subTest(node=name, flag="--response-out"):
                self.check_refused(["hdr", "--backend", "cpu", "--times", "1,2", "--response-out", node, "-o", image]
                                   + self.good, name, is_kind, [image])

    def test_hdr_together_on_full_disk(self):
        """hdr's image and camera response are committed together: a disk with room for the
        image but not for the response as well leaves neither (the image used to be committed
        before the response failed). Needs a small tmpfs (root, as in CI); skipped where none
        can be mounted."""
        args = ["hdr", "--backend", "cpu", "--times", "1,2"]
        # The two files' sizes, written first where there is room.
        roomy = [os.path.join(self.dir, name) for name in ("out.hdr", "curve.txt")]
        rc, err, _, _ = lt.run_guarded(args + ["--response-out", roomy[1], "-o", roomy[0]] + self.good)
        self.assertEqual(rc, 0, err)
        image_size, curve_size = (os.path.getsize(p) for p in roomy)
        mnt = os.path.join(self.dir, "small")
        os.mkdir(mnt)
        mount = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", mnt], capture_output=True,
                               text=True)
        if mount.returncode != 0:
            self.skipTest(f"cannot mount a small tmpfs to fill: {mount.stderr.strip()}")
        try:
            # Leave the image's pages and one more: less than the response needs on top.
            page = os.statvfs(mnt).f_frsize
            pages = lambda n: -(-n // page)  # noqa: E731
            self.assertGreater(pages(curve_size), 1, "the response must need more than the page left over")
            free = os.statvfs(mnt).f_bavail * page
            with open(os.path.join(mnt, "filler"), "wb") as f:
                f.write(bytes(free - (pages(image_size) + 1) * page))
            image, curve = os.path.join(mnt, "out.hdr"), os.path.join(mnt, "curve.txt")
            rc, err, _, _ = lt.run_guarded(args + ["--response-out", curve, "-o", image] + self.good)
            self.assertEqual(rc, 1, err)
            self.assertRegex(err, r"^lumen-cli: [^\n]*: [^\n]*(?i:no space left on device)\n$")
            self.assertEqual(os.listdir(mnt), ["filler"], "one file was committed without the other")
        finally:
            subprocess.run(["umount", mnt], check=False)


# --- FITS (issue 28): data cut short, decompression bombs, hostile shapes, blank data -----
import zlib  # noqa: E402


def fits_image(pixels):
    """A FITS file of the 2-D float32 array PIXELS (rows as FITS stores them, first row first)."""
    h, w = pixels.shape
    data = pixels.astype(">f4").tobytes()
    return lt.fits_header(("SIMPLE", True), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", w), ("NAXIS2", h)) + \
        data + bytes(-len(data) % 2880)


# Runs ARGV[1:] and prints its exit status and peak resident memory (KB). Linux counts a
# child's memory before its exec too: a child forked from this test process (numpy, earlier
# cases) would report this process's size, so the measuring parent is a bare interpreter.
PEAK_PROGRAM = ("import os, sys\n"
                "pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ)\n"
                "_, status, usage = os.wait4(pid, 0)\n"
                "print(os.waitstatus_to_exitcode(status), usage.ru_maxrss)\n")


def run_peak(args, env, timeout):
    """lumen-cli ARGS with ENV added: (exit status, stderr, peak resident memory in MB)."""
    environ = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", **env)
    proc = subprocess.run([sys.executable, "-S", "-c", PEAK_PROGRAM, lt.lumen_cli()] + [str(a) for a in args],
                          capture_output=True, text=True, timeout=timeout, env=environ, errors="replace")
    rc, kb = proc.stdout.split()
    return int(rc), proc.stderr, int(kb) / 1024


class HostileFits(unittest.TestCase):
    """FITS files that lie about their data or take a shape that was costly: refused with the
    one-line contract above (or, for the shapes, done in time). Before the header walker
    (core/io/fits-extent.c), a FITS file in memory whose data was cut short was read past
    its end by cfitsio: a crash, or garbage pixels, in lumen-cli -o, hdr and batch."""

    write = BadInput.write
    run_refused = BadInput.run_refused
    refuse_input = BadInput.refuse_input

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-bad-fits-")
        self.dir = self._tmp.name
        self.outdir = os.path.join(self.dir, "out")
        os.mkdir(self.outdir)

    def tearDown(self):
        self._tmp.cleanup()

    def cut_files(self):
        """Name → bytes: half the data; 2,400 bytes of it missing; an extension header with
        no data after it; a 600-megapixel header with nothing after it."""
        rng = np.random.default_rng(28)
        whole = fits_image(rng.normal(size=(200, 300)).astype(np.float32))
        small = fits_image(rng.normal(size=(32, 40)).astype(np.float32))
        primary = lt.fits_header(("SIMPLE", True), ("BITPIX", 8), ("NAXIS", 0), ("EXTEND", True))
        extension = lt.fits_header(("XTENSION", "IMAGE"), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 100),
                                ("NAXIS2", 100), ("PCOUNT", 0), ("GCOUNT", 1))
        huge = lt.fits_header(("SIMPLE", True), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 30000), ("NAXIS2", 20000))
        return {
            "half.fits": whole[:len(whole) // 2],
            "short-2400.fits": small[:2880 + 32 * 40 * 4 - 2400],
            "extension-no-data.fits": primary + extension,
            "600mp-header.fits": huge,
        }

    def empty_outdir(self):
        shutil.rmtree(self.outdir)
        os.mkdir(self.outdir)

    def test_fits_cut_data(self):
        for name, data in self.cut_files().items():
            with self.subTest(name):
                self.empty_outdir()
                self.refuse_input(self.write(name, data), TRUNCATED)

    def test_fits_cut_named_png(self):
        """Found by its first card, whatever its name."""
        data = self.cut_files()["half.fits"]
        self.refuse_input(self.write("exposure.png", data), TRUNCATED)

    def test_fits_cut_as_exposure(self):
        """lumen-cli hdr reading a cut FITS file among its exposures: the same one-line refusal."""
        for name, data in self.cut_files().items():
            with self.subTest(name):
                self.empty_outdir()
                bad = self.write(name, data)
                out = os.path.join(self.outdir, "merged.hdr")
                proc = lt.run(["hdr", "--times", "1,2", "-o", out, bad, bad], timeout=60)
                lt.say(f"  exit {proc.returncode}: {proc.stderr.strip()}")
                self.assertEqual(proc.returncode, 1, lt.describe(proc))
                lines = proc.stderr.splitlines()
                self.assertEqual(len(lines), 1, f"want exactly one line on stderr, got {proc.stderr!r}")
                self.assertIn(bad, lines[0], "the message must name the file at fault")
                self.assertRegex(lines[0].split(bad, 1)[1], re.compile(TRUNCATED, re.I))
                self.assertEqual(os.listdir(self.outdir), [])

    def test_fits_cube_of_ten_axes(self):
        """Axes beyond the second must all be 1: a 10-axis cube was read as its first plane."""
        data = np.arange(40, dtype=">f4").tobytes()
        axes = [5, 4] + [1] * 7 + [2]
        cards = [("SIMPLE", True), ("BITPIX", -32), ("NAXIS", 10)] + [(f"NAXIS{i + 1}", n) for i, n in enumerate(axes)]
        cube = lt.fits_header(*cards) + data + bytes(-len(data) % 2880)
        self.refuse_input(self.write("cube10.fits", cube), r"cube.*NAXIS10 = 2")

    def test_fits_gzip_bomb(self):
        """A 0.9 MB .fits.gz whose header declares 8000 × 8000 float pixels and whose stream
        inflates to 192 MB: refused as soon as the header is inflated (LUMEN_MAX_PIXELS=1M),
        without inflating the rest; cfitsio inflated all of it into memory first."""
        inflated = 192 << 20
        gz = zlib.compressobj(1, zlib.DEFLATED, 31)
        head = lt.fits_header(("SIMPLE", True), ("BITPIX", -32), ("NAXIS", 2), ("NAXIS1", 8000), ("NAXIS2", 8000))
        body = bytearray(gz.compress(head))
        block = bytes(1 << 20)
        for _ in range((inflated - len(head)) >> 20):
            body += gz.compress(block)
        body += gz.flush()
        bomb = self.write("bomb.fits.gz", bytes(body))
        lt.say(f"  {len(body)} bytes inflating to {inflated >> 20} MB")
        for command in (["detect", "-o", os.path.join(self.outdir, "cat.csv")],
                        ["-o", os.path.join(self.outdir, "out.png")]):
            with self.subTest(command[0]):
                rc, message, peak_mb = run_peak(command + [bomb], {"LUMEN_MAX_PIXELS": "1M"}, timeout=60)
                lt.say(f"  {command[0]}: exit {rc}, {peak_mb:.0f} MB: {message.strip()}")
                self.assertEqual(rc, 1, message)
                self.assertEqual(len(message.splitlines()), 1, message)
                self.assertIn(bomb, message)
                self.assertRegex(message, r"budget")
                self.assertLess(peak_mb, 96, "the stream was inflated beyond its header")
                self.assertEqual(os.listdir(self.outdir), [])

    def test_fits_all_blank_names_the_file(self):
        """Every pixel NaN: detect says so, naming the file."""
        blank = self.write("blank.fits", fits_image(np.full((40, 50), np.nan, np.float32)))
        out = os.path.join(self.outdir, "cat.csv")
        proc = lt.run(["detect", "-o", out, blank], timeout=60)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertIn(blank + ": ", lines[0])
        self.assertRegex(lines[0], r"blank")
        self.assertEqual(os.listdir(self.outdir), [])

    def test_fits_background_of_nan_bands(self):
        """A 2 × 1M image with NaN bands at --mesh 2: 512K mesh boxes, half of them bad. Filling
        each bad box from every good one took minutes (quadratic); the envelope takes well
        under a second. A complexity test, with a generous limit."""
        data = np.random.default_rng(5).normal(100, 5, (2, 1 << 20)).astype(np.float32)
        for k in range(0, 1 << 20, 1 << 14):
            data[:, k:k + (1 << 13)] = np.nan
        image = self.write("bands.fits", fits_image(data))
        rc, message, seconds, _ = lt.run_measured(["detect", "--mesh", "2", "-o", os.path.join(self.outdir, "c.csv"),
                                                   image], max_seconds=60)
        lt.say(f"  exit {rc} in {seconds:.2f} s: {message.strip()}")
        self.assertEqual(rc, 0, message)
        self.assertLess(seconds, 20)


if __name__ == "__main__":
    unittest.main(verbosity=2)
