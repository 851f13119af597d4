/* A folder's photos (core/library/folder-scan.h, folder-order.h): what is listed and what is
 * not (sidecars, hidden files, folders, other files; a photo without an extension, a damaged
 * one), records in batches on the caller's thread and none after the scan is freed, and the
 * orders and filters of the folder view, against orders written out here. */
#include <glib/gstdio.h>
#include <string.h>
#include <utime.h>

#include "core/io/io.h"
#include "core/library/folder-order.h"
#include "core/library/folder-scan.h"
#include "test-util.h"

static void
write_photo (const char *folder, const char *name, const char *format_name)
{
  g_autoptr (LmImage) image = lm_test_random_rgba (8, 6, 7, FALSE);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autofree char *as = g_build_filename (folder, format_name ? format_name : name, NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  GError *error = NULL;
  g_assert_true (lm_io_save (image, as, &options, &error));
  g_assert_no_error (error);
  if (format_name)
    g_assert_cmpint (g_rename (as, path), ==, 0);
}

static void
write_text (const char *folder, const char *name, const char *text)
{
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static const LmPhotoRecord *
find (GPtrArray *records, const char *name)
{
  for (guint i = 0; i < records->len; i++)
    if (g_str_equal (((LmPhotoRecord *) records->pdata[i])->name, name))
      return records->pdata[i];
  return NULL;
}

static char *
make_folder (void)
{
  g_autofree char *folder = g_build_filename (lm_test_tmp_dir (), "folder-scan-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (folder));
  return g_steal_pointer (&folder);
}

static void
test_what_is_listed (void)
{
  g_autofree char *folder = make_folder ();
  write_photo (folder, "IMG_10.jpg", NULL);
  write_photo (folder, "IMG_2.JPG", "tmp.jpg");
  write_photo (folder, "scan.png", NULL);
  write_photo (folder, "no-extension", "tmp.png");     /* a PNG by its content */
  write_photo (folder, "mislabelled.jpg", "tmp2.png"); /* a PNG whatever its name says */
  write_text (folder, "damaged.jpg", "not a JPEG");    /* listed: its error shows in its cell */
  write_text (folder, "camera.CR2", "II*\0");          /* a raw by its name, as the Open dialog */
  write_text (folder, "notes.txt", "a photographer's notes");
  write_photo (folder, ".hidden.jpg", "tmp3.jpg");
  write_text (folder, "IMG_10.jpg.xmp", "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>");
  write_text (folder, "IMG_10.xmp", "<x:xmpmeta xmlns:x='adobe:ns:meta/'/>");
  write_text (folder, "IMG_10.jpg.lumen", "[lumen]\nversion=1\n");
  write_photo (folder, "orphan.jpg.xmp", "tmp4.png"); /* a sidecar, whatever it holds */
  g_autofree char *sub = g_build_filename (folder, "sub.jpg", NULL);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);

  GError *error = NULL;
  g_autoptr (GPtrArray) records = lm_folder_scan_sync (folder, &error);
  g_assert_no_error (error);
  g_assert_nonnull (records);
  g_assert_cmpuint (records->len, ==, 7);
  const char *listed[] = { "IMG_10.jpg", "IMG_2.JPG", "scan.png", "no-extension", "mislabelled.jpg", "damaged.jpg",
                           "camera.CR2" };
  for (guint i = 0; i < G_N_ELEMENTS (listed); i++)
    g_assert_nonnull (find (records, listed[i]));
  g_assert_cmpint (find (records, "IMG_10.jpg")->type, ==, LM_FILE_JPEG);
  g_assert_cmpint (find (records, "no-extension")->type, ==, LM_FILE_PNG);
  g_assert_cmpint (find (records, "mislabelled.jpg")->type, ==, LM_FILE_PNG);
  g_assert_cmpint (find (records, "damaged.jpg")->type, ==, LM_FILE_JPEG);
  g_assert_cmpint (find (records, "camera.CR2")->type, ==, LM_FILE_RAW);
  g_assert_true (find (records, "IMG_10.jpg")->has_edits);
  g_assert_false (find (records, "scan.png")->has_edits);
  const LmPhotoRecord *r = find (records, "scan.png");
  g_autofree char *expected_path = g_build_filename (folder, "scan.png", NULL);
  g_assert_cmpstr (r->path, ==, expected_path);
  GStatBuf st;
  g_assert_cmpint (g_stat (expected_path, &st), ==, 0);
  g_assert_cmpint (r->size, ==, st.st_size);
  g_assert_cmpint (r->mtime, ==, st.st_mtime);
  lm_test_remove_tree (folder);
}

static void
test_missing_folder (void)
{
  GError *error = NULL;
  g_autoptr (GPtrArray) records = lm_folder_scan_sync ("/nonexistent/lumen-folder", &error);
  g_assert_null (records);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "/nonexistent/lumen-folder"));
  g_clear_error (&error);
}

