/* The HDR job (core/merge/job.h): its stack checks, through the one entry point the window,
 * lumen-cli hdr and the batch share (lm_hdr_job_load), with the messages each front end
 * shows; the one parser of exposure times; a whole run on the CPU; cancellation. */
#include <string.h>
#include <gio/gio.h>

#include "core/backend/backend.h"
#include "core/error.h"
#include "core/merge/job.h"
#include "core/io/io.h"
#include "test-util.h"

/* A PNG of WIDTH × HEIGHT (gray or colour) in the test's folder, named NAME. */
static char *
exposure (const char *name, guint width, guint height, gboolean gray, guint32 seed)
{
  g_autoptr (LmImage) image = gray ? lm_test_random_gray (width, height, seed)
                                   : lm_test_random_rgba (width, height, seed, FALSE);
  char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
  GError *e = NULL;
  g_assert_true (lm_io_save (image, path, &save, &e));
  g_assert_no_error (e);
  return path;
}

/* Loads PATHS with TIMES (NULL: EXIF) for METHOD: the stack, or NULL and *ERROR. */
static LmHdrJob *
load (const char *const *paths, guint n, const double *times, LmHdrMethod method, GError **error)
{
  LmHdrJobSpec spec = { .n = n, .paths = paths, .times = times, .method = method };
  g_autoptr (LmHdrJob) job = lm_hdr_job_new (&spec);
  if (!lm_hdr_job_load (job, lm_allocator_host (), error))
    return NULL;
  return g_steal_pointer (&job);
}

/* Fails unless loading is refused with a message holding each of WORDS (NULL-terminated). */
static void
assert_refused (const char *const *paths, guint n, const double *times, LmHdrMethod method, ...)
{
  GError *e = NULL;
  g_autoptr (LmHdrJob) job = load (paths, n, times, method, &e);
  g_assert_null (job);
  g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
  LM_TEST_RETURN_IF_FAILED ();
  g_test_message ("refused: %s", e->message);
  va_list words;
  va_start (words, method);
  for (const char *w = va_arg (words, const char *); w; w = va_arg (words, const char *))
    if (strstr (e->message, w) == NULL)
      g_test_fail_printf ("“%s” does not say “%s”", e->message, w);
  va_end (words);
  g_error_free (e);
}

static void
test_sizes (void)
{
  g_autofree char *a = exposure ("size-a.png", 8, 6, FALSE, 1), *b = exposure ("size-b.png", 10, 6, FALSE, 2);
  const char *paths[] = { a, b };
  const double times[] = { 0.01, 0.1 };
  assert_refused (paths, 2, times, LM_HDR_DEBEVEC, "size-b.png is 10×6 but", "size-a.png is 8×6",
                  "must have one size", NULL);
  /* Fusion needs no times, but one size all the same. */
  assert_refused (paths, 2, NULL, LM_HDR_MERTENS, "must have one size", NULL);
}

static void
test_gray_and_colour (void)
{
  g_autofree char *a = exposure ("kind-a.png", 8, 6, FALSE, 3), *b = exposure ("kind-b.png", 8, 6, TRUE, 4);
  const char *paths[] = { a, b };
  const double times[] = { 0.01, 0.1 };
  assert_refused (paths, 2, times, LM_HDR_DEBEVEC, "kind-b.png is gray but", "all gray or all colour", NULL);
}

static void
test_count (void)
{
  g_autofree char *a = exposure ("one.png", 8, 6, FALSE, 5);
  const char *paths[] = { a };
  const double times[] = { 0.01 };
  assert_refused (paths, 1, times, LM_HDR_DEBEVEC, "an HDR merge needs at least two exposures; one was given",
                  NULL);
  assert_refused (paths, 1, NULL, LM_HDR_MERTENS, "one was given", NULL);
  assert_refused (paths, 0, NULL, LM_HDR_DEBEVEC, "none were given", NULL);
  const char *many[LM_HDR_MAX_EXPOSURES + 1];
  for (guint i = 0; i < G_N_ELEMENTS (many); i++)
    many[i] = a;
  assert_refused (many, G_N_ELEMENTS (many), NULL, LM_HDR_MERTENS, "65 exposures: at most 64", NULL);
}

