"""The README's side-by-side of the Canon EOS 30D CR2 (rawtran-doc): Lumen's JPEG export with
default settings, converted to sRGB (left) beside darktable-cli's (right), each 640 px wide, a caption strip
below; docs/images/cr2-side-by-side.jpg, under 300 KB.

darktable's half is committed, made by hand once (darktable 4.2.1, Debian 12, default
settings, no configuration of its own) and downscaled here to 640 px:
    darktable-cli /usr/share/doc/rawtran/IMG_5952.CR2 dt.jpg --core --configdir EMPTY_DIR
    python3 side_by_side.py --darktable dt.jpg
Lumen's half is made from the build's lumen-cli (LUMEN_CLI or build/app/lumen-cli):
    python3 side_by_side.py"""

import os
import subprocess
import sys
import tempfile

from PIL import Image, ImageDraw

import cr2
import lumen

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
DARKTABLE = os.path.join(ROOT, 'docs', 'images', 'cr2-darktable.jpg')
OUT = os.path.join(ROOT, 'docs', 'images', 'cr2-side-by-side.jpg')
WIDTH = 640
CAPTION = 28


def half(path):
    im = Image.open(path).convert('RGB')
    return im.resize((WIDTH, round(im.height * WIDTH / im.width)), Image.LANCZOS)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == '--darktable':
        os.makedirs(os.path.dirname(DARKTABLE), exist_ok=True)
        half(sys.argv[2]).save(DARKTABLE, quality=88, optimize=True)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        ours = os.path.join(tmp, 'lumen.jpg')
        # sRGB, as darktable's export is: Lumen's own keeps the edit's Rec. 2020 profile, which
        # this sheet (no colour management) would show washed out.
        subprocess.run([lumen.cli(), '--to-srgb', '-o', ours, cr2.CR2], check=True)
        left = half(ours)
    right = Image.open(DARKTABLE)
    h = max(left.height, right.height)
    sheet = Image.new('RGB', (2 * WIDTH, h + CAPTION), 'white')
    sheet.paste(left, (0, 0))
    sheet.paste(right, (WIDTH, 0))
    draw = ImageDraw.Draw(sheet)
    draw.text((8, h + 8), 'Lumen (lumen-cli --to-srgb, default settings)', fill='black')
    draw.text((WIDTH + 8, h + 8), 'darktable 4.2.1 (darktable-cli, default settings)',
              fill='black')
    sheet.save(OUT, quality=85, optimize=True)
    size = os.path.getsize(OUT)
    if size > 300 * 1024:
        sys.exit('%s is %d KB, over 300 KB' % (OUT, size // 1024))
    return 0


if __name__ == '__main__':
    sys.exit(main())
