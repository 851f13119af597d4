"""The peers' demosaics on the ground-truth DNGs, and their CPSNR, stored as the fixture
peers-cpsnr.json so that CI needs no peer installed. Run by hand (libraw-bin and rawtherapee
installed):  python3 peers.py [quick|full] [OUT.json]   (by default quick writes
peers-cpsnr.json, full peers-cpsnr-full.json: about 1 and 10 minutes on 2 cores).

LibRaw (dcraw_emu): -T -4 (16-bit linear: -6 -W -g 1 1) -o 0 (camera RGB, no matrix)
-r 1 1 1 1 (unit multipliers) -H 0 (clip) -m 0 (no median) -c 0 (no maximum re-estimate)
-t 0 -j (no flip, no stretch); -q 3 AHD, 4 DCB, 11 DHT, 12 AAHD. An X-Trans file goes to
Markesteijn whatever -q says: -q 3 gives 3 passes, -q 2 one. Its output is camera RGB / white.

RawTherapee (rawtherapee-cli -t -b32): a profile written here, neutral (rawtherapee-cli starts
from neutral values) plus the method, no false-colour, line-noise, green-equilibration, CA,
hot or dead pixel steps, camera white balance (AsShotNeutral 1 1 1), no highlight recovery,
InputProfile (none), and as output profile RawTherapee's own Rec. 2020 profile with its TRC
made linear (LinearRec2020.icc, made here from RTv4_Rec2020.icc; found through an options
file naming its folder, in a private XDG_CONFIG_HOME). RawTherapee crops its demosaic border
(4 px Bayer, 7 px X-Trans); the output is put back in place (the crop is inside CPSNR's 16 px).
Calibration: a smooth chart (no detail, so the demosaic is irrelevant) developed through the
same profile, per pattern; a 3 × 3 matrix fitted from RawTherapee's output to the truth; the
fit must leave less than -60 dB of residual, and it is applied to every RawTherapee result.

The full-development DNGs: LibRaw's development (as above, but -w for the as-shot white
balance) with the exact camera matrix applied here; CIEDE2000 median and 99th percentile."""

import blas_pin  # noqa: F401 (before numpy: the DNGs' bytes depend on OpenBLAS's kernels)
import datetime
import hashlib
import json
import os
import struct
import subprocess
import sys
import tempfile

import numpy as np
import tifffile

import dng
import make_dngs
import metrics
import scenes

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, 'peers-cpsnr.json')  # the quick set, which CI compares with
FULL = os.path.join(HERE, 'peers-cpsnr-full.json')  # the full set, for the closing note's table
LIBRAW_FLAGS = ['-T', '-4', '-o', '0', '-r', '1', '1', '1', '1', '-H', '0', '-m', '0',
                '-c', '0', '-t', '0', '-j']
METHODS = {
    'bayer': {'LibRaw AHD': ('libraw', '3'), 'LibRaw DCB': ('libraw', '4'),
              'LibRaw DHT': ('libraw', '11'), 'LibRaw AAHD': ('libraw', '12'),
              'RawTherapee AMaZE': ('rt', 'amaze'), 'RawTherapee RCD': ('rt', 'rcd')},
    'xtrans': {'LibRaw Markesteijn 3-pass': ('libraw', '3'),
               'LibRaw Markesteijn 1-pass': ('libraw', '2'),
               'RawTherapee 3-pass': ('rt', '3-pass (best)'),
               'RawTherapee 1-pass': ('rt', '1-pass (medium)')},
}
CALIBRATE_WITH = {'bayer': 'amaze', 'xtrans': '3-pass (best)'}
PROFILE = """[Version]
AppVersion=5.9
Version=346

[Exposure]
Auto=false
Compensation=0
Brightness=0
Contrast=0
Saturation=0
Black=0
HighlightCompr=0
ClampOOG=false
Curve=0;
Curve2=0;

[HLRecovery]
Enabled=false

[White Balance]
Enabled=true
Setting=Camera

[Color Management]
InputProfile=(none)
ToneCurve=false
ApplyLookTable=false
ApplyBaselineExposureOffset=false
ApplyHueSatMap=false
WorkingProfile=Rec2020
OutputProfile=LinearRec2020

[RAW]
CA=false
HotPixelFilter=false
DeadPixelFilter=false
PreExposure=1

[RAW Bayer]
Method={bayer}
CcSteps=0
LineDenoise=0
GreenEqThreshold=0

[RAW X-Trans]
Method={xtrans}
CcSteps=0
"""


