/* CPU/GPU parity of the HDR merges, exposure fusion, alignment and tone mapping: every stack
 * of the shared data (its response recovered on the CPU) and synthetic stacks of awkward sizes,
 * up to 12 MP, RGBA and gray, with black and clipped areas. The float radiance must agree
 * within a relative 1e-4, every 8-bit tone-mapped sample within 1, both for the same radiance
 * and end to end (each backend's own merge, then its own tone mapping); the sigmoid's 8- and
 * 16-bit bytes must be the CPU's exactly on scene-referred light with NaN, infinities and
 * subnormals among it. Mertens' fusion must
 * agree within 1 on 8 bits (×255, clipped), with alpha exactly 1. The RGBE encoding of .hdr
 * output must give the CPU's bytes exactly, on values over its whole range. AlignMTB's shifts must be
 * the CPU's exactly, on those stacks, on the same stacks moved by known shifts, and on
 * brackets cut from photos by known shifts (as tests/hdr/test_align.py makes them), where
 * they must also be the true shifts: a do-nothing aligner passes unshifted stacks only.
 *
 * Outputs start parity_poisoned (gpu, NaN radiance; a different byte on each side for 8-bit), so a sample
 * that one backend leaves unwritten fails. The GPU runs each case twice: its reductions must
 * give the same bits every time. Bad parameters must fail cleanly on both.
 *
 * Without a usable CUDA device it prints the reason and exits 77 (meson: SKIP).
 * LUMEN_PARITY_QUICK=1 leaves out the 12 MP stack; LUMEN_PARITY_VERBOSE=1 prints every case;
 * LUMEN_PARITY_SELF_TEST=1 puts a second CPU backend in the GPU's place, which checks the
 * harness itself on a machine without a device. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "config.h"
#include "core/backend/backend.h"
#include "core/error.h"
#include "core/hdr/align.h"
#include "core/hdr/merge.h"
#include "core/hdr/stack.h"
#include "core/hdr/tonemap.h"
#include "core/io/io.h"
#include "core/merge/job.h"
#include "core/ops/pixel-math.h"
#include "parity-util.h"

#define RADIANCE_TOLERANCE 1e-4 /* relative */
#define DISPLAY_TOLERANCE 1     /* on 8-bit samples */
#define FUSION_TOLERANCE 1      /* on 8-bit samples: the fused value ×255, clipped, rounded */

typedef struct {
  const char *name;
  LmTonemapParams params;
} ToneSet;

static ToneSet tone_sets[] = {
  { "none", LM_TONEMAP_PARAMS_INIT },
  { "gamma 1", LM_TONEMAP_PARAMS_INIT },
  { "gamma 2.2", LM_TONEMAP_PARAMS_INIT },
  { "reinhard (defaults)", LM_TONEMAP_PARAMS_INIT },
  { "reinhard i=-1.5 l=0.4 c=0.7 g=2.2", LM_TONEMAP_PARAMS_INIT },
  { "reinhard i=2 l=0 c=1 g=1", LM_TONEMAP_PARAMS_INIT },
  { "drago", LM_TONEMAP_PARAMS_INIT },
  { "drago b=0.7 s=1.4 g=1.8", LM_TONEMAP_PARAMS_INIT },
  { "sigmoid (defaults)", LM_TONEMAP_PARAMS_INIT },
  { "sigmoid ev=-4 c=2.5 h=0", LM_TONEMAP_PARAMS_INIT },
};

static void
init_tone_sets (void)
{
  tone_sets[0].params.kind = LM_TONEMAP_NONE;
  tone_sets[1].params.kind = LM_TONEMAP_GAMMA, tone_sets[1].params.gamma = 1.0f;
  tone_sets[2].params.kind = LM_TONEMAP_GAMMA, tone_sets[2].params.gamma = 2.2f;
  LmTonemapParams *r = &tone_sets[4].params;
  r->intensity = -1.5f, r->light_adapt = 0.4f, r->color_adapt = 0.7f, r->gamma = 2.2f;
  r = &tone_sets[5].params;
  r->intensity = 2.0f, r->light_adapt = 0.0f, r->color_adapt = 1.0f, r->gamma = 1.0f;
  tone_sets[6].params.kind = LM_TONEMAP_DRAGO;
  LmTonemapParams *d = &tone_sets[7].params;
  d->kind = LM_TONEMAP_DRAGO, d->bias = 0.7f, d->saturation = 1.4f, d->gamma = 1.8f;
  tone_sets[8].params.kind = LM_TONEMAP_SIGMOID;
  LmTonemapParams *s = &tone_sets[9].params;
  s->kind = LM_TONEMAP_SIGMOID, s->exposure = -4.0f, s->contrast = 2.5f, s->hue_preservation = 0.0f;
}

static const float gamma_corrections[] = { 0.0f, 0.45f, 2.2f };

static LmBackend *cpu, *gpu;
static struct {
  double radiance_rel;
  int display_delta;
  int fusion_delta;
  double fusion_abs;
  guint64 fusion_samples, fusion_differing;
  guint shift_sets, shift_sets_equal, truths, truths_found;
} summary;

/* One case in this harness's columns: what, on which stack, the figures. */
static void
record (gboolean ok, const char *what, const char *stack, const char *detail)
{
  parity_record (ok, "%-46s %-22s %s", what, stack, detail);
}

