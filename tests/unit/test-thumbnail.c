/* The thumbnail cache (core/library/thumbnail-cache.h, thumbnail-png.h) and the loader's
 * queue (thumbnail-queue.h). Known answers: the MD5 of a URI by md5sum, URIs escaped as
 * RFC 3986 has them; the queue's order as its contract states it. */
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "core/error.h"
#include "core/io/io.h"
#include "core/library/thumbnail-cache.h"
#include "core/library/thumbnail-gpu.h"
#include "core/library/thumbnail-source.h"
#include "core/library/thumbnail-png.h"
#include "core/library/thumbnail-queue.h"
#include "test-util.h"

/* printf '%s' 'file:///home/jens/Fotos/a%20b%20%C3%A9.jpg' | md5sum */
#define KNOWN_URI "file:///home/jens/Fotos/a%20b%20%C3%A9.jpg"
#define KNOWN_MD5 "fa3ef98a5385881015657bc12b60f1c2"

static void
test_paths (void)
{
  g_setenv ("XDG_CACHE_HOME", "/c", TRUE);
  g_autofree char *large = lm_thumbnail_cache_path (KNOWN_URI, 256);
  g_assert_cmpstr (large, ==, "/c/thumbnails/large/" KNOWN_MD5 ".png");
  g_autofree char *normal = lm_thumbnail_cache_path (KNOWN_URI, 128);
  g_assert_cmpstr (normal, ==, "/c/thumbnails/normal/" KNOWN_MD5 ".png");
  g_autofree char *xx = lm_thumbnail_cache_path (KNOWN_URI, 1024);
  g_assert_cmpstr (xx, ==, "/c/thumbnails/xx-large/" KNOWN_MD5 ".png");
  g_autofree char *fail = lm_thumbnail_fail_path (KNOWN_URI);
  g_assert_true (g_str_has_prefix (fail, "/c/thumbnails/fail/lumen-"));
  g_assert_true (g_str_has_suffix (fail, "/" KNOWN_MD5 ".png"));
  /* A relative XDG_CACHE_HOME is no cache home (the XDG base directory rules). */
  g_setenv ("XDG_CACHE_HOME", "relative", TRUE);
  g_autofree char *root = lm_thumbnail_root ();
  g_autofree char *home = g_build_filename (g_get_home_dir (), ".cache", "thumbnails", NULL);
  g_assert_cmpstr (root, ==, home);

  g_assert_cmpint (lm_thumbnail_folder_size (1), ==, 128);
  g_assert_cmpint (lm_thumbnail_folder_size (128), ==, 128);
  g_assert_cmpint (lm_thumbnail_folder_size (129), ==, 256);
  g_assert_cmpint (lm_thumbnail_folder_size (600), ==, 1024);
  g_assert_cmpint (lm_thumbnail_folder_size (0), ==, 0);
  g_assert_cmpint (lm_thumbnail_folder_size (1025), ==, 0);
}

static void
test_key_uri (void)
{
  g_autofree char *photo = g_build_filename (lm_test_tmp_dir (), "a b é.jpg", NULL);
  g_assert_true (g_file_set_contents (photo, "12345", 5, NULL));
  LmThumbnailKey key = { 0 };
  g_assert_true (lm_thumbnail_key_init (&key, photo, NULL));
  g_autofree char *want = g_strconcat ("file://", lm_test_tmp_dir (), "/a%20b%20%C3%A9.jpg", NULL);
  g_assert_cmpstr (key.uri, ==, want);
  g_assert_cmpint (key.size, ==, 5);
  lm_thumbnail_key_clear (&key);
  g_autoptr (GError) error = NULL;
  g_assert_false (lm_thumbnail_key_init (&key, "/nonexistent/x.jpg", &error));
  g_assert_nonnull (strstr (error->message, "/nonexistent/x.jpg"));
}

static LmImage *
patterned (guint w, guint h)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA8, w, h, 0xA5);
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      {
        guint8 *p = lm_image_row (image, y) + 4 * x;
        p[0] = (guint8) (x * 7), p[1] = (guint8) (y * 13), p[2] = (guint8) (x ^ y), p[3] = 255;
      }
  image->opaque = TRUE;
  return image;
}

