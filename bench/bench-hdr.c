/* bench-hdr: times the HDR merge, Mertens' fusion, AlignMTB and tone mapping on a backend,
 * step by step.
 *
 *   bench-hdr [--backend cpu|cuda] [--repeat N] [--size WxH] [--exposures N] [--json FILE]
 *
 * The stack is synthetic (a radiance over four decades seen through a gamma-2.2 camera, with
 * noise, so that the data is neither constant nor cache-friendly), N exposures of W×H RGBA8
 * (default 5 of 4000×3000, 12 MP); its response is the known one. Per step: CUDA events around
 * the kernels on the GPU (the host clock on the CPU), median of N warm runs, inputs and
 * outputs rotating between two sets so that nothing is timed from the L2 cache. Each step
 * reports the bytes it moves through memory as written (every pass counted) and its floor
 * (each input read once, each output written once); a device-to-device copy of the radiance
 * measured in the same run gives the bandwidth to compare with. On CUDA also end to end: the
 * exposures up from pinned memory, merge, Reinhard, the 8-bit result down. Not a test: figures
 * go to bench/RESULTS.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "core/backend/backend.h"
#include "core/hdr/merge.h"
#include "core/hdr/tonemap.h"
#include "core/timing.h"

#include "bench-util.h"

#define N_SETS 2

typedef enum { STEP_COPY, STEP_MERGE, STEP_FUSE, STEP_ALIGN, STEP_TONEMAP, STEP_MERGE_TONEMAP } StepKind;

typedef struct {
  const char *name;
  StepKind kind;
  float gamma_correction;
  int tonemap; /* LmTonemapKind */
  float gamma;
} Step;

static const Step steps[] = {
  { "copy radiance (device bandwidth)", STEP_COPY },
  { "merge debevec", STEP_MERGE },
  { "merge debevec + gamma correction 0.45", STEP_MERGE, 0.45f },
  { "fuse mertens", STEP_FUSE },
  { "fuse mertens + gamma correction 0.45", STEP_FUSE, 0.45f },
  { "align mtb", STEP_ALIGN },
  { "tonemap none", STEP_TONEMAP, 0, LM_TONEMAP_NONE, 1.0f },
  { "tonemap gamma 2.2", STEP_TONEMAP, 0, LM_TONEMAP_GAMMA, 2.2f },
  { "tonemap reinhard", STEP_TONEMAP, 0, LM_TONEMAP_REINHARD, 1.0f },
  { "tonemap drago", STEP_TONEMAP, 0, LM_TONEMAP_DRAGO, 1.0f },
  { "merge debevec + tonemap reinhard", STEP_MERGE_TONEMAP, 0, LM_TONEMAP_REINHARD, 1.0f },
};

/* Bytes a pixel of each step moves: as implemented (how many passes read the radiance) and
 * the floor. The tone mappers read the radiance once per whole-image number they need
 * (range; log sums; the operator's range) and once more to write the result.
 * Mertens (kernels/mertens.cu), per pixel of the full size: the weights' sum reads every
 * exposure and writes 4 B; then per exposure, level 1 from the exposure and the sum (12),
 * levels 2 … (16/3 read + 4/3 written), the blends of levels ≥ 1 (their Gaussian level, the
 * one above and the accumulator read and written: 52/3), level 0 (exposure, sum, level 1
 * and the output read and written: 44); the collapse of levels ≥ 1 (about 12). The floor
 * reads each exposure once and writes the output once.
 * AlignMTB (kernels/align.cu): the luma of every exposure for the histograms (4n), again for
 * the bitmaps of every level (4n at level 0, then the sectors of every 2^l-th row: about
 * 3.5n), the bitmaps written (n/3); the floor reads each exposure once. */
