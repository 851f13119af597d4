#!/usr/bin/python3
"""Writes tests/data/bad/images/: damaged, forged and wrong files, each a kind of bad input
seen in the wild or in fuzzing, made from the corpus's chelsea.png (cropped small) or from
scratch. Run from anywhere with /usr/bin/python3 (OpenCV); the files are committed, so this
only documents how they were made and remakes them. Every file's expected cause is in
../EXPECTED.tsv."""
import os
import random
import struct
import sys
import zlib

import cv2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "images")
sys.path.insert(0, os.path.join(HERE, "..", "..", "formats"))
import giflib_writer as gw  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "..", "..", "raw"))
import dng  # noqa: E402


def photo():
    img = cv2.imread(os.path.join(HERE, "..", "photos", "chelsea.png"), cv2.IMREAD_COLOR)
    return np.ascontiguousarray(img[40:88, 60:124])  # 64×48


def encode(ext, params=()):
    ok, enc = cv2.imencode(ext, photo(), list(params))
    assert ok
    return enc.tobytes()


def png_chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


def patch(data, at, packed):
    return data[:at] + packed + data[at + len(packed):]


def strips_past_end(tif):
    """TIF (little-endian, as OpenCV writes) with every strip offset moved past the file's end:
    a whole directory whose pixel data is missing."""
    data = bytearray(tif)
    (ifd,) = struct.unpack_from("<I", data, 4)
    (n,) = struct.unpack_from("<H", data, ifd)
    for k in range(n):
        tag, kind, count, value = struct.unpack_from("<HHII", data, ifd + 2 + 12 * k)
        if tag == 273:  # StripOffsets, LONG
            at = [ifd + 2 + 12 * k + 8] if count == 1 else [value + 4 * i for i in range(count)]
            for a in at:
                struct.pack_into("<I", data, a, len(tif) + 4096)
    return bytes(data)


def tiff_entries(data):
    """{tag: (entry offset, type, count)} of a little-endian TIFF's IFD0."""
    (ifd,) = struct.unpack_from("<I", data, 4)
    (n,) = struct.unpack_from("<H", data, ifd)
    out = {}
    for k in range(n):
        at = ifd + 2 + 12 * k
        tag, kind, count = struct.unpack_from("<HHI", data, at)
        out[tag] = (at, kind, count)
    return out


def set_tag(data, tag, value):
    """DATA with TAG's one SHORT or LONG value in IFD0 set to VALUE."""
    data = bytearray(data)
    at, kind, _ = tiff_entries(data)[tag]
    struct.pack_into("<H" if kind == 3 else "<I", data, at + 8, value)
    return bytes(data)


