/* The thumbnail loader's queue (thumbnail-queue.h). */
#include "thumbnail-queue.h"

#include <fcntl.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "config.h"
#include "../context-post.h"
#include "thumbnail.h"
#include "thumbnail-cache.h"
#include "thumbnail-edited.h"
#include "thumbnail-gpu.h"
#include "thumbnail-source.h"
#include "../pixel-budget.h"
#include "../io/file-read.h"
#include "../io/io.h"

/* Files a GPU worker decodes as one nvJPEG batch: enough to keep the engines busy, few enough
 * that a batch of 24 MP photos holds about 1.3 GB of device memory (decoded RGB and RGBA). */
#define GPU_BATCH 8
/* GPU workers, each with its decoder: one reads and parses files while another's batch is on
 * the device. */
#define GPU_WORKERS 2

/* What results already sent to the main context share with the queue: they are dropped
 * once the queue is freed. Its references are taken on the workers' threads and dropped on
 * the owner's: an atomic box (a plain one's count, raced, freed it under a live result). */
typedef struct {
  gboolean alive; /* read and written on the owner's thread only */
  LmThumbnailReady ready;
  gpointer user_data;
} Owner;

typedef struct {
  char *photo;
  gboolean urgent;
  gboolean taken; /* being made: out of both queues */
  gboolean again; /* asked for while being made (its sidecar changed since): made once more */
} Request;

struct _LmThumbnailQueue {
  int size;
  GMainContext *context;
  Owner *owner;
  GMutex lock;
  GCond wake;
  GQueue urgent;              /* of Request *: the head is served first */
  GQueue later;               /* of Request *: in the order asked */
  GQueue cpu_only;            /* of Request *: those a GPU worker gave back to the CPU's */
  GHashTable *requests;       /* photo → Request *, waiting or being made */
  gboolean stopping;
  gboolean held;
  gboolean with_cpu;          /* the CPU's workers run (beside the GPU's, or alone) */
  GPtrArray *workers;         /* of GThread * */
  gint refs;                  /* atomic: the owner's and each worker's until it leaves */
  GDestroyNotify gone;        /* let go: told on the context once the last worker has left */
  gpointer gone_data;
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
  g_atomic_rc_box_release (result->owner);
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

static Result *
result_new (LmThumbnailQueue *q, const char *photo)
{
  Result *result = g_new0 (Result, 1);
  result->owner = g_atomic_rc_box_acquire (q->owner);
  result->photo = g_strdup (photo);
  return result;
}

/* RESULT to the owner's thread (lm_context_post). Then the request is done (asked again, the
 * photo is made again), unless it was asked for while being made. */
static void
send (LmThumbnailQueue *q, Result *result)
{
  /* Before the source is attached: from then on RESULT is the owner's thread's to free. */
  g_mutex_lock (&q->lock);
  Request *r = g_hash_table_lookup (q->requests, result->photo);
  if (r != NULL && r->again)
    {
      /* What this worker read may be older than what the photo is now. */
      r->taken = r->again = FALSE;
      if (r->urgent)
        g_queue_push_head (&q->urgent, r);
      else
        g_queue_push_tail (&q->later, r);
      g_cond_broadcast (&q->wake);
    }
  else
    g_hash_table_remove (q->requests, result->photo);
  g_mutex_unlock (&q->lock);
  lm_context_post (q->context, NULL, deliver, result, result_free);
}

static Request *
next_request (LmThumbnailQueue *q)
{
  Request *r = g_queue_pop_head (&q->urgent);
  if (r == NULL)
    r = g_queue_pop_head (&q->cpu_only);
  /* The last of them taken: the GPU's workers, waiting for that (next_later), may go on. */
  if (r != NULL && g_queue_is_empty (&q->urgent) && g_queue_is_empty (&q->cpu_only))
    g_cond_broadcast (&q->wake);
  if (r == NULL)
    r = g_queue_pop_head (&q->later);
  if (r != NULL)
    r->taken = TRUE;
  return r;
}

/* A photo not asked for as visible, once no visible one and none given back to the CPU waits:
 * the GPU's workers, beside the CPU's, leave the first screen to them. */
static Request *
next_later (LmThumbnailQueue *q)
{
  if (!g_queue_is_empty (&q->urgent) || !g_queue_is_empty (&q->cpu_only))
    return NULL;
  Request *r = g_queue_pop_head (&q->later);
  if (r != NULL)
    r->taken = TRUE;
  return r;
}

/* Up to MAX photos to make (copies), urgent ones first unless LATER_ONLY; 0 once the queue
 * stops. */
static guint
take_from (LmThumbnailQueue *q, char **photos, guint max, gboolean later_only)
{
  Request *(*next) (LmThumbnailQueue *) = later_only ? next_later : next_request;
  g_mutex_lock (&q->lock);
  Request *r = NULL;
  while (!q->stopping && (q->held || (r = next (q)) == NULL))
    g_cond_wait (&q->wake, &q->lock);
  guint n = 0;
  for (; r != NULL && !q->stopping; r = n < max ? next (q) : NULL)
    photos[n++] = g_strdup (r->photo);
  g_mutex_unlock (&q->lock);
  return n;
}

static guint
take (LmThumbnailQueue *q, char **photos, guint max)
{
  return take_from (q, photos, max, FALSE);
}

/* The kernel starts reading the N photos at once, while the first of them is looked at: a
 * batch's files come in parallel rather than one after another. */
static void
read_ahead (char *const *photos, guint n)
{
  for (guint i = 0; i < n; i++)
    {
      int fd = g_open (photos[i], O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
      if (fd < 0)
        continue;
      struct stat st;
      if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode))
        posix_fadvise (fd, 0, 0, POSIX_FADV_WILLNEED);
      close (fd);
    }
}