static void
step_bytes (const Step *s, guint n, double *moved, double *floor_bytes)
{
  double merge = 4.0 * n + 16.0, merge_moved = merge + (s->gamma_correction > 0 ? 32.0 : 0.0);
  int passes = s->tonemap == LM_TONEMAP_NONE ? 1 : s->tonemap == LM_TONEMAP_GAMMA ? 2 : 4;
  double tone = 16.0 * passes + 4.0, tone_floor = 16.0 + 4.0;
  double fuse = 4.0 * n + 4.0 + n * (12.0 + 20.0 / 3.0 + 52.0 / 3.0 + 44.0) + 12.0 + (s->gamma_correction > 0 ? 32.0 : 0.0);
  switch (s->kind)
    {
    case STEP_COPY:
      *moved = *floor_bytes = 32.0;
      break;
    case STEP_MERGE:
      *moved = merge_moved, *floor_bytes = merge;
      break;
    case STEP_FUSE:
      *moved = fuse, *floor_bytes = 4.0 * n + 16.0;
      break;
    case STEP_ALIGN:
      *moved = 4.0 * n + 7.5 * n + n / 3.0, *floor_bytes = 4.0 * n;
      break;
    case STEP_TONEMAP:
      *moved = tone, *floor_bytes = tone_floor;
      break;
    case STEP_MERGE_TONEMAP:
      /* Fused, the floor would never store the radiance: the exposures in, 8 bits out. */
      *moved = merge_moved + tone, *floor_bytes = 4.0 * n + 4.0;
      break;
    }
}

static void
known_response (LmResponse *r)
{
  for (int c = 0; c < 3; c++)
    for (int z = 0; z < LM_HDR_LEVELS; z++)
      r->value[c][z] = (float) pow ((z + 0.5) / 128.5, 2.2);
}

/* N exposures, a stop or two apart, of a radiance that spans four decades. */
static LmHdrStack *
synthetic_stack (guint w, guint h, guint n, const LmAllocator *allocator)
{
  GError *e = NULL;
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = n;
  s->images = g_new0 (LmImage *, n);
  s->times = g_new0 (double, n);
  s->paths = g_new0 (char *, n);
  for (guint i = 0; i < n; i++)
    {
      s->times[i] = 0.001 * pow (4.0, i);
      s->paths[i] = g_strdup_printf ("synthetic-%u", i);
      s->images[i] = lm_image_new (LM_FORMAT_RGBA8, w, h, allocator, &e);
      if (s->images[i] == NULL)
        lm_bench_die ("bench-hdr", e);
      s->images[i]->opaque = TRUE;
    }
  guint32 seed = 1;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        double u = (x + 0.5) / w, v = (y + 0.5) / h;
        double level = 128.5 * pow (20.0 * pow (10.0, 4.0 * u - 2.0) * (1.0 + 0.5 * sin (40.0 * v + 7.0 * u)),
                                    1.0 / 2.2);
        for (guint i = 0; i < n; i++)
          {
            double at = level * pow (s->times[i], 1.0 / 2.2);
            guint8 *p = lm_image_row (s->images[i], y) + 4 * x;
            for (int c = 0; c < 3; c++)
              {
                seed = seed * 1664525u + 1013904223u; /* a little noise per sample */
                double z = at * (0.8 + 0.1 * c) + (int) (seed >> 29) - 4.0;
                p[c] = (guint8) CLAMP (lround (z), 0, 255);
              }
            p[3] = 255;
          }
      }
  return s;
}

static LmHdrStack *
upload_stack (LmBackend *b, const LmHdrStack *host)
{
  GError *e = NULL;
  LmHdrStack *s = g_new0 (LmHdrStack, 1);
  s->n = host->n;
  s->images = g_new0 (LmImage *, host->n);
  s->times = g_memdup2 (host->times, sizeof (double) * host->n);
  s->paths = g_new0 (char *, host->n);
  for (guint i = 0; i < host->n; i++)
    {
      s->paths[i] = g_strdup (host->paths[i]);
      s->images[i] = lm_backend_upload (b, host->images[i], &e);
      if (s->images[i] == NULL)
        lm_bench_die ("bench-hdr", e);
    }
  if (!lm_backend_synchronize (b, &e))
    lm_bench_die ("bench-hdr", e);
  return s;
}

