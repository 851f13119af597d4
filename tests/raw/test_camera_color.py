"""Camera colour (core/raw/camera-color.c) against an independent computation in numpy from
published constants: the CIE daylight locus (CIE 15:2004) and Kim et al.'s fit of the
Planckian locus, checked against the CIE's chromaticities of D65 and illuminant A; Rec. 2020's
and sRGB's matrices from their primaries; Bradford's cone matrix; ColorMatrix interpolation in
1/T (DNG 1.4, 6.2.1). Checked: temperature and tint to multipliers, and back; the as-shot
multipliers of a DNG's AsShotNeutral and the temperature they name; the fallbacks; the gray
picker; camera (1, 1, 1) to (1, 1, 1); the matrices of the ColorMatrix and ForwardMatrix
paths; and LibRaw's own camera to sRGB matrix and D65 multipliers of the Canon EOS 30D CR2
(rawtran-doc), read with raw-identify -v, against the table path.

    test_camera_color.py PROBE   (tests/raw/camera-color-probe, built by meson)"""

import os
import re
import shutil
import subprocess
import sys

import numpy as np

PROBE = sys.argv[1]
CR2 = '/usr/share/doc/rawtran/IMG_5952.CR2'
failures = []


def check(ok, what):
    print(('ok    ' if ok else 'FAIL  ') + what)
    if not ok:
        failures.append(what)


def xyz_of(x, y):
    return np.array([x / y, 1.0, (1.0 - x - y) / y])


def rgb_to_xyz(primaries, white):
    p = np.column_stack([xyz_of(*xy) for xy in primaries])
    return p * np.linalg.solve(p, xyz_of(*white))


D65_XY = (0.3127, 0.3290)
D50 = np.array([0.96422, 1.0, 0.82521])
REC2020 = rgb_to_xyz([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], D65_XY)
SRGB = rgb_to_xyz([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], D65_XY)
BRADFORD = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])


def bradford(src, dst):
    return np.linalg.inv(BRADFORD) @ np.diag((BRADFORD @ dst) / (BRADFORD @ src)) @ BRADFORD


def locus_xy(t):
    """CIE daylight from 4000 K, Planckian (Kim et al., 2002) below."""
    if t >= 4000:
        if t <= 7000:
            x = -4.6070e9 / t**3 + 2.9678e6 / t**2 + 0.09911e3 / t + 0.244063
        else:
            x = -2.0064e9 / t**3 + 1.9018e6 / t**2 + 0.24748e3 / t + 0.237040
        return x, -3.000 * x * x + 2.870 * x - 0.275
    x = -0.2661239e9 / t**3 - 0.2343589e6 / t**2 + 0.8776956e3 / t + 0.179910
    if t <= 2222:
        y = -1.1063814 * x**3 - 1.34811020 * x**2 + 2.18555832 * x - 0.20219683
    else:
        y = -0.9549476 * x**3 - 1.37418593 * x**2 + 2.09137015 * x - 0.16748867
    return x, y


def uv_of(x, y):
    d = -2 * x + 12 * y + 3
    return np.array([4 * x / d, 6 * y / d])


def xy_of_uv(uv):
    d = 2 * uv[0] - 8 * uv[1] + 4
    return 3 * uv[0] / d, 2 * uv[1] / d


def normal(t):
    """The unit normal of the locus at T in uv, towards green (central difference)."""
    m = 1e6 / t
    d = uv_of(*locus_xy(1e6 / (m + 0.01))) - uv_of(*locus_xy(1e6 / (m - 0.01)))
    n = np.array([-d[1], d[0]]) / np.hypot(*d)
    return n if n[1] > 0 else -n


def light_xy(t, tint):
    return xy_of_uv(uv_of(*locus_xy(t)) + tint / 3000.0 * normal(t))


MIREDS = np.arange(40.0, 600.0, 0.002)
LOCUS = np.array([uv_of(*locus_xy(1e6 / m)) for m in MIREDS])


