/* The HDR job: a bracketed stack loaded, checked, aligned, calibrated and merged, the one
 * piece of code behind the window's Merge HDR (core/render/merge.c), `lumen-cli hdr` and the
 * batch (core/batch/). The stack checks (count, times, sizes, gray or colour) live here and
 * nowhere else, so that one bad stack is refused with one message whichever front end gave
 * it; exposure times as text are read by lm_hdr_parse_seconds and each time is checked by
 * lm_hdr_check_time (core/hdr/stack.h), which an exposures file's lines need before a job.
 *
 * A job is driven step by step: lm_hdr_job_load (host memory), then lm_hdr_job_process on a
 * backend (alignment, calibration, merge). Camera raws are aligned on their mosaics
 * (raw-align.h), developed there, each with one set of raw parameters, and merged in linear
 * light (raw-brackets.h): the radiance is then a developed raw's scene, linear Rec. 2020,
 * tagged so; raws are never fused. A front end that retries on the CPU after a device failure
 * calls lm_hdr_job_process again: what is done (the shifts applied, the curve) is not done
 * twice. The batch keeps its own stages for throughput (files read by reader threads,
 * decoded from memory or by nvJPEG, merged into kept device buffers); its stages call the
 * parts below (lm_hdr_job_check_stack, lm_hdr_job_check_member, lm_hdr_job_align,
 * lm_hdr_job_calibrate, lm_hdr_job_merge_params, lm_hdr_job_merge_queued). */
#pragma once

#include <gio/gio.h>

#include "../backend/backend.h"
#include "../timing.h"
#include "../hdr/align.h"
#include "../hdr/merge.h"
#include "../hdr/response.h"
#include "../hdr/stack.h"

G_BEGIN_DECLS

/* What to merge, as a front end describes it. Nothing is copied from it but by
 * lm_hdr_job_new. */
typedef struct {
  guint n;
  const char *const *paths;
  const double *times;     /* seconds; NULL: each file's EXIF ExposureTime, or none for fusion */
  LmHdrMethod method;
  gboolean align;
  const LmResponse *response; /* the camera's curve, given: no calibration; NULL: calibrate */
  float gamma_correction;     /* LmHdrMergeParams' */
  /* How a file without an EXIF time is told: a printf format with one %s, the EXIF's reason
   * (lumen-cli names its flags that give times); NULL: "no exposure time given: REASON". */
  const char *no_time_format;
} LmHdrJobSpec;

typedef struct _LmHdrJob LmHdrJob;

/* A step began: FRACTION of the whole job, LABEL for people ("Merging the exposures…");
 * RESPONSE once calibrated (with the merge's step), else NULL. */
typedef void (*LmHdrJobProgress) (double fraction, const char *label, const LmResponse *response,
                                  gpointer data);

LmHdrJob *lm_hdr_job_new (const LmHdrJobSpec *spec);
void lm_hdr_job_free (LmHdrJob *job);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmHdrJob, lm_hdr_job_free)

/* All optional. TIMINGS receives a line per step ("load", "upload" where the backend copies,
 * "align", "shift", "calibrate", "merge" or "fuse"). FALLBACK (the CPU backend) does a step
 * that the backend cannot (unsupported, out of its memory); the reasons are the notice. A
 * cancelled CANCELLABLE ends the job between steps with G_IO_ERROR_CANCELLED. */
void lm_hdr_job_set_progress (LmHdrJob *job, LmHdrJobProgress progress, gpointer data);
void lm_hdr_job_set_timings (LmHdrJob *job, LmTimings *timings);
void lm_hdr_job_set_fallback (LmHdrJob *job, LmBackend *fallback);
void lm_hdr_job_set_cancellable (LmHdrJob *job, GCancellable *cancellable);

/* The stack's checks, then its exposures into ALLOCATOR's (host) memory, each checked. */
gboolean lm_hdr_job_load (LmHdrJob *job, const LmAllocator *allocator, GError **error);

/* Alignment (when asked, once), calibration (unless given, once), then the merge on BACKEND
 * (or the fallback): the radiance (or fusion) in the work memory of
 * lm_hdr_job_merged_on's backend, synchronized. */
gboolean lm_hdr_job_process (LmHdrJob *job, LmBackend *backend, GError **error);

/* lm_hdr_job_load and lm_hdr_job_process. */
gboolean lm_hdr_job_run (LmHdrJob *job, LmBackend *backend, const LmAllocator *allocator, GError **error);

/* The results: the loaded (and aligned) stack in host memory; each exposure's shift (NULL
 * unless aligned); the curve the merge used (NULL for fusion); the merged image (the
 * caller's: it is in the memory of the backend that merged it, which must outlive it), NULL
 * before lm_hdr_job_process succeeds; that backend; why steps ran on the fallback
 * ("; "-separated, NULL when none did). */