/* One run of STEP on set I; marks around the backend's work. */
static double
run_step (LmBackend *b, const Step *s, LmHdrStack **stacks, LmImage **radiance, LmImage **display, int i,
          const LmResponse *response)
{
  GError *e = NULL;
  LmHdrMergeParams merge = { .method = LM_HDR_DEBEVEC, .response = *response,
                             .gamma_correction = s->gamma_correction };
  LmHdrMergeParams fuse = { .method = LM_HDR_MERTENS, .mertens = LM_MERTENS_PARAMS_INIT,
                            .gamma_correction = s->gamma_correction };
  LmAlignParams align = LM_ALIGN_PARAMS_INIT;
  LmShift shifts[LM_HDR_MAX_EXPOSURES];
  LmTonemapParams tone = LM_TONEMAP_PARAMS_INIT;
  tone.kind = s->tonemap, tone.gamma = s->gamma;
  LmMark a, z;
  lm_backend_mark (b, &a);
  gboolean ok = TRUE;
  switch (s->kind)
    {
    case STEP_COPY:
      ok = lm_backend_copy (b, radiance[i], radiance[(i + 1) % N_SETS], &e);
      break;
    case STEP_MERGE:
      ok = lm_backend_hdr_merge (b, &merge, stacks[i], radiance[i], &e);
      break;
    case STEP_FUSE:
      ok = lm_backend_hdr_merge (b, &fuse, stacks[i], radiance[i], &e);
      break;
    case STEP_ALIGN:
      /* Waits for the shifts: the time a caller sees. */
      ok = lm_backend_hdr_align (b, &align, stacks[i], shifts, &e);
      break;
    case STEP_TONEMAP:
      ok = lm_backend_tonemap (b, &tone, radiance[i], display[i], &e);
      break;
    case STEP_MERGE_TONEMAP:
      ok = lm_backend_hdr_merge (b, &merge, stacks[i], radiance[i], &e)
           && lm_backend_tonemap (b, &tone, radiance[i], display[i], &e);
      break;
    }
  lm_backend_mark (b, &z);
  if (!ok || !lm_backend_synchronize (b, &e))
    lm_bench_die ("bench-hdr", e);
  return lm_backend_elapsed_ms (b, &a, &z);
}

