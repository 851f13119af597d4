"""Shared helpers of the lumen-cli end-to-end tests (cli, bad-input, oracle).

meson passes LUMEN_CLI (the program under test), LUMEN_TEST_DATA (the repository's corpus,
tests/data) and LUMEN_EXTRA_DATA (larger data that may be absent); the
tests run under /usr/bin/python3, where Debian's python3-opencv is installed. OpenCV is the
oracle: nothing here computes an expected value with Lumen itself.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
import unittest
import zlib

import cv2
import numpy as np

TMP_INFIX = ".lumen-tmp-"  # the atomic writer's temporary files contain this


def lumen_cli():
    path = os.environ.get("LUMEN_CLI")
    if not path or not os.access(path, os.X_OK):
        raise SystemExit(f"LUMEN_CLI is not set to an executable lumen-cli (got {path!r}); "
                         "run through `meson test`")
    return path


HERE = os.path.dirname(os.path.abspath(__file__))


def data_dir():
    """The repository's test corpus: always there, every suite passes on it."""
    return os.environ.get("LUMEN_TEST_DATA") or os.path.join(HERE, "data")


def extra_data_dir():
    """Larger data beside the checkout (../shared/data or -Dtest_data), or None when absent."""
    d = os.environ.get("LUMEN_EXTRA_DATA") or os.path.join(HERE, "..", "..", "shared", "data")
    return d if os.path.isdir(d) else None


def photos_dir():
    return os.path.join(data_dir(), "photos")


def _names(d, ext):
    names = sorted(n for n in os.listdir(d) if not n.startswith(".") and not n.endswith(".md"))
    return [n for n in names if not ext or n.lower().endswith(ext)]


def photos(ext=None):
    """Every photo of the corpus, optionally only those whose name ends in EXT."""
    d = photos_dir()
    if not os.path.isdir(d):
        raise SystemExit(f"no test photos in {d}")
    return [os.path.join(d, n) for n in _names(d, ext)]


def extra_photos(ext=None):
    """The extra data's photos that the corpus does not have (by name); [] with a message
    when there is no extra data."""
    root = extra_data_dir()
    d = root and os.path.join(root, "photos")
    if not d or not os.path.isdir(d):
        say(f"no extra data ({os.environ.get('LUMEN_EXTRA_DATA') or '../shared/data'} absent): "
            "its larger photos are skipped")
        return []
    have = set(os.listdir(photos_dir()))
    return [os.path.join(d, n) for n in _names(d, ext) if n not in have]


def run(args, timeout=600):
    """Runs lumen-cli with ARGS; returns the CompletedProcess (text stdout/stderr)."""
    # Untranslated messages and timing labels, whatever the caller's locale.
    env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    return subprocess.run([lumen_cli()] + [str(a) for a in args], capture_output=True,
                          text=True, timeout=timeout, errors="replace", env=env)


def run_measured(args, env=None, max_seconds=10):
    """Runs lumen-cli with ARGS (and the variables ENV besides the caller's): its exit code,
    its stderr, its wall time and its own peak resident memory in MB (wait4's, not that of
    every child so far); killed at MAX_SECONDS."""
    environ = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="", **(env or {}))
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen([lumen_cli()] + [str(a) for a in args], stdout=subprocess.DEVNULL,
                                stderr=err, env=environ)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > max_seconds:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        seconds = time.monotonic() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        message = err.read().decode("utf-8", "replace")
    return proc.returncode, message, seconds, usage.ru_maxrss / 1024


def describe(proc):
    return (f"exit {proc.returncode}\n--- stdout:\n{proc.stdout}--- stderr:\n{proc.stderr}")


def run_ok(test, args, timeout=600):
    """Runs lumen-cli and fails TEST unless it exits 0 with an empty stderr."""
    proc = run(args, timeout)
    test.assertEqual(proc.returncode, 0, f"lumen-cli {' '.join(map(str, args))}: {describe(proc)}")
    test.assertEqual(proc.stderr, "", f"lumen-cli succeeded but wrote on stderr: {proc.stderr!r}")
    return proc


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def imread(path, flags=cv2.IMREAD_UNCHANGED):
    img = cv2.imread(str(path), flags)
    if img is None:
        raise AssertionError(f"OpenCV cannot decode {path}")
    return img


