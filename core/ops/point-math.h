/* The fused pass of the point operations (op-list.h's POINT and POINT_COLOR kinds): one read
 * of each 8-bit pixel, one write, however many of them are enabled (DESIGN: "fused point
 * operations"). Shared by core/ops/point.c (the CPU) and kernels/point.cu.
 *
 * A point operation has a channel part, a function of one channel's value alone, and a
 * POINT_COLOR one also a pixel part, a function of the pixel's three values. Since the
 * source is 8-bit, the channel parts of all enabled operations, composed in list order, are
 * exactly a table of 256 floats per channel: the host computes it once per render
 * (lm_point_pass_add, point.c), with no rounding between operations. The pixel parts then run
 * on each pixel, in list order, in float registers, and one rounding (lm_quantize_u8) ends
 * the pass. This equals running the operations one after another, unrounded, as long as no
 * channel part follows a pixel part in the list (tests/unit/test-registry.c checks the kinds'
 * order). Values are the file's encoded ones, 0..255; between operations they are not
 * clipped, so that a highlight pushed past 255 by exposure can be brought back by a lower
 * contrast (a curve holds what lies beyond its end points at their values).
 *
 * A 16-bit source (RGBA16, GRAY16) has 65536 values per channel, read on the same 0..255
 * scale (v / 257, lm_u16_value), so the same argument gives a table of 65536 floats per
 * channel: every channel part composed on each of them, exactly what running the operations
 * one after another unrounded gives on that value. It is too large for a launch parameter or
 * shared memory (768 KiB), so the pass keeps the operations it was composed from (RECIPE,
 * host only) and lm_point_table16 (point.h) builds the table from them on the host; the
 * kernel reads it from global memory, where it stays in L2. The pixel parts are unchanged
 * and one rounding, lm_quantize_u16, ends the pass: 16 bits in, 16 bits out.
 *
 * A gray source (GRAY8, GRAY16) stays gray: gray in, gray out, one channel. Its pixel has no
 * colour for white balance, per-channel curves or saturation to act on, so the pass keeps a
 * table of its own for it (GRAY), composed from the operations' gray parts alone: what each
 * does to the one channel of a gray image (exposure, contrast and levels, the master curve;
 * lm_point_pass_map_gray, point.h). Operations of colour alone have no gray part and leave a
 * gray image as it is; the pixel parts do not run. A gray pixel is then one lookup and one
 * rounding. */
#pragma once

#include <math.h>

#include "op-id.h"
#include "pixel-math.h"

#define LM_POINT_FIELD_GEOMETRY(name, Name)
#define LM_POINT_FIELD_POINT(name, Name)
#define LM_POINT_FIELD_POINT_COLOR(name, Name) Lm##Name##Pixel name;
#define LM_POINT_FIELD_PIXEL(name, Name)
#define LM_POINT_FIELD_GLOBAL(name, Name)
#define LM_POINT_FIELD_AREA(name, Name)
#define LM_POINT_FIELD_EXPORT(name, Name)

/* Point operations a pass can hold (each may come more than once) and their parameters' room
 * (LM_OP_PARAMS_MAX, op.h: point.c static-asserts the two equal). */
#define LM_POINT_RECIPE_MAX 8
#define LM_POINT_RECIPE_PARAMS 576

/* The pixel parts, as the kernels read them (a launch parameter of about 2 KiB, most of it the
 * luma curve's nodes): which run, and each one's parameters prepared on the host.
 * lm_point_pass_pixels (point.h) takes them from a pass. */
typedef struct {
  uint32_t pixel_ops; /* LM_OP_BIT of each POINT_COLOR operation whose pixel part runs */
  /* Lm<Name>Pixel <name> of each POINT_COLOR operation. */
#define LM_OP(ID, name, Name, KIND) LM_POINT_FIELD_##KIND (name, Name)
#include "op-list.h"
#undef LM_OP
  int unused; /* a member, in case no operation has a pixel part */
} LmPointPixels;

