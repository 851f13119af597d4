/* Tone mapping: HDR radiance to an 8-bit (or 16-bit) image, with OpenCV's operators' semantics (their
 * inputs taken as RGB), and the plain normalised gamma correction of radiance. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef enum {
  LM_TONEMAP_NONE,     /* none: 0..1 clipped to 0..255 */
  LM_TONEMAP_GAMMA,    /* (x − min)/(max − min), then ^(1/γ) (OpenCV's Tonemap) */
  LM_TONEMAP_REINHARD, /* Reinhard & Devlin 2005, OpenCV's TonemapReinhard */
  LM_TONEMAP_DRAGO,    /* Drago et al. 2003, OpenCV's TonemapDrago */
} LmTonemapKind;

/* The parameters' ranges, defaults, labels and when-rules are described once, in tone
 * mapping's LmOpInfo (lm_tonemap_op_info, core/edit/pipeline.c), which the window, the
 * sidecars and lumen-cli read. */
typedef struct {
  int kind; /* LmTonemapKind */
  float gamma;
  float intensity, light_adapt, color_adapt; /* Reinhard's */
  float saturation, bias;                    /* Drago's */
} LmTonemapParams;

/* The table's defaults, as a constant for static tables (tests, bench);
 * tests/unit/test-registry checks it against the table. */
#define LM_TONEMAP_PARAMS_INIT                                                                 \
  { .kind = LM_TONEMAP_REINHARD, .gamma = 1.6f, .intensity = 3.5f, .light_adapt = 0.0f,        \
    .color_adapt = 0.0f, .saturation = 1.0f, .bias = 0.85f }

/* RADIANCE (RGBA_F32) to OUT (RGBA8 or RGBA16, same size): the operator's 0..1 result × 255,
 * rounded to 8 bits (lm_quantize_u8) or 16 (lm_quantize_u16 of the same value). */
gboolean lm_tonemap_cpu (const LmTonemapParams *params, const LmImage *radiance, LmImage *out,
                         GError **error);

/* In place: x ↦ (x / max)^γ · max, max over every colour sample. */
void lm_gamma_correct_cpu (LmImage *radiance, float gamma);

G_END_DECLS
