/* The folder view's thumbnails (folder-thumbs.h). */
#include "folder-thumbs.h"

#include "core/image.h"

#include "core/library/thumbnail-queue.h"

/* About three screens of a 1920 × 1200 window at the default cell size; more where a view
 * shows more cells at once (lm_folder_thumbs_room). */
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
  guint kept;         /* the most kept */
  LmThumbnailQueue *queue;
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
  while (self->recent.length > self->kept)
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

void
lm_folder_thumbs_hold (LmFolderThumbs *self, gboolean hold)
{
  lm_thumbnail_queue_hold (self->queue, hold);
}

void
lm_folder_thumbs_drop_waiting (LmFolderThumbs *self)
{
  lm_thumbnail_queue_drop_waiting (self->queue);
}

static void
start (LmFolderThumbs *self)
{
  /* The spec's sizes: normal 128, large 256, x-large 512, xx-large 1024. */
  int size = self->size <= 128 ? 128 : self->size <= 256 ? 256 : self->size <= 512 ? 512 : 1024;
  self->queue = lm_thumbnail_queue_new (size, on_queue_ready, self);
}

/* The window closing never waits on a decode (a whole raw can take a second, and the other
 * windows would wait with it): the workers finish theirs on their own, and the application
 * stays until they have. */
static void
stop (LmFolderThumbs *self)
{
  GApplication *app = g_application_get_default ();
  if (self->queue == NULL || app == NULL)
    {
      g_clear_pointer (&self->queue, lm_thumbnail_queue_free);
      return;
    }
  g_application_hold (app);
  lm_thumbnail_queue_let_go (g_steal_pointer (&self->queue), (GDestroyNotify) g_application_release, app);
}

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

guint
lm_folder_thumbs_room (LmFolderThumbs *self, guint visible)
{
  /* Three screens: what is seen, and as much on each side. */
  self->kept = MAX (self->kept, 3 * visible);
  return (self->kept - visible) / 2;
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
  self->kept = KEPT_THUMBNAILS;
}

LmFolderThumbs *
lm_folder_thumbs_new (int size)
{
  LmFolderThumbs *self = g_object_new (LM_TYPE_FOLDER_THUMBS, NULL);
  self->size = size;
  start (self);
  return self;
}