static LmImage *
host_image (LmFormat format, guint w, guint h)
{
  GError *e = NULL;
  LmImage *image = lm_image_new (format, w, h, lm_backend_host_allocator (gpu), &e);
  g_assert_no_error (e);
  return image;
}

/* Largest relative difference of the radiance samples (alpha included); NaN, an unwritten
 * sample, counts as infinitely far. */
static double
radiance_distance (const LmImage *a, const LmImage *b)
{
  double worst = 0.0;
  for (guint y = 0; y < a->height; y++)
    {
      const float *p = (const float *) lm_image_row (a, y), *q = (const float *) lm_image_row (b, y);
      for (guint i = 0; i < 4 * a->width; i++)
        {
          if (!isfinite (p[i]) || !isfinite (q[i]))
            return INFINITY;
          double d = fabs ((double) p[i] - q[i]) / MAX (fabs ((double) p[i]), 1e-30);
          worst = MAX (worst, d);
        }
    }
  return worst;
}

/* The stack's exposures in the GPU's memory (times and paths shared with HOST). */
static LmHdrStack *
upload_stack (const LmHdrStack *host)
{
  GError *e = NULL;
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = host->n;
  s->times = host->times;
  s->paths = host->paths;
  s->images = g_new0 (LmImage *, host->n);
  for (guint i = 0; i < host->n; i++)
    {
      s->images[i] = lm_backend_upload (gpu, host->images[i], &e);
      g_assert_no_error (e);
    }
  return s;
}

static void
free_device_stack (LmHdrStack *s)
{
  for (guint i = 0; i < s->n; i++)
    lm_image_unref (s->images[i]);
  g_free (s->images);
  g_free (s);
}

/* The GPU's merge of STACK, downloaded; twice, and both runs must give the same bits. */
static LmImage *
gpu_merge (const LmHdrMergeParams *params, const LmHdrStack *stack, const char *name)
{
  GError *e = NULL;
  const LmImage *first = stack->images[0];
  LmImage *runs[2];
  for (int r = 0; r < 2; r++)
    {
      g_autoptr (LmImage) out = parity_poisoned_device (gpu, LM_FORMAT_RGBA_F32, first->width, first->height);
      g_assert_true (lm_backend_hdr_merge (gpu, params, stack, out, &e));
      g_assert_no_error (e);
      runs[r] = parity_download (gpu, out);
    }
  gboolean same = parity_bytes_equal (runs[0], runs[1]);
  record (same, "merge: GPU runs agree bit for bit", name, "");
  lm_image_unref (runs[1]);
  return runs[0];
}

static LmImage *
gpu_tonemap (const LmTonemapParams *params, LmImage *radiance_device, const char *what, const char *name)
{
  GError *e = NULL;
  LmImage *runs[2];
  for (int r = 0; r < 2; r++)
    {
      g_autoptr (LmImage) out = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, radiance_device->width, radiance_device->height);
      g_assert_true (lm_backend_tonemap (gpu, params, radiance_device, out, &e));
      g_assert_no_error (e);
      runs[r] = parity_download (gpu, out);
    }
  g_autofree char *label = g_strdup_printf ("%s: GPU runs agree bit for bit", what);
  record (parity_bytes_equal (runs[0], runs[1]), label, name, "");
  lm_image_unref (runs[1]);
  return runs[0];
}

static LmImage *
cpu_tonemap (const LmTonemapParams *params, const LmImage *radiance)
{
  GError *e = NULL;
  LmImage *out = parity_poisoned (gpu, LM_FORMAT_RGBA8, radiance->width, radiance->height, PARITY_POISON_CPU);
  g_assert_true (lm_backend_tonemap (cpu, params, radiance, out, &e));
  g_assert_no_error (e);
  return out;
}

static void
check_display (const char *what, const char *name, const LmImage *a, const LmImage *b)
{
  guint64 differing;
  int worst = parity_u8_distance (a, b, NULL, &differing);
  summary.display_delta = MAX (summary.display_delta, worst);
  g_autofree char *detail = g_strdup_printf ("max|Δ| %d, %" G_GUINT64_FORMAT " samples differ", worst,
                                             differing);
  record (worst <= DISPLAY_TOLERANCE, what, name, detail);
}

/* The fused images as 8 bits (each backend's value ×255, clipped, rounded as Lumen rounds):
 * the largest difference, and the largest float one; an unwritten sample (NaN) or an alpha
 * other than 1 counts as infinitely far. */
static int
fusion_distance (const LmImage *a, const LmImage *b, double *worst_abs, guint64 *differing)
{
  int worst = 0;
  guint64 n = 0;
  *worst_abs = 0.0;
  for (guint y = 0; y < a->height; y++)
    {
      const float *p = (const float *) lm_image_row (a, y), *q = (const float *) lm_image_row (b, y);
      for (guint x = 0; x < a->width; x++)
        {
          if (p[4 * x + 3] != 1.0f || q[4 * x + 3] != 1.0f)
            return G_MAXINT;
          for (int c = 0; c < 3; c++)
            {
              float u = p[4 * x + c], v = q[4 * x + c];
              if (!isfinite (u) || !isfinite (v))
                return G_MAXINT;
              int d = abs ((int) lm_quantize_u8 (u * 255.0f) - (int) lm_quantize_u8 (v * 255.0f));
              worst = MAX (worst, d);
              n += d != 0;
              *worst_abs = MAX (*worst_abs, fabs ((double) u - v));
            }
        }
    }
  *differing = n;
  return worst;
}

