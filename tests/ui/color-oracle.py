"""Pillow's ImageCms (lcms2) as the colour-managed view's oracle, for tests/ui/test-color.c.

    color-oracle.py make SRC OUT PROFILE W H   SRC's top-left W x H converted from sRGB to
                                               PROFILE, saved as PNG with PROFILE embedded
    color-oracle.py expect IN MONITOR OUT      IN's pixels from its embedded profile (sRGB
                                               without one) to MONITOR, saved as PNG

Both with the view's intent: relative colorimetric with black-point compensation, lcms2's
full pipeline (no precalculated 8-bit tables).
"""
import io
import sys

from PIL import Image, ImageCms

# lcms2's flags (Pillow < 10 names neither): black-point compensation, and no precalculated
# 8-bit tables (their own rounding would count against the view).
BLACKPOINTCOMPENSATION = 0x2000
NOOPTIMIZE = 0x0100
INTENT = ImageCms.Intent.RELATIVE_COLORIMETRIC if hasattr(ImageCms, 'Intent') else ImageCms.INTENT_RELATIVE_COLORIMETRIC


def transform(image, source, target):
    t = ImageCms.buildTransform(source, target, 'RGB', 'RGB', renderingIntent=INTENT,
                                flags=BLACKPOINTCOMPENSATION | NOOPTIMIZE)
    return ImageCms.applyTransform(image, t)


def main(argv):
    if argv[1] == 'make':
        src, out, profile, w, h = argv[2], argv[3], argv[4], int(argv[5]), int(argv[6])
        image = Image.open(src).convert('RGB').crop((0, 0, w, h))
        converted = transform(image, ImageCms.createProfile('sRGB'), ImageCms.ImageCmsProfile(profile))
        with open(profile, 'rb') as f:
            converted.save(out, icc_profile=f.read())
    elif argv[1] == 'expect':
        image = Image.open(argv[2])
        icc = image.info.get('icc_profile')
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc)) if icc else ImageCms.createProfile('sRGB')
        transform(image.convert('RGB'), source, ImageCms.ImageCmsProfile(argv[3])).save(argv[4])
    else:
        sys.exit('usage: color-oracle.py make|expect …')


if __name__ == '__main__':
    main(sys.argv)