def versions():
    out = {}
    for pkg in ('libraw-bin', 'rawtherapee'):
        out[pkg] = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', pkg],
                                  capture_output=True, text=True).stdout
    return out


def sha256(path):
    return hashlib.sha256(open(path, 'rb').read()).hexdigest()


def libraw(path, q, tmp):
    out = os.path.join(tmp, os.path.basename(path) + '.q%s.tiff' % q)
    subprocess.run(['dcraw_emu'] + LIBRAW_FLAGS + ['-q', q, '-Z', out, path], check=True,
                   capture_output=True)
    return tifffile.imread(out).astype(np.float64) / 65535


def _linear_profile(folder):
    """RTv4_Rec2020.icc with its three parametric TRCs set to the identity."""
    b = bytearray(open('/usr/share/rawtherapee/iccprofiles/output/RTv4_Rec2020.icc', 'rb').read())
    count = struct.unpack('>I', b[128:132])[0]
    for i in range(count):
        sig, off, _ = struct.unpack('>4sII', b[132 + 12 * i:144 + 12 * i])
        if sig in (b'rTRC', b'gTRC', b'bTRC'):
            assert b[off:off + 4] == b'para' and b[off + 8:off + 10] == b'\0\4', sig
            # Y = (aX + b)^g for X ≥ d, else cX: g = a = c = 1, b = d = 0.
            b[off + 12:off + 32] = struct.pack('>5i', 1 << 16, 1 << 16, 0, 1 << 16, 0)
    b[84:100] = bytes(16)  # the profile ID (MD5) no longer holds
    os.makedirs(os.path.join(folder, 'icc'), exist_ok=True)
    open(os.path.join(folder, 'icc', 'LinearRec2020.icc'), 'wb').write(b)
    os.makedirs(os.path.join(folder, 'config', 'RawTherapee'), exist_ok=True)
    with open(os.path.join(folder, 'config', 'RawTherapee', 'options'), 'w') as f:
        f.write('[Color Management]\nICCDirectory=%s\n' % os.path.join(folder, 'icc'))


def rawtherapee(paths, pattern, method, tmp):
    """RawTherapee's output for each of PATHS, uncalibrated, in place in a truth-sized frame."""
    folder = os.path.join(tmp, 'rt')
    if not os.path.exists(os.path.join(folder, 'icc')):
        _linear_profile(folder)
    out = os.path.join(folder, 'out-' + method.split()[0])
    os.makedirs(out, exist_ok=True)
    pp3 = os.path.join(folder, method.split()[0] + '.pp3')
    with open(pp3, 'w') as f:
        f.write(PROFILE.format(bayer=method if pattern == 'bayer' else 'amaze',
                               xtrans=method if pattern == 'xtrans' else '3-pass (best)'))
    env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(folder, 'config'))
    run = subprocess.run(['rawtherapee-cli', '-q', '-o', out, '-p', pp3, '-t', '-b32', '-Y',
                          '-c'] + list(paths), capture_output=True, text=True, env=env)
    results = {}
    for p in paths:
        tif = os.path.join(out, os.path.basename(p)[:-4] + '.tif')
        if not os.path.exists(tif):
            # It refuses DNGs of fewer than about 48 000 pixels ("Error loading file").
            sys.exit('rawtherapee-cli made nothing of %s (exit %d): %s'
                     % (p, run.returncode, (run.stderr or run.stdout).strip().splitlines()[-1:]))
        a = tifffile.imread(tif)
        h, w = tifffile.TiffFile(p).pages[0].shape[:2]
        ky, kx = (h - a.shape[0]) // 2, (w - a.shape[1]) // 2
        frame = np.zeros((h, w, 3))
        frame[ky:ky + a.shape[0], kx:kx + a.shape[1]] = a[..., :3]
        results[p] = frame
    return results