/* Mertens' fusion: OpenCV's default exponents with and without the gamma correction, and
 * exponents that take powf's path (0 turns a measure off). */
static void
check_fusion (const char *name, const LmHdrStack *host, const LmHdrStack *device)
{
  static const struct {
    const char *label;
    LmMertensParams p;
    float gamma_correction;
  } sets[] = {
    { "mertens", LM_MERTENS_PARAMS_INIT, 0.0f },
    { "mertens, gamma correction 0.45", LM_MERTENS_PARAMS_INIT, 0.45f },
    { "mertens c=0.5 s=2 e=0", { 0.5f, 2.0f, 0.0f }, 0.0f },
  };
  GError *e = NULL;
  guint w = host->images[0]->width, h = host->images[0]->height;
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    {
      LmHdrMergeParams params = { .method = LM_HDR_MERTENS, .mertens = sets[i].p,
                                  .gamma_correction = sets[i].gamma_correction };
      g_autoptr (LmImage) expected = parity_poisoned (gpu, LM_FORMAT_RGBA_F32, w, h, 0);
      g_assert_true (lm_backend_hdr_merge (cpu, &params, host, expected, &e));
      g_assert_no_error (e);
      g_autoptr (LmImage) got = gpu_merge (&params, device, name);
      double worst_abs;
      guint64 differing = 0;
      int worst = fusion_distance (expected, got, &worst_abs, &differing);
      summary.fusion_delta = MAX (summary.fusion_delta, worst);
      summary.fusion_abs = MAX (summary.fusion_abs, worst_abs);
      summary.fusion_samples += 3 * (guint64) w * h;
      summary.fusion_differing += differing;
      g_autofree char *detail = worst == G_MAXINT
                                  ? g_strdup ("unwritten samples or alpha ≠ 1")
                                  : g_strdup_printf ("8-bit max|Δ| %d, %" G_GUINT64_FORMAT " samples differ; "
                                                     "float max|Δ| %.3g", worst, differing, worst_abs);
      record (worst <= FUSION_TOLERANCE, sets[i].label, name, detail);
    }

  /* A negative exponent is refused by both, with the same error, and OUT left alone. */
  LmHdrMergeParams bad = { .method = LM_HDR_MERTENS, .mertens = { 1.0f, -1.0f, 1.0f } };
  g_autoptr (LmImage) untouched = parity_poisoned_device (gpu, LM_FORMAT_RGBA_F32, w, h);
  gboolean refused = !lm_backend_hdr_merge (gpu, &bad, device, untouched, &e)
                     && g_error_matches (e, LUMEN_ERROR, LM_ERROR_INVALID);
  record (refused, "mertens: negative exponent refused", name, e ? e->message : "no error");
  g_clear_error (&e);
}

static char *
shifts_text (const LmShift *shifts, guint n)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s(%d, %d)", i ? " " : "", shifts[i].x, shifts[i].y);
  return g_string_free (s, FALSE);
}

static gboolean
shifts_equal (const LmShift *a, const LmShift *b, guint n)
{
  return memcmp (a, b, n * sizeof *a) == 0;
}

/* AlignMTB with OpenCV's defaults and with other depths and exclusion ranges (0 bits: no
 * level to search); the GPU twice. TRUTH, when known, is what the default must find. */
static void
check_alignment (const char *name, const LmHdrStack *host, const LmHdrStack *device, const LmShift *truth)
{
  static const LmAlignParams sets[] = {
    LM_ALIGN_PARAMS_INIT,
    { .max_bits = 3, .exclude_range = 0, .cut = TRUE },
    { .max_bits = 9, .exclude_range = 12, .cut = TRUE },
    { .max_bits = 0, .exclude_range = 4, .cut = TRUE },
  };
  GError *e = NULL;
  guint n = host->n;
  g_autofree LmShift *expected = g_new (LmShift, n), *got = g_new (LmShift, n), *again = g_new (LmShift, n);
  for (guint i = 0; i < G_N_ELEMENTS (sets); i++)
    {
      const LmAlignParams *p = &sets[i];
      for (guint k = 0; k < n; k++)
        got[k] = again[k] = (LmShift) { 9999, 9999 }; /* poison */
      g_assert_true (lm_backend_hdr_align (cpu, p, host, expected, &e));
      g_assert_no_error (e);
      g_assert_true (lm_backend_hdr_align (gpu, p, device, got, &e)
                     && lm_backend_hdr_align (gpu, p, device, again, &e));
      g_assert_no_error (e);
      g_autofree char *label = g_strdup_printf ("align max bits %d, exclusion %d", p->max_bits, p->exclude_range);
      g_autofree char *cpu_text = shifts_text (expected, n), *gpu_text = shifts_text (got, n);
      g_autofree char *detail = g_strdup_printf ("CPU %s, GPU %s", cpu_text, gpu_text);
      gboolean equal = shifts_equal (expected, got, n) && shifts_equal (got, again, n);
      summary.shift_sets++;
      summary.shift_sets_equal += equal;
      record (equal, label, name, detail);
      if (truth && i == 0)
        {
          g_autofree char *truth_text = shifts_text (truth, n);
          g_autofree char *against = g_strdup_printf ("GPU %s, true %s", gpu_text, truth_text);
          summary.truths++;
          summary.truths_found += shifts_equal (got, truth, n);
          record (shifts_equal (got, truth, n), "align: the true shifts", name, against);
        }
    }

  LmAlignParams bad = { .max_bits = 17, .exclude_range = 4, .cut = TRUE };
  gboolean refused = !lm_backend_hdr_align (gpu, &bad, device, got, &e)
                     && g_error_matches (e, LUMEN_ERROR, LM_ERROR_INVALID);
  record (refused, "align: 17 bits refused", name, e ? e->message : "no error");
  g_clear_error (&e);
}

