/* The HDR job (job.h): load → checks → align → calibrate → merge, and the stack's checks. */
#include "job.h"

#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../raw-info.h"
#include "../io/depth.h"
#include "../io/exif.h"
#include "../io/io.h"
#include "raw-align.h"
#include "raw-brackets.h"

struct _LmHdrJob {
  guint n;
  char **paths;
  double *times; /* given; NULL: EXIF, or none */
  LmHdrMethod method;
  gboolean align;
  gboolean response_given;
  float gamma_correction;
  char *no_time_format;

  LmHdrJobProgress progress;
  gpointer progress_data;
  LmTimings *timings;
  LmBackend *fallback;
  GCancellable *cancellable;

  LmHdrStack *stack;    /* host memory */
  LmShift *shifts;      /* once aligned */
  LmResponse response;  /* given, or once calibrated */
  gboolean calibrated;
  LmHdrStack *work;     /* STACK in WORK_ON's memory */
  LmBackend *work_on;
  LmImage *merged;      /* in MERGED_ON's work memory */
  LmBackend *merged_on;
  GString *notice;
};

/* ---- The checks ---- */

gboolean
lm_hdr_job_check_count (guint n, guint max, GError **error)
{
  if (n < 2)
    g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID,
                         n == 1 ? _("an HDR merge needs at least two exposures; one was given")
                                : _("an HDR merge needs at least two exposures; none were given"));
  else if (n > max)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%u exposures: at most %d can be merged"), n, (int) max);
  else
    return TRUE;
  return FALSE;
}

static gboolean
check_times (guint n, const char *const *paths, const double *times, GError **error)
{
  for (guint i = 0; i < n; i++)
    {
      if (!lm_hdr_check_time (paths[i], times[i], error))
        return FALSE;
      for (guint j = 0; j < i; j++)
        if (times[j] == times[i])
          {
            g_autofree char *other = g_filename_display_name (paths[j]);
            g_autofree char *display = g_filename_display_name (paths[i]);
            g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                         _("%s and %s have the same exposure time (%g s): a bracket needs different ones"),
                         other, display, times[i]);
            return FALSE;
          }
    }
  return TRUE;
}

/* PATH's EXIF exposure time. A file that is missing or not a file is answered with the
 * loader's reason, not the EXIF's. */
static gboolean
exif_time (const LmHdrJobSpec *spec, const char *path, double *seconds, GError **error)
{
  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr (LmImage) image = lm_io_load (path, lm_allocator_host (), error);
      if (image == NULL)
        return FALSE;
    }
  GError *e = NULL;
  if (lm_exif_exposure_time (path, seconds, &e))
    return TRUE;
  if (spec->no_time_format)
    g_set_error (error, e->domain, e->code, spec->no_time_format, e->message);
  else
    {
      g_propagate_error (error, g_steal_pointer (&e));
      g_prefix_error (error, _("no exposure time given: "));
    }
  g_clear_error (&e);
  return FALSE;
}

gboolean
lm_hdr_job_check_stack (const LmHdrJobSpec *spec, double **times_out, GError **error)
{
  *times_out = NULL;
  if (!lm_hdr_job_check_count (spec->n, LM_HDR_MAX_EXPOSURES, error))
    return FALSE;
  /* Exposure fusion weighs pixels, not times: no file is asked for one. */
  if (spec->times == NULL && spec->method == LM_HDR_MERTENS)
    return TRUE;
  g_autofree double *times = g_new0 (double, spec->n);
  for (guint i = 0; i < spec->n; i++)
    if (spec->times)
      times[i] = spec->times[i];
    else if (!exif_time (spec, spec->paths[i], &times[i], error))
      return FALSE;
  if (!check_times (spec->n, spec->paths, times, error))
    return FALSE;
  *times_out = g_steal_pointer (&times);
  return TRUE;
}

gboolean
lm_hdr_job_check_size (const char *path, guint width, guint height, const char *first_path, guint first_width,
                       guint first_height, GError **error)
{
  if (width == first_width && height == first_height)
    return TRUE;
  g_autofree char *b = g_filename_display_name (path);
  g_autofree char *a = g_filename_display_name (first_path);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               _("%s is %u×%u but %s is %u×%u: the exposures of a stack must have one size"), b, width, height, a,
               first_width, first_height);
  return FALSE;
}