static void
test_store_and_validity (void)
{
  g_autofree char *cache = g_build_filename (lm_test_tmp_dir (), "cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  LmThumbnailKey key = { g_strdup ("file:///p/x.jpg"), 1700000000, 12345 };
  g_autofree char *path = lm_thumbnail_cache_path (key.uri, 256);
  g_autoptr (LmImage) thumb = patterned (256, 100);
  g_assert_true (lm_thumbnail_cache_store (path, thumb, &key, "image/jpeg", NULL));

  GStatBuf st;
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_autofree char *folder = g_path_get_dirname (path);
  g_assert_cmpint (g_stat (folder, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);

  g_autoptr (LmImage) back = lm_thumbnail_cache_lookup (path, &key, 256);
  g_assert_nonnull (back);
  lm_test_assert_same_pixels (back, thumb);
  /* Too large for the folder asked: another size's, not this one's. */
  g_assert_null (lm_thumbnail_cache_lookup (path, &key, 128));

  LmThumbnailKey later = key;
  later.mtime++;
  g_assert_null (lm_thumbnail_cache_lookup (path, &later, 256));
  LmThumbnailKey bigger = key;
  bigger.size++;
  g_assert_null (lm_thumbnail_cache_lookup (path, &bigger, 256));
  LmThumbnailKey other = key;
  other.uri = (char *) "file:///p/y.jpg";
  g_assert_null (lm_thumbnail_cache_lookup (path, &other, 256));

  /* A damaged thumbnail is no thumbnail: made again, not a failure. */
  g_autofree char *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &bytes, &len, NULL));
  g_assert_true (g_file_set_contents (path, bytes, (gssize) len / 2, NULL));
  g_assert_null (lm_thumbnail_cache_lookup (path, &key, 256));
  lm_thumbnail_key_clear (&key);
}

static void
test_failure_entries (void)
{
  g_autofree char *cache = g_build_filename (lm_test_tmp_dir (), "fail-cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  LmThumbnailKey key = { g_strdup ("file:///p/%C3%A9t%C3%A9.jpg"), 1700000000, 99 };
  char *message = NULL;
  g_assert_false (lm_thumbnail_fail_lookup (&key, &message));
  g_assert_true (lm_thumbnail_fail_store (&key, "/p/été.jpg: the file is truncated", NULL));
  g_assert_true (lm_thumbnail_fail_lookup (&key, &message));
  g_assert_cmpstr (message, ==, "/p/été.jpg: the file is truncated");
  g_free (message);
  key.mtime++;
  g_assert_false (lm_thumbnail_fail_lookup (&key, NULL));
  lm_thumbnail_key_clear (&key);
}

/* A PNG of a signature and an IHDR chunk declaring W × H (CRC right), nothing else. */
static GByteArray *
forged_png (guint32 w, guint32 h)
{
  GByteArray *png = g_byte_array_new ();
  g_byte_array_append (png, (const guint8 *) "\x89PNG\r\n\x1a\n", 8);
  guint8 chunk[4 + 4 + 13 + 4] = { 0, 0, 0, 13, 'I', 'H', 'D', 'R' };
  guint32 be_w = GUINT32_TO_BE (w), be_h = GUINT32_TO_BE (h);
  memcpy (chunk + 8, &be_w, 4);
  memcpy (chunk + 12, &be_h, 4);
  chunk[16] = 8, chunk[17] = 6; /* 8-bit RGBA */
  guint32 crc = GUINT32_TO_BE ((guint32) crc32 (0, chunk + 4, 17));
  memcpy (chunk + 21, &crc, 4);
  g_byte_array_append (png, chunk, sizeof chunk);
  return png;
}

static void
test_hostile_pngs (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LmImage) image = NULL;
  g_autoptr (GHashTable) text = NULL;
  /* 2³⁰ × 2³⁰ declared in 33 bytes: refused before its rows are allocated. */
  g_autoptr (GByteArray) huge = forged_png (1u << 30, 1u << 30);
  g_assert_false (lm_thumbnail_png_read (huge->data, huge->len, TRUE, &text, &image, &error));
  g_assert_null (image);
  g_clear_error (&error);
  g_clear_pointer (&text, g_hash_table_unref);
  /* Small enough, but the pixel data is missing. */
  g_autoptr (GByteArray) empty = forged_png (64, 64);
  g_assert_false (lm_thumbnail_png_read (empty->data, empty->len, TRUE, &text, &image, &error));
  g_clear_error (&error);
  g_clear_pointer (&text, g_hash_table_unref);
  g_assert_false (lm_thumbnail_png_read ((const guint8 *) "GIF89a", 6, TRUE, &text, &image, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_FORMAT);
}

/* The GPU path's shrink on the CPU backend is the CPU path's, byte for byte (the parity
 * test compares the CUDA backend's with it); without a device the GPU path says why. */
static void
test_shrink_on_backend (void)
{
  g_autoptr (LmImage) src = patterned (1001, 333);
  g_autoptr (LmImage) direct = lm_thumbnail_shrink (src, 256, NULL);
  g_assert_cmpuint (direct->width, ==, 256);
  g_assert_cmpuint (direct->height, ==, 85);
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmImage) through = lm_thumbnail_shrink_on (cpu, src, 256, NULL);
  lm_test_assert_same_pixels (through, direct);
  if (lm_backend_cuda_device_count () == 0)
    {
      g_autoptr (GError) error = NULL;
      g_assert_null (lm_thumbnail_gpu_new (&error));
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_NO_DEVICE);
    }
}

