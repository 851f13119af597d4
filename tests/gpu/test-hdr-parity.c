/* CPU/GPU parity of the HDR merge and tone mapping: every stack of the shared data (its
 * response recovered on the CPU) and synthetic stacks of awkward sizes, up to 12 MP, RGBA and
 * gray, with black and clipped areas. The float radiance must agree within a relative 1e-4,
 * every 8-bit tone-mapped sample within 1, both for the same radiance and end to end (each
 * backend's own merge, then its own tone mapping).
 *
 * Outputs start poisoned (NaN radiance; a different byte on each side for 8-bit), so a sample
 * that one backend leaves unwritten fails. The GPU runs each case twice: its reductions must
 * give the same bits every time. Methods the CUDA backend does not have must fail cleanly.
 *
 * Without a usable CUDA device it prints the reason and exits 77 (meson: SKIP).
 * LUMEN_PARITY_QUICK=1 leaves out the 12 MP stack; LUMEN_PARITY_VERBOSE=1 prints every case. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "config.h"
#include "core/backend.h"
#include "core/error.h"
#include "core/hdr/merge.h"
#include "core/hdr/stack.h"
#include "core/hdr/tonemap.h"

#define POISON_CPU 0x5A
#define POISON_GPU 0xA5
#define RADIANCE_TOLERANCE 1e-4 /* relative */
#define DISPLAY_TOLERANCE 1     /* on 8-bit samples */

typedef struct {
  const char *name;
  LmTonemapParams params;
} ToneSet;

static ToneSet tone_sets[] = {
  { "none", LM_TONEMAP_PARAMS_INIT },
  { "gamma 1", LM_TONEMAP_PARAMS_INIT },
  { "gamma 2.2", LM_TONEMAP_PARAMS_INIT },
  { "reinhard", LM_TONEMAP_PARAMS_INIT },
  { "reinhard i=-1.5 l=0.4 c=0.7 g=2.2", LM_TONEMAP_PARAMS_INIT },
  { "reinhard i=2 l=0 c=1", LM_TONEMAP_PARAMS_INIT },
  { "drago", LM_TONEMAP_PARAMS_INIT },
  { "drago b=0.7 s=1.4 g=1.8", LM_TONEMAP_PARAMS_INIT },
};

static void
init_tone_sets (void)
{
  tone_sets[0].params.kind = LM_TONEMAP_NONE;
  tone_sets[1].params.kind = LM_TONEMAP_GAMMA;
  tone_sets[2].params.kind = LM_TONEMAP_GAMMA, tone_sets[2].params.gamma = 2.2f;
  LmTonemapParams *r = &tone_sets[4].params;
  r->intensity = -1.5f, r->light_adapt = 0.4f, r->color_adapt = 0.7f, r->gamma = 2.2f;
  r = &tone_sets[5].params;
  r->intensity = 2.0f, r->light_adapt = 0.0f, r->color_adapt = 1.0f;
  tone_sets[6].params.kind = LM_TONEMAP_DRAGO;
  LmTonemapParams *d = &tone_sets[7].params;
  d->kind = LM_TONEMAP_DRAGO, d->bias = 0.7f, d->saturation = 1.4f, d->gamma = 1.8f;
}

static const float gamma_corrections[] = { 0.0f, 0.45f, 2.2f };

static LmBackend *cpu, *gpu;
static struct {
  guint64 cases, failures;
  double radiance_rel;
  int display_delta;
} summary;

static void
record (gboolean ok, const char *what, const char *stack, const char *detail)
{
  summary.cases++;
  summary.failures += !ok;
  if (!ok || g_getenv ("LUMEN_PARITY_VERBOSE"))
    printf ("%s %-46s %-22s %s\n", ok ? "ok  " : "FAIL", what, stack, detail);
}

static LmImage *
host_image (LmFormat format, guint w, guint h)
{
  GError *e = NULL;
  LmImage *image = lm_image_new (format, w, h, lm_backend_host_allocator (gpu), &e);
  g_assert_no_error (e);
  return image;
}

static LmImage *
poisoned (LmFormat format, guint w, guint h, guint8 byte)
{
  LmImage *image = host_image (format, w, h);
  if (format == LM_FORMAT_RGBA_F32)
    for (guint y = 0; y < h; y++)
      for (guint i = 0; i < 4 * w; i++)
        ((float *) lm_image_row (image, y))[i] = NAN;
  else
    memset (image->data, byte, lm_image_size_bytes (image));
  return image;
}

/* A poisoned image in the GPU's memory. */
static LmImage *
poisoned_device (LmFormat format, guint w, guint h)
{
  GError *e = NULL;
  g_autoptr (LmImage) host = poisoned (format, w, h, POISON_GPU);
  LmImage *device = lm_backend_upload (gpu, host, &e);
  g_assert_no_error (e);
  g_assert_true (lm_backend_synchronize (gpu, &e));
  return device;
}

