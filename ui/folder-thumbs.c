/* The folder view's thumbnails (folder-thumbs.h). */
#include "folder-thumbs.h"

#include "core/image.h"

/* The thumbnail queue is the thumbnails part's (core/library/thumbnail-queue.h: the
 * freedesktop cache, embedded previews, GPU decodes, edited looks). Until it is in the tree,
 * a stand-in below makes thumbnails with gdk-pixbuf on two threads, visible ones first. */
#if __has_include("core/library/thumbnail-queue.h")
#include "core/library/thumbnail-queue.h"
#define HAVE_THUMBNAIL_QUEUE 1
#endif

/* About three screens of a 1920 × 1200 window at the default cell size. */
#define KEPT_THUMBNAILS 600

typedef struct {
  char *photo;
  cairo_surface_t *surface; /* NULL when it failed */
  GList *link;              /* in recent: most recent first */
} Thumb;

struct _LmFolderThumbs {
  GObject parent_instance;
  int size;
  GHashTable *thumbs; /* photo → Thumb */
  GQueue recent;      /* of Thumb *: the least recently looked up at the tail */
#ifdef HAVE_THUMBNAIL_QUEUE
  LmThumbnailQueue *queue;
#else
  struct _StandIn *stand_in;
#endif
};

G_DEFINE_FINAL_TYPE (LmFolderThumbs, lm_folder_thumbs, G_TYPE_OBJECT)

enum { READY, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
thumb_free (gpointer data)
{
  Thumb *t = data;
  g_clear_pointer (&t->surface, cairo_surface_destroy);
  g_free (t->photo);
  g_free (t);
}

/* Keeps SURFACE (NULL: failed) as PHOTO's thumbnail, the newest, and tells the views. */
static void
keep (LmFolderThumbs *self, const char *photo, cairo_surface_t *surface)
{
  Thumb *t = g_hash_table_lookup (self->thumbs, photo);
  if (t)
    {
      g_queue_delete_link (&self->recent, t->link);
      g_hash_table_remove (self->thumbs, photo);
    }
  t = g_new0 (Thumb, 1);
  t->photo = g_strdup (photo);
  t->surface = surface;
  g_queue_push_head (&self->recent, t);
  t->link = self->recent.head;
  g_hash_table_insert (self->thumbs, t->photo, t);
  while (self->recent.length > KEPT_THUMBNAILS)
    {
      Thumb *old = g_queue_pop_tail (&self->recent);
      g_hash_table_remove (self->thumbs, old->photo);
    }
  g_signal_emit (self, signals[READY], 0, photo);
}

/* A surface of the thumbnail's shape within SIZE × SIZE, from an image of W × H. */
static cairo_surface_t *
fitted (cairo_surface_t *source, int w, int h, int size)
{
  double scale = MIN (1.0, (double) size / MAX (w, h));
  int fw = MAX (1, (int) (w * scale + 0.5)), fh = MAX (1, (int) (h * scale + 0.5));
  cairo_surface_t *out = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, fw, fh);
  cairo_t *cr = cairo_create (out);
  cairo_scale (cr, (double) fw / w, (double) fh / h);
  cairo_set_source_surface (cr, source, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_GOOD);
  cairo_paint (cr);
  cairo_destroy (cr);
  return out;
}

#ifdef HAVE_THUMBNAIL_QUEUE
/* The queue's RGBA8 (straight alpha) as cairo's premultiplied ARGB32, fitted to the cell. */
static cairo_surface_t *
surface_of (const LmImage *image, int size)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, image->width, image->height);
  guint8 *dst = cairo_image_surface_get_data (s);
  int stride = cairo_image_surface_get_stride (s);
  for (guint y = 0; y < image->height; y++)
    {
      const guint8 *p = image->data + y * image->stride;
      guint32 *q = (guint32 *) (dst + (gsize) y * stride);
      for (guint x = 0; x < image->width; x++, p += 4)
        {
          guint a = p[3];
          q[x] = a << 24 | (p[0] * a + 127) / 255 << 16 | (p[1] * a + 127) / 255 << 8 | (p[2] * a + 127) / 255;
        }
    }
  cairo_surface_mark_dirty (s);
  cairo_surface_t *out = fitted (s, image->width, image->height, size);
  cairo_surface_destroy (s);
  return out;
}

