/* lumen-cli compare [operation flags] IN: the same pipeline on two backends (CPU and CUDA by
 * default), their warm timings, the speedup, and how far the results differ. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cli.h"
#include "config.h"
#include "core/color/profile.h"
#include "core/ops/compare.h"
#include "core/error.h"
#include "core/io/io.h"
#include "core/render/cache.h"
#include "core/render/tiled.h"
#include "core/timing.h"

typedef struct {
  char *backends;
  char *heatmap;
  double gain;
  char **inputs;
} Options;

typedef struct {
  LmBackend *backend;
  LmTimings timings; /* the warm run's operations */
  double upload_ms, download_ms, ops_ms;
  LmImage *result;   /* host memory */
  /* With transfers: the same render streamed in tiles (copies overlapping the operations),
   * from the host's photo to the host's result; 0 where the pipeline is not tiled. */
  double streamed_ms;
  char *streamed_how;      /* the tiles and lanes */
  gboolean streamed_same;  /* its bytes are the one-piece result's */
} Side;

static void
side_clear (Side *side)
{
  g_clear_pointer (&side->streamed_how, g_free);
  lm_timings_clear (&side->timings);
  g_clear_pointer (&side->result, lm_image_unref);
  g_clear_pointer (&side->backend, lm_backend_free);
}

static gboolean
same_pixels (const LmImage *a, const LmImage *b)
{
  if (!lm_image_same_shape (a, b))
    return FALSE;
  gsize row = (gsize) a->width * lm_format_bytes_per_pixel (a->format);
  for (guint y = 0; y < a->height; y++)
    if (memcmp (lm_image_row (a, y), lm_image_row (b, y), row) != 0)
      return FALSE;
  return TRUE;
}

/* What a render of a file on a device costs when its copies need not wait for each other:
 * the pipeline in tiles (lm_render_tiled: each tile's upload and download overlap another
 * lane's operations), from HOST, the photo in pinned memory, to a pinned result; the first
 * run warms up, the second is timed, each a whole render (lanes, buffers and all). */
static gboolean
render_streamed (Side *side, const LmImage *host, const LmPipeline *pipeline, LmColorProfile *color,
                 GError **error)
{
  LmBackend *b = side->backend;
  LmFormat format;
  guint width, height;
  lm_render_tiled_output (host, pipeline, &format, &width, &height);
  g_autoptr (LmImage) out = lm_image_new (format, width, height, lm_backend_host_allocator (b), error);
  if (out == NULL)
    return FALSE;
  for (int run = 0; run < 2; run++)
    {
      LmTimings timings;
      lm_timings_init (&timings);
      GError *local = NULL;
      gint64 t = g_get_monotonic_time ();
      gboolean ok = lm_render_tiled (b, host, pipeline, color, NULL, out, NULL, &timings, &local)
                    && lm_backend_synchronize (b, &local);
      side->streamed_ms = lm_ms_since (t);
      if (ok && timings.entries->len > 0)
        {
          g_free (side->streamed_how);
          const LmTiming *last = &g_array_index (timings.entries, LmTiming, timings.entries->len - 1);
          side->streamed_how = g_strdup (last->label);
        }
      lm_timings_clear (&timings);
      if (!ok)
        {
          /* A figure beside the comparison: its failure leaves the comparison whole. A radiance
           * photo is never tiled (its tone mapping needs the whole image), which goes unsaid. */
          if (!g_error_matches (local, LUMEN_ERROR, LM_ERROR_UNSUPPORTED))
            lm_cli_error (_("%s: no streamed figure: %s"), lm_backend_name (b), local->message);
          g_error_free (local);
          side->streamed_ms = 0.0;
          return TRUE;
        }
    }
  side->streamed_same = same_pixels (out, side->result);
  return TRUE;
}

/* Upload, render twice (the first warms the device up and allocates; the second, with
 * fresh caches, is timed), download. Every host buffer the device reads or writes is the
 * backend's (pinned with CUDA) and allocated before its transfer is timed: pinning 200 MB
 * costs more than moving it, and a job that repeats keeps its buffers. */
