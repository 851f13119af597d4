/* The date a photo was taken (core/library/photo-date.c), against dates written by libexif,
 * by exiftool and by a camera (a Canon 30D's CR2), with the answers worked out by hand; and
 * the files that state none: no EXIF, a blank date, a truncated head, a PNG. */
#include <stdlib.h>
#include <string.h>
#include <libexif/exif-data.h>
#include <glib/gstdio.h>

#include "core/io/io.h"
#include "core/io/raw.h"
#include "core/library/photo-date.h"
#include "test-util.h"

#define CANON_CR2 "/usr/share/doc/rawtran/IMG_5952.CR2" /* Debian's rawtran-doc */

static void
add_text (ExifData *ed, ExifTag tag, const char *text)
{
  ExifEntry *entry = exif_entry_new ();
  exif_content_add_entry (ed->ifd[EXIF_IFD_EXIF], entry);
  gsize n = strlen (text) + 1;
  entry->tag = tag;
  entry->format = EXIF_FORMAT_ASCII;
  entry->components = n;
  entry->size = (unsigned int) n;
  entry->data = malloc (n); /* libexif's default allocator frees it */
  memcpy (entry->data, text, n);
  exif_entry_unref (entry);
}

/* An EXIF block stating TAKEN and, where not NULL, OFFSET. */
static GBytes *
exif_block (const char *taken, const char *offset)
{
  ExifData *ed = exif_data_new ();
  exif_data_set_byte_order (ed, EXIF_BYTE_ORDER_MOTOROLA);
  add_text (ed, EXIF_TAG_DATE_TIME_ORIGINAL, taken);
  if (offset)
    add_text (ed, EXIF_TAG_OFFSET_TIME_ORIGINAL, offset);
  unsigned char *out = NULL;
  unsigned int len = 0;
  exif_data_save_data (ed, &out, &len);
  exif_data_unref (ed);
  g_assert_nonnull (out);
  GBytes *block = g_bytes_new (out, len);
  free (out);
  return block;
}

/* A small photo NAME in the temporary folder carrying EXIF (NULL: none). */
static char *
photo_with (const char *name, GBytes *exif)
{
  g_autoptr (LmImage) image = lm_test_random_rgba (16, 12, 7, FALSE);
  image->exif = exif ? g_bytes_ref (exif) : NULL;
  char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_autoptr (GError) error = NULL;
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  g_assert_true (lm_io_save (image, path, &options, &error));
  g_assert_no_error (error);
  return path;
}

static void
expect_date (const char *path, gint64 expected)
{
  g_autoptr (GError) error = NULL;
  gint64 t = -1;
  g_assert_true (lm_photo_date_taken (path, &t, &error));
  g_assert_no_error (error);
  g_assert_cmpint (t, ==, expected);
}

static void
expect_none (const char *path)
{
  g_autoptr (GError) error = NULL;
  gint64 t = 12345;
  g_assert_false (lm_photo_date_taken (path, &t, &error));
  g_assert_no_error (error);
  g_assert_cmpint (t, ==, 12345);
}

static void
test_offset (void)
{
  /* 2021-03-04 05:06:07 at +02:00 is 03:06:07 UTC. */
  g_autoptr (GBytes) exif = exif_block ("2021:03:04 05:06:07", "+02:00");
  g_autofree char *jpeg = photo_with ("offset.jpg", exif);
  expect_date (jpeg, 1614827167);
  g_autofree char *tiff = photo_with ("offset.tif", exif);
  expect_date (tiff, 1614827167);
}

static void
test_local_time (void)
{
  /* No offset: the camera's clock is local time, here New York's (TZ set in main), EST on
   * 4 March: 10:06:07 UTC. */
  g_autoptr (GBytes) exif = exif_block ("2021:03:04 05:06:07", NULL);
  g_autofree char *jpeg = photo_with ("local.jpg", exif);
  expect_date (jpeg, 1614852367);
}

static void
test_exiftool (void)
{
  g_autofree char *exiftool = g_find_program_in_path ("exiftool");
  if (exiftool == NULL)
    {
      g_test_skip ("exiftool is not installed");
      return;
    }
  g_autofree char *path = photo_with ("exiftool.jpg", NULL);
  const char *argv[] = { exiftool, "-q", "-overwrite_original", "-DateTimeOriginal=2019:12:31 23:59:58",
                         "-OffsetTimeOriginal=-05:30", path, NULL };
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  /* 23:59:58 at -05:30 is 05:29:58 UTC the next day, the next year. */
  expect_date (path, 1577856598);
}

