#!/usr/bin/python3
"""Writes the fuzz harnesses' seed inputs, fuzz/corpus/<harness>/seed-*: tiny images made
from the test corpus's photos (tests/data) with OpenCV, Lumen's own writers (lumen-cli, when
given), and hand-made files of the kinds OpenCV does not write (palette PNG and TIFF, GIF,
animated WebP, EXIF blocks, the text formats). Run once; the campaigns grow the corpus from
these (fuzz/README.md).

    /usr/bin/python3 fuzz/make-seeds.py [path/to/lumen-cli]
"""
import os
import struct
import subprocess
import sys
import tempfile
import zlib

os.environ.setdefault("OPENCV_IO_ENABLE_OPENEXR", "1")
import cv2  # noqa: E402
import numpy as np  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "formats"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import giflib_writer  # noqa: E402
import lumen_testlib as lt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
PHOTOS = os.path.join(ROOT, "tests", "data", "photos")
STACKS = os.path.join(ROOT, "tests", "data", "hdr")


# Harnesses that take the same inputs as another: fuzz-exif-export's are EXIF blocks too.
SAME_INPUTS = {"exif": ["exif-export"]}


def put(harness, name, data):
    for h in [harness] + SAME_INPUTS.get(harness, []):
        folder = os.path.join(CORPUS, h)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "seed-" + name), "wb") as f:
            f.write(data)


def photo(name, w, h, flags=cv2.IMREAD_UNCHANGED):
    img = cv2.imread(os.path.join(PHOTOS, name), flags)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)


def encode(ext, img, params=()):
    ok, buf = cv2.imencode(ext, img, list(params))
    assert ok, ext
    return buf.tobytes()


# --- EXIF: a TIFF structure after "Exif\0\0", built by hand ---------------------------------

def ifd(entries, order, start, next_ifd=0):
    """An IFD at offset START: ENTRIES are (tag, type, count, value bytes); values that do not
    fit in four bytes follow the IFD. Returns the bytes and the offset after them."""
    out = struct.pack(order + "H", len(entries))
    extra = b""
    extra_at = start + 2 + 12 * len(entries) + 4
    for tag, typ, count, value in sorted(entries):
        if len(value) <= 4:
            out += struct.pack(order + "HHI", tag, typ, count) + value.ljust(4, b"\0")
        else:
            out += struct.pack(order + "HHII", tag, typ, count, extra_at + len(extra))
            extra += value + (b"\0" if len(value) % 2 else b"")
    out += struct.pack(order + "I", next_ifd)
    return out + extra


def exif_block(order="<", orientation=1, exposure=(1, 60), gps=False, thumbnail=None):
    """APP1's payload: orientation and text in IFD 0, ExposureTime and pixel sizes in the
    EXIF IFD, optionally a GPS IFD and a thumbnail in IFD 1."""
    short = lambda v: struct.pack(order + "H", v)  # noqa: E731
    long_ = lambda v: struct.pack(order + "I", v)  # noqa: E731
    rational = lambda n, d: struct.pack(order + "II", n, d)  # noqa: E731
    head = (b"II*\0" if order == "<" else b"MM\0*") + long_(8)
    # Laid out in order: IFD 0, EXIF IFD, GPS IFD, IFD 1, thumbnail; offsets fixed in two passes.
    offsets = {"exif": 0, "gps": 0, "ifd1": 0, "thumb": 0}
    for _ in range(2):
        ifd0 = [(0x010F, 2, 6, b"Lumen\0"), (0x0110, 2, 5, b"fuzz\0"), (0x0112, 3, 1, short(orientation)),
                (0x011A, 5, 1, rational(72, 1)), (0x011B, 5, 1, rational(72, 1)), (0x0128, 3, 1, short(2)),
                (0x8769, 4, 1, long_(offsets["exif"]))]
        if gps:
            ifd0.append((0x8825, 4, 1, long_(offsets["gps"])))
        exif = [(0x829A, 5, 1, rational(*exposure)), (0x829D, 5, 1, rational(28, 10)),
                (0x8827, 3, 1, short(200)), (0x9000, 7, 4, b"0232"), (0x9101, 7, 4, b"\1\2\3\0"),
                (0x927C, 7, 8, b"maker\0\0\0"), (0xA002, 4, 1, long_(4000)), (0xA003, 3, 1, short(3000))]
        gps_entries = [(0x0000, 1, 4, b"\2\3\0\0"), (0x0001, 2, 2, b"N\0"),
                       (0x0002, 5, 3, rational(48, 1) + rational(51, 1) + rational(2938, 100))]
        at = 8
        b0 = ifd(ifd0, order, at, offsets["ifd1"] if thumbnail else 0)
        offsets["exif"] = at = at + len(b0)
        be = ifd(exif, order, at)
        at += len(be)
        bg = b""
        if gps:
            offsets["gps"] = at
            bg = ifd(gps_entries, order, at)
            at += len(bg)
        b1 = b""
        if thumbnail:
            offsets["ifd1"] = at
            ifd1 = [(0x0103, 3, 1, short(6)), (0x0201, 4, 1, long_(offsets["thumb"])),
                    (0x0202, 4, 1, long_(len(thumbnail)))]
            b1 = ifd(ifd1, order, at)
            offsets["thumb"] = at + len(b1)
    return b"Exif\0\0" + head + b0 + be + bg + b1 + (thumbnail or b"")


