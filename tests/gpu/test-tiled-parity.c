/* The tiled render on the GPU (core/render/tiled.c) under a small simulated memory
 * (LUMEN_CUDA_MEMORY_LIMIT), against the untiled CUDA render (bit-identical) and the CPU
 * (the parity contract of test-parity.c: exact operations exact, straighten, resize and blur
 * within 1 each): a real photo upscaled to 100 MP under 8 GB and 1 GB, and a 30000 × 20000
 * (600 MP) image under 8 GB; all operations, and blur, equalize, straighten and resize alone.
 * The limit is read once, when the CUDA backend first allocates: each limit runs in a child
 * process of its own (this program with --limit BYTES). Prints tiles, lanes and times. Skips
 * without a device. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "core/edit/pipeline.h"
#include "core/error.h"
#include "core/io/io.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "parity-util.h"

static LmBackend *cpu, *gpu;

typedef struct {
  const char *name;
  const char *settings; /* "op.param=value …"; "op" alone enables it with its defaults */
  int tolerance;        /* max |Δ| against the CPU (8-bit steps) */
  gboolean on_600mp;
} Case;

static const Case cases[] = {
  { "all operations", "rotate.angle=90 straighten.angle=-2.5 crop.x=40 crop.y=30 wb.temperature=5200 exposure.ev=0.3 "
                      "contrast.contrast=0.2 saturation.saturation=0.2 equalize.amount=0.7 blur.sigma=3 "
                      "resize.width=7000", 3, TRUE },
  { "blur 5", "blur.sigma=5", 1, FALSE },
  { "blur 40 (grid)", "blur.sigma=40", 1, TRUE },
  { "sharpen 3", "sharpen.amount=2 sharpen.radius=3", 0, FALSE },
  { "crop and vignette", "crop.x=40 crop.y=30 vignette.amount=-1.5 vignette.roundness=0.5", 0, FALSE },
  { "equalize luma 0.8", "equalize.mode=luma equalize.amount=0.8", 0, FALSE },
  { "straighten 3", "straighten.angle=3", 1, FALSE },
  { "resize lanczos 70 %", "resize.width=8568", 1, FALSE },
  { "resize area 1/3", "resize.width=4080", 1, FALSE },
  /* Whole factors: integer sums on the GPU, bit for bit the CPU's in every tile. */
  { "resize area 1/2", "resize.width=6120", 0, FALSE },
  { "resize area 1/4", "resize.width=3060", 0, FALSE },
};

static void
pipeline_of (const char *settings, LmPipeline *pipeline)
{
  lm_pipeline_init (pipeline);
  g_auto (GStrv) words = g_strsplit (settings, " ", -1);
  for (int i = 0; words[i]; i++)
    {
      g_auto (GStrv) kv = g_strsplit (words[i], "=", 2);
      g_auto (GStrv) op_param = g_strsplit (kv[0], ".", 2);
      const LmOpInfo *info = lm_op_info_by_name (op_param[0]);
      g_assert_nonnull (info);
      LmStage *stage = lm_pipeline_stage (pipeline, info->id);
      stage->enabled = TRUE;
      for (guint p = 0; op_param[1] && p < info->n_params; p++)
        if (g_str_equal (info->params[p].name, op_param[1]))
          g_assert_true (lm_op_param_parse (info, &info->params[p], stage->params.bytes, kv[1], NULL));
    }
}

/* SOURCE (host) through PIPELINE in one piece on BACKEND, in host memory; NULL and the
 * reason printed where it does not fit. */
static LmImage *
render_untiled (LmBackend *backend, LmImage *source, const LmPipeline *pipeline, double *ms)
{
  GError *e = NULL;
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) work = lm_backend_upload (backend, source, &e);
  g_autoptr (LmRenderCache) cache = work ? lm_render_cache_new (backend, work) : NULL;
  g_autoptr (LmImage) out = cache ? lm_render_cache_run (cache, pipeline, NULL, &e) : NULL;
  LmImage *host = out ? lm_backend_download (backend, out, &e) : NULL;
  if (host && !lm_backend_synchronize (backend, &e))
    g_clear_pointer (&host, lm_image_unref);
  *ms = (g_get_monotonic_time () - t) / 1000.0;
  if (host == NULL)
    {
      printf ("     untiled on %s: %s\n", lm_backend_name (backend), e->message);
      g_error_free (e);
    }
  return host;
}

