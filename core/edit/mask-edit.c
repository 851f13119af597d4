/* Editing a mask as the window's tools do (mask-edit.h). */
#include "mask-edit.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "blob-store.h"
#include "../error.h"
#include "../ops/mask.h"

/* As far off the photo as the sidecar reads (sidecar-masks.c): a gradient's far end or a stroke
 * begun outside, not a number that would overflow the render's arithmetic. */
#define COORD_MAX 16.0f

static gboolean
coord_ok (float v)
{
  return isfinite (v) && v >= -COORD_MAX && v <= COORD_MAX;
}

static gboolean
unit_ok (float v)
{
  return isfinite (v) && v >= 0.0f && v <= 1.0f;
}

static gboolean
fail (GError **error, int code, const char *message)
{
  g_set_error_literal (error, LUMEN_ERROR, code, message);
  return FALSE;
}

void
lm_mask_edit_init (LmMask *mask)
{
  /* Whole, padding included: masks are compared by their bytes. */
  memset (mask, 0, sizeof *mask);
  mask->opacity = 1.0f;
}

static LmMaskShape *
new_shape (LmMask *mask, int kind, int combine, guint *index, GError **error)
{
  if (combine < 0 || combine >= LM_MASK_N_COMBINES)
    {
      fail (error, LM_ERROR_INVALID, _("A mask shape joins the others by adding, subtracting or intersecting"));
      return NULL;
    }
  if (mask->n_shapes >= LM_MASK_SHAPES_MAX)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE, _("A mask holds %d shapes at most"), LM_MASK_SHAPES_MAX);
      return NULL;
    }
  LmMaskShape *shape = &mask->shape[mask->n_shapes];
  memset (shape, 0, sizeof *shape);
  shape->kind = (uint8_t) kind, shape->combine = (uint8_t) combine, shape->opacity = 1.0f;
  if (index)
    *index = mask->n_shapes;
  return shape;
}

static gboolean
linear_ok (float x0, float y0, float x1, float y1, GError **error)
{
  if (!coord_ok (x0) || !coord_ok (y0) || !coord_ok (x1) || !coord_ok (y1) || (x0 == x1 && y0 == y1))
    return fail (error, LM_ERROR_INVALID, _("A linear gradient needs two distinct points near the photo"));
  return TRUE;
}

static gboolean
radial_ok (float cx, float cy, float rx, float ry, GError **error)
{
  if (!coord_ok (cx) || !coord_ok (cy) || !(rx > 0.0f && rx <= COORD_MAX) || !(ry > 0.0f && ry <= COORD_MAX))
    return fail (error, LM_ERROR_INVALID, _("A radial gradient needs a centre near the photo and radii above 0"));
  return TRUE;
}

gboolean
lm_mask_edit_add_linear (LmMask *mask, int combine, float x0, float y0, float x1, float y1, guint *index,
                         GError **error)
{
  if (!linear_ok (x0, y0, x1, y1, error))
    return FALSE;
  LmMaskShape *shape = new_shape (mask, LM_MASK_LINEAR, combine, index, error);
  if (shape == NULL)
    return FALSE;
  shape->g[0] = x0, shape->g[1] = y0, shape->g[2] = x1, shape->g[3] = y1;
  mask->n_shapes++;
  return TRUE;
}

gboolean
lm_mask_edit_add_radial (LmMask *mask, int combine, float cx, float cy, float rx, float ry, float angle,
                         float softness, guint *index, GError **error)
{
  if (!radial_ok (cx, cy, rx, ry, error))
    return FALSE;
  if (!isfinite (angle) || !unit_ok (softness))
    return fail (error, LM_ERROR_INVALID, _("A radial gradient's angle is a number and its softness from 0 to 1"));
  LmMaskShape *shape = new_shape (mask, LM_MASK_RADIAL, combine, index, error);
  if (shape == NULL)
    return FALSE;
  float g[6] = { cx, cy, rx, ry, angle, softness };
  memcpy (shape->g, g, sizeof g);
  mask->n_shapes++;
  return TRUE;
}

