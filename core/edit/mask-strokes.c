/* Brush strokes from the blob store (mask-strokes.h). */
#include "mask-strokes.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "blob-store.h"

typedef struct {
  GPtrArray *held; /* the blobs handed out: alive until the flatten returns */
  uint64_t list_key;
  GBytes *list;
} Reader;

static gboolean
missing (GError **error)
{
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("A brush stroke of a mask is missing or damaged"));
  return FALSE;
}

static gboolean
read_stroke (uint64_t list, guint index, const LmMaskStrokeHead **head, const float **points, gpointer user,
             GError **error)
{
  Reader *r = user;
  *head = NULL, *points = NULL;
  if (list == 0)
    return TRUE; /* a brush shape with no stroke yet */
  if (r->list_key != list)
    {
      r->list_key = list;
      r->list = lm_blob_lookup (list);
      if (r->list == NULL || g_bytes_get_size (r->list) % sizeof (guint64) != 0)
        return missing (error);
      g_ptr_array_add (r->held, r->list);
    }
  gsize n = g_bytes_get_size (r->list) / sizeof (guint64);
  if (index >= n)
    return TRUE;
  guint64 key;
  memcpy (&key, (const guint8 *) g_bytes_get_data (r->list, NULL) + index * sizeof key, sizeof key);
  GBytes *stroke = lm_blob_lookup (key);
  if (stroke == NULL)
    return missing (error);
  g_ptr_array_add (r->held, stroke);
  gsize size;
  const guint8 *data = g_bytes_get_data (stroke, &size);
  /* The store's blocks are malloc's: aligned for the head and the floats after it. */
  if (size < sizeof (LmMaskStrokeHead))
    return missing (error);
  const LmMaskStrokeHead *h = (const LmMaskStrokeHead *) (const void *) data;
  if (size != sizeof *h + (gsize) h->n * 2 * sizeof (float))
    return missing (error);
  *head = h;
  *points = (const float *) (const void *) (data + sizeof *h);
  return TRUE;
}

LmMaskFlat *
lm_mask_flatten_stored (const LmMask *mask, gboolean scene, GError **error)
{
  Reader r = { .held = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref) };
  LmMaskFlat *flat = lm_mask_flatten (mask, scene, read_stroke, &r, error);
  g_ptr_array_unref (r.held);
  return flat;
}