int
main (int argc, char **argv)
{
  const char *backend_name = "cuda", *json_path = NULL, *size = "4000x3000";
  int repeat = 30, n_exposures = 5;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend_name, "cpu or cuda", "B" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "timed runs per step (median)", "N" },
    { "size", 0, 0, G_OPTION_ARG_STRING, &size, "exposure size (default 4000x3000)", "WxH" },
    { "exposures", 0, 0, G_OPTION_ARG_INT, &n_exposures, "exposures in the stack (default 5)", "N" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "also write the results here", "FILE" },
    { NULL },
  };
  GError *e = NULL;
  g_autoptr (GOptionContext) context = g_option_context_new ("");
  g_option_context_add_main_entries (context, entries, NULL);
  guint w = 0, h = 0;
  if (!g_option_context_parse (context, &argc, &argv, &e) || argc != 1 || repeat < 1 || n_exposures < 2
      || n_exposures > LM_HDR_MAX_EXPOSURES || sscanf (size, "%ux%u", &w, &h) != 2 || w == 0 || h == 0)
    {
      fprintf (stderr, "usage: bench-hdr [--backend cpu|cuda] [--repeat N] [--size WxH] [--exposures N] "
                       "[--json FILE]\n");
      return 2;
    }
  LmBackendKind kind;
  if (!lm_backend_kind_parse (backend_name, &kind))
    return 2;
  g_autoptr (LmBackend) b = lm_backend_new (kind, &e);
  if (b == NULL)
    lm_bench_die ("bench-hdr", e);
  const LmAllocator *work = lm_backend_work_allocator (b);

  LmResponse response;
  known_response (&response);
  g_autoptr (LmHdrStack) host = synthetic_stack (w, h, n_exposures, lm_backend_host_allocator (b));
  LmHdrStack *stacks[N_SETS];
  LmImage *radiance[N_SETS], *display[N_SETS];
  for (int i = 0; i < N_SETS; i++)
    {
      stacks[i] = upload_stack (b, host);
      radiance[i] = lm_image_new (LM_FORMAT_RGBA_F32, w, h, work, &e);
      display[i] = radiance[i] ? lm_image_new (LM_FORMAT_RGBA8, w, h, work, &e) : NULL;
      if (display[i] == NULL)
        lm_bench_die ("bench-hdr", e);
    }

  /* Radiance for the tone-mapping steps. */
  for (int i = 0; i < N_SETS; i++)
    run_step (b, &steps[1], stacks, radiance, display, i, &response);

  double pixels = (double) w * h;
  printf ("# %s, %d exposures of %u×%u, median of %d\n", b->description, n_exposures, w, h, repeat);
  printf ("%-40s %10s %12s %10s %10s\n", "step", "ms", "MB moved", "GB/s", "floor ms");
  g_autoptr (GString) json = lm_bench_json_new ();
  double *ms = g_new (double, repeat);
  double copy_gbps = 0.0;
  for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
    {
      const Step *s = &steps[k];
      /* Warm-up on every set: module load, first touch. */
      for (int i = 0; i < N_SETS; i++)
        run_step (b, s, stacks, radiance, display, i, &response);
      for (int r = 0; r < repeat; r++)
        ms[r] = run_step (b, s, stacks, radiance, display, r % N_SETS, &response);
      double t = lm_bench_median (ms, repeat), moved = 0.0, floor_bytes = 0.0;
      step_bytes (s, n_exposures, &moved, &floor_bytes);
      double gbps = moved * pixels / (t * 1e6);
      if (s->kind == STEP_COPY)
        copy_gbps = gbps;
      /* The floor: the floor's bytes at the copy's rate, measured in this run. */
      double floor_ms = copy_gbps > 0 ? floor_bytes * pixels / (copy_gbps * 1e6) : 0.0;
      printf ("%-40s %10.3f %12.1f %10.0f %10.3f\n", s->name, t, moved * pixels / 1e6, gbps, floor_ms);
      lm_bench_json_add (json, "\"case\": \"%s\", \"backend\": \"%s\", \"ms\": %.4f, \"bytes\": %.0f, "
                         "\"floor_bytes\": %.0f, \"GBps\": %.1f, \"floor_ms\": %.4f, \"width\": %u, \"height\": %u, "
                         "\"exposures\": %d", s->name, backend_name, t, moved * pixels, floor_bytes * pixels, gbps,
                         floor_ms, w, h, n_exposures);
    }

  /* End to end on the GPU: the exposures from pinned memory, merge, Reinhard, 8 bits back. */
  if (kind != LM_BACKEND_CPU)
    {
      g_autoptr (LmImage) host_out = lm_backend_download (b, display[0], &e);
      if (host_out == NULL)
        lm_bench_die ("bench-hdr", e);
      LmHdrMergeParams merge = { .method = LM_HDR_DEBEVEC, .response = response };
      LmTonemapParams tone = LM_TONEMAP_PARAMS_INIT;
      for (int r = -1; r < repeat; r++)
        {
          int i = (r + N_SETS) % N_SETS;
          gint64 t0 = g_get_monotonic_time ();
          for (guint x = 0; x < host->n; x++)
            if (!lm_backend_copy (b, host->images[x], stacks[i]->images[x], &e))
              lm_bench_die ("bench-hdr", e);
          if (!lm_backend_hdr_merge (b, &merge, stacks[i], radiance[i], &e)
              || !lm_backend_tonemap (b, &tone, radiance[i], display[i], &e)
              || !lm_backend_copy (b, display[i], host_out, &e) || !lm_backend_synchronize (b, &e))
            lm_bench_die ("bench-hdr", e);
          if (r >= 0)
            ms[r] = lm_ms_since (t0);
        }
      double t = lm_bench_median (ms, repeat);
      const char *name = "end to end: upload, merge, reinhard, download";
      printf ("%-40s %10.3f\n", name, t);
      lm_bench_json_add (json, "\"case\": \"%s\", \"backend\": \"%s\", \"ms\": %.4f, \"width\": %u, "
                         "\"height\": %u, \"exposures\": %d", name, backend_name, t, w, h, n_exposures);
    }
  if (!lm_bench_json_finish (json, json_path, &e))
    lm_bench_die ("bench-hdr", e);

  for (int i = 0; i < N_SETS; i++)
    {
      lm_hdr_stack_free (stacks[i]);
      lm_image_unref (radiance[i]);
      lm_image_unref (display[i]);
    }
  g_free (ms);
  return 0;
}