def calibrate(tmp):
    """{pattern: 3 × 3 matrix} taking RawTherapee's output to camera RGB, and the fit's
    residual in dB (CPSNR of the calibrated chart)."""
    truth = scenes.smooth_chart(512).astype(np.float64)
    fits = {}
    for pattern, cfa in (('bayer', 'RGGB'), ('xtrans', 'XTRANS')):
        path = os.path.join(tmp, 'chart-%s.dng' % pattern)
        dng.write(path, np.round(dng.mosaic(truth, cfa) * 65535), cfa=cfa, black=(0,),
                  white=65535, color_matrix=metrics.XYZ_TO_REC2020, illuminant=21,
                  as_shot_neutral=(1, 1, 1))
        out = rawtherapee([path], pattern, CALIBRATE_WITH[pattern], tmp)[path]
        b = metrics.BORDER
        X = out[b:-b, b:-b].reshape(-1, 3)
        Y = truth[b:-b, b:-b].reshape(-1, 3)
        m = np.linalg.lstsq(X, Y, rcond=None)[0].T
        residual = metrics.cpsnr(metrics.apply(m, out), truth)
        if residual < 60:
            sys.exit('RawTherapee calibration for %s leaves %.1f dB (< 60): its output is not '
                     'linear camera RGB' % (pattern, residual))
        fits[pattern] = (m, residual)
    return fits


def measure(cases, tmp):
    """{case name: {method: {'linear': dB, 'srgb': dB}}}, and the calibration."""
    fits = calibrate(tmp)
    results = {c.name: {} for c in cases}
    for pattern, methods in METHODS.items():
        group = [c for c in cases if c.pattern == pattern]
        for label, (tool, arg) in methods.items():
            if tool == 'libraw':
                outs = {c.path: libraw(c.path, arg, tmp) for c in group}
            else:
                raw = rawtherapee([c.path for c in group], pattern, arg, tmp)
                outs = {p: metrics.apply(fits[pattern][0], a) for p, a in raw.items()}
            for c in group:
                out = outs[c.path]
                shift = metrics.best_shift(out, c.truth)
                if shift != (0, 0):
                    sys.exit('%s shifts %s by %s' % (label, c.name, shift))
                results[c.name][label] = {'linear': round(metrics.cpsnr(out, c.truth), 3),
                                          'srgb': round(metrics.cpsnr(out, c.truth, oetf=True), 3)}
    return results, fits


def development(cases, tmp):
    """{case: {method: {'median', 'p99'}}}: CIEDE2000 of LibRaw's development of the full-
    development DNGs (-w: as-shot white balance; -o 0 and the exact camera matrix applied
    here), over each case's ROI: the error a good demosaic leaves through the camera matrix."""
    results = {}
    flags = [f for f in LIBRAW_FLAGS if f not in ('-r', '1')] + ['-w']
    for c in cases:
        results[c.name] = {}
        for label, (_, q) in METHODS['bayer'].items():
            if not label.startswith('LibRaw'):
                continue
            out = os.path.join(tmp, c.name + '.q%s.tiff' % q)
            subprocess.run(['dcraw_emu'] + flags + ['-q', q, '-Z', out, c.path], check=True,
                           capture_output=True)
            rgb = metrics.apply(make_dngs.camera_to_rec2020(), tifffile.imread(out) / 65535)
            de = metrics.delta_e(rgb, c.truth, c.roi)
            results[c.name][label] = {'median': round(float(np.median(de)), 4),
                                      'p99': round(float(np.percentile(de, 99)), 4)}
    return results


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else 'quick'
    dest = sys.argv[2] if len(sys.argv) > 2 else (FIXTURE if which == 'quick' else FULL)
    with tempfile.TemporaryDirectory() as tmp:
        cases = make_dngs.cases(tmp, which)
        results, fits = measure(cases, tmp)
        full = make_dngs.full_cases(tmp, which)
        de = development(full, tmp)
        doc = {
            'about': 'CPSNR (dB, B = 16) of the peers on make_dngs.cases(%r) and CIEDE2000 of '
                     'LibRaw on make_dngs.full_cases(%r); made by tests/raw/peers.py'
                     % (which, which),
            'date': datetime.date.today().isoformat(),
            'versions': versions(),
            'libraw_flags': ' '.join(LIBRAW_FLAGS),
            'rawtherapee_calibration_db': {p: round(f[1], 1) for p, f in fits.items()},
            'cases': {c.name: {'pattern': c.pattern, 'noise': c.noise,
                               'dng_sha256': sha256(c.path), 'cpsnr': results[c.name]}
                      for c in cases},
            'development': {c.name: {'dng_sha256': sha256(c.path), 'clipped': round(c.clipped, 4),
                                     'delta_e2000': de[c.name]} for c in full},
        }
    open(dest, 'w').write(json.dumps(doc, indent=1, ensure_ascii=False) + '\n')


if __name__ == '__main__':
    main()