gboolean
lm_hdr_job_check_member (const char *path, const LmImage *image, const char *first_path, const LmImage *first,
                         GError **error)
{
  g_autofree char *b = g_filename_display_name (path);
  if (image->format == LM_FORMAT_RGBA_F32)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("%s: is already an HDR radiance map, not an 8-bit exposure"),
                   b);
      return FALSE;
    }
  if (first == NULL)
    return TRUE;
  /* Raws merge as scene light, developed; images by their pixel values: one stack is of one
   * kind. */
  g_autofree char *a = g_filename_display_name (first_path);
  if (lm_image_is_raw (image) != lm_image_is_raw (first))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                   lm_image_is_raw (image)
                     ? _("%s is a camera raw but %s is not: the exposures of a stack must be all raws or all images")
                     : _("%s is not a camera raw but %s is: the exposures of a stack must be all raws or all images"),
                   b, a);
      return FALSE;
    }
  if (!lm_hdr_job_check_size (path, image->width, image->height, first_path, first->width, first->height, error))
    return FALSE;
  if (lm_image_is_raw (image))
    return lm_raw_brackets_check_camera (path, image->raw, first_path, first->raw, error);
  guint depth = lm_format_depth (image->format), first_depth = lm_format_depth (first->format);
  gboolean gray = lm_format_channels (image->format) == 1, first_gray = lm_format_channels (first->format) == 1;
  if (depth != first_depth)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s has %u bits per channel but %s has %u: the exposures of a stack must have one depth"), b,
                 depth, a, first_depth);
  else if (gray && !first_gray)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s is gray but %s is in colour: the exposures of a stack must be all gray or all colour"), b, a);
  else if (!gray && first_gray)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                 _("%s is in colour but %s is gray: the exposures of a stack must be all gray or all colour"), b, a);
  else
    return TRUE;
  return FALSE;
}

/* ---- The steps' parts ---- */

LmHdrMethod
lm_hdr_job_method_for (LmHdrMethod method, const LmHdrStack *stack)
{
  if (method != LM_HDR_MERTENS && lm_format_depth (stack->images[0]->format) == 16)
    return LM_HDR_LINEAR;
  return method;
}

gboolean
lm_hdr_job_prepare_depth (LmHdrMethod method, gboolean response_given, LmHdrStack *stack, GError **error)
{
  /* The job develops raws before it merges them (prepare_raw); the batch's stages, which
   * call this, merge what they decode as it is. */
  if (lm_image_is_raw (stack->images[0]))
    {
      g_autofree char *display = g_filename_display_name (stack->paths[0]);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                   _("%s: is a camera raw; the batch does not merge raw brackets yet (lumen-cli hdr and the "
                     "window do)"),
                   display);
      return FALSE;
    }
  if (lm_format_depth (stack->images[0]->format) != 16)
    return TRUE;
  if (method != LM_HDR_MERTENS)
    {
      if (!response_given)
        return TRUE;
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID,
                           _("16-bit exposures are merged as linear data, without a camera response: leave out "
                             "the response"));
      return FALSE;
    }
  for (guint i = 0; i < stack->n; i++)
    {
      LmImage *narrow = lm_image_to_depth8 (stack->images[i], error);
      if (narrow == NULL)
        return FALSE;
      lm_image_unref (stack->images[i]);
      stack->images[i] = narrow;
    }
  return TRUE;
}

/* A copy of STACK whose images are in B's work memory (the same images on the CPU). */
static LmHdrStack *
stack_upload (LmBackend *b, const LmHdrStack *stack, GError **error)
{
  g_autoptr (LmHdrStack) work = g_new0 (LmHdrStack, 1);
  work->n = stack->n;
  work->images = g_new0 (LmImage *, stack->n);
  work->paths = g_new0 (char *, stack->n);
  work->times = stack->times ? g_memdup2 (stack->times, stack->n * sizeof (double)) : NULL;
  for (guint i = 0; i < stack->n; i++)
    work->paths[i] = g_strdup (stack->paths[i]);
  for (guint i = 0; i < stack->n; i++)
    if ((work->images[i] = lm_backend_upload (b, stack->images[i], error)) == NULL)
      return NULL;
  return lm_backend_synchronize (b, error) ? g_steal_pointer (&work) : NULL;
}

