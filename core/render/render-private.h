/* What the render worker's files share: worker.c (the thread, its mailbox and queue, the
 * entry points), channel.c (results' way back to the receiver), sides.c (the backends and
 * the photo on each) and the jobs: job-preview.c, job-compare.c, job-export.c, merge.c
 * (the HDR merge) and job-astro.c (FITS data's stretch and detection). Private to core;
 * render.h is the API. */
#pragma once

#include "render.h"
#include "cache.h"
#include "pyramid.h"

G_BEGIN_DECLS

#define N_SIDES 2 /* 0: CPU, 1: CUDA */

typedef enum {
  JOB_COMPARE,
  JOB_EXPORT,
  JOB_MERGE,
} JobKind;

/* A job on FITS data waiting in its one-slot mailbox (job-astro.c): REQUEST with references
 * of the slot's own. */
typedef struct {
  gboolean pending;
  LmDataRequest request;
  LmStretchParams stretch;
  gboolean flip;
  LmDetectParams detect;
  /* object detection (job-objects.c): the model's file and the parameters */
  char *model_path;
  LmCascadeParams objects;
} DataSlot;

/* The FITS data the worker's thread holds (job-astro.c): the last jobs' data, and it uploaded
 * to CUDA once one asked for that. */
typedef struct {
  LmImage *data;
  GCancellable *owner; /* the last job's: once cancelled, nothing more comes for DATA */
  LmImage *on_cuda;
  char *cuda_failed;   /* why DATA could not go to CUDA */
  guint8 *table;       /* the stretch's curve, of TABLE_KIND */
  LmStretchKind table_kind;
} DataHeld;

typedef struct {
  JobKind kind;
  LmRenderRequest request;
  LmBackendKind sides[2]; /* compare: the two backends */
  float gain;
  char *path;
  LmSaveOptions options;
  GCancellable *cancellable;
  /* merge */
  char **paths;
  double *times;
  guint n;
  LmHdrMethod method;
  gboolean align;
} Job;

/* The results' way back to the receiver (channel.c). */
typedef struct _LmRenderChannel Channel;

/* A channel to DONE (with USER_DATA) for a new worker. */
Channel *lm_render_channel_new (LmRenderDone done, gpointer user_data);
/* (lm_render_channel_close, in render.h, closes it: the worker or the receiver of FITS data's
 * results is gone, and results still in flight are dropped.) A reference of a job's own, to
 * post to CHANNEL after its receiver may have closed it. */
Channel *lm_render_channel_ref (Channel *channel);
void lm_render_channel_unref (Channel *channel);

/* A level of the photo's pyramid in a side's work memory, with its cache (level-view.c). */
typedef struct {
  int index;      /* the level; -1: none */
  LmImage *source;
  LmRenderCache *cache;
} LevelSlot;

typedef struct {
  LmBackend *backend;
  double upload_ms; /* of the last upload, until a render reports it */
  LmImage *source; /* uploaded once per photo */
  LmRenderCache *cache;
  LmImage *view;   /* the view, made where the image lives */
  /* A photo viewed through its pyramid (pyramid.h) has no SOURCE here: the level shown and,
   * while the view renders regions of a finer one, the small level its histogram comes from. */
  LevelSlot shown;
  LevelSlot overview;
} Side;

struct _LmRenderWorker {
  GThread *thread;
  GMutex lock;
  GCond wake;
  gboolean quit;
  LmImage *next_source;
  gboolean source_pending;
  gboolean has_request;
  LmRenderRequest request;
  GQueue jobs;
  GMainContext *context;
  Channel *channel;
  const LmAllocator *host_allocator; /* under lock: set once CUDA has been probed */

  /* The thread's own. */
  LmImage *source;
  LmColorProfile *color; /* the source's, for every cache of it (lm_render_cache_set_color) */
  Side sides[N_SIDES];
  char *cuda_unavailable;
  LmViewTransform *next_view_transform; /* under lock */
  guint32 mask_of;                      /* under lock: lm_render_worker_show_mask's */
  LmViewTransform *view_transform; /* the thread's: what the preview in hand is seen through */
  LmImage *shrunk; /* the quick preview's source on the CPU */
  LmRenderCache *shrunk_cache;
  LmPyramid *pyramid; /* of a large photo, made at its first preview */

