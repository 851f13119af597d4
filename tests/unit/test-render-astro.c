/* FITS data's jobs on the render worker (core/render/job-astro.c): the stretch gives the CPU
 * reference's view and the detection the stars put in the data, both to the receiver that
 * asked and not to the worker's own; a detection stopped by other work comes once that work
 * is done; a newer detection replaces an older one; nothing reaches a closed receiver, nor
 * after the worker is gone; CUDA asked for where there is none says so and computes on the
 * CPU. */
#include <math.h>
#include <string.h>

#include "core/astro/detect.h"
#include "core/astro/stretch.h"
#include "core/render/render.h"
#include "test-util.h"

typedef struct {
  guint worker_results[LM_RESULT_OBJECTS + 1]; /* the worker's own receiver, by kind */
  gboolean cuda_usable;
  gboolean ready;
} WorkerSeen;

typedef struct {
  guint stretched, detected;
  guint64 detected_generation;
  LmImage *view;          /* taken from the last STRETCHED */
  LmDetectResult *detect; /* taken from the last DETECTED */
  char *notice;
  char *backend_name;
  GError *error;
} DataSeen;

static void
on_worker_result (const LmRenderResult *r, gpointer data)
{
  WorkerSeen *seen = data;
  seen->worker_results[r->kind]++;
  if (r->kind == LM_RESULT_READY)
    {
      seen->ready = TRUE;
      seen->cuda_usable = r->cuda_unavailable == NULL;
    }
}

static void
take (LmRenderResult *r, gpointer data)
{
  DataSeen *seen = data;
  g_clear_pointer (&seen->notice, g_free);
  seen->notice = g_steal_pointer (&r->notice);
  g_free (seen->backend_name);
  seen->backend_name = g_strdup (r->backend_name);
  if (r->error)
    {
      g_clear_error (&seen->error);
      seen->error = g_steal_pointer (&r->error);
    }
  if (r->kind == LM_RESULT_STRETCHED)
    {
      seen->stretched++;
      g_clear_pointer (&seen->view, lm_image_unref);
      seen->view = g_steal_pointer (&r->view);
    }
  else if (r->kind == LM_RESULT_DETECTED)
    {
      seen->detected++;
      seen->detected_generation = r->generation;
      g_clear_pointer (&seen->detect, lm_detect_result_free);
      seen->detect = g_steal_pointer (&r->detect);
    }
}

static void
data_seen_clear (DataSeen *seen)
{
  g_clear_pointer (&seen->view, lm_image_unref);
  g_clear_pointer (&seen->detect, lm_detect_result_free);
  g_clear_pointer (&seen->notice, g_free);
  g_clear_pointer (&seen->backend_name, g_free);
  g_clear_error (&seen->error);
}

/* Iterates the default context until *COUNT reaches AT_LEAST (or 20 s pass). */
static gboolean
await_count (const guint *count, guint at_least)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (*count < at_least && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  return *count >= at_least;
}

/* Iterates the default context until *GENERATION is WANT (or 20 s pass). */
static gboolean
await_generation (const guint64 *generation, guint64 want)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (*generation != want && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  return *generation == want;
}

/* Runs whatever the default context holds: results already posted are delivered. */
static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Stars on a grid over a flat sky with Gaussian noise (σ 2): where they are is known. */
#define GRID 4
typedef struct {
  double x[GRID * GRID], y[GRID * GRID];
} Stars;

static LmImage *
star_field (guint width, guint height, Stars *stars)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (29);
  LmImage *image = lm_image_new (LM_FORMAT_GRAY_F32, width, height, lm_allocator_host (), NULL);
  for (guint y = 0; y < height; y++)
    {
      float *row = (float *) lm_image_row (image, y);
      for (guint x = 0; x < width; x++)
        {
          double u = g_rand_double_range (rand, 1e-12, 1.0), v = g_rand_double (rand);
          row[x] = (float) (100.0 + 2.0 * sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * v));
        }
    }
  const double sigma = 1.5, flux = 4e4;
  for (int i = 0; i < GRID * GRID; i++)
    {
      double cx = (i % GRID + 0.5) * width / GRID + 0.25, cy = (i / GRID + 0.5) * height / GRID + 0.5;
      stars->x[i] = cx, stars->y[i] = cy;
      for (int py = (int) cy - 8; py <= (int) cy + 8; py++)
        for (int px = (int) cx - 8; px <= (int) cx + 8; px++)
          {
            double d2 = (px - cx) * (px - cx) + (py - cy) * (py - cy);
            ((float *) lm_image_row (image, py))[px] += (float) (flux / (2 * G_PI * sigma * sigma)
                                                                 * exp (-d2 / (2 * sigma * sigma)));
          }
    }
  return image;
}

