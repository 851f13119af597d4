/* Object detection in a photo as a job of the render worker (core/render/job-objects.c): the
 * boxes are the CPU reference's (lm_cascade_detect on the astronaut, opencv-data's faces) and
 * go to the receiver that asked, not to the worker's own; a newer request replaces one waiting
 * or under way (one result, the newer's); a request cancelled brings nothing; previews asked
 * for meanwhile stop it, and it comes once after them; a model file that cannot be read is
 * said with its name; CUDA asked for gives the same boxes on the device, or where there is
 * none says so and runs on the CPU. Skipped where opencv-data is not installed. */
#include <string.h>

#include "core/detect/gray8.h"
#include "core/detect/models.h"
#include "core/render/render.h"
#include "test-util.h"

typedef struct {
  guint worker_objects;
  gboolean ready, cuda_usable;
} WorkerSeen;

typedef struct {
  guint results;
  guint64 generation;
  GArray *boxes;
  char *notice, *backend_name;
  GError *error;
  double ms;
} Seen;

static void
on_worker_result (const LmRenderResult *r, gpointer data)
{
  WorkerSeen *seen = data;
  seen->worker_objects += r->kind == LM_RESULT_OBJECTS;
  if (r->kind == LM_RESULT_READY)
    seen->ready = TRUE, seen->cuda_usable = r->cuda_unavailable == NULL;
}

static void
take (LmRenderResult *r, gpointer data)
{
  Seen *seen = data;
  g_assert_cmpint (r->kind, ==, LM_RESULT_OBJECTS);
  seen->results++;
  seen->generation = r->generation;
  seen->ms = r->render_ms;
  g_clear_pointer (&seen->boxes, g_array_unref);
  seen->boxes = g_steal_pointer (&r->objects);
  g_free (seen->notice);
  seen->notice = g_steal_pointer (&r->notice);
  g_free (seen->backend_name);
  seen->backend_name = g_strdup (r->backend_name);
  g_clear_error (&seen->error);
  seen->error = g_steal_pointer (&r->error);
}

static void
seen_clear (Seen *seen)
{
  g_clear_pointer (&seen->boxes, g_array_unref);
  g_clear_pointer (&seen->notice, g_free);
  g_clear_pointer (&seen->backend_name, g_free);
  g_clear_error (&seen->error);
}

static gboolean
await_count (const guint *count, guint at_least)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (*count < at_least && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
  return *count >= at_least;
}

/* Runs the default context for MS milliseconds: whatever was to come has come. */
static void
run_for (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE) || (g_usleep (1000), TRUE);
}

static LmRenderWorker *
worker_new (WorkerSeen *seen)
{
  LmRenderWorker *w = lm_render_worker_new (g_main_context_default (), on_worker_result, seen);
  g_assert_true (await_count ((const guint *) &seen->ready, 1));
  return w;
}

static char *model_path;
static LmImage *photo;
static GArray *want; /* the reference's boxes */

static void
assert_want (const GArray *boxes)
{
  g_assert_nonnull (boxes);
  g_assert_cmpuint (boxes->len, ==, want->len);
  g_assert_cmpmem (boxes->data, boxes->len * sizeof (LmCascadeBox), want->data, want->len * sizeof (LmCascadeBox));
}

static void
params_init (LmCascadeParams *p)
{
  lm_cascade_params_init (p);
  p->min_width = p->min_height = 40; /* the astronaut's face is ~150 px: seconds at most */
}