  /* FITS data (job-astro.c): the mailboxes under lock, with the detection under way and
   * whether something asked for since stopped it (to start it again); the data the thread's. */
  DataSlot stretch, detect;
  GCancellable *detecting;
  gboolean detect_preempted;
  DataHeld held;
  /* Object detection in a photo (job-objects.c): its mailbox (under lock, stopped and started
   * again as source detection is, through DETECTING), and the model last read (the thread's). */
  DataSlot objects;
  LmCascade *cascade;
  char *cascade_path;
};

/* channel.c */
/* A result of KIND for REQUEST (NULL: none), to be posted or freed by the worker. */
LmRenderResult *lm_render_result_new (LmResultKind kind, const LmRenderRequest *request);
/* A result that is not posted after all. */
void lm_render_result_free (LmRenderResult *result);
/* Hands RESULT over to the receiver's main context. */
void lm_render_post (LmRenderWorker *w, LmRenderResult *result);
/* The same to CHANNEL, a receiver of FITS data's results. */
void lm_render_post_to (LmRenderWorker *w, Channel *channel, LmRenderResult *result);
/* A host buffer (RGBA8 storage) for a view of WIDTH × HEIGHT, lent to a result: one of the
 * channel's pool once the receiver has let go of it, else a new one. */
LmImage *lm_render_view_buffer (LmRenderWorker *w, int width, int height, GError **error);

/* sides.c: run on the worker's thread only. */
/* Probes CUDA, makes the CPU's backend and posts LM_RESULT_READY. */
void lm_render_open_backends (LmRenderWorker *w);
/* Drops the photo and every upload, then frees the backends. */
void lm_render_close_backends (LmRenderWorker *w);
/* Host memory that uploads fastest (pinned when CUDA is usable). */
const LmAllocator *lm_render_fast_host (LmRenderWorker *w);
/* The backend of KIND, or NULL and the reason. */
LmBackend *lm_render_backend_for (LmRenderWorker *w, LmBackendKind kind, GError **error);
/* The side of KIND with the photo uploaded and its cache made, or NULL and an error. */
Side *lm_render_side_for (LmRenderWorker *w, LmBackendKind kind, GError **error);
/* The side of KIND with its backend, the photo not uploaded (a photo viewed through its
 * pyramid), or NULL and an error. */
Side *lm_render_side_bare (LmRenderWorker *w, LmBackendKind kind, GError **error);
/* Drops SIDE's upload, cache and view (its backend stays). */
void lm_render_side_reset (Side *side);
/* A cache of SIDE's source that can tone map on the CPU where the backend cannot yet. */
LmRenderCache *lm_render_side_cache_new (LmRenderWorker *w, Side *side);
/* SOURCE (host memory, or NULL) becomes the photo; every side's upload and cache is dropped. */
void lm_render_adopt_source (LmRenderWorker *w, LmImage *source);

/* worker.c: TRUE when a newer request, a new photo or the end waits (the
 * preview in hand is then of no use). */
gboolean lm_render_superseded (LmRenderWorker *w);

/* job-preview.c: the view V of IMAGE (in SIDE's work memory) made there through XF and
 * brought into HOST; the time of the way back is added to *DOWNLOAD_MS. */
gboolean lm_render_view_down (Side *side, const LmImage *image, const LmViewRect *v, LmViewTransform *xf,
                              LmImage *host, double *download_ms, GError **error);
/* Whether instance ID's mask plane lies in the frame of PIPELINE's output: not so for one that
 * runs on scene light (a raw's or radiance's source), before the geometry, once geometry is
 * on (a flip or a half turn keeps the size and moves everything). */
