/* Tone mapping: HDR radiance to an 8-bit (or 16-bit) image, with OpenCV's operators' semantics (their
 * inputs taken as RGB) or the sigmoid display transform of scene-referred light, and the plain
 * normalised gamma correction of radiance. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "../ops/param-decl.h"

G_BEGIN_DECLS

typedef enum {
  LM_TONEMAP_NONE,     /* none: 0..1 clipped to 0..255 */
  LM_TONEMAP_GAMMA,    /* (x − min)/(max − min), then ^(1/γ) (OpenCV's Tonemap) */
  LM_TONEMAP_REINHARD, /* Reinhard & Devlin 2005, OpenCV's TonemapReinhard */
  LM_TONEMAP_DRAGO,    /* Drago et al. 2003, OpenCV's TonemapDrago */
  LM_TONEMAP_SIGMOID,  /* the display transform of scene-referred light (sigmoid-math.h) */
} LmTonemapKind;

/* Tone mapping's parameters, declared once (core/ops/param-decl.h): this list gives the struct
 * below and the description table of tone mapping's LmOpInfo (lm_tonemap_op_info,
 * core/edit/pipeline.c, which also holds tonemap_kinds, the operators' names), which the
 * window's panel, the sidecars and lumen-cli hdr and batch (app/cli-tone.c: flags, ranges,
 * help) read; tests/hdr compares the operators with OpenCV's by giving OpenCV's values.
 *
 * Ranges as OpenCV documents them (Drago's bias 0.7..0.9). The defaults are a look, chosen on
 * the test stacks (courtyard, forest, sunset-handheld, kitchen: tests/hdr/test_tone_defaults.py):
 * OpenCV's (intensity 0, light adaptation 1: a per-pixel power curve), with a display's gamma
 * 2.2, squeezed each stack into its middle, flat (1st and 99th percentiles of luma 63..71 and
 * 178..203 of 255); with gamma 1 it was dark (medians 35..52). Reinhard's global curve (light
 * adaptation 0) at intensity 3.5 and gamma 1.6 spans 19..34 to 236..253, medians 98..137 about
 * middle gray (118), no luma at 0 or 255.
 *
 * The sigmoid (sigmoid-math.h) is for scene-referred light with a known scale, a developed
 * raw above all (1.0 = the sensor's white level after white balance). Its exposure defaults to
 * +0.7 EV: ISO 12232's saturation-based speed puts a metered middle grey at 0.18/√2 = 0.127 of
 * the sensor's white (half a stop of headroom), and cameras keep a little more, so raws' middle
 * grey lies near 0.09..0.13; +0.7 EV takes 0.18 · 2^-0.7 = 0.111, the middle of that span on
 * log axes, to display middle grey (darktable's scene-referred default is the same +0.7 EV).
 * Its contrast, the slope at middle grey on log axes, defaults to 1.2: some midtone contrast
 * over the scene's, which brings the sensor's white (+3.2 EV over middle grey after the
 * exposure) to 237 of 255 and 3 EV under middle grey to 26 (1.3 gives 241 and 22, and closed
 * up the forest's shadows in rawtran's IMG_5952.CR2). Hue preservation defaults to 1: bright
 * saturated colours keep their hue. */
#define LM_TONEMAP_PARAMS(P)                                                                       \
  P (ENUM, kind, N_("Operator"), 0, 4, LM_TONEMAP_REINHARD, 1, NULL, .values = tonemap_kinds)      \
  P (FLOAT, gamma, N_("Gamma"), 0.1, 5.0, 1.6, 0.01, NULL, .when = "kind=gamma|reinhard|drago")    \
  P (FLOAT, intensity, N_("Intensity"), -8.0, 8.0, 3.5, 0.1, NULL, .when = "kind=reinhard")        \
  P (FLOAT, light_adapt, N_("Light adaptation"), 0.0, 1.0, 0.0, 0.01, NULL, .when = "kind=reinhard") \
  P (FLOAT, color_adapt, N_("Colour adaptation"), 0.0, 1.0, 0.0, 0.01, NULL, .when = "kind=reinhard") \
  P (FLOAT, saturation, N_("Saturation"), 0.0, 2.0, 1.0, 0.01, NULL, .when = "kind=drago")         \
  P (FLOAT, bias, N_("Bias"), 0.7, 0.9, 0.85, 0.01, NULL, .when = "kind=drago")                   \
  P (FLOAT, exposure, N_("Exposure"), -10.0, 10.0, 0.7, 0.1, "EV", .when = "kind=sigmoid")          \
  P (FLOAT, contrast, N_("Contrast"), 0.5, 3.0, 1.2, 0.01, NULL, .when = "kind=sigmoid")            \
  P (FLOAT, hue_preservation, N_("Hue preservation"), 0.0, 1.0, 1.0, 0.01, NULL, .when = "kind=sigmoid")

typedef struct {
  LM_TONEMAP_PARAMS (LM_PARAM_FIELD)
} LmTonemapParams;

/* The list's order is the struct's layout: a row moved or retyped would change it unnoticed
 * (kind first, then 4-byte fields in this order). */
#define LM_TONEMAP_AT(field, offset) (G_STRUCT_OFFSET (LmTonemapParams, field) == (offset))
G_STATIC_ASSERT (LM_TONEMAP_AT (kind, 0) && LM_TONEMAP_AT (gamma, 4) && LM_TONEMAP_AT (intensity, 8)
                 && LM_TONEMAP_AT (light_adapt, 12) && LM_TONEMAP_AT (color_adapt, 16)
                 && LM_TONEMAP_AT (saturation, 20) && LM_TONEMAP_AT (bias, 24)
                 && LM_TONEMAP_AT (exposure, 28) && LM_TONEMAP_AT (contrast, 32)
                 && LM_TONEMAP_AT (hue_preservation, 36) && sizeof (LmTonemapParams) == 40);
#undef LM_TONEMAP_AT

/* The table's defaults, as a constant for static tables (tests, bench);
 * tests/unit/test-registry checks it against the table. */
#define LM_TONEMAP_PARAMS_INIT                                                                 \
  { .kind = LM_TONEMAP_REINHARD, .gamma = 1.6f, .intensity = 3.5f, .light_adapt = 0.0f,        \
    .color_adapt = 0.0f, .saturation = 1.0f, .bias = 0.85f, .exposure = 0.7f, .contrast = 1.2f, \
    .hue_preservation = 1.0f }

/* RADIANCE (RGBA_F32) to OUT (RGBA8 or RGBA16, same size): the operator's 0..1 result × 255,
 * rounded to 8 bits (lm_quantize_u8) or 16 (lm_quantize_u16 of the same value). The sigmoid's
 * result is sRGB-encoded in RADIANCE's primaries, bit for bit the CUDA kernel's. */
gboolean lm_tonemap_cpu (const LmTonemapParams *params, const LmImage *radiance, LmImage *out,
                         GError **error);

/* In place: x ↦ (x / max)^γ · max, max over every colour sample. */
void lm_gamma_correct_cpu (LmImage *radiance, float gamma);

G_END_DECLS