static void
test_boxes (void)
{
  if (model_path == NULL)
    {
      g_test_skip ("opencv-data is not installed");
      return;
    }
  WorkerSeen ws = { 0 };
  Seen seen = { 0 };
  LmRenderWorker *w = worker_new (&ws);
  LmRenderChannel *to = lm_render_channel_new_taking (take, &seen);
  LmCascadeParams p;
  params_init (&p);
  LmDataRequest request = { .generation = 7, .data = photo, .backend = LM_BACKEND_CPU, .to = to };
  lm_render_worker_detect_objects (w, &request, model_path, &p);
  g_assert_true (await_count (&seen.results, 1));
  g_assert_no_error (seen.error);
  g_assert_cmpuint (seen.generation, ==, 7);
  g_assert_cmpstr (seen.backend_name, ==, "cpu");
  g_assert_null (seen.notice);
  g_assert_cmpfloat (seen.ms, >, 0);
  g_test_message ("%u boxes in %.0f ms", seen.boxes ? seen.boxes->len : 0, seen.ms);
  assert_want (seen.boxes);

  /* A newer request replaces the one under way: one result, the newer's. Previews asked for
   * meanwhile (no photo: each answers at once) stop it, and it comes once after them. */
  request.generation = 8;
  lm_render_worker_detect_objects (w, &request, model_path, &p);
  request.generation = 9;
  lm_render_worker_detect_objects (w, &request, model_path, &p);
  for (int k = 0; k < 3; k++)
    {
      g_usleep (20000);
      LmRenderRequest preview = { .generation = k + 1, .backend = LM_BACKEND_CPU };
      lm_pipeline_init (&preview.pipeline);
      lm_render_worker_request (w, &preview);
    }
  g_assert_true (await_count (&seen.results, 2));
  run_for (300);
  g_assert_cmpuint (seen.results, ==, 2);
  g_assert_cmpuint (seen.generation, ==, 9);
  assert_want (seen.boxes);

  /* Cancelled: nothing comes. */
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  request.generation = 10;
  request.cancellable = cancellable;
  lm_render_worker_detect_objects (w, &request, model_path, &p);
  g_cancellable_cancel (cancellable);
  run_for (500);
  g_assert_cmpuint (seen.results, ==, 2);
  request.cancellable = NULL;

  /* A model file that cannot be read: said, with its name. */
  request.generation = 11;
  lm_render_worker_detect_objects (w, &request, "/nonexistent/model.xml", &p);
  g_assert_true (await_count (&seen.results, 3));
  g_assert_nonnull (seen.error);
  g_assert_nonnull (strstr (seen.error->message, "/nonexistent/model.xml"));

  /* CUDA: on the device where there is one, the CPU's boxes; where there is none, the CPU,
   * and why. */
  request.generation = 12;
  request.backend = LM_BACKEND_CUDA;
  lm_render_worker_detect_objects (w, &request, model_path, &p);
  g_assert_true (await_count (&seen.results, 4));
  g_assert_no_error (seen.error);
  g_assert_cmpstr (seen.backend_name, ==, ws.cuda_usable ? "cuda" : "cpu");
  if (ws.cuda_usable)
    g_assert_null (seen.notice);
  else
    g_assert_nonnull (seen.notice);
  assert_want (seen.boxes);
  g_assert_cmpuint (ws.worker_objects, ==, 0);
  lm_render_worker_free (w);
  lm_render_channel_close (to);
  seen_clear (&seen);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  model_path = lm_cascade_model_path ("faces", NULL);
  photo = lm_test_load_photo ("astronaut.tif");
  if (model_path)
    {
      g_autoptr (LmCascade) cascade = lm_cascade_load (model_path, NULL);
      g_assert_nonnull (cascade);
      g_autofree guint8 *gray = lm_cascade_gray8 (photo, NULL);
      LmCascadeParams p;
      params_init (&p);
      want = lm_cascade_detect (cascade, gray, photo->width, photo->width, photo->height, &p, NULL, NULL);
      g_assert_nonnull (want);
      g_assert_cmpuint (want->len, >, 0);
    }
  g_test_add_func ("/render-objects/boxes", test_boxes);
  int rc = g_test_run ();
  g_clear_pointer (&want, g_array_unref);
  lm_image_unref (photo);
  g_free (model_path);
  return rc;
}
