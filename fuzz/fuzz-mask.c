/* A mask as the sidecar hands it to the renderer (core/ops/mask.c): any LmMask and any stroke
 * bytes through lm_mask_flatten, then placed on a frame and rendered. A mask that is accepted
 * renders in [0, 1] on any frame that has an inverse, and its per-cell segment lists give the
 * bits of testing every segment on a rotated, scaled frame of the kind a photo's geometry makes.
 *
 * The input: an LmMask's bytes, then 8 bytes of frame (angle, scale, offsets, width, height,
 * the input's format, scene or display), then strokes: each an LmMaskStrokeHead and its points,
 * N clipped to what follows. Every brush shape reads those strokes (an odd key: none). */
#include <math.h>
#include <string.h>

#include "fuzz-util.h"
#include "core/ops/mask.h"

#define SIDE_MAX 48
#define STROKES_MAX 64

typedef struct {
  const LmMaskStrokeHead *head[STROKES_MAX];
  const float *points[STROKES_MAX];
  guint n;
} Strokes;

static gboolean
get_stroke (uint64_t list, guint index, const LmMaskStrokeHead **head, const float **points, gpointer user,
            GError **error)
{
  const Strokes *s = user;
  gboolean have = list % 2 == 0 && index < s->n;
  *head = have ? s->head[index] : NULL;
  *points = have ? s->points[index] : NULL;
  return TRUE;
}

/* The strokes in DATA, aligned copies kept in STORE (freed by the caller). */
static void
read_strokes (const uint8_t *data, size_t size, Strokes *s, GPtrArray *store)
{
  while (s->n < STROKES_MAX && size >= sizeof (LmMaskStrokeHead))
    {
      LmMaskStrokeHead head;
      memcpy (&head, data, sizeof head);
      data += sizeof head, size -= sizeof head;
      guint32 fit = (guint32) (size / (2 * sizeof (float)));
      head.n = MIN (head.n, fit);
      LmMaskStrokeHead *copy = g_malloc (sizeof head + 2 * sizeof (float) * MAX (head.n, 1));
      *copy = head;
      memcpy (copy + 1, data, 2 * sizeof (float) * head.n);
      g_ptr_array_add (store, copy);
      s->head[s->n] = copy;
      s->points[s->n++] = (const float *) (const void *) (copy + 1);
      data += 2 * sizeof (float) * head.n, size -= 2 * sizeof (float) * head.n;
    }
}

static void
check_plane (const LmImage *plane, const char *what)
{
  for (guint y = 0; y < plane->height; y++)
    for (guint x = 0; x < plane->width; x++)
      {
        float v = ((const float *) (const void *) lm_image_row (plane, y))[x];
        LM_FUZZ_CHECK (v >= 0.0f && v <= 1.0f, "%s: %g at (%u, %u)", what, v, x, y);
      }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  LmMask mask = { 0 };
  uint8_t frame_bytes[8] = { 0 };
  memcpy (&mask, data, MIN (size, sizeof mask));
  if (size > sizeof mask)
    memcpy (frame_bytes, data + sizeof mask, MIN (size - sizeof mask, sizeof frame_bytes));
  size_t head = sizeof mask + sizeof frame_bytes;
  Strokes strokes = { 0 };
  g_autoptr (GPtrArray) store = g_ptr_array_new_with_free_func (g_free);
  if (size > head)
    read_strokes (data + head, size - head, &strokes, store);

  gboolean scene = frame_bytes[7] & 1;
  GError *error = NULL;
  g_autoptr (LmMaskFlat) flat = lm_mask_flatten (&mask, scene, get_stroke, &strokes, &error);
  if (flat == NULL)
    {
      lm_fuzz_check_failure ("lm_mask_flatten", error, NULL);
      g_error_free (error);
      return 0;
    }
  /* A frame as geometry makes one: turned, scaled, moved, within the photo's reach. */
  guint w = 1 + frame_bytes[4] % SIDE_MAX, h = 1 + frame_bytes[5] % SIDE_MAX;
  double angle = frame_bytes[0] * G_PI / 128, scale = ldexp (1.0, -(frame_bytes[1] % 14));
  LmMaskFrame frame = { (float) (cos (angle) * scale), (float) (-sin (angle) * scale),
                        (float) (frame_bytes[2] / 128.0 - 1.0), (float) (sin (angle) * scale),
                        (float) (cos (angle) * scale), (float) (frame_bytes[3] / 128.0 - 1.0) };
  g_autoptr (LmMaskFlat) brute = lm_mask_flatten (&mask, scene, get_stroke, &strokes, NULL);
  if (!lm_mask_flat_place (flat, &frame, w, h, TRUE, &error))
    {
      lm_fuzz_check_failure ("lm_mask_flat_place", error, NULL);
      g_error_free (error);
      return 0;
    }
  LM_FUZZ_CHECK (lm_mask_flat_place (brute, &frame, w, h, FALSE, NULL), "brute force placement refused");

  static const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_GRAY8, LM_FORMAT_GRAY16 };
  LmFormat format = scene ? LM_FORMAT_RGBA_F32 : formats[frame_bytes[6] % G_N_ELEMENTS (formats)];
  g_autoptr (LmImage) input = lm_image_new (format, w, h, lm_allocator_host (), NULL);
  g_autoptr (LmImage) drawn = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), NULL);
  g_autoptr (LmImage) drawn_brute = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), NULL);
  g_autoptr (LmImage) out = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), NULL);
  /* The input's samples from the mask's own bytes: any pattern, NaN and ∞ included on floats. */
  for (gsize i = 0; i < lm_image_size_bytes (input); i++)
    input->data[i] = ((const uint8_t *) &mask)[i % sizeof mask];
  lm_mask_drawn_cpu (lm_mask_flat_render (flat), 0, 0, drawn);
  lm_mask_drawn_cpu (lm_mask_flat_render (brute), 0, 0, drawn_brute);
  check_plane (drawn, "drawn plane");
  for (guint y = 0; y < h; y++)
    LM_FUZZ_CHECK (memcmp (lm_image_row (drawn, y), lm_image_row (drawn_brute, y), w * sizeof (float)) == 0,
                   "binned segments differ from brute force on row %u", y);
  LM_FUZZ_CHECK (lm_mask_final_cpu (lm_mask_flat_render (flat), 0, 0, input, drawn, out, &error), "%s",
                 error->message);
  check_plane (out, "final mask");
  return 0;
}