/* The median threshold bitmaps of 16-bit exposures are those of their 8-bit rounding (the
 * median splits the same pixels, give or take ties): their shifts are found on that, on the
 * CPU. */
static gboolean
align_16 (const LmAlignParams *params, const LmHdrStack *stack, LmShift *shifts, GError **error)
{
  g_autoptr (LmHdrStack) narrow = g_new0 (LmHdrStack, 1);
  narrow->n = stack->n;
  narrow->images = g_new0 (LmImage *, stack->n);
  narrow->paths = g_new0 (char *, stack->n);
  for (guint i = 0; i < stack->n; i++)
    {
      narrow->paths[i] = g_strdup (stack->paths[i]);
      if ((narrow->images[i] = lm_image_to_depth8 (stack->images[i], error)) == NULL)
        return FALSE;
    }
  return lm_hdr_align_mtb_cpu (params, narrow, shifts, error);
}

gboolean
lm_hdr_job_align (LmBackend *backend, LmHdrStack *stack, LmShift *shifts, GError **error)
{
  LmAlignParams params = LM_ALIGN_PARAMS_INIT;
  gboolean found;
  if (lm_format_depth (stack->images[0]->format) == 16)
    found = align_16 (&params, stack, shifts, error);
  else if (backend == NULL)
    found = lm_hdr_align_mtb_cpu (&params, stack, shifts, error);
  else
    {
      g_autoptr (LmHdrStack) work = stack_upload (backend, stack, error);
      found = work != NULL && lm_backend_hdr_align (backend, &params, work, shifts, error)
              && lm_backend_synchronize (backend, error);
    }
  return found && lm_hdr_stack_apply_shifts (&params, stack, shifts, error);
}

/* OpenCV's defaults: CalibrateDebevec 70 samples, λ 10; CalibrateRobertson 30 iterations,
 * threshold 0.01. */
enum { DEBEVEC_SAMPLES = 70, ROBERTSON_ITERATIONS = 30 };
#define DEBEVEC_LAMBDA 10.0f
#define ROBERTSON_THRESHOLD 0.01f

gboolean
lm_hdr_job_calibrate (LmHdrMethod method, const LmHdrStack *stack, LmResponse *response, GError **error)
{
  switch (method)
    {
    case LM_HDR_DEBEVEC:
      return lm_hdr_calibrate_debevec (stack, DEBEVEC_SAMPLES, DEBEVEC_LAMBDA, response, error);
    case LM_HDR_ROBERTSON:
      return lm_hdr_calibrate_robertson (stack, ROBERTSON_ITERATIONS, ROBERTSON_THRESHOLD, response, error);
    default:
      g_return_val_if_reached (FALSE);
    }
}

guint
lm_hdr_job_calibration_points (const LmHdrStack *stack, guint *xy)
{
  return lm_hdr_debevec_points (stack->images[0]->width, stack->images[0]->height, DEBEVEC_SAMPLES, xy,
                                LM_HDR_MAX_SAMPLES);
}

gboolean
lm_hdr_job_calibrate_pixels (const LmHdrStack *stack, guint n, const guint32 *pixels, LmResponse *response,
                             GError **error)
{
  return lm_hdr_calibrate_debevec_samples (stack->n, n, pixels, stack->times, DEBEVEC_LAMBDA, response, error);
}

void
lm_hdr_job_merge_params (LmHdrMethod method, const LmResponse *response, float gamma_correction,
                         LmHdrMergeParams *params)
{
  *params = (LmHdrMergeParams) { .method = method, .mertens = LM_MERTENS_PARAMS_INIT,
                                 .gamma_correction = gamma_correction };
  if (response)
    params->response = *response;
}

gboolean
lm_hdr_job_merge_queued (LmBackend *backend, const LmHdrMergeParams *params, const LmHdrStack *work, LmImage *out,
                         GError **error)
{
  return lm_backend_hdr_merge (backend, params, work, out, error);
}

/* ---- The job ---- */

