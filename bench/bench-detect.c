/* Source detection on the GPU: each step and the whole of lm_detect on the CUDA backend at
 * 2048² and 8192² (synthetic star fields, float32), warm, the median of several runs, the
 * image rotated among copies that together exceed the L2 cache; and in the same run the memory
 * floor (one read of the image by a reduction kernel, and a device-to-device copy) and the
 * cost of one κ-σ clipping pass (the clipping with 10 passes against the sort alone, divided
 * by the passes run). --write-field DIR leaves the fields as raw float32 (field-SIZE.f32) for
 * bench/bench-detect-peers.py and the sep program, so that every peer measures the same pixels.
 *
 *   bench-detect [--sizes 2048,8192] [--repeat N] [--json FILE] [--write-field DIR]
 *
 * Goals (H100): the 2048² pipeline ≤ 2 ms on the device, 8192² ≤ 20 ms, each clipping pass
 * within 3× of the floor. */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <gio/gio.h>
#include <glib.h>

#include "bench-util.h"
#include "core/astro/detect.h"
#include "core/backend/backend.h"
#include "core/render/astro-run.h"
#include "kernels/astro-kernels.h"

#define PROGRAM "bench-detect"
#define L2_BYTES (200u << 20) /* rotate among copies of at least this much: past any L2 */

static void
check (cudaError_t err, const char *what)
{
  if (err != cudaSuccess)
    {
      fprintf (stderr, PROGRAM ": %s: %s\n", what, cudaGetErrorString (err));
      exit (1);
    }
}

static guint64
next_random (guint64 *state)
{
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 0x2545F4914F6CDD1DULL;
}

static double
uniform (guint64 *state)
{
  return (double) (next_random (state) >> 11) * (1.0 / 9007199254740992.0);
}

/* The parity test's field (tests/gpu/test-detect-parity.c): 100 + a slope, Gaussian noise of
 * σ 5, N Gaussian stars of σ 1–3 px and flux 300–60000. */
static float *
star_field (guint side, guint n_stars)
{
  float *f = g_new (float, (gsize) side * side);
  guint64 state = side * 0x9E3779B97F4A7C15ULL + 1;
  for (gsize i = 0; i < (gsize) side * side; i++)
    {
      double u = uniform (&state), v = uniform (&state);
      f[i] = (float) (100.0 + 0.01 * (i % side) + 0.005 * (i / side)
                      + 5.0 * sqrt (-2.0 * log (u + 1e-300)) * cos (2.0 * G_PI * v));
    }
  for (guint s = 0; s < n_stars; s++)
    {
      double cx = uniform (&state) * side, cy = uniform (&state) * side;
      double sigma = 1.0 + 2.0 * uniform (&state), flux = 300.0 * pow (200.0, uniform (&state));
      int r = (int) ceil (5.0 * sigma);
      double norm = flux / (2.0 * G_PI * sigma * sigma);
      for (int y = MAX (0, (int) cy - r); y <= MIN ((int) side - 1, (int) cy + r); y++)
        for (int x = MAX (0, (int) cx - r); x <= MIN ((int) side - 1, (int) cx + r); x++)
          {
            double dx = x - cx, dy = y - cy;
            f[(gsize) y * side + x] += (float) (norm * exp (-(dx * dx + dy * dy) / (2.0 * sigma * sigma)));
          }
    }
  return f;
}

/* Milliseconds of FN (N runs after one warm-up, rotating over COPIES), the median. */
typedef void (*Step) (int copy, gpointer data);

static double
time_events (Step fn, gpointer data, int copies, int repeat)
{
  cudaEvent_t a, b;
  check (cudaEventCreate (&a), "cudaEventCreate");
  check (cudaEventCreate (&b), "cudaEventCreate");
  double *ms = g_new (double, repeat);
  fn (0, data);
  for (int r = 0; r < repeat; r++)
    {
      check (cudaEventRecord (a, 0), "cudaEventRecord");
      fn ((r + 1) % copies, data);
      check (cudaEventRecord (b, 0), "cudaEventRecord");
      check (cudaEventSynchronize (b), "cudaEventSynchronize");
      float t;
      check (cudaEventElapsedTime (&t, a, b), "cudaEventElapsedTime");
      ms[r] = t;
    }
  double m = lm_bench_median (ms, repeat);
  g_free (ms);
  cudaEventDestroy (a);
  cudaEventDestroy (b);
  return m;
}