static gboolean
render (Side *side, LmImage *source, const LmPipeline *pipeline, GError **error)
{
  LmBackend *b = side->backend;
  lm_timings_init (&side->timings);
  gint64 t = g_get_monotonic_time ();
  g_autoptr (LmImage) host = lm_image_new (source->format, source->width, source->height,
                                           lm_backend_host_allocator (b), error);
  if (host == NULL || !lm_backend_copy (b, source, host, error))
    return FALSE;
  t = g_get_monotonic_time ();
  g_autoptr (LmImage) work = lm_backend_upload (b, host, error);
  if (work == NULL || !lm_backend_synchronize (b, error))
    return FALSE;
  side->upload_ms = lm_ms_since (t);

  g_autoptr (LmColorProfile) color = lm_color_profile_new (source->icc_profile, NULL);
  g_autoptr (LmRenderCache) warm = lm_render_cache_new (b, work);
  lm_render_cache_set_color (warm, color);
  g_autoptr (LmImage) first = lm_render_cache_run (warm, pipeline, NULL, error);
  if (first == NULL)
    return FALSE;
  g_autoptr (LmRenderCache) timed = lm_render_cache_new (b, work);
  lm_render_cache_set_color (timed, color);
  g_autoptr (LmImage) result = lm_render_cache_run (timed, pipeline, &side->timings, error);
  if (result == NULL)
    return FALSE;
  side->ops_ms = lm_timings_total (&side->timings);

  side->result = lm_image_new (result->format, result->width, result->height, lm_backend_host_allocator (b),
                               error);
  if (side->result == NULL)
    return FALSE;
  t = g_get_monotonic_time ();
  if (!lm_backend_copy (b, result, side->result, error) || !lm_backend_synchronize (b, error))
    return FALSE;
  side->download_ms = lm_ms_since (t);
  return !lm_cli_backend_transfers (b) || render_streamed (side, host, pipeline, color, error);
}

/* What a user waits for on SIDE: its operations, and where it has a device, the way there
 * and back. A CPU pipeline reads and writes the photo where it lies: no transfers. */
static double
end_to_end_ms (const Side *side)
{
  double ms = side->ops_ms;
  if (lm_cli_backend_transfers (side->backend))
    ms += side->upload_ms + side->download_ms;
  return ms;
}

static void
print_side (const Side *side)
{
  printf ("%s: %s\n", lm_backend_name (side->backend), side->backend->description);
  lm_timings_print (&side->timings, stdout);
  if (lm_cli_backend_transfers (side->backend))
    printf ("  %-10s %10.2f ms\n  %-10s %10.2f ms\n  %-10s %10.2f ms\n", _("upload"), side->upload_ms,
            _("download"), side->download_ms, _("end to end"), end_to_end_ms (side));
  if (side->streamed_ms > 0.0)
    printf ("  %-10s %10.2f ms (%s; %s)\n", _("streamed"), side->streamed_ms, side->streamed_how,
            side->streamed_same ? _("the same bytes as in one piece") : _("NOT the bytes of the render in one piece"));
}

/* A side's time from the photo in host memory to its result there: with transfers, the
 * faster of one piece and streamed (when streaming gives the same bytes). */
static double
host_to_host_ms (const Side *side)
{
  double ms = end_to_end_ms (side);
  if (side->streamed_ms > 0.0 && side->streamed_same && side->streamed_ms < ms)
    ms = side->streamed_ms;
  return ms;
}

/* Transfers change the comparison only where a side makes them: CPU against CPU has none. */
static void
print_speedup (const Side *sides)
{
  double a = sides[0].ops_ms, b = sides[1].ops_ms;
  const char *name_a = lm_backend_name (sides[0].backend), *name_b = lm_backend_name (sides[1].backend);
  if (!lm_cli_backend_transfers (sides[0].backend) && !lm_cli_backend_transfers (sides[1].backend))
    {
      printf (_("speedup of %s over %s: %.1f× on the operations\n"), name_b, name_a, b > 0 ? a / b : 0.0);
      return;
    }
  double a_all = end_to_end_ms (&sides[0]), b_all = end_to_end_ms (&sides[1]);
  printf (_("speedup of %s over %s: %.1f× on the operations, %.1f× end to end (upload, operations and "
            "download)\n"),
          name_b, name_a, b > 0 ? a / b : 0.0, b_all > 0 ? a_all / b_all : 0.0);
  if (sides[0].streamed_ms > 0.0 || sides[1].streamed_ms > 0.0)
    {
      double a_best = host_to_host_ms (&sides[0]), b_best = host_to_host_ms (&sides[1]);
      printf (_("speedup of %s over %s, streamed in tiles where that is faster: %.1f×\n"), name_b, name_a,
              b_best > 0 ? a_best / b_best : 0.0);
    }
}

