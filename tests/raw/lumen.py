"""Lumen on the ground-truth DNGs, through the CLI contract of issue 31:

    lumen-cli -o OUT.exr IN.dng [--raw-demosaic=rcd|markesteijn3|markesteijn1|bilinear]

writes the developed scene (linear Rec. 2020, scene-referred, before any display transform)
as a float EXR. For make_dngs' demosaic-alone DNGs the camera is linear Rec. 2020, so that EXR
is camera RGB / white, comparable with the peers' output as it is.

unsupported() says why the tests cannot run yet (None once they can): lumen-cli is found
through LUMEN_CLI (meson's test environment) or build/app/lumen-cli, and it reads raws when
its usage lists --raw-demosaic. After that, any failure is a failure, not a skip."""

import os
import subprocess

os.environ.setdefault('OPENCV_IO_ENABLE_OPENEXR', '1')  # read when the first EXR is decoded
import cv2  # noqa: E402
import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
METHODS = {'bayer': ('rcd', 'bilinear'), 'xtrans': ('markesteijn3', 'markesteijn1')}


def cli():
    return os.environ.get('LUMEN_CLI') or os.path.join(HERE, '..', '..', 'build', 'app',
                                                       'lumen-cli')


def unsupported():
    path = cli()
    if not os.access(path, os.X_OK):
        return 'no lumen-cli at %s (set LUMEN_CLI)' % path
    usage = subprocess.run([path, '--help'], capture_output=True, text=True).stdout
    if '--raw-demosaic' not in usage:
        return 'lumen-cli does not develop camera raws yet (no --raw-demosaic in its usage)'
    return None


def read_exr(path):
    img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if img is None or img.dtype != np.float32 or img.ndim != 3:
        raise RuntimeError('%s: not a float RGB EXR' % path)
    return img[..., 2::-1].astype(np.float64)  # BGR(A) → RGB


def develop(dng_path, out_dir, method=None):
    """Lumen's development of DNG_PATH (METHOD None: the default demosaic), as linear RGB."""
    out = os.path.join(out_dir, os.path.basename(dng_path)[:-4] + '.%s.exr' % (method or 'default'))
    cmd = [cli(), '-o', out, dng_path]
    if method:
        cmd.append('--raw-demosaic=' + method)
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError('%s failed (%d): %s' % (' '.join(cmd), run.returncode,
                                                   run.stderr.strip()))
    return read_exr(out)
