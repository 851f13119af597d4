/* Per-pixel arithmetic shared by the CPU reference (gcc) and the CUDA kernels (nvcc), so
 * that the two backends cannot drift apart. Both compile it without FMA contraction
 * (-ffp-contract=off, --fmad=false): the same IEEE single operations in the same order give
 * the same bits on both. Where a definition wants a fused multiply-add, it says so (lm_fma). */
#pragma once

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define LM_INLINE __host__ __device__ static inline
#else
#define LM_INLINE static inline
#endif

/* A float's IEEE bits and back, the same on both compilers (bit-exact series start from them). */
LM_INLINE uint32_t
lm_float_bits (float v)
{
#ifdef __CUDA_ARCH__
  return __float_as_uint (v);
#else
  uint32_t bits;
  memcpy (&bits, &v, sizeof bits);
  return bits;
#endif
}

LM_INLINE float
lm_bits_float (uint32_t bits)
{
#ifdef __CUDA_ARCH__
  return __uint_as_float (bits);
#else
  float v;
  memcpy (&v, &bits, sizeof v);
  return v;
#endif
}

/* C ? A : B with both computed: on the GPU one select, where the compiler may otherwise
 * branch around the work of A, which parts a thread's independent pixels into blocks it
 * cannot interleave. */
LM_INLINE float
lm_select (int c, float a, float b)
{
#ifdef __CUDA_ARCH__
  float v;
  asm ("{\n\t.reg .pred p;\n\tsetp.ne.s32 p, %3, 0;\n\tselp.f32 %0, %1, %2, p;\n\t}"
       : "=f"(v)
       : "f"(a), "f"(b), "r"(c));
  return v;
#else
  return c ? a : b;
#endif
}

/* A·B + C rounded once (IEEE's fused multiply-add), written out where a definition wants it:
 * the same bits on both backends, as contraction is off. On the CPU an instruction in the
 * x86-64-v3 clones (simd.h), the C library's correctly rounded fmaf elsewhere. */
LM_INLINE float
lm_fma (float a, float b, float c)
{
#ifdef __CUDA_ARCH__
  return __fmaf_rn (a, b, c);
#else
  return fmaf (a, b, c);
#endif
}

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

/* The one rounding from float (the 0..255 scale that 8-bit sources use) to 16 bits: scaled
 * by 257 (so that v·257 of an 8-bit v comes back as itself), clamped, rounded half up. */
LM_INLINE uint16_t
lm_quantize_u16 (float v)
{
  float s = v * 257.0f;
  s = s > 0.0f ? s : 0.0f;
  s = s < 65535.0f ? s : 65535.0f;
  return (uint16_t) (int) (s + 0.5f);
}

/* A 16-bit sample on the 0..255 scale that every operation computes on, so that parameters
 * (a contrast pivot of 127.5, a curve's points) mean the same at either depth. A division,
 * not a multiplication by 1/257: v·257 gives back v exactly. */
LM_INLINE float
lm_u16_value (uint32_t v)
{
  return (float) (int) v / 257.0f;
}

/* Pixels of LM_FORMAT_RGBA16 read as one 64-bit word (R in the low 16 bits), as RGBA8's
 * are read as 32-bit words: the channel's value on the 0..255 scale. */
LM_INLINE float
lm_px16_channel (uint64_t p, int c)
{
  return lm_u16_value ((uint32_t) ((p >> (16 * c)) & 0xffffu));
}

LM_INLINE uint64_t
lm_px16_pack (uint16_t r, uint16_t g, uint16_t b, uint64_t alpha_of)
{
  return (uint64_t) r | (uint64_t) g << 16 | (uint64_t) b << 32 | (alpha_of & 0xffff000000000000ull);
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

/* 16-bit BT.601 luma on the same scale, quantized to 16 bits: what 16-bit equalize flattens. */
LM_INLINE uint16_t
lm_luma_u16 (uint64_t p)
{
  return lm_quantize_u16 (lm_weighted_sum (lm_px16_channel (p, 0), lm_px16_channel (p, 1),
                                           lm_px16_channel (p, 2), LM_BT601_R, LM_BT601_G, LM_BT601_B));
}

/* The 8-bit bin of a 16-bit value: lm_quantize_u8 (lm_u16_value (V)) in integers (the
 * histogram test checks the two agree on all 65536 values). */
LM_INLINE uint32_t
lm_u16_bin8 (uint32_t v)
{
  return (v * 255u + 32767u) / 65535u;
}

/* The 8-bit luma of a 16-bit pixel: what the 256-bin histogram counts. */
LM_INLINE uint8_t
lm_luma_u8_of16 (uint64_t p)
{
  return lm_quantize_u8 (lm_weighted_sum (lm_px16_channel (p, 0), lm_px16_channel (p, 1),
                                          lm_px16_channel (p, 2), LM_BT601_R, LM_BT601_G, LM_BT601_B));
}