/* PHOTO, taken by a GPU worker that cannot decode it (progressive, gray, CMYK, damaged), to
 * the CPU's workers, which decode it at 1/8 where the GPU's would decode it whole. */
static void
give_to_cpu (LmThumbnailQueue *q, const char *photo)
{
  g_mutex_lock (&q->lock);
  Request *r = g_hash_table_lookup (q->requests, photo);
  if (r != NULL && !q->stopping)
    {
      r->taken = r->again = FALSE;
      g_queue_push_tail (r->urgent ? &q->urgent : &q->cpu_only, r);
      g_cond_broadcast (&q->wake);
    }
  g_mutex_unlock (&q->lock);
}

/* PHOTO's thumbnail with its edits, when it has edits (an edited look that cannot be
 * rendered leaves the photo as it is); NULL otherwise. */
static Result *
edited (LmThumbnailQueue *q, const char *photo)
{
  LmImage *thumb = lm_thumbnail_edited_load (photo, q->size, NULL, NULL);
  if (thumb == NULL)
    return NULL;
  Result *result = result_new (q, photo);
  result->thumb = thumb;
  return result;
}

static gpointer
cpu_work (gpointer data)
{
  LmThumbnailQueue *q = data;
  /* The workers are the parallelism: an OpenMP team inside each would oversubscribe. */
  omp_set_num_threads (1);
  char *photo;
  while (take (q, &photo, 1) == 1)
    {
      Result *result = edited (q, photo);
      if (result == NULL)
        {
          result = result_new (q, photo);
          result->thumb = lm_thumbnail_load (photo, q->size, &result->error);
        }
      send (q, result);
      g_free (photo);
    }
  return NULL;
}

/* A photo of a GPU batch: its bytes while the batch is decoded. */
typedef struct {
  char *photo;
  GBytes *bytes;
  const char *mime;
} Pending;

/* PHOTO answered without the GPU (cache, edits, a failure to read it, an embedded preview,
 * not a JPEG), or NULL with *BYTES holding its JPEG for the batch. */
static Result *
before_gpu (LmThumbnailQueue *q, const char *photo, GBytes **bytes)
{
  Result *result = edited (q, photo);
  if (result != NULL)
    return result;
  result = result_new (q, photo);
  if (lm_thumbnail_lookup (photo, q->size, &result->thumb, &result->error) || result->error != NULL)
    return result;
  int folder = lm_thumbnail_folder_size (q->size);
  g_autoptr (GBytes) mapped = lm_file_map (photo, LM_FILE_KIND_IMAGE, lm_pixel_budget_file_bytes (), &result->error);
  if (mapped == NULL)
    {
      result->thumb = lm_thumbnail_keep (photo, q->size, NULL, NULL, result->error);
      return result;
    }
  gsize len = 0;
  const guint8 *data = g_bytes_get_data (mapped, &len);
  g_autoptr (LmImage) preview = NULL;
  if (lm_file_type_sniff (data, len) == LM_FILE_JPEG
      && (preview = lm_thumbnail_jpeg_preview (data, len, folder)) == NULL)
    {
      result_free (result);
      *bytes = g_steal_pointer (&mapped);
      return NULL;
    }
  const char *mime = NULL;
  g_autoptr (LmImage) decoded
    = preview ? g_steal_pointer (&preview) : lm_thumbnail_decode (photo, data, len, folder, &mime, &result->error);
  g_autoptr (LmImage) made = decoded ? lm_thumbnail_shrink_photo (decoded, data, len, folder, &result->error) : NULL;
  result->thumb = lm_thumbnail_keep (photo, q->size, made, mime ? mime : "image/jpeg", result->error);
  return result;
}

