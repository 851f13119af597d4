/* lumen-cli batch develop: many photos, each developed as `lumen-cli --params SIDECAR -o OUT
 * PHOTO` develops it, with the HDR batch's journal, resume, shards and output folder lock. */
#include <errno.h>
#include <stdio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-batch.h"
#include "cli.h"
#include "core/batch/backends.h"
#include "core/batch/commit.h"
#include "core/batch/develop-list.h"
#include "core/batch/develop.h"
#include "core/batch/outdir-lock.h"
#include "core/batch/progress.h"
#include "core/batch/stack-list.h"
#include "core/error.h"
#include "core/library/presets.h"

typedef struct {
  char *backend, *devices, *encoder, *preset, *pattern, *format, *shard, *progress, *output, *report;
  int jobs, threads, quality, png_level, size, shard_count;
  gboolean timings, to_srgb;
  char **inputs;
} Options;

typedef struct {
  LmDevelopConfig config;
  LmBackendKind backend;
  GArray *devices;
  LmShard shard;
  LmProgressMode progress;
  char *preset_path;
  LmStage resize; /* --size */
} Plan;

static gboolean
usage (GError **error, const char *message)
{
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, message);
  return FALSE;
}

/* The preset for every photo: a sidecar-form file, read once here so that a bad one stops the
 * command before any photo is touched. */
static gboolean
plan_preset (const Options *o, Plan *p, GError **error)
{
  if (o->preset == NULL)
    return TRUE;
  p->preset_path = lm_preset_resolve (o->preset, error);
  if (p->preset_path == NULL)
    return FALSE;
  LmPipeline check;
  lm_pipeline_init (&check);
  if (!lm_pipeline_load_sidecar (&check, p->preset_path, error))
    return FALSE;
  p->config.preset = p->preset_path;
  return TRUE;
}

static gboolean
plan (const Options *o, Plan *p, GError **error)
{
  if (o->output == NULL)
    return usage (error, _("no output folder: give -o OUTDIR"));
  if (o->inputs == NULL || o->inputs[0] == NULL)
    return usage (error, _("no input: give folders of photos or .tsv manifests"));
  const char *format = o->format ? o->format : "jpg";
  if (!g_str_equal (format, "jpg") && !g_str_equal (format, "png") && !g_str_equal (format, "tif"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--format: unknown “%s” (jpg, png or tif)"),
                   format);
      return FALSE;
    }
  p->config.ext = format;
  if (o->quality < 1 || o->quality > 100)
    return usage (error, _("--quality must be between 1 and 100"));
  if (o->size < 0 || o->jobs < 0 || o->threads < 0 || o->shard_count < 0)
    return usage (error, _("--size, --jobs, --threads and --shard-count must be positive"));
  p->config.save = (LmSaveOptions) LM_SAVE_OPTIONS_INIT;
  p->config.save.quality = o->quality;
  p->config.save.png_level = o->png_level;
  p->config.save.to_srgb = o->to_srgb;
  if (o->size)
    {
      lm_develop_long_side (&p->resize, (guint) o->size);
      p->config.resize = &p->resize;
    }
  p->config.load_threads = (guint) o->threads;
  p->config.outdir = o->output;
  if (o->encoder && !g_str_equal (o->encoder, "cpu") && !g_str_equal (o->encoder, "nvjpeg"))
    return usage (error, _("--encoder must be cpu or nvjpeg"));
  p->config.nvjpeg = g_strcmp0 (o->encoder, "nvjpeg") == 0;
  if (p->config.nvjpeg && !g_str_equal (format, "jpg"))
    return usage (error, _("--encoder nvjpeg encodes JPEG files: give --format jpg"));
  if (!lm_develop_pattern_check (o->pattern ? o->pattern : LM_DEVELOP_PATTERN_DEFAULT, error))
    return FALSE;
  if (!lm_cli_parse_backend (o->backend, &p->backend, error) || !lm_batch_devices_parse (o->devices, &p->devices, error))
    return FALSE;
  p->config.asked = p->backend;
  p->progress = LM_PROGRESS_AUTO;
  if (o->progress && !lm_progress_mode_parse (o->progress, &p->progress))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--progress: unknown “%s” (auto, bar, plain or none)"), o->progress);
      return FALSE;
    }
  if (o->shard)
    return lm_shard_parse (o->shard, &p->shard, error);
  return lm_shard_from_environment ((guint) o->shard_count, &p->shard, error);
}

static void
show_progress (guint done, guint failed, gpointer data)
{
  lm_progress_update (data, done, failed);
}