def diff(a, b):
    """max |a - b|, mean |a - b| and the number of differing values, on int32."""
    if a.shape != b.shape:
        raise AssertionError(f"shapes differ: {a.shape} vs {b.shape}")
    d = np.abs(a.astype(np.int32) - b.astype(np.int32))
    return int(d.max()), float(d.mean()), int(np.count_nonzero(d))


# --- Images in R, G, B order, as the oracles write their definitions ------------------------

def to_rgb(img):
    """OpenCV's BGR or BGRA as RGB or RGBA; gray as it is."""
    if img.ndim == 2:
        return img
    return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA if img.shape[2] == 4 else cv2.COLOR_BGR2RGB)


def to_bgr(img):
    """RGB or RGBA as OpenCV's BGR or BGRA; gray as it is."""
    if img.ndim == 2:
        return img
    return cv2.cvtColor(img, cv2.COLOR_RGBA2BGRA if img.shape[2] == 4 else cv2.COLOR_RGB2BGR)


def imread_rgb(path):
    """PATH unchanged (8 or 16 bits, gray, RGB or RGBA) in R, G, B order."""
    return to_rgb(imread(path))


def imwrite_rgb(path, img):
    """IMG (R, G, B order, uint8 or uint16) to PATH."""
    if not cv2.imwrite(str(path), to_bgr(img)):
        raise AssertionError(f"OpenCV cannot write {path}")


def widen(img8):
    """8-bit RGB(A) or gray (H×W[×C]) to 16 bits: v·257 plus a smooth ±127 term per colour
    channel, so that every bit varies and an operation that drops to 8 bits shows; alpha is
    a·257 exactly."""
    h, w = img8.shape[:2]
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    out = img8.astype(np.int64) * 257
    channels = 1 if img8.ndim == 2 else min(3, img8.shape[2])
    for c in range(channels):
        smooth = np.rint(127.0 * np.sin(x / 37.0 + 1.3 * c) * np.cos(y / 23.0 - 0.7 * c)).astype(np.int64)
        if img8.ndim == 2:
            out = out + smooth
        else:
            out[..., c] += smooth
    return np.clip(out, 0, 65535).astype(np.uint16)


def srgb_decode(v):
    """The sRGB curve (IEC 61966-2-1) of encoded V (0..1) to linear light, in double; odd below
    0 (as the operations extend it)."""
    a = np.abs(v)
    return np.sign(v) * np.where(a <= 0.04045, a / 12.92, ((a + 0.055) / 1.055) ** 2.4)


def srgb_encode(l):
    """Linear light L to sRGB's encoded values, in double; odd below 0."""
    a = np.abs(l)
    return np.sign(l) * np.where(a <= 0.0031308, a * 12.92, 1.055 * a ** (1 / 2.4) - 0.055)


def quantize(x, top):
    """Lumen's one rounding of X on the 0..TOP scale: clamp, then half up, as int64."""
    return np.floor(np.clip(x, 0.0, top) + 0.5).astype(np.int64)


def reflect101(i, n):
    """Indices I (any integers) reflected into 0..N-1 without repeating the edge (OpenCV's
    BORDER_REFLECT_101, scipy's mode='mirror')."""
    if n == 1:
        return np.zeros_like(i)
    period = 2 * (n - 1)
    i = np.mod(i, period)
    return np.where(i < n, i, period - i)


def render_rgb(test, folder, img, flags, name="lumen"):
    """IMG (R, G, B order) through lumen-cli FLAGS as PNGs in FOLDER: the result in R, G, B
    order, TEST failed unless lumen-cli succeeds quietly and keeps the depth. The files are
    removed afterwards."""
    src, out = os.path.join(folder, name + "-in.png"), os.path.join(folder, name + "-out.png")
    imwrite_rgb(src, img)
    try:
        run_ok(test, list(flags) + [src, "-o", out])
        got = imread_rgb(out)
    finally:
        for path in (src, out):
            if os.path.exists(path):
                os.remove(path)
    test.assertEqual(got.dtype, img.dtype, "lumen-cli changed the depth")
    return got


