/* The atomic writer: temporary names that fit in a file name however long the destination's
 * name is (up to the longest a file may have), a commit that leaves only the destination, and
 * symbolic links written through rather than replaced. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "core/io/atomic-file.h"
#include "core/error.h"
#include "test-util.h"

/* A fresh folder of its own under the test's temporary folder. */
static char *
fresh_dir (const char *name)
{
  char *dir = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  return dir;
}

static char *
read_text (const char *path)
{
  char *text = NULL;
  GError *error = NULL;
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

/* Writes TEXT to PATH through the atomic writer; the result of the commit. */
static gboolean
write_text (const char *path, const char *text, GError **error)
{
  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;
  fputs (text, lm_atomic_file_stream (file));
  return lm_atomic_file_commit (file, error);
}

static guint
count_entries (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;
  while (d && g_dir_read_name (d))
    n++;
  return n;
}

/* A name of LEN bytes: "é" (2 bytes) repeated, and an "x" where LEN is odd, with EXT. */
static char *
long_name (gsize len, const char *ext)
{
  GString *name = g_string_new (NULL);
  while (name->len + strlen (ext) + 2 <= len)
    g_string_append (name, "é");
  while (name->len + strlen (ext) < len)
    g_string_append_c (name, 'x');
  g_string_append (name, ext);
  return g_string_free (name, FALSE);
}

static const gsize lengths[] = { 200, 237, 238, 240, 250, 254, 255 };

/* Destinations of 200 to 255 bytes are written, and the commit leaves the destination alone
 * in the folder (a temporary 18 bytes longer than a name of 238 or more could not exist). */
static void
test_long_names (void)
{
  g_autofree char *dir = fresh_dir ("long");
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autofree char *name = long_name (lengths[i], ".jpg");
      g_assert_cmpuint (strlen (name), ==, lengths[i]);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GError *error = NULL;
      gboolean ok = write_text (path, "complete", &error);
      g_assert_no_error (error);
      g_clear_error (&error);
      g_assert_true (ok);
      LM_TEST_RETURN_IF_FAILED ();
      g_autofree char *text = read_text (path);
      g_assert_cmpstr (text, ==, "complete");
      g_assert_cmpint (g_unlink (path), ==, 0);
      g_assert_cmpuint (count_entries (dir), ==, 0);
    }
}

/* Each temporary name holds the infix, fits, and is valid UTF-8 (no character cut in two). */
static void
test_temp_names_fit (void)
{
  g_autofree char *dir = fresh_dir ("names");
  long max = lm_atomic_file_name_max (dir);
  g_assert_cmpint (max, >=, 255);
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      g_autofree char *name = long_name (lengths[i], ".jpg");
      g_autofree char *tmp = lm_atomic_file_temp_name (dir, name);
      g_autofree char *tmp_base = g_path_get_basename (tmp);
      g_assert_cmpuint (strlen (tmp_base), <=, (gsize) max);
      g_assert_nonnull (strstr (tmp_base, LM_ATOMIC_TMP_INFIX));
      g_assert_true (g_str_has_suffix (tmp_base, "XXXXXX"));
      g_assert_true (g_utf8_validate (tmp_base, -1, NULL));
    }
}

/* Short names keep their whole name in the temporary's, as before. */
static void
test_short_name_kept (void)
{
  g_autofree char *tmp = lm_atomic_file_temp_name ("/somewhere", "photo.jpg");
  g_assert_cmpstr (tmp, ==, "/somewhere/.photo.jpg" LM_ATOMIC_TMP_INFIX "XXXXXX");
}

/* -o LINK: the file the link points to gets the bytes, and the link stays a link. */
static void
test_symlink_written_through (void)
{
  g_autofree char *dir = fresh_dir ("link");
  g_autofree char *target = g_build_filename (dir, "target.txt", NULL);
  g_autofree char *link = g_build_filename (dir, "link.txt", NULL);
  g_assert_true (g_file_set_contents (target, "old", -1, NULL));
  g_assert_cmpint (symlink ("target.txt", link), ==, 0);
  GError *error = NULL;
  g_assert_true (write_text (link, "new", &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  g_autofree char *through = g_file_read_link (link, NULL);
  g_assert_cmpstr (through, ==, "target.txt");
  g_autofree char *text = read_text (target);
  g_assert_cmpstr (text, ==, "new");
  g_assert_cmpuint (count_entries (dir), ==, 2);
}

/* A chain of links, relative and absolute, into another folder; and a dangling link whose
 * target is created, as a shell's redirection does. */
static void
test_symlink_chain_and_dangling (void)
{
  g_autofree char *dir = fresh_dir ("chain");
  g_autofree char *sub = g_build_filename (dir, "sub", NULL);
  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  g_autofree char *target = g_build_filename (sub, "final.txt", NULL);
  g_autofree char *middle = g_build_filename (dir, "middle.txt", NULL);
  g_autofree char *first = g_build_filename (dir, "first.txt", NULL);
  g_assert_cmpint (symlink (target, middle), ==, 0); /* absolute; target missing */
  g_assert_cmpint (symlink ("middle.txt", first), ==, 0);
  GError *error = NULL;
  g_assert_true (write_text (first, "through two links", &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (first, G_FILE_TEST_IS_SYMLINK));
  g_assert_true (g_file_test (middle, G_FILE_TEST_IS_SYMLINK));
  g_autofree char *text = read_text (target);
  g_assert_cmpstr (text, ==, "through two links");
  g_assert_cmpuint (count_entries (sub), ==, 1);
  g_assert_cmpuint (count_entries (dir), ==, 3);
}

/* A loop of links is refused with a message naming the path given; nothing is written. */
static void
test_symlink_loop (void)
{
  g_autofree char *dir = fresh_dir ("loop");
  g_autofree char *a = g_build_filename (dir, "a.txt", NULL);
  g_autofree char *b = g_build_filename (dir, "b.txt", NULL);
  g_assert_cmpint (symlink ("b.txt", a), ==, 0);
  g_assert_cmpint (symlink ("a.txt", b), ==, 0);
  GError *error = NULL;
  g_assert_false (write_text (a, "never", &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_IO);
  if (error)
    g_assert_nonnull (strstr (error->message, "a.txt"));
  g_clear_error (&error);
  g_assert_cmpuint (count_entries (dir), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/atomic-file/long-names", test_long_names);
  g_test_add_func ("/atomic-file/temp-names-fit", test_temp_names_fit);
  g_test_add_func ("/atomic-file/short-name-kept", test_short_name_kept);
  g_test_add_func ("/atomic-file/symlink/written-through", test_symlink_written_through);
  g_test_add_func ("/atomic-file/symlink/chain-and-dangling", test_symlink_chain_and_dangling);
  g_test_add_func ("/atomic-file/symlink/loop", test_symlink_loop);
  return g_test_run ();
}