/* The queue: what arrives, in which order, and nothing after free. */
typedef struct {
  GPtrArray *order;
  guint failed;
} Arrivals;

static void
on_ready (const char *photo, LmImage *thumb, const GError *error, gpointer user_data)
{
  Arrivals *a = user_data;
  g_ptr_array_add (a->order, g_path_get_basename (photo));
  if (thumb == NULL)
    a->failed++;
  g_assert_true (thumb == NULL || MAX (thumb->width, thumb->height) <= 128);
  g_clear_pointer (&thumb, lm_image_unref);
}

static char *
small_photo (const char *name)
{
  char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_autoptr (LmImage) image = patterned (300, 200);
  g_assert_true (lm_io_save (image, path, &(LmSaveOptions) LM_SAVE_OPTIONS_INIT, NULL));
  return path;
}

static void
test_queue_order (void)
{
  g_autofree char *cache = g_build_filename (lm_test_tmp_dir (), "queue-cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  const char *names[] = { "a.png", "b.png", "c.png", "d.png", "e.png", "f.png" };
  char *paths[G_N_ELEMENTS (names)];
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    paths[i] = small_photo (names[i]);
  Arrivals a = { g_ptr_array_new_with_free_func (g_free) };
  LmThumbnailQueue *q = lm_thumbnail_queue_new_full (128, 1, LM_THUMBNAIL_CPU, on_ready, &a);
  lm_thumbnail_queue_hold (q, TRUE);
  lm_thumbnail_queue_want (q, (const char *const *) paths, 3, FALSE);    /* a b c, later */
  lm_thumbnail_queue_want (q, (const char *const *) paths + 3, 2, TRUE); /* d e, visible */
  lm_thumbnail_queue_want (q, (const char *const *) paths + 5, 1, TRUE); /* f, scrolled to */
  lm_thumbnail_queue_want (q, (const char *const *) paths + 1, 1, TRUE); /* b, now visible */
  lm_thumbnail_queue_want (q, (const char *const *) paths + 5, 1, FALSE); /* f again: once */
  g_assert_cmpuint (lm_thumbnail_queue_pending (q), ==, 6);
  lm_thumbnail_queue_hold (q, FALSE);
  while (a.order->len < 6)
    g_main_context_iteration (NULL, TRUE);
  g_ptr_array_add (a.order, NULL);
  g_auto (GStrv) order = (char **) g_ptr_array_free (a.order, FALSE);
  g_autofree char *got = g_strjoinv (" ", order);
  g_assert_cmpstr (got, ==, "b.png f.png d.png e.png a.png c.png");
  g_assert_cmpuint (a.failed, ==, 0);
  lm_thumbnail_queue_free (q);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_free (paths[i]);
}

/* Another folder opened: what was asked for and not begun is forgotten, what is asked next
 * is made. */
static void
test_queue_drop_waiting (void)
{
  g_autofree char *cache = g_build_filename (lm_test_tmp_dir (), "drop-cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_autofree char *old_a = small_photo ("old-a.png");
  g_autofree char *old_b = small_photo ("old-b.png");
  g_autofree char *now = small_photo ("now.png");
  Arrivals a = { g_ptr_array_new_with_free_func (g_free) };
  LmThumbnailQueue *q = lm_thumbnail_queue_new_full (128, 1, LM_THUMBNAIL_CPU, on_ready, &a);
  lm_thumbnail_queue_hold (q, TRUE);
  lm_thumbnail_queue_want (q, (const char *const[]) { old_a }, 1, TRUE);
  lm_thumbnail_queue_want (q, (const char *const[]) { old_b }, 1, FALSE);
  lm_thumbnail_queue_drop_waiting (q);
  g_assert_cmpuint (lm_thumbnail_queue_pending (q), ==, 0);
  lm_thumbnail_queue_want (q, (const char *const[]) { now }, 1, FALSE);
  lm_thumbnail_queue_hold (q, FALSE);
  while (a.order->len < 1)
    g_main_context_iteration (NULL, TRUE);
  lm_thumbnail_queue_free (q);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (a.order->len, ==, 1);
  g_assert_cmpstr (a.order->pdata[0], ==, "now.png");
  g_ptr_array_unref (a.order);
}

static void
test_queue_free_cancels (void)
{
  g_autofree char *cache = g_build_filename (lm_test_tmp_dir (), "free-cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_autofree char *photo = small_photo ("many.png");
  const char *photos[40];
  char *copies[40];
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("many-%u.png", i);
      copies[i] = g_build_filename (lm_test_tmp_dir (), name, NULL);
      g_assert_cmpint (link (photo, copies[i]), ==, 0);
      photos[i] = copies[i];
    }
  Arrivals a = { g_ptr_array_new_with_free_func (g_free) };
  LmThumbnailQueue *q = lm_thumbnail_queue_new_full (128, 2, LM_THUMBNAIL_CPU, on_ready, &a);
  lm_thumbnail_queue_want (q, photos, 40, FALSE);
  lm_thumbnail_queue_free (q);
  /* Results sent before the free are dropped, not delivered to a caller that has gone. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (a.order->len, ==, 0);
  g_ptr_array_unref (a.order);
  for (guint i = 0; i < 40; i++)
    g_free (copies[i]);
}

static void
on_gone (gpointer data)
{
  int *gone = data;
  (*gone)++;
}

/* A window closing lets go of its queue while a large photo is being made: the call returns
 * with the worker still at it, no thumbnail is delivered after, GONE comes once on the
 * context, and the worker has left by then. */
static void
test_queue_let_go (void)
{
  g_autofree char *cache = g_build_filename (lm_test_tmp_dir (), "let-go-cache", NULL);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  char *paths[2];
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      paths[i] = g_strdup_printf ("%s/large-%u.png", lm_test_tmp_dir (), i);
      g_autoptr (LmImage) image = lm_test_random_rgba (6000, 4000, 90 + i, FALSE);
      LmSaveOptions save = LM_SAVE_OPTIONS_INIT;
      save.png_level = 1;
      g_assert_true (lm_io_save (image, paths[i], &save, NULL));
    }
  Arrivals a = { g_ptr_array_new_with_free_func (g_free) };
  LmThumbnailQueue *q = lm_thumbnail_queue_new_full (128, 1, LM_THUMBNAIL_CPU, on_ready, &a);
  lm_thumbnail_queue_want (q, (const char *const *) paths, G_N_ELEMENTS (paths), TRUE);
  g_usleep (G_USEC_PER_SEC / 20); /* the first in hand */
  int gone = 0;
  lm_thumbnail_queue_let_go (q, on_gone, &gone);
  g_assert_true (lm_test_thread_named ("lumen-thumbnail"));
  g_assert_cmpint (gone, ==, 0);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (gone == 0 && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpint (gone, ==, 1);
  g_assert_cmpuint (a.order->len, ==, 0);
  for (int i = 0; i < 100 && lm_test_thread_named ("lumen-thumbnail"); i++)
    g_usleep (G_USEC_PER_SEC / 100); /* gone is queued just before the worker returns */
  g_assert_false (lm_test_thread_named ("lumen-thumbnail"));
  g_ptr_array_unref (a.order);
  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    g_free (paths[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thumbnail/paths", test_paths);
  g_test_add_func ("/thumbnail/queue-drop-waiting", test_queue_drop_waiting);
  g_test_add_func ("/thumbnail/key-uri", test_key_uri);
  g_test_add_func ("/thumbnail/store-and-validity", test_store_and_validity);
  g_test_add_func ("/thumbnail/failure-entries", test_failure_entries);
  g_test_add_func ("/thumbnail/hostile-pngs", test_hostile_pngs);
  g_test_add_func ("/thumbnail/shrink-on-backend", test_shrink_on_backend);
  g_test_add_func ("/thumbnail-queue/order", test_queue_order);
  g_test_add_func ("/thumbnail-queue/free-cancels", test_queue_free_cancels);
  g_test_add_func ("/thumbnail-queue/let-go", test_queue_let_go);
  return g_test_run ();
}