static gboolean
run (const Options *o, const LmPipeline *pipeline, GError **error)
{
  g_auto (GStrv) names = g_strsplit (o->backends, ",", -1);
  LmBackendKind kinds[2];
  if (g_strv_length (names) != 2 || !lm_backend_kind_parse (names[0], &kinds[0])
      || !lm_backend_kind_parse (names[1], &kinds[1]) || kinds[0] == LM_BACKEND_AUTO
      || kinds[1] == LM_BACKEND_AUTO)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--backends: give two of cpu and cuda, e.g. cpu,cuda"));
      return FALSE;
    }

  Side sides[2] = { { 0 } };
  gboolean ok = FALSE;
  for (int i = 0; i < 2; i++)
    if ((sides[i].backend = lm_backend_new (kinds[i], error)) == NULL)
      goto out;
  if (o->heatmap && !lm_cli_check_output (o->heatmap, FALSE, error))
    goto out;

  {
    g_autoptr (LmImage) source = lm_cli_load_photo (o->inputs[0], lm_allocator_host (), error);
    if (source == NULL)
      goto out;
    for (int i = 0; i < 2; i++)
      if (!render (&sides[i], source, pipeline, error))
        goto out;

    g_autoptr (LmImage) heat = NULL;
    if (o->heatmap)
      {
        heat = lm_image_new (LM_FORMAT_RGBA8, source->width, source->height, lm_allocator_host (), error);
        if (heat == NULL)
          goto out;
      }
    LmDiffSums sums;
    lm_diff_cpu (sides[0].result, sides[1].result, (float) o->gain, heat, &sums);
    LmDiffStats stats;
    lm_diff_stats_from_sums (&sums, &stats);

    printf ("%s: %u×%u %s\n", _("image"), source->width, source->height, lm_format_name (source->format));
    for (int i = 0; i < 2; i++)
      print_side (&sides[i]);
    print_speedup (sides);
    g_autofree char *described = lm_diff_stats_describe (&stats);
    printf ("%s: %s\n", _("diff"), described);
    if (heat && !lm_io_save (heat, o->heatmap, NULL, error))
      goto out;
    ok = TRUE;
  }
out:
  for (int i = 0; i < 2; i++)
    side_clear (&sides[i]);
  return ok;
}

int
lm_cli_compare_main (int argc, char **argv)
{
  Options o = { .gain = 10.0 };
  const GOptionEntry entries[] = {
    { "backends", 0, 0, G_OPTION_ARG_STRING, &o.backends,
      N_("The two backends to compare (default cpu,cuda)"), N_("A,B") },
    { "heatmap", 0, 0, G_OPTION_ARG_FILENAME, &o.heatmap,
      N_("Write |Δ| × gain as a heatmap (transparent where equal)"), N_("OUT") },
    LM_CLI_NUMBER_ENTRY ("gain", N_("Heatmap gain (default 10)"), N_("G")),
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  static LmCliNumber numbers[1];
  numbers[0] = (LmCliNumber) { "--gain", 0.0, 1000.0, FALSE, &o.gain };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  g_autoptr (LmCliOps) ops = lm_cli_ops_new ();
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("IN"),
                          _("Runs the operations on two backends (the CPU and CUDA by "
                            "default) and prints\nboth timings, the speedup and how "
                            "far the results differ."),
                          NULL, lm_cli_ops_group (ops), entries);

  int rc = LM_EXIT_OK;
  GError *e = NULL;
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (o.inputs == NULL || o.inputs[0] == NULL || o.inputs[1] != NULL)
    rc = lm_cli_usage_error (_("give one input photo"));
  else if (!(o.gain > 0.0 && o.gain <= 1000.0))
    rc = lm_cli_usage_error (_("--gain must be within 0..1000"));
  else if (!lm_cli_ops_apply_for (ops, &pipeline, o.inputs[0], &e))
    {
      lm_cli_error ("%s", e->message);
      rc = LM_EXIT_FAILURE;
    }
  else
    {
      if (o.backends == NULL)
        o.backends = g_strdup ("cpu,cuda");
      if (!run (&o, &pipeline, &e))
        {
          rc = e->domain == G_OPTION_ERROR ? LM_EXIT_USAGE : LM_EXIT_FAILURE;
          lm_cli_error ("%s", e->message);
        }
    }
  g_clear_error (&e);
  g_free (o.backends);
  g_free (o.heatmap);
  g_strfreev (o.inputs);
  return rc;
}