static void
test_times (void)
{
  g_autofree char *a = exposure ("time-a.png", 8, 6, FALSE, 6), *b = exposure ("time-b.png", 8, 6, FALSE, 7);
  const char *paths[] = { a, b };
  const double equal[] = { 0.01, 0.01 }, zero[] = { 0.0, 0.1 }, tiny[] = { 0.01, 1e-320 };
  assert_refused (paths, 2, equal, LM_HDR_DEBEVEC, "time-a.png and", "time-b.png have the same exposure time", NULL);
  assert_refused (paths, 2, zero, LM_HDR_ROBERTSON, "time-a.png: exposure time 0 s",
                  "must be a positive number of seconds", NULL);
  assert_refused (paths, 2, tiny, LM_HDR_DEBEVEC, "time-b.png", "between 1e-09 and 1e+06 seconds", NULL);
  /* Times given for fusion are checked too. */
  assert_refused (paths, 2, equal, LM_HDR_MERTENS, "same exposure time", NULL);
}

/* "1/250" and "2 s", as --times, an exposures file, a manifest or the dialog's cell give
 * them: one parser, then the job's checks. */
static void
test_time_texts (void)
{
  g_autofree char *a = exposure ("text-a.png", 8, 6, FALSE, 8), *b = exposure ("text-b.png", 8, 6, FALSE, 9);
  const char *texts[] = { "1/250", "2 s" };
  double times[2];
  for (guint i = 0; i < 2; i++)
    {
      GError *e = NULL;
      g_assert_true (lm_hdr_parse_seconds (texts[i], &times[i], &e));
      g_assert_no_error (e);
    }
  const char *paths[] = { a, b };
  GError *e = NULL;
  g_autoptr (LmHdrJob) job = load (paths, 2, times, LM_HDR_DEBEVEC, &e);
  g_assert_no_error (e);
  g_assert_nonnull (job);
  LM_TEST_RETURN_IF_FAILED ();
  const LmHdrStack *s = lm_hdr_job_stack (job);
  g_assert_cmpuint (s->n, ==, 2);
  g_assert_cmpfloat (s->times[0], ==, 1.0 / 250.0);
  g_assert_cmpfloat (s->times[1], ==, 2.0);

  /* "1/250" twice, one with its unit: equal times, refused as such. */
  double same[2];
  g_assert_true (lm_hdr_parse_seconds ("1/250", &same[0], NULL));
  g_assert_true (lm_hdr_parse_seconds (" 1/250 s", &same[1], NULL));
  assert_refused (paths, 2, same, LM_HDR_DEBEVEC, "same exposure time (0.004 s)", NULL);
}

static void
test_parser (void)
{
  const struct {
    const char *text;
    double seconds;
  } good[] = { { "0.004", 0.004 }, { "1/250", 0.004 }, { "2 s", 2.0 }, { "2s", 2.0 }, { " 1 / 4 ", 0.25 },
               { "1/8 s", 0.125 }, { "0", 0.0 } };
  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      double t = -1.0;
      GError *e = NULL;
      g_assert_true (lm_hdr_parse_seconds (good[i].text, &t, &e));
      g_assert_no_error (e);
      g_assert_cmpfloat (t, ==, good[i].seconds);
    }
  const char *bad[] = { "fast", "", "s", "1/0", "nan", "1/", "2 ms", "1//250" };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      double t;
      GError *e = NULL;
      g_assert_false (lm_hdr_parse_seconds (bad[i], &t, &e));
      g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
      if (e)
        g_assert_nonnull (strstr (e->message, "is not a time in seconds"));
      g_clear_error (&e);
    }
}

/* A file without EXIF: the default words, or a front end's own (lumen-cli names its flags);
 * fusion asks for none. */
static void
test_exif_missing (void)
{
  g_autofree char *a = exposure ("exif-a.png", 8, 6, FALSE, 10), *b = exposure ("exif-b.png", 8, 6, FALSE, 11);
  const char *paths[] = { a, b };
  GError *e = NULL;
  g_autoptr (LmHdrJob) none = load (paths, 2, NULL, LM_HDR_DEBEVEC, &e);
  g_assert_null (none);
  g_assert_nonnull (e);
  if (e)
    {
      g_assert_true (g_str_has_prefix (e->message, "no exposure time given: "));
      g_assert_nonnull (strstr (e->message, "exif-a.png"));
    }
  g_clear_error (&e);

  LmHdrJobSpec spec = { .n = 2, .paths = paths, .method = LM_HDR_ROBERTSON, .no_time_format = "[%s] use --times" };
  g_autoptr (LmHdrJob) hinted = lm_hdr_job_new (&spec);
  g_assert_false (lm_hdr_job_load (hinted, lm_allocator_host (), &e));
  g_assert_nonnull (e);
  if (e)
    g_assert_true (g_str_has_suffix (e->message, "] use --times"));
  g_clear_error (&e);

  g_autoptr (LmHdrJob) fused = load (paths, 2, NULL, LM_HDR_MERTENS, &e);
  g_assert_no_error (e);
  g_assert_nonnull (fused);
  if (fused)
    g_assert_null (lm_hdr_job_stack (fused)->times);

  /* A missing file is answered with the loader's reason, not the EXIF's. */
  g_autofree char *gone = g_build_filename (lm_test_tmp_dir (), "gone.png", NULL);
  const char *missing[] = { gone, a };
  g_autoptr (LmHdrJob) lost = load (missing, 2, NULL, LM_HDR_DEBEVEC, &e);
  g_assert_null (lost);
  g_assert_nonnull (e);
  if (e)
    {
      g_test_message ("missing: %s", e->message);
      g_assert_nonnull (strstr (e->message, "gone.png"));
      g_assert_null (strstr (e->message, "EXIF"));
    }
  g_clear_error (&e);
}