static LmImage *
download (LmImage *device)
{
  GError *e = NULL;
  LmImage *host = lm_backend_download (gpu, device, &e);
  g_assert_no_error (e);
  g_assert_true (lm_backend_synchronize (gpu, &e));
  g_assert_no_error (e);
  return host;
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

static int
display_distance (const LmImage *a, const LmImage *b, guint64 *differing)
{
  int worst = 0;
  guint64 n = 0;
  for (guint y = 0; y < a->height; y++)
    {
      const guint8 *p = lm_image_row (a, y), *q = lm_image_row (b, y);
      for (guint x = 0; x < 4 * a->width; x++)
        {
          int d = abs ((int) p[x] - (int) q[x]);
          worst = MAX (worst, d);
          n += d != 0;
        }
    }
  *differing = n;
  return worst;
}

static gboolean
bytes_equal (const LmImage *a, const LmImage *b)
{
  gsize row = (gsize) a->width * lm_format_bytes_per_pixel (a->format);
  for (guint y = 0; y < a->height; y++)
    if (memcmp (lm_image_row (a, y), lm_image_row (b, y), row) != 0)
      return FALSE;
  return TRUE;
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
      g_autoptr (LmImage) out = poisoned_device (LM_FORMAT_RGBA_F32, first->width, first->height);
      g_assert_true (lm_backend_hdr_merge (gpu, params, stack, out, &e));
      g_assert_no_error (e);
      runs[r] = download (out);
    }
  gboolean same = bytes_equal (runs[0], runs[1]);
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
      g_autoptr (LmImage) out = poisoned_device (LM_FORMAT_RGBA8, radiance_device->width, radiance_device->height);
      g_assert_true (lm_backend_tonemap (gpu, params, radiance_device, out, &e));
      g_assert_no_error (e);
      runs[r] = download (out);
    }
  g_autofree char *label = g_strdup_printf ("%s: GPU runs agree bit for bit", what);
  record (bytes_equal (runs[0], runs[1]), label, name, "");
  lm_image_unref (runs[1]);
  return runs[0];
}

static LmImage *
cpu_tonemap (const LmTonemapParams *params, const LmImage *radiance)
{
  GError *e = NULL;
  LmImage *out = poisoned (LM_FORMAT_RGBA8, radiance->width, radiance->height, POISON_CPU);
  g_assert_true (lm_backend_tonemap (cpu, params, radiance, out, &e));
  g_assert_no_error (e);
  return out;
}

static void
check_display (const char *what, const char *name, const LmImage *a, const LmImage *b)
{
  guint64 differing;
  int worst = display_distance (a, b, &differing);
  summary.display_delta = MAX (summary.display_delta, worst);
  g_autofree char *detail = g_strdup_printf ("max|Δ| %d, %" G_GUINT64_FORMAT " samples differ", worst,
                                             differing);
  record (worst <= DISPLAY_TOLERANCE, what, name, detail);
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
          g_autoptr (LmImage) cpu_radiance = poisoned (LM_FORMAT_RGBA_F32, w, h, 0);
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

  /* What the CUDA backend does not have yet fails with a reason, without touching OUT. */
  LmHdrMergeParams mertens = { .method = LM_HDR_MERTENS, .response = *response };
  mertens.mertens = (LmMertensParams) LM_MERTENS_PARAMS_INIT;
  g_autoptr (LmImage) untouched = poisoned_device (LM_FORMAT_RGBA_F32, w, h);
  gboolean failed = !lm_backend_hdr_merge (gpu, &mertens, device, untouched, &e)
                    && g_error_matches (e, LUMEN_ERROR, LM_ERROR_UNSUPPORTED);
  record (failed, "mertens: refused with LM_ERROR_UNSUPPORTED", name, e ? e->message : "no error");
  g_clear_error (&e);
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

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static void
check_data_stacks (void)
{
  const char *data = g_getenv ("LUMEN_TEST_DATA");
  g_autofree char *dir = g_build_filename (data ? data : ".", "hdr", NULL);
  GError *e = NULL;
  GDir *d = g_dir_open (dir, 0, &e);
  if (d == NULL)
    {
      printf ("FAIL no HDR stacks: %s\n", e->message);
      summary.failures++;
      g_error_free (e);
      return;
    }
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
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
      g_autoptr (LmImage) radiance = poisoned_device (LM_FORMAT_RGBA_F32, 333, 211);
      g_autoptr (LmImage) out = poisoned_device (LM_FORMAT_RGBA8, 333, 211);
      g_assert_true (lm_backend_hdr_merge (gpu, &params, device, radiance, &e)
                     && lm_backend_tonemap (gpu, &tone, radiance, out, &e));
      g_assert_no_error (e);
      results[b] = download (out);
      free_device_stack (device);
    }
  gpu = first;
  record (bytes_equal (results[0], results[1]), "devices 0 and last agree bit for bit", "333×211", last->description);
  lm_image_unref (results[0]);
  lm_image_unref (results[1]);
  lm_hdr_stack_free (host);
#endif
}

int
main (int argc, char **argv)
{
  GError *e = NULL;
  gpu = lm_backend_new (LM_BACKEND_CUDA, &e);
  if (gpu == NULL)
    {
      printf ("SKIP: %s\n", e->message);
      g_error_free (e);
      return 77;
    }
  cpu = lm_backend_cpu_new ();
  init_tone_sets ();
  printf ("hdr parity: %s against %s\n", gpu->description, cpu->description);

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
      printf ("checked %s\n", name);
    }
  check_devices ();

  printf ("hdr parity maxima: radiance relative |Δ| %.3g (≤ %g), tone mapped max|Δ| %d (≤ %d); %" G_GUINT64_FORMAT
          " cases, %" G_GUINT64_FORMAT " failed\n",
          summary.radiance_rel, RADIANCE_TOLERANCE, summary.display_delta, DISPLAY_TOLERANCE, summary.cases,
          summary.failures);
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return summary.failures ? 1 : 0;
}