static void
on_queue_ready (const char *photo, LmImage *thumb, const GError *error, gpointer data)
{
  LmFolderThumbs *self = data;
  keep (self, photo, thumb ? surface_of (thumb, self->size) : NULL);
  if (thumb)
    lm_image_unref (thumb);
}

static void
ask (LmFolderThumbs *self, const char *const *photos, guint n, gboolean urgent)
{
  lm_thumbnail_queue_want (self->queue, photos, n, urgent);
}

static void
start (LmFolderThumbs *self)
{
  /* The spec's sizes: normal 128, large 256, x-large 512, xx-large 1024. */
  int size = self->size <= 128 ? 128 : self->size <= 256 ? 256 : self->size <= 512 ? 512 : 1024;
  self->queue = lm_thumbnail_queue_new (size, on_queue_ready, self);
}

static void
stop (LmFolderThumbs *self)
{
  g_clear_pointer (&self->queue, lm_thumbnail_queue_free);
}
#else
/* The stand-in: two threads, the urgent photos first, each asked once until it is made. */
typedef struct _StandIn {
  LmFolderThumbs *owner; /* NULL once the owner is gone: results are dropped */
  GMutex lock;
  GCond wake;
  GQueue urgent, later; /* of char * */
  GHashTable *asked;    /* photo → the GQueue it waits in, or NULL while made */
  gboolean quit;
  GThread *threads[2];
  GMainContext *context;
} StandIn;

typedef struct {
  StandIn *in;
  char *photo;
  GdkPixbuf *pixbuf;
} Made;

static gboolean
deliver_made (gpointer data)
{
  Made *m = data;
  if (m->in->owner)
    {
      cairo_surface_t *surface = NULL;
      if (m->pixbuf)
        {
          cairo_surface_t *s = gdk_cairo_surface_create_from_pixbuf (m->pixbuf, 1, NULL);
          surface = fitted (s, gdk_pixbuf_get_width (m->pixbuf), gdk_pixbuf_get_height (m->pixbuf), m->in->owner->size);
          cairo_surface_destroy (s);
        }
      keep (m->in->owner, m->photo, surface);
    }
  g_mutex_lock (&m->in->lock);
  g_hash_table_remove (m->in->asked, m->photo);
  g_mutex_unlock (&m->in->lock);
  return G_SOURCE_REMOVE;
}

static void
made_free (gpointer data)
{
  Made *m = data;
  g_clear_object (&m->pixbuf);
  g_free (m->photo);
  g_free (m);
}

static gpointer
stand_in_thread (gpointer data)
{
  StandIn *in = data;
  for (;;)
    {
      g_mutex_lock (&in->lock);
      while (!in->quit && in->urgent.length == 0 && in->later.length == 0)
        g_cond_wait (&in->wake, &in->lock);
      if (in->quit)
        {
          g_mutex_unlock (&in->lock);
          return NULL;
        }
      char *photo = g_queue_pop_head (in->urgent.length ? &in->urgent : &in->later);
      g_hash_table_replace (in->asked, g_strdup (photo), NULL);
      int size = in->owner->size;
      g_mutex_unlock (&in->lock);

      Made *m = g_new0 (Made, 1);
      m->in = in, m->photo = photo;
      g_autoptr (GdkPixbuf) pixbuf = gdk_pixbuf_new_from_file_at_scale (photo, size, size, TRUE, NULL);
      if (pixbuf)
        m->pixbuf = gdk_pixbuf_apply_embedded_orientation (pixbuf);
      g_main_context_invoke_full (in->context, G_PRIORITY_DEFAULT, deliver_made, m, made_free);
    }
}

static void
ask (LmFolderThumbs *self, const char *const *photos, guint n, gboolean urgent)
{
  StandIn *in = self->stand_in;
  g_mutex_lock (&in->lock);
  if (urgent)
    {
      /* What was urgent and is not on screen any more waits behind what is. */
      while (in->urgent.length)
        {
          char *old = g_queue_pop_tail (&in->urgent);
          g_queue_push_head (&in->later, old);
          g_hash_table_replace (in->asked, g_strdup (old), &in->later);
        }
    }
  GQueue *into = urgent ? &in->urgent : &in->later;
  for (guint i = 0; i < n; i++)
    {
      gpointer where;
      if (g_hash_table_lookup_extended (in->asked, photos[i], NULL, &where))
        {
          if (where != &in->later || !urgent)
            continue; /* waiting where it should, or being made */
          GList *link = g_queue_find_custom (&in->later, photos[i], (GCompareFunc) g_strcmp0);
          g_free (link->data);
          g_queue_delete_link (&in->later, link);
        }
      g_queue_push_tail (into, g_strdup (photos[i]));
      g_hash_table_replace (in->asked, g_strdup (photos[i]), into);
    }
  g_cond_broadcast (&in->wake);
  g_mutex_unlock (&in->lock);
}

