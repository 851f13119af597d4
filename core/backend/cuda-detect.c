/* Source detection on a CUDA backend (cuda-astro.h): the steps of detect.h queued
 * on the backend's stream (kernels/astro-*.cu), the image never leaving the device. The host
 * waits once, for the number of sources (to size the catalogue), and at the end for the
 * catalogue, the labels and the maps. Each step is timed between CUDA events. */
#include "config.h"

#include "cuda-astro.h"
#include "cuda-private.h"

#include <gio/gio.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../ops/blur-math.h"
#include "kernels/astro-kernels.h"

#define CHECK(call, error) LM_CUDA_CHECK (call, error)
#define RELEASE(call) LM_CUDA_RELEASE (call)

/* The marks between the steps: start, background, filter, segment, label, measure's start
 * (after the host has read the count) and end. */
enum { MARK_START, MARK_BACKGROUND, MARK_FILTER, MARK_SEGMENT, MARK_LABEL, MARK_MEASURE_START, MARK_MEASURE, MARKS };

typedef struct {
  void *memory;        /* the run's buffers (LmKDetectWork) */
  LmKSource *sources;  /* when they outnumber the room in MEMORY */
  cudaEvent_t marks[MARKS];
} Run;

static void
run_clear (Run *run)
{
  lm_cuda_free (run->memory);
  lm_cuda_free (run->sources);
  for (int i = 0; i < MARKS; i++)
    if (run->marks[i])
      RELEASE (cudaEventDestroy (run->marks[i]));
}

static gboolean
mark (LmBackendCuda *self, Run *run, int which, GError **error)
{
  return CHECK (cudaEventRecord (run->marks[which], self->stream), error);
}

static double
elapsed (Run *run, int from, int to)
{
  float ms = 0.0f;
  if (cudaEventElapsedTime (&ms, run->marks[from], run->marks[to]) != cudaSuccess)
    {
      (void) cudaGetLastError ();
      return 0.0;
    }
  return ms;
}

static void
to_source (const LmKSource *k, LmSource *s)
{
  *s = (LmSource) { .label = k->label, .x = k->x, .y = k->y, .flux = k->flux, .flux_raw = k->flux_raw,
                    .background = k->background, .peak = k->peak, .peak_x = k->peak_x, .peak_y = k->peak_y,
                    .area = k->area, .xmin = k->xmin, .ymin = k->ymin, .xmax = k->xmax, .ymax = k->ymax,
                    .x2 = k->x2, .y2 = k->y2, .xy = k->xy, .a = k->a, .b = k->b, .theta = k->theta,
                    .fwhm = k->fwhm };
}

/* Steps 1 to 4, up to the labels and their counts (COUNTS: found, kept). */
static gboolean
run_to_labels (LmBackendCuda *self, Run *run, LmKDetectJob *job, LmKDetectWork *work, GCancellable *cancellable,
               guint32 counts[2], GError **error)
{
  float weights[LM_BLUR_RADIUS_MAX + 1];
  int radius = lm_blur_radius ((float) job->filter_sigma);
  if (radius > LM_BLUR_RADIUS_MAX)
    radius = LM_BLUR_RADIUS_MAX;
  if (radius > 0)
    lm_blur_weights ((float) job->filter_sigma, radius, weights);
  else
    job->filter_sigma = 0.0; /* a kernel of one tap: the residual as it is */
  return mark (self, run, MARK_START, error)
         && CHECK (lm_k_detect_background (job, work, self->stream), error)
         && mark (self, run, MARK_BACKGROUND, error)
         && !g_cancellable_set_error_if_cancelled (cancellable, error)
         && (radius == 0
             || (CHECK (cudaMemcpyAsync (work->weights, weights, (radius + 1) * sizeof (float), cudaMemcpyHostToDevice,
                                         self->stream), error)
                 && CHECK (lm_k_detect_filter (job, work->weights, radius, work, self->stream), error)))
         && mark (self, run, MARK_FILTER, error)
         && CHECK (lm_k_detect_segment (job, work, self->stream), error)
         && mark (self, run, MARK_SEGMENT, error)
         && !g_cancellable_set_error_if_cancelled (cancellable, error)
         && CHECK (lm_k_detect_label (job, work, self->stream), error)
         && mark (self, run, MARK_LABEL, error)
         && CHECK (cudaMemcpyAsync (counts, work->counts, 2 * sizeof (guint32), cudaMemcpyDeviceToHost, self->stream),
                   error)
         && CHECK (cudaStreamSynchronize (self->stream), error);
}