LmHdrJob *
lm_hdr_job_new (const LmHdrJobSpec *spec)
{
  LmHdrJob *job = g_new0 (LmHdrJob, 1);
  job->n = spec->n;
  job->paths = g_new0 (char *, spec->n + 1);
  for (guint i = 0; i < spec->n; i++)
    job->paths[i] = g_strdup (spec->paths[i]);
  job->times = spec->times ? g_memdup2 (spec->times, MAX (spec->n, 1) * sizeof (double)) : NULL;
  job->method = spec->method;
  job->align = spec->align;
  job->gamma_correction = spec->gamma_correction;
  job->no_time_format = g_strdup (spec->no_time_format);
  if (spec->response && spec->method != LM_HDR_MERTENS)
    {
      job->response = *spec->response;
      job->response_given = TRUE;
    }
  job->notice = g_string_new (NULL);
  return job;
}

void
lm_hdr_job_free (LmHdrJob *job)
{
  if (job == NULL)
    return;
  g_strfreev (job->paths);
  g_free (job->times);
  g_free (job->no_time_format);
  g_clear_object (&job->cancellable);
  lm_hdr_stack_free (job->stack);
  lm_hdr_stack_free (job->work);
  g_free (job->shifts);
  g_clear_pointer (&job->merged, lm_image_unref);
  g_string_free (job->notice, TRUE);
  g_free (job);
}

void
lm_hdr_job_set_progress (LmHdrJob *job, LmHdrJobProgress progress, gpointer data)
{
  job->progress = progress;
  job->progress_data = data;
}

void
lm_hdr_job_set_timings (LmHdrJob *job, LmTimings *timings)
{
  job->timings = timings;
}

void
lm_hdr_job_set_fallback (LmHdrJob *job, LmBackend *fallback)
{
  job->fallback = fallback;
}

void
lm_hdr_job_set_cancellable (LmHdrJob *job, GCancellable *cancellable)
{
  g_set_object (&job->cancellable, cancellable);
}

static void
progress (LmHdrJob *job, double fraction, const char *label, const LmResponse *response)
{
  if (job->progress)
    job->progress (fraction, label, response, job->progress_data);
}

static void
timed (LmHdrJob *job, const char *label, gint64 start)
{
  if (job->timings && label)
    lm_timings_add (job->timings, label, lm_ms_since (start));
}

static gboolean
cancelled (LmHdrJob *job, GError **error)
{
  return g_cancellable_set_error_if_cancelled (job->cancellable, error);
}

static LmHdrJobSpec
spec_of (const LmHdrJob *job)
{
  return (LmHdrJobSpec) { .n = job->n, .paths = (const char *const *) job->paths, .times = job->times,
                          .method = job->method, .no_time_format = job->no_time_format };
}

/* ---- Raw brackets (raw-brackets.h) ---- */

/* What a raw stack can be asked for: a merge into radiance. */
static gboolean
prepare_raw (LmHdrJob *job, const LmHdrStack *stack, GError **error)
{
  const char *why = NULL;
  if (job->method == LM_HDR_MERTENS)
    why = _("raw brackets are merged into radiance in linear light, not fused: choose Debevec or Robertson (either "
            "gives the same linear merge)");
  else if (job->response_given)
    why = _("raw brackets are merged in linear light, without a camera response: leave out the response");
  if (why == NULL)
    return TRUE;
  g_autofree char *display = g_filename_display_name (stack->paths[0]);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, "%s: %s", display, why);
  return FALSE;
}

gboolean
lm_hdr_job_load (LmHdrJob *job, const LmAllocator *allocator, GError **error)
{
  g_return_val_if_fail (job->stack == NULL, FALSE);
  progress (job, 0.0, _("Loading the exposures…"), NULL);
  gint64 t = g_get_monotonic_time ();
  LmHdrJobSpec spec = spec_of (job);
  g_autoptr (LmHdrStack) s = g_new0 (LmHdrStack, 1);
  if (!lm_hdr_job_check_stack (&spec, &s->times, error))
    return FALSE;
  s->n = job->n;
  s->images = g_new0 (LmImage *, s->n);
  s->paths = g_new0 (char *, s->n);
  for (guint i = 0; i < s->n; i++)
    s->paths[i] = g_strdup (job->paths[i]);
  for (guint i = 0; i < s->n; i++)
    if (cancelled (job, error) || (s->images[i] = lm_io_load (s->paths[i], allocator, error)) == NULL
        || !lm_hdr_job_check_member (s->paths[i], s->images[i], s->paths[0], i ? s->images[0] : NULL, error))
      return FALSE;
  if (lm_image_is_raw (s->images[0]) ? !prepare_raw (job, s, error)
                                      : !lm_hdr_job_prepare_depth (job->method, job->response_given, s, error))
    return FALSE;
  job->stack = g_steal_pointer (&s);
  timed (job, _("load"), t);
  return !cancelled (job, error);
}

