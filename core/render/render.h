/* The render worker: one thread that owns both backends and the device. The main thread
 * posts requests and receives results in its main context; it never waits on a render.
 *
 * Previews go through a one-slot mailbox: a new request replaces a waiting one, and the
 * result of a request that has been superseded is still delivered with its generation, so
 * that the receiver can drop it. Compare and export jobs go through a queue and are never
 * dropped. An HDR merge is such a job too: its radiance becomes the source of later renders.
 * FITS data has two jobs of its own, its display stretch and source detection (job-astro.c),
 * each through a one-slot mailbox of its own; their results go to the receiver that asked.
 * Object detection in a photo (job-objects.c) has a mailbox of its own too, and runs as source
 * detection does: when nothing else waits. */
#pragma once

#include <gio/gio.h>

#include "../astro/detect.h"
#include "../astro/stretch.h"
#include "../backend/backend.h"
#include "../color/view-transform.h"
#include "../detect/detect.h"
#include "../ops/compare.h"
#include "../hdr/align.h"
#include "../hdr/merge.h"
#include "../io/io.h"
#include "../edit/pipeline.h"
#include "../timing.h"

G_BEGIN_DECLS

typedef struct _LmRenderWorker LmRenderWorker;

typedef struct {
  guint64 generation;
  LmPipeline pipeline;
  LmBackendKind backend; /* LM_BACKEND_CPU or LM_BACKEND_CUDA */
  LmViewRect view;       /* the visible region and the view's size */
  gint64 changed_us;     /* when the change behind it was made (g_get_monotonic_time) */
  /* PREVIEW: also the same view of the source with every operation off but the geometry
   * (tone mapping kept, as radiance needs it to be seen at all; crop, rotation and
   * straightening kept, so that it is the same size and region): the "before" half of a split
   * view, made in the same render so that both halves are of one region. */
  gboolean with_before;
  /* PREVIEW: also the histogram as seen on screen (through the view transform). */
  gboolean seen_histogram;
  /* PREVIEW: the instance whose mask comes back over the view (MASK_VIEW), 0: none; where
   * 0, the worker sets lm_render_worker_show_mask's. */
  guint32 mask_of;
} LmRenderRequest;

typedef enum {
  LM_RESULT_READY,    /* the worker started: whether CUDA is usable */
  LM_RESULT_PREVIEW,  /* a render of the view */
  LM_RESULT_COMPARE,  /* both backends at full resolution, and their difference */
  LM_RESULT_PROGRESS, /* an export moved on */
  LM_RESULT_EXPORTED, /* an export finished (or failed: error) */
  LM_RESULT_MERGE_PROGRESS, /* an HDR merge moved on (step, fraction; response once known) */
  LM_RESULT_MERGED,   /* an HDR merge finished (image) or failed (error) */
  LM_RESULT_STRETCHED, /* FITS data's 8-bit view (view, low, high, histogram) or why not */
  LM_RESULT_DETECTED,  /* the sources in FITS data (detect) or why not */
  LM_RESULT_OBJECTS,   /* the objects found in a photo (objects) or why not */
} LmResultKind;

/* What to merge: N exposures with their times in seconds (known for each: the window asks
 * for those EXIF lacks), how, and on which backend (the request's). */
typedef struct {
  const char *const *paths;
  const double *times;
  guint n;
  LmHdrMethod method;
  gboolean align;
} LmMergeSpec;