class RenderTest(unittest.TestCase):
    """Tests that pass images through lumen-cli: a temporary folder for the class (folder),
    removed after its tests, and render_rgb in it."""

    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix=f"lumen-{cls.__name__.lower()}-")
        cls.folder = cls._tmp.name

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    def render(self, img, flags, name="lumen"):
        return render_rgb(self, self.folder, img, flags, name)


def assert_usage_error(test, folder, flags, *words, src=None):
    """lumen-cli FLAGS on SRC (a small gray PNG written in FOLDER when None) is a usage error:
    exit 2, its first line holding each of WORDS, no output written."""
    if src is None:
        src = os.path.join(folder, "usage-src.png")
        imwrite_rgb(src, np.full((8, 8, 3), 100, np.uint8))
    out = os.path.join(folder, "refused.png")
    proc = run(list(flags) + ["-o", out, src])
    test.assertEqual(proc.returncode, 2, describe(proc))
    first = proc.stderr.splitlines()[0] if proc.stderr else ""
    for word in words:
        test.assertIn(word, first)
    test.assertFalse(os.path.exists(out))
    return proc


def leftovers(folder):
    """Temporary files of the atomic writer left in FOLDER."""
    return [n for n in os.listdir(folder) if TMP_INFIX in n]


def is_gray_file(path):
    """The file holds one channel (what OpenCV reads unchanged as a 2-D array)."""
    return imread(path).ndim == 2


def has_gpu():
    """nvidia-smi lists at least one GPU."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and re.search(r"^GPU \d+", out.stdout, re.M) is not None


def build_has_cuda():
    """Whether the build of LUMEN_CLI has the CUDA backend, from its build folder's config.h;
    None when that cannot be found (then the test trusts the device alone)."""
    build = os.path.dirname(os.path.dirname(os.path.abspath(lumen_cli())))
    try:
        with open(os.path.join(build, "config.h")) as f:
            text = f.read()
    except OSError:
        return None
    m = re.search(r"#define LUMEN_HAVE_CUDA (\d)", text)
    return None if m is None else m.group(1) == "1"


# --- JPEG markers and EXIF, parsed by hand (no PIL on the CI image) ---------------------------

def jpeg_segments(data):
    """(marker, start offset, payload) of each segment before the scan."""
    if data[:2] != b"\xff\xd8":
        raise ValueError("not a JPEG")
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker = data[i + 1]
        if marker in (0xDA, 0xD9):  # start of scan, end of image
            return
        (n,) = struct.unpack(">H", data[i + 2:i + 4])
        yield marker, i, data[i + 4:i + 2 + n]
        i += 2 + n


def jpeg_exif(data):
    """The TIFF block of the JPEG's EXIF APP1 segment, or None."""
    for marker, _, payload in jpeg_segments(data):
        if marker == 0xE1 and payload[:6] == b"Exif\0\0":
            return payload[6:]
    return None


def jpeg_sof(data):
    """The frame marker (0xC0 baseline, 0xC2 progressive, …)."""
    for marker, _, _ in jpeg_segments(data):
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return marker
    return None


# Zigzag position k of a DCT block → index in natural (row-major) order.
ZIGZAG = [0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34,
          27, 20, 13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37,
          44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63]

# The JPEG standard's example luminance quantization table (ITU-T T.81 Annex K, Table K.1),
# natural order: what libjpeg scales for a quality setting.
ANNEX_K_LUMA = [16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55,
                14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
                18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92,
                49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99]


