/* The develop batch as a background job (core/batch/develop-job.h), as Export Selected… runs
 * it: progress and the end arrive on the caller's main context, the outputs are those of the
 * one-photo path (lm_develop_pipeline + lm_develop_photo + lm_develop_save), a bad photo is a
 * failure naming it, a cancelled job leaves the photos not started, a job freed while it
 * runs calls nothing after, and one let go returns at once and says when it has gone. Under ASan, the job's threads and shared state are checked too. */
#include <string.h>
#include <glib/gstdio.h>

#include "core/batch/develop-job.h"
#include "core/batch/develop-list.h"
#include "core/edit/sidecar.h"
#include "core/io/io.h"
#include "core/render/develop-one.h"
#include "test-util.h"

typedef struct {
  gboolean ended;
  guint progress_calls;
  GThread *main_thread;
  LmDevelopStats stats;
  GPtrArray *reasons;
  char *error;
} Seen;

static void
on_progress (guint done, guint failed, gpointer data)
{
  Seen *seen = data;
  g_assert_true (g_thread_self () == seen->main_thread);
  seen->progress_calls++;
}

static void
on_done (const LmDevelopStats *stats, GPtrArray *failures, const GError *error, gpointer data)
{
  Seen *seen = data;
  g_assert_true (g_thread_self () == seen->main_thread);
  g_assert_false (seen->ended);
  seen->ended = TRUE;
  seen->stats = *stats;
  for (guint i = 0; i < failures->len; i++)
    g_ptr_array_add (seen->reasons, g_strdup (((LmDevelopFailure *) failures->pdata[i])->reason));
  seen->error = error ? g_strdup (error->message) : NULL;
}

static char *
write_photo (const char *dir, const char *name, guint32 seed)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (LmImage) image = lm_test_random_rgba (96, 64, seed, FALSE);
  LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
  g_assert_true (lm_io_save (image, path, &save, NULL));
  return path;
}

/* PHOTO as `lumen-cli --params SIDECAR -o OUT PHOTO` writes it, through the same calls. */
static GBytes *
one_photo (const char *photo, const char *out)
{
  LmPipeline pipeline;
  g_autofree char *sidecar = lm_sidecar_find (photo);
  g_assert_true (lm_develop_pipeline (&pipeline, photo, sidecar, NULL, NULL));
  g_autoptr (LmImage) source = lm_io_load (photo, lm_allocator_host (), NULL);
  g_assert_nonnull (source);
  LmBackend *backend = lm_backend_new (LM_BACKEND_CPU, NULL);
  LmTimings timings;
  lm_timings_init (&timings);
  g_autoptr (LmImage) result = lm_develop_photo (&backend, LM_BACKEND_CPU, photo, source, &pipeline, out, FALSE, 0,
                                                 NULL, NULL, &timings, NULL, NULL);
  g_assert_nonnull (result);
  LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
  g_assert_true (lm_develop_save (backend, result, out, FALSE, &save, &timings, NULL, NULL));
  lm_timings_clear (&timings);
  lm_backend_free (backend);
  char *data;
  gsize len;
  g_assert_true (g_file_get_contents (out, &data, &len, NULL));
  g_unlink (out);
  return g_bytes_new_take (data, len);
}

static LmDevelopJob *
start (const char *const *photos, guint n, const char *outdir, Seen *seen)
{
  g_autoptr (GError) error = NULL;
  LmBatchList *list = lm_develop_list_of_photos (photos, n, LM_DEVELOP_PATTERN_DEFAULT, &error);
  g_assert_no_error (error);
  LmDevelopConfig config = { 0 };
  config.outdir = outdir;
  config.ext = "png";
  config.save = (LmSaveOptions) LM_SAVE_OPTIONS_INIT;
  config.load_threads = 2;
  seen->main_thread = g_thread_self ();
  seen->reasons = g_ptr_array_new_with_free_func (g_free);
  return lm_develop_job_start (list, &config, LM_BACKEND_CPU, g_main_context_default (), on_progress, on_done, seen);
}

static void
run_until_ended (Seen *seen)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!seen->ended)
    {
      g_assert_cmpint (g_get_monotonic_time (), <, end);
      g_main_context_iteration (NULL, TRUE);
    }
}

static void
test_outputs_and_failure (void)
{
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "develop-job", NULL);
  g_mkdir_with_parents (dir, 0755);
  g_autofree char *a = write_photo (dir, "a.png", 1);
  g_autofree char *b = write_photo (dir, "b.png", 2);
  g_autofree char *bad = g_build_filename (dir, "bad.jpg", NULL);
  g_assert_true (g_file_set_contents (bad, "not a photo", -1, NULL));
  /* b's own edits, as the window saves them. */
  LmPipeline edits;
  lm_pipeline_init (&edits);
  LmStage *exposure = lm_pipeline_stage (&edits, LM_OP_EXPOSURE);
  exposure->enabled = TRUE;
  exposure->params.exposure.ev = 0.7f;
  g_assert_true (lm_sidecar_save (b, &edits, NULL, NULL));

  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  const char *photos[] = { a, b, bad };
  Seen seen = { 0 };
  LmDevelopJob *job = start (photos, 3, outdir, &seen);
  run_until_ended (&seen);
  g_assert_cmpuint (seen.stats.done, ==, 2);
  g_assert_cmpuint (seen.stats.failed, ==, 1);
  g_assert_null (seen.error);
  g_assert_cmpuint (seen.reasons->len, ==, 1);
  g_assert_nonnull (strstr (seen.reasons->pdata[0], "bad.jpg"));
  g_assert_cmpuint (seen.progress_calls, >, 0);
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *base = g_path_get_basename (photos[i]);
      g_autofree char *got_path = g_build_filename (outdir, base, NULL);
      char *data;
      gsize len;
      g_assert_true (g_file_get_contents (got_path, &data, &len, NULL));
      g_autoptr (GBytes) got = g_bytes_new_take (data, len);
      g_autofree char *want_path = g_build_filename (dir, "want.png", NULL);
      g_autoptr (GBytes) want = one_photo (photos[i], want_path);
      g_assert_true (g_bytes_equal (got, want));
    }
  lm_develop_job_free (job);
  g_ptr_array_unref (seen.reasons);
  lm_test_remove_tree (dir);
}

