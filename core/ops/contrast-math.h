/* Contrast with black and white levels: parameters and the channel function, shared by
 * contrast.c and the fused point pass (point-math.h).
 *
 * On the encoded values, as levels and contrast sliders work: first the levels stretch
 * black..white to 0..255, v' = (v - black) · 255 / (white - black); then contrast scales
 * about mid-gray, v'' = (v' - 127.5) · (1 + contrast) + 127.5. With black 0 and white 255
 * this is OpenCV's convertScaleAbs (alpha = 1 + contrast, beta = -127.5 · contrast), except
 * where that is below 0: OpenCV takes |v|, Lumen clips to 0 at the pass's end (and before
 * that, a later curve sees the negative value).
 *
 * A white at or below black cannot be a stretch: it is taken as black + 1, the steepest
 * levels there are (a threshold at black), rather than refused, since a sidecar or two
 * flags given one at a time may pass through such a state. */
#pragma once

#include "param-decl.h"
#include "pixel-math.h"

/* contrast: -1 flattens to mid-gray, 1 doubles the distance from it; black: the value that
 * becomes 0; white: the value that becomes 255. */
#define LM_CONTRAST_PARAMS(P)                                                                      \
  P (FLOAT, contrast, N_("Contrast"), -1, 1, 0, 0.01, NULL)                                        \
  P (FLOAT, black, N_("Black level"), 0, 254, 0, 1, NULL)                                          \
  P (FLOAT, white, N_("White level"), 1, 255, 255, 1, NULL)

typedef struct {
  LM_CONTRAST_PARAMS (LM_PARAM_FIELD)
} LmContrastParams;

LM_INLINE float
lm_contrast_channel (const LmContrastParams *p, int c, float v)
{
  (void) c;
  float white = p->white > p->black ? p->white : p->black + 1.0f;
  float level = (v - p->black) * 255.0f / (white - p->black);
  return (level - 127.5f) * (1.0f + p->contrast) + 127.5f;
}
