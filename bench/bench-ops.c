/* bench-ops: times each operation on one image on a backend, the way a render runs it.
 *
 *   bench-ops [--backend cpu|cuda] [--repeat N] [--json FILE] IMAGE
 *
 * Per case: the operation alone (CUDA events around the kernels on the GPU, the host clock
 * on the CPU), median of N warm runs; on CUDA also end to end (upload, operation, download,
 * synchronized). Inputs rotate among several copies so that an image small enough for the
 * GPU's L2 cache is not timed from it. Not a test: figures go to bench/RESULTS.md.
 *
 * The fused point pass is timed with one and with every point operation on, against the
 * memory floor measured in the same run: a copy of the RGBA image into another buffer of the
 * backend (one read and one write of the same bytes, which is all the pass must do). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "core/backend/backend.h"
#include "core/edit/commit.h"
#include "core/io/io.h"
#include "core/ops/ops.h"
#include "core/ops/point.h"
#include "core/timing.h"

#include "bench-util.h"

#define N_COPIES 3

typedef struct {
  const char *name;
  LmOpId op;
  gboolean gray_input; /* run on the 8-bit gray version of the image */
  const char *const *settings; /* "param=value" pairs, NULL-terminated */
} BenchCase;

static const char *const gray_full[] = { "mode=bt601", NULL };
static const char *const gray_half[] = { "mode=bt601", "amount=0.5", NULL };
static const char *const eq_luma[] = { "mode=luma", NULL };
static const char *const eq_rgb[] = { "mode=rgb", NULL };
static const char *const blur_1[] = { "sigma=1", NULL };
static const char *const blur_2_5[] = { "sigma=2.5", NULL };
static const char *const blur_10[] = { "sigma=10", NULL };
static const char *const blur_50[] = { "sigma=50", NULL };
static const char *const toneeq_lift[] = { "shadows=1", "light_shadows=0.5", "highlights=-0.5", NULL };
static const char *const localcontrast_default[] = { "amount=0.3", NULL };
static const char *const denoise_est[] = { "luma=1.2", "chroma=1.5", NULL };
static const char *const denoise_given[] = { "luma=1.2", "chroma=1.5", "noise=10", NULL };
static const char *const sharpen_1[] = { "amount=1", "radius=1", "threshold=1", NULL };
static const char *const sharpen_4[] = { "amount=1", "radius=4", "threshold=1", NULL };
static const char *const vignette_1[] = { "amount=-1", NULL };
/* Geometry, as bench/npp-geometry.cu asks NPP for the same work. */
static const char *const rotate_90[] = { "angle=90", NULL };
static const char *const crop_corner[] = { "x=300", "y=200", NULL };
static const char *const straighten_1_5[] = { "angle=1.5", NULL };
/* Every correction of a lensfun profile: ptlens, poly3 TCA, vignetting, auto scale. */
static const char *const lens_24mm[] = { "lens=Canon EF 24-105mm f/4L IS USM", "camera=Canon EOS 5D Mark III",
                                         "focal=24", "aperture=4", NULL };
static const char *const resize_area[] = { "width=3000", "height=2000", NULL };
static const char *const resize_lanczos[] = { "width=4500", "height=3000", NULL };

static const BenchCase cases[] = {
  { "gray bt601 (rgba->gray)", LM_OP_GRAY, FALSE, gray_full },
  { "gray amount 0.5 (rgba->rgba)", LM_OP_GRAY, FALSE, gray_half },
  { "equalize (gray)", LM_OP_EQUALIZE, TRUE, eq_luma },
  { "equalize luma (rgba)", LM_OP_EQUALIZE, FALSE, eq_luma },
  { "equalize rgb (rgba)", LM_OP_EQUALIZE, FALSE, eq_rgb },
  { "blur sigma=1 (rgba)", LM_OP_BLUR, FALSE, blur_1 },
  { "blur sigma=2.5 (rgba)", LM_OP_BLUR, FALSE, blur_2_5 },
  { "blur sigma=10 (rgba)", LM_OP_BLUR, FALSE, blur_10 },
  { "blur sigma=10 (gray)", LM_OP_BLUR, TRUE, blur_10 },
  { "blur sigma=50 (rgba)", LM_OP_BLUR, FALSE, blur_50 },
  { "toneeq shadows +1 (rgba)", LM_OP_TONEEQ, FALSE, toneeq_lift },
  { "localcontrast amount=0.3 (rgba)", LM_OP_LOCALCONTRAST, FALSE, localcontrast_default },
  { "denoise, σ estimated (rgba)", LM_OP_DENOISE, FALSE, denoise_est },
  { "denoise, σ 10 (rgba)", LM_OP_DENOISE, FALSE, denoise_given },
  { "sharpen radius=1 (rgba)", LM_OP_SHARPEN, FALSE, sharpen_1 },
  { "sharpen radius=4 (rgba)", LM_OP_SHARPEN, FALSE, sharpen_4 },
  { "vignette amount=-1 (rgba)", LM_OP_VIGNETTE, FALSE, vignette_1 },
  { "rotate 90 (rgba)", LM_OP_ROTATE, FALSE, rotate_90 },
  { "crop from 300,200 (rgba)", LM_OP_CROP, FALSE, crop_corner },
  { "straighten 1.5 (rgba)", LM_OP_STRAIGHTEN, FALSE, straighten_1_5 },
  { "lens 24 mm, all corrections (rgba)", LM_OP_LENS, FALSE, lens_24mm },
  { "resize to 3000x2000, area (rgba)", LM_OP_RESIZE, FALSE, resize_area },
  { "resize to 4500x3000, lanczos (rgba)", LM_OP_RESIZE, FALSE, resize_lanczos },
};