gboolean
lm_mask_edit_add_brush (LmMask *mask, int combine, guint *index, GError **error)
{
  if (new_shape (mask, LM_MASK_BRUSH, combine, index, error) == NULL)
    return FALSE;
  mask->n_shapes++;
  return TRUE;
}

static LmMaskShape *
shape_of_kind (LmMask *mask, guint index, int kind, GError **error)
{
  if (index >= mask->n_shapes || mask->n_shapes > LM_MASK_SHAPES_MAX || mask->shape[index].kind != kind)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("The mask has no shape %u of that kind"), index + 1);
      return NULL;
    }
  return &mask->shape[index];
}

gboolean
lm_mask_edit_set_linear (LmMask *mask, guint index, float x0, float y0, float x1, float y1, GError **error)
{
  LmMaskShape *shape = shape_of_kind (mask, index, LM_MASK_LINEAR, error);
  if (shape == NULL || !linear_ok (x0, y0, x1, y1, error))
    return FALSE;
  shape->g[0] = x0, shape->g[1] = y0, shape->g[2] = x1, shape->g[3] = y1;
  return TRUE;
}

gboolean
lm_mask_edit_set_radial (LmMask *mask, guint index, float cx, float cy, float rx, float ry, GError **error)
{
  LmMaskShape *shape = shape_of_kind (mask, index, LM_MASK_RADIAL, error);
  if (shape == NULL || !radial_ok (cx, cy, rx, ry, error))
    return FALSE;
  shape->g[0] = cx, shape->g[1] = cy, shape->g[2] = rx, shape->g[3] = ry;
  return TRUE;
}

/* The stroke keys of a brush shape (a new reference; NULL and *N 0 when it has none). A list
 * whose size is no whole number of keys, or that the store does not have, is none. */
static GBytes *
stroke_keys (const LmMaskShape *shape, gsize *n)
{
  *n = 0;
  GBytes *list = shape->strokes ? lm_blob_lookup (shape->strokes) : NULL;
  if (list && g_bytes_get_size (list) % sizeof (guint64) != 0)
    g_clear_pointer (&list, g_bytes_unref);
  if (list)
    *n = g_bytes_get_size (list) / sizeof (guint64);
  return list;
}

guint
lm_mask_edit_strokes (const LmMask *mask, guint index, guint *last_points)
{
  if (last_points)
    *last_points = 0;
  if (index >= mask->n_shapes || index >= LM_MASK_SHAPES_MAX || mask->shape[index].kind != LM_MASK_BRUSH)
    return 0;
  gsize n;
  g_autoptr (GBytes) list = stroke_keys (&mask->shape[index], &n);
  if (n > 0 && last_points)
    {
      guint64 key;
      memcpy (&key, (const guint8 *) g_bytes_get_data (list, NULL) + (n - 1) * sizeof key, sizeof key);
      g_autoptr (GBytes) stroke = lm_blob_lookup (key);
      LmMaskStrokeHead head;
      if (stroke && g_bytes_get_size (stroke) >= sizeof head)
        {
          memcpy (&head, g_bytes_get_data (stroke, NULL), sizeof head);
          *last_points = head.n;
        }
    }
  return (guint) n;
}

/* Brush shape INDEX's stroke list with its last key replaced by LAST (APPEND FALSE) or LAST
 * added, interned as a new list. */
static void
set_last_stroke (LmMaskShape *shape, GBytes *old, gsize n, guint64 last, gboolean append)
{
  gsize m = append ? n + 1 : n;
  g_autofree guint64 *keys = g_new (guint64, m);
  if (n > 0)
    memcpy (keys, g_bytes_get_data (old, NULL), n * sizeof *keys);
  keys[m - 1] = last;
  shape->strokes = lm_blob_intern (keys, m * sizeof *keys);
}