static void
print_timings (const Plan *p, const LmDevelopStats *stats)
{
  guint n = MAX (stats->done + stats->failed, 1);
  for (guint i = 0; i < p->config.backends->len; i++)
    printf (_("render worker: %s\n"), ((LmBackend *) g_ptr_array_index (p->config.backends, i))->description);
  printf (_("load %.1f ms/photo, render %.1f ms/photo, write %.1f ms/photo (summed over threads)\n"),
          stats->load_ms / n, stats->render_ms / n, stats->write_ms / n);
  g_autoptr (GString) stages = g_string_new (NULL);
  for (guint i = 0; i < stats->n_stages; i++)
    g_string_append_printf (stages, "%s%s %.1f", i ? ", " : "", stats->stages[i].label, stats->stages[i].ms / n);
  if (stages->len > 0)
    printf (_("of the render, in ms/photo: %s\n"), stages->str);
  g_autofree char *peak = g_format_size (stats->buffer_peak_bytes);
  printf (_("host buffers: %llu asked for, %llu allocated, at most %s in use\n"), (unsigned long long) stats->buffers,
          (unsigned long long) stats->fresh_buffers, peak);
  printf (_("wall: %.2f s, %.2f photos/s\n"), stats->wall_s,
          stats->wall_s > 0 ? (stats->done + stats->failed) / stats->wall_s : 0.0);
}

/* FALSE with ERROR when the batch could not run or was stopped; FAILED: photos that failed. */
static gboolean
run_batch (const Options *o, Plan *p, LmBatchList *list, guint *failed, GError **error)
{
  if (!lm_outdir_make (o->output, error) || !lm_develop_outputs_apart (list, o->output, p->config.ext, error))
    return FALSE;
  g_autoptr (LmOutdirLock) lock = lm_cli_batch_admit (o->output, &p->shard, list, error);
  if (lock == NULL)
    return FALSE;

  p->config.backends = lm_batch_backends_open (p->backend, p->devices, (guint) o->jobs, error);
  if (p->config.backends == NULL)
    return FALSE;
  guint share = lm_cli_batch_share (&p->shard, list), before = 0;
  LmJournal *journal = lm_journal_open (o->output, &p->shard, share, list->stacks->len, error);
  if (journal == NULL)
    return FALSE;
  g_autoptr (GPtrArray) todo = lm_cli_batch_todo (o->output, p->config.ext, &p->shard, 0, list, journal, &before,
                                                  error);
  LmDevelopStats stats = { 0 };
  gboolean ok = FALSE;
  if (todo)
    {
      LmProgress *progress = lm_progress_new (p->progress, share, before);
      lm_progress_count_photos (progress);
      p->config.progress = show_progress;
      p->config.progress_data = progress;
      ok = lm_develop_batch_run (&p->config, todo, journal, NULL, &stats, error);
      lm_progress_finish (progress, stats.done, stats.failed);
    }
  lm_cli_batch_close_journal (journal, &ok, error);
  if (todo && o->timings)
    print_timings (p, &stats);
  if (stats.noted)
    {
      g_autofree char *name = lm_shard_file_name (&p->shard, "notes");
      g_autofree char *path = g_build_filename (o->output, name, NULL);
      g_autofree char *display = g_filename_display_name (path);
      lm_cli_error (g_dngettext (NULL, "note: %u photo developed with notes (such as a fall-back to the CPU): see %s",
                                 "note: %u photos developed with notes (such as a fall-back to the CPU): see %s",
                                 stats.noted),
                    stats.noted, display);
    }
  if (stats.failed)
    {
      g_autofree char *name = lm_shard_file_name (&p->shard, "failed");
      g_autofree char *path = g_build_filename (o->output, name, NULL);
      g_autofree char *display = g_filename_display_name (path);
      lm_cli_error (g_dngettext (NULL, "%u photo failed, the others are done: see %s",
                                 "%u photos failed, the others are done: see %s", stats.failed),
                    stats.failed, display);
    }
  *failed = stats.failed;
  return ok;
}

static int
run (const Options *o, Plan *p)
{
  GError *error = NULL;
  g_autoptr (LmBatchList) list = lm_develop_list_new ((const char *const *) o->inputs,
                                                      o->pattern ? o->pattern : LM_DEVELOP_PATTERN_DEFAULT, &error);
  if (list == NULL)
    return lm_cli_batch_list_failed (error);
  if (list->empty_input)
    {
      /* Refused before OUTDIR is touched: a journal of nothing would read as a finished batch. */
      g_autofree char *display = g_filename_display_name (list->empty_input);
      lm_cli_error (_("%s: holds no photos: an INPUT is a folder of photos (JPEG, PNG, TIFF, WebP or camera raws) "
                      "or a manifest .tsv of id<TAB>photo[<TAB>sidecar] lines"),
                    display);
      return LM_EXIT_FAILURE;
    }
  guint failed = 0;
  gboolean ok = run_batch (o, p, list, &failed, &error);
  return lm_cli_batch_exit (ok, failed, error);
}