/* The stack in B's work memory, uploaded once (again after alignment), timed as LABEL. */
static LmHdrStack *
work_on (LmHdrJob *job, LmBackend *b, const char *label, GError **error)
{
  if (job->work && job->work_on == b)
    return job->work;
  g_clear_pointer (&job->work, lm_hdr_stack_free);
  gint64 t = g_get_monotonic_time ();
  if ((job->work = stack_upload (b, job->stack, error)) == NULL)
    return NULL;
  job->work_on = b;
  if (lm_backend_work_allocator (b)->memory == LM_MEMORY_DEVICE)
    timed (job, label, t);
  return job->work;
}

/* After B failed with *E: TRUE when the fallback should do the step instead (B has no such
 * entry, or the stack does not fit in its memory); the reason joins the notice. */
static gboolean
fallback_instead (LmHdrJob *job, LmBackend *b, GError **e)
{
  if (job->fallback == NULL || b == job->fallback
      || !(g_error_matches (*e, LUMEN_ERROR, LM_ERROR_UNSUPPORTED)
           || g_error_matches (*e, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY)))
    return FALSE;
  g_string_append_printf (job->notice, "%s%s", job->notice->len ? "; " : "", (*e)->message);
  g_clear_error (e);
  return TRUE;
}

static gboolean
find_shifts (LmHdrJob *job, LmBackend *b, LmShift *shifts, GError **error)
{
  LmAlignParams params = LM_ALIGN_PARAMS_INIT;
  LmHdrStack *work = work_on (job, b, _("upload"), error);
  return work != NULL && lm_backend_hdr_align (b, &params, work, shifts, error) && lm_backend_synchronize (b, error);
}

/* Aligned before calibrating: the calibration samples each exposure at the same places. */
static gboolean
align_step (LmHdrJob *job, LmBackend *b, GError **error)
{
  progress (job, 0.25, _("Aligning the exposures…"), NULL);
  LmAlignParams params = LM_ALIGN_PARAMS_INIT;
  g_autofree LmShift *shifts = g_new0 (LmShift, job->n);
  GError *e = NULL;
  gint64 t = g_get_monotonic_time ();
  if (lm_format_depth (job->stack->images[0]->format) == 16)
    {
      if (!align_16 (&params, job->stack, shifts, &e))
        {
          g_propagate_error (error, e);
          return FALSE;
        }
    }
  else if (!find_shifts (job, b, shifts, &e)
           && !(fallback_instead (job, b, &e) && find_shifts (job, job->fallback, shifts, &e)))
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  timed (job, _("align"), t);
  /* The shifted copies replace the exposures; where B computes in its own memory, they go
   * there again now. */
  t = g_get_monotonic_time ();
  LmBackend *on = job->work_on;
  g_clear_pointer (&job->work, lm_hdr_stack_free);
  if (!lm_hdr_stack_apply_shifts (&params, job->stack, shifts, error) || work_on (job, on, NULL, error) == NULL)
    return FALSE;
  job->shifts = g_steal_pointer (&shifts);
  timed (job, _("shift"), t);
  return !cancelled (job, error);
}

static gboolean
calibrate_step (LmHdrJob *job, GError **error)
{
  progress (job, 0.4, _("Calibrating the camera response…"), NULL);
  gint64 t = g_get_monotonic_time ();
  if (!lm_hdr_job_calibrate (job->method, job->stack, &job->response, error))
    return FALSE;
  job->calibrated = TRUE;
  timed (job, _("calibrate"), t);
  return !cancelled (job, error);
}

static LmImage *
merge_on (LmHdrJob *job, LmBackend *b, const LmHdrMergeParams *params, GError **error)
{
  LmHdrStack *work = work_on (job, b, _("upload"), error);
  if (work == NULL)
    return NULL;
  g_autoptr (LmImage) out = lm_image_new (LM_FORMAT_RGBA_F32, work->images[0]->width, work->images[0]->height,
                                          lm_backend_work_allocator (b), error);
  if (out == NULL || !lm_hdr_job_merge_queued (b, params, work, out, error) || !lm_backend_synchronize (b, error))
    return NULL;
  return g_steal_pointer (&out);
}