def cct(x, y):
    """The temperature of the locus point nearest to (x, y) in uv (the foot of the normal)."""
    d = np.hypot(*(LOCUS - uv_of(x, y)).T)
    return 1e6 / MIREDS[np.argmin(d)]


EXIF_T = {17: 2856.0, 21: 6504.0, 23: 5003.0}


def matrix_at(t, m1, i1, m2=None, i2=None):
    if m2 is None:
        return np.asarray(m1)
    t1, t2 = EXIF_T[i1], EXIF_T[i2]
    g = np.clip((1 / t - 1 / t2) / (1 / t1 - 1 / t2), 0, 1)
    return g * np.asarray(m1) + (1 - g) * np.asarray(m2)


def neutral_xy(neutral, cam_at):
    x, y = 0.3457, 0.3585
    for _ in range(50):
        xyz = np.linalg.solve(cam_at(cct(x, y)), neutral)
        x, y = xyz[0] / xyz.sum(), xyz[1] / xyz.sum()
    return x, y


class Probe:
    def __init__(self):
        self.p = subprocess.Popen([PROBE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, *words):
        self.p.stdin.write(' '.join(str(w) for w in words) + '\n')
        self.p.stdin.flush()
        return np.array([float(v) for v in self.p.stdout.readline().split()]) if words[0] != 'info' \
            else self.p.stdout.readline()

    def info(self, **kw):
        words = ['info']
        for k, v in kw.items():
            words += [k] + [repr(float(f)) for f in np.ravel(v)]
        assert self.ask(*words).strip() == 'ok'


# A camera of two matrices (made up, in the range of real ones): ColorMatrix1 under A,
# ColorMatrix2 under D65, an analog balance.
CM_A = np.array([[0.7034, -0.0804, -0.1014], [-0.4420, 1.1564, 0.3269], [-0.0553, 0.1345, 0.6606]])
CM_D65 = np.array([[0.6257, -0.0303, -0.1000], [-0.7880, 1.5621, 0.2396], [-0.1714, 0.1904, 0.7046]])
AB = np.array([1.02, 1.0, 0.97])


def cam_at(t):
    return np.diag(AB) @ matrix_at(t, CM_A, 17, CM_D65, 21)


def main():
    # The loci against the CIE's published chromaticities.
    for t, xy, tol in ((6504, D65_XY, 2e-4), (2856, (0.44757, 0.40745), 1e-3), (5003, (0.3457, 0.3585), 2e-4)):
        check(np.allclose(locus_xy(t), xy, atol=tol), f'locus at {t} K is {xy}')
    check(np.allclose(REC2020[1], [0.2627, 0.6780, 0.0593], atol=1e-4), 'Rec. 2020 luminance weights')

    probe = Probe()
    probe.info(source=1, illuminants=[17, 21], cm1=CM_A, cm2=CM_D65, ab=AB)

    # Temperature and tint → multipliers: the inverse of the camera's neutral for that light.
    for t, tint in ((2700, 0), (3200, 20), (4500, -15), (5500, 0), (6504, 0), (8000, 30), (12000, -40)):
        x, y = light_xy(t, tint)
        neutral = cam_at(t) @ xyz_of(x, y)
        want = neutral[1] / neutral
        got = probe.ask('mul', 2, t, tint, 0, 0, 0)
        check(np.allclose(got[:3], want, rtol=2e-5) and got[3] == got[1],
              f'{t} K tint {tint}: multipliers {got[:3]} against {want}')
        back = probe.ask('temperature', *got)
        check(abs(back[0] / t - 1) < 2e-4 and abs(back[1] - tint) < 0.05,
              f'{t} K tint {tint} → multipliers → {back[0]:.2f} K tint {back[1]:.3f}')
    warm, cool = probe.ask('mul', 2, 3000, 0, 0, 0, 0), probe.ask('mul', 2, 9000, 0, 0, 0, 0)
    check(warm[2] > cool[2] and warm[0] < cool[0], 'warmer light: more blue gain, less red')
    magenta = probe.ask('mul', 2, 5000, 50, 0, 0, 0)
    green = probe.ask('mul', 2, 5000, -50, 0, 0, 0)
    check(magenta[0] > green[0] and magenta[2] > green[2], 'positive tint lowers green against red and blue')

    # A DNG's AsShotNeutral (LibRaw's cam_mul is its inverse) of a 4300 K light.
    neutral = cam_at(4300) @ xyz_of(*locus_xy(4300))
    neutral /= neutral.max()
    probe.info(source=1, illuminants=[17, 21], cm1=CM_A, cm2=CM_D65, ab=AB, as_shot=list(1 / neutral) + [0])
    got = probe.ask('mul', 0, 0, 0, 0, 0, 0)
    check(np.allclose(got[:3], neutral[1] / neutral, rtol=1e-6) and got[3] == 1, f'as shot: {got} = 1/AsShotNeutral')
    t, tint = probe.ask('temperature', *got)
    check(abs(t - 4300) < 1.0 and abs(tint) < 0.05, f'AsShotNeutral of 4300 K light reads {t:.2f} K tint {tint:.3f}')
    # Without it, daylight; without that, the matrix's D65 neutral.
    probe.info(source=1, illuminants=[17, 21], cm1=CM_A, cm2=CM_D65, ab=AB, daylight=[2.0, 1.0, 1.5, 1.0])
    check(np.allclose(probe.ask('mul', 0, 0, 0, 0, 0, 0), [2.0, 1.0, 1.5, 1.0]), 'as shot falls back to daylight')
    probe.info(source=1, illuminants=[17, 21], cm1=CM_A, cm2=CM_D65, ab=AB)
    d65 = cam_at(6504) @ xyz_of(*D65_XY)
    got = probe.ask('mul', 0, 0, 0, 0, 0, 0)
    check(np.allclose(got[:3], d65[1] / d65, rtol=1e-5), f'then to the D65 neutral {d65[1] / d65}')

    # The gray picker: a gray under 3200 K light seen by the camera.
    rgb = cam_at(3200) @ xyz_of(*locus_xy(3200)) * 0.4
    got = probe.ask('gray', *rgb)
    check(np.allclose(got[:3] * rgb, rgb[1], rtol=1e-6), f'picked gray {rgb} made neutral by {got}')
    t, tint = probe.ask('temperature', *got)
    check(abs(t - 3200) < 1.0 and abs(tint) < 0.05, f'picked gray of 3200 K light reads {t:.2f} K tint {tint:.3f}')

    # Camera → Rec. 2020 through ColorMatrix: D65-normalised rows of CM(T) · Rec2020→XYZ, inverted.
    for t in (2856, 4300, 6504):
        mul = probe.ask('mul', 2, t, 0, 0, 0, 0)
        tw = cct(*neutral_xy(1 / mul[:3], cam_at))
        cam_rec = cam_at(tw) @ REC2020
        want = np.linalg.inv(cam_rec / cam_rec.sum(axis=1, keepdims=True))
        got = probe.ask('rec2020', *mul).reshape(3, 3)
        check(np.allclose(got, want, atol=2e-5), f'ColorMatrix path at {t} K:\n{got}\nagainst\n{want}')
        check(np.allclose(got.sum(axis=1), 1, atol=1e-6), f'camera (1, 1, 1) → (1, 1, 1) at {t} K')
        xyz = probe.ask('xyz', *mul).reshape(3, 3)
        check(np.allclose(xyz, REC2020 @ got, atol=1e-5) and np.allclose(xyz.sum(axis=1), xyz_of(*D65_XY), atol=1e-5),
              f'camera → XYZ at {t} K takes white to D65')

    # ForwardMatrix: balanced camera → XYZ D50, Bradford to D65, to Rec. 2020.
    rng = np.random.default_rng(5)
    fm = [np.array([[0.6, 0.25, 0.1], [0.25, 0.8, -0.05], [0.02, -0.2, 1.0]]) + rng.normal(0, 0.03, (3, 3))
          for _ in range(2)]
    fm = [f * (D50 / f.sum(axis=1))[:, None] for f in fm]
    probe.info(source=1, illuminants=[17, 21], cm1=CM_A, cm2=CM_D65, ab=AB, fm1=fm[0], fm2=fm[1])
    for t in (3000, 5000, 6504):
        mul = probe.ask('mul', 2, t, 0, 0, 0, 0)
        tw = cct(*neutral_xy(1 / mul[:3], cam_at))
        want = np.linalg.inv(REC2020) @ bradford(D50, xyz_of(*D65_XY)) @ matrix_at(tw, fm[0], 17, fm[1], 21)
        want /= want.sum(axis=1, keepdims=True)
        got = probe.ask('rec2020', *mul).reshape(3, 3)
        check(np.allclose(got, want, atol=2e-5), f'ForwardMatrix path at {t} K:\n{got}\nagainst\n{want}')
        check(np.allclose(got.sum(axis=1), 1, atol=1e-6), f'camera (1, 1, 1) → (1, 1, 1) at {t} K (ForwardMatrix)')

    probe.info(source=0)
    check(np.allclose(probe.ask('rec2020', 1, 1, 1, 1).reshape(3, 3), np.eye(3)), 'no matrix: identity')

    # Damaged matrices (NaN, singular, absurd scales) and inputs: finite answers, positive multipliers.
    for cm in ([np.nan] + [0] * 8, [1] * 9, [1e30, 0, 0, 0, 1e-30, 0, 0, 0, 1]):
        probe.info(source=1, illuminants=[17, 21], cm1=cm)
        answers = [probe.ask('mul', mode, t, 0, -1, 1, 1) for mode in range(4) for t in (np.nan, 5000)]
        answers += [probe.ask('gray', 0, 0, 0), probe.ask('temperature', 0, 0, 0, 0), probe.ask('rec2020', np.nan, 1, 1, 1),
                    probe.ask('xyz', 0, 0, 0, 0), probe.ask('rec2020', 2, 1, 1.5, 1)]
        check(all(np.all(np.isfinite(a)) for a in answers) and all(np.all(a > 0) for a in answers[:9]),
              f'damaged matrix {cm[:2]}…: finite answers, positive multipliers')

    # LibRaw's camera → sRGB (rgb_cam) and D65 multipliers (pre_mul) of the CR2, against the table path.
    identify = shutil.which('raw-identify')
    if identify is None or not os.path.exists(CR2):
        print(f'SKIP  the CR2 cross-check: needs raw-identify (libraw-bin) and {CR2} (rawtran-doc)')
    else:
        text = subprocess.run([identify, '-v', CR2], capture_output=True, text=True, check=True).stdout

        def table(title):
            rows = text.split(title)[1].strip().splitlines()[:3]
            return np.array([[float(v) for v in r.split()[:3]] for r in rows])

        cam_xyz, rgb_cam = table('XYZ->CamRGB matrix:'), table('Camera2RGB matrix (mode: 1):')
        pre_mul = np.array([float(v) for v in re.search(r'Derived D65 multipliers: (.*)', text).group(1).split()])
        probe.info(source=2, illuminants=[21, 0], cm1=cam_xyz)
        mul = probe.ask('mul', 1, 0, 0, 0, 0, 0)
        check(np.allclose(mul[:3], pre_mul / pre_mul[1], rtol=5e-4), f'CR2 D65 multipliers {mul[:3]} against LibRaw {pre_mul / pre_mul[1]}')
        want = np.linalg.inv(REC2020) @ SRGB @ rgb_cam
        got = probe.ask('rec2020', *mul).reshape(3, 3)
        check(np.allclose(got, want, atol=5e-4), f'CR2 camera → Rec. 2020\n{got}\nagainst LibRaw rgb_cam in Rec. 2020\n{want}')

    print(f'{len(failures)} failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
