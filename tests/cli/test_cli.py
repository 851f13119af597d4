"""lumen-cli's command line: help, version, usage errors, backends, timings, output formats,
JPEG quality, EXIF (JPEG and TIFF outputs), --params sidecars and atomic replacement of the output.

Expected values come from OpenCV, from the photos themselves or from the contract (the issue),
never from an earlier run of lumen-cli. Where two lumen-cli runs are compared (a sidecar against
the flags it stands for), the flag run is itself held against OpenCV in the same test.
"""
import os
import re
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import unittest

import cv2
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

COFFEE = os.path.join(lt.photos_dir(), "chelsea.png")  # small colour PNG: fast runs


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def smallest_colour_jpeg():
    """The smallest colour JPEG of the shared photos (non-square is what orientation needs)."""
    best = None
    for p in lt.photos(".jpg"):
        img = lt.imread(p, cv2.IMREAD_UNCHANGED)
        if img.ndim == 3 and img.shape[0] != img.shape[1]:
            if best is None or img.size < best[1]:
                best = (p, img.size)
    if best is None:
        raise unittest.SkipTest("no non-square colour JPEG among the photos")
    return best[0]


def camera_jpeg():
    """A JPEG of the shared photos whose EXIF names the camera (Make and Model in IFD0)."""
    for p in lt.photos(".jpg"):
        tiff = lt.jpeg_exif(lt.read_bytes(p))
        if tiff is None:
            continue
        ifd0 = lt.exif_ifd0(tiff)
        if lt.TAG_MAKE in ifd0 and lt.TAG_MODEL in ifd0:
            return p, ifd0
    raise AssertionError("no camera JPEG with EXIF (Make, Model) among the photos")


TAG_EXIF_IFD, TAG_EXPOSURE_TIME, TAG_DATETIME_ORIGINAL = 0x8769, 0x829A, 0x9003


def exif_sub_ifd(tiff):
    """The EXIF sub-IFD of a TIFF block (a TIFF file is one) as lt.exif_ifd0 reads an IFD,
    and the block's byte order; None when IFD0 has no pointer to it."""
    bo = "<" if tiff[:2] == b"II" else ">"
    (ifd0,) = struct.unpack(bo + "I", tiff[4:8])
    (n,) = struct.unpack(bo + "H", tiff[ifd0:ifd0 + 2])
    for k in range(n):
        # LONG (4) in cameras' EXIF, IFD (13) as libtiff writes it: 4 bytes either way
        tag, _, _, pointer = struct.unpack(bo + "HHII", tiff[ifd0 + 2 + 12 * k:][:12])
        if tag == TAG_EXIF_IFD:
            return lt.exif_ifd0(tiff[:4] + struct.pack(bo + "I", pointer) + tiff[8:]), bo
    return None, bo


def rational(raw, bo):
    num, den = struct.unpack(bo + "II", raw[:8])
    return num / den


class CliTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.dir, name)

    def assertNoLeftovers(self):
        self.assertEqual(lt.leftovers(self.dir), [], "temporary files of the writer left behind")

    def assertOneLineError(self, proc, *names):
        """Exit 1, one line on stderr that starts with lumen-cli: and names each of NAMES."""
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        lines = proc.stderr.splitlines()
        self.assertEqual(len(lines), 1, f"want one line on stderr, got {proc.stderr!r}")
        self.assertTrue(lines[0].startswith("lumen-cli: "), lines[0])
        for name in names:
            self.assertIn(name, lines[0])
        return lines[0]


class HelpAndVersion(CliTest):
    # Every flag of the contract: lumen-cli [--backend auto|cpu|cuda] [--gray MODE]
    # [--gray-amount A] [--equalize MODE] [--equalize-amount A] [--blur SIGMA] [--quality Q]
    # [--timings] -o OUT IN | --help | --version; plus --params FILE.
    FLAGS = ["--backend", "--gray", "--gray-amount", "--equalize", "--equalize-amount", "--blur",
             "--quality", "--timings", "--output", "-o", "--help", "--version", "--params"]

    def test_help(self):
        for flag in ("--help", "-h"):
            with self.subTest(flag=flag):
                proc = lt.run([flag])
                self.assertEqual(proc.returncode, 0, lt.describe(proc))
                self.assertEqual(proc.stderr, "")
                for f in self.FLAGS:
                    self.assertRegex(proc.stdout, r"(^|[\s,])" + re.escape(f) + r"([\s=,]|$)",
                                     f"--help does not list {f}")
                # The values a user has to know.
                for value in ("auto", "cpu", "cuda", "bt601", "luma", "rgb"):
                    self.assertIn(value, proc.stdout, f"--help does not mention {value}")

    def test_version(self):
        # The version the project declares, read from its meson.build.
        root = os.environ.get("LUMEN_SOURCE_ROOT") or os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "..")
        with open(os.path.join(root, "meson.build")) as f:
            m = re.search(r"version\s*:\s*'([^']+)'", f.read())
        self.assertIsNotNone(m, "no version in meson.build")
        proc = lt.run(["--version"])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertEqual(proc.stderr, "")
        self.assertEqual(proc.stdout.strip().splitlines(), [f"lumen-cli {m.group(1)}"])


