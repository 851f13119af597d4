/* lumen-cli batch detect-objects: the objects in many photos, each found as `lumen-cli
 * detect-objects` finds them (the same flags, cli-objects-options.h), with the model read
 * once, in one CSV or JSON for all (cli-objects-text.h), sorted by the photos' names so that
 * it does not depend on --jobs; optionally each photo outlined or blurred into a folder. No
 * journal: the boxes are one file, written whole at the end (core/io/atomic-file.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-batch.h"
#include "cli-objects-options.h"
#include "cli-objects-text.h"
#include "cli.h"
#include "core/batch/backends.h"
#include "core/batch/develop-list.h"
#include "core/batch/objects-batch.h"
#include "core/batch/progress.h"
#include "core/error.h"
#include "core/io/atomic-file.h"

/* Photos and outputs are named by the photos' own file names. */
#define NAME_PATTERN "$(FILE_NAME).$(FILE_EXTENSION)"

typedef struct {
  LmCliObjects objects;
  char *output, *draw_dir, *blur_dir, *devices, *progress;
  int jobs, threads;
  gboolean timings;
  char **inputs;
} Options;

typedef struct {
  LmObjectsBatchConfig config;
  LmBackendKind backend;
  GArray *devices;
  LmProgressMode progress;
  char *label;
} Plan;

static gboolean
usage (GError **error, const char *message)
{
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, message);
  return FALSE;
}

/* Each worker a thread with its own photo in memory: a count far past the machine's is a
 * mistake, not speed. */
static guint
max_jobs (void)
{
  return MAX (16, g_get_num_processors ());
}

static gboolean
plan (const Options *o, Plan *p, GError **error)
{
  if (o->inputs == NULL || o->inputs[0] == NULL)
    return usage (error, _("no input: give folders of photos, photos or .tsv manifests"));
  if (!lm_cli_objects_params (&o->objects, &p->config.params, &p->backend, error))
    return FALSE;
  if (o->output == NULL && o->draw_dir == NULL && o->blur_dir == NULL)
    return usage (error, _("nothing to write: give -o, --draw-dir or --blur-detected-dir"));
  if (o->jobs < 0 || o->threads < 0)
    return usage (error, _("--jobs and --threads must be positive"));
  if ((guint) o->jobs > max_jobs ())
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--jobs %d: at most %u workers per device on this machine (16, or one per core where there "
                     "are more cores)"),
                   o->jobs, max_jobs ());
      return FALSE;
    }
  if (!lm_batch_devices_parse (o->devices, &p->devices, error))
    return FALSE;
  p->progress = LM_PROGRESS_AUTO;
  if (o->progress && !lm_progress_mode_parse (o->progress, &p->progress))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--progress: unknown “%s” (auto, bar, plain or none)"), o->progress);
      return FALSE;
    }
  p->config.load_threads = (guint) o->threads;
  p->config.draw_dir = o->draw_dir;
  p->config.blur_dir = o->blur_dir;
  return TRUE;
}

/* Whether the boxes' file can be written where it is asked for, before any photo is read. */
static gboolean
output_writable (const char *output, GError **error)
{
  if (!lm_atomic_file_check_replaceable (output, error))
    return FALSE;
  g_autofree char *dir = g_path_get_dirname (output);
  if (g_file_test (dir, G_FILE_TEST_IS_DIR))
    return TRUE;
  lm_set_file_error (error, LM_ERROR_IO, output, _("no folder %s to write it in"), dir);
  return FALSE;
}

static gboolean
make_folders (const Options *o, GError **error)
{
  const char *dirs[] = { o->draw_dir, o->blur_dir };
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    if (dirs[i] && g_mkdir_with_parents (dirs[i], 0777) != 0)
      {
        int errsv = errno;
        lm_set_file_error (error, lm_error_code_from_errno (errsv), dirs[i], _("cannot create the folder: %s"),
                           g_strerror (errsv));
        return FALSE;
      }
  return TRUE;
}

static void
show_progress (guint done, guint failed, gpointer data)
{
  lm_progress_update (data, done, failed);
}

static void
print_timings (const Plan *p, const LmPhotoStreamStats *stats)
{
  guint n = MAX (stats->done + stats->failed, 1);
  for (guint i = 0; i < p->config.backends->len; i++)
    printf (_("detection worker: %s\n"), ((LmBackend *) g_ptr_array_index (p->config.backends, i))->description);
  printf (_("load %.1f ms/photo, detection %.1f ms/photo, write %.1f ms/photo (summed over threads)\n"),
          stats->load_ms / n, stats->work_ms / n, stats->write_ms / n);
  printf (_("wall: %.2f s, %.2f photos/s\n"), stats->wall_s,
          stats->wall_s > 0 ? (stats->done + stats->failed) / stats->wall_s : 0.0);
}

/* The boxes of PHOTOS (LmObjectsBatchPhoto, in order) as one file, whole or not at all. */
static gboolean
write_boxes (const Options *o, const Plan *p, GPtrArray *photos, GError **error)
{
  g_autofree LmCliPhotoBoxes *rows = g_new0 (LmCliPhotoBoxes, MAX (photos->len, 1));
  for (guint i = 0; i < photos->len; i++)
    {
      const LmObjectsBatchPhoto *photo = photos->pdata[i];
      rows[i] = (LmCliPhotoBoxes) { photo->id, photo->boxes, photo->error };
    }
  g_autofree char *text = lm_cli_batch_boxes_text (rows, photos->len, p->label, lm_cli_boxes_json (o->output));
  return lm_atomic_file_write (o->output, text, strlen (text), error);
}