/* The batch's thumbnails kept and sent; those the GPU did not make (THUMBS[i] NULL) go to the
 * CPU's workers where they run, else are made on this thread's CPU, where a damaged file gets
 * its message. */
static void
after_gpu (LmThumbnailQueue *q, Pending *batch, guint n, LmImage **thumbs)
{
  int folder = lm_thumbnail_folder_size (q->size);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (LmImage) made = g_steal_pointer (&thumbs[i]);
      if (made == NULL && q->with_cpu)
        {
          give_to_cpu (q, batch[i].photo);
          continue;
        }
      Result *result = result_new (q, batch[i].photo);
      if (made == NULL)
        {
          gsize len = 0;
          const guint8 *data = g_bytes_get_data (batch[i].bytes, &len);
          g_autoptr (LmImage) decoded = lm_thumbnail_decode (batch[i].photo, data, len, folder, NULL, &result->error);
          made = decoded ? lm_thumbnail_shrink_photo (decoded, data, len, folder, &result->error) : NULL;
        }
      result->thumb = lm_thumbnail_keep (batch[i].photo, q->size, made, "image/jpeg", result->error);
      send (q, result);
    }
}

static gpointer
gpu_work (gpointer data)
{
  LmThumbnailQueue *q = data;
  omp_set_num_threads (1);
  int folder = lm_thumbnail_folder_size (q->size);
  LmThumbnailGpu *gpu = NULL;
  gboolean failed = FALSE;
  char *photos[GPU_BATCH];
  guint n_taken;
  /* Beside the CPU's workers, the batches take no visible cell: one photo decoded at 1/8 by
   * a core comes sooner than a batch of whole decodes. */
  while (!failed && (n_taken = take_from (q, photos, GPU_BATCH, q->with_cpu)) > 0)
    {
      read_ahead (photos, n_taken);
      Pending batch[GPU_BATCH];
      guint n = 0;
      for (guint i = 0; i < n_taken; i++)
        {
          GBytes *bytes = NULL;
          Result *answered = before_gpu (q, photos[i], &bytes);
          if (answered != NULL)
            {
              send (q, answered);
              g_free (photos[i]);
            }
          else
            batch[n++] = (Pending) { photos[i], bytes, NULL };
        }
      const guint8 *datas[GPU_BATCH];
      gsize lens[GPU_BATCH];
      LmImage *thumbs[GPU_BATCH] = { NULL };
      for (guint i = 0; i < n; i++)
        datas[i] = g_bytes_get_data (batch[i].bytes, &lens[i]);
      /* The device starts at the first photo it has to decode (its start-up takes a core for
       * a few hundred milliseconds): a folder of cached thumbnails never waits for it. */
      if (n > 0 && gpu == NULL)
        failed = (gpu = lm_thumbnail_gpu_new (NULL)) == NULL;
      /* A device that fails is left for the CPU from then on. */
      if (n > 0 && gpu != NULL && !lm_thumbnail_gpu_make (gpu, n, datas, lens, folder, thumbs, NULL))
        {
          g_clear_pointer (&gpu, lm_thumbnail_gpu_free);
          failed = TRUE;
        }
      after_gpu (q, batch, n, thumbs);
      for (guint i = 0; i < n; i++)
        {
          g_free (batch[i].photo);
          g_bytes_unref (batch[i].bytes);
        }
    }
  lm_thumbnail_gpu_free (gpu);
  return failed && !q->with_cpu ? cpu_work (q) : NULL;
}

/* A reference dropped: the owner's, or a worker's as it leaves. The last frees Q and, when
 * Q was let go, says so on its context. */
static void
queue_unref (LmThumbnailQueue *q)
{
  if (!g_atomic_int_dec_and_test (&q->refs))
    return;
  if (q->gone != NULL)
    lm_context_post_call (q->context, q->gone, q->gone_data);
  g_atomic_rc_box_release (q->owner); /* a worker finishing its photo still made results of it */
  g_hash_table_unref (q->requests);
  g_main_context_unref (q->context);
  g_mutex_clear (&q->lock);
  g_cond_clear (&q->wake);
  g_free (q);
}

static gpointer
cpu_main (gpointer data)
{
  cpu_work (data);
  queue_unref (data);
  return NULL;
}

