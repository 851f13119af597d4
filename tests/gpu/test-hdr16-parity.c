/* CPU/GPU parity of 16-bit HDR: the linear merge of 16-bit exposures (RGBA16 and GRAY16,
 * awkward sizes up to 12 MP, with black and clipped areas) must give the CPU's radiance bit for
 * bit (merge-math.h: the same single operations in the same order, no FMA on either side), and
 * within a relative 1e-4 after a gamma correction (powf); tone mapping to RGBA16 must give
 * every sample within 257 of the CPU's (one 8-bit step: the 8-bit contract carried to 16
 * bits; the sigmoid's exactly), and the figure reached is printed. Outputs start poisoned (NaN radiance; a different
 * byte on each side for 16-bit), so a sample one backend leaves unwritten fails.
 *
 * Without a usable CUDA device it prints the reason and exits 77 (meson: SKIP);
 * LUMEN_PARITY_QUICK=1 leaves out the 12 MP stack; LUMEN_PARITY_SELF_TEST=1 puts a second CPU
 * backend in the GPU's place, which checks the harness itself on a machine without a device. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "core/backend/backend.h"
#include "core/hdr/merge.h"
#include "core/hdr/stack.h"
#include "core/hdr/tonemap.h"
#include "parity-util.h"

#define GAMMA_RADIANCE_TOLERANCE 1e-4 /* relative, after a gamma correction */
#define DISPLAY16_TOLERANCE 257       /* on 16-bit samples: one 8-bit step */

static LmBackend *cpu, *gpu;
static struct {
  guint64 radiance_differing;
  double gamma_rel;
  int display_delta;
} summary;

/* A stack of N 16-bit exposures of a smooth radiance field spanning about 2^14 (a dark and a
 * blown corner included), as a raw converter's linear output: v = clip (round (L·t·65535)),
 * with a little deterministic noise in the low bits. */
static LmHdrStack *
linear_stack (guint w, guint h, guint n, gboolean gray, guint32 seed)
{
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = n;
  s->images = g_new0 (LmImage *, n);
  s->paths = g_new0 (char *, n);
  s->times = g_new (double, n);
  GRand *rand = g_rand_new_with_seed (seed);
  for (guint i = 0; i < n; i++)
    {
      s->times[i] = 0.01 * pow (4.0, i);
      s->paths[i] = g_strdup_printf ("synthetic-%u.png", i);
      s->images[i] = parity_poisoned (gpu, gray ? LM_FORMAT_GRAY16 : LM_FORMAT_RGBA16, w, h, 0);
      s->images[i]->opaque = TRUE;
    }
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        double u = (x + 0.5) / w, v = (y + 0.5) / h;
        double base = exp2 (14.0 * u - 8.0) * (0.5 + 0.5 * v);
        double c[3] = { base, base * (0.6 + 0.4 * u), base * (1.2 - 0.5 * v) };
        int noise = g_rand_int_range (rand, -3, 4);
        for (guint i = 0; i < n; i++)
          {
            guint16 *row = (guint16 *) lm_image_row (s->images[i], y);
            for (guint k = 0; k < (gray ? 1u : 3u); k++)
              {
                double q = floor (c[k] * s->times[i] * 65535.0 + 0.5) + noise;
                row[gray ? x : 4 * x + k] = (guint16) CLAMP (q, 0.0, 65535.0);
              }
            if (!gray)
              row[4 * x + 3] = 65535;
          }
      }
  g_rand_free (rand);
  return s;
}

static LmHdrStack *
upload_stack (const LmHdrStack *s)
{
  LmHdrStack *d = g_new0 (LmHdrStack, 1);
  d->n = s->n;
  d->images = g_new0 (LmImage *, s->n);
  d->paths = g_new0 (char *, s->n);
  d->times = g_memdup2 (s->times, s->n * sizeof (double));
  for (guint i = 0; i < s->n; i++)
    {
      d->paths[i] = g_strdup (s->paths[i]);
      GError *e = NULL;
      d->images[i] = lm_backend_upload (gpu, s->images[i], &e);
      g_assert_no_error (e);
    }
  return d;
}

/* Largest |Δ| of two RGBA16 images' colour samples, and whether alpha is 65535 on both. */
static int
u16_distance (const LmImage *a, const LmImage *b, gboolean *alpha_ok)
{
  int worst = 0;
  *alpha_ok = TRUE;
  for (guint y = 0; y < a->height; y++)
    {
      const guint16 *p = (const guint16 *) lm_image_row (a, y), *q = (const guint16 *) lm_image_row (b, y);
      for (guint x = 0; x < a->width; x++)
        {
          for (int c = 0; c < 3; c++)
            worst = MAX (worst, ABS ((int) p[4 * x + c] - (int) q[4 * x + c]));
          *alpha_ok = *alpha_ok && p[4 * x + 3] == 65535 && q[4 * x + 3] == 65535;
        }
    }
  return worst;
}