class UsageErrors(CliTest):
    def test_usage_errors_exit_2(self):
        out = self.path("out.png")
        cases = [
            # (name, arguments, a word the message must contain)
            ("unknown flag", ["--frobnicate", "-o", out, COFFEE], "frobnicate"),
            ("unknown gray mode", ["--gray", "sepia", "-o", out, COFFEE], "sepia"),
            ("unknown equalize mode", ["--equalize", "hsv", "-o", out, COFFEE], "hsv"),
            ("unknown backend", ["--backend", "fpga", "-o", out, COFFEE], "fpga"),
            ("blur out of range", ["--blur", "500", "-o", out, COFFEE], "500"),
            ("blur not a number", ["--blur", "wide", "-o", out, COFFEE], "wide"),
            ("gray amount out of range", ["--gray", "bt601", "--gray-amount", "1.5", "-o", out,
                                          COFFEE], "1.5"),
            ("quality 0", ["--quality", "0", "-o", out, COFFEE], "quality"),
            ("quality 101", ["--quality", "101", "-o", out, COFFEE], "quality"),
            ("missing -o", [COFFEE], "-o"),
            ("two inputs", ["-o", out, COFFEE, COFFEE], "input"),
            ("no input", ["-o", out], "input"),
        ]
        for name, args, word in cases:
            with self.subTest(case=name):
                proc = lt.run(args)
                self.assertEqual(proc.returncode, 2, f"{name}: {lt.describe(proc)}")
                self.assertEqual(proc.stdout, "")
                lines = proc.stderr.splitlines()
                self.assertTrue(lines and lines[0].startswith("lumen-cli: "), proc.stderr)
                self.assertIn(word, lines[0], f"{name}: the message should name {word!r}")
                self.assertFalse(os.path.exists(out), f"{name}: an output was written")
                self.assertNoLeftovers()