static gpointer
gpu_main (gpointer data)
{
  gpu_work (data);
  queue_unref (data);
  return NULL;
}

LmThumbnailQueue *
lm_thumbnail_queue_new_full (int size, guint n_workers, LmThumbnailDevice device, LmThumbnailReady ready,
                             gpointer user_data)
{
  g_return_val_if_fail (ready != NULL, NULL);
  LmThumbnailQueue *q = g_new0 (LmThumbnailQueue, 1);
  q->size = size;
  q->context = g_main_context_ref_thread_default ();
  q->owner = g_atomic_rc_box_new0 (Owner);
  q->owner->alive = TRUE;
  q->owner->ready = ready;
  q->owner->user_data = user_data;
  g_mutex_init (&q->lock);
  g_cond_init (&q->wake);
  g_queue_init (&q->urgent);
  g_queue_init (&q->later);
  g_queue_init (&q->cpu_only);
  q->requests = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, (GDestroyNotify) request_free);
  if (n_workers == 0)
    n_workers = CLAMP (g_get_num_processors (), 1, 64);
  q->workers = g_ptr_array_new ();
  q->refs = 1;
  /* Auto asks the driver nothing here: starting CUDA takes the main thread a tenth of a second,
   * and a worker that finds no device gives its photos to the CPU's (gpu_work). */
  gboolean gpu = device == LM_THUMBNAIL_GPU ? lm_backend_cuda_device_count () > 0
                                            : device == LM_THUMBNAIL_AUTO && LUMEN_HAVE_CUDA;
  q->with_cpu = !gpu || device == LM_THUMBNAIL_AUTO;
  for (guint i = 0; gpu && i < GPU_WORKERS; i++)
    g_atomic_int_inc (&q->refs), g_ptr_array_add (q->workers, g_thread_new ("lumen-thumb-gpu", gpu_main, q));
  if (q->with_cpu)
    for (guint i = 0; i < n_workers; i++)
      g_atomic_int_inc (&q->refs), g_ptr_array_add (q->workers, g_thread_new ("lumen-thumbnail", cpu_main, q));
  return q;
}

LmThumbnailQueue *
lm_thumbnail_queue_new (int size, LmThumbnailReady ready, gpointer user_data)
{
  return lm_thumbnail_queue_new_full (size, 0, LM_THUMBNAIL_AUTO, ready, user_data);
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
      if (r != NULL && r->taken)
        {
          r->again = TRUE;
          r->urgent |= urgent;
          continue;
        }
      if (r != NULL && !urgent)
        continue;
      if (r != NULL)
        {
          GQueue *queues[] = { &q->urgent, &q->cpu_only, &q->later };
          for (guint j = 0; j < G_N_ELEMENTS (queues) && !g_queue_remove (queues[j], r); j++)
            ;
        }
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
lm_thumbnail_queue_drop_waiting (LmThumbnailQueue *q)
{
  g_mutex_lock (&q->lock);
  GQueue *queues[] = { &q->urgent, &q->cpu_only, &q->later };
  for (guint k = 0; k < G_N_ELEMENTS (queues); k++)
    for (Request *r; (r = g_queue_pop_head (queues[k])) != NULL;)
      g_hash_table_remove (q->requests, r->photo);
  g_mutex_unlock (&q->lock);
}

/* What waits is dropped, the workers told to leave once the photo in hand is made, and
 * nothing is delivered to the owner from now on (on the owner's thread: alive is its). */
static void
stop (LmThumbnailQueue *q)
{
  g_mutex_lock (&q->lock);
  q->stopping = TRUE;
  g_queue_clear (&q->urgent);
  g_queue_clear (&q->cpu_only);
  g_queue_clear (&q->later);
  g_cond_broadcast (&q->wake);
  g_mutex_unlock (&q->lock);
  q->owner->alive = FALSE;
}

void
lm_thumbnail_queue_free (LmThumbnailQueue *q)
{
  if (q == NULL)
    return;
  stop (q);
  for (guint i = 0; i < q->workers->len; i++)
    g_thread_join (q->workers->pdata[i]);
  g_ptr_array_unref (q->workers);
  queue_unref (q);
}

void
lm_thumbnail_queue_let_go (LmThumbnailQueue *q, GDestroyNotify gone, gpointer gone_data)
{
  g_return_if_fail (q != NULL && gone != NULL);
  q->gone = gone, q->gone_data = gone_data;
  stop (q);
  for (guint i = 0; i < q->workers->len; i++)
    g_thread_unref (q->workers->pdata[i]);
  g_ptr_array_unref (q->workers);
  queue_unref (q);
}
