"""The Canon EOS 30D CR2 of rawtran-doc through lumen-cli (default settings, float EXR) against
LibRaw's own linear development of it (cr2.py: same black, white, as-shot white balance and
LibRaw's matrix; XYZ converted to linear Rec. 2020), demosaic differences factored out by
comparing 8 × 8 box means.

Bounds: the two developments share every number, so what differs is rounding, the demosaics'
behaviour at edges that survives the box mean, and highlight handling near clipped blocks
(excluded). Median CIEDE2000 ≤ 0.5 (half a just-noticeable difference; a white balance off by
2 % or a level off by 1 % exceeds it) and each channel's median within 1 % of LibRaw's (the
level and scale agreement). Checked on the synthetic 30D DNGs, where LibRaw's development
with these flags is within 0.007 ΔE (median) of the truth on a smooth chart.

Exit 77 (skip) with the reason when the CR2 or dcraw_emu is absent, or lumen-cli does not
develop raws yet."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cr2  # noqa: E402
import lumen  # noqa: E402

DE_MEDIAN_MAX = 0.5
SCALE_TOLERANCE = 0.01


def main():
    reason = cr2.unavailable() or lumen.unsupported()
    if reason:
        print('SKIP: ' + reason)
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        reference, clipped = cr2.libraw(tmp)
        ours = lumen.develop(cr2.CR2, tmp)
    de, ratio = cr2.compare(ours, reference, clipped)
    print('CR2: median ΔE2000 %.3f over 8 × 8 blocks; Lumen/LibRaw per channel %s'
          % (de, ' '.join('%.4f' % r for r in ratio)))
    failures = []
    if de > DE_MEDIAN_MAX:
        failures.append('median ΔE2000 %.3f > %.1f' % (de, DE_MEDIAN_MAX))
    if abs(ratio - 1).max() > SCALE_TOLERANCE:
        failures.append('levels differ from LibRaw\'s by more than 1 %%: %s' % ratio)
    for f in failures:
        print('FAIL: ' + f)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