/* A pass as the host builds it: what the operations' point_prepare write (the tables, and the
 * pixel parts under the names of LmPointPixels), and how it was built. Host only: each kernel
 * is given the part it reads (kernels/kernels.h: lm_k_point, lm_k_point16). */
typedef struct _LmPointPass {
  float table[3][256]; /* R, G, B: every channel part, composed */
  float gray[256];     /* a gray source's one channel: every gray part, composed */
  uint32_t pixel_ops;  /* as LmPointPixels's */
#define LM_OP(ID, name, Name, KIND) LM_POINT_FIELD_##KIND (name, Name)
#include "op-list.h"
#undef LM_OP
  /* The operations composed, in order, with their parameters, from which a 16-bit source's
   * table is built (lm_point_table16). Compared with the rest by the render cache. */
  uint32_t n_recipe;
  struct {
    uint32_t id; /* LmOpId */
    uint8_t params[LM_POINT_RECIPE_PARAMS] __attribute__ ((aligned (8)));
  } recipe[LM_POINT_RECIPE_MAX];
  float *table16; /* while lm_point_table16 builds: the 3 × 65536 table the map fills too */
  float *gray16;  /* while lm_point_table16 builds a gray source's: the 65536 the gray map fills */
} LmPointPass;

#define LM_POINT_TABLE16_SIZE 65536

/* Each POINT_COLOR operation's pixel part as lm_point_pixel calls it: given the pixel's luma
 * where the part before it knows it (NaN where not), returning what it knows of the luma it
 * leaves. The luma curve knows it (its Y'), saturation keeps the one it was given (its
 * factor moves the channels about Y), colormix does not know it. The curve followed by
 * saturation runs as their pair (lm_point_curve_saturation), which uses Y' as saturation's
 * luma. A new POINT_COLOR operation adds its line here. */
LM_INLINE float
lm_point_part_curve (const LmCurvePixel *p, float luma, float *r, float *g, float *b)
{
  (void) luma;
  return lm_curve_pixel (p->node, r, g, b);
}

LM_INLINE float
lm_point_part_saturation (const LmSaturationPixel *p, float luma, float *r, float *g, float *b)
{
  lm_saturation_pixel (p, luma, r, g, b);
  return luma;
}

LM_INLINE float
lm_point_part_colormix (const LmColormixPixel *p, float luma, float *r, float *g, float *b)
{
  (void) luma;
  lm_colormix_pixel (p, r, g, b);
  return NAN;
}

/* How far a channel value may lie beyond 0..255 after the channel parts: within
 * ±LM_POINT_VALUE_MAX (2^24), where lm_point_pass_map holds the tables. No edit comes near
 * it (the steepest levels, ×255, after the most exposure, with the most contrast, stay
 * below 2^21; a recipe repeating them could pass it, and is held there), and it bounds
 * what the pixel parts divide by (lm_point_curve_saturation). */
#define LM_POINT_VALUE_MAX 16777216.0f

/* The luma curve then saturation, the pair most edits make, as one gain about the luma:
 * each part maps the luma (the curve Y to Y', saturation Y to itself) and scales the
 * pixel's difference from it (the curve by Y'/Y, since c·Y'/Y = Y' + (c - Y)·Y'/Y, and
 * saturation by its factor k = A + B·min/max), so the two are c' = Y' + (c - Y)·gain with
 * gain = Y'/Y · (A + B·min/max) = Y'/(Y·max) · (A·max + B·min). Vibrance's min and max are
 * read before the curve, where their ratio is the same in real arithmetic (the curve scales
 * every channel by Y'/Y). One reciprocal then serves both quotients, and each channel is one
 * fused multiply-add, c·gain + (Y' - Y·gain), where separately the curve's scaling and
 * saturation's blend each cost operations a channel and each quotient a division: the
 * pass's most expensive part on the GPU, which issues its instructions as fast as it can
 * (bench/RESULTS.md: 89 instructions a pixel before, 58 now). Where Y is not above 2^-19
 * (black, channels that cancel), Y' - Y is added, as the curve alone does at or below
 * 2^-40, and the pixel counts as colourless for vibrance: gain = A + B. Above it, with
 * channels within ±LM_POINT_VALUE_MAX, Y·max lies in ratio-math.h's range, so that the
 * GPU's reciprocal is its fast path, bit for bit the CPU's; below, it is not used. A min
 * below 0 counts as 0 (fully saturated), as saturation alone has it. NODE is the curve's
 * (LmCurvePixel's, or a copy in faster memory); BIAS is added to every channel (0, or the
 * half of the rounding that lm_point_pack_biased leaves out). Returns Y'. */
