"""Metadata through lumen-cli, read back by exiftool: a photo's keywords (XMP and IPTC), rating,
copyright (EXIF and XMP), GPS position, lens, a raw converter's history and settings survive
an edit and a plain conversion from JPEG, TIFF and PNG sources to JPEG, PNG and TIFF outputs;
CreatorTool and Software name Lumen and its version, Orientation is 1, and exiftool's
validation finds nothing wrong with the files. The sources are made here by exiftool writing
into copies of a test photo. Skipped when exiftool is missing.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

import cv2
import numpy as np

try:
    from PIL import Image
except ImportError:  # pragma: no cover - the Makefile installs python3-pil
    Image = None

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import lumen_testlib as lt  # noqa: E402

EXIFTOOL = shutil.which("exiftool")
PHOTO = os.path.join(lt.photos_dir(), "forest-path.jpg")  # an Olympus E-M1's EXIF
PLAIN = os.path.join(lt.photos_dir(), "chelsea.png")      # no metadata at all

KEYWORDS = ["path", "forest"]
COPYRIGHT = "© Ann Example"
LENS = "XF23mmF2 R WR"
AGENT = "Raw Converter 5"
# What a photographer's tools write; the fixes (ExifVersion, ResolutionUnit, …) make the
# camera's own EXIF valid, so that any warning on an output is Lumen's.
JPEG_ONLY = ["-YCbCrPositioning=Centered", "-ComponentsConfiguration=Y, Cb, Cr, -"]
WRITE = ["-XMP:all=", "-IFD1:all=", "-ExifVersion=0230", "-ResolutionUnit=inches",
         "-GPSProcessingMethod=GPS",
         "-XMP-dc:Subject=path", "-XMP-dc:Subject=forest", "-IPTC:Keywords=path", "-IPTC:Keywords=forest",
         "-XMP-xmp:Rating=4", f"-EXIF:Copyright={COPYRIGHT}", f"-XMP-dc:Rights={COPYRIGHT}",
         "-GPSLatitude=48.8566", "-GPSLatitudeRef=N", "-GPSLongitude=2.3522", "-GPSLongitudeRef=E",
         f"-LensModel={LENS}", "-XMP-crs:Exposure2012=+0.35", "-XMP-xmpMM:HistoryAction=saved",
         f"-XMP-xmpMM:HistorySoftwareAgent={AGENT}", f"-XMP-xmp:CreatorTool={AGENT}",
         f"-Software={AGENT}"]
# libtiff declares tag 33723 UNDEFINED and writes it so; TIFF 6 says LONG. Readers take both.
TIFF_IPTC_FORMAT = "Non-standard format (undef) for IFD0 0x83bb IPTC-NAA"
# Lumen's TIFF writer keeps the EXIF dimensions (tests/unit/test-io.c holds it to them); EXIF
# defines them for compressed data only, which exiftool notes as minor.
TIFF_DIMENSIONS = ["ExifIFD tag 0xa002 ExifImageWidth is not allowed in TIFF",
                   "ExifIFD tag 0xa003 ExifImageHeight is not allowed in TIFF"]


def exiftool(*args):
    proc = subprocess.run([EXIFTOOL, *args], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise AssertionError(f"exiftool {' '.join(args)}: {proc.stderr}")
    return proc.stdout


def read_tags(paths):
    """Path → {group:tag: value}, numbers as numbers (-n)."""
    return {os.path.basename(r["SourceFile"]): r for r in json.loads(exiftool("-j", "-G1", "-n", *paths))}


def warnings(paths):
    """Path → exiftool's validation warnings and errors."""
    out = json.loads(exiftool("-j", "-a", "-validate", "-warning", "-error", *paths))
    result = {}
    for r in out:
        found = []
        for key, value in r.items():
            if key.startswith(("Warning", "Error")):
                found += value if isinstance(value, list) else [value]
        result[os.path.basename(r["SourceFile"])] = [w.replace("[minor] ", "") for w in found]
    return result


def cli(args):
    proc = lt.run(args)
    if proc.returncode != 0 or proc.stderr:
        raise AssertionError(f"lumen-cli {' '.join(args)}: {lt.describe(proc)}")


def as_list(value):
    return value if isinstance(value, list) else [value]