/* The fused pass's cases: each a list of "op param=value …" steps. Operations not in this
 * build are left out of a case (and named in its line). */
typedef struct {
  const char *name;
  const char *const *steps;
} PointCase;

static const char *const points_one[] = { "exposure ev=0.7", NULL };
static const char *const points_all[] = {
  "wb temperature=4300 tint=12", "exposure ev=0.7", "contrast contrast=0.2 black=8 white=245",
  "curve points=0:0,64:50,192:210,255:255 mode=luma", "saturation saturation=0.2 vibrance=0.3", NULL,
};
/* The colour mixer's pixel part (Oklab there and back, per pixel) on every pixel. */
static const char *const points_colormix[] = {
  "colormix red_hue=10 orange_sat=-0.3 green_hue=-12 aqua_sat=0.5 blue_light=0.4 magenta_hue=5", NULL,
};

static const PointCase point_cases[] = {
  { "points: exposure", points_one },
  { "points: wb+exposure+contrast+curve+saturation", points_all },
  { "points: colormix", points_colormix },
};

static void
add_record (GString *json, const char *name, const char *backend, double op_ms, double end_to_end_ms,
            const LmImage *source)
{
  lm_bench_json_add (json, "\"case\": \"%s\", \"backend\": \"%s\", \"op_ms\": %.4f, \"end_to_end_ms\": %.4f, "
                     "\"width\": %u, \"height\": %u", name, backend, op_ms, end_to_end_ms, source->width,
                     source->height);
}

/* The 8-bit gray version of IMAGE, on the backend. */
static LmImage *
gray_version (LmBackend *backend, LmImage *work)
{
  GError *e = NULL;
  const LmOpInfo *op = lm_op_info (LM_OP_GRAY);
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  lm_op_params_init (op, params);
  LmImage *gray = lm_image_new (op->output_format (params, work->format, work->opaque), work->width,
                                work->height, lm_backend_work_allocator (backend), &e);
  if (gray == NULL || !lm_backend_run_op (backend, op, params, work, gray, &e)
      || !lm_backend_synchronize (backend, &e))
    lm_bench_die ("bench-ops", e);
  return gray;
}

/* PASS from CASE's steps; the number of operations it holds. */
static int
build_pass (const PointCase *pc, LmPointPass *pass)
{
  GError *e = NULL;
  int n = 0;
  lm_point_pass_init (pass);
  for (int s = 0; pc->steps[s]; s++)
    {
      g_auto (GStrv) words = g_strsplit (pc->steps[s], " ", -1);
      const LmOpInfo *op = lm_op_info_by_name (words[0]);
      if (op == NULL || !lm_op_is_point (op->id))
        continue;
      guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
      lm_op_params_init (op, params);
      for (int w = 1; words[w]; w++)
        {
          g_auto (GStrv) kv = g_strsplit (words[w], "=", 2);
          for (guint k = 0; k < op->n_params; k++)
            if (g_str_equal (op->params[k].name, kv[0]) && !lm_op_param_parse (op, &op->params[k], params, kv[1], &e))
              lm_bench_die ("bench-ops", e);
        }
      lm_point_pass_add (pass, op, params);
      n++;
    }
  return n;
}

/* Median time of REPEAT runs of the copy (PASS NULL) or the pass from INPUTS to OUTPUTS. */
static double
time_pass (LmBackend *backend, const LmPointPass *pass, LmImage **inputs, LmImage **outputs, int repeat,
           double *ms)
{
  GError *e = NULL;
  for (int r = -N_COPIES; r < repeat; r++)
    {
      int i = (r + N_COPIES) % N_COPIES;
      LmMark a, b;
      lm_backend_mark (backend, &a);
      gboolean ok = pass ? lm_backend_run_points (backend, pass, inputs[i], outputs[i], &e)
                         : lm_backend_copy (backend, inputs[i], outputs[i], &e);
      if (!ok)
        lm_bench_die ("bench-ops", e);
      lm_backend_mark (backend, &b);
      if (!lm_backend_synchronize (backend, &e))
        lm_bench_die ("bench-ops", e);
      if (r >= 0)
        ms[r] = lm_backend_elapsed_ms (backend, &a, &b);
    }
  return lm_bench_median (ms, repeat);
}