static void
start (LmFolderThumbs *self)
{
  StandIn *in = g_new0 (StandIn, 1);
  in->owner = self;
  g_mutex_init (&in->lock);
  g_cond_init (&in->wake);
  in->asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  in->context = g_main_context_ref_thread_default ();
  for (guint i = 0; i < G_N_ELEMENTS (in->threads); i++)
    in->threads[i] = g_thread_new ("lumen-thumbs", stand_in_thread, in);
  self->stand_in = in;
}

static void
stop (LmFolderThumbs *self)
{
  StandIn *in = self->stand_in;
  if (in == NULL)
    return;
  g_mutex_lock (&in->lock);
  in->quit = TRUE;
  g_cond_broadcast (&in->wake);
  g_mutex_unlock (&in->lock);
  for (guint i = 0; i < G_N_ELEMENTS (in->threads); i++)
    g_thread_join (in->threads[i]);
  /* Deliveries already queued on the context still hold IN: it is left to them (a few
   * bytes) rather than freed under them. */
  in->owner = NULL;
  g_queue_clear_full (&in->urgent, g_free);
  g_queue_clear_full (&in->later, g_free);
  self->stand_in = NULL;
}
#endif

cairo_surface_t *
lm_folder_thumbs_lookup (LmFolderThumbs *self, const char *photo, gboolean *failed)
{
  Thumb *t = g_hash_table_lookup (self->thumbs, photo);
  if (failed)
    *failed = t && t->surface == NULL;
  if (t == NULL)
    return NULL;
  g_queue_unlink (&self->recent, t->link);
  g_queue_push_head_link (&self->recent, t->link);
  return t->surface;
}

void
lm_folder_thumbs_want (LmFolderThumbs *self, const char *const *photos, guint n, gboolean urgent)
{
  g_autoptr (GPtrArray) missing = g_ptr_array_new ();
  for (guint i = 0; i < n; i++)
    if (!g_hash_table_contains (self->thumbs, photos[i]))
      g_ptr_array_add (missing, (gpointer) photos[i]);
  if (missing->len || urgent)
    ask (self, (const char *const *) missing->pdata, missing->len, urgent);
}

void
lm_folder_thumbs_forget (LmFolderThumbs *self, const char *photo)
{
  Thumb *t = g_hash_table_lookup (self->thumbs, photo);
  if (t == NULL)
    return;
  g_queue_delete_link (&self->recent, t->link);
  g_hash_table_remove (self->thumbs, photo);
}

static void
lm_folder_thumbs_dispose (GObject *object)
{
  LmFolderThumbs *self = LM_FOLDER_THUMBS (object);
  stop (self);
  G_OBJECT_CLASS (lm_folder_thumbs_parent_class)->dispose (object);
}

static void
lm_folder_thumbs_finalize (GObject *object)
{
  LmFolderThumbs *self = LM_FOLDER_THUMBS (object);
  g_hash_table_unref (self->thumbs);
  g_queue_clear (&self->recent);
  G_OBJECT_CLASS (lm_folder_thumbs_parent_class)->finalize (object);
}

static void
lm_folder_thumbs_class_init (LmFolderThumbsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lm_folder_thumbs_dispose;
  G_OBJECT_CLASS (klass)->finalize = lm_folder_thumbs_finalize;
  signals[READY] = g_signal_new ("ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
lm_folder_thumbs_init (LmFolderThumbs *self)
{
  self->thumbs = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, thumb_free);
}

LmFolderThumbs *
lm_folder_thumbs_new (int size)
{
  LmFolderThumbs *self = g_object_new (LM_TYPE_FOLDER_THUMBS, NULL);
  self->size = size;
  start (self);
  return self;
}
