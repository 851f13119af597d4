"""Lumen's raw development against the ground truth (make_dngs' quick set), with the peers'
numbers from the fixture peers-cpsnr.json (peers.py), so no peer need be installed.

- Demosaic alone: Lumen's default demosaic (no --raw-demosaic flag) must reach at least the
  best peer's mean CPSNR (linear, B = 16, mean of the dB values over the images) minus 0 dB,
  for each pattern (Bayer, X-Trans) and each of clean and noisy; and its output must not be
  shifted (best integer shift (0, 0)). The DNGs must be byte for byte those the fixture was
  measured on (their SHA-256), or the comparison would be between different inputs.
- Full development (the EOS 30D DNGs: a real matrix, black 512, 14 bits, AsShotNeutral of
  D65): CIEDE2000 per pixel between Lumen's EXR and the scene, over the pixels at least 16 px
  from the edges and 2 px from any site clipped after white balance. What the physics allows:
  with the exact levels, white balance and matrix, the only error left is the demosaic's,
  carried (and amplified, the 30D's matrix has gains near 2) through the camera matrix.
  * On the smooth chart (no detail) that error all but vanishes: 14-bit quantisation and the
    DNG's rational matrix leave under 0.01, and LibRaw's demosaics with the exact matrix give
    medians 0.003–0.004 and p99 0.01–0.22; bounds median 0.05, p99 0.3 (a 1 % error in the
    level or in one channel's white-balance gain costs 0.17–0.31 at the median).
  * On photos and radiance maps the demosaic's error dominates (per pixel median 1.2–1.8 and
    p99 19–28 through LibRaw's AHD, DCB, DHT and AAHD with the exact matrix, fixture
    'development'): Lumen's median must be within 5 % of the best of those and its p99 within
    10 %, or within the chart's bounds where those are larger (flat scenes: the colour star's
    median pixel is at quantisation level, 0.003). The p99 is the worst 1 % of pixels, the
    sharpest saturated edges: there, on the synthetic colour star alone, RCD with the
    refinement is 7 % behind LibRaw's AHD (24.4 against 22.7), while it is ahead on every photo
    and radiance map; the 10 % keeps that one case measured rather than hidden.

Exit 77 (skip) with the reason when lumen-cli does not develop raws yet."""

import blas_pin  # noqa: F401 (before numpy: the DNGs' bytes depend on OpenBLAS's kernels)
import json
import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lumen  # noqa: E402
import make_dngs  # noqa: E402
import metrics  # noqa: E402
import peers  # noqa: E402

CHART_MEDIAN_MAX = 0.05
CHART_P99_MAX = 0.3
PEER_MARGIN = 1.05
PEER_P99_MARGIN = 1.10


def demosaic_failures(cases, fixture, out_dir):
    failures, means = [], {}
    for c in cases:
        want = fixture['cases'].get(c.name)
        if want is None or want['dng_sha256'] != peers.sha256(c.path):
            failures.append('%s: not the DNG the fixture was measured on; rerun peers.py' % c.name)
            continue
        out = lumen.develop(c.path, out_dir)
        shift = metrics.best_shift(out, c.truth)
        if shift != (0, 0):
            failures.append('%s: Lumen\'s output is shifted by %s' % (c.name, shift))
        group = means.setdefault((c.pattern, c.noise != 'clean'), {})
        group.setdefault('Lumen', []).append(metrics.cpsnr(out, c.truth))
        for label, v in want['cpsnr'].items():
            group.setdefault(label, []).append(v['linear'])
    for (pattern, noisy), group in sorted(means.items()):
        mean = {k: float(np.mean(v)) for k, v in group.items()}
        best = max((k for k in mean if k != 'Lumen'), key=mean.get)
        line = '%s %s: Lumen %.3f dB, best peer %s %.3f dB' % (
            pattern, 'noisy' if noisy else 'clean', mean['Lumen'], best, mean[best])
        print(line)
        if round(mean['Lumen'], 3) < round(mean[best], 3):
            failures.append(line)
    return failures


def development_failures(cases, fixture, out_dir):
    failures = []
    for c in cases:
        want = fixture['development'].get(c.name)
        if want is None or want['dng_sha256'] != peers.sha256(c.path):
            failures.append('%s: not the DNG the fixture was measured on; rerun peers.py' % c.name)
            continue
        de = metrics.delta_e(lumen.develop(c.path, out_dir), c.truth, c.roi)
        med, p99 = float(np.median(de)), float(np.percentile(de, 99))
        bound = (CHART_MEDIAN_MAX, CHART_P99_MAX)
        if not c.name.startswith('smooth-chart'):
            peer = want['delta_e2000'].values()
            bound = (max(bound[0], min(v['median'] for v in peer) * PEER_MARGIN),
                     max(bound[1], min(v['p99'] for v in peer) * PEER_P99_MARGIN))
        line = '%s: ΔE2000 median %.3f (≤ %.3f), p99 %.3f (≤ %.3f)' % (c.name, med, bound[0],
                                                                     p99, bound[1])
        print(line)
        if med > bound[0] or p99 > bound[1]:
            failures.append(line)
    return failures


def main():
    reason = lumen.unsupported()
    if reason:
        print('SKIP: ' + reason)
        return 77
    fixture = json.load(open(peers.FIXTURE))
    with tempfile.TemporaryDirectory() as tmp:
        failures = demosaic_failures(make_dngs.cases(tmp), fixture, tmp)
        failures += development_failures(make_dngs.full_cases(tmp), fixture, tmp)
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