def jpeg_with_segments(jpeg, segments):
    """JPEG with SEGMENTS ((marker, payload)) right after SOI."""
    out = jpeg[:2]
    for marker, payload in segments:
        out += bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload
    return out + jpeg[2:]


def app1_of(path):
    """The EXIF APP1 payload of a JPEG file, or None."""
    data = open(path, "rb").read()
    i = 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker, n = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker == 0xE1 and data[i + 4:i + 10] == b"Exif\0\0":
            return data[i + 4:i + 2 + n]
        if marker == 0xDA:
            break
        i += 2 + n
    return None


def icc_of(path):
    """The ICC profile of a JPEG file (its APP2 chunks joined), or None."""
    data, chunks, i = open(path, "rb").read(), {}, 2
    while i + 4 <= len(data) and data[i] == 0xFF:
        marker, n = data[i + 1], struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker == 0xE2 and data[i + 4:i + 16] == b"ICC_PROFILE\0":
            chunks[data[i + 16]] = data[i + 18:i + 2 + n]
        if marker == 0xDA:
            break
        i += 2 + n
    return b"".join(chunks[k] for k in sorted(chunks)) or None


# --- PNG and TIFF by hand: palettes, interlacing, tiles ---------------------------------------

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width, height, depth, colour, rows, extra=(), interlace=0):
    """ROWS: a function of (x, y) giving one pixel's bytes."""
    passes = [(0, 0, 1, 1)] if not interlace else [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
                                                   (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    raw = b""
    for x0, y0, dx, dy in passes:
        for y in range(y0, height, dy):
            xs = range(x0, width, dx)
            if xs:
                raw += b"\0" + b"".join(rows(x, y) for x in xs)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    chunks = [png_chunk(b"IHDR", ihdr)] + [png_chunk(k, v) for k, v in extra]
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks) + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b"")


def tiff(width, height, tags, strips, order="<"):
    """A little TIFF: TAGS (tag, type, values) plus the strip tags for STRIPS (bytes each)."""
    sizes = {1: "B", 2: "s", 3: "H", 4: "I"}
    data_at = 8
    blob = b"".join(strips)
    offsets, at = [], data_at
    for s in strips:
        offsets.append(at)
        at += len(s)
    extra_at = at
    all_tags = list(tags) + [(273, 4, offsets), (279, 4, [len(s) for s in strips]),
                             (256, 4, [width]), (257, 4, [height])]
    ifd_at = extra_at + sum(len(struct.pack(order + sizes[t] * len(v), *v)) for _, t, v in all_tags
                            if len(struct.pack(order + sizes[t] * len(v), *v)) > 4)
    ifd_at += ifd_at % 2
    entries, extra = [], b""
    for tag, typ, values in sorted(all_tags):
        packed = struct.pack(order + sizes[typ] * len(values), *values)
        if len(packed) <= 4:
            entries.append(struct.pack(order + "HHI", tag, typ, len(values)) + packed.ljust(4, b"\0"))
        else:
            entries.append(struct.pack(order + "HHII", tag, typ, len(values), extra_at + len(extra)))
            extra += packed
    extra = extra.ljust(ifd_at - extra_at, b"\0")
    head = (b"II*\0" if order == "<" else b"MM\0*") + struct.pack(order + "I", ifd_at)
    return head + blob + extra + struct.pack(order + "H", len(entries)) + b"".join(entries) + b"\0\0\0\0"


def with_count(tif, tag, count):
    """The little-endian TIFF TIF with the count of TAG's entry in its IFD set to COUNT."""
    data = bytearray(tif)
    (at,) = struct.unpack_from("<I", data, 4)
    (n,) = struct.unpack_from("<H", data, at)
    for k in range(n):
        if struct.unpack_from("<H", data, at + 2 + 12 * k)[0] == tag:
            struct.pack_into("<I", data, at + 2 + 12 * k + 4, count)
    return bytes(data)


XMP_UTF16 = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">'
             '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" '
             'xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag><rdf:li>Straße</rdf:li>'
             '</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>').encode("utf-16-le")


