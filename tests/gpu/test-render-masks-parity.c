/* Masked instances through the whole render on the GPU against the CPU (core/render/cache.c,
 * tiled.c): a masked point instance, a masked area operation with a feather, masked local
 * contrast, each on RGBA8 and RGBA16 photos, a masked gain on scene light, and a tiled render
 * on the GPU against the CPU's whole one. Within 1 level (8 and 16 bits), floats within 1e-5
 * relative. Exits 77 (SKIP) without a device. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/edit/blob-store.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "parity-util.h"

enum { W = 640, H = 480 };

static LmImage *
photo (LmBackend *gpu, LmFormat format)
{
  g_autoptr (GError) e = NULL;
  LmImage *img = lm_image_new (format, W, H, lm_backend_host_allocator (gpu), &e);
  g_assert_no_error (e);
  guint32 state = 7;
  for (guint y = 0; y < H; y++)
    for (guint x = 0; x < W; x++)
      {
        guint8 *p = lm_image_row (img, y) + x * lm_format_bytes_per_pixel (format);
        for (int k = 0; k < 4; k++)
          {
            state = state * 1664525u + 1013904223u;
            double v = k == 3 ? 1.0 : CLAMP (0.5 + 0.4 * sin (x / 37.0 + 2 * k) * cos (y / 23.0) + (state >> 28) / 100.0, 0, 1);
            if (format == LM_FORMAT_RGBA8)
              p[k] = (guint8) lrint (v * 255);
            else if (format == LM_FORMAT_RGBA16)
              ((guint16 *) (void *) p)[k] = (guint16) lrint (v * 65535);
            else
              ((float *) (void *) p)[k] = (float) (k < 3 ? 3.0 * v * v : 1.0);
          }
      }
  img->opaque = TRUE;
  return img;
}

static LmMask
mask_of (guint64 strokes, float feather)
{
  LmMask m = { .n_shapes = 3, .opacity = 0.9f, .detail = 0.1f, .feather = feather };
  m.shape[0] = (LmMaskShape) { .kind = LM_MASK_LINEAR, .opacity = 1, .g = { 0.2f, 0.1f, 0.5f, 0.5f } };
  m.shape[1] = (LmMaskShape) { .kind = LM_MASK_RADIAL, .combine = LM_MASK_SUBTRACT, .opacity = 1,
                               .g = { 0.6f, 0.35f, 0.15f, 0.1f, 25.0f, 0.5f } };
  m.shape[2] = (LmMaskShape) { .kind = LM_MASK_BRUSH, .opacity = 1, .strokes = strokes };
  m.luminance = (LmMaskRange) { 1, 0.05f, 0.2f, 0.85f, 0.98f };
  return m;
}

static void
attach (LmPipeline *p, LmOpId op, const LmMask *mask)
{
  LmStage *stage = lm_pipeline_stage (p, op);
  stage->enabled = TRUE;
  g_assert_true (lm_pipeline_mask_attach (p, (guint) lm_pipeline_find (p, stage->id), mask, NULL));
}

/* PIPELINE on HOST (scene: up to the display transform) on backend B, in host memory. */
static LmImage *
run (LmBackend *b, LmImage *host, const LmPipeline *pipeline, gboolean scene)
{
  g_autoptr (GError) e = NULL;
  g_autoptr (LmImage) work = lm_backend_upload (b, host, &e);
  g_autoptr (LmRenderCache) cache = work ? lm_render_cache_new (b, work) : NULL;
  g_autoptr (LmImage) out = NULL;
  if (cache)
    out = scene ? lm_render_cache_run_scene (cache, pipeline, NULL, &e) : lm_render_cache_run (cache, pipeline, NULL, &e);
  if (out == NULL)
    {
      parity_fail ("%s: %s", b->klass->name, e ? e->message : "no result");
      return NULL;
    }
  return parity_download (b, out);
}

static void
compare (const char *name, const LmImage *c, const LmImage *g)
{
  if (c == NULL || g == NULL)
    return;
  if (c->format == LM_FORMAT_RGBA_F32)
    {
      double worst = 0;
      for (guint y = 0; y < c->height; y++)
        for (guint x = 0; x < 4 * c->width; x++)
          {
            float a = ((const float *) (const void *) lm_image_row (c, y))[x];
            float b = ((const float *) (const void *) lm_image_row (g, y))[x];
            worst = MAX (worst, isnan (b) ? INFINITY : fabs (a - b) / (1e-3 + fabs (a)));
          }
      parity_record (worst <= 1e-5, "%s: relative |Δ| %.2g", name, worst);
      return;
    }
  guint64 pixels = 0;
  int d = parity_u8_distance (c, g, &pixels, NULL);
  parity_record (d <= 1, "%s: max |Δ| %d, %" G_GUINT64_FORMAT " pixels differ", name, d, pixels);
}