static gboolean
merge_step (LmHdrJob *job, LmBackend *b, GError **error)
{
  gboolean fusion = job->method == LM_HDR_MERTENS;
  LmHdrMethod method = lm_hdr_job_method_for (job->method, job->stack);
  const LmResponse *response = lm_hdr_job_response (job);
  progress (job, 0.6,
            fusion                      ? _("Fusing the exposures…")
            : method == LM_HDR_LINEAR ? _("Merging the 16-bit exposures as linear data (no camera response)…")
                                      : _("Merging the exposures…"),
            response);
  LmHdrMergeParams params;
  lm_hdr_job_merge_params (method, response, job->gamma_correction, &params);
  GError *e = NULL;
  gint64 t = g_get_monotonic_time ();
  LmBackend *on = b;
  g_autoptr (LmImage) merged = merge_on (job, b, &params, &e);
  if (merged == NULL && fallback_instead (job, b, &e))
    merged = merge_on (job, on = job->fallback, &params, &e);
  if (merged == NULL)
    {
      g_propagate_error (error, e);
      return FALSE;
    }
  timed (job, fusion ? _("fuse") : _("merge"), t);
  if (cancelled (job, error))
    return FALSE;
  job->merged = g_steal_pointer (&merged);
  job->merged_on = on;
  return TRUE;
}

/* SRC (host memory, a raw) developed under PARAMS on B, brought to host memory. */
static LmImage *
develop_on (LmBackend *b, const LmRawParams *params, LmImage *src, GError **error)
{
  g_autoptr (LmImage) work = lm_backend_upload (b, src, error);
  if (work == NULL)
    return NULL;
  g_autoptr (LmImage) scene
    = lm_image_new (LM_FORMAT_RGBA_F32, src->width, src->height, lm_backend_work_allocator (b), error);
  if (scene == NULL || !lm_backend_develop_raw (b, params, src->raw, work, scene, error))
    return NULL;
  g_autoptr (LmImage) host = lm_backend_download (b, scene, error);
  if (host == NULL || !lm_backend_synchronize (b, error))
    return NULL;
  return g_steal_pointer (&host);
}

/* Each raw developed on B (the fallback where B cannot) with one set of parameters and added
 * to the merge on the CPU, one at a time; the radiance then goes to the memory of the backend
 * that developed, where the front ends tone map it. */
static gboolean
raw_merge_step (LmHdrJob *job, LmBackend *b, GError **error)
{
  /* Lined up on the mosaics, before anything is developed: a shift moves the pattern. */
  if (job->align && job->shifts == NULL)
    {
      progress (job, 0.1, _("Aligning the exposures…"), NULL);
      gint64 t = g_get_monotonic_time ();
      g_autofree LmShift *shifts = g_new0 (LmShift, job->n);
      if (!lm_raw_brackets_align (job->stack, shifts, error))
        return FALSE;
      job->shifts = g_steal_pointer (&shifts);
      timed (job, _("align"), t);
      if (cancelled (job, error))
        return FALSE;
    }
  const LmHdrStack *s = job->stack;
  guint reference = lm_raw_brackets_reference (s->times, s->n);
  LmRawParams params;
  lm_raw_brackets_params (s->images[reference]->raw, &params);
  g_autoptr (LmRawMerge) merge
    = lm_raw_merge_new (s->images[0]->width, s->images[0]->height, s->times, s->n, reference, error);
  if (merge == NULL)
    return FALSE;
  progress (job, 0.2, _("Developing and merging the raw exposures in linear light…"), NULL);
  gint64 develop_us = 0, merge_us = 0;
  LmBackend *on = b;
  for (guint i = 0; i < s->n; i++)
    {
      GError *e = NULL;
      gint64 t = g_get_monotonic_time ();
      g_autoptr (LmImage) scene = develop_on (on, &params, s->images[i], &e);
      if (scene == NULL && fallback_instead (job, on, &e))
        scene = develop_on (on = job->fallback, &params, s->images[i], &e);
      if (scene == NULL)
        {
          g_propagate_error (error, e);
          return FALSE;
        }
      develop_us += g_get_monotonic_time () - t;
      t = g_get_monotonic_time ();
      if (!lm_raw_merge_add (merge, i, &params, s->images[i], scene, error))
        return FALSE;
      merge_us += g_get_monotonic_time () - t;
      progress (job, 0.2 + 0.7 * (i + 1) / s->n, _("Developing and merging the raw exposures in linear light…"),
                NULL);
      if (cancelled (job, error))
        return FALSE;
    }
  if (job->timings)
    {
      lm_timings_add (job->timings, _("develop"), develop_us / 1000.0);
      lm_timings_add (job->timings, _("merge"), merge_us / 1000.0);
    }
  g_autoptr (LmImage) radiance = lm_raw_merge_finish (merge);
  g_autoptr (LmImage) merged = lm_backend_upload (on, radiance, error);
  if (merged == NULL || !lm_backend_synchronize (on, error))
    return FALSE;
  if (merged != radiance)
    lm_image_copy_metadata (merged, radiance);
  job->merged = g_steal_pointer (&merged);
  job->merged_on = on;
  return TRUE;
}