#define LM_POINT_GAIN_LUMA_MIN 0x1p-19f

LM_INLINE float
lm_point_curve_saturation (const float (*node)[2], const LmSaturationPixel *s, float bias, float *r, float *g,
                           float *b)
{
  float y = lm_weighted_sum (*r, *g, *b, LM_BT709_R, LM_BT709_G, LM_BT709_B);
  float mapped = lm_curve_luma_map (node, y);
  float hi = lm_saturation_max (lm_saturation_max (*r, *g), *b);
  float lo = lm_saturation_max (lm_saturation_min (lm_saturation_min (*r, *g), *b), 0.0f);
  float inverse = lm_ratio_reciprocal (y * hi);
  float gain = lm_select (y > LM_POINT_GAIN_LUMA_MIN,
                          (mapped * inverse) * lm_fma (s->gain, hi, s->vibrance_gain * lo),
                          s->gain + s->vibrance_gain);
  float shift = lm_fma (-y, gain, mapped + bias);
  *r = lm_fma (*r, gain, shift), *g = lm_fma (*g, gain, shift), *b = lm_fma (*b, gain, shift);
  return mapped;
}

#define LM_POINT_CALL_GEOMETRY(ID, name)
#define LM_POINT_CALL_POINT(ID, name)
#define LM_POINT_CALL_POINT_COLOR(ID, name)                                                        \
  if (ops & LM_OP_BIT (ID))                                                                        \
    luma = lm_point_part_##name (&px->name, luma, r, g, b);
#define LM_POINT_CALL_PIXEL(ID, name)
#define LM_POINT_CALL_GLOBAL(ID, name)
#define LM_POINT_CALL_AREA(ID, name)
#define LM_POINT_CALL_EXPORT(ID, name)

/* The pixel parts PX, in list order: the luma curve and saturation as their pair where both
 * run (they are consecutive in the list). */
LM_INLINE void
lm_point_pixel (const LmPointPixels *px, float *r, float *g, float *b)
{
  float luma = NAN;
  uint32_t ops = px->pixel_ops, pair = LM_OP_BIT (CURVE) | LM_OP_BIT (SATURATION);
  if ((ops & pair) == pair)
    {
      luma = lm_point_curve_saturation (px->curve.node, &px->saturation, 0.0f, r, g, b);
      ops &= ~pair;
    }
#define LM_OP(ID, name, Name, KIND) LM_POINT_CALL_##KIND (ID, name)
#include "op-list.h"
#undef LM_OP
  (void) px, (void) r, (void) g, (void) b, (void) luma, (void) ops;
}

/* R, G, B already raised by the rounding's half, clamped to 0..255, truncated and packed with
 * ALPHA_OF's alpha. On the GPU as truncating conversions and saturating packs
 * (cvt.pack.sat): for v in 0..256, trunc (v) is the clamp's result; below 0 it is ≤ 0 and
 * above 256 ≥ 256, which the pack saturates to 0 and 255; NaN converts to 0, as the clamp
 * makes it. */