typedef struct {
  float **copies;
  size_t n;
  float *partials, *scratch;
  unsigned grid;
  LmKDetectWork work;
  int passes;
} Floor;

static void
read_step (int copy, gpointer data)
{
  Floor *f = data;
  check (lm_k_astro_read_floor (f->copies[copy], f->n, f->partials, f->grid, 0), "read");
}

static void
copy_step (int copy, gpointer data)
{
  Floor *f = data;
  check (cudaMemcpyAsync (f->scratch, f->copies[copy], f->n * sizeof (float), cudaMemcpyDeviceToDevice, 0), "copy");
}

static void
clip_sort_only (int copy, gpointer data)
{
  Floor *f = data;
  check (lm_k_clip_stats (f->copies[copy], f->n, 3.0, 0, &f->work, 0), "clip");
}

static void
clip_passes (int copy, gpointer data)
{
  Floor *f = data;
  check (lm_k_clip_stats (f->copies[copy], f->n, 3.0, f->passes, &f->work, 0), "clip");
}

static void
bench_size (LmBackend *gpu, guint side, int repeat, const char *field_dir, GString *json)
{
  g_autoptr (GError) e = NULL;
  size_t n = (size_t) side * side, bytes = n * sizeof (float);
  g_autofree float *host = star_field (side, side / 2048 * side / 2048 * 2000);
  if (field_dir)
    {
      g_autofree char *name = g_strdup_printf ("%s/field-%u.f32", field_dir, side);
      if (!g_file_set_contents (name, (const char *) host, (gssize) bytes, &e))
        lm_bench_die (PROGRAM, g_steal_pointer (&e));
    }
  int copies = MAX (2, (int) ((L2_BYTES + bytes - 1) / bytes));
  LmImage **images = g_new0 (LmImage *, copies);
  g_autoptr (LmImage) staged = lm_image_new (LM_FORMAT_GRAY_F32, side, side, lm_backend_host_allocator (gpu), &e);
  if (!staged)
    lm_bench_die (PROGRAM, g_steal_pointer (&e));
  for (guint y = 0; y < side; y++)
    memcpy (lm_image_row (staged, y), host + (size_t) y * side, side * sizeof (float));
  for (int c = 0; c < copies; c++)
    if (!(images[c] = lm_backend_upload (gpu, staged, &e)) || !lm_backend_synchronize (gpu, &e))
      lm_bench_die (PROGRAM, g_steal_pointer (&e));

  /* The pipeline through lm_detect: the device's time per step (CUDA events), and the wall
   * time of the call with its downloads. */
  LmDetectParams p;
  lm_detect_params_init (&p);
  enum { BACKGROUND, FILTER, SEGMENT, LABEL, MEASURE, TOTAL, WALL, N_FIGURES };
  static const char *names[N_FIGURES] = { "background", "filter", "segment", "label", "measure", "total", "wall" };
  double *figures[N_FIGURES];
  for (int k = 0; k < N_FIGURES; k++)
    figures[k] = g_new (double, repeat);
  guint n_sources = 0;
  for (int r = -1; r < repeat; r++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr (LmDetectResult) result = lm_detect (gpu, images[(r + copies) % copies], &p, NULL, &e);
      if (!result)
        lm_bench_die (PROGRAM, g_steal_pointer (&e));
      if (r < 0)
        continue; /* warm-up */
      double wall = (g_get_monotonic_time () - start) / 1000.0;
      const LmDetectTimings *t = &result->timings;
      double v[N_FIGURES] = { t->background, t->filter, t->segment, t->label, t->measure, t->total, wall };
      for (int k = 0; k < N_FIGURES; k++)
        figures[k][r] = v[k];
      n_sources = result->n_sources;
    }
  double median[N_FIGURES];
  for (int k = 0; k < N_FIGURES; k++)
    {
      median[k] = lm_bench_median (figures[k], repeat);
      g_free (figures[k]);
    }

  /* The floor and one clipping pass, on the same copies. */
  Floor f = { .copies = g_new (float *, copies), .n = n, .grid = 132 * 16 };
  for (int c = 0; c < copies; c++)
    f.copies[c] = (float *) images[c]->data;
  check (cudaMalloc ((void **) &f.partials, f.grid * sizeof (float)), "cudaMalloc");
  check (cudaMalloc ((void **) &f.scratch, bytes), "cudaMalloc");
  size_t work_bytes;
  void *work_memory;
  check (lm_k_detect_size (side, side, 0, &work_bytes), "lm_k_detect_size");
  check (cudaMalloc (&work_memory, work_bytes), "cudaMalloc");
  check (lm_k_detect_bind (side, side, 0, work_memory, &f.work), "lm_k_detect_bind");
  double read_ms = time_events (read_step, &f, copies, repeat);
  double copy_ms = time_events (copy_step, &f, copies, repeat);
  double sort_ms = time_events (clip_sort_only, &f, copies, repeat);
  f.passes = 10;
  double clip_ms = time_events (clip_passes, &f, copies, repeat);
  LmKClipStats stats;
  check (cudaMemcpy (&stats, f.work.global, sizeof stats, cudaMemcpyDeviceToHost), "cudaMemcpy");
  int passes = MAX (stats.iterations, 1);
  double pass_ms = (clip_ms - sort_ms) / passes;

  printf ("%u²: %u sources; device ms: background %.3f filter %.3f segment %.3f label %.3f measure %.3f "
          "total %.3f; wall %.3f (downloads included)\n",
          side, n_sources, median[BACKGROUND], median[FILTER], median[SEGMENT], median[LABEL], median[MEASURE],
          median[TOTAL], median[WALL]);
  printf ("%u²: floor: one read %.4f ms (%.0f GB/s), copy %.4f ms; clipping: sort and first pass %.4f ms, "
          "%d passes %.4f ms, one pass %.4f ms = %.2f× the floor\n",
          side, read_ms, bytes / read_ms / 1e6, copy_ms, sort_ms, passes, clip_ms, pass_ms, pass_ms / read_ms);
  GString *steps = g_string_new (NULL);
  for (int k = 0; k < N_FIGURES; k++)
    g_string_append_printf (steps, "%s\"%s_ms\": %.4f", k ? ", " : "", names[k], median[k]);
  lm_bench_json_add (json,
                     "\"size\": %u, \"sources\": %u, %s, \"floor_read_ms\": %.4f, \"floor_copy_ms\": %.4f, "
                     "\"clip_sort_ms\": %.4f, \"clip_passes\": %d, \"clip_ms\": %.4f, \"clip_pass_ms\": %.4f, "
                     "\"clip_pass_over_floor\": %.3f, \"repeat\": %d, \"copies\": %d",
                     side, n_sources, steps->str, read_ms, copy_ms, sort_ms, passes, clip_ms, pass_ms,
                     pass_ms / read_ms, repeat, copies);
  g_string_free (steps, TRUE);
  cudaFree (work_memory);
  cudaFree (f.partials);
  cudaFree (f.scratch);
  g_free (f.copies);
  for (int c = 0; c < copies; c++)
    lm_image_unref (images[c]);
  g_free (images);
}