/* The memory floor, then each point case with its ratio to it. */
static void
bench_points (LmBackend *backend, const char *backend_name, LmImage **rgba, const LmImage *source, int repeat,
              const char *only, GString *json)
{
  GError *e = NULL;
  LmImage *outputs[N_COPIES];
  for (int i = 0; i < N_COPIES; i++)
    if ((outputs[i] = lm_image_new (LM_FORMAT_RGBA8, source->width, source->height,
                                    lm_backend_work_allocator (backend), &e)) == NULL)
      lm_bench_die ("bench-ops", e);
  double *ms = g_new (double, repeat);
  double floor_ms = time_pass (backend, NULL, rgba, outputs, repeat, ms);
  double gbps = 2.0 * lm_image_size_bytes (source) / (floor_ms * 1e6);
  printf ("%-30s %12.3f %14s  (%.0f GB/s read + write)\n", "memory floor (copy rgba)", floor_ms, "", gbps);
  add_record (json, "memory floor (copy rgba)", backend_name, floor_ms, floor_ms, source);
  for (guint c = 0; c < G_N_ELEMENTS (point_cases); c++)
    {
      const PointCase *pc = &point_cases[c];
      if (only && !strstr (pc->name, only))
        continue;
      LmPointPass pass;
      int n = build_pass (pc, &pass);
      double pass_ms = time_pass (backend, &pass, rgba, outputs, repeat, ms);
      printf ("%-30s %12.3f %14s  (%d operation%s, %.2f× the floor)\n", pc->name, pass_ms, "", n, n == 1 ? "" : "s",
              pass_ms / floor_ms);
      add_record (json, pc->name, backend_name, pass_ms, pass_ms, source);
    }
  g_free (ms);
  for (int i = 0; i < N_COPIES; i++)
    lm_image_unref (outputs[i]);
}

