/* Object detection over many photos (`lumen-cli batch detect-objects`): one cascade, read
 * once, run on each photo as detect-objects runs it (core/render/objects-run.h), through the
 * photo stream (photo-stream.h): photos decoded on every core, detected by one worker per
 * backend of the batch (core/batch/backends.h: on a GPU several, each with its own stream),
 * and, where asked, written outlined or blurred under their own names into folders. A photo
 * that cannot be read or written fails alone; a full disk or a failed device stops the run. */
#pragma once

#include <gio/gio.h>

#include "../detect/cascade.h"
#include "../detect/detect.h"
#include "photo-stream.h"

G_BEGIN_DECLS

typedef struct {
  GPtrArray *backends;     /* of LmBackend: one worker each */
  const LmCascade *cascade;
  LmCascadeParams params;
  guint load_threads;      /* decoding and writing; 0: every core */
  const char *draw_dir;    /* each photo with its boxes outlined, as DIR/<id>; NULL: none */
  const char *blur_dir;    /* each photo with its boxes blurred; NULL: none */
  LmPhotoProgress progress;
  gpointer progress_data;
  GCancellable *cancellable;
} LmObjectsBatchConfig;

/* A photo that finished: its boxes (LmCascadeBox), or why it failed (one line naming it). */
typedef struct {
  char *id;
  GArray *boxes;
  char *error;
} LmObjectsBatchPhoto;

void lm_objects_batch_photo_free (LmObjectsBatchPhoto *photo);

/* Detects in TODO's photos (const LmBatchStack *, develop-list.h). PHOTOS (of
 * LmObjectsBatchPhoto, the caller's) receives each photo that finished, done or failed,
 * sorted by id, whatever the order they finished in. FALSE with ERROR only where the run
 * stopped. */
gboolean lm_objects_batch_run (const LmObjectsBatchConfig *config, GPtrArray *todo, GPtrArray *photos,
                               LmPhotoStreamStats *stats, GError **error);

/* FALSE, with ERROR naming the photo, where a file that the batch writes (OUTPUT, and DIR/<id>
 * for each of DIRS, N of them, NULL ones skipped) is one of TODO's photos, or where two DIRS
 * are one folder. Checked before anything is written. */
gboolean lm_objects_batch_outputs_apart (GPtrArray *todo, const char *output, const char *const *dirs, guint n,
                                         GError **error);

G_END_DECLS