@unittest.skipIf(EXIFTOOL is None, "exiftool is not installed (libimage-exiftool-perl)")
class Metadata(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-metadata-")
        cls.dir = cls._tmp.name
        try:
            cls.make_files()
        except BaseException:
            cls._tmp.cleanup()  # tearDownClass is not called when setUpClass fails
            raise

    @classmethod
    def make_files(cls):
        version = lt.run(["--version"]).stdout.split()[-1]
        cls.tool = f"Lumen {version}"
        # A small copy of the photo, camera EXIF kept, then the metadata written into it and
        # into TIFF and PNG copies of it.
        base = cls.path("base.jpg")
        cli(["--resize", "480x0", "-o", base, PHOTO])
        cls.sources = {}
        for ext in ("jpg", "tif", "png"):
            src = cls.path("src." + ext)
            if ext == "jpg":
                shutil.copy(base, src)
            else:
                cli(["-o", src, base])
            exiftool("-q", "-overwrite_original", *WRITE, *(JPEG_ONLY if ext == "jpg" else []), src)
            cls.sources[ext] = src
        cls.outputs = {}
        for ext, src in cls.sources.items():
            for out_ext in ("jpg", "png", "tif"):
                for edit in ("plain", "exposure"):
                    out = cls.path(f"{ext}-{edit}.{out_ext}")
                    flags = ["--exposure", "0.5"] if edit == "exposure" else []
                    cli(flags + ["-o", out, src])
                    cls.outputs[os.path.basename(out)] = ext
        cls.tags = read_tags([cls.path(n) for n in cls.outputs] + list(cls.sources.values()))
        cls.warnings = warnings([cls.path(n) for n in cls.outputs] + list(cls.sources.values()))

    @classmethod
    def tearDownClass(cls):
        cls._tmp.cleanup()

    @classmethod
    def path(cls, name):
        return os.path.join(cls.dir, name)

    def test_sources_are_valid(self):
        """The test's own sources hold what they should and pass exiftool's validation."""
        for ext, src in self.sources.items():
            name = os.path.basename(src)
            t = self.tags[name]
            self.assertEqual(as_list(t.get("XMP-dc:Subject")), KEYWORDS, name)
            self.assertEqual(t.get("ExifIFD:LensModel"), LENS, name)
            allowed = [TIFF_IPTC_FORMAT] + TIFF_DIMENSIONS if ext == "tif" else []
            self.assertEqual([w for w in self.warnings[name] if w not in allowed], [], name)

    def test_kept(self):
        for name, src_ext in sorted(self.outputs.items()):
            with self.subTest(output=name):
                t = self.tags[name]
                self.assertEqual(as_list(t.get("XMP-dc:Subject")), KEYWORDS)
                self.assertEqual(t.get("XMP-xmp:Rating"), 4)
                self.assertEqual(t.get("XMP-dc:Rights"), COPYRIGHT)
                self.assertEqual(t.get("IFD0:Copyright"), COPYRIGHT)
                self.assertAlmostEqual(t.get("GPS:GPSLatitude"), 48.8566, places=4)
                self.assertAlmostEqual(t.get("GPS:GPSLongitude"), 2.3522, places=4)
                self.assertEqual(t.get("GPS:GPSLatitudeRef"), "N")
                self.assertEqual(t.get("ExifIFD:LensModel"), LENS)
                self.assertEqual(t.get("IFD0:Make"), "OLYMPUS IMAGING CORP.")
                self.assertAlmostEqual(t.get("ExifIFD:ExposureTime"), 1 / 15, places=6)
                self.assertEqual(t.get("ExifIFD:DateTimeOriginal"), "2015:09:06 18:46:57")
                self.assertEqual(as_list(t.get("XMP-xmpMM:HistorySoftwareAgent")), [AGENT])
                self.assertEqual(t.get("XMP-crs:Exposure2012"), "+0.35")
                # PNG has no place for IPTC-IIM that readers agree on; XMP's dc:subject holds the keywords.
                if not name.endswith(".png") and src_ext != "png":
                    self.assertEqual(as_list(t.get("IPTC:Keywords")), KEYWORDS)

    def test_lumen_named(self):
        for name in self.outputs:
            with self.subTest(output=name):
                t = self.tags[name]
                self.assertEqual(t.get("XMP-xmp:CreatorTool"), self.tool)
                self.assertEqual(t.get("IFD0:Software"), self.tool)
                self.assertIn(t.get("IFD0:Orientation", 1), (1,))

    def test_valid(self):
        for name in self.outputs:
            with self.subTest(output=name):
                allowed = [TIFF_IPTC_FORMAT] + TIFF_DIMENSIONS if name.endswith(".tif") else []
                self.assertEqual([w for w in self.warnings[name] if w not in allowed], [])

    def test_xmp_by_format(self):
        """The packet is where each format keeps it: JPEG's APP1, PNG's iTXt, TIFF's tag 700."""
        for name in self.outputs:
            with self.subTest(output=name):
                data = lt.read_bytes(self.path(name))
                if name.endswith(".jpg"):
                    self.assertTrue(any(m == 0xE1 and p.startswith(b"http://ns.adobe.com/xap/1.0/\0")
                                        for m, _, p in lt.jpeg_segments(data)))
                elif name.endswith(".png"):
                    self.assertIn(b"iTXtXML:com.adobe.xmp\0", data)
                else:
                    self.assertIn(b"<x:xmpmeta", lt.exif_ifd0(data).get(700, b""))


@unittest.skipIf(EXIFTOOL is None, "exiftool is not installed (libimage-exiftool-perl)")
class Fresh(unittest.TestCase):
    """Sources without metadata, and one turned by its Orientation."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-metadata-")
        self.dir = self._tmp.name
        self.tool = "Lumen " + lt.run(["--version"]).stdout.split()[-1]

    def tearDown(self):
        self._tmp.cleanup()

    def test_no_xmp_source(self):
        """A file without XMP gets a small valid packet naming Lumen, nothing broken."""
        src = os.path.join(self.dir, "bare.png")
        shutil.copy(PLAIN, src)
        exiftool("-q", "-overwrite_original", "-all=", src)  # chelsea.png has an XMP packet
        self.assertNotIn("XMP-x:XMPToolkit", read_tags([src])["bare.png"])
        outs = []
        for ext in ("jpg", "png", "tif"):
            out = os.path.join(self.dir, "plain." + ext)
            lt.run_ok(self, ["-o", out, src])
            outs.append(out)
        tags = read_tags(outs)
        found = warnings(outs)
        for out in outs:
            name = os.path.basename(out)
            with self.subTest(output=name):
                self.assertEqual(found[name], [])
                xmp = {k: v for k, v in tags[name].items() if k.startswith("XMP")}
                self.assertEqual(xmp.get("XMP-xmp:CreatorTool"), self.tool, xmp)
                self.assertNotIn("IPTC:Keywords", tags[name])

    def test_orientation_reset(self):
        """EXIF and XMP (tiff:Orientation) say 6 in the source; the export says 1 in both."""
        src = os.path.join(self.dir, "turned.jpg")
        lt.run_ok(self, ["--resize", "160x0", "-o", src, PHOTO])
        # The photo's own packet (digiKam's) has duplicates that keep exiftool from editing it.
        exiftool("-q", "-overwrite_original", "-XMP:all=", src)
        exiftool("-q", "-overwrite_original", "-IFD0:Orientation#=6", "-XMP-tiff:Orientation#=6", src)
        outs = []
        for ext in ("jpg", "png", "tif"):
            out = os.path.join(self.dir, "upright." + ext)
            lt.run_ok(self, ["-o", out, src])
            outs.append(out)
        tags = read_tags(outs + [src])
        self.assertEqual(tags["turned.jpg"].get("XMP-tiff:Orientation"), 6)
        for out in outs:
            t = tags[os.path.basename(out)]
            with self.subTest(output=os.path.basename(out)):
                self.assertEqual(t.get("IFD0:Orientation", 1), 1)
                self.assertEqual(t.get("XMP-tiff:Orientation"), 1)
                self.assertEqual(t.get("XMP-xmp:CreatorTool"), self.tool)
                w, h = t.get("File:ImageWidth") or t.get("PNG:ImageWidth") or t.get("IFD0:ImageWidth"), \
                    t.get("File:ImageHeight") or t.get("PNG:ImageHeight") or t.get("IFD0:ImageHeight")
                self.assertEqual((w, h), (100, 160))  # 160 × 100 turned a quarter


SHORT, LONG, UNDEFINED = 3, 4, 7
TAG_IMAGE_WIDTH, TAG_IMAGE_LENGTH, TAG_EXIF_IFD = 0x100, 0x101, 0x8769
TAG_EXIF_VERSION, TAG_PIXEL_X, TAG_PIXEL_Y = 0x9000, 0xA002, 0xA003


def exif_with_dimensions(big_endian, kind, width, height):
    """An EXIF TIFF block stating WIDTH × HEIGHT in IFD 0 (ImageWidth, ImageLength) and in the
    EXIF IFD (PixelXDimension, PixelYDimension), each as one KIND (SHORT or LONG), in either
    byte order: LONG as Nokia's phones store them, SHORT as Sony's cameras do."""
    bo = ">" if big_endian else "<"

    def entry(tag, typ, value):
        raw = struct.pack(bo + "HH", value, 0) if typ == SHORT else struct.pack(bo + "I", value)
        return struct.pack(bo + "HHI", tag, typ, 1) + raw

    exif_at = 8 + 2 + 3 * 12 + 4
    ifd0 = (struct.pack(bo + "H", 3) + entry(TAG_IMAGE_WIDTH, kind, width)
            + entry(TAG_IMAGE_LENGTH, kind, height) + entry(TAG_EXIF_IFD, LONG, exif_at)
            + struct.pack(bo + "I", 0))
    exif = (struct.pack(bo + "H", 3) + struct.pack(bo + "HHI", TAG_EXIF_VERSION, UNDEFINED, 4) + b"0230"
            + entry(TAG_PIXEL_X, kind, width) + entry(TAG_PIXEL_Y, kind, height) + struct.pack(bo + "I", 0))
    return (b"MM\0*" if big_endian else b"II*\0") + struct.pack(bo + "I", 8) + ifd0 + exif


@unittest.skipIf(EXIFTOOL is None or Image is None, "exiftool or Pillow is not installed")
class Dimensions(unittest.TestCase):
    """Every pixel dimension the EXIF of an export states is the export's own, whether the
    source stored them as SHORT or LONG, little- or big-endian, after a crop or a resize, in
    JPEG, PNG and TIFF; a SHORT that cannot hold the new width becomes a LONG."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-dimensions-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name

    def source(self, big_endian, kind, width=160, height=100):
        name = f"src-{'be' if big_endian else 'le'}-{'short' if kind == SHORT else 'long'}.jpg"
        path = os.path.join(self.dir, name)
        rng = np.random.default_rng(5)
        pixels = rng.integers(0, 256, (height, width, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(path, quality=90,
                                     exif=b"Exif\0\0" + exif_with_dimensions(big_endian, kind, width, height))
        t = read_tags([path])[name]
        self.assertEqual((t["IFD0:ImageWidth"], t["IFD0:ImageHeight"]), (width, height))
        self.assertEqual((t["ExifIFD:ExifImageWidth"], t["ExifIFD:ExifImageHeight"]), (width, height))
        return path

    def assert_dimensions(self, outs):
        """The EXIF's dimensions in each of OUTS against the file's pixels (read by Pillow)."""
        tags = read_tags(outs)
        for out in outs:
            name = os.path.basename(out)
            t = tags[name]
            with Image.open(out) as img:
                size = img.size
            with self.subTest(output=name):
                self.assertEqual((t.get("ExifIFD:ExifImageWidth"), t.get("ExifIFD:ExifImageHeight")), size)
                if not out.endswith(".tif"):  # a TIFF's IFD 0 is the image's own, written by libtiff
                    self.assertEqual((t.get("IFD0:ImageWidth"), t.get("IFD0:ImageHeight")), size)

    def test_crop_and_resize(self):
        outs = []
        for big_endian in (False, True):
            for kind in (SHORT, LONG):
                src = self.source(big_endian, kind)
                stem = os.path.splitext(os.path.basename(src))[0]
                for op, want in ((["--crop", "10,20,100,60"], (100, 60)), (["--resize", "64x40"], (64, 40))):
                    for ext in ("jpg", "png", "tif"):
                        out = os.path.join(self.dir, f"{stem}-{op[0][2:]}.{ext}")
                        cli([*op, "-o", out, src])
                        with Image.open(out) as img:
                            self.assertEqual(img.size, want, out)
                        outs.append(out)
        self.assert_dimensions(outs)

    def test_short_too_narrow_for_the_width(self):
        """A panorama 70,000 px wide stitched from frames whose EXIF (kept from the first)
        states SHORT dimensions: the export states its width as a LONG."""
        src = os.path.join(self.dir, "panorama.png")
        Image.new("RGB", (70000, 2), (90, 120, 200)).save(
            src, exif=b"Exif\0\0" + exif_with_dimensions(True, SHORT, 6000, 4000))
        outs = [os.path.join(self.dir, "wide." + ext) for ext in ("png", "tif")]
        for out in outs:
            cli(["-o", out, src])
        self.assert_dimensions(outs)


def xmp_packet(properties, as_elements):
    """An XMP packet stating PROPERTIES ({"exif:PixelXDimension": 160, …}) as attributes of its
    rdf:Description or as its child elements, with a rating beside them."""
    head = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
            '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
            '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"'
            ' xmlns:tiff="http://ns.adobe.com/tiff/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="3"')
    tail = '</rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>'
    if as_elements:
        body = "".join(f"<{k}>{v}</{k}>" for k, v in properties.items())
        return f"{head}>\n{body}\n</rdf:Description>\n{tail}"
    return head + "".join(f' {k}="{v}"' for k, v in properties.items()) + f"/>\n{tail}"


EXTS = ("jpg", "png", "tif")
XMP_SIZE = {"exif:PixelXDimension": "XMP-exif:ExifImageWidth", "exif:PixelYDimension": "XMP-exif:ExifImageHeight",
            "tiff:ImageWidth": "XMP-tiff:ImageWidth", "tiff:ImageLength": "XMP-tiff:ImageHeight"}


@unittest.skipIf(EXIFTOOL is None, "exiftool is not installed (libimage-exiftool-perl)")
class XmpDimensions(unittest.TestCase):
    """The sizes the XMP of an export states (exif:PixelXDimension, exif:PixelYDimension,
    tiff:ImageWidth, tiff:ImageLength) are the export's own after a crop or a resize, stated
    as attributes or as elements, from JPEG, PNG and TIFF sources to each format; a packet
    that states none, or only some, gets no others."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-xmp-dimensions-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name

    def sources(self, name, properties, as_elements):
        """A 160×100 photo in each of EXTS, its XMP block PROPERTIES as written by exiftool
        (which copies a block as it is), read back to check the sources state what they should."""
        paths = [os.path.join(self.dir, f"{name}.{ext}") for ext in EXTS]
        pixels = np.random.default_rng(7).integers(0, 256, (100, 160, 3), dtype=np.uint8)
        for path in paths:
            Image.fromarray(pixels).save(path)
        packet = os.path.join(self.dir, f"{name}.xmp")
        with open(packet, "w", encoding="utf-8") as f:
            f.write(xmp_packet(properties, as_elements))
        exiftool("-q", "-overwrite_original", f"-xmp<={packet}", *paths)
        tags = read_tags(paths)
        for path in paths:
            t = tags[os.path.basename(path)]
            self.assertEqual({XMP_SIZE[k]: t.get(XMP_SIZE[k]) for k in properties},
                             {XMP_SIZE[k]: v for k, v in properties.items()}, path)
        return paths

    def export(self, src, op, ext):
        stem = os.path.splitext(os.path.basename(src))[0]
        out = os.path.join(self.dir, f"{stem}-{src[-3:]}-{op[0][2:]}.{ext}")
        cli([*op, "-o", out, src])
        return out

    def test_crop_and_resize(self):
        full = {"exif:PixelXDimension": 160, "exif:PixelYDimension": 100, "tiff:ImageWidth": 160,
                "tiff:ImageLength": 100}
        outs = []
        # Each writer gets each form after each operation, and each reader each form.
        for as_elements in (False, True):
            for i, src in enumerate(self.sources("elements" if as_elements else "attributes", full, as_elements)):
                for j, op in enumerate((["--crop", "10,20,100,60"], ["--resize", "64x40"])):
                    outs.append(self.export(src, op, EXTS[(i + j + as_elements) % 3]))
        tags = read_tags(outs)
        for out in outs:
            t = tags[os.path.basename(out)]
            with Image.open(out) as img:
                width, height = img.size
            self.assertIn((width, height), ((100, 60), (64, 40)), out)
            with self.subTest(output=os.path.basename(out)):
                self.assertEqual(t.get("XMP-xmp:Rating"), 3)
                self.assertEqual({k: t.get(k) for k in XMP_SIZE.values()},
                                 {"XMP-exif:ExifImageWidth": width, "XMP-exif:ExifImageHeight": height,
                                  "XMP-tiff:ImageWidth": width, "XMP-tiff:ImageHeight": height})

    def test_none_added(self):
        """A packet stating only a width, and one stating no size: nothing else appears."""
        outs = []
        width_only = self.sources("width-only", {"exif:PixelXDimension": 160}, True)
        no_size = self.sources("no-size", {}, False)
        for i, ext in enumerate(EXTS):
            outs.append(self.export(width_only[i], ["--resize", "64x40"], EXTS[(i + 1) % 3]))
            outs.append(self.export(no_size[i], ["--resize", "64x40"], ext))
        tags = read_tags(outs)
        for out in outs:
            t = tags[os.path.basename(out)]
            want = {k: None for k in XMP_SIZE.values()}
            if "width-only" in out:
                want["XMP-exif:ExifImageWidth"] = 64
            with self.subTest(output=os.path.basename(out)):
                self.assertEqual(t.get("XMP-xmp:Rating"), 3)
                self.assertEqual({k: t.get(k) for k in XMP_SIZE.values()}, want)


UTF16_KEYWORDS = ["Straße", "clef \U0001d11e"]  # a letter beyond ASCII, one beyond the BMP (a surrogate pair)
UTF16_PACKET = ('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>'
                '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                '<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" '
                'xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:Rating>3</xmp:Rating><dc:subject><rdf:Bag>'
                + "".join(f"<rdf:li>{k}</rdf:li>" for k in UTF16_KEYWORDS)
                + '</rdf:Bag></dc:subject></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>')


def tiff_with_xmp(path, packet, orientation=1):
    """A small RGB TIFF (Pillow's) with PACKET (bytes) as tag 700 and ORIENTATION."""
    from PIL import Image, TiffImagePlugin
    info = TiffImagePlugin.ImageFileDirectory_v2()
    info[700] = packet
    info.tagtype[700] = 1  # BYTE, as XMP's tag is
    info[274] = orientation
    pixels = lt.imread(PLAIN)[:40, :64, ::-1].copy()
    Image.fromarray(pixels).save(path, tiffinfo=info)


@unittest.skipIf(EXIFTOOL is None, "exiftool is not installed (libimage-exiftool-perl)")
class TiffXmpEncodings(unittest.TestCase):
    """XMP in a TIFF's tag 700 as UTF-16 or UTF-32 (either byte order, with a byte order mark or
    without), which some tools write, travels to every export as a UTF-8 packet; one that is
    not valid UTF-16 is left out with a note that says so, the export still made."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-xmp16-")
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def test_utf16_and_utf32_packets_travel(self):
        encodings = {"utf-16le-bom": UTF16_PACKET.encode("utf-16"),  # the host's order: little-endian
                     "utf-16be-bom": b"\xfe\xff" + UTF16_PACKET.encode("utf-16-be"),
                     "utf-16be-nul": UTF16_PACKET.encode("utf-16-be") + b"\0\0",  # no mark, a C string's end
                     "utf-32le-bom": b"\xff\xfe\0\0" + UTF16_PACKET.encode("utf-32-le")}
        self.assertEqual(encodings["utf-16le-bom"][:2], b"\xff\xfe")
        for name, packet in encodings.items():
            src = os.path.join(self.dir, name + ".tif")
            tiff_with_xmp(src, packet)
            outs = []
            for ext in ("jpg", "png", "tif"):
                out = os.path.join(self.dir, f"{name}-out.{ext}")
                lt.run_ok(self, ["-o", out, src])
                outs.append(out)
            tags = read_tags(outs)
            for out in outs:
                with self.subTest(encoding=name, output=os.path.basename(out)):
                    t = tags[os.path.basename(out)]
                    self.assertEqual(as_list(t.get("XMP-dc:Subject")), UTF16_KEYWORDS, t)
                    self.assertEqual(t.get("XMP-xmp:Rating"), 3)
                    self.assertEqual(t.get("XMP-xmp:CreatorTool"), "Lumen " + lt.run(["--version"]).stdout.split()[-1])

    def test_undecodable_packet_is_noted(self):
        """A lone surrogate: the packet is left out and lumen-cli says so, once, naming the file;
        the note survives the turn of Orientation 6."""
        packet = UTF16_PACKET.encode("utf-16-le")
        at = packet.index("Straße".encode("utf-16-le"))
        src = os.path.join(self.dir, "lone-surrogate.tif")
        tiff_with_xmp(src, b"\xff\xfe" + packet[:at] + b"\x00\xd8" + packet[at + 2:], orientation=6)
        out = os.path.join(self.dir, "lone-surrogate-out.tif")
        proc = lt.run(["-o", out, src])
        self.assertEqual(proc.returncode, 0, lt.describe(proc))
        self.assertEqual(proc.stderr.strip(), f"lumen-cli: note: {src}: its XMP packet (TIFF tag 700) is not valid "
                                              "UTF-16: it is left out")
        t = read_tags([out])[os.path.basename(out)]
        self.assertNotIn("XMP-dc:Subject", t)
        self.assertEqual((t.get("IFD0:ImageWidth"), t.get("IFD0:ImageHeight")), (40, 64))


# How a reader shows stored pixels S for each EXIF Orientation (TIFF 6.0's table: where row 0
# and column 0 lie), and its inverse: the stored pixels that show as the upright TRUTH.
SHOWN = {1: lambda s: s, 2: np.fliplr, 3: lambda s: np.rot90(s, 2), 4: np.flipud,
         5: lambda s: s.transpose(1, 0, 2), 6: lambda s: np.rot90(s, -1),
         7: lambda s: np.rot90(s, 2).transpose(1, 0, 2), 8: lambda s: np.rot90(s, 1)}
STORED = {1: lambda t: t, 2: np.fliplr, 3: lambda t: np.rot90(t, 2), 4: np.flipud,
          5: lambda t: t.transpose(1, 0, 2), 6: lambda t: np.rot90(t, 1),
          7: lambda t: np.rot90(t.transpose(1, 0, 2), 2), 8: lambda t: np.rot90(t, -1)}


def truth():
    """An upright 12 × 20 RGB picture no turn or mirror maps onto itself: every pixel its own."""
    y, x = np.mgrid[0:12, 0:20]
    return np.dstack([x * 12, y * 20, (x * 7 + y * 11) % 256]).astype(np.uint8)


def exif_orientation(value):
    exif = Image.Exif()
    exif[0x0112] = value
    return exif.tobytes()


def webp_with_exif_header(data):
    """A WebP (Pillow's) whose EXIF chunk is given the "Exif\\0\\0" head some writers put there."""
    at = data.index(b"EXIF")
    n = int.from_bytes(data[at + 4:at + 8], "little")
    payload = b"Exif\0\0" + data[at + 8:at + 8 + n]
    chunk = b"EXIF" + len(payload).to_bytes(4, "little") + payload + (b"\0" if len(payload) & 1 else b"")
    body = data[12:at] + chunk + data[at + 8 + n + (n & 1):]
    return b"RIFF" + (4 + len(body)).to_bytes(4, "little") + b"WEBP" + body


@unittest.skipIf(Image is None, "Pillow (python3-pil) is not installed")
class Turned(unittest.TestCase):
    """PNG (eXIf) and WebP (its EXIF chunk) sources turned upright by their Orientation, as JPEG
    ones are: every output equals the upright picture, whatever the stored turn; XMP's
    tiff:Orientation decides where EXIF states none, and EXIF wins where both do."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-turned-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name
        self.truth = truth()

    def path(self, name):
        return os.path.join(self.dir, name)

    def upright(self, src, name="out.png"):
        out = self.path(name)
        lt.run_ok(self, ["-o", out, src])
        return lt.imread(out)[..., ::-1]  # RGB

    def stored(self, orientation, name, **save):
        src = self.path(name)
        Image.fromarray(np.ascontiguousarray(STORED[orientation](self.truth)), "RGB").save(src, **save)
        return src

    def test_tables_agree_with_opencv(self):
        """The test's own tables: OpenCV shows each stored PNG as the truth (it applies a PNG's
        EXIF orientation, not a WebP's), and SHOWN undoes STORED."""
        for o in range(1, 9):
            with self.subTest(orientation=o):
                np.testing.assert_array_equal(SHOWN[o](STORED[o](self.truth)), self.truth)
                src = self.stored(o, f"cv{o}.png", exif=exif_orientation(o))
                np.testing.assert_array_equal(cv2.imread(src, cv2.IMREAD_COLOR)[..., ::-1], self.truth)

    def test_png_exif(self):
        for o in range(1, 9):
            with self.subTest(orientation=o):
                src = self.stored(o, f"turned{o}.png", exif=exif_orientation(o))
                np.testing.assert_array_equal(self.upright(src), self.truth)

    def test_webp_exif(self):
        for o in range(1, 9):
            with self.subTest(orientation=o):
                src = self.stored(o, f"turned{o}.webp", exif=exif_orientation(o), lossless=True, exact=True)
                np.testing.assert_array_equal(self.upright(src), self.truth)
                if o in (6, 7):
                    headed = self.path(f"headed{o}.webp")
                    with open(headed, "wb") as f:
                        f.write(webp_with_exif_header(lt.read_bytes(src)))
                    np.testing.assert_array_equal(self.upright(headed), self.truth)

    @unittest.skipIf(EXIFTOOL is None, "exiftool is not installed (libimage-exiftool-perl)")
    def test_xmp_orientation_where_exif_states_none(self):
        """XMP tiff:Orientation 6 alone turns the photo (PNG, WebP, JPEG, a TIFF without its own
        Orientation tag); with EXIF's 1 or 3 beside it, EXIF's is the one (exiftool's and the
        Metadata Working Group's order)."""
        only = {ext: self.stored(6, "xmp-only." + ext, **save)
                for ext, save in (("png", {}), ("webp", {"lossless": True, "exact": True}),
                                  ("jpg", {"quality": 100, "subsampling": 0}), ("tif", {}))}
        both = {exif: self.stored(exif, f"both{exif}.png", exif=exif_orientation(exif)) for exif in (1, 3)}
        exiftool("-q", "-overwrite_original", "-XMP-tiff:Orientation#=6", *only.values(), *both.values())
        tags = read_tags(list(only.values()))
        for ext, src in only.items():
            with self.subTest(source=ext):
                self.assertEqual(tags[os.path.basename(src)].get("XMP-tiff:Orientation"), 6)
                self.assertNotIn("IFD0:Orientation", tags[os.path.basename(src)])
                got = self.upright(src).astype(int)
                tolerance = 3 if ext == "jpg" else 0
                self.assertLessEqual(int(np.abs(got - self.truth).max()), tolerance)
        for exif, src in both.items():
            with self.subTest(exif=exif):
                np.testing.assert_array_equal(self.upright(src), self.truth)

    @unittest.skipIf(EXIFTOOL is None, "exiftool is not installed (libimage-exiftool-perl)")
    def test_exports_of_a_turned_png_and_webp_say_1(self):
        """PNG, JPEG and TIFF exports of a PNG and a WebP stored turned (EXIF and XMP both 6):
        upright pixels, sides swapped, Orientation 1 in EXIF and in XMP."""
        sources = [self.stored(6, "turned." + ext, exif=exif_orientation(6), **save)
                   for ext, save in (("png", {}), ("webp", {"lossless": True, "exact": True}))]
        exiftool("-q", "-overwrite_original", "-XMP-tiff:Orientation#=6", *sources)
        outs = []
        for src in sources:
            for ext in ("png", "jpg", "tif"):
                out = self.path(os.path.basename(src).replace(".", "-") + "." + ext)
                lt.run_ok(self, ["-o", out, src])
                outs.append(out)
        tags = read_tags(outs + sources)
        for src in sources:
            t = tags[os.path.basename(src)]
            self.assertEqual((t.get("IFD0:Orientation"), t.get("XMP-tiff:Orientation")), (6, 6), src)
        for out in outs:
            t = tags[os.path.basename(out)]
            with self.subTest(output=os.path.basename(out)):
                self.assertEqual(t.get("IFD0:Orientation", 1), 1)
                self.assertEqual(t.get("XMP-tiff:Orientation"), 1)
                got = lt.imread(out)[..., ::-1].astype(int)
                self.assertEqual(got.shape, self.truth.shape)
                tolerance = 12 if out.endswith(".jpg") else 0
                self.assertLessEqual(int(np.abs(got - self.truth).max()), tolerance)



@unittest.skipIf(Image is None or EXIFTOOL is None, "Pillow (python3-pil) or exiftool is missing")
class CmykJpeg(unittest.TestCase):
    """A CMYK JPEG (decoded by gdk-pixbuf, as libjpeg-turbo converts no CMYK) is turned as an RGB
    one is: by EXIF's Orientation, or by XMP's tiff:Orientation where EXIF states none; and its
    EXIF, XMP and IPTC travel to the export, Orientation 1 in both."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="lumen-cli-cmyk-")
        self.addCleanup(self._tmp.cleanup)
        self.dir = self._tmp.name
        self.truth = truth()

    def path(self, name):
        return os.path.join(self.dir, name)

    def stored_cmyk(self, name, **save):
        """The truth stored turned as Orientation 6 says, in CMYK (Pillow's: C = 255 − R, …)."""
        src = self.path(name)
        turned = Image.fromarray(np.ascontiguousarray(STORED[6](self.truth)), "RGB").convert("CMYK")
        turned.save(src, "JPEG", quality=100, subsampling=0, **save)
        with Image.open(src) as written:
            self.assertEqual(written.mode, "CMYK")
        return src

    def assert_upright(self, out):
        got = lt.imread(out)[..., ::-1].astype(int)
        self.assertEqual(got.shape, self.truth.shape, "not turned upright")
        self.assertLessEqual(int(np.abs(got - self.truth).max()), 6)

    def test_turned_by_exif_and_by_xmp(self):
        by_exif = self.stored_cmyk("exif.jpg", exif=exif_orientation(6))
        by_xmp = self.stored_cmyk("xmp.jpg")
        exiftool("-q", "-overwrite_original", "-XMP-tiff:Orientation#=6", by_xmp)
        tags = read_tags([by_exif, by_xmp])
        self.assertEqual(tags["exif.jpg"].get("IFD0:Orientation"), 6)
        self.assertEqual((tags["xmp.jpg"].get("XMP-tiff:Orientation"), tags["xmp.jpg"].get("IFD0:Orientation")),
                         (6, None))
        for src in (by_exif, by_xmp):
            with self.subTest(source=os.path.basename(src)):
                out = self.path(os.path.basename(src) + ".png")
                lt.run_ok(self, ["-o", out, src])
                self.assert_upright(out)

    def test_metadata_travels(self):
        src = self.stored_cmyk("tagged.jpg", exif=exif_orientation(6))
        exiftool("-q", "-overwrite_original", "-XMP-tiff:Orientation#=6", f"-EXIF:Copyright={COPYRIGHT}",
                 "-XMP-dc:Subject=path", "-XMP-dc:Subject=forest", "-IPTC:Keywords=path",
                 "-IPTC:Keywords=forest", src)
        outs = [self.path("tagged-out." + ext) for ext in ("jpg", "tif", "png")]
        for out in outs:
            lt.run_ok(self, ["-o", out, src])
        tags = read_tags(outs)
        for out in outs:
            t = tags[os.path.basename(out)]
            with self.subTest(output=os.path.basename(out)):
                self.assertEqual(t.get("IFD0:Copyright"), COPYRIGHT)
                self.assertEqual(as_list(t.get("XMP-dc:Subject")), KEYWORDS)
                self.assertEqual(t.get("IFD0:Orientation", 1), 1)
                self.assertEqual(t.get("XMP-tiff:Orientation"), 1)
                if not out.endswith(".png"):  # PNG has no place for IPTC
                    self.assertEqual(as_list(t.get("IPTC:Keywords")), KEYWORDS)
                self.assert_upright(out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
