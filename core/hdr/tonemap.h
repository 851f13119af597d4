/* Tone mapping: HDR radiance to an 8-bit image, with OpenCV's operators' semantics (their
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

typedef struct {
  int kind;          /* LmTonemapKind */
  float gamma;       /* OpenCV: 1; the window: 2.2 */
  float intensity;   /* Reinhard: −8..8, 0 */
  float light_adapt; /* Reinhard: 0..1, 1 */
  float color_adapt; /* Reinhard: 0..1, 0 */
  float saturation;  /* Drago: 1 */
  float bias;        /* Drago: 0.7..0.9, 0.85 */
} LmTonemapParams;

/* OpenCV's defaults, which lumen-cli hdr and batch keep (tests/hdr compares them with
 * OpenCV). The window starts from the tone mapping's parameter table (core/edit/pipeline.c)
 * instead: gamma 2.2. */
#define LM_TONEMAP_PARAMS_INIT                                                                 \
  { .kind = LM_TONEMAP_REINHARD, .gamma = 1.0f, .intensity = 0.0f, .light_adapt = 1.0f,        \
    .color_adapt = 0.0f, .saturation = 1.0f, .bias = 0.85f }

gboolean lm_tonemap_kind_parse (const char *text, LmTonemapKind *kind);

/* RADIANCE (RGBA_F32) to OUT (RGBA8, same size): the operator's 0..1 result × 255. */
gboolean lm_tonemap_cpu (const LmTonemapParams *params, const LmImage *radiance, LmImage *out,
                         GError **error);

/* In place: x ↦ (x / max)^γ · max, max over every colour sample. */
void lm_gamma_correct_cpu (LmImage *radiance, float gamma);

G_END_DECLS
