/* LmAstroSession: the float data of an open FITS file, which the render worker turns into the
 * 8-bit view (the display stretch) and runs source detection on, on the CPU or the CUDA
 * backend as asked (core/render/job-astro.c). The main thread posts requests and never waits:
 * each kind has a one-slot mailbox (a newer request replaces a waiting one, and stops a
 * detection under way), results come back in the main context with their generation, so
 * stale ones can be dropped. */
#pragma once

#include <glib.h>


#include "core/astro/detect.h"
#include "core/astro/stretch.h"
#include "core/render/render.h"

G_BEGIN_DECLS

typedef struct _LmAstroSession LmAstroSession;

typedef struct {
  gboolean is_detect;
  guint64 generation;
  GError *error;            /* the request failed: why */
  char *notice;             /* it ran, on the CPU instead of the GPU: why */
  const char *backend_name; /* "cpu", "cuda" */
  /* stretch */
  LmImage *view;            /* RGBA8, host memory, row 0 at the bottom where flipped */
  double low, high;
  LmHistogram histogram;    /* of the data values from LOW to HIGH */
  double ms;
  /* detect */
  LmDetectResult *detect;
} LmAstroResult;

/* Runs in the main context for each result; the result is freed afterwards (steal what is
 * kept). */
typedef void (*LmAstroDone) (LmAstroResult *result, gpointer user_data);

/* DATA: GRAY_F32 in host memory (a reference is taken); WORKER runs the jobs and outlives
 * every request. */
LmAstroSession *lm_astro_session_new (LmRenderWorker *worker, LmImage *data, gboolean flip, LmAstroDone done,
                                      gpointer user_data);
/* Stops the session's jobs (a detection under way between its steps); no result comes after.
 * The worker need not be there any more. */
void lm_astro_session_free (LmAstroSession *session);

void lm_astro_session_stretch (LmAstroSession *session, guint64 generation, const LmStretchParams *params,
                               LmBackendKind backend);
void lm_astro_session_detect (LmAstroSession *session, guint64 generation, const LmDetectParams *params,
                              LmBackendKind backend);

G_END_DECLS