/* FALSE with ERROR when the batch could not run or was stopped; FAILED: photos that failed. */
static gboolean
run_batch (const Options *o, Plan *p, LmBatchList *list, guint *failed, GError **error)
{
  const char *dirs[] = { o->draw_dir, o->blur_dir };
  if (!lm_objects_batch_outputs_apart (list->stacks, o->output, dirs, G_N_ELEMENTS (dirs), error)
      || (o->output && !output_writable (o->output, error)) || !make_folders (o, error))
    return FALSE;
  p->config.backends = lm_batch_backends_open (p->backend, p->devices, (guint) o->jobs, error);
  if (p->config.backends == NULL)
    return FALSE;
  LmProgress *progress = lm_progress_new (p->progress, list->stacks->len, 0);
  lm_progress_count_photos (progress);
  p->config.progress = show_progress;
  p->config.progress_data = progress;
  g_autoptr (GPtrArray) photos = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_objects_batch_photo_free);
  LmPhotoStreamStats stats = { 0 };
  gboolean ok = lm_objects_batch_run (&p->config, list->stacks, photos, &stats, error);
  lm_progress_finish (progress, stats.done, stats.failed);
  if (o->timings)
    print_timings (p, &stats);
  /* Each failure on its line, in the photos' order, whatever order they failed in. */
  for (guint i = 0; i < photos->len; i++)
    {
      const LmObjectsBatchPhoto *photo = photos->pdata[i];
      if (photo->error)
        lm_cli_error ("%s", photo->error);
    }
  if (stats.failed)
    lm_cli_error (g_dngettext (NULL, "%u photo failed, the others are done", "%u photos failed, the others are done",
                               stats.failed),
                  stats.failed);
  *failed = stats.failed;
  /* A stopped run leaves no list of boxes: it would pass for the folder's. */
  return ok && (o->output == NULL || write_boxes (o, p, photos, error));
}

static int
run (const Options *o, Plan *p)
{
  GError *error = NULL;
  g_autoptr (LmCascade) cascade = lm_cli_objects_load (&o->objects, &p->label, &error);
  if (cascade == NULL)
    {
      lm_cli_error ("%s", error->message);
      g_error_free (error);
      return LM_EXIT_FAILURE;
    }
  p->config.cascade = cascade;
  g_autoptr (LmBatchList) list = lm_photo_list_new ((const char *const *) o->inputs, NAME_PATTERN, &error);
  if (list == NULL)
    return lm_cli_batch_list_failed (error);
  if (list->empty_input)
    {
      g_autofree char *display = g_filename_display_name (list->empty_input);
      lm_cli_error (_("%s: holds no photos: an INPUT is a folder of photos (JPEG, PNG, TIFF, WebP or camera raws), "
                      "a photo, or a manifest .tsv of id<TAB>photo lines"),
                    display);
      return LM_EXIT_FAILURE;
    }
  guint failed = 0;
  gboolean ok = run_batch (o, p, list, &failed, &error);
  p->config.cascade = NULL;
  return lm_cli_batch_exit (ok, failed, error);
}

int
lm_cli_batch_objects_main (int argc, char **argv)
{
  Options o = { .objects = LM_CLI_OBJECTS_INIT };
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
      N_("The boxes of every photo: CSV (file, label, x, y, width, height, score), or JSON for a name ending in .json"),
      N_("FILE") },
    { "draw-dir", 0, 0, G_OPTION_ARG_FILENAME, &o.draw_dir,
      N_("Also write each photo with its boxes outlined into this folder, under its own name"), N_("DIR") },
    { "blur-detected-dir", 0, 0, G_OPTION_ARG_FILENAME, &o.blur_dir,
      N_("Also write each photo with what was found blurred into this folder, under its own name"), N_("DIR") },
    { "devices", 0, 0, G_OPTION_ARG_STRING, &o.devices, N_("GPUs to use: all (default) or a list such as 0,1"), N_("LIST") },
    { "jobs", 0, 0, G_OPTION_ARG_INT, &o.jobs, N_("Photos detected at once per device (default 4 per GPU; on the CPU one per core, at most 16)"), N_("N") },
    { "threads", 0, 0, G_OPTION_ARG_INT, &o.threads, N_("Threads loading and writing photos (default: one per core)"), N_("N") },
    { "progress", 0, 0, G_OPTION_ARG_STRING, &o.progress, N_("auto (default: a bar on a terminal, else plain), bar, plain or none"), N_("MODE") },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print where the time went"), NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("--model NAME -o BOXES INPUT…"),
                          _("Finds objects in many photos, each as “lumen-cli detect-objects” finds them, with the "
                            "model read once. An INPUT is a folder of photos, a photo, or a manifest (.tsv: id and "
                            "photo per line). The boxes of all the photos go into one file, sorted by the photos' "
                            "names."),
                          NULL, NULL, entries);
  lm_cli_objects_add_entries (context, &o.objects);
  int rc;
  GError *e = NULL;
  Plan p = { 0 };
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (!plan (&o, &p, &e))
    rc = lm_cli_usage_error (e->message);
  else
    rc = run (&o, &p);
  g_clear_error (&e);
  g_clear_pointer (&p.config.backends, g_ptr_array_unref);
  g_clear_pointer (&p.devices, g_array_unref);
  g_free (p.label);
  lm_cli_objects_clear (&o.objects);
  g_free (o.output), g_free (o.draw_dir), g_free (o.blur_dir), g_free (o.devices), g_free (o.progress);
  g_strfreev (o.inputs);
  return rc;
}