class Backends(CliTest):
    def test_backend_cuda(self):
        """Without a usable CUDA device: exit 1 and a one-line reason that says CUDA. With
        one (nvidia-smi lists a GPU, and the build has the CUDA backend): exit 0 and an output
        that holds --gray bt601 within 1 of OpenCV."""
        out = self.path("cuda.png")
        proc = lt.run(["--backend", "cuda", "--gray", "bt601", "-o", out, COFFEE])
        gpu, built = lt.has_gpu(), lt.build_has_cuda()
        lt.say(f"nvidia-smi lists a GPU: {gpu}; build has CUDA: {built}; "
               f"exit {proc.returncode}; stderr {proc.stderr.strip()!r}")
        if gpu and built is not False:
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            got = lt.imread(out)
            want = cv2.cvtColor(lt.imread(COFFEE, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
            mx = lt.diff(got, want)[0]
            lt.say(f"  cuda --gray bt601 vs cvtColor: max |Δ| {mx}")
            self.assertLessEqual(mx, 1)
        else:
            line = self.assertOneLineError(proc)
            self.assertIn("CUDA", line)
            self.assertFalse(os.path.exists(out))
        self.assertNoLeftovers()

    def test_backend_auto_and_cpu(self):
        """auto works on any machine, picks the CPU where no CUDA device is usable (as
        --timings reports), and gives what cpu gives: gray and equalize are bit-identical on
        both backends by contract; both are close to OpenCV."""
        src = lt.imread(COFFEE, cv2.IMREAD_COLOR)
        want = cv2.equalizeHist(cv2.cvtColor(src, cv2.COLOR_BGR2GRAY))
        results = {}
        for backend in ("auto", "cpu"):
            out = self.path(backend + ".png")
            proc = lt.run_ok(self, ["--timings", "--backend", backend, "--gray", "bt601",
                                    "--equalize", "luma", "-o", out, COFFEE])
            m = re.search(r"^backend: (.*)$", proc.stdout, re.M)
            self.assertIsNotNone(m, f"--timings names no backend:\n{proc.stdout}")
            lt.say(f"  --backend {backend}: {m.group(1)}")
            cuda_usable = lt.has_gpu() and lt.build_has_cuda() is not False
            picked = "CUDA" if backend == "auto" and cuda_usable else "CPU"
            self.assertIn(picked, m.group(1).upper())
            results[backend] = lt.imread(out)
        self.assertEqual(lt.diff(results["auto"], results["cpu"])[0], 0)
        # Against OpenCV: Lumen's gray may differ from cvtColor's by 1 on exact halves (the
        # oracle suite measures that), which can move a pixel by one LUT step; so bound the
        # mean here (the bit-exact pipeline check is the oracle suite's test (d)).
        mean = lt.diff(results["cpu"], want)[1]
        lt.say(f"  --gray bt601 --equalize luma vs equalizeHist(cvtColor): mean |Δ| {mean:.4f}")
        self.assertLess(mean, 0.1)


    def test_no_gpu_no_fallback_note(self):
        """Without a GPU a photo the memory cannot hold fails once, in one line. The note
        "…; rendering on the CPU instead" is for a GPU that ran out of memory where the user
        asked for it; here it appeared with --backend auto on the CPU and decoded the photo a
        second time, which failed again (two lines)."""
        if lt.has_gpu() and lt.build_has_cuda() is not False:
            self.skipTest("a GPU is usable: auto renders there")
        ldd = subprocess.run(["ldd", lt.lumen_cli()], capture_output=True, text=True)
        if "libasan" in ldd.stdout:
            self.skipTest("AddressSanitizer reserves more address space than the limit this test sets")
        # 12000 × 12000 RGBA is 549 MiB: more than the 400 MiB of address space allowed, well
        # within any machine's pixel budget (which LUMEN_MAX_PIXELS lifts besides).
        big = self.path("big.png")
        with open(big, "wb") as f:
            f.write(lt.png_with_size(lt.read_bytes(COFFEE), 12000, 12000))
        limit = 400 << 20
        env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", LUMEN_MAX_PIXELS="4G")
        out = self.path("out.png")
        for backend in ("auto", "cpu"):
            with self.subTest(backend=backend):
                proc = subprocess.run([lt.lumen_cli(), "--backend", backend, "-o", out, big], capture_output=True,
                                      text=True, env=env, timeout=120,
                                      preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
                line = self.assertOneLineError(proc, big)
                self.assertRegex(line, r"not enough memory|too large")
                self.assertNotIn("note", line)
                self.assertFalse(os.path.exists(out))
        self.assertNoLeftovers()


class Timings(CliTest):
    LABELS = ["load", "upload", "gray", "equalize", "blur", "download", "save", "total"]

    def test_timings(self):
        out = self.path("t.png")
        proc = lt.run_ok(self, ["--timings", "--gray", "bt601", "--equalize", "luma", "--blur",
                                "2", "-o", out, COFFEE])
        lt.say(proc.stdout)
        found, order, _ = self.parse(proc.stdout)
        # Upload and download move pixels only to and from a device: the CPU shares them.
        on_cuda = "CUDA" in re.search(r"^backend: (.*)$", proc.stdout, re.M).group(1).upper()
        labels = [l for l in self.LABELS if on_cuda or l not in ("upload", "download")]
        for label in labels:
            self.assertIn(label, found, f"--timings has no line '{label} N ms':\n{proc.stdout}")
        for label in set(self.LABELS) - set(labels):
            self.assertNotIn(label, found, f"--timings on the CPU shows a transfer:\n{proc.stdout}")
        # In the order the work happens.
        self.assertEqual([l for l in order if l in self.LABELS], labels)
        # The total is the sum of the parts (each printed to 0.01 ms).
        parts = sum(v for k, v in found.items() if k != "total")
        self.assertAlmostEqual(found["total"], parts, delta=0.01 * len(found))
        # The image line states the photo's real size.
        h, w = lt.imread(COFFEE).shape[:2]
        self.assertRegex(proc.stdout, rf"{w}\s*[×x]\s*{h}")

    def parse(self, stdout):
        """The '  label   N ms' lines as {label: ms} and their order, and apart those of work
        done beside another step ('… ms (beside load, …)') as {label: (ms, what it says)}."""
        found, order, beside = {}, [], {}
        for line in stdout.splitlines():
            m = re.match(r"^  (\S.*?)\s+(\d+(?:\.\d+)?) ms(?: \((.*)\))?\s*$", line)
            if m:
                label = m.group(1)
                self.assertNotIn(label, found, f"{label} printed twice")
                if m.group(3):
                    beside[label] = (float(m.group(2)), m.group(3))
                else:
                    found[label] = float(m.group(2))
                    order.append(label)
        return found, order, beside

    def test_timings_add_up(self):
        """What a person waits for: on the CPU the render's outputs are faulted in beside the
        load (a line that says so and is not counted), the other lines add up to the total, and
        the total is at least the steps and the load and save, and at most the process's time."""
        out = self.path("t.png")
        photo = os.path.join(lt.photos_dir(), "forest-path.jpg")
        steps = ["gray", "equalize", "blur"]
        start = time.monotonic()
        proc = lt.run_ok(self, ["--backend", "cpu", "--timings", "--gray", "bt601", "--gray-amount", "0.7",
                                "--equalize", "luma", "--blur", "2", "-o", out, photo])
        process_ms = (time.monotonic() - start) * 1000
        lt.say(proc.stdout)
        found, order, beside = self.parse(proc.stdout)
        self.assertEqual(order, ["load", "pre-fault wait"] + steps + ["save", "rename", "other", "total"], proc.stdout)
        self.assertIn("pre-fault", beside, proc.stdout)
        self.assertIn("beside load", beside["pre-fault"][1])
        self.assertIn("not in the total", beside["pre-fault"][1])
        parts = sum(v for k, v in found.items() if k != "total")
        self.assertAlmostEqual(found["total"], parts, delta=0.01 * len(found))
        self.assertGreaterEqual(found["total"], sum(found[k] for k in steps))
        self.assertGreaterEqual(found["total"], found["load"] + found["save"])
        self.assertLessEqual(found["total"], process_ms)
        # Its pixels are those of the render tile by tile, which takes no pre-faulted buffers
        # (test_cli_tiles holds the tiles to the render in one piece on every geometry).
        tiled = self.path("tiled.png")
        env = dict(os.environ, LUMEN_TILE="301x211")
        subprocess.run([lt.lumen_cli(), "--backend", "cpu", "--gray", "bt601", "--gray-amount", "0.7", "--equalize",
                        "luma", "--blur", "2", "-o", tiled, photo], check=True, env=env, timeout=120)
        self.assertTrue(np.array_equal(lt.imread(out), lt.imread(tiled)))

    def test_no_timings_no_output(self):
        proc = lt.run_ok(self, ["--gray", "bt601", "-o", self.path("t.png"), COFFEE])
        self.assertEqual(proc.stdout, "", "without --timings, lumen-cli prints nothing")


class Formats(CliTest):
    MAGIC = {"png": [b"\x89PNG\r\n\x1a\n"], "jpg": [b"\xff\xd8\xff"], "jpeg": [b"\xff\xd8\xff"],
             "tif": [b"II*\0", b"MM\0*"], "tiff": [b"II*\0", b"MM\0*"]}

    def test_output_formats(self):
        src = lt.imread(COFFEE, cv2.IMREAD_COLOR)
        for ext in ("png", "jpg", "jpeg", "tif", "tiff", "JPG", "PNG"):
            with self.subTest(ext=ext):
                out = self.path("out." + ext)
                lt.run_ok(self, ["-o", out, COFFEE])
                head = lt.read_bytes(out)[:8]
                self.assertTrue(any(head.startswith(m) for m in self.MAGIC[ext.lower()]),
                                f".{ext} written as {head!r}")
                got = lt.imread(out, cv2.IMREAD_UNCHANGED)
                self.assertEqual(got.shape, src.shape, f".{ext}: wrong size or channels")
                if ext.lower() in ("png", "tif", "tiff"):  # lossless
                    self.assertEqual(lt.diff(got, src)[0], 0)
                else:
                    q = psnr(got, src)
                    lt.say(f"  .{ext} at the default quality: PSNR {q:.1f} dB")
                    self.assertGreater(q, 35)
        self.assertNoLeftovers()

    def test_full_gray_is_one_channel(self):
        """A full grayscale of an opaque photo is written as a one-channel file, in every
        format; the values are OpenCV's gray within 1 (plus JPEG's loss)."""
        want = cv2.cvtColor(lt.imread(COFFEE, cv2.IMREAD_COLOR), cv2.COLOR_BGR2GRAY)
        for ext in ("png", "jpg", "tif"):
            with self.subTest(ext=ext):
                out = self.path("gray." + ext)
                lt.run_ok(self, ["--gray", "bt601", "-o", out, COFFEE])
                got = lt.imread(out, cv2.IMREAD_UNCHANGED)
                # Values first, so a failure on the channel count shows the pixels were right.
                values = got if got.ndim == 2 else got[..., 0]
                if ext == "jpg":
                    self.assertGreater(psnr(values, want), 35)
                else:
                    self.assertLessEqual(lt.diff(values, want)[0], 1)
                self.assertEqual(got.ndim, 2, f".{ext}: a full grayscale written with shape "
                                              f"{got.shape}, not as one channel")

    def test_transparency(self):
        """RGBA when the image has transparency, RGB when its alpha is all opaque."""
        bgr = lt.imread(COFFEE, cv2.IMREAD_COLOR)
        h, w = bgr.shape[:2]
        alpha = np.tile(np.linspace(0, 255, w).astype(np.uint8), (h, 1))
        cases = {"transparent": alpha, "opaque": np.full((h, w), 255, np.uint8)}
        for name, a in cases.items():
            with self.subTest(alpha=name):
                src = self.path(name + "-in.png")
                self.assertTrue(cv2.imwrite(src, np.dstack([bgr, a])))
                for ext in ("png", "tif"):
                    out = self.path(f"{name}.{ext}")
                    lt.run_ok(self, ["-o", out, src])
                    got = lt.imread(out, cv2.IMREAD_UNCHANGED)
                    if name == "transparent":
                        self.assertEqual(got.shape, (h, w, 4), f".{ext} lost the alpha")
                        self.assertEqual(lt.diff(got[..., 3], a)[0], 0)
                        want = bgr.astype(np.float64)
                        if ext == "tif":
                            # Lumen's TIFF declares unassociated alpha (ExtraSamples = 2);
                            # OpenCV reads 4-channel TIFFs through libtiff's RGBA interface,
                            # which premultiplies such alpha. Compare with what that gives.
                            want = want * a[..., None] / 255.0
                        d = np.abs(got[..., :3] - want).max()
                        self.assertLessEqual(d, 0.5, f".{ext}: colour changed by {d:.2f}")
                    else:
                        self.assertEqual(got.shape, (h, w, 3), f".{ext}: opaque alpha kept")
                        self.assertEqual(lt.diff(got, bgr)[0], 0)
                # Gray with alpha to keep stays RGBA, each colour channel the gray value.
                out = self.path(name + "-gray.png")
                lt.run_ok(self, ["--gray", "bt601", "-o", out, src])
                got = lt.imread(out, cv2.IMREAD_UNCHANGED)
                want = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
                if name == "transparent":
                    self.assertEqual(got.shape, (h, w, 4))
                    for c in range(3):
                        self.assertLessEqual(lt.diff(got[..., c], want)[0], 1)
                    self.assertEqual(lt.diff(got[..., 3], a)[0], 0)
                else:
                    self.assertEqual(got.shape, (h, w))
                    self.assertLessEqual(lt.diff(got, want)[0], 1)

    def test_unknown_extension(self):
        for name in ("out.xyz", "out.webp", "out"):
            with self.subTest(output=name):
                out = self.path(name)
                proc = lt.run(["-o", out, COFFEE])
                line = self.assertOneLineError(proc, out)
                self.assertRegex(line, r"(?i)format|extension")
                self.assertFalse(os.path.exists(out))
                self.assertNoLeftovers()

    def test_jpeg_quality(self):
        """--quality Q reaches the encoder: the luminance quantization table in the file is
        the standard's Table K.1 scaled for Q (as libjpeg's jpeg_set_quality scales it), and
        a lower quality gives a smaller, less faithful file. (Size alone cannot tell: Lumen
        also turns chroma subsampling off at Q ≥ 90, which changes the size by itself.)"""
        src = lt.imread(COFFEE, cv2.IMREAD_COLOR)
        size, quality = {}, {}
        for q in (10, 50, 80, 95):
            out = self.path(f"q{q}.jpg")
            lt.run_ok(self, ["--quality", str(q), "-o", out, COFFEE])
            data = lt.read_bytes(out)
            size[q] = len(data)
            quality[q] = psnr(lt.imread(out, cv2.IMREAD_COLOR), src)
            lt.say(f"  --quality {q}: {size[q]} bytes, PSNR {quality[q]:.1f} dB")
            self.assertEqual(lt.jpeg_quant_tables(data).get(0), lt.ijg_luma_table(q),
                             f"--quality {q}: the luminance table is not Table K.1 scaled for {q}")
        self.assertLess(size[50], size[95])
        self.assertLess(quality[50], quality[95])
        self.assertLess(size[10], size[50])
        self.assertLess(size[50], size[80])  # both subsampled: quality alone decides


class Exif(CliTest):
    def test_camera_exif_kept(self):
        """A camera JPEG's EXIF reaches the JPEG output: the camera's tags unchanged, and
        Orientation 1 (or absent, which means 1) since the pixels are stored upright."""
        src, ifd0 = camera_jpeg()
        out = self.path("camera.jpg")
        lt.run_ok(self, ["--gray", "bt601", "--gray-amount", "0.3", "-o", out, src])
        tiff = lt.jpeg_exif(lt.read_bytes(out))
        self.assertIsNotNone(tiff, f"the EXIF of {os.path.basename(src)} was dropped")
        got = lt.exif_ifd0(tiff)
        lt.say(f"  {os.path.basename(src)}: Make {got.get(lt.TAG_MAKE)!r}, "
               f"Model {got.get(lt.TAG_MODEL)!r}, Orientation {got.get(lt.TAG_ORIENTATION)}")
        for tag in (lt.TAG_MAKE, lt.TAG_MODEL, lt.TAG_DATETIME):
            if tag in ifd0:
                self.assertEqual(got.get(tag), ifd0[tag], f"EXIF tag {tag:#x} changed")
        self.assertIn(got.get(lt.TAG_ORIENTATION, 1), (1,))

    def test_camera_exif_in_tiff(self):
        """A camera JPEG exported to TIFF: the TIFF's IFD0 has the camera's Make, Model and
        DateTime and Orientation 1; its EXIF sub-IFD has the JPEG's DateTimeOriginal and
        ExposureTime (to float precision: libtiff keeps EXIF rationals as float)."""
        src, ifd0 = camera_jpeg()
        src_exif, src_bo = exif_sub_ifd(lt.jpeg_exif(lt.read_bytes(src)))
        self.assertIsNotNone(src_exif)
        self.assertIn(TAG_EXPOSURE_TIME, src_exif)
        out = self.path("camera.tif")
        lt.run_ok(self, ["--blur", "1", "-o", out, src])
        tiff = lt.read_bytes(out)
        got = lt.exif_ifd0(tiff)
        for tag in (lt.TAG_MAKE, lt.TAG_MODEL, lt.TAG_DATETIME):
            if tag in ifd0:
                self.assertEqual(got.get(tag), ifd0[tag], f"EXIF tag {tag:#x} changed")
        self.assertEqual(got.get(lt.TAG_ORIENTATION), 1)
        exif, bo = exif_sub_ifd(tiff)
        self.assertIsNotNone(exif, f"the EXIF of {os.path.basename(src)} was dropped")
        want = rational(src_exif[TAG_EXPOSURE_TIME], src_bo)
        exposure = rational(exif[TAG_EXPOSURE_TIME], bo)
        lt.say(f"  {os.path.basename(src)} to TIFF: Make {got.get(lt.TAG_MAKE)!r}, "
               f"ExposureTime {want:.9g} s -> {exposure:.9g} s")
        self.assertAlmostEqual(exposure, want, delta=want * 1e-6)
        self.assertEqual(exif.get(TAG_DATETIME_ORIGINAL), src_exif.get(TAG_DATETIME_ORIGINAL))

    def test_orientation_applied_and_reset(self):
        """For each EXIF orientation 1..8 (written into a real photo): the pixels come out
        as OpenCV's imread turns them (it applies EXIF orientation), and a JPEG output says
        Orientation 1, so that no viewer turns them a second time."""
        src = smallest_colour_jpeg()
        data = lt.read_bytes(src)
        for orientation in range(1, 9):
            with self.subTest(orientation=orientation):
                jpg = self.path(f"o{orientation}.jpg")
                with open(jpg, "wb") as f:
                    f.write(lt.jpeg_with_exif(data, lt.make_exif("LumenTest", "Turned",
                                                                 orientation)))
                want = lt.imread(jpg, cv2.IMREAD_COLOR)
                png = self.path(f"o{orientation}.png")
                lt.run_ok(self, ["-o", png, jpg])
                self.assertEqual(lt.diff(lt.imread(png), want)[0], 0)
                out = self.path(f"o{orientation}-out.jpg")
                lt.run_ok(self, ["-o", out, jpg])
                self.assertEqual(lt.imread(out, cv2.IMREAD_COLOR).shape, want.shape)
                ifd0 = lt.exif_ifd0(lt.jpeg_exif(lt.read_bytes(out)))
                self.assertEqual(ifd0.get(lt.TAG_ORIENTATION), 1)
                self.assertEqual(ifd0.get(lt.TAG_MAKE), "LumenTest")


class Params(CliTest):
    def sidecar(self, text):
        path = self.path("look.lumen")
        with open(path, "w") as f:
            f.write(text)
        return path

    def render(self, name, *args):
        out = self.path(name + ".png")
        lt.run_ok(self, list(args) + ["-o", out, COFFEE])
        return lt.imread(out)

    def setUp(self):
        super().setUp()
        self.bgr = lt.imread(COFFEE, cv2.IMREAD_COLOR)
        b, g, r = (self.bgr[..., i].astype(np.float64) for i in range(3))
        self.y601 = 0.299 * r + 0.587 * g + 0.114 * b

    def test_params_file(self):
        """[gray] enabled=true mode=bt601 does what --gray bt601 does (OpenCV's gray)."""
        side = self.sidecar("[gray]\nenabled=true\nmode=bt601\n")
        got = self.render("side", "--params", side)
        self.assertEqual(got.ndim, 2)
        self.assertLessEqual(lt.diff(got, cv2.cvtColor(self.bgr, cv2.COLOR_BGR2GRAY))[0], 1)
        self.assertEqual(lt.diff(got, self.render("flags", "--gray", "bt601"))[0], 0)

    def test_flag_overrides_params(self):
        """A flag given too wins over the sidecar, and only for what it names."""
        # Mode: the flag's average, not the sidecar's bt601.
        side = self.sidecar("[gray]\nenabled=true\nmode=bt601\n")
        got = self.render("avg", "--params", side, "--gray", "average")
        avg = self.bgr.astype(np.float64).sum(axis=2) / 3
        d = np.abs(got.astype(np.float64) - avg).max()
        lt.say(f"  sidecar bt601 + --gray average vs (R+G+B)/3: max |Δ| {d:.3f}")
        self.assertLessEqual(d, 1.0)
        # The amount stays the sidecar's when the flag only names the mode.
        side = self.sidecar("[gray]\nenabled=true\nmode=luminosity\namount=0.5\n")
        got = self.render("half", "--params", side, "--gray", "bt601")
        self.assertEqual(got.ndim, 3, "amount 0.5 from the sidecar was lost")
        want = 0.5 * self.bgr.astype(np.float64) + 0.5 * self.y601[..., None]
        d = np.abs(got.astype(np.float64) - want).max()
        lt.say(f"  sidecar luminosity 0.5 + --gray bt601 vs bt601 blend 0.5: max |Δ| {d:.3f}")
        self.assertLessEqual(d, 1.0)

    def test_disabled_stage_and_other_ops(self):
        """[equalize] enabled=true mode=rgb runs; [blur] enabled=false does not."""
        side = self.sidecar("[equalize]\nenabled=true\nmode=rgb\n\n[blur]\nenabled=false\n"
                            "sigma=5\n")
        got = self.render("eq", "--params", side)
        want = self.bgr.copy()
        for c in range(3):
            want[..., c] = cv2.equalizeHist(np.ascontiguousarray(self.bgr[..., c]))
        self.assertEqual(lt.diff(got, want)[0], 0)

    def test_bad_params_file(self):
        out = self.path("out.png")
        cases = {
            "unknown operation": "[emboss]\nenabled=true\n",
            "unknown mode": "[gray]\nenabled=true\nmode=sepia\n",
            "not a key file": "this is not a key file\n",
        }
        for name, text in cases.items():
            with self.subTest(case=name):
                side = self.sidecar(text)
                proc = lt.run(["--params", side, "-o", out, COFFEE])
                self.assertOneLineError(proc, side)
                self.assertFalse(os.path.exists(out))
        missing = self.path("missing.lumen")
        proc = lt.run(["--params", missing, "-o", out, COFFEE])
        self.assertOneLineError(proc, missing)
        self.assertFalse(os.path.exists(out))
        self.assertNoLeftovers()


class AtomicOutput(CliTest):
    def test_overwrite_replaces(self):
        """Writing over an existing output replaces the file (a new inode renamed into place):
        a hard link to the old file keeps the old bytes, the name gets the new image, and no
        temporary file is left."""
        out = self.path("out.png")
        old = b"old contents, not an image\n"
        with open(out, "wb") as f:
            f.write(old)
        os.link(out, self.path("old-link"))
        lt.run_ok(self, ["-o", out, COFFEE])
        self.assertEqual(lt.read_bytes(self.path("old-link")), old,
                         "the old file was written in place instead of replaced")
        self.assertEqual(lt.diff(lt.imread(out), lt.imread(COFFEE, cv2.IMREAD_COLOR))[0], 0)
        self.assertNoLeftovers()

    def test_never_partial(self):
        """While a slow run writes over an existing output, the output's name always holds
        either the old file or the complete new one."""
        src = max(lt.photos(".jpg"), key=os.path.getsize)  # the biggest photo: a slow run
        out = self.path("out.jpg")
        shutil.copyfile(COFFEE, out)
        old = lt.read_bytes(out)
        proc = subprocess.Popen([lt.lumen_cli(), "--blur", "3", "-o", out, src],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        seen, tmp_seen = [], set()
        while proc.poll() is None:
            try:
                seen.append(lt.read_bytes(out))
            except FileNotFoundError:
                seen.append(None)
            tmp_seen.update(lt.leftovers(self.dir))
            time.sleep(0.002)
        stdout, stderr = proc.communicate()
        self.assertEqual(proc.returncode, 0, stderr.decode(errors="replace"))
        new = lt.read_bytes(out)
        states = {"old" if s == old else "new" if s == new else "missing" if s is None
                  else "partial" for s in seen}
        lt.say(f"  polled the output {len(seen)} times: {sorted(states)}; temporary files "
               f"seen in the folder: {sorted(tmp_seen) or 'none (too quick to catch)'}")
        self.assertNotIn("partial", states)
        self.assertNotIn("missing", states, "the old output vanished before the new one came")
        self.assertEqual(lt.imread(out, cv2.IMREAD_COLOR).shape, lt.imread(src).shape)
        self.assertNoLeftovers()


class Compare(CliTest):
    """lumen-cli compare: the same pipeline on two backends, their timings and the diff."""

    def figures(self, stdout):
        m = re.search(r"max \|Δ\| (\d+), mean \|Δ\| ([0-9.]+), (\d+) pixels differ", stdout)
        self.assertIsNotNone(m, stdout)
        return int(m.group(1)), float(m.group(2)), int(m.group(3))

    def test_cpu_against_cpu_is_identical(self):
        """The CPU against itself: zero difference, an all-transparent heatmap, both timings."""
        heat = self.path("heat.png")
        proc = lt.run(["compare", "--backends", "cpu,cpu", "--gray", "bt601", "--blur", "2",
                       "--heatmap", heat, COFFEE])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        lt.say(proc.stdout)
        self.assertEqual(self.figures(proc.stdout), (0, 0.0, 0))
        self.assertIn("PSNR ∞", proc.stdout)
        self.assertEqual(len(re.findall(r"^  blur +[0-9.]+ ms$", proc.stdout, re.M)), 2)
        self.assertRegex(proc.stdout, r"speedup of cpu over cpu: [0-9.]+×")
        h = lt.imread(heat)
        self.assertEqual(h.shape[:2], lt.imread(COFFEE).shape[:2])
        self.assertEqual(int(h[..., 3].max()), 0, "heatmap should be transparent where equal")
        self.assertNoLeftovers()

    def test_cpu_against_cuda(self):
        """Without a usable device: one line naming CUDA's problem. With one: gray and
        equalize identical, blur within 1."""
        proc = lt.run(["compare", "--gray", "bt601", "--equalize", "luma", "--blur", "3", COFFEE])
        if lt.has_gpu() and lt.build_has_cuda() is not False:
            self.assertEqual(proc.returncode, 0, lt.describe(proc))
            lt.say(proc.stdout)
            self.assertLessEqual(self.figures(proc.stdout)[0], 1)
            proc = lt.run(["compare", "--gray", "luminosity", "--equalize", "rgb", COFFEE])
            self.assertEqual(self.figures(proc.stdout), (0, 0.0, 0))
        else:
            line = self.assertOneLineError(proc)
            self.assertIn("CUDA", line)

    def test_usage(self):
        for args in (["compare", "--backends", "cpu,quantum", COFFEE], ["compare"],
                     ["compare", "--gain", "0", COFFEE], ["compare", COFFEE, COFFEE]):
            proc = lt.run(args)
            self.assertEqual(proc.returncode, 2, lt.describe(proc))


class OneStackOneMessage(CliTest):
    """The HDR job (core/merge/job.h) checks a stack for the window, lumen-cli hdr and the
    batch: one bad stack, one message, word for word, whichever of them is given it."""

    FOREST = os.path.join(lt.data_dir(), "hdr", "forest")

    def bad_stack(self, root, lines, files):
        """A stack folder ROOT/bad: FILES as {name: source} links, an exposures.txt of LINES."""
        folder = os.path.join(root, "bad")
        os.makedirs(folder)
        for name, source in files.items():
            os.symlink(os.path.abspath(source), os.path.join(folder, name))  # LUMEN_TEST_DATA may be relative
        with open(os.path.join(folder, "exposures.txt"), "w") as f:
            f.write("".join(line + "\n" for line in lines))
        return folder

    def hdr_message(self, args):
        proc = lt.run(["hdr", "-o", self.path("out.hdr"), *args])
        self.assertOneLineError(proc)
        self.assertFalse(os.path.exists(self.path("out.hdr")))
        return proc.stderr.strip()[len("lumen-cli: "):]

    def batch_message(self, root):
        out = self.path("batch-out")
        env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
        proc = subprocess.run([lt.lumen_cli(), "batch", "--progress", "none", "-o", out, root], capture_output=True,
                              text=True, env=env, errors="replace", timeout=600)
        self.assertEqual(proc.returncode, 1, lt.describe(proc))
        with open(os.path.join(out, "failed.tsv")) as f:
            failed = dict(line.rstrip("\n").split("\t", 1) for line in f if line.strip())
        self.assertEqual(list(failed), ["bad"], failed)
        return failed["bad"]

    def check(self, lines, files, words, times=None):
        root = self.path("stacks")
        folder = self.bad_stack(root, lines, files)
        from_batch = self.batch_message(root)
        from_file = self.hdr_message(["--exposures", os.path.join(folder, "exposures.txt")])
        lt.say(f"batch: {from_batch}")
        self.assertEqual(from_file, from_batch)
        if times:
            paths = [os.path.join(folder, name) for name in files]
            self.assertEqual(self.hdr_message(["--times", times, *paths]), from_batch)
        self.assertIn(words, from_batch)

    def test_equal_times(self):
        self.check(["x.jpg 0.01", "y.jpg 0.01"],
                   {"x.jpg": os.path.join(self.FOREST, "exposure01.jpg"),
                    "y.jpg": os.path.join(self.FOREST, "exposure02.jpg")},
                   "have the same exposure time (0.01 s)", times="1/100,0.01 s")

    def test_sizes(self):
        self.check(["x.jpg 1/250", "y.png 2"],
                   {"x.jpg": os.path.join(self.FOREST, "exposure01.jpg"), "y.png": COFFEE},
                   "must have one size", times="1/250,2 s")

    def test_one_exposure(self):
        self.check(["x.jpg 0.01"], {"x.jpg": os.path.join(self.FOREST, "exposure01.jpg")},
                   "an HDR merge needs at least two exposures; one was given")


if __name__ == "__main__":
    unittest.main(verbosity=2)
