/* An instance's mask edited as the window's mask tools edit it (mask-edit.c): shapes added and
 * removed, brush strokes started and drawn on. Each is a function of the LmMask and the blob
 * store alone: a brush's strokes are interned anew (a stroke and a new key list) at each
 * change, never changed in place, so that the masks in history and in render requests keep
 * naming what they named. Coordinates are source-normalised (pixel / the source's long side,
 * before geometry); failures leave the mask as it was and say why in ERROR, in a line. */
#pragma once

#include <glib.h>

#include "../ops/mask-math.h"

G_BEGIN_DECLS

/* A mask with no shape (the whole photo), opacity 1, no ranges, no feather: what a tool
 * attaches to an instance that has none. */
void lm_mask_edit_init (LmMask *mask);

/* A linear gradient joined by COMBINE (LM_MASK_ADD, …): fully on along the line through
 * (X0, Y0), off beyond (X1, Y1). Its index in *INDEX (may be NULL). */
gboolean lm_mask_edit_add_linear (LmMask *mask, int combine, float x0, float y0, float x1, float y1, guint *index,
                                  GError **error);
/* An elliptical shape around (CX, CY) of radii RX, RY turned by ANGLE degrees, its edge
 * fading over SOFTNESS (0..1) of the radius. */
gboolean lm_mask_edit_add_radial (LmMask *mask, int combine, float cx, float cy, float rx, float ry, float angle,
                                  float softness, guint *index, GError **error);
/* An empty brush shape (it paints nothing until a stroke starts in it). */
gboolean lm_mask_edit_add_brush (LmMask *mask, int combine, guint *index, GError **error);

/* Shape INDEX (linear or radial) moved to new points: its end points, or its centre and radii
 * (the angle and softness kept), as a drag goes on. */
gboolean lm_mask_edit_set_linear (LmMask *mask, guint index, float x0, float y0, float x1, float y1,
                                  GError **error);
gboolean lm_mask_edit_set_radial (LmMask *mask, guint index, float cx, float cy, float rx, float ry,
                                  GError **error);

/* A new stroke at the end of brush shape INDEX, from (U, V), painted (ERASE FALSE) or erasing,
 * of diameter SIZE (source-normalised), HARDNESS and OPACITY (0..1). Refused past
 * LM_MASK_STROKES_MAX strokes. */
gboolean lm_mask_edit_start_stroke (LmMask *mask, guint index, gboolean erase, float size, float hardness,
                                    float opacity, float u, float v, GError **error);
/* N points (UV: N (u, v) pairs) added to the last stroke of brush shape INDEX. Refused past
 * LM_MASK_POINTS_MAX points a stroke. */
gboolean lm_mask_edit_extend_stroke (LmMask *mask, guint index, const float *uv, guint n, GError **error);
/* The number of strokes of brush shape INDEX, and the points of its last (0 when none). */
guint lm_mask_edit_strokes (const LmMask *mask, guint index, guint *last_points);

/* Shape INDEX taken out, the later ones moving down. */
gboolean lm_mask_edit_remove_shape (LmMask *mask, guint index, GError **error);

G_END_DECLS
