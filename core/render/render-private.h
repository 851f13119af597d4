/* What the render worker's files share: render.c (the thread, previews, comparisons,
 * exports) and merge.c (the HDR merge job). Private to core; render.h is the API. */
#pragma once

#include "render.h"
#include "cache.h"

G_BEGIN_DECLS

#define N_SIDES 2 /* 0: CPU, 1: CUDA */

typedef enum {
  JOB_COMPARE,
  JOB_EXPORT,
  JOB_MERGE,
} JobKind;

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

/* The results' way back to the receiver (render.c). */
typedef struct _LmRenderChannel Channel;

typedef struct {
  LmBackend *backend;
  double upload_ms; /* of the last upload, until a render reports it */
  LmImage *source; /* uploaded once per photo */
  LmRenderCache *cache;
  LmImage *view;   /* the view, made where the image lives */
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
  Side sides[N_SIDES];
  char *cuda_unavailable;
  LmImage *shrunk; /* the quick preview's source on the CPU */
  LmRenderCache *shrunk_cache;
};

/* A result of KIND for REQUEST (NULL: none), to be posted or freed by the worker. */
LmRenderResult *lm_render_result_new (LmResultKind kind, const LmRenderRequest *request);
/* Hands RESULT over to the receiver's main context. */
void lm_render_post (LmRenderWorker *w, LmRenderResult *result);
/* Host memory that uploads fastest (pinned when CUDA is usable). */
const LmAllocator *lm_render_fast_host (LmRenderWorker *w);
/* The backend of KIND, or NULL and the reason. */
LmBackend *lm_render_backend_for (LmRenderWorker *w, LmBackendKind kind, GError **error);
/* A cache of SIDE's source that can tone map on the CPU where the backend cannot yet. */
LmRenderCache *lm_render_side_cache_new (LmRenderWorker *w, Side *side);
/* SOURCE (host memory, or NULL) becomes the photo; every side's upload and cache is dropped. */
void lm_render_adopt_source (LmRenderWorker *w, LmImage *source);

/* The HDR merge job (merge.c): posts its progress and an LM_RESULT_MERGED result. */
void lm_render_run_merge (LmRenderWorker *w, const Job *job);

G_END_DECLS