/* The maps, labels, global statistics and N catalogue entries from the device into RESULT. */
static gboolean
download (LmBackendCuda *self, const LmKDetectWork *work, const LmKSource *sources, LmDetectResult *result,
          GError **error)
{
  gsize n = (gsize) result->width * result->height;
  LmKClipStats global;
  g_autofree LmKSource *k = g_new (LmKSource, MAX (result->n_sources, 1));
  result->background = g_new (float, n);
  result->noise = g_new (float, n);
  result->labels = g_new (guint32, n);
  result->sources = g_new0 (LmSource, MAX (result->n_sources, 1));
  if (!(CHECK (cudaMemcpyAsync (result->background, work->background, n * sizeof (float), cudaMemcpyDeviceToHost,
                                self->stream), error)
        && CHECK (cudaMemcpyAsync (result->noise, work->noise, n * sizeof (float), cudaMemcpyDeviceToHost, self->stream),
                  error)
        && CHECK (cudaMemcpyAsync (result->labels, work->labels, n * sizeof (guint32), cudaMemcpyDeviceToHost,
                                   self->stream), error)
        && CHECK (cudaMemcpyAsync (k, sources, result->n_sources * sizeof (LmKSource), cudaMemcpyDeviceToHost,
                                   self->stream), error)
        && CHECK (cudaMemcpyAsync (&global, work->global, sizeof global, cudaMemcpyDeviceToHost, self->stream), error)
        && CHECK (cudaStreamSynchronize (self->stream), error)))
    return FALSE;
  for (guint i = 0; i < result->n_sources; i++)
    to_source (&k[i], &result->sources[i]);
  result->global = (LmClipStats) { .mean = global.mean, .median = global.median, .std = global.std,
                                   .count = global.count, .iterations = global.iterations };
  return TRUE;
}

/* Pixel indices are 32-bit on the device (labels are, as the contract's guint32 labels). */
static gboolean
check_input (const LmImage *image, GError **error)
{
  g_return_val_if_fail (image->format == LM_FORMAT_GRAY_F32 && image->stride % sizeof (float) == 0, FALSE);
  if ((guint64) image->width * image->height >= G_MAXUINT32)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_TOO_LARGE,
                   _("The image of %u × %u pixels is too large for source detection on the GPU"), image->width,
                   image->height);
      return FALSE;
    }
  return TRUE;
}

LmDetectResult *
lm_detect_cuda (LmBackend *backend, const LmImage *image, const LmDetectParams *params, GCancellable *cancellable,
                GError **error)
{
  LmBackendCuda *self = lm_cuda_self (backend);
  g_autoptr (LmImage) uploaded = NULL;
  if (!check_input (image, error) || !lm_cuda_use_device (self, error))
    return NULL;
  /* A host image (the CLI's, a test's) goes up once; the window's is there already. */
  if (image->allocator->memory != LM_MEMORY_DEVICE)
    {
      if (!(uploaded = lm_backend_upload (backend, (LmImage *) image, error)))
        return NULL;
      image = uploaded;
    }
  LmKDetectJob job = { .width = image->width, .height = image->height, .data = (const float *) image->data,
                       .pitch = image->stride / sizeof (float), .kappa = params->kappa,
                       .max_iterations = params->max_iterations, .threshold = params->threshold,
                       .min_area = params->min_area, .connectivity = params->connectivity,
                       .filter_sigma = params->filter_sigma, .mesh = params->mesh,
                       .mesh_filter = params->mesh_filter };
  Run run = { 0 };
  LmKDetectWork work;
  size_t bytes = 0;
  guint32 counts[2] = { 0, 0 };
  g_autoptr (LmDetectResult) result = g_new0 (LmDetectResult, 1);
  result->width = image->width;
  result->height = image->height;
  gboolean ok = CHECK (lm_k_detect_size (job.width, job.height, job.mesh, &bytes), error)
                && lm_cuda_malloc (&run.memory, bytes, error)
                && CHECK (lm_k_detect_bind (job.width, job.height, job.mesh, run.memory, &work), error);
  /* The parity test's poison: every buffer starts as NaN floats and 0xFFFFFFFF labels, so
   * that a pixel a kernel leaves unwritten cannot pass for background. */
  if (ok && g_getenv ("LUMEN_DETECT_POISON"))
    ok = CHECK (cudaMemsetAsync (run.memory, 0xFF, bytes, self->stream), error);
  for (int i = 0; ok && i < MARKS; i++)
    ok = CHECK (cudaEventCreate (&run.marks[i]), error);
  ok = ok && run_to_labels (self, &run, &job, &work, cancellable, counts, error);
  LmKSource *sources = work.sources;
  if (ok && counts[1] > LM_K_DETECT_SOURCES)
    {
      ok = lm_cuda_malloc ((void **) &run.sources, counts[1] * sizeof (LmKSource), error);
      sources = run.sources;
    }
  result->n_sources = counts[1];
  ok = ok && mark (self, &run, MARK_MEASURE_START, error)
       && CHECK (lm_k_detect_measure (&job, &work, counts[1], sources, self->stream), error)
       && mark (self, &run, MARK_MEASURE, error) && download (self, &work, sources, result, error);
  if (ok)
    {
      LmDetectTimings *t = &result->timings;
      t->background = elapsed (&run, MARK_START, MARK_BACKGROUND);
      t->filter = elapsed (&run, MARK_BACKGROUND, MARK_FILTER);
      t->segment = elapsed (&run, MARK_FILTER, MARK_SEGMENT);
      t->label = elapsed (&run, MARK_SEGMENT, MARK_LABEL);
      t->measure = elapsed (&run, MARK_MEASURE_START, MARK_MEASURE);
      /* The device's time: the one wait for the count between label and measure is the host's. */
      t->total = t->background + t->filter + t->segment + t->label + t->measure;
    }
  if (ok && result->global.count == 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   _("The image has no finite pixel to measure the background from"));
      ok = FALSE;
    }
  if (!ok)
    {
      /* Nothing queued may still use the buffers when they are freed. */
      RELEASE (cudaStreamSynchronize (self->stream));
      run_clear (&run);
      return NULL;
    }
  run_clear (&run);
  return g_steal_pointer (&result);
}
