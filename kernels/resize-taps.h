// Resize of 8-bit images by Lanczos-3 on both axes (enlargements and shrinks below 2), by
// strips whose sums run a fixed number of taps (resize-taps.cu). Called by resize.cu, which
// computes the tables.
#pragma once

#include <cuda_runtime.h>

#include "kernels/kernels.h"

// How resize-taps.cu runs a resize: TAPS terms a sum (6, 8, 10 or 12), strips whose steps
// take STEP output pixels (32 or 16), stage BOX_LINES lines a round of BOX_LEN pixels across
// (the reach of 32 output pixels), and keep RING_LEN intermediate lines (a power of two) and
// TAPS more, SMEM bytes of shared memory in all.
struct LmResizeTapsPlan {
  int taps;
  unsigned step, box_len, box_lines, ring_len;
  size_t smem;
};

// Whether a resize of XA and YA (both Lanczos, C channels of 8 bits, VFIRST its axis order)
// can run so with at most OPTIN bytes of shared memory a block (lm_k_shared_optin), and the
// *PLAN it would run.
bool lm_k_resize_taps_plan (const LmResizeAxis *xa, const LmResizeAxis *ya, int channels, bool vfirst, size_t optin,
                            LmResizeTapsPlan *plan);

// DST (OW × OH pixels) from SRC by PLAN, with the spans and weights of both axes' tables
// (resize.cu's: XS, XW and YS, YW).
cudaError_t lm_k_resize_taps (const LmKImage *src, const LmKImage *dst, const LmResizeTapsPlan *plan, bool vfirst,
                              const LmResizeSpan *xs, const float *xw, const LmResizeSpan *ys, const float *yw,
                              cudaStream_t stream);