int
main (int argc, char **argv)
{
  const char *backend_name = "cpu", *json_path = NULL;
  int repeat = 20;
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &backend_name, "cpu or cuda", "B" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat, "timed runs per case (median)", "N" },
    { "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "also write the results here", "FILE" },
    { NULL },
  };
  GError *e = NULL;
  g_autoptr (GOptionContext) context = g_option_context_new ("IMAGE");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &e) || argc != 2 || repeat < 1)
    {
      fprintf (stderr, "usage: bench-ops [--backend cpu|cuda] [--repeat N] [--json FILE] IMAGE\n");
      return 2;
    }

  LmBackendKind kind;
  if (!lm_backend_kind_parse (backend_name, &kind))
    return 2;
  g_autoptr (LmBackend) backend = lm_backend_new (kind, &e);
  if (backend == NULL)
    lm_bench_die ("bench-ops", e);
  g_autoptr (LmImage) source = lm_io_load (argv[1], lm_backend_host_allocator (backend), &e);
  if (source == NULL)
    lm_bench_die ("bench-ops", e);

  LmImage *rgba[N_COPIES], *gray[N_COPIES];
  for (int i = 0; i < N_COPIES; i++)
    {
      rgba[i] = lm_backend_upload (backend, source, &e);
      if (rgba[i] == NULL || !lm_backend_synchronize (backend, &e))
        lm_bench_die ("bench-ops", e);
      gray[i] = gray_version (backend, rgba[i]);
    }

  /* LUMEN_BENCH_ONLY=text runs only the cases whose name contains it (for profilers). */
  const char *only = g_getenv ("LUMEN_BENCH_ONLY");
  g_autoptr (GString) json = lm_bench_json_new ();
  printf ("# %s, %u×%u, median of %d\n", backend->description, source->width, source->height, repeat);
  printf ("%-30s %12s %14s\n", "case", "op ms", "end-to-end ms");

  /* The live histogram after each render (events around the kernels and the 4 KiB of counts
   * coming back), of the RGBA image and of its gray version. */
  for (int g = 0; g < 2; g++)
    {
      const char *name = g ? "histogram (gray)" : "histogram (rgba)";
      if (only && !strstr (name, only))
        continue;
      double *hist_ms = g_new (double, repeat);
      LmHistogram hist;
      for (int r = -1; r < repeat; r++)
        {
          LmImage *in = (g ? gray : rgba)[(r + N_COPIES) % N_COPIES];
          LmMark a, b;
          lm_backend_mark (backend, &a);
          if (!lm_backend_histogram (backend, in, LM_HIST_WANT_ALL, &hist, &e))
            lm_bench_die ("bench-ops", e);
          lm_backend_mark (backend, &b);
          if (!lm_backend_synchronize (backend, &e))
            lm_bench_die ("bench-ops", e);
          if (r >= 0)
            hist_ms[r] = lm_backend_elapsed_ms (backend, &a, &b);
        }
      double ms = lm_bench_median (hist_ms, repeat);
      printf ("%-30s %12.3f %14s\n", name, ms, "");
      add_record (json, name, backend_name, ms, ms, source);
      g_free (hist_ms);
    }

  bench_points (backend, backend_name, rgba, source, repeat, only, json);

  double *op_ms = g_new (double, repeat), *e2e_ms = g_new (double, repeat);

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const BenchCase *bc = &cases[c];
      if (only && !strstr (bc->name, only))
        continue;
      const LmOpInfo *op = lm_op_info (bc->op);
      guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
      lm_op_params_init (op, params);
      for (int s = 0; bc->settings[s]; s++)
        {
          g_auto (GStrv) kv = g_strsplit (bc->settings[s], "=", 2);
          for (guint k = 0; k < op->n_params; k++)
            if (g_str_equal (op->params[k].name, kv[0])
                && !lm_op_param_parse (op, &op->params[k], params, kv[1], &e))
              lm_bench_die ("bench-ops", e);
        }
      if (op->commit) /* as a render commits it: sRGB, the lens's profile from lensfun */
        {
          LmOpContext context;
          lm_op_context_init (&context, NULL);
          op->commit (params, &context);
        }
      LmImage **inputs = bc->gray_input ? gray : rgba;
      LmImage *outputs[N_COPIES];
      guint out_w, out_h;
      lm_op_output_size (op, params, source->width, source->height, &out_w, &out_h);
      for (int i = 0; i < N_COPIES; i++)
        {
          outputs[i] = lm_image_new (op->output_format (params, inputs[i]->format, inputs[i]->opaque), out_w,
                                     out_h, lm_backend_work_allocator (backend), &e);
          if (outputs[i] == NULL)
            lm_bench_die ("bench-ops", e);
        }

      /* Warm-up: module load, first-touch page faults, OpenMP thread start. */
      for (int i = 0; i < N_COPIES; i++)
        if (!lm_backend_run_op (backend, op, params, inputs[i], outputs[i], &e)
            || !lm_backend_synchronize (backend, &e))
          lm_bench_die ("bench-ops", e);

      for (int r = 0; r < repeat; r++)
        {
          int i = r % N_COPIES;
          LmMark a, b;
          lm_backend_mark (backend, &a);
          if (!lm_backend_run_op (backend, op, params, inputs[i], outputs[i], &e))
            lm_bench_die ("bench-ops", e);
          lm_backend_mark (backend, &b);
          if (!lm_backend_synchronize (backend, &e))
            lm_bench_die ("bench-ops", e);
          op_ms[r] = lm_backend_elapsed_ms (backend, &a, &b);
        }
      double op_median = lm_bench_median (op_ms, repeat);

      /* End to end on the GPU: pinned host image in, result back in pinned host memory,
       * into buffers allocated once, as a render does. */
      double e2e_median = op_median;
      if (kind != LM_BACKEND_CPU)
        {
          g_autoptr (LmImage) host_in = lm_backend_download (backend, inputs[0], &e);
          g_autoptr (LmImage) host_out = host_in ? lm_backend_download (backend, outputs[0], &e) : NULL;
          if (host_out == NULL || !lm_backend_synchronize (backend, &e))
            lm_bench_die ("bench-ops", e);
          for (int r = 0; r < repeat; r++)
            {
              int i = r % N_COPIES;
              gint64 t = g_get_monotonic_time ();
              if (!lm_backend_copy (backend, host_in, inputs[i], &e)
                  || !lm_backend_run_op (backend, op, params, inputs[i], outputs[i], &e)
                  || !lm_backend_copy (backend, outputs[i], host_out, &e)
                  || !lm_backend_synchronize (backend, &e))
                lm_bench_die ("bench-ops", e);
              e2e_ms[r] = lm_ms_since (t);
            }
          e2e_median = lm_bench_median (e2e_ms, repeat);
        }

      printf ("%-30s %12.3f %14.3f\n", bc->name, op_median, e2e_median);
      add_record (json, bc->name, backend_name, op_median, e2e_median, source);
      for (int i = 0; i < N_COPIES; i++)
        lm_image_unref (outputs[i]);
    }
  if (!lm_bench_json_finish (json, json_path, &e))
    lm_bench_die ("bench-ops", e);

  for (int i = 0; i < N_COPIES; i++)
    {
      lm_image_unref (rgba[i]);
      lm_image_unref (gray[i]);
    }
  g_free (op_ms);
  g_free (e2e_ms);
  return 0;
}