typedef struct {
  LmResultKind kind;
  guint64 generation;
  GError *error;      /* the request failed; the window shows it and stays usable */
  char *notice;       /* something went otherwise than asked (GPU out of memory, so CPU) */

  /* READY */
  char *cuda_unavailable; /* NULL when CUDA is usable */
  char *cuda_description;

  /* PREVIEW and COMPARE */
  LmViewRect view_rect;
  LmImage *view;      /* host, view-sized: RGB24 words (PREVIEW); ARGB32 heatmap (COMPARE) */
  LmImage *before_view; /* PREVIEW of a request with_before, full resolution: RGB24 words */
  /* PREVIEW of a request with mask_of, full resolution: that instance's mask on the view's
   * rectangle as premultiplied ARGB32 words, red at alpha 0.5·M; NULL when the render applied
   * no mask of it. */
  LmImage *mask_view;
  gboolean refined;   /* PREVIEW at full resolution; FALSE for the CPU's quick first pass */
  /* PREVIEW of a photo viewed through its pyramid (pyramid.h): how many times smaller than
   * the photo the level rendered was (1: full resolution; 0: not through a pyramid), and
   * whether only the visible region of it was rendered (the histogram then comes from a
   * small level of the whole photo). */
  double level_factor;
  gboolean region;
  LmHistogram histogram;
  LmHistogram seen_histogram; /* PREVIEW of a request for it (has_seen_histogram) */
  gboolean has_seen_histogram;
  LmTimings timings;  /* PREVIEW: of this render; COMPARE: of the first backend */
  LmTimings timings_other; /* COMPARE: of the second backend */
  double render_ms;   /* the operations, full resolution */
  double other_ms;
  double upload_ms;   /* PREVIEW: the photo's upload, when this render made it (else 0) */
  double download_ms; /* PREVIEW: the view's way back */
  const char *backend_name;
  const char *other_name; /* COMPARE: the second backend */
  gint64 changed_us;
  gint64 posted_us;    /* when the worker posted it: its render done, before the main loop takes it */
  guint width, height; /* of the image */
  gboolean raw;        /* MERGED: of camera raws, developed (its display transform: a raw's) */

  /* COMPARE */
  LmDiffStats diff;

  /* PROGRESS, EXPORTED, MERGE_PROGRESS */
  double fraction;
  char *path;

  /* MERGE_PROGRESS, MERGED */
  const char *step;      /* what is being done, for people (translated, static) */
  LmResponse *response;  /* the calibrated camera response (Debevec, Robertson), once */
  LmImage *image;        /* MERGED: the radiance (or fused image), host memory: the new source */
  LmHdrMethod method;

  /* STRETCHED: the display limits; VIEW is RGBA8 in host memory, HISTOGRAM of the data
   * values from LOW to HIGH, RENDER_MS the whole stretch */
  double low, high;
  /* DETECTED */
  LmDetectResult *detect;
  /* OBJECTS: LmCascadeBox in the photo's pixels, grouped and sorted as lm_cascade_detect
   * gives them; RENDER_MS the detection's time (the model's file read included when this job
   * read it), BACKEND_NAME where it ran */
  GArray *objects;
} LmRenderResult;

/* Called in the worker's main context for every result; RESULT is freed afterwards. */
typedef void (*LmRenderDone) (const LmRenderResult *result, gpointer user_data);

/* Called in the worker's main context for each result of a job on FITS data; RESULT is freed
 * afterwards, less what the receiver took of it (its VIEW, its DETECT). */
typedef void (*LmRenderTake) (LmRenderResult *result, gpointer user_data);

/* A receiver of the results of jobs on FITS data, other than the worker's own (DONE). */
typedef struct _LmRenderChannel LmRenderChannel;

/* A receiver that hands each result to TAKE, until it is closed. */
LmRenderChannel *lm_render_channel_new_taking (LmRenderTake take, gpointer user_data);
/* Nothing more reaches the receiver, results in flight included. */
void lm_render_channel_close (LmRenderChannel *channel);

/* A job on FITS data, or on a photo (object detection). */
typedef struct {
  guint64 generation;
  LmImage *data;             /* FITS: GRAY_F32 in host memory, uploaded once per backend it runs
                              * on; objects: the photo as opened, in host memory */
  LmBackendKind backend;     /* the CPU where the data cannot be on CUDA: a notice says so */
  LmRenderChannel *to;       /* where the result goes */
  GCancellable *cancellable; /* stops the job; no result comes of it then */
} LmDataRequest;