static void
test_cancel_and_free (void)
{
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "develop-job-cancel", NULL);
  g_mkdir_with_parents (dir, 0755);
  g_autoptr (GPtrArray) photos = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("p%02u.png", i);
      g_ptr_array_add (photos, write_photo (dir, name, i + 10));
    }
  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  /* Cancelled at once: the photos not started are left, and said. */
  Seen seen = { 0 };
  LmDevelopJob *job = start ((const char *const *) photos->pdata, photos->len, outdir, &seen);
  lm_develop_job_cancel (job);
  run_until_ended (&seen);
  g_assert_cmpuint (seen.stats.done + seen.stats.failed + seen.stats.cancelled, ==, photos->len);
  g_assert_cmpuint (seen.stats.cancelled, >, 0);
  g_assert_cmpuint (seen.stats.failed, ==, 0);
  lm_develop_job_free (job);
  g_ptr_array_unref (seen.reasons);

  /* Freed while it runs: nothing is called after, whatever was queued. */
  Seen dropped = { 0 };
  job = start ((const char *const *) photos->pdata, photos->len, outdir, &dropped);
  lm_develop_job_free (job);
  for (int i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_false (dropped.ended);
  g_assert_cmpuint (dropped.progress_calls, ==, 0);
  g_ptr_array_unref (dropped.reasons);
  lm_test_remove_tree (dir);
}

static void
on_gone (gpointer data)
{
  int *gone = data;
  (*gone)++;
}

/* Let go while it develops large photos: the call returns with the run still at work, its
 * loading threads there (a photo in hand takes it a good part of a second), the photos in hand are finished
 * whole, GONE comes once on the context after, and nothing else is called. Let go after its
 * end: GONE still comes, from the context. */
static void
test_let_go (void)
{
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "develop-job-let-go", NULL);
  g_mkdir_with_parents (dir, 0755);
  g_autoptr (GPtrArray) photos = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < 4; i++)
    {
      char *path = g_strdup_printf ("%s/big%u.png", dir, i);
      g_autoptr (LmImage) image = lm_test_random_rgba (4000, 3000, i + 50, FALSE);
      LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
      save.png_level = 1;
      g_assert_true (lm_io_save (image, path, &save, NULL));
      g_ptr_array_add (photos, path);
    }
  g_autofree char *outdir = g_build_filename (dir, "out", NULL);
  Seen seen = { 0 };
  int gone = 0;
  LmDevelopJob *job = start ((const char *const *) photos->pdata, photos->len, outdir, &seen);
  g_usleep (G_USEC_PER_SEC / 20); /* its first photo in hand */
  lm_develop_job_let_go (job, on_gone, &gone);
  g_assert_true (lm_test_thread_named ("lumen-photos")); /* the run's loaders: it is still at work */
  g_assert_cmpint (gone, ==, 0);
  gint64 deadline = g_get_monotonic_time () + 120 * G_USEC_PER_SEC;
  while (gone == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  for (int i = 0; i < 100; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpint (gone, ==, 1);
  g_assert_false (seen.ended);
  g_assert_cmpuint (seen.progress_calls, ==, 0);
  /* What was written is whole: each output decodes to its photo's size, and no temporary
   * file is left beside them. */
  g_autoptr (GDir) out = g_dir_open (outdir, 0, NULL);
  for (const char *name; out && (name = g_dir_read_name (out)) != NULL;)
    {
      g_autofree char *path = g_build_filename (outdir, name, NULL);
      g_test_message ("written: %s", name);
      g_assert_true (g_str_has_suffix (name, ".png"));
      g_autoptr (LmImage) image = lm_io_load (path, lm_allocator_host (), NULL);
      g_assert_nonnull (image);
      g_assert_cmpuint (image->width, ==, 4000);
    }
  g_ptr_array_unref (seen.reasons);

  Seen ended = { 0 };
  gone = 0;
  job = start ((const char *const *) photos->pdata, 1, outdir, &ended);
  run_until_ended (&ended);
  lm_develop_job_let_go (job, on_gone, &gone);
  g_assert_cmpint (gone, ==, 0);
  for (int i = 0; i < 100 && gone == 0; i++)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpint (gone, ==, 1);
  g_ptr_array_unref (ended.reasons);
  lm_test_remove_tree (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_setenv ("XDG_DATA_HOME", lm_test_tmp_dir (), TRUE);
  g_test_add_func ("/develop-job/outputs-and-failure", test_outputs_and_failure);
  g_test_add_func ("/develop-job/cancel-and-free", test_cancel_and_free);
  g_test_add_func ("/develop-job/let-go", test_let_go);
  return g_test_run ();
}