int
main (int argc, char **argv)
{
  g_autofree char *sizes = NULL, *json_path = NULL, *field_dir = NULL;
  int repeat = 20;
  GOptionEntry entries[] = {
    { "sizes", 0, 0, G_OPTION_ARG_STRING, &sizes, "Sides of the square fields (2048,8192)", "LIST" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "Timed runs (20)", "N" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "Write the figures as JSON", "FILE" },
    { "write-field", 0, 0, G_OPTION_ARG_FILENAME, &field_dir, "Leave the fields there as raw float32", "DIR" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("— source detection on the GPU");
  g_option_context_add_main_entries (context, entries, NULL);
  g_autoptr (GError) e = NULL;
  if (!g_option_context_parse (context, &argc, &argv, &e) || repeat < 1)
    {
      fprintf (stderr, PROGRAM ": %s\n", e ? e->message : "--repeat must be at least 1");
      return 2;
    }
  LmBackend *gpu = lm_backend_new (LM_BACKEND_CUDA, &e);
  if (!gpu)
    {
      printf ("SKIP: %s\n", e->message);
      return 77;
    }
  GString *json = lm_bench_json_new ();
  g_auto (GStrv) list = g_strsplit (sizes ? sizes : "2048,8192", ",", -1);
  for (int i = 0; list[i]; i++)
    bench_size (gpu, (guint) g_ascii_strtoull (list[i], NULL, 10), repeat, field_dir, json);
  if (!lm_bench_json_finish (json, json_path, &e))
    lm_bench_die (PROGRAM, g_steal_pointer (&e));
  lm_backend_free (gpu);
  return 0;
}
