/* Per-pixel arithmetic shared by the CPU reference (gcc) and the CUDA kernels (nvcc), so
 * that the two backends cannot drift apart. Both compile it without FMA contraction
 * (-ffp-contract=off, --fmad=false): the same IEEE single operations in the same order give
 * the same bits on both. */
#pragma once

#include <stdint.h>

#ifdef __CUDACC__
#define LM_INLINE __host__ __device__ static inline
#else
#define LM_INLINE static inline
#endif

/* V limited to the 8-bit range 0..255. NaN becomes 0 (both comparisons fail), on the CPU's
 * maxps/minps and the GPU alike. */
LM_INLINE float
lm_quantize_clamp (float v)
{
  v = v > 0.0f ? v : 0.0f;
  return v < 255.0f ? v : 255.0f;
}

/* The one rounding from float to 8 bits: clamp, then round half up. */
LM_INLINE uint8_t
lm_quantize_u8 (float v)
{
  return (uint8_t) (int) (lm_quantize_clamp (v) + 0.5f);
}

/* The one rounding from float on the 0..255 scale to 16 bits (V · 257): clamp, then round
 * half up, as lm_quantize_u8 does. */
LM_INLINE uint16_t
lm_quantize_u16 (float v)
{
  float x = v * 257.0f;
  x = x > 0.0f ? x : 0.0f;
  x = x < 65535.0f ? x : 65535.0f;
  return (uint16_t) (int) (x + 0.5f);
}

/* Pixels of LM_FORMAT_RGBA8 read as one 32-bit word (R in the low byte on these
 * little-endian machines): word loads vectorize where byte-interleaved loads do not. */
LM_INLINE float
lm_px_channel (uint32_t p, int c)
{
  return (float) (int) ((p >> (8 * c)) & 0xffu);
}

LM_INLINE uint32_t
lm_px_pack (uint8_t r, uint8_t g, uint8_t b, uint32_t alpha_of)
{
  return (uint32_t) r | (uint32_t) g << 8 | (uint32_t) b << 16 | (alpha_of & 0xff000000u);
}

/* ORIG moved towards TARGET by AMOUNT (0..1); AMOUNT 1 gives TARGET exactly. */
LM_INLINE float
lm_blend (float orig, float target, float amount)
{
  return amount >= 1.0f ? target : orig + amount * (target - orig);
}

/* ITU-R BT.601 luma weights: OpenCV's RGB2GRAY and the Y of JPEG's YCbCr. */
#define LM_BT601_R 0.299f
#define LM_BT601_G 0.587f
#define LM_BT601_B 0.114f

/* ITU-R BT.709 weights, applied to the encoded values as GIMP's "luminosity" does. */
#define LM_BT709_R 0.2126f
#define LM_BT709_G 0.7152f
#define LM_BT709_B 0.0722f

LM_INLINE float
lm_weighted_sum (float r, float g, float b, float wr, float wg, float wb)
{
  return (wr * r + wg * g) + wb * b;
}

/* 8-bit BT.601 luma: what equalize's luma mode flattens and the histogram's luma curve shows. */
LM_INLINE uint8_t
lm_luma_u8 (uint32_t p)
{
  return lm_quantize_u8 (lm_weighted_sum (lm_px_channel (p, 0), lm_px_channel (p, 1),
                                          lm_px_channel (p, 2), LM_BT601_R, LM_BT601_G, LM_BT601_B));
}
