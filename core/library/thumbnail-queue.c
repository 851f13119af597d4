/* The thumbnail loader's queue (thumbnail-queue.h). */
#include "thumbnail-queue.h"

#include <omp.h>

#include "thumbnail.h"
#include "thumbnail-edited.h"

/* What results already sent to the main context share with the queue: they are dropped
 * once the queue is freed. */
typedef struct {
  gboolean alive; /* read and written on the owner's thread only */
  LmThumbnailReady ready;
  gpointer user_data;
} Owner;

typedef struct {
  char *photo;
  gboolean urgent;
  gboolean taken; /* being made: out of both queues */
} Request;

struct _LmThumbnailQueue {
  int size;
  GMainContext *context;
  Owner *owner;
  GMutex lock;
  GCond wake;
  GQueue urgent;              /* of Request *: the head is served first */
  GQueue later;               /* of Request *: in the order asked */
  GHashTable *requests;       /* photo → Request *, waiting or being made */
  gboolean stopping;
  gboolean held;
  GPtrArray *workers;         /* of GThread * */
};

typedef struct {
  Owner *owner;
  char *photo;
  LmImage *thumb;
  GError *error;
} Result;

static void
request_free (Request *r)
{
  g_free (r->photo);
  g_free (r);
}

static void
result_free (gpointer data)
{
  Result *result = data;
  g_rc_box_release (result->owner);
  g_free (result->photo);
  g_clear_pointer (&result->thumb, lm_image_unref);
  g_clear_error (&result->error);
  g_free (result);
}

static gboolean
deliver (gpointer data)
{
  Result *result = data;
  if (result->owner->alive)
    result->owner->ready (result->photo, g_steal_pointer (&result->thumb), result->error, result->owner->user_data);
  return G_SOURCE_REMOVE;
}

static Request *
next_request (LmThumbnailQueue *q)
{
  Request *r = g_queue_pop_head (&q->urgent);
  if (r == NULL)
    r = g_queue_pop_head (&q->later);
  if (r != NULL)
    r->taken = TRUE;
  return r;
}

static gpointer
work (gpointer data)
{
  LmThumbnailQueue *q = data;
  /* The workers are the parallelism: an OpenMP team inside each would oversubscribe. */
  omp_set_num_threads (1);
  g_mutex_lock (&q->lock);
  for (;;)
    {
      Request *r = NULL;
      while (!q->stopping && (q->held || (r = next_request (q)) == NULL))
        g_cond_wait (&q->wake, &q->lock);
      if (q->stopping)
        break;
      g_mutex_unlock (&q->lock);

      Result *result = g_new0 (Result, 1);
      result->owner = g_rc_box_acquire (q->owner);
      result->photo = g_strdup (r->photo);
      /* An edited look that cannot be rendered leaves the photo as it is. */
      result->thumb = lm_thumbnail_edited_load (r->photo, q->size, NULL, NULL);
      if (result->thumb == NULL)
        result->thumb = lm_thumbnail_load (r->photo, q->size, &result->error);
      /* A source, not g_main_context_invoke: that one runs DELIVER on this thread when
       * nobody owns the context at the moment. */
      GSource *source = g_idle_source_new ();
      g_source_set_priority (source, G_PRIORITY_DEFAULT);
      g_source_set_callback (source, deliver, result, result_free);
      g_source_attach (source, q->context);
      g_source_unref (source);

      g_mutex_lock (&q->lock);
      g_hash_table_remove (q->requests, r->photo);
    }
  g_mutex_unlock (&q->lock);
  return NULL;
}

LmThumbnailQueue *
lm_thumbnail_queue_new_full (int size, guint n_workers, LmThumbnailReady ready, gpointer user_data)
{
  g_return_val_if_fail (ready != NULL, NULL);
  LmThumbnailQueue *q = g_new0 (LmThumbnailQueue, 1);
  q->size = size;
  q->context = g_main_context_ref_thread_default ();
  q->owner = g_rc_box_new0 (Owner);
  q->owner->alive = TRUE;
  q->owner->ready = ready;
  q->owner->user_data = user_data;
  g_mutex_init (&q->lock);
  g_cond_init (&q->wake);
  g_queue_init (&q->urgent);
  g_queue_init (&q->later);
  q->requests = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) request_free);
  if (n_workers == 0)
    n_workers = CLAMP (g_get_num_processors (), 1, 64);
  q->workers = g_ptr_array_new ();
  for (guint i = 0; i < n_workers; i++)
    g_ptr_array_add (q->workers, g_thread_new ("lumen-thumbnail", work, q));
  return q;
}

LmThumbnailQueue *
lm_thumbnail_queue_new (int size, LmThumbnailReady ready, gpointer user_data)
{
  return lm_thumbnail_queue_new_full (size, 0, ready, user_data);
}

void
lm_thumbnail_queue_want (LmThumbnailQueue *q, const char *const *photos, guint n, gboolean urgent)
{
  g_mutex_lock (&q->lock);
  /* Urgent ones go to the head in reverse, so that this call's come out in its order. */
  for (guint k = 0; k < n; k++)
    {
      const char *photo = photos[urgent ? n - 1 - k : k];
      Request *r = g_hash_table_lookup (q->requests, photo);
      if (r != NULL && (r->taken || !urgent))
        continue;
      if (r != NULL)
        g_queue_remove (r->urgent ? &q->urgent : &q->later, r);
      else
        {
          r = g_new0 (Request, 1);
          r->photo = g_strdup (photo);
          g_hash_table_insert (q->requests, r->photo, r);
        }
      r->urgent = urgent;
      if (urgent)
        g_queue_push_head (&q->urgent, r);
      else
        g_queue_push_tail (&q->later, r);
    }
  g_cond_broadcast (&q->wake);
  g_mutex_unlock (&q->lock);
}

void
lm_thumbnail_queue_hold (LmThumbnailQueue *q, gboolean hold)
{
  g_mutex_lock (&q->lock);
  q->held = hold;
  g_cond_broadcast (&q->wake);
  g_mutex_unlock (&q->lock);
}

guint
lm_thumbnail_queue_pending (LmThumbnailQueue *q)
{
  g_mutex_lock (&q->lock);
  guint n = g_hash_table_size (q->requests);
  g_mutex_unlock (&q->lock);
  return n;
}

void
lm_thumbnail_queue_free (LmThumbnailQueue *q)
{
  if (q == NULL)
    return;
  g_mutex_lock (&q->lock);
  q->stopping = TRUE;
  g_queue_clear (&q->urgent);
  g_queue_clear (&q->later);
  g_cond_broadcast (&q->wake);
  g_mutex_unlock (&q->lock);
  for (guint i = 0; i < q->workers->len; i++)
    g_thread_join (q->workers->pdata[i]);
  g_ptr_array_unref (q->workers);
  q->owner->alive = FALSE;
  g_rc_box_release (q->owner);
  g_hash_table_unref (q->requests);
  g_queue_clear (&q->urgent);
  g_main_context_unref (q->context);
  g_mutex_clear (&q->lock);
  g_cond_clear (&q->wake);
  g_free (q);
}