gboolean
lm_mask_edit_start_stroke (LmMask *mask, guint index, gboolean erase, float size, float hardness, float opacity,
                           float u, float v, GError **error)
{
  LmMaskShape *shape = shape_of_kind (mask, index, LM_MASK_BRUSH, error);
  if (shape == NULL)
    return FALSE;
  if (!(isfinite (size) && size > 0.0f && size <= COORD_MAX) || !unit_ok (hardness) || !unit_ok (opacity))
    return fail (error, LM_ERROR_INVALID, _("A brush has a size above 0, and a hardness and opacity from 0 to 1"));
  if (!coord_ok (u) || !coord_ok (v))
    return fail (error, LM_ERROR_INVALID, _("A brush stroke cannot start that far from the photo"));
  gsize n;
  g_autoptr (GBytes) list = stroke_keys (shape, &n);
  if (n >= LM_MASK_STROKES_MAX)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE, _("A brush holds %d strokes at most"), LM_MASK_STROKES_MAX);
      return FALSE;
    }
  struct {
    LmMaskStrokeHead head;
    float uv[2];
  } stroke;
  memset (&stroke, 0, sizeof stroke);
  stroke.head.erase = erase ? 1 : 0, stroke.head.size = size, stroke.head.hardness = hardness;
  stroke.head.opacity = opacity, stroke.head.n = 1;
  stroke.uv[0] = u, stroke.uv[1] = v;
  G_STATIC_ASSERT (sizeof stroke == sizeof (LmMaskStrokeHead) + 2 * sizeof (float));
  set_last_stroke (shape, list, n, lm_blob_intern (&stroke, sizeof stroke), TRUE);
  return TRUE;
}

gboolean
lm_mask_edit_extend_stroke (LmMask *mask, guint index, const float *uv, guint n_points, GError **error)
{
  LmMaskShape *shape = shape_of_kind (mask, index, LM_MASK_BRUSH, error);
  if (shape == NULL)
    return FALSE;
  gsize n;
  g_autoptr (GBytes) list = stroke_keys (shape, &n);
  if (n == 0)
    return fail (error, LM_ERROR_INVALID, _("The brush has no stroke to draw on"));
  for (guint i = 0; i < 2 * n_points; i++)
    if (!coord_ok (uv[i]))
      return fail (error, LM_ERROR_INVALID, _("A brush stroke cannot go that far from the photo"));
  guint64 key;
  memcpy (&key, (const guint8 *) g_bytes_get_data (list, NULL) + (n - 1) * sizeof key, sizeof key);
  g_autoptr (GBytes) old = lm_blob_lookup (key);
  gsize size = old ? g_bytes_get_size (old) : 0;
  LmMaskStrokeHead head;
  if (size < sizeof head)
    return fail (error, LM_ERROR_INVALID, _("The brush's last stroke is missing"));
  memcpy (&head, g_bytes_get_data (old, NULL), sizeof head);
  if (size != sizeof head + (gsize) head.n * 2 * sizeof (float))
    return fail (error, LM_ERROR_INVALID, _("The brush's last stroke is damaged"));
  if ((guint64) head.n + n_points > LM_MASK_POINTS_MAX)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE, _("A brush stroke holds %d points at most"),
                   LM_MASK_POINTS_MAX);
      return FALSE;
    }
  if (n_points == 0)
    return TRUE;
  gsize more = (gsize) n_points * 2 * sizeof (float);
  g_autofree guint8 *bytes = g_malloc (size + more);
  memcpy (bytes, g_bytes_get_data (old, NULL), size);
  memcpy (bytes + size, uv, more);
  head.n += n_points;
  memcpy (bytes, &head, sizeof head);
  set_last_stroke (shape, list, n, lm_blob_intern (bytes, size + more), FALSE);
  return TRUE;
}

gboolean
lm_mask_edit_remove_shape (LmMask *mask, guint index, GError **error)
{
  if (index >= mask->n_shapes || mask->n_shapes > LM_MASK_SHAPES_MAX)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("The mask has no shape %u"), index + 1);
      return FALSE;
    }
  memmove (&mask->shape[index], &mask->shape[index + 1], (mask->n_shapes - index - 1) * sizeof mask->shape[0]);
  mask->n_shapes--;
  /* The slot left behind is zero, as a mask made with fewer shapes has it. */
  memset (&mask->shape[mask->n_shapes], 0, sizeof mask->shape[0]);
  return TRUE;
}
