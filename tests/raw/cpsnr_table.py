"""The closing note's tables, in Markdown: CPSNR (dB, mean over the images of the dB values)
per method for Bayer and X-Trans, in three columns: clean (linear), noisy (linear, every ISO
level), and clean sRGB-encoded; then CIEDE2000 median and 99th percentile of the full
development per DNG. The peers' numbers come from a peers.py JSON; Lumen's are measured here
on the same DNGs (left out, with a note, while lumen-cli does not develop raws).

    python3 cpsnr_table.py          # the quick set and peers-cpsnr.json
    python3 cpsnr_table.py full     # the full set and peers-cpsnr-full.json (minutes)"""

import json
import sys
import tempfile

import numpy as np

import lumen
import make_dngs
import metrics
import peers

LUMEN = {'bayer': {'Lumen RCD + refinement (default)': None, 'Lumen bilinear': 'bilinear'},
         'xtrans': {'Lumen Markesteijn 3-pass + refinement (default)': None,
                    'Lumen Markesteijn 1-pass + refinement': 'markesteijn1'}}


def lumen_rows(cases, full, tmp):
    """Lumen's numbers in the JSON's shape: ({case: {method: {'linear', 'srgb'}}},
    {case: {method: {'median', 'p99'}}})."""
    cpsnr, de = {c.name: {} for c in cases}, {c.name: {} for c in full}
    for c in cases:
        for label, method in LUMEN[c.pattern].items():
            out = lumen.develop(c.path, tmp, method)
            cpsnr[c.name][label] = {'linear': metrics.cpsnr(out, c.truth),
                                    'srgb': metrics.cpsnr(out, c.truth, oetf=True)}
    for c in full:
        d = metrics.delta_e(lumen.develop(c.path, tmp), c.truth, c.roi)
        de[c.name]['Lumen'] = {'median': float(np.median(d)), 'p99': float(np.percentile(d, 99))}
    return cpsnr, de


def cpsnr_table(doc, pattern, ours):
    names = [n for n, c in doc['cases'].items() if c['pattern'] == pattern]
    methods = list(ours.get(names[0], {})) + list(doc['cases'][names[0]]['cpsnr'])
    title = {'bayer': 'Bayer', 'xtrans': 'X-Trans'}[pattern]
    lines = ['| %s method | clean | noisy | clean, sRGB-encoded |' % title, '|---|---:|---:|---:|']
    for m in methods:
        def mean(noisy, key):
            v = [dict(doc['cases'][n]['cpsnr'], **ours.get(n, {}))[m][key] for n in names
                 if (doc['cases'][n]['noise'] != 'clean') == noisy]
            return np.mean(v)
        lines.append('| %s | %.2f | %.2f | %.2f |' % (m, mean(False, 'linear'),
                                                      mean(True, 'linear'), mean(False, 'srgb')))
    return '\n'.join(lines)


def delta_e_table(doc, ours):
    names = list(doc['development'])
    methods = list(ours.get(names[0], {})) + list(doc['development'][names[0]]['delta_e2000'])
    lines = ['| DNG (clipped) | ' + ' | '.join(methods) + ' |',
             '|---|' + '---:|' * len(methods)]
    for n in names:
        d = dict(doc['development'][n]['delta_e2000'], **ours.get(n, {}))
        lines.append('| %s (%.1f %%) | ' % (n, 100 * doc['development'][n]['clipped'])
                     + ' | '.join('%.3f / %.2f' % (d[m]['median'], d[m]['p99'])
                                  for m in methods) + ' |')
    return '\n'.join(lines)


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else 'quick'
    doc = json.load(open(sys.argv[2] if len(sys.argv) > 2 else
                         peers.FIXTURE if which == 'quick' else peers.FULL))
    ours_cpsnr, ours_de = {}, {}
    reason = lumen.unsupported()
    if reason is None:
        with tempfile.TemporaryDirectory() as tmp:
            cases, full = make_dngs.cases(tmp, which), make_dngs.full_cases(tmp, which)
            for c in cases + full:
                known = doc['cases'].get(c.name) or doc['development'].get(c.name)
                if known is None or known['dng_sha256'] != peers.sha256(c.path):
                    sys.exit('%s: not the DNG %s was measured on' % (c.name, sys.argv[2:]))
            ours_cpsnr, ours_de = lumen_rows(cases, full, tmp)
    print('CPSNR in dB (B = 16 px, mean over %d DNGs; peers measured %s: %s)\n'
          % (len(doc['cases']), doc['date'],
             ', '.join('%s %s' % kv for kv in doc['versions'].items())))
    if reason:
        print('(Lumen left out: %s)\n' % reason)
    print(cpsnr_table(doc, 'bayer', ours_cpsnr) + '\n')
    print(cpsnr_table(doc, 'xtrans', ours_cpsnr) + '\n')
    print('Full development, CIEDE2000 median / 99th percentile per pixel:\n')
    print(delta_e_table(doc, ours_de))


if __name__ == '__main__':
    main()