typedef struct {
  guint batches, records, first_batch;
  gboolean done;
  GError *error;
  GThread *thread;
} Seen;

static void
on_batch (GPtrArray *records, gpointer data)
{
  Seen *seen = data;
  g_assert_true (g_thread_self () == seen->thread);
  g_assert_false (seen->done);
  if (seen->batches++ == 0)
    seen->first_batch = records->len;
  seen->records += records->len;
  g_ptr_array_unref (records);
}

static void
on_done (const GError *error, gpointer data)
{
  Seen *seen = data;
  seen->done = TRUE;
  seen->error = error ? g_error_copy (error) : NULL;
}

static void
test_batches (void)
{
  g_autofree char *folder = make_folder ();
  write_photo (folder, "a.png", NULL);
  for (int i = 0; i < 40; i++)
    {
      g_autofree char *name = g_strdup_printf ("p%02d.png", i);
      g_autofree char *a = g_build_filename (folder, "a.png", NULL);
      g_autofree char *b = g_build_filename (folder, name, NULL);
      g_autofree char *bytes = NULL;
      gsize len;
      g_assert_true (g_file_get_contents (a, &bytes, &len, NULL));
      g_assert_true (g_file_set_contents (b, bytes, len, NULL));
    }
  Seen seen = { .thread = g_thread_self () };
  LmFolderScan *scan = lm_folder_scan_start (folder, 5, on_batch, on_done, &seen);
  while (!seen.done)
    g_main_context_iteration (NULL, TRUE);
  lm_folder_scan_free (scan);
  g_assert_no_error (seen.error);
  g_assert_cmpuint (seen.records, ==, 41);
  g_assert_cmpuint (seen.first_batch, >=, 5);
  g_assert_cmpuint (seen.first_batch, <, 41);

  /* Freed at once, and while its batches wait on the context: nothing runs afterwards. */
  for (int round = 0; round < 2; round++)
    {
      Seen late = { .thread = g_thread_self () };
      scan = lm_folder_scan_start (folder, 1, on_batch, on_done, &late);
      if (round == 1)
        g_usleep (50000);
      lm_folder_scan_free (scan);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_assert_cmpuint (late.batches, ==, 0);
      g_assert_false (late.done);
    }
  lm_test_remove_tree (folder);
}

static LmPhotoRecord *
record (const char *name, int rating, guint labels, gint64 taken, LmFileType type)
{
  LmPhotoRecord *r = g_new0 (LmPhotoRecord, 1);
  r->path = g_strconcat ("/photos/", name, NULL);
  r->name = g_strdup (name);
  r->collate_key = g_utf8_collate_key_for_filename (name, -1);
  r->rating = rating, r->labels = labels, r->taken = taken, r->type = type;
  return r;
}

static char *
names (GPtrArray *records, GArray *order)
{
  GString *s = g_string_new (NULL);
  for (guint i = 0; i < order->len; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "",
                            ((LmPhotoRecord *) records->pdata[g_array_index (order, guint, i)])->name);
  g_array_unref (order);
  return g_string_free (s, FALSE);
}