static void
check_stack (const char *name, const LmHdrStack *host, const LmResponse *response)
{
  GError *e = NULL;
  guint w = host->images[0]->width, h = host->images[0]->height;
  LmHdrStack *device = upload_stack (host);

  static const LmHdrMethod methods[] = { LM_HDR_DEBEVEC, LM_HDR_ROBERTSON };
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      for (guint g = 0; g < G_N_ELEMENTS (gamma_corrections); g++)
        {
          const char *method = lm_hdr_method_name (methods[m]);
          LmHdrMergeParams params = { .method = methods[m], .response = *response,
                                      .gamma_correction = gamma_corrections[g] };
          g_autoptr (LmImage) cpu_radiance = parity_poisoned (gpu, LM_FORMAT_RGBA_F32, w, h, 0);
          g_assert_true (lm_backend_hdr_merge (cpu, &params, host, cpu_radiance, &e));
          g_assert_no_error (e);
          g_autoptr (LmImage) gpu_radiance = gpu_merge (&params, device, name);
          double rel = radiance_distance (cpu_radiance, gpu_radiance);
          summary.radiance_rel = MAX (summary.radiance_rel, rel);
          g_autofree char *what = g_strdup_printf ("merge %s, gamma correction %g", method, gamma_corrections[g]);
          g_autofree char *detail = g_strdup_printf ("max relative |Δ| %.3g", rel);
          record (rel <= RADIANCE_TOLERANCE, what, name, detail);

          /* Tone mapping of one radiance on both (Debevec's radiance), and end to end (each
           * backend's own merge without gamma correction, then its own tone mapping). */
          g_autoptr (LmImage) shared = methods[m] == LM_HDR_DEBEVEC ? lm_backend_upload (gpu, cpu_radiance, &e) : NULL;
          g_autoptr (LmImage) own = g == 0 ? lm_backend_upload (gpu, gpu_radiance, &e) : NULL;
          g_assert_no_error (e);
          for (guint t = 0; t < G_N_ELEMENTS (tone_sets) && (shared || own); t++)
            {
              const ToneSet *ts = &tone_sets[t];
              g_autoptr (LmImage) expected = cpu_tonemap (&ts->params, cpu_radiance);
              if (shared)
                {
                  g_autofree char *label = g_strdup_printf ("tonemap %s (gc %g)", ts->name, gamma_corrections[g]);
                  g_autoptr (LmImage) same_input = gpu_tonemap (&ts->params, shared, label, name);
                  check_display (label, name, expected, same_input);
                }
              if (own)
                {
                  g_autofree char *e2e = g_strdup_printf ("%s + tonemap %s", method, ts->name);
                  g_autoptr (LmImage) end_to_end = gpu_tonemap (&ts->params, own, e2e, name);
                  check_display (e2e, name, expected, end_to_end);
                }
            }
        }
    }

  check_fusion (name, host, device);
  check_alignment (name, host, device, NULL);
  free_device_stack (device);
}

/* A known response (gamma 2.2, normalised at level 128) and exposures made with it from a
 * radiance of gradients, texture and noise over four decades, with black and clipped areas;
 * the channels differ. */
static void
synthetic_response (LmResponse *r)
{
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_LEVELS; z++)
      r->value[c][z] = (float) pow ((z + 0.5) / 128.5, 2.2 + 0.05 * c);
}