/* Every star found once, within a tenth of a pixel, and nothing else. */
static void
assert_stars (const LmDetectResult *result, const Stars *stars)
{
  g_assert_nonnull (result);
  LM_TEST_RETURN_IF_FAILED ();
  g_assert_cmpuint (result->n_sources, ==, GRID * GRID);
  for (guint j = 0; j < result->n_sources; j++)
    {
      double best = G_MAXDOUBLE;
      for (int i = 0; i < GRID * GRID; i++)
        best = MIN (best, hypot (result->sources[j].x - stars->x[i], result->sources[j].y - stars->y[i]));
      g_assert_cmpfloat (best, <, 0.1);
    }
}

static LmRenderWorker *
worker_new (WorkerSeen *seen)
{
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_worker_result, seen);
  g_assert_true (await_count ((const guint *) &seen->ready, 1));
  return w;
}

static void
test_stretch_and_detect (void)
{
  WorkerSeen ws = { { 0 } };
  DataSeen seen = { 0 };
  LmRenderWorker *w = worker_new (&ws);
  Stars stars;
  g_autoptr (LmImage) data = star_field (320, 240, &stars);
  LmRenderChannel *to = lm_render_channel_new_taking (take, &seen);
  LmDataRequest request = { .generation = 1, .data = data, .backend = LM_BACKEND_CPU, .to = to };
  LmStretchParams stretch;
  lm_stretch_params_init (&stretch);
  stretch.kind = LM_STRETCH_ASINH;
  LmDetectParams detect;
  lm_detect_params_init (&detect);
  lm_render_worker_stretch (w, &request, &stretch, TRUE);
  lm_render_worker_detect (w, &request, &detect);
  g_assert_true (await_count (&seen.detected, 1));
  g_assert_true (await_count (&seen.stretched, 1));
  g_assert_no_error (seen.error);
  g_assert_cmpstr (seen.backend_name, ==, "cpu");
  g_assert_null (seen.notice);
  assert_stars (seen.detect, &stars);

  /* The view is the CPU reference's, flipped. */
  double low, high;
  g_assert_true (lm_stretch_limits (data, &stretch, &low, &high, NULL));
  guint8 table[LM_STRETCH_LEVELS];
  lm_stretch_table (stretch.kind, table);
  g_autoptr (LmImage) want = lm_test_image_new (LM_FORMAT_RGBA8, data->width, data->height, 0xA5);
  g_assert_true (lm_stretch_cpu (data, low, high, table, TRUE, want, NULL));
  g_assert_nonnull (seen.view);
  if (seen.view)
    lm_test_assert_same_pixels (seen.view, want);

  /* None of it went to the worker's own receiver. */
  g_assert_cmpuint (ws.worker_results[LM_RESULT_STRETCHED] + ws.worker_results[LM_RESULT_DETECTED], ==, 0);
  lm_render_worker_free (w);
  lm_render_channel_close (to);
  data_seen_clear (&seen);
}

/* A detection is stopped by whatever is asked for meanwhile, and runs again after it: stretches
 * posted while it runs each come back, and so does the detection, once. */
static void
test_detection_after_other_work (void)
{
  WorkerSeen ws = { { 0 } };
  DataSeen seen = { 0 };
  LmRenderWorker *w = worker_new (&ws);
  Stars stars;
  g_autoptr (LmImage) data = star_field (1024, 768, &stars);
  LmRenderChannel *to = lm_render_channel_new_taking (take, &seen);
  LmDataRequest request = { .generation = 1, .data = data, .backend = LM_BACKEND_CPU, .to = to };
  LmStretchParams stretch;
  lm_stretch_params_init (&stretch);
  LmDetectParams detect;
  lm_detect_params_init (&detect);
  lm_render_worker_detect (w, &request, &detect);
  guint asked = 0;
  for (; asked < 3; asked++)
    {
      g_usleep (30000); /* the detection under way: a stretch stops it */
      lm_render_worker_stretch (w, &request, &stretch, FALSE);
      g_assert_true (await_count (&seen.stretched, asked + 1));
    }
  g_assert_true (await_count (&seen.detected, 1));
  g_test_message ("%u stretches, %u detections", seen.stretched, seen.detected);
  g_assert_cmpuint (seen.stretched, ==, asked);
  g_assert_no_error (seen.error);
  assert_stars (seen.detect, &stars);
  lm_render_worker_free (w);
  drain ();
  g_assert_cmpuint (seen.detected, ==, 1);
  lm_render_channel_close (to);
  data_seen_clear (&seen);
}

/* A newer detection replaces the older one: the last to come is the newer. */
static void
test_newer_detection_wins (void)
{
  WorkerSeen ws = { { 0 } };
  DataSeen seen = { 0 };
  LmRenderWorker *w = worker_new (&ws);
  Stars stars;
  g_autoptr (LmImage) data = star_field (1024, 768, &stars);
  LmRenderChannel *to = lm_render_channel_new_taking (take, &seen);
  LmDataRequest request = { .generation = 1, .data = data, .backend = LM_BACKEND_CPU, .to = to };
  LmDetectParams detect;
  lm_detect_params_init (&detect);
  detect.threshold = 1000.0; /* finds nothing: the newer one's stars tell them apart */
  lm_render_worker_detect (w, &request, &detect);
  g_usleep (20000);
  request.generation = 2;
  lm_detect_params_init (&detect);
  lm_render_worker_detect (w, &request, &detect);
  g_assert_true (await_generation (&seen.detected_generation, 2));
  assert_stars (seen.detect, &stars);
  lm_render_worker_free (w);
  drain ();
  g_assert_cmpuint (seen.detected_generation, ==, 2);
  lm_render_channel_close (to);
  data_seen_clear (&seen);
}

