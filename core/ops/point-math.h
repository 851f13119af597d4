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

/* The pixel parts, as the kernels read them (a launch parameter of a few hundred bytes): which
 * run, and each one's parameters prepared on the host. lm_point_pass_pixels (point.h) takes
 * them from a pass. */
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
 * factor moves the channels about Y), colormix does not know it. Saturation after the curve
 * thus uses Y' instead of summing the channels again, which is the same luma up to a
 * rounding (curve-math.h). A new POINT_COLOR operation adds its line here. */
LM_INLINE float
lm_point_part_curve (const LmCurvePixel *p, float luma, float *r, float *g, float *b)
{
  (void) luma;
  return lm_curve_pixel (p, r, g, b);
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

#define LM_POINT_CALL_GEOMETRY(ID, name)
#define LM_POINT_CALL_POINT(ID, name)
#define LM_POINT_CALL_POINT_COLOR(ID, name)                                                        \
  if (px->pixel_ops & LM_OP_BIT (ID))                                                              \
    luma = lm_point_part_##name (&px->name, luma, r, g, b);
#define LM_POINT_CALL_PIXEL(ID, name)
#define LM_POINT_CALL_GLOBAL(ID, name)
#define LM_POINT_CALL_AREA(ID, name)
#define LM_POINT_CALL_EXPORT(ID, name)

/* The pixel parts PX, in list order. */
LM_INLINE void
lm_point_pixel (const LmPointPixels *px, float *r, float *g, float *b)
{
  float luma = NAN;
#define LM_OP(ID, name, Name, KIND) LM_POINT_CALL_##KIND (ID, name)
#include "op-list.h"
#undef LM_OP
  (void) px, (void) r, (void) g, (void) b, (void) luma;
}

/* R, G, B rounded (lm_quantize_u8) and packed with ALPHA_OF's alpha. On the GPU as truncating
 * conversions and saturating packs (cvt.pack.sat), 7 instructions instead of 18: for v in
 * 0..255, trunc (v + 0.5) is the clamp's result; below 0 it is ≤ 0 and above 255 ≥ 255,
 * which the pack saturates to 0 and 255; NaN converts to 0, as the clamp makes it. */
LM_INLINE uint32_t
lm_point_pack (float r, float g, float b, uint32_t alpha_of)
{
#ifdef __CUDA_ARCH__
  int ri = __float2int_rz (r + 0.5f), gi = __float2int_rz (g + 0.5f), bi = __float2int_rz (b + 0.5f);
  uint32_t high, word;
  asm ("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(high) : "r"(alpha_of >> 24), "r"(bi), "r"(0));
  asm ("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(word) : "r"(gi), "r"(ri), "r"(high));
  return word;
#else
  return lm_px_pack (lm_quantize_u8 (r), lm_quantize_u8 (g), lm_quantize_u8 (b), alpha_of);
#endif
}

/* One RGBA8 pixel through a pass: TABLE (its table, or a copy of it in faster memory: a
 * kernel's shared memory), then its pixel parts PX. Alpha is kept. */
LM_INLINE uint32_t
lm_point_rgba (const LmPointPixels *px, const float (*table)[256], uint32_t p)
{
  float r = table[0][p & 0xffu], g = table[1][(p >> 8) & 0xffu], b = table[2][(p >> 16) & 0xffu];
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