static LmHdrStack *
synthetic_stack (guint w, guint h, guint n, gboolean gray, guint32 seed)
{
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = n;
  s->images = g_new0 (LmImage *, n);
  s->times = g_new0 (double, n);
  s->paths = g_new0 (char *, n);
  GRand *rand = g_rand_new_with_seed (seed);
  float *radiance = g_new (float, (gsize) w * h * 3);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        double u = (x + 0.5) / w, v = (y + 0.5) / h;
        double e = pow (10.0, 4.0 * u - 2.0) * (1.0 + 0.5 * sin (40.0 * v + 7.0 * u));
        if (u > 0.9 && v < 0.2)
          e = 1e6; /* clipped in every exposure */
        if (u < 0.08 && v > 0.8)
          e = 1e-9; /* black in every exposure */
        /* Kept as the level at t = 1 before the offset: 128.5 (20 E)^(1/γ). */
        for (int c = 0; c < 3; c++)
          {
            double channel = e * (gray ? 1.0 : 0.7 + 0.3 * c) * (1.0 + 0.1 * g_rand_double_range (rand, -1.0, 1.0));
            radiance[((gsize) y * w + x) * 3 + c] = (float) (128.5 * pow (20.0 * channel, 1.0 / (2.2 + 0.05 * c)));
          }
      }
  for (guint i = 0; i < n; i++)
    {
      s->times[i] = 0.001 * pow (4.0, i);
      s->paths[i] = g_strdup_printf ("synthetic-%u.png", i);
      double scale[3];
      for (int c = 0; c < 3; c++)
        scale[c] = pow (s->times[i], 1.0 / (2.2 + 0.05 * c));
      LmImage *image = host_image (gray ? LM_FORMAT_GRAY8 : LM_FORMAT_RGBA8, w, h);
      image->opaque = TRUE;
      for (guint y = 0; y < h; y++)
        {
          guint8 *row = lm_image_row (image, y);
          for (guint x = 0; x < w; x++)
            for (int c = 0; c < (gray ? 1 : 3); c++)
              {
                double z = radiance[((gsize) y * w + x) * 3 + c] * scale[c] - 0.5;
                guint8 value = (guint8) CLAMP (lround (z), 0, 255);
                if (gray)
                  row[x] = value;
                else
                  row[4 * x + c] = value, row[4 * x + 3] = 255;
              }
        }
      s->images[i] = image;
    }
  g_free (radiance);
  g_rand_free (rand);
  return s;
}

/* STACK's exposures with their content moved by known amounts (edges repeated), each its
 * own: the shifts that the aligners must then agree on are far from zero. */
static LmHdrStack *
moved_stack (const LmHdrStack *stack)
{
  static const LmShift moves[] = { { 5, -3 }, { -7, 2 }, { 0, 0 }, { 3, 6 }, { -12, -9 }, { 1, -1 }, { 9, 4 }, { -2, 11 } };
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = stack->n;
  s->images = g_new0 (LmImage *, s->n);
  s->times = g_memdup2 (stack->times, s->n * sizeof (double));
  s->paths = g_new0 (char *, s->n);
  for (guint i = 0; i < s->n; i++)
    {
      const LmImage *src = stack->images[i];
      LmShift m = moves[i % G_N_ELEMENTS (moves)];
      gsize bpp = lm_format_bytes_per_pixel (src->format);
      LmImage *image = host_image (src->format, src->width, src->height);
      image->opaque = src->opaque;
      for (guint y = 0; y < src->height; y++)
        {
          const guint8 *from = lm_image_row (src, CLAMP ((int) y - m.y, 0, (int) src->height - 1));
          guint8 *to = lm_image_row (image, y);
          for (guint x = 0; x < src->width; x++)
            memcpy (to + bpp * x, from + bpp * CLAMP ((int) x - m.x, 0, (int) src->width - 1), bpp);
        }
      s->images[i] = image;
      s->paths[i] = g_strdup_printf ("%s, moved (%d, %d)", stack->paths[i], m.x, m.y);
    }
  return s;
}

static void
check_moved (const char *name, const LmHdrStack *host)
{
  g_autoptr (LmHdrStack) moved = moved_stack (host);
  LmHdrStack *device = upload_stack (moved);
  g_autofree char *label = g_strdup_printf ("%s moved", name);
  check_alignment (label, moved, device, NULL);
  free_device_stack (device);
}

/* Three exposures cut from PHOTO as tests/hdr/test_align.py cuts them: an 800×600 crop with
 * 16 pixels of margin, and two more taken (5, −3) and (−7, 2) away, each scaled by its gain
 * (numpy's float32 product, rounded half to even, clipped). The shifts that line them up
 * with the middle one are those moves. */
static LmHdrStack *
photo_bracket (const char *path, LmShift truth[3])
{
  static const LmShift moves[3] = { { 5, -3 }, { 0, 0 }, { -7, 2 } };
  static const float gains[3] = { 0.5f, 1.0f, 1.8f };
  GError *e = NULL;
  g_autoptr (LmImage) photo = lm_io_load (path, lm_backend_host_allocator (gpu), &e);
  g_assert_no_error (e);
  int margin = 16, w = (int) photo->width, h = (int) photo->height;
  int cw = MIN (800, w - 2 * margin), ch = MIN (600, h - 2 * margin), x0 = (w - cw) / 2, y0 = (h - ch) / 2;
  gsize bpp = lm_format_bytes_per_pixel (photo->format);
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = 3;
  s->images = g_new0 (LmImage *, 3);
  s->times = g_new0 (double, 3);
  s->paths = g_new0 (char *, 3);
  for (int i = 0; i < 3; i++)
    {
      LmImage *image = host_image (photo->format, cw, ch);
      image->opaque = photo->opaque;
      for (int y = 0; y < ch; y++)
        {
          const guint8 *from = lm_image_row (photo, y0 + moves[i].y + y) + bpp * (x0 + moves[i].x);
          guint8 *to = lm_image_row (image, y);
          for (gsize k = 0; k < bpp * cw; k++)
            to[k] = bpp == 4 && k % 4 == 3 ? from[k] : (guint8) CLAMP (rintf ((float) from[k] * gains[i]), 0.0f, 255.0f);
        }
      s->images[i] = image;
      s->times[i] = 0.01 * gains[i];
      s->paths[i] = g_strdup_printf ("%s-%d", path, i);
      truth[i] = moves[i];
    }
  return s;
}

