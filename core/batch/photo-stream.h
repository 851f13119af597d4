/* Many photos through three stages with a bounded number in flight, for the batches of
 * single photos (batch develop, batch detect-objects):
 *
 *   load pool (every core: read and decode)
 *     ─▶ workers (one thread per backend of the batch: the device's work)
 *     ─▶ write pool (encode, temporary + rename)
 *
 * The stages are the caller's; the stream owns the threads, the order of hand-overs, the
 * count of photos in memory, the stop and the progress. A photo whose stage fails leaves the
 * run alone; a full disk or a failed device (LM_ERROR_NO_SPACE, LM_ERROR_DEVICE), or a stage
 * that calls lm_photo_stream_stop, stops it: photos not started are left. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _LmPhotoStream LmPhotoStream;

/* Each stage returns TRUE to pass ITEM on; FALSE with ERROR to fail it (or stop the run, for
 * the errors above); FALSE without an error to drop it after it called lm_photo_stream_stop.
 * The load and write stages run on pool threads with one OpenMP thread each (the pools are
 * the parallelism); WORK on worker WORKER's own thread (0 ≤ WORKER < workers). */
typedef struct {
  /* The item for INPUT (one of the run's INPUTS), on the caller's thread. */
  gpointer (*start) (gpointer data, gpointer input);
  gboolean (*load) (LmPhotoStream *stream, gpointer data, gpointer item, GError **error);
  gboolean (*work) (LmPhotoStream *stream, gpointer data, guint worker, gpointer item, GError **error);
  /* NULL: an item is done after its work. */
  gboolean (*write) (LmPhotoStream *stream, gpointer data, gpointer item, GError **error);
  /* ITEM leaves the run, once: DONE, failed with ERROR, or neither (dropped by a stop). It
   * frees ITEM; it may call lm_photo_stream_stop (a failure that cannot be recorded). */
  void (*finish) (LmPhotoStream *stream, gpointer data, gpointer item, gboolean done, const GError *error);
} LmPhotoStages;

typedef void (*LmPhotoProgress) (guint done, guint failed, gpointer user_data);

typedef struct {
  guint threads; /* of the load pool and of the write pool; 0: every core */
  guint workers; /* at least 1 */
  /* Called on the caller's thread, at most every quarter second and at the end. */
  LmPhotoProgress progress;
  gpointer progress_data;
  GCancellable *cancellable; /* cancelled: photos not started are left, as after a stop */
} LmPhotoStreamConfig;

typedef struct {
  guint done, failed;
  guint cancelled; /* not finished because the run stopped or was cancelled */
  double wall_s;
  double load_ms, work_ms, write_ms; /* summed over photos */
} LmPhotoStreamStats;

/* Runs each of INPUTS through STAGES (DATA their first argument). FALSE with ERROR (the
 * first that stopped the run) only when the run was stopped; failed photos are counted in
 * STATS, their errors given to STAGES->finish. */
gboolean lm_photo_stream_run (const LmPhotoStages *stages, const LmPhotoStreamConfig *config, gpointer data,
                              GPtrArray *inputs, LmPhotoStreamStats *stats, GError **error);

/* Stops STREAM with ERROR (taken; the first one is kept). */
void lm_photo_stream_stop (LmPhotoStream *stream, GError *error);
gboolean lm_photo_stream_stopping (LmPhotoStream *stream);

G_END_DECLS