const LmHdrStack *lm_hdr_job_stack (const LmHdrJob *job);
const LmShift *lm_hdr_job_shifts (const LmHdrJob *job);
const LmResponse *lm_hdr_job_response (const LmHdrJob *job);
LmImage *lm_hdr_job_steal_merged (LmHdrJob *job);
LmBackend *lm_hdr_job_merged_on (const LmHdrJob *job);
const char *lm_hdr_job_notice (const LmHdrJob *job);

/* Loads PATHS as the HDR job loads a stack, with its checks; TIMES (may be NULL)
 * gives the exposure times, otherwise each file's EXIF ExposureTime. Kept for the parity
 * test; the front ends run the job. */
LmHdrStack *lm_hdr_stack_load (const char *const *paths, guint n, const double *times,
                               const LmAllocator *allocator, GError **error);

/* ---- The parts, for the batch's stages and the dialog's early checks ---- */

/* The stack as a whole before any pixel: 2 to LM_HDR_MAX_EXPOSURES files, and their times
 * (given, or read from EXIF; none for fusion without times) positive, within
 * LM_HDR_MIN/MAX_SECONDS and distinct. *TIMES: SPEC->n seconds (g_free), or NULL. */
gboolean lm_hdr_job_check_stack (const LmHdrJobSpec *spec, double **times, GError **error);

/* The count alone: at least 2 (a reason for none or one), at most MAX. */
gboolean lm_hdr_job_check_count (guint n, guint max, GError **error);

/* Whether IMAGE, loaded from PATH, can join a stack whose first exposure is FIRST (loaded
 * from FIRST_PATH; NULL when IMAGE is the first): 8- or 16-bit, of FIRST's size and depth,
 * and gray or colour as FIRST is (the merges read a pixel's exposures as one kind); a camera
 * raw only with raws of the same camera (raw-brackets.h), a raw bracket being developed and
 * merged in linear light. The message names both. */
gboolean lm_hdr_job_check_member (const char *path, const LmImage *image, const char *first_path,
                                  const LmImage *first, GError **error);

/* The size part of that check, for exposures known only by their headers (the dialog). */
gboolean lm_hdr_job_check_size (const char *path, guint width, guint height, const char *first_path,
                                guint first_width, guint first_height, GError **error);

/* The merge a stack of METHOD gets: 16-bit exposures are merged as linear data
 * (LM_HDR_LINEAR, merge-math.h) in place of Debevec's or Robertson's, without a camera
 * response; fusion stays fusion. */
LmHdrMethod lm_hdr_job_method_for (LmHdrMethod method, const LmHdrStack *stack);

/* Readies a loaded STACK (host memory) for METHOD by its depth: 16-bit exposures to be fused
 * are rounded to 8 bits (Mertens' weights are defined on 8-bit values); a camera response
 * given (RESPONSE_GIVEN) for 16-bit exposures to be merged is refused, since their merge is
 * linear. Camera raws are refused: the job develops them (lm_hdr_job_load), the batch's
 * stages, which call this, do not yet. */
gboolean lm_hdr_job_prepare_depth (LmHdrMethod method, gboolean response_given, LmHdrStack *stack,
                                   GError **error);

/* Finds the shifts of STACK's exposures (host memory) on BACKEND (NULL: the CPU reference,
 * in this thread) and applies them to STACK, cropped as OpenCV's AlignMTB. SHIFTS: n. */
gboolean lm_hdr_job_align (LmBackend *backend, LmHdrStack *stack, LmShift *shifts, GError **error);

/* The camera's curve for METHOD from STACK (host memory), with OpenCV's defaults (Debevec:
 * 70 samples, λ 10; Robertson: 30 iterations, 0.01). Fusion has none: FALSE. */
gboolean lm_hdr_job_calibrate (LmHdrMethod method, const LmHdrStack *stack, LmResponse *response,
                               GError **error);

/* Debevec's curve as lm_hdr_job_calibrate finds it, in two steps for a stack whose pixels lie
 * elsewhere (the batch: on the GPU, read while the stack's decoder is at hand, and solved on
 * the CPU after the decoder went back): the points it reads, at most LM_HDR_MAX_SAMPLES x, y
 * pairs into XY (their count), then the curve from PIXELS, the N_IMAGES × N RGBA8 words read
 * there, exposure after exposure. */
guint lm_hdr_job_calibration_points (const LmHdrStack *stack, guint *xy);
gboolean lm_hdr_job_calibrate_pixels (const LmHdrStack *stack, guint n, const guint32 *pixels, LmResponse *response,
                                      GError **error);

/* The merge's parameters for METHOD: OpenCV's Mertens weights, RESPONSE (may be NULL for
 * fusion), GAMMA_CORRECTION. */
void lm_hdr_job_merge_params (LmHdrMethod method, const LmResponse *response, float gamma_correction,
                              LmHdrMergeParams *params);

/* Queues the merge of WORK (BACKEND's memory) into OUT (RGBA_F32, WORK's size) on BACKEND;
 * the caller synchronizes. */
gboolean lm_hdr_job_merge_queued (LmBackend *backend, const LmHdrMergeParams *params, const LmHdrStack *work,
                                  LmImage *out, GError **error);

G_END_DECLS