int
lm_cli_batch_develop_main (int argc, char **argv)
{
  Options o = { .quality = 92, .png_level = LM_PNG_LEVEL_DEFAULT };
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Write OUTDIR/<name>.<format> here, with the journals"), N_("OUTDIR") },
    { "preset", 0, 0, G_OPTION_ARG_FILENAME, &o.preset, N_("Develop every photo with this preset (a name of lumen-cli presets list, or a sidecar-form file) instead of its own edits"), N_("NAME|FILE") },
    { "name", 0, 0, G_OPTION_ARG_STRING, &o.pattern, N_("Output name pattern: $(FILE_NAME) (default), $(FILE_EXTENSION), $(SEQUENCE) (0001, …), or {name}, {ext}, {n}"), N_("PATTERN") },
    { "format", 0, 0, G_OPTION_ARG_STRING, &o.format, N_("Output format: jpg (default), png or tif"), N_("FORMAT") },
    LM_CLI_NUMBER_ENTRY ("size", N_("Long side of the outputs at most, in pixels, as --resize NxN (default: as edited)"), N_("N")),
    LM_CLI_NUMBER_ENTRY ("quality", N_("JPEG quality, 1..100 (default 92)"), N_("Q")),
    { "to-srgb", 0, 0, G_OPTION_ARG_NONE, &o.to_srgb, N_("Convert the colours from each photo's ICC profile to sRGB, as lumen-cli --to-srgb"), NULL },
    LM_CLI_NUMBER_ENTRY ("png-level", N_("PNG compression level, 0 (none, fastest) .. 9 (smallest) (default 1)"), N_("LEVEL")),
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend, N_("Where to render: auto (default), cpu or cuda"), N_("BACKEND") },
    { "devices", 0, 0, G_OPTION_ARG_STRING, &o.devices, N_("GPUs to use: all (default) or a list such as 0,1"), N_("LIST") },
    { "jobs", 0, 0, G_OPTION_ARG_INT, &o.jobs, N_("Render workers per device (default 4 per GPU; on the CPU one per core, at most 16)"), N_("N") },
    { "threads", 0, 0, G_OPTION_ARG_INT, &o.threads, N_("Threads loading and writing photos (default: one per core)"), N_("N") },
    { "encoder", 0, 0, G_OPTION_ARG_STRING, &o.encoder, N_("JPEG encoder: cpu (libjpeg-turbo, default: the bytes of “lumen-cli --params”) or nvjpeg (the GPU)"), N_("ENCODER") },
    { "shard", 0, 0, G_OPTION_ARG_STRING, &o.shard, N_("Take share I of N of the sorted photos (default: from a Slurm array or a Kubernetes indexed job)"), N_("I/N") },
    { "shard-count", 0, 0, G_OPTION_ARG_INT, &o.shard_count, N_("With JOB_COMPLETION_INDEX (Kubernetes): the job's completions"), N_("N") },
    { "progress", 0, 0, G_OPTION_ARG_STRING, &o.progress, N_("auto (default: a bar on a terminal, else plain), bar, plain or none"), N_("MODE") },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print where the time went"), NULL },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &o.report, N_("Sum the journals of OUTDIR: done, failed, remaining, throughput"), N_("OUTDIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  static LmCliNumber numbers[3];
  numbers[0] = (LmCliNumber) { "--size", 1, 65535, TRUE, &o.size };
  numbers[1] = (LmCliNumber) { "--quality", 1, 100, TRUE, &o.quality };
  numbers[2] = (LmCliNumber) { "--png-level", 0, 9, TRUE, &o.png_level };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("-o OUTDIR INPUT…"),
                          _("Develops many photos, each as “lumen-cli --params SIDECAR -o OUT PHOTO” would, with "
                            "its own sidecar (as the window finds it) or one --preset. An INPUT is a folder of "
                            "photos or a manifest (.tsv: id, photo and optionally sidecar per line).\n"
                            "A rerun of the same command skips finished photos."),
                          NULL, NULL, entries);
  int rc;
  GError *e = NULL;
  Plan p = { 0 };
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (o.report)
    rc = o.output || o.inputs ? lm_cli_usage_error (_("--report OUTDIR takes nothing else"))
                              : lm_cli_batch_report (o.report, TRUE);
  else if (!plan (&o, &p, &e) || !lm_batch_crash_points_init (&e))
    rc = lm_cli_usage_error (e->message);
  else if (!plan_preset (&o, &p, &e))
    {
      lm_cli_error ("%s", e->message);
      rc = LM_EXIT_FAILURE;
    }
  else
    rc = run (&o, &p);
  g_clear_error (&e);
  g_clear_pointer (&p.config.backends, g_ptr_array_unref);
  g_clear_pointer (&p.devices, g_array_unref);
  g_free (p.preset_path);
  g_free (o.backend), g_free (o.devices), g_free (o.encoder), g_free (o.preset), g_free (o.pattern);
  g_free (o.format), g_free (o.shard), g_free (o.progress), g_free (o.output), g_free (o.report);
  g_strfreev (o.inputs);
  return rc;
}