static void
test_order (void)
{
  g_autoptr (GPtrArray) r = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_photo_record_free);
  g_ptr_array_add (r, record ("IMG_10.jpg", 3, 0, 300, LM_FILE_JPEG));
  g_ptr_array_add (r, record ("IMG_2.jpg", -1, 1 << 0, 100, LM_FILE_JPEG));
  g_ptr_array_add (r, record ("IMG_3.cr2", 5, (1 << 0) | (1 << 2), 200, LM_FILE_RAW));
  g_ptr_array_add (r, record ("IMG_1.png", 0, 1 << 3, 400, LM_FILE_PNG));
  g_ptr_array_add (r, record ("DSC_5.jpg", 3, 0, 100, LM_FILE_JPEG));

  g_autofree char *by_name = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, FALSE, NULL));
  g_assert_cmpstr (by_name, ==, "DSC_5.jpg IMG_1.png IMG_2.jpg IMG_3.cr2 IMG_10.jpg");
  g_autofree char *by_name_down = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, TRUE, NULL));
  g_assert_cmpstr (by_name_down, ==, "IMG_10.jpg IMG_3.cr2 IMG_2.jpg IMG_1.png DSC_5.jpg");
  /* Ties by name: DSC_5.jpg and IMG_2.jpg were both taken at 100. */
  g_autofree char *by_date = names (r, lm_folder_order (r, LM_FOLDER_SORT_TAKEN, FALSE, NULL));
  g_assert_cmpstr (by_date, ==, "DSC_5.jpg IMG_2.jpg IMG_3.cr2 IMG_10.jpg IMG_1.png");
  g_autofree char *by_rating = names (r, lm_folder_order (r, LM_FOLDER_SORT_RATING, FALSE, NULL));
  g_assert_cmpstr (by_rating, ==, "IMG_3.cr2 DSC_5.jpg IMG_10.jpg IMG_1.png IMG_2.jpg");

  LmFolderFilter f = LM_FOLDER_FILTER_ALL;
  f.min_rating = 3;
  g_autofree char *three = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, FALSE, &f));
  g_assert_cmpstr (three, ==, "DSC_5.jpg IMG_3.cr2 IMG_10.jpg");
  f.min_rating = 0, f.rejects = LM_FOLDER_REJECTS_HIDDEN;
  g_autofree char *kept = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, FALSE, &f));
  g_assert_cmpstr (kept, ==, "DSC_5.jpg IMG_1.png IMG_3.cr2 IMG_10.jpg");
  f.rejects = LM_FOLDER_REJECTS_ONLY, f.min_rating = 4; /* stars mean nothing for rejects */
  g_autofree char *rejects = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, FALSE, &f));
  g_assert_cmpstr (rejects, ==, "IMG_2.jpg");
  f = (LmFolderFilter) LM_FOLDER_FILTER_ALL;
  f.labels = 1 << 0; /* red */
  g_autofree char *red = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, FALSE, &f));
  g_assert_cmpstr (red, ==, "IMG_2.jpg IMG_3.cr2");
  f.labels = (1 << 2) | (1 << 3); /* green or blue */
  g_autofree char *green_blue = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, FALSE, &f));
  g_assert_cmpstr (green_blue, ==, "IMG_1.png IMG_3.cr2");
  f.labels = 0, f.types = 1u << LM_FILE_RAW | 1u << LM_FILE_PNG;
  g_autofree char *types = names (r, lm_folder_order (r, LM_FOLDER_SORT_NAME, FALSE, &f));
  g_assert_cmpstr (types, ==, "IMG_1.png IMG_3.cr2");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/folder-scan/what-is-listed", test_what_is_listed);
  g_test_add_func ("/folder-scan/missing-folder", test_missing_folder);
  g_test_add_func ("/folder-scan/batches", test_batches);
  g_test_add_func ("/folder-scan/order", test_order);
  return g_test_run ();
}