static void
check_stack (const char *name, const LmHdrStack *stack)
{
  guint w = stack->images[0]->width, h = stack->images[0]->height;
  g_autoptr (LmHdrStack) work = upload_stack (stack);
  for (guint g = 0; g < 2; g++)
    {
      LmHdrMergeParams params = { .method = LM_HDR_LINEAR, .gamma_correction = g ? 0.45f : 0.0f };
      g_autoptr (LmImage) want = parity_poisoned (cpu, LM_FORMAT_RGBA_F32, w, h, 0);
      g_autoptr (LmImage) out = parity_poisoned_device (gpu, LM_FORMAT_RGBA_F32, w, h);
      GError *e = NULL;
      gboolean ok = lm_backend_hdr_merge (cpu, &params, stack, want, &e)
                    && lm_backend_hdr_merge (gpu, &params, work, out, &e) && lm_backend_synchronize (gpu, &e);
      if (!ok)
        {
          parity_record (FALSE, "%s linear merge%s: %s", name, g ? " γ 0.45" : "", e->message);
          g_error_free (e);
          continue;
        }
      g_autoptr (LmImage) got = parity_download (gpu, out);
      guint64 differing = 0;
      double rel = 0.0;
      gboolean finite = TRUE;
      for (guint y = 0; y < h; y++)
        {
          const float *p = (const float *) lm_image_row (want, y), *q = (const float *) lm_image_row (got, y);
          for (guint i = 0; i < 4 * w; i++)
            {
              finite = finite && isfinite (q[i]) && isfinite (p[i]);
              differing += memcmp (&p[i], &q[i], sizeof (float)) != 0;
              rel = MAX (rel, fabs ((double) p[i] - q[i]) / MAX (fabs ((double) p[i]), 1e-30));
            }
        }
      if (g == 0)
        {
          summary.radiance_differing += differing;
          parity_record (finite && differing == 0, "%s linear merge: %" G_GUINT64_FORMAT " samples differ (none may)",
                         name, differing);
          /* The CPU's radiance, tone mapped to 16 bits by each backend. */
          for (int kind = LM_TONEMAP_NONE; kind <= LM_TONEMAP_SIGMOID; kind++)
            {
              LmTonemapParams tone = LM_TONEMAP_PARAMS_INIT;
              tone.kind = kind;
              tone.gamma = kind == LM_TONEMAP_NONE ? 1.0f : 2.2f;
              g_autoptr (LmImage) radiance = lm_backend_upload (gpu, want, &e);
              g_autoptr (LmImage) a = parity_poisoned (cpu, LM_FORMAT_RGBA16, w, h, PARITY_POISON_CPU);
              g_autoptr (LmImage) b = parity_poisoned_device (gpu, LM_FORMAT_RGBA16, w, h);
              if (radiance == NULL || !lm_backend_tonemap (cpu, &tone, want, a, &e)
                  || !lm_backend_tonemap (gpu, &tone, radiance, b, &e) || !lm_backend_synchronize (gpu, &e))
                {
                  parity_record (FALSE, "%s tone map %d to 16 bits: %s", name, kind, e->message);
                  g_clear_error (&e);
                  continue;
                }
              g_autoptr (LmImage) bh = parity_download (gpu, b);
              gboolean alpha_ok;
              int delta = u16_distance (a, bh, &alpha_ok);
              summary.display_delta = MAX (summary.display_delta, delta);
              /* The sigmoid gives the CPU's bits (sigmoid-math.h). */
              int tolerance = kind == LM_TONEMAP_SIGMOID ? 0 : DISPLAY16_TOLERANCE;
              parity_record (alpha_ok && delta <= tolerance, "%s tone map %d to 16 bits: max|Δ| %d (≤ %d)", name,
                             kind, delta, tolerance);
            }
        }
      else
        {
          summary.gamma_rel = MAX (summary.gamma_rel, rel);
          parity_record (finite && rel <= GAMMA_RADIANCE_TOLERANCE, "%s linear merge γ 0.45: relative |Δ| %.3g (≤ %g)",
                         name, rel, GAMMA_RADIANCE_TOLERANCE);
        }
    }
}

int
main (int argc, char **argv)
{
  int skip = parity_open ("hdr16 parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;
  static const struct {
    guint w, h, n;
    gboolean gray;
  } sizes[] = {
    { 7, 5, 3, FALSE }, { 333, 211, 5, FALSE }, { 61, 47, 4, TRUE }, { 4097, 3, 2, FALSE }, { 4000, 3000, 5, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      if (sizes[i].w * (guint64) sizes[i].h > 8000000 && g_getenv ("LUMEN_PARITY_QUICK"))
        continue;
      g_autoptr (LmHdrStack) stack = linear_stack (sizes[i].w, sizes[i].h, sizes[i].n, sizes[i].gray, 300 + i);
      g_autofree char *name = g_strdup_printf ("16-bit %u×%u×%u%s", sizes[i].w, sizes[i].h, sizes[i].n,
                                               sizes[i].gray ? " gray" : "");
      check_stack (name, stack);
      printf ("checked %s\n", name);
    }
  printf ("hdr16 parity: linear radiance %" G_GUINT64_FORMAT " samples differ (none may), after γ relative |Δ| %.3g "
          "(≤ %g); 16-bit tone mapped max|Δ| %d (≤ %d); %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n",
          summary.radiance_differing, summary.gamma_rel, GAMMA_RADIANCE_TOLERANCE, summary.display_delta,
          DISPLAY16_TOLERANCE, parity_cases (), parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