static void
check_case (const char *image_name, LmImage *source, const Case *c, guint64 limit)
{
  LmPipeline pipeline;
  pipeline_of (c->settings, &pipeline);
  LmFormat format;
  guint w, h;
  lm_render_tiled_output (source, &pipeline, &format, &w, &h);
  g_autoptr (LmImage) tiled = parity_poisoned (gpu, format, w, h, PARITY_POISON_GPU);
  LmTimings timings;
  lm_timings_init (&timings);
  GError *e = NULL;
  gint64 t = g_get_monotonic_time ();
  gboolean ok = lm_render_tiled (gpu, source, &pipeline, NULL, NULL, tiled, NULL, &timings, &e);
  double tiled_ms = (g_get_monotonic_time () - t) / 1000.0;
  const char *tiles = "";
  for (guint i = 0; i < timings.entries->len; i++)
    if (g_str_has_prefix (g_array_index (timings.entries, LmTiming, i).label, "tiles: "))
      tiles = g_array_index (timings.entries, LmTiming, i).label;
  g_autofree char *label = g_strdup_printf ("%s, %s, limit %" G_GUINT64_FORMAT " MiB", image_name, c->name,
                                            limit >> 20);
  parity_record (ok, "%-60s tiled on CUDA: %s, %.0f ms", label, ok ? tiles : e->message, tiled_ms);
  g_clear_error (&e);
  if (!ok)
    {
      lm_timings_clear (&timings);
      return;
    }

  double ms;
  /* The one-piece reference on the same GPU, with the limit lifted where it cannot fit under
   * it: tiles must give its bytes. */
  g_autoptr (LmImage) whole = render_untiled (gpu, source, &pipeline, &ms);
  const char *how = "";
  if (whole == NULL)
    {
      lm_backend_cuda_set_memory_limit (G_MAXSIZE);
      whole = render_untiled (gpu, source, &pipeline, &ms);
      /* What the one piece grew the backend's scratch to is not the tiles' to pay. */
      lm_backend_release_scratch (gpu);
      lm_backend_cuda_set_memory_limit (limit);
      how = ", without the limit";
    }
  if (whole)
    parity_record (parity_bytes_equal (whole, tiled), "%-60s tiled = untiled CUDA (%.0f ms untiled%s)", label, ms,
                   how);
  else
    parity_fail ("%s: no untiled CUDA reference", label);

  g_autoptr (LmImage) reference = render_untiled (cpu, source, &pipeline, &ms);
  if (reference == NULL)
    parity_fail ("%s: no CPU reference", label);
  else
    {
      guint64 pixels = 0;
      int worst = parity_u8_distance (reference, tiled, &pixels, NULL);
      parity_record (worst <= c->tolerance, "%-60s tiled CUDA against the CPU: max|Δ| %d (≤ %d), %" G_GUINT64_FORMAT
                     " pixels differ; CPU %.0f ms", label, worst, c->tolerance, pixels, ms);
    }
  lm_timings_clear (&timings);
}

/* The photo upscaled to about 100 MP (12240 × 8160 from 2560 × 1600: Lanczos on the CPU). */
static LmImage *
photo_100mp (void)
{
  const char *names[] = { "pier-fog.jpg", "forest-path.jpg", "chelsea.png" };
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("LUMEN_TEST_DATA"), "photos", names[i], NULL);
      g_autoptr (LmImage) photo = lm_io_load (path, lm_backend_host_allocator (gpu), NULL);
      if (photo == NULL)
        continue;
      LmResizeParams p = { 0 };
      p.width = 12240, p.height = 8160, p.mode = LM_RESIZE_EXACT;
      LmImage *big = lm_image_new (photo->format, 12240, 8160, lm_backend_host_allocator (gpu), NULL);
      g_assert_true (lm_backend_run_op (cpu, lm_op_info (LM_OP_RESIZE), &p, photo, big, NULL));
      printf ("100 MP: %s upscaled to 12240×8160\n", names[i]);
      return big;
    }
  return NULL;
}