static gboolean
process (LmHdrJob *job, LmBackend *backend, GError **error)
{
  g_clear_pointer (&job->merged, lm_image_unref);
  job->merged_on = NULL;
  if (cancelled (job, error))
    return FALSE;
  /* Each raw goes to the backend by itself, to be developed there. */
  if (lm_image_is_raw (job->stack->images[0]))
    return raw_merge_step (job, backend, error);
  /* Uploaded first, so that the steps' timings read in order; a stack that does not fit in
   * BACKEND's memory is done on the fallback throughout. */
  GError *e = NULL;
  if (work_on (job, backend, _("upload"), &e) == NULL)
    {
      if (!fallback_instead (job, backend, &e))
        {
          g_propagate_error (error, e);
          return FALSE;
        }
      backend = job->fallback;
    }
  if (job->align && job->shifts == NULL && !align_step (job, backend, error))
    return FALSE;
  /* 16-bit exposures are linear: nothing to calibrate. */
  if (lm_hdr_job_method_for (job->method, job->stack) != LM_HDR_LINEAR && job->method != LM_HDR_MERTENS
      && !job->response_given && !job->calibrated && !calibrate_step (job, error))
    return FALSE;
  return merge_step (job, backend, error);
}

gboolean
lm_hdr_job_process (LmHdrJob *job, LmBackend *backend, GError **error)
{
  g_return_val_if_fail (job->stack != NULL, FALSE);
  gboolean ok = process (job, backend, error);
  /* The uploaded exposures are of no more use (a retry on another backend uploads again),
   * and must not outlive the backend whose memory they are in. */
  g_clear_pointer (&job->work, lm_hdr_stack_free);
  job->work_on = NULL;
  return ok;
}

gboolean
lm_hdr_job_run (LmHdrJob *job, LmBackend *backend, const LmAllocator *allocator, GError **error)
{
  return lm_hdr_job_load (job, allocator, error) && lm_hdr_job_process (job, backend, error);
}

const LmHdrStack *
lm_hdr_job_stack (const LmHdrJob *job)
{
  return job->stack;
}

const LmShift *
lm_hdr_job_shifts (const LmHdrJob *job)
{
  return job->shifts;
}

const LmResponse *
lm_hdr_job_response (const LmHdrJob *job)
{
  return job->response_given || job->calibrated ? &job->response : NULL;
}

LmImage *
lm_hdr_job_steal_merged (LmHdrJob *job)
{
  return g_steal_pointer (&job->merged);
}

LmBackend *
lm_hdr_job_merged_on (const LmHdrJob *job)
{
  return job->merged_on;
}

const char *
lm_hdr_job_notice (const LmHdrJob *job)
{
  return job->notice->len ? job->notice->str : NULL;
}

/* The job's load and checks alone, kept for the parity test. */
LmHdrStack *
lm_hdr_stack_load (const char *const *paths, guint n, const double *times, const LmAllocator *allocator,
                   GError **error)
{
  LmHdrJobSpec spec = { .n = n, .paths = paths, .times = times, .method = LM_HDR_DEBEVEC };
  g_autoptr (LmHdrJob) job = lm_hdr_job_new (&spec);
  if (!lm_hdr_job_load (job, allocator, error))
    return NULL;
  return g_steal_pointer (&job->stack);
}