LM_INLINE uint32_t
lm_point_pack_biased (float r, float g, float b, uint32_t alpha_of)
{
#ifdef __CUDA_ARCH__
  int ri = __float2int_rz (r), gi = __float2int_rz (g), bi = __float2int_rz (b);
  uint32_t high, word;
  asm ("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(high) : "r"(alpha_of >> 24), "r"(bi), "r"(0));
  asm ("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(word) : "r"(gi), "r"(ri), "r"(high));
  return word;
#else
  return lm_px_pack ((uint8_t) (int) lm_quantize_clamp (r), (uint8_t) (int) lm_quantize_clamp (g),
                     (uint8_t) (int) lm_quantize_clamp (b), alpha_of);
#endif
}

/* R, G, B rounded (lm_quantize_u8) and packed with ALPHA_OF's alpha: the half added first,
 * then lm_point_pack_biased, 7 instructions on the GPU instead of 18. For every float v,
 * (int) clamp (v + 0.5) is lm_quantize_u8's (int) (clamp (v) + 0.5) (tests/unit/
 * test-point-pass.c checks all 2^32). */
LM_INLINE uint32_t
lm_point_pack (float r, float g, float b, uint32_t alpha_of)
{
  return lm_point_pack_biased (r + 0.5f, g + 0.5f, b + 0.5f, alpha_of);
}

/* The luma curve and saturation alone, an RGBA8 pixel's pixel parts the most edits make:
 * their pair with the rounding's half added with its constant (one addition a pixel where
 * the pack takes three). NODE as lm_point_curve_saturation's. */
LM_INLINE uint32_t
lm_point_rgba_pair (const LmPointPixels *px, const float (*node)[2], float r, float g, float b, uint32_t p)
{
  lm_point_curve_saturation (node, &px->saturation, 0.5f, &r, &g, &b);
  return lm_point_pack_biased (r, g, b, p);
}

/* One RGBA8 pixel through a pass: TABLE (its table, or a copy of it in faster memory: a
 * kernel's shared memory), then its pixel parts PX. Alpha is kept. */
LM_INLINE uint32_t
lm_point_rgba (const LmPointPixels *px, const float (*table)[256], uint32_t p)
{
  float r = table[0][p & 0xffu], g = table[1][(p >> 8) & 0xffu], b = table[2][(p >> 16) & 0xffu];
  if (px->pixel_ops == (LM_OP_BIT (CURVE) | LM_OP_BIT (SATURATION)))
    return lm_point_rgba_pair (px, px->curve.node, r, g, b, p);
  lm_point_pixel (px, &r, &g, &b);
  return lm_point_pack (r, g, b, p);
}

/* A GRAY8 pixel through a pass: GRAY is its gray table, or a copy of it in faster memory.
 * Gray out. */
LM_INLINE uint8_t
lm_point_gray (const float *gray, uint8_t v)
{
  return lm_quantize_u8 (gray[v]);
}

/* One RGBA16 pixel through a pass: TABLE16 (3 × LM_POINT_TABLE16_SIZE floats: R, G, B;
 * lm_point_table16), then its pixel parts PX. Alpha is kept. */
LM_INLINE uint64_t
lm_point_rgba16 (const LmPointPixels *px, const float *table16, uint64_t p)
{
  float r = table16[p & 0xffffu], g = table16[LM_POINT_TABLE16_SIZE + ((p >> 16) & 0xffffu)],
        b = table16[2 * LM_POINT_TABLE16_SIZE + ((p >> 32) & 0xffffu)];
  lm_point_pixel (px, &r, &g, &b);
  return lm_px16_pack (lm_quantize_u16 (r), lm_quantize_u16 (g), lm_quantize_u16 (b), p);
}

/* A GRAY16 pixel through GRAY16, a gray source's table (LM_POINT_TABLE16_SIZE floats;
 * lm_point_table16). Gray out. */
LM_INLINE uint16_t
lm_point_gray16 (const float *gray16, uint16_t v)
{
  return lm_quantize_u16 (gray16[v]);
}