def tiff_kinds(rgb, gray):
    """TIFFs of the layouts tiff.c reads or refuses by their samples (floats, signed), turned
    palettes and planes, a short strip table and a UTF-16 XMP packet: name -> bytes."""
    rgb8 = rgb[:4, :6, ::-1]  # file order
    floats = (rgb8.astype(np.float32) / 64.0 - 1.0).tobytes()  # negatives too
    halves = np.dstack([gray[:3, :5], gray[3:6, :5]]).astype(">f2").tobytes()
    doubles = (gray[:3, :4].astype(np.float64) * 1e-3).tobytes()
    pal = [v * 257 for v in range(0, 256)] * 3
    planes = [rgb8[..., c].tobytes() for c in range(3)]
    rows = [rgb8[y].tobytes() for y in range(4)]
    base = [(259, 3, [1]), (262, 3, [2]), (277, 3, [3])]
    return {
        "float-rgb-two-strips.tif": tiff(6, 4, base + [(258, 3, [32] * 3), (278, 4, [2]), (339, 3, [3] * 3)],
                                         [floats[:len(floats) // 2], floats[len(floats) // 2:]]),
        "half-gray-alpha-big-endian.tif": tiff(5, 3, [(258, 3, [16, 16]), (259, 3, [1]), (262, 3, [1]),
                                                      (277, 3, [2]), (278, 4, [3]), (338, 3, [2]), (339, 3, [3, 3])],
                                               [halves], order=">"),
        "double-gray.tif": tiff(4, 3, [(258, 3, [64]), (259, 3, [1]), (262, 3, [1]), (277, 3, [1]), (278, 4, [3]),
                                       (339, 3, [3])], [doubles]),
        "signed16.tif": tiff(5, 3, [(258, 3, [16]), (259, 3, [1]), (262, 3, [1]), (277, 3, [1]), (278, 4, [3]),
                                    (339, 3, [2])], [(gray[:3, :5].astype(np.int16) - 128).tobytes()]),
        "palette-orientation-6.tif": tiff(6, 4, [(258, 3, [8]), (259, 3, [1]), (262, 3, [3]), (274, 3, [6]),
                                                 (277, 3, [1]), (278, 4, [4]), (320, 3, pal)], [bytes(range(24))]),
        "planes-orientation-7.tif": tiff(6, 4, base + [(258, 3, [8] * 3), (274, 3, [7]), (278, 4, [4]),
                                                       (284, 3, [2])], planes),
        "strip-offsets-short.tif": with_count(tiff(6, 4, base + [(258, 3, [8] * 3), (278, 4, [1])], rows), 273, 2),
        "xmp-utf16.tif": tiff(6, 4, base + [(258, 3, [8] * 3), (278, 4, [4]), (700, 1, list(b"\xff\xfe" + XMP_UTF16))],
                              [b"".join(rows)]),
    }


# --- GIF and animated WebP by hand -------------------------------------------------------------

def gif_lzw(indices, min_code_size):
    """Indices as GIF LZW data without compressing (tests/formats/giflib_writer.py)."""
    return giflib_writer.lzw_literals(indices, min_code_size)


def gif(width, height, frames, version=b"GIF89a", loop=False, transparent=None):
    """FRAMES: (x, y, w, h, indices, interlaced, local palette or None)."""
    palette = bytes(v for i in range(16) for v in (i * 17, 255 - i * 17, (i * 40) % 256))
    out = version + struct.pack("<HHBBB", width, height, 0xF3, 0, 0) + palette
    if loop:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01\x00\x00\x00"
    for x, y, w, h, indices, interlaced, local in frames:
        if version == b"GIF89a":
            flags = 1 if transparent is not None else 0
            out += b"\x21\xF9\x04" + bytes([flags | 0x08]) + struct.pack("<H", 10) + bytes([transparent or 0]) + b"\0"
        packed = (0x40 if interlaced else 0) | (0x83 if local else 0)
        out += b"\x2C" + struct.pack("<HHHHB", x, y, w, h, packed) + (local or b"")
        out += gif_lzw(indices, 4)
    return out + b"\x3B"


def riff_chunks(data):
    """(fourcc, payload) of a RIFF WEBP file."""
    i, out = 12, []
    while i + 8 <= len(data):
        kind, n = data[i:i + 4], struct.unpack("<I", data[i + 4:i + 8])[0]
        out.append((kind, data[i + 8:i + 8 + n]))
        i += 8 + n + (n & 1)
    return out


def riff_chunk(kind, payload):
    return kind + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) & 1 else b"")


def animated_webp(frames, width, height):
    """A VP8X/ANIM/ANMF file of FRAMES (the VP8/VP8L chunks of still WebPs, full size)."""
    u24 = lambda v: struct.pack("<I", v)[:3]  # noqa: E731
    body = riff_chunk(b"VP8X", bytes([0x12, 0, 0, 0]) + u24(width - 1) + u24(height - 1))
    body += riff_chunk(b"ANIM", struct.pack("<IH", 0xFFFFFFFF, 0))
    for n, still in enumerate(frames):
        image = b"".join(riff_chunk(k, v) for k, v in riff_chunks(still) if k in (b"VP8 ", b"VP8L"))
        head = u24(0) + u24(0) + u24(width - 1) + u24(height - 1) + u24(100) + bytes([0 if n == 0 else 2])
        body += riff_chunk(b"ANMF", head + image)
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


def webp_with_metadata(still, width, height, icc=None, exif=None, xmp=None):
    """A VP8X file of STILL's image chunk with an ICCP, EXIF and XMP chunk where given."""
    u24 = lambda v: struct.pack("<I", v)[:3]  # noqa: E731
    flags = (0x20 if icc else 0) | (0x08 if exif else 0) | (0x04 if xmp else 0)
    body = riff_chunk(b"VP8X", bytes([flags, 0, 0, 0]) + u24(width - 1) + u24(height - 1))
    body += riff_chunk(b"ICCP", icc) if icc else b""
    body += b"".join(riff_chunk(k, v) for k, v in riff_chunks(still) if k in (b"VP8 ", b"VP8L"))
    body += riff_chunk(b"EXIF", exif) if exif else b""
    body += riff_chunk(b"XMP ", xmp) if xmp else b""
    return b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body


def xmp_orientation(value):
    return (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            b'<rdf:Description rdf:about="" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Orientation="%d"/>'
            b'</rdf:RDF></x:xmpmeta>' % value)


# --- The seeds -----------------------------------------------------------------------------------

def images(lumen_cli):
    rgb = photo("chelsea.png", 16, 12)
    rgba = photo("coffee-alpha.png", 12, 10)
    gray = photo("camera-gray.png", 17, 9, cv2.IMREAD_GRAYSCALE)
    odd = photo("pier-fog.jpg", 9, 17)
    exif6 = exif_block(orientation=6, gps=True)
    real_exif = app1_of(os.path.join(STACKS, "sunset-handheld", "exposure01.jpg"))
    icc = icc_of(os.path.join(PHOTOS, "forest-path.jpg"))

    # JPEG
    q = cv2.IMWRITE_JPEG_QUALITY
    put("jpeg", "baseline.jpg", encode(".jpg", rgb, [q, 80]))
    put("jpeg", "progressive.jpg", encode(".jpg", rgb, [q, 80, cv2.IMWRITE_JPEG_PROGRESSIVE, 1]))
    put("jpeg", "gray.jpg", encode(".jpg", gray, [q, 70]))
    put("jpeg", "optimized-restart.jpg", encode(".jpg", odd, [q, 60, cv2.IMWRITE_JPEG_OPTIMIZE, 1,
                                                              cv2.IMWRITE_JPEG_RST_INTERVAL, 1]))
    put("jpeg", "chroma-quality.jpg", encode(".jpg", odd, [q, 95, cv2.IMWRITE_JPEG_CHROMA_QUALITY, 20]))
    base = encode(".jpg", odd, [q, 50])
    put("jpeg", "exif-orientation-6.jpg", jpeg_with_segments(base, [(0xE1, exif6)]))
    put("jpeg", "exif-big-endian-orientation-3.jpg",
        jpeg_with_segments(base, [(0xE1, exif_block(order=">", orientation=3))]))
    if real_exif:
        put("jpeg", "camera-exif.jpg", jpeg_with_segments(base, [(0xE1, real_exif)]))
    if icc:
        chunk = b"ICC_PROFILE\0\x01\x01" + icc
        put("jpeg", "icc.jpg", jpeg_with_segments(base, [(0xE2, chunk)]))
        # Two chunks that both say "1 of 2": libjpeg cannot join them.
        half = b"ICC_PROFILE\0\x01\x02"
        put("jpeg", "icc-chunks-damaged.jpg", jpeg_with_segments(base, [(0xE2, half + icc[:100]),
                                                                          (0xE2, half + icc[100:])]))
    put("jpeg", "icc-unreadable.jpg", jpeg_with_segments(base, [(0xE2, b"ICC_PROFILE\0\x01\x01" + b"junk" * 40)]))
    put("jpeg", "xmp-orientation-8.jpg",
        jpeg_with_segments(base, [(0xE1, b"http://ns.adobe.com/xap/1.0/\0" + xmp_orientation(8))]))
    flat = np.full((24, 32, 3), (40, 90, 160), np.uint8)
    put("jpeg", "progressive-110-scans.jpg",
        lt.jpeg_repeat_last_scan(encode(".jpg", flat, [q, 80, cv2.IMWRITE_JPEG_PROGRESSIVE, 1]), 100))

    # PNG
    put("png", "rgb.png", encode(".png", rgb))
    put("png", "rgba.png", encode(".png", rgba))
    put("png", "gray.png", encode(".png", gray))
    put("png", "rgb16.png", encode(".png", (rgb.astype(np.uint16) * 257)))
    put("png", "gray16.png", encode(".png", (gray.astype(np.uint16) * 257)))
    plte = bytes(v for i in range(16) for v in (i * 16, 255 - i * 16, 128))
    put("png", "palette-trns.png", png(11, 7, 8, 3, lambda x, y: bytes([(x + y) % 16]),
                                       [(b"PLTE", plte), (b"tRNS", bytes(range(0, 256, 16)))]))
    put("png", "interlaced-gray-alpha.png", png(13, 11, 8, 4, lambda x, y: bytes([x * 19 % 256, y * 23 % 256]),
                                                interlace=1))
    iccp = b"icc\0\0" + zlib.compress(icc or b"\0" * 128)
    put("png", "iccp-exif.png", png(5, 4, 8, 2, lambda x, y: bytes([x * 50, y * 60, 99]),
                                    [(b"iCCP", iccp), (b"eXIf", exif6[6:])]))
    pixel = lambda x, y: bytes([x * 40, y * 50, 99])  # noqa: E731
    put("png", "exif-orientation-7.png", png(6, 4, 8, 2, pixel, [(b"eXIf", exif_block(order=">", orientation=7)[6:])]))
    xmp_key = b"XML:com.adobe.xmp\0"
    put("png", "xmp-compressed-orientation-5.png",
        png(6, 4, 8, 2, pixel, [(b"iTXt", xmp_key + b"\1\0\0\0" + zlib.compress(xmp_orientation(5)))]))
    put("png", "xmp-damaged.png", png(6, 4, 8, 2, pixel, [(b"iTXt", xmp_key + b"\1\0\0\0" + b"\x78\x9c\xff\xff")]))
    # Text chunks that inflate to 64 KB each: never inflated.
    text = zlib.compress(b"A" * 65536, 9)
    put("png", "many-text-chunks.png",
        png(6, 4, 8, 2, pixel, [(b"zTXt", b"Comment%d\0\0" % k + text) for k in range(24)]
            + [(b"iTXt", b"Comment%d\0\1\0\0\0" % k + text) for k in range(24)]
            + [(b"tEXt", b"Title\0plain")]))
    gray_profile = bytearray(icc or b"\0" * 132)
    gray_profile[16:20] = b"GRAY"
    put("png", "iccp-refused.png",
        png(6, 4, 8, 2, pixel, [(b"iCCP", b"icc\0\0" + zlib.compress(bytes(gray_profile)))]))

    # TIFF
    c = cv2.IMWRITE_TIFF_COMPRESSION
    put("tiff", "rgb-lzw.tif", encode(".tif", rgb, [c, 5]))
    put("tiff", "rgba-deflate.tif", encode(".tif", rgba, [c, 8]))
    put("tiff", "gray-packbits.tif", encode(".tif", gray, [c, 32773]))
    put("tiff", "rgb16-none.tif", encode(".tif", (odd.astype(np.uint16) * 257), [c, 1]))
    pal = [v * 257 for v in range(0, 256)] * 3
    put("tiff", "palette.tif", tiff(6, 4, [(258, 3, [8]), (259, 3, [1]), (262, 3, [3]), (277, 3, [1]),
                                           (278, 4, [4]), (320, 3, pal)], [bytes(range(24))]))
    put("tiff", "bilevel-big-endian.tif", tiff(16, 3, [(258, 3, [1]), (259, 3, [1]), (262, 3, [0]), (277, 3, [1]),
                                                       (278, 4, [3])], [b"\x0f\xf0\xaa\x55\x00\xff"], order=">"))
    put("tiff", "cmyk.tif", tiff(2, 2, [(258, 3, [8, 8, 8, 8]), (259, 3, [1]), (262, 3, [5]), (277, 3, [4]),
                                        (278, 4, [2])], [bytes(range(0, 256, 16))]))
    for name, data in tiff_kinds(rgb, gray).items():
        put("tiff", name, data)

    # Radiance
    hdr = photo("chelsea.png", 24, 10).astype(np.float32) / 64.0
    # OpenCV 4.6 writes run-length encoded rows; too narrow a row for that is written flat.
    put("radiance", "rle.hdr", encode(".hdr", hdr))
    put("radiance", "flat.hdr", encode(".hdr", hdr[:, :6]))
    head = b"#?RADIANCE\n# made by hand\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1.5\n\n-Y 2 +X 3\n"
    put("radiance", "rgbe-tiny.hdr", b"#?RGBE\nFORMAT=32-bit_rle_rgbe\n\n-Y 2 +X 3\n" + bytes(range(100, 124)))
    put("radiance", "header-exposure.hdr", head + bytes([128, 64, 32, 129] * 6))
    # A run-length encoded row of 8 with runs and literals.
    row = b"\x02\x02\x00\x08" + b"".join(b"\x88" + bytes([v]) for v in (10, 20, 30, 129))
    put("radiance", "rle-runs.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 8\n" + row)

    # OpenEXR (OpenCV's writer: half and float, several compressions, gray)
    for name, params in [("half-zip.exr", [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_HALF]),
                         ("float-none.exr", [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_FLOAT,
                                             cv2.IMWRITE_EXR_COMPRESSION, cv2.IMWRITE_EXR_COMPRESSION_NO]),
                         ("half-piz.exr", [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_HALF,
                                           cv2.IMWRITE_EXR_COMPRESSION, cv2.IMWRITE_EXR_COMPRESSION_PIZ]),
                         ("half-rle.exr", [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_HALF,
                                           cv2.IMWRITE_EXR_COMPRESSION, cv2.IMWRITE_EXR_COMPRESSION_RLE]),
                         ("half-b44.exr", [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_HALF,
                                           cv2.IMWRITE_EXR_COMPRESSION, cv2.IMWRITE_EXR_COMPRESSION_B44]),
                         ("float-pxr24.exr", [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_FLOAT,
                                              cv2.IMWRITE_EXR_COMPRESSION, cv2.IMWRITE_EXR_COMPRESSION_PXR24])]:
        put("exr", name, encode(".exr", hdr[:8, :12], params))
    put("exr", "gray-dwaa.exr", encode(".exr", hdr[:6, :9, 1], [cv2.IMWRITE_EXR_TYPE, cv2.IMWRITE_EXR_TYPE_HALF,
                                                                cv2.IMWRITE_EXR_COMPRESSION,
                                                                cv2.IMWRITE_EXR_COMPRESSION_DWAA]))
    rgba_f = cv2.cvtColor(hdr[:5, :7], cv2.COLOR_BGR2BGRA)
    put("exr", "rgba-zips.exr", encode(".exr", rgba_f, [cv2.IMWRITE_EXR_COMPRESSION, cv2.IMWRITE_EXR_COMPRESSION_ZIPS]))

    # GIF, WebP, BMP
    idx = [(x * 3 + y * 5) % 16 for y in range(6) for x in range(7)]
    put("gif-webp-bmp", "still-87a.gif", gif(7, 6, [(0, 0, 7, 6, idx, False, None)], version=b"GIF87a"))
    put("gif-webp-bmp", "transparent-interlaced.gif", gif(7, 6, [(0, 0, 7, 6, idx, True, None)], transparent=3))
    local = bytes(v for i in range(16) for v in (255 - i * 16, i * 16, 0))
    put("gif-webp-bmp", "animated-offset-frames.gif",
        gif(9, 8, [(0, 0, 9, 8, [i % 16 for i in range(72)], False, None),
                   (2, 3, 4, 3, idx[:12], False, local)], loop=True, transparent=0))
    lossy = encode(".webp", rgb, [cv2.IMWRITE_WEBP_QUALITY, 50])
    lossless = encode(".webp", rgba, [cv2.IMWRITE_WEBP_QUALITY, 101])
    put("gif-webp-bmp", "lossy.webp", lossy)
    put("gif-webp-bmp", "lossless-alpha.webp", lossless)
    put("gif-webp-bmp", "animated.webp", animated_webp([encode(".webp", rgb[:8, :8], [cv2.IMWRITE_WEBP_QUALITY, 101]),
                                                        encode(".webp", rgb[4:12, 8:16], [cv2.IMWRITE_WEBP_QUALITY, 40])],
                                                       8, 8))
    still = encode(".webp", rgb[:6, :10], [cv2.IMWRITE_WEBP_QUALITY, 101])
    put("gif-webp-bmp", "metadata-orientation-6.webp",
        webp_with_metadata(still, 10, 6, icc=icc, exif=exif6[6:], xmp=xmp_orientation(6)))
    put("gif-webp-bmp", "exif-with-header-orientation-5.webp",
        webp_with_metadata(still, 10, 6, exif=exif_block(order=">", orientation=5)))
    put("gif-webp-bmp", "xmp-orientation-8.webp", webp_with_metadata(still, 10, 6, xmp=xmp_orientation(8)))
    put("gif-webp-bmp", "icc-unreadable.webp", webp_with_metadata(still, 10, 6, icc=b"junk" * 40))
    put("gif-webp-bmp", "rgb24.bmp", encode(".bmp", odd))
    put("gif-webp-bmp", "gray8-palette.bmp", encode(".bmp", gray))

    # EXIF blocks
    put("exif", "orientation-6-gps-le.bin", exif6)
    put("exif", "orientation-8-be.bin", exif_block(order=">", orientation=8, exposure=(1, 4000)))
    put("exif", "thumbnail.bin", exif_block(orientation=3, thumbnail=encode(".jpg", gray[:8, :8], [q, 30])))
    put("exif", "exposure-zero.bin", exif_block(exposure=(0, 0)))
    if real_exif:
        put("exif", "camera.bin", real_exif)
    put("exif", "jpeg-with-exif.jpg", jpeg_with_segments(encode(".jpg", gray[:8, :8], [q, 30]),
                                                         [(0xE1, exif_block(exposure=(1, 250)))]))

    if lumen_cli:
        lumen_writers(lumen_cli, real_exif)


def lumen_writers(lumen_cli, real_exif):
    """Files of Lumen's own writers: TIFF with EXIF sub-IFDs, PNG with eXIf, .hdr, .exr, a
    camera response."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "src.jpg")
        with open(src, "wb") as f:
            f.write(jpeg_with_segments(encode(".jpg", photo("pier-fog.jpg", 10, 7)),
                                       [(0xE1, real_exif or exif_block(gps=True))]))
        for ext, harness in (("tif", "tiff"), ("png", "png"), ("jpg", "jpeg")):
            out = os.path.join(tmp, "out." + ext)
            subprocess.run([lumen_cli, "--blur", "1", "-o", out, src], check=True)
            put(harness, "lumen-writer." + ext, open(out, "rb").read())
        stack = os.path.join(STACKS, "sunset-handheld")
        small = []
        for n, line in enumerate(open(os.path.join(stack, "exposures.txt"))):
            name, seconds = line.split()
            path = os.path.join(tmp, name)
            cv2.imwrite(path, cv2.resize(cv2.imread(os.path.join(stack, name)), (24, 16),
                                         interpolation=cv2.INTER_AREA))
            small.append((path, seconds))
        times = ",".join(s for _, s in small)
        response = os.path.join(tmp, "response.txt")
        for ext in ("hdr", "exr"):
            out = os.path.join(tmp, "merged." + ext)
            subprocess.run([lumen_cli, "hdr", "--times", times, "--response-out", response, "-o", out]
                           + [p for p, _ in small], check=True)
            put("radiance" if ext == "hdr" else "exr", "lumen-writer." + ext, open(out, "rb").read())
        put("response", "lumen-calibrated.txt", open(response, "rb").read())


def texts():
    for stack in sorted(os.listdir(STACKS)):
        put("exposures", stack + ".txt", open(os.path.join(STACKS, stack, "exposures.txt"), "rb").read())
    put("exposures", "comments-tabs-crlf.txt",
        b"# bracket\r\n\r\n  a.jpg\t0.001\r\n/abs/b.jpg   1e-2\r\nc d.jpg 0.5\r\n")
    put("exposures", "bad-line.txt", b"a.jpg 0.1\nb.jpg\n")

    levels = "\n".join("%.9g %.9g %.9g" % (2 ** ((z - 128) / 32), 2 ** ((z - 127) / 32), 2 ** ((z - 129) / 32))
                       for z in range(256))
    put("response", "smooth.txt", ("# response\n" + levels + "\n").encode())
    put("response", "short.txt", b"1 1 1\n2 2 2\n")
    put("response", "bad-number.txt", b"0.5 nan 1\n")

    put("sidecar", "all.lumen", b"""# Lumen sidecar
[gray]
enabled=true
mode=mix
amount=0.75
red=0.5
green=0.25
blue=0.25

[equalize]
enabled=true
mode=luma
amount=0.5

[blur]
enabled=false
sigma=3.5

[tonemap]
kind=drago
gamma=2.2
intensity=0
light_adapt=1
color_adapt=0
saturation=1
bias=0.85
""")
    put("sidecar", "one-key.lumen", b"[blur]\nenabled=true\nsigma=200\n")
    put("sidecar", "unknown.lumen", b"[sharpen]\nenabled=true\n")
    put("sidecar", "localized.lumen", b"[gray]\nmode=bt601\nmode[de]=x\nenabled=false\n[tonemap]\nkind=gamma\n")
    put("sidecar", "versions.lumen", b"[lumen]\nversion=1\n\n[exposure]\nversion=1\nenabled=true\nev=0.7\n\n"
                                      b"[tonemap]\nversion=1\nkind=gamma\n")
    put("sidecar", "newer-group.lumen", b"[lumen]\nversion=1\n[blur]\nversion=2\nenabled=true\nsigma=1\n")
    # Version 2: instances in [lumen] order, their groups, masks of every shape and a brush.
    put("sidecar", "v2-instances.lumen",
        "[lumen]\nversion=2\norder=rotate,straighten,crop,wb,exposure,exposure#70,contrast,curve,saturation,gray,"
        "blur#71,equalize,blur,resize\n\n[exposure#70]\nname=Sky \u2601\nenabled=true\nev=-0.7\n\n"
        "[exposure#70 mask]\nopacity=0.8\ninvert=false\nfeather=0.004\ndetail=0.1\nluminance=0.55,0.7,1,1\n"
        "hue=350,355,10,20\nshape1=linear add from=0.5,0.05 to=0.5,0.35\n"
        "shape2=radial subtract invert opacity=0.5 centre=0.62,0.2 radii=0.08,0.05 angle=20 softness=0.5\n"
        "shape3=brush add\nstroke3.1=paint size=0.02 hardness=0.6 opacity=1 points=0.41,0.12 0.43,0.125 0.46,0.13\n"
        "stroke3.2=erase size=0.01 hardness=0 opacity=0.25 points=0.42,0.12\n\n"
        "[blur#71]\nname=Soft\nenabled=true\nsigma=1.5\n".encode())
    put("sidecar", "v2-partial-order.lumen",
        b"[lumen]\nversion=2\norder=rotate,straighten,crop,blur#64,exposure\n[blur#64]\nenabled=true\n"
        b"[exposure mask]\nsaturation=0,0.1,0.9,1\nshape1=radial intersect centre=0.5,0.5 radii=0.2,0.3 angle=-45 "
        b"softness=1\n")
    put("sidecar", "v2-not-in-order.lumen",
        b"[lumen]\nversion=2\norder=rotate,straighten,crop,exposure#64\n[exposure#65]\nenabled=true\n"
        b"[exposure#64 mask]\nshape2=brush add\nstroke1.1=paint size=1 hardness=1 opacity=1 points=0,0\n")

    put("manifest", "two-stacks.tsv", b"# id\timage\tseconds\nsunset\ta/1.jpg\t0.002\nsunset\ta/2.jpg\t1/125\n"
                                      b"forest\t/abs/f1.jpg\t0.5\r\nforest\tf2.jpg\t2\n")
    put("manifest", "bad-lines.tsv", b"ok\tx.jpg\t1\nok\ty.jpg\tsoon\nbad\tonly-two\n.hidden\tz.jpg\t1\n")
    put("manifest", "duplicate-split.tsv", b"a\t1.jpg\t1\nb\t2.jpg\t2\na\t3.jpg\t3\n")

    # Up to four files, form feeds between: journal.tsv, journal-0-of-2.tsv, journal-1-of-2.tsv,
    # stacks.txt (fuzz-journal.c).
    put("journal", "sums-redo-stacks.tsv",
        b"start\t1700000000000000\t0\t0\t2\t2\ndone\t1700000001000000\ta\t10.5\t4096\t0badc0de\n"
        b"redo\t1700000002000000\ta\toutput cut short\ndone\t1700000003000000\ta\t9\t4100\tdeadbeef\n"
        b"failed\t1700000004000000\tb\tb/1.jpg: damaged\nend\t1700000005000000\n\f\f\f"
        b"# stacks of the batch\na\nb\n")
    start = b"start\t1700000000000000\t0\t0\t3\t3\n"
    put("journal", "one-run.tsv", start + b"done\t1700000001000000\tsunset\t812.5\n"
                                          b"failed\t1700000002000000\tforest\tforest/1.jpg: no such file\n"
                                          b"done\t1700000003000000\tcourtyard\t903\nend\t1700000004000000\n")
    put("journal", "shards.tsv", b"\f" + b"start\t1700000000000000\t0\t2\t2\t3\ndone\t1700000001000000\ta\t1\n"
                                 b"done\t1700000001000000\ta\t1\nend\t1700000002000000\n\f"
                                 b"start\t1700000000500000\t1\t2\t1\t3\nfailed\t1700000001000000\tb\tdisk\n"
                                 b"done\t1700000001500000\tb\t2\ndone\t1700000001600000\tc\t")


def raws():
    """Camera raw files: small DNGs of every layout the loader takes (tests/raw/dng.py), and
    makers' headers that LibRaw identifies by their magic numbers alone."""
    sys.path.insert(0, os.path.join(ROOT, "tests", "raw"))
    import dng
    rng = np.random.default_rng(31)
    mosaic = rng.integers(256, 4000, size=(24, 30), dtype=np.uint16)
    cm = [[0.6722, -0.0635, -0.0963], [-0.4287, 1.2460, 0.2028], [-0.0908, 0.2162, 0.5668]]
    kinds = {
        "bayer-block-black.dng": (mosaic, dict(cfa="GRBG", black=(250, 252, 254, 256), black_dim=(2, 2),
                                               white=4095, color_matrix=cm, as_shot_neutral=(0.5, 1, 0.7),
                                               exposure_time=1 / 60)),
        "xtrans.dng": (mosaic, dict(cfa="XTRANS", black=(256,), white=4095, color_matrix=cm,
                                    color_matrix2=cm, forward_matrix=cm)),
        "linear-raw.dng": (rng.integers(0, 4000, size=(24, 24, 3), dtype=np.uint16), dict(cfa=None, white=4095)),
        "mono.dng": (mosaic, dict(cfa=None, black=(64,), white=4095)),
        "orientation-6.dng": (mosaic, dict(orientation=6, white=4095, baseline_exposure=0.5)),
    }
    with tempfile.TemporaryDirectory() as tmp:
        for name, (data, kw) in kinds.items():
            path = os.path.join(tmp, name)
            dng.write(path, data, **kw)
            with open(path, "rb") as f:
                put("raw", name, f.read())
    put("raw", "cr2-header.cr2", b"II*\0" + struct.pack("<I", 16) + b"CR\x02\0" + struct.pack("<I", 0))
    put("raw", "cr3-ftyp.cr3", struct.pack(">I", 24) + b"ftypcrx " + struct.pack(">I", 1) + b"crx isom")
    put("raw", "raf-header.raf", b"FUJIFILMCCD-RAW 0201FF383501" + bytes(72))
    put("raw", "orf-header.orf", b"IIRO" + struct.pack("<I", 8) + bytes(8))
    put("raw", "rw2-header.rw2", b"IIU\0" + struct.pack("<I", 8) + bytes(8))


def main():
    lumen_cli = sys.argv[1] if len(sys.argv) > 1 else None
    images(lumen_cli)
    texts()
    raws()


if __name__ == "__main__":
    main()
