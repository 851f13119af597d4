/* The display stretch's per-pixel math, compiled by gcc (core/astro/stretch.c) and nvcc
 * (kernels/astro-stretch.cu) alike, so that the two backends make the same 8-bit view.
 *
 * A value is first placed on a grid of LM_STRETCH_LEVELS levels between the limits with two
 * IEEE operations and one rounding (no FMA on either side: -ffp-contract=off, --fmad=false);
 * the curve (log, asinh…) is then a table of bytes made once on the host in double precision
 * and read by both backends. Transcendental functions are never evaluated per pixel, because
 * glibc's and CUDA's logf/asinhf differ in the last bit and a byte near a rounding boundary
 * would then differ too. */
#pragma once

#ifdef __CUDACC__
#define LM_STRETCH_INLINE static __host__ __device__ __forceinline__
#else
#define LM_STRETCH_INLINE static inline
#endif

#define LM_STRETCH_LEVELS 65536u

/* The level of V between LO and LO + 1 / INV_RANGE: 0 at or below LO (and for NaN, a blank
 * pixel, shown black), LM_STRETCH_LEVELS − 1 at or above the upper limit. */
LM_STRETCH_INLINE unsigned
lm_stretch_level (float v, float lo, float inv_range)
{
  float x = (v - lo) * inv_range;
  if (!(x > 0.0f))
    return 0u;
  if (x >= 1.0f)
    return LM_STRETCH_LEVELS - 1u;
  float scaled = x * (float) (LM_STRETCH_LEVELS - 1u);
  return (unsigned) (scaled + 0.5f);
}