def jpeg_repeat_last_scan(data, extra_scans):
    """DATA (a progressive JPEG) with its last scan repeated EXTRA_SCANS times before EOI: a few
    bytes each, a pass over every block each (the scan bomb Lumen's readers bound)."""
    i, last = 2, None
    while data[i + 1] != 0xD9:
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if data[i + 1] != 0xDA:
            i += 2 + length
            continue
        j = i + 2 + length  # the scan's entropy-coded data runs to the next marker
        while not (data[j] == 0xFF and data[j + 1] != 0 and not 0xD0 <= data[j + 1] <= 0xD7):
            j += 1
        last, i = (i, j), j
    return data[:last[1]] + data[last[0]:last[1]] * extra_scans + data[last[1]:]


def ijg_luma_table(quality):
    """Table K.1 scaled as libjpeg's jpeg_set_quality does (IJG scaling, baseline clamp)."""
    scale = 5000 // quality if quality < 50 else 200 - 2 * quality
    return [min(max((q * scale + 50) // 100, 1), 255) for q in ANNEX_K_LUMA]


def jpeg_quant_tables(data):
    """{table id: 64 values in natural order} from the JPEG's DQT segments."""
    tables = {}
    for marker, _, payload in jpeg_segments(data):
        if marker != 0xDB:
            continue
        i = 0
        while i < len(payload):
            precision, tid = payload[i] >> 4, payload[i] & 15
            n = 128 if precision else 64
            raw = payload[i + 1:i + 1 + n]
            values = (list(raw) if not precision
                      else [int.from_bytes(raw[2 * k:2 * k + 2], "big") for k in range(64)])
            natural = [0] * 64
            for k, v in enumerate(values):
                natural[ZIGZAG[k]] = v
            tables[tid] = natural
            i += 1 + n
    return tables


_TYPE_SIZE = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8}


def exif_ifd0(tiff):
    """IFD0 of a TIFF block as {tag: value}: ASCII as str, one SHORT/LONG as int, else bytes."""
    bo = {b"II": "<", b"MM": ">"}.get(tiff[:2])
    if bo is None or struct.unpack(bo + "H", tiff[2:4])[0] != 42:
        raise ValueError("not a TIFF header")
    (off,) = struct.unpack(bo + "I", tiff[4:8])
    (n,) = struct.unpack(bo + "H", tiff[off:off + 2])
    out = {}
    for k in range(n):
        e = tiff[off + 2 + 12 * k:off + 14 + 12 * k]
        tag, typ, count = struct.unpack(bo + "HHI", e[:8])
        size = _TYPE_SIZE.get(typ, 1) * count
        raw = e[8:8 + size] if size <= 4 else tiff[struct.unpack(bo + "I", e[8:12])[0]:][:size]
        if typ == 2:
            out[tag] = raw.split(b"\0")[0].decode("latin-1")
        elif typ == 3 and count == 1:
            out[tag] = struct.unpack(bo + "H", raw[:2])[0]
        elif typ == 4 and count == 1:
            out[tag] = struct.unpack(bo + "I", raw[:4])[0]
        else:
            out[tag] = raw
    return out


TAG_MAKE, TAG_MODEL, TAG_ORIENTATION, TAG_DATETIME = 0x10F, 0x110, 0x112, 0x132


def make_exif(make, model, orientation):
    """A minimal little-endian EXIF TIFF block: IFD0 with Make, Model and Orientation."""
    strings = [make.encode() + b"\0", model.encode() + b"\0"]
    n = 3
    data_at = 8 + 2 + 12 * n + 4  # the strings follow the IFD
    entries, blob = b"", b""
    for tag, s in zip((TAG_MAKE, TAG_MODEL), strings):
        entries += struct.pack("<HHII", tag, 2, len(s), data_at + len(blob))
        blob += s
    entries += struct.pack("<HHIHH", TAG_ORIENTATION, 3, 1, orientation, 0)
    return b"II*\0" + struct.pack("<I", 8) + struct.pack("<H", n) + entries + b"\0\0\0\0" + blob


def jpeg_with_exif(data, tiff):
    """DATA with its EXIF APP1 (if any) replaced by TIFF, placed after a JFIF APP0."""
    segs = list(jpeg_segments(data))
    out = bytearray(b"\xff\xd8")
    app1 = b"\xff\xe1" + struct.pack(">H", len(tiff) + 8) + b"Exif\0\0" + tiff
    placed = False
    end = 2
    for marker, start, payload in segs:
        seg = data[start:start + 4 + len(payload)]
        end = start + 4 + len(payload)
        if marker == 0xE1 and payload[:6] == b"Exif\0\0":
            continue
        if not placed and marker != 0xE0:
            out += app1
            placed = True
        out += seg
    if not placed:
        out += app1
    out += data[end:]
    return bytes(out)


# --- PNG chunks ------------------------------------------------------------------------------

def png_chunk(kind, payload):
    return (struct.pack(">I", len(payload)) + kind + payload
            + struct.pack(">I", zlib.crc32(kind + payload) & 0xFFFFFFFF))


def png_with_size(data, width, height):
    """A real PNG whose IHDR is rewritten to claim WIDTH×HEIGHT, with a correct CRC, so that
    only the size is wrong."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    ihdr = struct.pack(">II", width, height) + data[24:29]  # depth, colour type, …
    return data[:8] + png_chunk(b"IHDR", ihdr) + data[33:]


def fits_card(key, value=None):
    """One 80-column FITS header card: a logical, an integer or a string value, or none."""
    if value is None:
        text = key
    elif isinstance(value, bool):
        text = f"{key:<8}= {'T' if value else 'F':>20}"
    elif isinstance(value, str):
        text = f"{key:<8}= '{value:<8}'"
    else:
        text = f"{key:<8}= {value:>20}"
    return f"{text:<80}".encode()


def fits_header(*cards):
    """A FITS header of CARDS (key, value) and END, padded to whole 2880-byte blocks."""
    h = b"".join(fits_card(*c) for c in cards) + fits_card("END")
    return h + b" " * (-len(h) % 2880)


def resident_mb(pid):
    """The resident memory of process PID in MB (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)
    except (OSError, IndexError, ValueError):
        return 0


def run_guarded(args, env=None, max_seconds=10, max_mb=1024):
    """lumen-cli ARGS (with ENV, the caller's environment by default), killed after MAX_SECONDS
    (a reader waiting on a fifo for ever) or once its resident memory passes MAX_MB (a reader
    that does not stop at a device or a huge file: the machine's memory is not the test's to
    take; no rlimit, which ASan's shadow memory would break); returns (exit status, stderr,
    seconds, the most resident memory seen, in MB: sampled every 5 ms, as wait4's figure counts
    this Python's memory from before the exec)."""
    if env is None:
        env = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        proc = subprocess.Popen([lumen_cli()] + [str(a) for a in args], stdout=subprocess.DEVNULL, stderr=err,
                                env=env)
        peak = 0
        while True:
            pid, status, _ = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peak = max(peak, resident_mb(proc.pid))
            if time.monotonic() - start > max_seconds or peak > max_mb:
                proc.kill()
                pid, status, _ = os.wait4(proc.pid, 0)
                break
            time.sleep(0.005)
        seconds = time.monotonic() - start
        err.seek(0)
        return os.waitstatus_to_exitcode(status), err.read().decode("utf-8", "replace"), seconds, peak


def say(*args):
    """Prints to the test log at once (meson shows it on failure and in the log file)."""
    print(*args, flush=True)
    sys.stdout.flush()


def illuminant_xy(t):
    """The chromaticity of light at T kelvin, as white balance names it: the CIE daylight locus
    from 4000 K, Kim et al.'s cubic fit of the Planckian locus below."""
    if t >= 4000:
        x = (-4.6070e9 / t**3 + 2.9678e6 / t**2 + 0.09911e3 / t + 0.244063 if t <= 7000
             else -2.0064e9 / t**3 + 1.9018e6 / t**2 + 0.24748e3 / t + 0.237040)
        return x, -3.0 * x * x + 2.87 * x - 0.275
    x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    y = (-1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683 if t <= 2222
         else -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867)
    return x, y