gboolean lm_render_mask_in_output_frame (const LmPipeline *pipeline, guint32 id, const LmImage *source);
/* The mask of instance ID as the last run of CACHE (on SIDE) applied it, as the overlay of the
 * view V of an image of WIDTH × HEIGHT: only the part under V comes to the host. NULL (ERROR
 * unset) when the run applied none, or the mask is of another size than the image (an
 * instance before a crop): an overlay that would not lie on what it masks is no help. */
LmImage *lm_render_mask_view (LmRenderWorker *w, Side *side, LmRenderCache *cache, guint32 id, guint width,
                              guint height, const LmViewRect *v, GError **error);
/* The same into a view buffer of W's (lm_render_view_buffer), through W's transform: the
 * buffer, or NULL with the reason. */
LmImage *lm_render_view_of (LmRenderWorker *w, Side *side, const LmImage *image, const LmViewRect *v,
                            double *download_ms, GError **error);
/* R's histogram of OUT, and what the screen shows of it where REQ asks for that. */
gboolean lm_render_histograms (LmRenderWorker *w, Side *side, const LmRenderRequest *req, const LmImage *out,
                               LmRenderResult *r, GError **error);

/* level-view.c: a large photo's view from its pyramid. */
/* Whether the photo is viewed through its pyramid. */
gboolean lm_render_level_wanted (LmRenderWorker *w);
/* Drops what SLOT holds. */
void lm_render_level_slot_clear (LevelSlot *slot);
/* REQUEST's preview on SIDE (lm_render_side_bare) into R, as render_full makes it at full
 * resolution: the view, the histogram (of the level shown), the "before" view. */
gboolean lm_render_level_preview (LmRenderWorker *w, Side *side, const LmRenderRequest *request,
                                  LmRenderResult *r, GError **error);
/* REQUEST's pipeline on the level its view shows, on a fresh cache of SIDE: the level whole
 * when it is within the whole-level bound, else the visible region of it, as the preview
 * renders it; a new reference in SIDE's work memory; *RECT: the request's view on it. */
LmImage *lm_render_level_compare (LmRenderWorker *w, Side *side, const LmRenderRequest *request,
                                  LmTimings *timings, LmViewRect *rect, GError **error);

/* The jobs, each posting its own results. */
/* A preview (job-preview.c): LM_RESULT_PREVIEW, after a quick one on the CPU. */
void lm_render_run_preview (LmRenderWorker *w, const LmRenderRequest *request);
/* A comparison of two backends (job-compare.c): LM_RESULT_COMPARE. */
void lm_render_run_compare (LmRenderWorker *w, const Job *job);
/* An export (job-export.c): LM_RESULT_PROGRESS, then LM_RESULT_EXPORTED. */
void lm_render_run_export (LmRenderWorker *w, const Job *job);
/* The HDR merge job (merge.c): posts its progress and an LM_RESULT_MERGED result. */
void lm_render_run_merge (LmRenderWorker *w, const Job *job);
/* FITS data's jobs (job-astro.c): LM_RESULT_STRETCHED; LM_RESULT_DETECTED, or FALSE and
 * nothing posted where CANCELLABLE stopped it. */
void lm_render_run_stretch (LmRenderWorker *w, const DataSlot *slot);
gboolean lm_render_run_detect (LmRenderWorker *w, const DataSlot *slot, GCancellable *cancellable);
/* Object detection in a photo (job-objects.c): LM_RESULT_OBJECTS, or FALSE and nothing
 * posted where CANCELLABLE stopped it. */
gboolean lm_render_run_objects (LmRenderWorker *w, const DataSlot *slot, GCancellable *cancellable);
/* Drops the model job-objects.c keeps. */
void lm_render_objects_release (LmRenderWorker *w);
/* Drops SLOT's request and its references. */
void lm_render_data_slot_clear (DataSlot *slot);
/* Drops the data held once nothing more comes for it, its upload with it; AT_END: in any
 * case, and the stretch's curve too. */
void lm_render_data_release (LmRenderWorker *w, gboolean at_end);

G_END_DECLS
