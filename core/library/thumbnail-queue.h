/* Thumbnails made in the background for a view of many photos: worker threads take the
 * photos asked for, those visible now first (the newest such request first, as the view
 * scrolls), and hand each thumbnail to the thread that made the queue, on its main context. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef struct _LmThumbnailQueue LmThumbnailQueue;

/* THUMB is the receiver's (transfer full), NULL on failure, when ERROR says why (naming
 * the photo). Runs on the main context of the thread that made the queue. */
typedef void (*LmThumbnailReady) (const char *photo, LmImage *thumb /* full, NULL on failure */,
                                  const GError *error, gpointer user_data);

/* Where JPEGs are decoded and shrunk. */
typedef enum {
  LM_THUMBNAIL_AUTO, /* the CPU's workers, and where a GPU can be used its worker beside them,
                      * on what is not visible yet */
  LM_THUMBNAIL_CPU,  /* the CPU's workers only */
  LM_THUMBNAIL_GPU,  /* the GPU's worker only (what it cannot decode, on its thread's CPU);
                      * the CPU's workers where no GPU can be used */
} LmThumbnailDevice;

/* Thumbnails of SIZE (lm_thumbnail_load's), one worker per core (LM_THUMBNAIL_AUTO). An
 * edited photo (a sidecar with edits) comes back with its edits (thumbnail-edited.h). */
LmThumbnailQueue *lm_thumbnail_queue_new (int size, LmThumbnailReady ready, gpointer user_data);
/* The same with N_WORKERS CPU threads (0: one per core) on DEVICE. */
LmThumbnailQueue *lm_thumbnail_queue_new_full (int size, guint n_workers, LmThumbnailDevice device,
                                               LmThumbnailReady ready, gpointer user_data);

/* Asks for the N PHOTOS' thumbnails. URGENT: visible now, served before every other, this
 * call's before earlier urgent ones, in the order given; a photo already waiting is moved
 * up when it becomes urgent. A photo asked for again while waiting or being made is made once. */
void lm_thumbnail_queue_want (LmThumbnailQueue *queue, const char *const *photos, guint n, gboolean urgent);

/* While HOLD, the workers take no new photo (those being made are finished): a view that
 * is about to ask for many at once holds, asks, and lets go, so that its order is kept. */
void lm_thumbnail_queue_hold (LmThumbnailQueue *queue, gboolean hold);

/* Photos waiting or being made. */
guint lm_thumbnail_queue_pending (LmThumbnailQueue *queue);

/* Forgets every request not begun yet (another folder opened: its photos are no longer
 * wanted); those being made still arrive. */
void lm_thumbnail_queue_drop_waiting (LmThumbnailQueue *queue);

/* Drops what waits, waits for the thumbnails being made (a few milliseconds each on the CPU, a
 * batch of whole decodes on the GPU) and frees QUEUE: READY is not called after this returns,
 * not even for results already sent. */
void lm_thumbnail_queue_free (LmThumbnailQueue *queue);

/* The same without waiting: the workers finish the thumbnails in hand on their own (each
 * cached whole, or not at all), then GONE (GONE_DATA) runs on the queue's context, once,
 * never before this returns. READY is not called after. Called on the thread that made the
 * queue. A window that closes lets go so that it never waits on a decode (a whole raw can
 * take a second), and holds the application until GONE. */
void lm_thumbnail_queue_let_go (LmThumbnailQueue *queue, GDestroyNotify gone, gpointer gone_data);

G_END_DECLS