/* Starts the worker. DONE runs in CONTEXT (the main thread's). */
LmRenderWorker *lm_render_worker_new (GMainContext *context, LmRenderDone done, gpointer user_data);

/* Stops the thread after the job in hand; results not yet delivered are dropped. */
void lm_render_worker_free (LmRenderWorker *worker);

/* Host memory that uploads fastest: pinned when CUDA is usable (known once READY came). */
const LmAllocator *lm_render_worker_host_allocator (LmRenderWorker *worker);

/* A new photo (host memory): caches are dropped, it is uploaded once per backend. */
void lm_render_worker_set_source (LmRenderWorker *worker, LmImage *source);

/* The view transform (core/color/view-transform.h; NULL: none) that the views and the "as
 * seen" histograms of the next previews go through: one per photo and monitor profile. */
void lm_render_worker_set_view_transform (LmRenderWorker *worker, LmViewTransform *xf);

void lm_render_worker_request (LmRenderWorker *worker, const LmRenderRequest *request);

/* The mask of instance ID (0: none) comes back with the next previews (their MASK_OF): the
 * window's "show mask", set before its requests. */
void lm_render_worker_show_mask (LmRenderWorker *worker, guint32 id);

/* REQUEST's pipeline at full resolution on backends A and B (CPU and CUDA; or the CPU twice
 * where no device is usable); REQUEST.view says where the heatmap (at GAIN) is shown. */
void lm_render_worker_compare (LmRenderWorker *worker, const LmRenderRequest *request,
                               LmBackendKind a, LmBackendKind b, float gain);

/* REQUEST's pipeline at full resolution on its backend, written to PATH; progress and the
 * outcome come back as results; CANCELLABLE stops it between steps. */
void lm_render_worker_export (LmRenderWorker *worker, const LmRenderRequest *request,
                              const char *path, const LmSaveOptions *options,
                              GCancellable *cancellable);

/* Merges SPEC's exposures on REQUEST's backend (the CPU where that one cannot: a notice says
 * so): load, align, calibrate on the CPU, upload, merge. Progress comes back as results, the
 * response as soon as it is known; on success the merged image replaces the source in both
 * backends and MERGED carries it. A render request waiting for the old source is dropped.
 * CANCELLABLE stops it between steps, leaving the source as it was. */
void lm_render_worker_merge (LmRenderWorker *worker, const LmRenderRequest *request,
                             const LmMergeSpec *spec, GCancellable *cancellable);

/* REQUEST's data through PARAMS into the 8-bit view (RGBA8, host memory), the last row first
 * where FLIP: LM_RESULT_STRETCHED. It goes before everything else but a new photo: it is what
 * a person waits to see. A newer stretch replaces one still waiting. */
void lm_render_worker_stretch (LmRenderWorker *worker, const LmDataRequest *request,
                               const LmStretchParams *params, gboolean flip);

/* Source detection in REQUEST's data: LM_RESULT_DETECTED. It runs when nothing else waits: a
 * stretch, a preview or another job asked for meanwhile stops it between its steps, and it
 * starts again after them. A newer detection replaces one still waiting. */
void lm_render_worker_detect (LmRenderWorker *worker, const LmDataRequest *request,
                              const LmDetectParams *params);

/* Objects of the cascade model in MODEL_PATH (a file of opencv-data's, core/detect/models.h)
 * found in REQUEST's photo (RGBA8, RGBA16, GRAY8 or GRAY16, host memory) with PARAMS, on
 * REQUEST's backend (the CPU, with a notice, where CUDA is not usable): LM_RESULT_OBJECTS to
 * REQUEST's receiver, the boxes in the photo's pixels. The worker keeps the last model read.
 * As source detection: it runs when nothing else waits, is stopped between pyramid levels by
 * anything asked for meanwhile and started again after it; a newer one replaces one waiting;
 * REQUEST's CANCELLABLE stops it for good (no result comes). */
void lm_render_worker_detect_objects (LmRenderWorker *worker, const LmDataRequest *request, const char *model_path,
                                      const LmCascadeParams *params);

G_END_DECLS
