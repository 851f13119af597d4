"""A DNG writer for the tests: sensor data with a known truth, written with tifffile
(python3-tifffile), uncompressed (Debian's LibRaw reads no deflate).

    write(path, data, cfa='RGGB' | 'XTRANS' | (dims, pattern) | None, ...)

DATA is uint16: H × W for a colour filter array or a monochrome sensor, H × W × 3 for
LinearRaw. EXTRA_TAGS: more of tifffile's (code, dtype, count, value, True), such as
ActiveArea (50829), DefaultCropOrigin/Size (50719, 50720), DefaultScale (50718). Matrices are row-major 3 × 3 lists: COLOR_MATRIX maps XYZ to camera RGB under
ILLUMINANT (EXIF LightSource: 21 D65, 17 Standard A), as DNG's ColorMatrix1 does."""

import struct
from fractions import Fraction

import numpy as np
import tifffile

# Fujifilm X-Pro1's X-Trans pattern (0 R, 1 G, 2 B), as LibRaw reads it.
XTRANS = (1, 1, 0, 1, 1, 2,
          1, 1, 2, 1, 1, 0,
          2, 0, 1, 0, 2, 1,
          1, 1, 2, 1, 1, 0,
          1, 1, 0, 1, 1, 2,
          0, 2, 1, 2, 0, 1)
BAYER = {'RGGB': (0, 1, 1, 2), 'BGGR': (2, 1, 1, 0), 'GRBG': (1, 0, 2, 1), 'GBRG': (1, 2, 0, 1)}


def pattern(cfa):
    """(dims, colours) of CFA: a Bayer name, 'XTRANS' or (dims, colours) itself."""
    if cfa == 'XTRANS':
        return (6, 6), XTRANS
    if isinstance(cfa, str):
        return (2, 2), BAYER[cfa]
    return cfa


def mosaic(rgb, cfa):
    """An H × W × 3 image sampled through CFA: each site keeps its filter's colour."""
    (ph, pw), colours = pattern(cfa)
    h, w, _ = rgb.shape
    yy, xx = np.mgrid[:h, :w]
    idx = np.asarray(colours, dtype=np.intp).reshape(ph, pw)[yy % ph, xx % pw]
    return np.take_along_axis(rgb, idx[..., None], axis=2)[..., 0]


def _srational(values):
    out = []
    for v in values:
        f = Fraction(float(v)).limit_denominator(1000000)
        out += [f.numerator, f.denominator]
    return out


def _urational(values):
    return _srational(values)


def write(path, data, cfa='RGGB', black=(0,), black_dim=None, white=65535, color_matrix=None,
          illuminant=21, color_matrix2=None, illuminant2=17, forward_matrix=None,
          as_shot_neutral=None, orientation=1, baseline_exposure=None, make='Lumen',
          model='Test Camera', exposure_time=None, iso=None, preview=None, extra_tags=()):
    data = np.ascontiguousarray(data, dtype=np.uint16)
    tags = [(50706, 'B', 4, (1, 4, 0, 0), True), (50707, 'B', 4, (1, 1, 0, 0), True),
            (50708, 's', 0, make + ' ' + model, True), (271, 's', 0, make, True),
            (272, 's', 0, model, True), (274, 'H', 1, orientation, True)]
    if data.ndim == 3:
        photometric = 34892  # LinearRaw
    elif cfa is None:
        photometric = 1  # patched to LinearRaw below: tifffile refuses 34892 with one sample
    else:
        photometric = 32803
        (ph, pw), colours = pattern(cfa)
        tags += [(33421, 'H', 2, (ph, pw), True), (33422, 'B', len(colours), tuple(colours), True),
                 (50710, 'B', 3, (0, 1, 2), True), (50711, 'H', 1, 1, True)]
    if black_dim:
        tags.append((50713, 'H', 2, tuple(black_dim), True))
    tags.append((50714, 'H', len(black), tuple(int(b) for b in black), True))
    tags.append((50717, 'H', 1, int(white), True))
    if color_matrix is not None:
        tags += [(50721, '2i', 9, _srational(np.ravel(color_matrix)), True),
                 (50778, 'H', 1, illuminant, True)]
    if color_matrix2 is not None:
        tags += [(50722, '2i', 9, _srational(np.ravel(color_matrix2)), True),
                 (50779, 'H', 1, illuminant2, True)]
    if forward_matrix is not None:
        tags.append((50964, '2i', 9, _srational(np.ravel(forward_matrix)), True))
    if as_shot_neutral is not None:
        tags.append((50728, '2I', 3, _urational(as_shot_neutral), True))
    if baseline_exposure is not None:
        tags.append((50730, '2i', 1, _srational([baseline_exposure]), True))
    if exposure_time is not None:
        tags.append((33434, '2I', 1, _urational([exposure_time]), True))
    if iso is not None:
        tags.append((34855, 'H', 1, int(iso), True))
    tags += list(extra_tags)  # tifffile's (code, dtype, count, value, True)
    tifffile.imwrite(path, data, photometric=photometric, compression=None, extratags=tags,
                     metadata=None)
    if photometric == 1:
        _patch_photometric(path, 34892)


def _patch_photometric(path, value):
    b = bytearray(open(path, 'rb').read())
    off = struct.unpack('<I', b[4:8])[0]
    n = struct.unpack('<H', b[off:off + 2])[0]
    for i in range(n):
        e = off + 2 + 12 * i
        if struct.unpack('<H', b[e:e + 2])[0] == 262:
            b[e + 8:e + 10] = struct.pack('<H', value)
    open(path, 'wb').write(b)
