/* mask-dump: a mask rendered by the CPU reference (core/ops/mask.c), for
 * tests/oracle/test_mask_oracle.py.
 *
 *   mask-dump SPEC PHOTO DRAWN FINAL
 *
 * SPEC, one item a line: "frame W H" (the source frame, lm_mask_frame_source), "stroke SIZE
 * HARDNESS OPACITY ERASE u0 v0 u1 v1 …" (strokes of one brush shape, the first shape),
 * "linear X0 Y0 X1 Y1" (a linear gradient added after it), "feather FEATHER DETAIL". PHOTO:
 * W × H RGBA8 pixels, packed. DRAWN and FINAL receive the drawn plane and the final mask as
 * packed little-endian float32. A failure prints its message on stderr and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "core/error.h"
#include "core/ops/mask.h"

#define STROKES_MAX 16

typedef struct {
  LmMaskStrokeHead head;
  float *points;
} Stroke;

static Stroke strokes[STROKES_MAX];
static guint n_strokes;

static gboolean
get_stroke (uint64_t list, guint index, const LmMaskStrokeHead **head, const float **points, gpointer user,
            GError **error)
{
  *head = index < n_strokes ? &strokes[index].head : NULL;
  *points = index < n_strokes ? strokes[index].points : NULL;
  return TRUE;
}

static gboolean
write_plane (const LmImage *plane, const char *path, GError **error)
{
  GString *bytes = g_string_new (NULL);
  for (guint y = 0; y < plane->height; y++)
    g_string_append_len (bytes, (const char *) lm_image_row (plane, y), plane->width * sizeof (float));
  gboolean ok = g_file_set_contents (path, bytes->str, bytes->len, error);
  g_string_free (bytes, TRUE);
  return ok;
}

static gboolean
run (char **argv, GError **error)
{
  g_autofree char *spec = NULL, *pixels = NULL;
  gsize pixels_len;
  if (!g_file_get_contents (argv[1], &spec, NULL, error) || !g_file_get_contents (argv[2], &pixels, &pixels_len, error))
    return FALSE;
  LmMask mask = { .opacity = 1.0f };
  guint w = 0, h = 0;
  g_auto (GStrv) lines = g_strsplit (spec, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      guint n = g_strv_length (f);
      if (n == 3 && strcmp (f[0], "frame") == 0)
        w = (guint) atoi (f[1]), h = (guint) atoi (f[2]);
      else if (n >= 7 && n % 2 == 1 && strcmp (f[0], "stroke") == 0 && n_strokes < STROKES_MAX)
        {
          Stroke *s = &strokes[n_strokes++];
          s->head = (LmMaskStrokeHead) { .size = (float) g_ascii_strtod (f[1], NULL),
                                         .hardness = (float) g_ascii_strtod (f[2], NULL),
                                         .opacity = (float) g_ascii_strtod (f[3], NULL), .erase = (uint32_t) atoi (f[4]),
                                         .n = (n - 5) / 2 };
          s->points = g_new (float, n - 5);
          for (guint k = 5; k < n; k++)
            s->points[k - 5] = (float) g_ascii_strtod (f[k], NULL);
          if (mask.n_shapes == 0)
            mask.shape[mask.n_shapes++] = (LmMaskShape) { .kind = LM_MASK_BRUSH, .opacity = 1 };
        }
      else if (n == 5 && strcmp (f[0], "linear") == 0)
        {
          LmMaskShape *sh = &mask.shape[mask.n_shapes++];
          *sh = (LmMaskShape) { .kind = LM_MASK_LINEAR, .opacity = 1 };
          for (int k = 0; k < 4; k++)
            sh->g[k] = (float) g_ascii_strtod (f[k + 1], NULL);
        }
      else if (n == 3 && strcmp (f[0], "feather") == 0)
        mask.feather = (float) g_ascii_strtod (f[1], NULL), mask.detail = (float) g_ascii_strtod (f[2], NULL);
      else if (n > 1 || (n == 1 && f[0][0] != '\0'))
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, "%s: line %u is not understood", argv[1], i + 1);
          return FALSE;
        }
    }
  if (w == 0 || h == 0 || pixels_len != (gsize) w * h * 4)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, "%s: not %u × %u RGBA8 pixels", argv[2], w, h);
      return FALSE;
    }
  g_autoptr (LmImage) photo = lm_image_new (LM_FORMAT_RGBA8, w, h, lm_allocator_host (), error);
  g_autoptr (LmImage) drawn = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), error);
  g_autoptr (LmImage) out = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), error);
  if (photo == NULL || drawn == NULL || out == NULL)
    return FALSE;
  for (guint y = 0; y < h; y++)
    memcpy (lm_image_row (photo, y), pixels + (gsize) y * w * 4, w * 4);
  g_autoptr (LmMaskFlat) flat = lm_mask_flatten (&mask, FALSE, get_stroke, NULL, error);
  LmMaskFrame frame = lm_mask_frame_source (w, h);
  if (flat == NULL || !lm_mask_flat_place (flat, &frame, w, h, TRUE, error))
    return FALSE;
  lm_mask_drawn_cpu (lm_mask_flat_render (flat), 0, 0, drawn);
  if (!lm_mask_final_cpu (lm_mask_flat_render (flat), 0, 0, photo, drawn, out, error))
    return FALSE;
  printf ("radius %d\n", lm_mask_flat_render (flat)->radius);
  return write_plane (drawn, argv[3], error) && write_plane (out, argv[4], error);
}

int
main (int argc, char **argv)
{
  if (argc != 5)
    {
      fprintf (stderr, "usage: mask-dump SPEC PHOTO DRAWN FINAL\n");
      return 1;
    }
  g_autoptr (GError) error = NULL;
  gboolean ok = run (argv, &error);
  for (guint i = 0; i < n_strokes; i++)
    g_free (strokes[i].points);
  if (!ok)
    {
      fprintf (stderr, "mask-dump: %s\n", error->message);
      return 1;
    }
  return 0;
}
