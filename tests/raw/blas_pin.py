"""Pins OpenBLAS to its Haswell kernels, for scripts that make the ground truth's DNGs; to be
imported before numpy or cv2 (OpenBLAS reads OPENBLAS_CORETYPE when it loads).

The HDR scene (scenes.hdr) is OpenCV's Debevec merge, whose response curve is a least-squares
solve through LAPACK, which Debian's OpenCV and numpy take from OpenBLAS. OpenBLAS picks its
kernels by CPU: on one with AVX-512 (SkylakeX kernels) the solve's last bits differ from the
Haswell kernels' on which peers-cpsnr.json was measured, and so do the DNGs' bytes, which the
fixture checks. Where the CPU lacks AVX2, nothing is pinned (those kernels would not run)."""
import os

if 'OPENBLAS_CORETYPE' not in os.environ:
    try:
        with open('/proc/cpuinfo') as f:
            if ' avx2' in f.read():
                os.environ['OPENBLAS_CORETYPE'] = 'Haswell'
    except OSError:
        pass
