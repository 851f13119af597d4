/* CPU/GPU parity of the display stretch of float data (core/astro/stretch.h): the CUDA
 * backend's map of a GRAY_F32 image through the limits and the curve's table must give the
 * CPU's bytes exactly, for every curve, both kinds of limits, flipped or not, on a synthetic
 * field (a slope, bright points, NaN blanks, values beyond both limits) and the corpus's HST
 * star field. The outputs start poisoned. Exit 77 (SKIP) without a usable device;
 * LUMEN_PARITY_SELF_TEST=1 puts a second CPU backend in the GPU's place. */
#include <math.h>
#include <stdio.h>

#include "core/io/fits.h"
#include "core/astro/stretch.h"
#include "core/backend/backend.h"
#include "core/render/astro-run.h"
#include "parity-util.h"

static LmBackend *cpu, *gpu;

/* Values spanning decades with NaN blanks, odd sides. */
static LmImage *
field (guint w, guint h)
{
  LmImage *image = lm_image_new (LM_FORMAT_GRAY_F32, w, h, lm_allocator_host (), NULL);
  for (guint y = 0; y < h; y++)
    {
      float *row = (float *) lm_image_row (image, y);
      for (guint x = 0; x < w; x++)
        {
          double v = 100.0 + 0.05 * x - 0.03 * y + 7.0 * sin (x * 0.37 + y * 0.11);
          if ((x * 7 + y * 13) % 97 == 0)
            v += 5e4 * ((x + y) % 5 + 1);
          row[x] = (x % 53 == 7 && y % 41 == 3) ? NAN : (float) v;
        }
    }
  return image;
}

static void
compare (const char *name, const LmImage *host)
{
  GError *e = NULL;
  g_autoptr (LmImage) on_gpu = lm_backend_upload (gpu, (LmImage *) host, &e);
  if (on_gpu == NULL)
    {
      parity_fail ("%s: upload: %s", name, e->message);
      g_clear_error (&e);
      return;
    }
  for (int limits = LM_LIMITS_PERCENTILE; limits <= LM_LIMITS_ZSCALE; limits++)
    for (int kind = 0; kind < LM_STRETCH_N_KINDS; kind++)
      for (int flip = 0; flip <= 1; flip++)
        {
          LmStretchParams p;
          lm_stretch_params_init (&p);
          p.kind = kind, p.limits = limits;
          double low, high;
          guint8 table[LM_STRETCH_LEVELS];
          if (!lm_stretch_limits (host, &p, &low, &high, &e))
            {
              parity_fail ("%s: limits: %s", name, e->message);
              g_clear_error (&e);
              return;
            }
          lm_stretch_table (p.kind, table);
          g_autoptr (LmImage) want = parity_poisoned (cpu, LM_FORMAT_RGBA8, host->width, host->height, PARITY_POISON_CPU);
          g_autoptr (LmImage) out = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, host->width, host->height);
          gboolean ok = lm_stretch_cpu (host, low, high, table, flip, want, &e)
                        && lm_stretch_run (gpu, on_gpu, low, high, table, flip, out, &e);
          g_autoptr (LmImage) got = ok ? parity_download (gpu, out) : NULL;
          guint64 pixels = 0;
          int d = got ? parity_u8_distance (want, got, &pixels, NULL) : 999;
          parity_record (got && d == 0, "stretch %s, %s %s limits%s: max |Δ| %d, %" G_GUINT64_FORMAT " pixels differ%s%s",
                         name, lm_stretch_kind_name (kind), limits == LM_LIMITS_ZSCALE ? "zscale" : "percentile",
                         flip ? ", flipped" : "", d, pixels, e ? ": " : "", e ? e->message : "");
          g_clear_error (&e);
        }
}

int
main (void)
{
  int skip = parity_open ("stretch parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;
  {
    g_autoptr (LmImage) f = field (1001, 777);
    compare ("field 1001×777", f);
  }
  g_autofree char *hst = g_build_filename (g_getenv ("LUMEN_TEST_DATA") ? g_getenv ("LUMEN_TEST_DATA") : "tests/data",
                                           "astro", "j8bt06nyq_sci_512.fits.gz", NULL);
  GError *e = NULL;
  g_autoptr (LmImage) real = lm_fits_load (hst, NULL, NULL, &e);
  if (real)
    compare ("HST 512²", real);
  else
    {
      parity_fail ("%s", e->message);
      g_clear_error (&e);
    }
  printf ("stretch parity: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (),
          parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