static void
check_photo_brackets (void)
{
  /* The corpus's (astronaut.tif, camera-gray, forest-path) and, where the larger data was
   * packed in beside them, three more. */
  static const char *const photos[] = { "astronaut.tif", "astronaut.png", "boats-sunset.jpg", "camera-gray.png",
                                        "coffee.png", "forest-path.jpg", "hubble-deep-field.jpg" };
  const char *data = g_getenv ("LUMEN_TEST_DATA");
  guint checked = 0;
  for (guint i = 0; i < G_N_ELEMENTS (photos); i++)
    {
      g_autofree char *path = g_build_filename (data ? data : ".", "photos", photos[i], NULL);
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          printf ("skipped %s: not in this data\n", photos[i]);
          continue;
        }
      checked++;
      LmShift truth[3];
      g_autoptr (LmHdrStack) host = photo_bracket (path, truth);
      LmHdrStack *device = upload_stack (host);
      g_autofree char *name = g_strdup_printf ("%s bracket", photos[i]);
      check_alignment (name, host, device, truth);
      free_device_stack (device);
      printf ("checked %s (%u×%u%s)\n", name, host->images[0]->width, host->images[0]->height,
              host->images[0]->format == LM_FORMAT_GRAY8 ? ", gray" : "");
    }
  if (checked < 3)
    parity_fail ("photo brackets: %u of the corpus's 3 photos found", checked);
}

static void
check_data_stacks (void)
{
  g_autofree char *dir = NULL;
  g_autoptr (GPtrArray) names = parity_data_names ("hdr", "HDR stacks", &dir);
  if (names == NULL)
    return;
  GError *e = NULL;
  for (guint i = 0; i < names->len; i++)
    {
      const char *scene = g_ptr_array_index (names, i);
      g_autofree char *list = g_build_filename (dir, scene, "exposures.txt", NULL);
      if (!g_file_test (list, G_FILE_TEST_EXISTS))
        continue;
      g_autoptr (GPtrArray) files = NULL;
      g_autoptr (GArray) times = NULL;
      g_assert_true (lm_hdr_read_exposures (list, &files, &times, &e));
      g_assert_no_error (e);
      g_autoptr (LmHdrStack) stack = lm_hdr_stack_load ((const char *const *) files->pdata, files->len,
                                                        (const double *) times->data,
                                                        lm_backend_host_allocator (gpu), &e);
      g_assert_no_error (e);
      LmResponse response;
      g_assert_true (lm_hdr_calibrate_debevec (stack, 70, 10.0f, &response, &e));
      g_assert_no_error (e);
      check_stack (scene, stack, &response);
      check_moved (scene, stack);
      printf ("checked %s (%u exposures, %u×%u)\n", scene, stack->n, stack->images[0]->width,
              stack->images[0]->height);
    }
}

/* Backends on each device; on a machine with several, the same merge on the last device
 * must give the first device's bits. (A build without CUDA skips before it gets here.) */
static void
check_devices (void)
{
#if LUMEN_HAVE_CUDA
  GError *e = NULL;
  int count = lm_backend_cuda_device_count ();
  record (count >= 1, "device count ≥ 1", "", "");
  LmBackend *none = lm_backend_cuda_new_on_device (count, &e);
  record (none == NULL && g_error_matches (e, LUMEN_ERROR, LM_ERROR_NO_DEVICE), "device past the last refused", "",
          e ? e->message : "no error");
  g_clear_error (&e);
  if (count < 2)
    {
      printf ("one CUDA device: the cross-device check needs two\n");
      return;
    }
  LmBackend *first = gpu;
  g_autoptr (LmBackend) last = lm_backend_cuda_new_on_device (count - 1, &e);
  g_assert_no_error (e);
  LmHdrStack *host = synthetic_stack (333, 211, 5, FALSE, 7);
  LmResponse response;
  synthetic_response (&response);
  LmHdrMergeParams params = { .method = LM_HDR_DEBEVEC, .response = response, .gamma_correction = 0.45f };
  LmTonemapParams tone = LM_TONEMAP_PARAMS_INIT;
  LmImage *results[2];
  LmBackend *backends[2] = { first, last };
  for (int b = 0; b < 2; b++)
    {
      gpu = backends[b];
      LmHdrStack *device = upload_stack (host);
      g_autoptr (LmImage) radiance = parity_poisoned_device (gpu, LM_FORMAT_RGBA_F32, 333, 211);
      g_autoptr (LmImage) out = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, 333, 211);
      g_assert_true (lm_backend_hdr_merge (gpu, &params, device, radiance, &e)
                     && lm_backend_tonemap (gpu, &tone, radiance, out, &e));
      g_assert_no_error (e);
      results[b] = parity_download (gpu, out);
      free_device_stack (device);
    }
  gpu = first;
  record (parity_bytes_equal (results[0], results[1]), "devices 0 and last agree bit for bit", "333×211", last->description);
  lm_image_unref (results[0]);
  lm_image_unref (results[1]);
  lm_hdr_stack_free (host);
#endif
}