/* 30000 × 20000: a gradient with a pattern, so that every operation has something to move. */
static LmImage *
synthetic_600mp (void)
{
  LmImage *image = lm_image_new (LM_FORMAT_RGBA8, 30000, 20000, lm_backend_host_allocator (gpu), NULL);
  if (image == NULL)
    return NULL;
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < image->height; y++)
    {
      guint8 *row = lm_image_row (image, y);
      for (guint x = 0; x < image->width; x++)
        {
          guint32 n = (x * 2654435761u) ^ (y * 40503u);
          row[4 * x] = (guint8) (x / 120 + (n >> 28));
          row[4 * x + 1] = (guint8) (y / 80 + ((n >> 20) & 15));
          row[4 * x + 2] = (guint8) ((x + y) / 200);
          row[4 * x + 3] = 255;
        }
    }
  return image;
}

/* One limit's run (a child process): every case of each image under it. */
static int
run_limit (guint64 limit)
{
  int skip = parity_open ("tiled parity", FALSE, &cpu, &gpu);
  if (skip)
    return skip;
  printf ("limit: %" G_GUINT64_FORMAT " MiB (LUMEN_CUDA_MEMORY_LIMIT), available %" G_GSIZE_FORMAT " MiB\n",
          limit >> 20, lm_backend_memory_available (gpu) >> 20);
  g_autoptr (LmImage) photo = photo_100mp ();
  if (photo == NULL)
    parity_fail ("no photo to upscale in %s/photos", g_getenv ("LUMEN_TEST_DATA"));
  for (guint i = 0; photo && i < G_N_ELEMENTS (cases); i++)
    check_case ("100 MP", photo, &cases[i], limit);
  g_clear_pointer (&photo, lm_image_unref);
  if (limit >= (G_GUINT64_CONSTANT (8) << 30))
    {
      g_autoptr (LmImage) big = synthetic_600mp ();
      for (guint i = 0; big && i < G_N_ELEMENTS (cases); i++)
        if (cases[i].on_600mp)
          check_case ("600 MP", big, &cases[i], limit);
    }
  printf ("tiled parity (limit %" G_GUINT64_FORMAT " MiB): %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT
          " failures\n", limit >> 20, parity_cases (), parity_failures ());
  lm_backend_free (gpu);
  lm_backend_free (cpu);
  return parity_failures () ? 1 : 0;
}

int
main (int argc, char **argv)
{
  if (argc == 3 && g_str_equal (argv[1], "--limit"))
    return run_limit (g_ascii_strtoull (argv[2], NULL, 10));

  /* The limits, each in a process of its own: the variable is read once. */
  const guint64 limits[] = { G_GUINT64_CONSTANT (8) << 30, G_GUINT64_CONSTANT (1) << 30 };
  int status = 0;
  /* This program by its path: run by name from PATH, argv[0] has none to spawn it by. */
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      g_autofree char *value = g_strdup_printf ("%" G_GUINT64_FORMAT, limits[i]);
      g_auto (GStrv) env = g_environ_setenv (g_get_environ (), "LUMEN_CUDA_MEMORY_LIMIT", value, TRUE);
      char *child[] = { self ? self : argv[0], "--limit", value, NULL };
      int wait = 0;
      GError *e = NULL;
      fflush (stdout);
      if (!g_spawn_sync (NULL, child, env, G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL, NULL, NULL, &wait, &e))
        {
          printf ("FAIL: %s\n", e->message);
          g_error_free (e);
          return 1;
        }
      if (WIFEXITED (wait) && WEXITSTATUS (wait) == 77)
        return 77;
      if (!WIFEXITED (wait) || WEXITSTATUS (wait) != 0)
        status = 1;
    }
  printf ("tiled parity: %s\n", status ? "FAILED" : "all limits passed");
  return status;
}