/* A receiver closed (the window's FITS file closed) gets nothing more, even of jobs that were
 * waiting or under way; and the worker may go before the receiver does. */
static void
test_closed_receiver (void)
{
  WorkerSeen ws = { { 0 } };
  DataSeen seen = { 0 };
  LmRenderWorker *w = worker_new (&ws);
  Stars stars;
  g_autoptr (LmImage) data = star_field (1024, 768, &stars);
  LmRenderChannel *to = lm_render_channel_new_taking (take, &seen);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  LmDataRequest request = { .generation = 1, .data = data, .backend = LM_BACKEND_CPU, .to = to,
                            .cancellable = cancellable };
  LmStretchParams stretch;
  lm_stretch_params_init (&stretch);
  LmDetectParams detect;
  lm_detect_params_init (&detect);
  /* A result made, on its way when the receiver closes. */
  lm_render_worker_stretch (w, &request, &stretch, FALSE);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (!g_main_context_pending (NULL) && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  lm_render_channel_close (to);
  drain ();
  g_assert_cmpuint (seen.stretched, ==, 0);

  /* Jobs waiting or under way. */
  to = lm_render_channel_new_taking (take, &seen);
  request.to = to;
  lm_render_worker_detect (w, &request, &detect);
  lm_render_worker_stretch (w, &request, &stretch, FALSE);
  g_cancellable_cancel (cancellable);
  lm_render_channel_close (to);
  lm_render_worker_free (w);
  drain ();
  g_assert_cmpuint (seen.stretched + seen.detected, ==, 0);

  /* The worker freed with jobs in flight, then the receiver. */
  w = worker_new (&ws);
  to = lm_render_channel_new_taking (take, &seen);
  request.to = to;
  request.cancellable = NULL;
  lm_render_worker_detect (w, &request, &detect);
  lm_render_worker_stretch (w, &request, &stretch, FALSE);
  lm_render_worker_free (w);
  lm_render_channel_close (to);
  drain ();
  g_assert_cmpuint (seen.detected, ==, 0);
  data_seen_clear (&seen);
}

/* CUDA asked for: without a usable device, the CPU computes it and a notice says why; with one,
 * the same stars and view as the CPU's. */
static void
test_cuda_asked (void)
{
  WorkerSeen ws = { { 0 } };
  DataSeen seen = { 0 }, cpu = { 0 };
  LmRenderWorker *w = worker_new (&ws);
  Stars stars;
  g_autoptr (LmImage) data = star_field (320, 240, &stars);
  LmRenderChannel *to = lm_render_channel_new_taking (take, &seen), *to_cpu = lm_render_channel_new_taking (take, &cpu);
  LmDataRequest request = { .generation = 1, .data = data, .backend = LM_BACKEND_CUDA, .to = to };
  LmStretchParams stretch;
  lm_stretch_params_init (&stretch);
  LmDetectParams detect;
  lm_detect_params_init (&detect);
  lm_render_worker_stretch (w, &request, &stretch, FALSE);
  lm_render_worker_detect (w, &request, &detect);
  g_assert_true (await_count (&seen.detected, 1));
  g_assert_true (await_count (&seen.stretched, 1));
  g_assert_no_error (seen.error);
  if (ws.cuda_usable)
    {
      g_assert_cmpstr (seen.backend_name, ==, "cuda");
      g_assert_null (seen.notice);
    }
  else
    {
      g_assert_cmpstr (seen.backend_name, ==, "cpu");
      g_assert_nonnull (seen.notice);
      g_test_message ("%s", seen.notice);
    }
  assert_stars (seen.detect, &stars);
  request.backend = LM_BACKEND_CPU;
  request.to = to_cpu;
  lm_render_worker_stretch (w, &request, &stretch, FALSE);
  g_assert_true (await_count (&cpu.stretched, 1));
  if (seen.view && cpu.view)
    lm_test_assert_same_pixels (seen.view, cpu.view);
  lm_render_worker_free (w);
  lm_render_channel_close (to);
  lm_render_channel_close (to_cpu);
  data_seen_clear (&seen);
  data_seen_clear (&cpu);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/render-astro/stretch-and-detect", test_stretch_and_detect);
  g_test_add_func ("/render-astro/detection-after-other-work", test_detection_after_other_work);
  g_test_add_func ("/render-astro/newer-detection-wins", test_newer_detection_wins);
  g_test_add_func ("/render-astro/closed-receiver", test_closed_receiver);
  g_test_add_func ("/render-astro/cuda-asked", test_cuda_asked);
  return g_test_run ();
}