/* The whole job on the CPU: load, align, calibrate, merge; progress in order; timings. */
static void
test_run_on_cpu (void)
{
  g_autofree char *a = exposure ("run-a.png", 32, 24, FALSE, 12), *b = exposure ("run-b.png", 32, 24, FALSE, 13);
  const char *paths[] = { a, b };
  const double times[] = { 0.01, 0.04 };
  GError *e = NULL;
  g_autoptr (LmBackend) cpu = lm_backend_new (LM_BACKEND_CPU, &e);
  g_assert_no_error (e);
  LM_TEST_RETURN_IF_FAILED ();
  for (int method = LM_HDR_DEBEVEC; method <= LM_HDR_MERTENS; method++)
    {
      LmHdrJobSpec spec = { .n = 2, .paths = paths, .times = times, .method = method, .align = TRUE };
      g_autoptr (LmHdrJob) job = lm_hdr_job_new (&spec);
      LmTimings timings;
      lm_timings_init (&timings);
      lm_hdr_job_set_timings (job, &timings);
      g_assert_true (lm_hdr_job_run (job, cpu, lm_allocator_host (), &e));
      g_assert_no_error (e);
      g_clear_error (&e);
      g_autoptr (LmImage) merged = lm_hdr_job_steal_merged (job);
      g_assert_nonnull (merged);
      if (merged)
        {
          g_assert_cmpint (merged->format, ==, LM_FORMAT_RGBA_F32);
          g_assert_true (lm_hdr_job_merged_on (job) == cpu);
        }
      g_assert_nonnull (lm_hdr_job_shifts (job));
      g_assert_true ((lm_hdr_job_response (job) == NULL) == (method == LM_HDR_MERTENS));
      g_assert_null (lm_hdr_job_notice (job));
      g_assert_nonnull (lm_timings_find (&timings, "load"));
      g_assert_nonnull (lm_timings_find (&timings, "align"));
      g_assert_nonnull (lm_timings_find (&timings, method == LM_HDR_MERTENS ? "fuse" : "merge"));
      g_assert_null (lm_timings_find (&timings, "upload")); /* nothing is copied on the CPU */
      lm_timings_clear (&timings);
    }
}

static void
count_step (double fraction, const char *label, const LmResponse *response, gpointer data)
{
  (*(guint *) data)++;
}

static void
test_cancelled (void)
{
  g_autofree char *a = exposure ("stop-a.png", 8, 6, FALSE, 14), *b = exposure ("stop-b.png", 8, 6, FALSE, 15);
  const char *paths[] = { a, b };
  const double times[] = { 0.01, 0.04 };
  LmHdrJobSpec spec = { .n = 2, .paths = paths, .times = times, .method = LM_HDR_DEBEVEC };
  g_autoptr (LmHdrJob) job = lm_hdr_job_new (&spec);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  guint steps = 0;
  lm_hdr_job_set_progress (job, count_step, &steps);
  lm_hdr_job_set_cancellable (job, cancellable);
  g_cancellable_cancel (cancellable);
  GError *e = NULL;
  g_assert_false (lm_hdr_job_load (job, lm_allocator_host (), &e));
  g_assert_error (e, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&e);
  g_assert_cmpuint (steps, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/hdr-job/checks/sizes", test_sizes);
  g_test_add_func ("/hdr-job/checks/gray-and-colour", test_gray_and_colour);
  g_test_add_func ("/hdr-job/checks/count", test_count);
  g_test_add_func ("/hdr-job/checks/times", test_times);
  g_test_add_func ("/hdr-job/checks/time-texts", test_time_texts);
  g_test_add_func ("/hdr-job/parser", test_parser);
  g_test_add_func ("/hdr-job/exif-missing", test_exif_missing);
  g_test_add_func ("/hdr-job/run-on-cpu", test_run_on_cpu);
  g_test_add_func ("/hdr-job/cancelled", test_cancelled);
  return g_test_run ();
}