int
main (int argc, char **argv)
{
  LmBackend *cpu, *gpu;
  int skip = parity_open ("render masks parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;
  struct {
    LmMaskStrokeHead head;
    float uv[6];
  } stroke = { { 0, 0.05f, 0.4f, 1.0f, 3 }, { 0.1f, 0.6f, 0.5f, 0.55f, 0.9f, 0.7f } };
  guint64 key = lm_blob_intern (&stroke, sizeof stroke);
  guint64 list = lm_blob_intern (&key, sizeof key);

  const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16 };
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) host = photo (gpu, formats[f]);
      const char *fmt = lm_format_name (formats[f]);
      LmPipeline p;
      LmMask plain = mask_of (list, 0.0f), feathered = mask_of (list, 0.02f);

      lm_pipeline_init (&p);
      attach (&p, LM_OP_EXPOSURE, &plain);
      lm_pipeline_stage (&p, LM_OP_EXPOSURE)->params.exposure.ev = 1.2f;
      lm_pipeline_stage (&p, LM_OP_CONTRAST)->enabled = TRUE;
      g_autofree char *n1 = g_strdup_printf ("%s: masked exposure between unmasked point operations", fmt);
      g_autoptr (LmImage) c1 = run (cpu, host, &p, FALSE);
      g_autoptr (LmImage) g1 = run (gpu, host, &p, FALSE);
      compare (n1, c1, g1);

      lm_pipeline_init (&p);
      attach (&p, LM_OP_BLUR, &feathered);
      lm_pipeline_stage (&p, LM_OP_BLUR)->params.blur.sigma = 4.0f;
      attach (&p, LM_OP_LOCALCONTRAST, &feathered);
      p.masks[lm_pipeline_stage (&p, LM_OP_LOCALCONTRAST)->mask].invert = 1;
      g_autofree char *n2 = g_strdup_printf ("%s: masked blur and inverted local contrast, feather 0.02", fmt);
      g_autoptr (LmImage) c2 = run (cpu, host, &p, FALSE);
      g_autoptr (LmImage) g2 = run (gpu, host, &p, FALSE);
      compare (n2, c2, g2);

      /* Tiled on the GPU (tiles of 160 × 128, two lanes) against the CPU's whole render. */
      g_autoptr (GError) e = NULL;
      g_autoptr (LmImage) tiled = parity_poisoned (gpu, c2 ? c2->format : formats[f], W, H, PARITY_POISON_GPU);
      LmTileOptions options = { 160, 128, 2 };
      if (!lm_render_tiled (gpu, host, &p, NULL, NULL, tiled, &options, NULL, &e))
        parity_fail ("tiled: %s", e->message);
      else
        {
          g_autofree char *n3 = g_strdup_printf ("%s: the same tiled on the GPU against the CPU whole", fmt);
          compare (n3, c2, tiled);
        }
    }

  /* Scene light: a masked exposure and white balance, an unmasked exposure instance folded. */
  g_autoptr (LmImage) hdr = photo (gpu, LM_FORMAT_RGBA_F32);
  LmPipeline p;
  lm_pipeline_init (&p);
  LmMask scene = mask_of (list, 0.01f);
  scene.luminance = (LmMaskRange) { 1, -6.0f, -4.0f, 1.0f, 2.0f };
  attach (&p, LM_OP_EXPOSURE, &scene);
  lm_pipeline_stage (&p, LM_OP_EXPOSURE)->params.exposure.ev = -1.5f;
  LmStage *wb = lm_pipeline_stage (&p, LM_OP_WB);
  wb->enabled = TRUE;
  wb->params.wb.temperature = 4200.0f;
  g_autoptr (LmImage) cs = run (cpu, hdr, &p, TRUE);
  g_autoptr (LmImage) gs = run (gpu, hdr, &p, TRUE);
  compare ("RGBA_F32 scene: masked exposure, unmasked white balance", cs, gs);

  printf ("render masks parity: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (),
          parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