static void
test_canon_raw (void)
{
  if (!g_file_test (CANON_CR2, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip (CANON_CR2 " is not installed (Debian's rawtran-doc)");
      return;
    }
  /* exiftool: DateTimeOriginal 2009:07:21 13:03:20, no offset; EDT in New York. */
  expect_date (CANON_CR2, 1248195800);

  /* The date is in its head: its first 4 KiB, the rest cut away, still give it (the TIFF
   * path reads IFD 0 and the EXIF IFD where they lie); its first 64 bytes (the header and a
   * part of IFD 0) give none, and no error. */
  g_autoptr (GError) error = NULL;
  g_autofree char *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (CANON_CR2, &bytes, &len, &error));
  g_autofree char *head = g_build_filename (lm_test_tmp_dir (), "head.cr2", NULL);
  g_assert_true (g_file_set_contents (head, bytes, MIN (len, 4096), &error));
  expect_date (head, 1248195800);
  /* LibRaw's reading (for the raws that are not TIFF inside) agrees: local time. */
  gint64 libraw_t = 0;
  g_assert_true (lm_raw_date_taken (CANON_CR2, (const guint8 *) bytes, len, &libraw_t, &error));
  g_assert_no_error (error);
  g_assert_cmpint (libraw_t, ==, 1248195800);
  g_autofree char *cut = g_build_filename (lm_test_tmp_dir (), "cut.cr2", NULL);
  g_assert_true (g_file_set_contents (cut, bytes, MIN (len, 64), &error));
  expect_none (cut);
}

static void
test_none (void)
{
  g_autofree char *plain = photo_with ("plain.jpg", NULL);
  expect_none (plain);
  g_autofree char *png = photo_with ("plain.png", NULL);
  expect_none (png);

  /* What cameras write before their clock is set. */
  g_autoptr (GBytes) blank = exif_block ("    :  :     :  :  ", NULL);
  g_autofree char *unset = photo_with ("blank.jpg", blank);
  expect_none (unset);
  g_autoptr (GBytes) zero = exif_block ("0000:00:00 00:00:00", NULL);
  g_autofree char *zeroed = photo_with ("zero.jpg", zero);
  expect_none (zeroed);
  g_autoptr (GBytes) junk = exif_block ("2021:13:04 05:06:07", "+99:00");
  g_autofree char *bad = photo_with ("junk.jpg", junk);
  expect_none (bad);

  /* An offset that is not one: the date is still the photo's, in local time. */
  g_autoptr (GBytes) odd = exif_block ("2021:03:04 05:06:07", "Z");
  g_autofree char *odd_offset = photo_with ("odd-offset.jpg", odd);
  expect_date (odd_offset, 1614852367);
}

static void
test_truncated (void)
{
  g_autoptr (GBytes) exif = exif_block ("2021:03:04 05:06:07", "+02:00");
  g_autofree char *jpeg = photo_with ("whole.jpg", exif);
  g_autofree char *bytes = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (jpeg, &bytes, &len, NULL));
  /* Cut inside the APP1 segment, at every length up to it and a little past: never a date
   * read from past the end (ASan watches), never a crash. */
  g_autofree char *cut = g_build_filename (lm_test_tmp_dir (), "cut.jpg", NULL);
  for (gsize n = 0; n < MIN (len, 160); n++)
    {
      g_assert_true (g_file_set_contents (cut, bytes, n, NULL));
      g_autoptr (GError) error = NULL;
      gint64 t = 0;
      if (lm_photo_date_taken (cut, &t, &error))
        g_assert_cmpint (t, ==, 1614827167);
      g_assert_no_error (error);
      LM_TEST_RETURN_IF_FAILED ();
    }
}

static void
test_unreadable (void)
{
  g_autofree char *missing = g_build_filename (lm_test_tmp_dir (), "missing.jpg", NULL);
  g_autoptr (GError) error = NULL;
  gint64 t = 0;
  g_assert_false (lm_photo_date_taken (missing, &t, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (error ? strstr (error->message, missing) : NULL);
  g_clear_error (&error);
  g_assert_false (lm_photo_date_taken (lm_test_tmp_dir (), &t, &error));
  g_assert_nonnull (error);
}

int
main (int argc, char **argv)
{
  g_setenv ("TZ", "America/New_York", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/photo-date/offset", test_offset);
  g_test_add_func ("/photo-date/local-time", test_local_time);
  g_test_add_func ("/photo-date/exiftool", test_exiftool);
  g_test_add_func ("/photo-date/canon-raw", test_canon_raw);
  g_test_add_func ("/photo-date/none", test_none);
  g_test_add_func ("/photo-date/truncated", test_truncated);
  g_test_add_func ("/photo-date/unreadable", test_unreadable);
  return g_test_run ();
}