/* Radiance for the RGBE conversion: values over RGBE's whole range and beyond it, powers of
 * two and their neighbours (where frexp's mantissa turns over), and what must become 0 or
 * saturate: negatives, NaN, infinities, values below 1e-32. */
static LmImage *
rgbe_radiance (guint w, guint h, guint32 seed)
{
  static const float specials[] = { 0.0f, -0.0f, -1.0f, NAN, -NAN, INFINITY, -INFINITY, FLT_MAX, 0x1p127f,
                                    0x1.FEp126f, 1e-32f, 9.9999e-33f, 1.0f, 0.5f, 1e-45f };
  LmImage *image = host_image (LM_FORMAT_RGBA_F32, w, h);
  GRand *rand = g_rand_new_with_seed (seed);
  for (guint y = 0; y < h; y++)
    {
      float *px = (float *) lm_image_row (image, y);
      for (guint i = 0; i < 4 * w; i++)
        {
          guint pick = g_rand_int_range (rand, 0, 8);
          float p = ldexpf (1.0f, g_rand_int_range (rand, -110, 128));
          px[i] = pick == 0   ? specials[g_rand_int_range (rand, 0, G_N_ELEMENTS (specials))]
                  : pick == 1 ? p
                  : pick == 2 ? nextafterf (p, 0.0f)
                  : pick == 3 ? nextafterf (p, INFINITY)
                              : ldexpf ((float) g_rand_double (rand), g_rand_int_range (rand, -110, 128));
        }
    }
  g_rand_free (rand);
  return image;
}

/* The RGBE conversion of the batch's .hdr output: the GPU's bytes must be the CPU's exactly
 * (the file then is), into outputs poisoned differently on each side. */
static void
check_rgbe (guint w, guint h)
{
  g_autofree char *name = g_strdup_printf ("%u×%u", w, h);
  g_autoptr (LmImage) radiance = rgbe_radiance (w, h, w ^ h);
  GError *e = NULL;
  g_autoptr (LmImage) expected = parity_poisoned (gpu, LM_FORMAT_RGBE8, w, h, PARITY_POISON_CPU);
  g_assert_true (lm_backend_rgbe_encode (cpu, radiance, expected, &e));
  g_assert_no_error (e);
  g_autoptr (LmImage) device = lm_backend_upload (gpu, radiance, &e);
  g_assert_no_error (e);
  g_autoptr (LmImage) out = parity_poisoned_device (gpu, LM_FORMAT_RGBE8, w, h);
  g_assert_true (lm_backend_rgbe_encode (gpu, device, out, &e));
  g_assert_no_error (e);
  g_autoptr (LmImage) got = parity_download (gpu, out);
  guint64 differing = 0;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < 4 * w; x++)
      differing += lm_image_row (got, y)[x] != lm_image_row (expected, y)[x];
  g_autofree char *detail = g_strdup_printf ("%" G_GUINT64_FORMAT " bytes differ", differing);
  record (differing == 0, "RGBE encoding: bytes equal the CPU's", name, detail);
}

/* Scene-referred light for the sigmoid: samples over 2^-24..2^12 on log axes (saturated
 * colours, since the channels are drawn apart), ties, negatives and, one sample in eight,
 * rgbe_radiance's awkward values (NaN, infinities, FLT_MAX, subnormals). */
static LmImage *
scene_radiance (guint w, guint h, guint32 seed)
{
  g_autoptr (LmImage) awkward = rgbe_radiance (w, h, seed);
  LmImage *image = host_image (LM_FORMAT_RGBA_F32, w, h);
  GRand *rand = g_rand_new_with_seed (seed);
  for (guint y = 0; y < h; y++)
    {
      float *px = (float *) lm_image_row (image, y);
      const float *odd = (const float *) lm_image_row (awkward, y);
      for (guint i = 0; i < 4 * w; i++)
        {
          guint pick = g_rand_int_range (rand, 0, 16);
          px[i] = pick < 2    ? odd[i]
                  : pick == 2 ? (i % 4 ? px[i - 1] : 0.18f)
                  : pick == 3 ? -(float) exp2 (g_rand_double_range (rand, -24.0, 0.0))
                              : (float) exp2 (g_rand_double_range (rand, -24.0, 12.0));
        }
    }
  g_rand_free (rand);
  return image;
}

/* The sigmoid promises more than the other operators: the CPU's bytes exactly, 8 and 16 bits,
 * for several parameter sets; bad parameters refused on both. */
