/* The develop batch: many photos, each developed as `lumen-cli --params SIDECAR -o OUT PHOTO`
 * develops it (core/render/develop-one.h), by `lumen-cli batch develop` and the window's Export
 * Selected…. Photos stream through three stages with a bounded number in flight:
 *
 *   load pool (every core: read, decode, the photo's edits)
 *     ─▶ render workers (one per backend: upload, render, download, or nvJPEG's encoding)
 *     ─▶ write pool (encode, temporary + rename, journal)
 *
 * A photo that cannot be developed (unreadable, a sidecar that does not parse, a fifo) fails
 * alone; a full disk, a failed device or an unwritable journal stops the run. */
#pragma once

#include <gio/gio.h>

#include "../backend/backend.h"
#include "../edit/pipeline.h"
#include "../io/io.h"
#include "journal.h"
#include "stacks.h"

G_BEGIN_DECLS

typedef void (*LmDevelopProgress) (guint done, guint failed, gpointer user_data);

typedef struct {
  GPtrArray *backends;   /* of LmBackend: one render worker each (core/batch/backends.h) */
  LmBackendKind asked;   /* the backend asked for: which fall-backs to the CPU are noted */
  guint load_threads;    /* loading and writing; 0: every core */
  gsize pinned_cap;      /* the pinned host memory its buffers may hold (buffer-pool.h); 0: no cap */
  const char *outdir, *ext;
  LmSaveOptions save;    /* quality, PNG level (notes: the run's own) */
  gboolean nvjpeg;       /* JPEG encoded by nvJPEG on the render worker's GPU where it can */
  const char *preset;    /* a sidecar-form file for every photo; NULL: each photo's own */
  const LmStage *resize; /* an export's resize (enabled) over each photo's own; NULL: as edited */
  /* Called on a thread of the run's, at most every quarter second and at the end. */
  LmDevelopProgress progress;
  gpointer progress_data;
  GCancellable *cancellable; /* cancelled: photos not started are left, as after a stop */
} LmDevelopConfig;

#define LM_DEVELOP_STAGES 16

typedef struct {
  guint done, failed;   /* by this run */
  guint noted;          /* photos done with notes */
  guint cancelled;      /* photos not developed because the run stopped or was cancelled */
  double wall_s;
  double load_ms, render_ms, write_ms; /* summed over photos */
  /* Where the render's time went (upload, each operation, download), summed over photos:
   * the rest of render_ms is setting up and waiting. */
  struct {
    char label[48];
    double ms;
  } stages[LM_DEVELOP_STAGES];
  guint n_stages;
  /* The pool of host buffers: those asked for, those it had to allocate (pin), the most
   * bytes in use at once. */
  guint64 buffers, fresh_buffers;
  gsize buffer_peak_bytes;
} LmDevelopStats;

typedef struct {
  char *id;     /* the output's name */
  char *reason; /* one line, naming the file */
} LmDevelopFailure;

void lm_develop_failure_free (LmDevelopFailure *failure);

/* Develops TODO (of const LmBatchStack *, from develop-list.h) into CONFIG->outdir. JOURNAL
 * (may be NULL: the window's export) receives a done record per photo, a failed one per
 * failure; FAILURES (of LmDevelopFailure, may be NULL) receives the failures too. Returns FALSE
 * only on an error that stopped the run. */
gboolean lm_develop_batch_run (const LmDevelopConfig *config, GPtrArray *todo, LmJournal *journal,
                               GPtrArray *failures, LmDevelopStats *stats, GError **error);

/* FALSE, with ERROR naming the photo, where an output of LIST in OUTDIR (of extension EXT) is
 * one of its photos: the photos' own folder with the default name pattern would put each
 * render in its original's place (and the batch would first clear it as an unfinished output).
 * Checked before OUTDIR is touched. */
gboolean lm_develop_outputs_apart (const LmBatchList *list, const char *outdir, const char *ext, GError **error);

/* The pipeline that `lumen-cli --params SIDECAR` applies to PHOTO: a raw's development first
 * where PHOTO is a raw, SIDECAR (NULL: none) over it, fitted to the photo; RESIZE (NULL: none)
 * replaces the resize of the edits, as the export dialog's does. */
gboolean lm_develop_pipeline (LmPipeline *pipeline, const char *photo, const char *sidecar, const LmStage *resize,
                              GError **error);

/* A resize stage that fits the long side in LONG_SIDE pixels (`--resize NxN` on a pipeline
 * without one), for LmDevelopConfig.resize. */
void lm_develop_long_side (LmStage *resize, guint long_side);

G_END_DECLS