def raw_files():
    """Camera raw files (core/io/raw.c): small DNGs from tests/raw/dng.py, damaged or forged,
    and makers' magic numbers followed by nothing useful."""
    import tempfile
    rng = np.random.default_rng(7)

    def dng_bytes(data, **kw):
        with tempfile.NamedTemporaryFile(suffix=".dng") as f:
            dng.write(f.name, data, **kw)
            return open(f.name, "rb").read()

    mosaic = rng.integers(256, 4000, size=(24, 32), dtype=np.uint16)
    good = dng_bytes(mosaic, white=4095)
    xtrans = bytearray(dng_bytes(mosaic, cfa="XTRANS", white=4095))
    at, _, _ = tiff_entries(xtrans)[33421]
    struct.pack_into("<HH", xtrans, at + 8, 6, 2)  # CFARepeatPatternDim 6 × 2, CFAPattern of 36
    return {
        # LibRaw 0.20.2 crashed on this one (fuzz/crashes/raw): refused before it reads it.
        "dng-cfa-dims-not-pattern.dng": bytes(xtrans),
        "dng-header-only.dng": strips_past_end(good)[:4096] if len(good) > 4096 else strips_past_end(good),
        # 30000² (LibRaw itself refuses sides past 64000): the budget refuses it before unpacking.
        "dng-30000-square.dng": set_tag(set_tag(good, 256, 30000), 257, 30000),
        "dng-cfa-3x3.dng": dng_bytes(rng.integers(256, 4000, size=(24, 33), dtype=np.uint16),
                                     cfa=((3, 3), (0, 1, 2, 1, 2, 0, 2, 0, 1)), white=4095),
        "dng-white-below-black.dng": dng_bytes(mosaic, black=(3000,), white=1000),
        "dng-deflate.dng": set_tag(good, 259, 8),
        "cr2-header-only.cr2": b"II*\0" + struct.pack("<I", 16) + b"CR\x02\0" + struct.pack("<I", 0),
        "raf-magic-then-garbage.raf": b"FUJIFILMCCD-RAW 0201FF383501" + bytes(rng.integers(0, 256, 2000, dtype=np.uint8)),
        "cr3-ftyp-only.cr3": struct.pack(">I", 24) + b"ftypcrx " + struct.pack(">I", 1) + b"crx isom",
        "orf-magic-only.orf": b"IIRO" + struct.pack("<I", 8),
    }


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(13)
    jpg = encode(".jpg", [cv2.IMWRITE_JPEG_QUALITY, 90])
    prog = encode(".jpg", [cv2.IMWRITE_JPEG_QUALITY, 90, cv2.IMWRITE_JPEG_PROGRESSIVE, 1])
    png = encode(".png")
    tif = encode(".tif", [cv2.IMWRITE_TIFF_COMPRESSION, 1])
    webp = encode(".webp", [cv2.IMWRITE_WEBP_QUALITY, 101])
    bmp = encode(".bmp")
    # 16-bit files: their own read paths (libpng without strip_16, libtiff's 16-bit scanlines).
    photo16 = photo().astype(np.uint16) * 257 + 99
    png16 = cv2.imencode(".png", photo16)[1].tobytes()
    tif16 = cv2.imencode(".tif", photo16, [cv2.IMWRITE_TIFF_COMPRESSION, 1])[1].tobytes()
    os.environ["OPENCV_IO_ENABLE_OPENEXR"] = "1"
    ok, exr = cv2.imencode(".exr", np.full((32, 24, 3), 0.5, np.float32))
    exr = exr.tobytes()
    pal = [(i, 255 - i, (i * 7) % 256) for i in range(256)]
    idx = [(x + y) % 256 for y in range(24) for x in range(32)]
    gif = gw.gif(32, 24, [gw.frame(32, 24, idx)], pal)
    hdr_rows = bytearray()
    for y in range(16):
        hdr_rows += bytes([2, 2, 0, 64])
        for c in range(4):
            hdr_rows += bytes([64]) + bytes(128 + (x + y + c) % 100 for x in range(64))
    hdr = b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16 +X 64\n" + bytes(hdr_rows)
    sof = jpg.index(b"\xff\xc0")
    ihdr_end = 33
    exr_window = exr.index(b"dataWindow\0box2i\0") + len(b"dataWindow\0box2i\0") + 4
    vp8l = webp.index(b"VP8L") + 9
    vp8l_fields = struct.unpack("<I", webp[vp8l:vp8l + 4])[0] & ~0xFFFFFFF
    files = {
        "empty.jpg": b"",
        "text-named.png": b"This is a shopping list, not a picture.\nmilk\neggs\n",
        "random-bytes.jpg": bytes(rng.randrange(256) for _ in range(3000)),
        "html-named.tif": b"<!DOCTYPE html><html><body>404 Not Found</body></html>\n",
        "half.jpg": jpg[:len(jpg) // 2],
        "half-progressive.jpg": prog[:len(prog) // 2],
        "jpeg-header-then-garbage.jpg": jpg[:sof + 19] + bytes(rng.randrange(256) for _ in range(400)),
        "jpeg-65500-square.jpg": patch(jpg, sof + 5, struct.pack(">HH", 65500, 65500)),
        "jpeg-zero-width.jpg": patch(jpg, sof + 5, struct.pack(">HH", 48, 0)),
        "jpeg-markers-only.jpg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9",
        "half.png": png[:len(png) // 2],
        "png-100000-square.png": png[:8] + png_chunk(b"IHDR", struct.pack(">II", 100000, 100000) + png[24:29]) + png[ihdr_end:],
        "png-bad-crc.png": patch(png, 29, b"\0\0\0\0"),
        "png-no-idat.png": png[:ihdr_end] + png_chunk(b"IEND", b""),
        "png-signature-only.png": png[:8],
        "half.tif": tif[:len(tif) // 2],
        "half16.png": png16[:len(png16) // 2],
        "half16.tif": tif16[:len(tif16) // 2],
        "tiff16-strips-past-end.tif": strips_past_end(tif16),
        "tiff-header-only.tif": tif[:8],
        "tiff-ifd-past-end.tif": tif[:4] + struct.pack("<I", 10_000_000) + tif[8:],
        "half.webp": webp[:len(webp) // 2],
        "webp-16000-square.webp": patch(webp, vp8l, struct.pack("<I", vp8l_fields | 15999 | (15999 << 14))),
        "riff-wave.webp": b"RIFF" + struct.pack("<I", 36) + b"WAVEfmt " + bytes(28),
        "half.bmp": bmp[:len(bmp) // 2],
        "bmp-30000-square-rows-missing.bmp": patch(bmp, 18, struct.pack("<ii", 30000, 30000)),
        "bmp-rle-65535-square.bmp": patch(patch(bmp, 18, struct.pack("<ii", 65535, 65535)), 28, struct.pack("<HI", 8, 1)),
        "bmp-header-size-7.bmp": patch(bmp, 14, struct.pack("<I", 7)),
        "gif-35-bytes-65535-square.gif": b"GIF89a" + struct.pack("<HHBBB", 65535, 65535, 0x80, 0, 0) + bytes(6)
                                          + b"\x2c" + struct.pack("<HHHHB", 0, 0, 65535, 65535, 0) + b"\x02\x02\x4c\x01\x00\x3b",
        "gif-frame-30000-square.gif": b"GIF89a" + struct.pack("<HHBBB", 30000, 30000, 0x80, 0, 0) + bytes(6)
                                       + b"\x2c" + struct.pack("<HHHHB", 0, 0, 30000, 30000, 0) + b"\x02\x02\x4c\x01\x00\x3b",
        "half.gif": gif[:len(gif) // 2],
        "gif-no-image.gif": gif[:13 + 768] + b"\x3b",
        "gif-no-colour-table.gif": gw.gif(32, 24, [gw.frame(32, 24, idx)]),
        "gif-signature-only.gif": b"GIF89a",
        "half.hdr": hdr[:400],
        "hdr-zero-run.hdr": patch(hdr, hdr.index(b"+X 64\n") + 6 + 4, b"\0"),
        "hdr-header-only-13000-square.hdr": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 13000 +X 13000\n",
        "hdr-no-size-line.hdr": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n",
        "exr-window-32768-square.exr": patch(exr, exr_window, struct.pack("<4i", 0, 0, 32767, 32767)),
        "half.exr": exr[:len(exr) // 2],
        "exr-magic-only.exr": exr[:4],
    }
    files.update(raw_files())
    for name, data in files.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
    print(f"{len(files)} files in {OUT}")


if __name__ == "__main__":
    main()