static void
check_sigmoid (guint w, guint h)
{
  static const struct {
    float exposure, contrast, hue;
  } sets[] = { { 0.7f, 1.3f, 1.0f }, { -3.0f, 2.5f, 0.0f }, { 4.0f, 0.6f, 0.4f }, { 10.0f, 3.0f, 1.0f } };
  static const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16 };
  g_autofree char *name = g_strdup_printf ("%u×%u", w, h);
  g_autoptr (LmImage) radiance = scene_radiance (w, h, w * 31 + h);
  GError *e = NULL;
  g_autoptr (LmImage) device = lm_backend_upload (gpu, radiance, &e);
  g_assert_no_error (e);
  for (guint k = 0; k < G_N_ELEMENTS (sets); k++)
    for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
      {
        LmTonemapParams p = LM_TONEMAP_PARAMS_INIT;
        p.kind = LM_TONEMAP_SIGMOID;
        p.exposure = sets[k].exposure, p.contrast = sets[k].contrast, p.hue_preservation = sets[k].hue;
        g_autoptr (LmImage) expected = parity_poisoned (gpu, formats[f], w, h, PARITY_POISON_CPU);
        g_assert_true (lm_backend_tonemap (cpu, &p, radiance, expected, &e));
        g_assert_no_error (e);
        g_autoptr (LmImage) out = parity_poisoned_device (gpu, formats[f], w, h);
        g_assert_true (lm_backend_tonemap (gpu, &p, device, out, &e));
        g_assert_no_error (e);
        g_autoptr (LmImage) got = parity_download (gpu, out);
        guint64 differing = 0;
        int worst = parity_u8_distance (expected, got, NULL, &differing);
        g_autofree char *what = g_strdup_printf ("sigmoid ev=%g c=%g h=%g, %d-bit: bytes equal", sets[k].exposure,
                                                 sets[k].contrast, sets[k].hue, formats[f] == LM_FORMAT_RGBA8 ? 8 : 16);
        g_autofree char *detail = g_strdup_printf ("max|Δ| %d, %" G_GUINT64_FORMAT " samples differ", worst, differing);
        record (parity_bytes_equal (expected, got), what, name, detail);
      }
  LmTonemapParams bad = LM_TONEMAP_PARAMS_INIT;
  bad.kind = LM_TONEMAP_SIGMOID, bad.contrast = 0.0f;
  g_autoptr (LmImage) out = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, w, h);
  gboolean refused = !lm_backend_tonemap (gpu, &bad, device, out, &e);
  record (refused, "sigmoid: contrast 0 refused", name, e ? e->message : "no error");
  g_clear_error (&e);
}

int
main (int argc, char **argv)
{
  int skip = parity_open ("hdr parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;
  gboolean self_test = g_getenv ("LUMEN_PARITY_SELF_TEST") != NULL;
  init_tone_sets ();

  check_data_stacks ();

  static const struct {
    guint w, h, n;
    gboolean gray;
  } sizes[] = {
    { 7, 5, 3, FALSE }, { 333, 211, 5, FALSE }, { 61, 47, 4, TRUE }, { 4097, 3, 2, FALSE },
    { 3, 1031, 7, FALSE }, { 4000, 3000, 5, FALSE },
  };
  LmResponse response;
  synthetic_response (&response);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gboolean large = sizes[i].w * (guint64) sizes[i].h > 8000000;
      if (large && g_getenv ("LUMEN_PARITY_QUICK"))
        continue;
      g_autoptr (LmHdrStack) stack = synthetic_stack (sizes[i].w, sizes[i].h, sizes[i].n, sizes[i].gray, 100 + i);
      g_autofree char *name = g_strdup_printf ("%u×%u×%u%s", sizes[i].w, sizes[i].h, sizes[i].n,
                                               sizes[i].gray ? " gray" : "");
      check_stack (name, stack, &response);
      check_moved (name, stack);
      printf ("checked %s\n", name);
    }
  /* Strips past the grid's 65,535 rows or columns: merge, tone mapping and fusion walk them.
   * (Alignment's known shifts need room in both directions: check_moved stays on the above.) */
  static const guint strips[][2] = { { 1, 70000 }, { 70000, 1 } };
  for (guint i = 0; i < G_N_ELEMENTS (strips); i++)
    {
      g_autoptr (LmHdrStack) stack = synthetic_stack (strips[i][0], strips[i][1], 3, i == 1, 200 + i);
      g_autofree char *name = g_strdup_printf ("%u×%u×3%s", strips[i][0], strips[i][1], i == 1 ? " gray" : "");
      check_stack (name, stack, &response);
      check_rgbe (strips[i][0], strips[i][1]);
      printf ("checked %s\n", name);
    }
  check_photo_brackets ();
  check_sigmoid (7, 5);
  check_sigmoid (333, 211);
  check_sigmoid (1, 70000);
  check_sigmoid (70000, 1);
  if (!g_getenv ("LUMEN_PARITY_QUICK"))
    check_sigmoid (4000, 3000);
  check_rgbe (7, 5);
  check_rgbe (333, 211);
  if (!g_getenv ("LUMEN_PARITY_QUICK"))
    check_rgbe (4000, 3000);
  if (!self_test)
    check_devices ();

  printf ("hdr parity fusion: 8-bit max|Δ| %d (≤ %d), float max|Δ| %.3g, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
          " samples differ; alignment: %u of %u shift sets equal the CPU's, %u of %u true shifts found\n",
          summary.fusion_delta, FUSION_TOLERANCE, summary.fusion_abs, summary.fusion_differing, summary.fusion_samples,
          summary.shift_sets_equal, summary.shift_sets, summary.truths_found, summary.truths);
  printf ("hdr parity maxima: radiance relative |Δ| %.3g (≤ %g), tone mapped max|Δ| %d (≤ %d); %" G_GUINT64_FORMAT
          " cases, %" G_GUINT64_FORMAT " failed\n",
          summary.radiance_rel, RADIANCE_TOLERANCE, summary.display_delta, DISPLAY_TOLERANCE, parity_cases (),
          parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
