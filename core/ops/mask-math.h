/* An instance's mask as plain data (docs: ISSUE-32-MASKS §2.1), read by gcc and nvcc alike:
 * drawn shapes in source-normalised coordinates (pixel / the source's long side, before
 * geometry), parametric ranges, feather and opacity. Brush strokes are not inline: a brush
 * shape names its list of strokes by a key of the blob store (core/edit/blob-store.h), so that
 * copying a pipeline (history, render requests) copies no points. */
#pragma once

#include <stdint.h>

/* LmMaskShape.kind */
enum { LM_MASK_BRUSH, LM_MASK_LINEAR, LM_MASK_RADIAL, LM_MASK_N_KINDS };
/* LmMaskShape.combine: how a shape joins the shapes before it */
enum { LM_MASK_ADD, LM_MASK_SUBTRACT, LM_MASK_INTERSECT, LM_MASK_N_COMBINES };

#define LM_MASK_SHAPES_MAX 16

typedef struct {
  uint8_t kind, combine, invert;
  float opacity;
  /* linear: x0, y0 (fully on), x1, y1 (fully off); radial: cx, cy, rx, ry, angle (degrees),
   * softness */
  float g[8];
  /* brush: the blob key of its stroke-key list (an array of uint64_t stroke keys) */
  uint64_t strokes;
} LmMaskShape;

/* A trapezoid: 1 between lo1 and hi1, linear to 0 at lo0 and hi0 (0..1 on display values,
 * EV on scene light; hue in degrees, wrapping). */
typedef struct {
  uint8_t on;
  float lo0, lo1, hi1, hi0;
} LmMaskRange;

typedef struct {
  uint32_t n_shapes;
  LmMaskShape shape[LM_MASK_SHAPES_MAX];
  LmMaskRange luminance, hue, saturation;
  float feather, detail, opacity; /* feather: a fraction of the long side; ε = detail² */
  uint8_t invert;
} LmMask;

/* A stroke blob: this head, then N (u, v) float pairs. */
typedef struct {
  uint32_t erase; /* 0 paints, 1 erases */
  float size, hardness, opacity;
  uint32_t n;
} LmMaskStrokeHead;
