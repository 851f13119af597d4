/* CPU code paths for wider vector units: hot row loops are compiled twice, for x86-64-v3
 * (AVX2, FMA) and the baseline, and the loader picks one at start-up, so that one binary
 * runs everywhere and uses AVX2 where it exists. */
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_ADDRESS__)
#define LM_SIMD_CLONES __attribute__ ((target_clones ("arch=x86-64-v3", "default")))
#else
#define LM_SIMD_CLONES
#endif

/* Eight-float vectors in GCC's vector types, for the loops that its vectorizer does badly.
 * Use them only in functions built with LM_SIMD_CLONES, so that each clone compiles them for
 * its own vector width; they are written in plain C, so the baseline clone (and other
 * architectures) compile them too. */
#include <string.h>
#include <glib.h>

#include "pixel-math.h"

/* Inlined into each clone of its caller: an outlined copy is compiled for the baseline only.
 * No 32-byte vector then crosses a call, so GCC's note that such a return's ABI differs
 * without AVX does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"
#define LM_ROW_INLINE static inline __attribute__ ((always_inline))

typedef float LmF32x8 __attribute__ ((vector_size (32)));
typedef gint32 LmI32x8 __attribute__ ((vector_size (32)));
typedef guint32 LmU32x8 __attribute__ ((vector_size (32)));
typedef guint8 LmU8x32 __attribute__ ((vector_size (32)));

LM_ROW_INLINE LmF32x8
lm_f32x8_clamp_255 (LmF32x8 v)
{
  const LmF32x8 zero = { 0 }, top = { 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f, 255.0f };
  v = (LmF32x8) ((LmI32x8) v & (v > zero));
  LmI32x8 below = v < top;
  return (LmF32x8) (((LmI32x8) v & below) | ((LmI32x8) top & ~below));
}

/* lm_quantize_u8 (pixel-math.h) of eight floats, as 32-bit integers (0..255), by the same
 * IEEE operations: `v > 0 ? v : 0` and `v < 255 ? v : 255` as masks (NaN gives 0), + 0.5, a
 * truncating conversion. GCC's own vectorization of lm_quantize_u8 turned the clamp into
 * compares and integer blends on the converted result, some 40 instructions for 8 values. */
LM_ROW_INLINE LmI32x8
lm_f32x8_quantize_u8 (LmF32x8 v)
{
  const LmF32x8 half = { 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f };
  return __builtin_convertvector (lm_f32x8_clamp_255 (v) + half, LmI32x8);
}

/* The low bytes of four vectors of 0..255, in order, into 32 bytes: byte shuffles (two
 * instructions a vector on AVX2), where a conversion to bytes went one lane at a time. */
LM_ROW_INLINE void
lm_i32x8_store_u8 (LmI32x8 a, LmI32x8 b, LmI32x8 c, LmI32x8 d, guint8 *out)
{
#define LOW_BYTES 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60
  LmU8x32 ab = __builtin_shufflevector ((LmU8x32) a, (LmU8x32) b, LOW_BYTES, LOW_BYTES);
  LmU8x32 cd = __builtin_shufflevector ((LmU8x32) c, (LmU8x32) d, LOW_BYTES, LOW_BYTES);
#undef LOW_BYTES
  LmU8x32 all = __builtin_shufflevector (ab, cd, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 32, 33, 34,
                                         35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47);
  memcpy (out, &all, sizeof all);
}

