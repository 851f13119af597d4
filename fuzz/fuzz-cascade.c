/* OpenCV cascade files (core/detect/cascade.c), both formats: a file the parser accepts is
 * whole (every index in range, every rectangle inside the window, every value finite) and is
 * then run over a small photo, grouped and not, so that an accepted model can never make the
 * evaluation read outside its integral images. */
#include <math.h>

#include "fuzz-util.h"
#include "core/detect/detect.h"

static void
check_model (const LmCascade *c)
{
  LM_FUZZ_CHECK (c->n_stages >= 1 && c->n_features >= 1, "%u stages, %u features", c->n_stages, c->n_features);
  LM_FUZZ_CHECK (c->window_width >= 3 && c->window_height >= 3 && c->window_width <= LM_CASCADE_MAX_WINDOW
                   && c->window_height <= LM_CASCADE_MAX_WINDOW,
                 "a %d × %d window", c->window_width, c->window_height);
  guint next = 0;
  for (guint s = 0; s < c->n_stages; s++)
    {
      LM_FUZZ_CHECK (c->stages[s].first == next && c->stages[s].n_stumps >= 1, "stage %u", s);
      LM_FUZZ_CHECK (isfinite (c->stages[s].threshold), "stage %u's threshold", s);
      next += c->stages[s].n_stumps;
    }
  LM_FUZZ_CHECK (next == c->n_stumps, "%u stumps in stages, %u in all", next, c->n_stumps);
  for (guint i = 0; i < c->n_stumps; i++)
    {
      const LmCascadeStump *st = &c->stumps[i];
      LM_FUZZ_CHECK (st->feature >= 0 && (guint) st->feature < c->n_features, "stump %u's feature %d", i, st->feature);
      LM_FUZZ_CHECK (isfinite (st->threshold) && isfinite (st->left) && isfinite (st->right), "stump %u", i);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  GError *error = NULL;
  g_autoptr (LmCascade) cascade = lm_cascade_parse ("model.xml", (const char *) data, size, &error);
  if (cascade == NULL)
    {
      lm_fuzz_check_failure ("lm_cascade_parse", error, "model.xml");
      g_error_free (error);
      return 0;
    }
  check_model (cascade);

  /* A photo with edges at every scale, so that windows pass some stages. */
  enum { W = 72, H = 56 };
  static guint8 photo[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++)
      photo[y][x] = (guint8) ((x * 7 + y * 13) % 29 * 8 + ((x / 6 + y / 5) % 2) * 20);
  for (int neighbors = 0; neighbors <= 3; neighbors += 3)
    {
      LmCascadeParams p;
      lm_cascade_params_init (&p);
      p.scale_factor = 1.25;
      p.min_neighbors = neighbors;
      g_autoptr (GArray) boxes = lm_cascade_detect (cascade, &photo[0][0], W, W, H, &p, NULL, &error);
      LM_FUZZ_CHECK (boxes != NULL, "detection failed: %s", error->message);
      for (guint i = 0; i < boxes->len; i++)
        {
          const LmCascadeBox *b = &g_array_index (boxes, LmCascadeBox, i);
          LM_FUZZ_CHECK (b->x >= 0 && b->y >= 0 && b->width > 0 && b->height > 0 && b->x + b->width <= W
                           && b->y + b->height <= H,
                         "box %d,%d %d×%d outside the %d × %d photo", b->x, b->y, b->width, b->height, W, H);
        }
    }
  return 0;
}
