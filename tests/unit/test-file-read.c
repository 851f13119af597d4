/* core/io/file-read.c, the one reader of whole files: a file at its bound and one byte over it,
 * an empty file, a file that grows while read, and the names that are no regular file (a
 * folder, a fifo without a writer, a device, a missing file), each refused with a message that
 * begins with the path. Both functions, lm_file_read and lm_file_map, and the check they
 * share, lm_file_open_checked, for callers that read or write a file themselves. */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "core/error.h"
#include "core/io/file-read.h"
#include "test-util.h"

typedef GBytes *(*Reader) (const char *path, LmFileKind kind, guint64 max_bytes, GError **error);

static const struct {
  const char *name;
  Reader read;
} readers[] = { { "read", lm_file_read }, { "map", lm_file_map } };

/* A file of LEN bytes (a pattern without NUL) in the test's folder. */
static char *
file_of (const char *name, gsize len)
{
  char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  g_autofree char *data = g_malloc (len + 1);
  for (gsize i = 0; i < len; i++)
    data[i] = (char) ('a' + i % 26);
  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
  return path;
}

/* PATH's bytes as READ gives them, checked against the LEN bytes of file_of's pattern, and for
 * lm_file_read the NUL after them. */
static void
check_bytes (GBytes *bytes, gsize len, gboolean nul)
{
  g_assert_nonnull (bytes);
  if (bytes == NULL)
    return;
  gsize got = 0;
  const char *data = g_bytes_get_data (bytes, &got);
  g_assert_cmpuint (got, ==, len);
  for (gsize i = 0; i < MIN (got, len); i++)
    if (data[i] != (char) ('a' + i % 26))
      {
        g_assert_cmpint (data[i], ==, 'a' + i % 26);
        return;
      }
  if (nul)
    {
      g_assert_nonnull (data);
      if (data)
        g_assert_cmpint (data[len], ==, '\0');
    }
}

/* ERROR is CODE, one line, beginning with "PATH: " and saying WORDS. */
static void
check_error (const GError *error, LmErrorCode code, const char *path, const char *words)
{
  g_assert_error (error, LUMEN_ERROR, (int) code);
  if (error == NULL)
    return;
  g_autofree char *prefix = g_strconcat (path, ": ", NULL);
  g_assert_true (g_str_has_prefix (error->message, prefix));
  g_assert_nonnull (strstr (error->message, words));
  g_assert_null (strchr (error->message, '\n'));
}

/* Exactly at the bound: read whole; one byte over: refused as too large, unread; no bound:
 * read whole. */
static void
test_bound (void)
{
  const gsize sizes[] = { 1, 4095, 4096, 65537 };
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
      {
        g_autofree char *name = g_strdup_printf ("bound-%zu", sizes[s]);
        g_autofree char *path = file_of (name, sizes[s]);
        GError *error = NULL;
        g_autoptr (GBytes) at = readers[r].read (path, LM_FILE_KIND_TEXT, sizes[s], &error);
        g_assert_no_error (error);
        check_bytes (at, sizes[s], r == 0);
        g_autoptr (GBytes) over = readers[r].read (path, LM_FILE_KIND_IMAGE, sizes[s] - 1, &error);
        g_assert_null (over);
        check_error (error, LM_ERROR_TOO_LARGE, path, "larger than");
        g_clear_error (&error);
        /* No bound at all (the read's buffer once grew to "the bound + 1", which is 0 here). */
        g_autoptr (GBytes) unbounded = readers[r].read (path, LM_FILE_KIND_RECORDS, G_MAXUINT64, &error);
        g_assert_no_error (error);
        check_bytes (unbounded, sizes[s], r == 0);
        LM_TEST_RETURN_IF_FAILED ();
      }
}

/* An empty file: empty bytes, and from lm_file_read a NUL to read as "". */
static void
test_empty (void)
{
  g_autofree char *path = file_of ("empty", 0);
  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    {
      GError *error = NULL;
      g_autoptr (GBytes) bytes = readers[r].read (path, LM_FILE_KIND_TEXT, 0, &error);
      g_assert_no_error (error);
      check_bytes (bytes, 0, r == 0);
    }
}

/* A regular file whose size says nothing of its length: a file of /proc is 0 bytes to stat and
 * its bytes come as it is read, as a file growing while read. Read to its end within the bound,
 * refused beyond it; /proc/self/cmdline does not change while the process lives. */
static void
test_grows_while_read (void)
{
  const char *path = "/proc/self/cmdline";
  GStatBuf st;
  if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size != 0)
    {
      g_test_skip ("no /proc/self/cmdline of size 0 here");
      return;
    }
  g_autofree char *want = NULL;
  gsize len = 0;
  g_assert_true (g_file_get_contents (path, &want, &len, NULL));
  g_assert_cmpuint (len, >, 1);

  GError *error = NULL;
  g_autoptr (GBytes) all = lm_file_read (path, LM_FILE_KIND_RECORDS, 1 << 20, &error);
  g_assert_no_error (error);
  g_autoptr (GBytes) exact = lm_file_read (path, LM_FILE_KIND_RECORDS, len, &error);
  g_assert_no_error (error);
  for (GBytes *b = all;; b = exact)
    {
      gsize got = 0;
      const char *data = b ? g_bytes_get_data (b, &got) : NULL;
      g_assert_cmpmem (data, got, want, len);
      if (data)
        g_assert_cmpint (data[got], ==, '\0');
      if (b == exact)
        break;
    }
  g_autoptr (GBytes) over = lm_file_read (path, LM_FILE_KIND_RECORDS, len - 1, &error);
  g_assert_null (over);
  check_error (error, LM_ERROR_TOO_LARGE, path, "larger than");
  g_clear_error (&error);
  g_autoptr (GBytes) none = lm_file_read (path, LM_FILE_KIND_RECORDS, 0, &error);
  g_assert_null (none);
  check_error (error, LM_ERROR_TOO_LARGE, path, "larger than");
  g_clear_error (&error);
}

/* Names that are no regular file, refused before a byte is read (a fifo without a writer
 * would block an open without O_NONBLOCK, and a read for ever). */
static void
test_not_regular (void)
{
  g_autofree char *folder = g_build_filename (lm_test_tmp_dir (), "folder", NULL);
  g_autofree char *fifo = g_build_filename (lm_test_tmp_dir (), "fifo", NULL);
  g_autofree char *missing = g_build_filename (lm_test_tmp_dir (), "missing", NULL);
  g_autofree char *to_zero = g_build_filename (lm_test_tmp_dir (), "to-zero.png", NULL);
  g_assert_cmpint (g_mkdir (folder, 0755), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", to_zero), ==, 0); /* read only: harmless */
  const struct {
    const char *path, *words;
    LmFileKind kind;
  } cases[] = {
    { folder, "is a folder, not an image file", LM_FILE_KIND_IMAGE },
    { folder, "is a folder, not a text file", LM_FILE_KIND_TEXT },
    { fifo, "is not a regular file", LM_FILE_KIND_RECORDS },
    { "/dev/zero", "is not a regular file", LM_FILE_KIND_TEXT },
    { to_zero, "is not a regular file", LM_FILE_KIND_IMAGE },
    { "/dev/null", "is not a regular file", LM_FILE_KIND_PROFILE },
    { missing, "no such file", LM_FILE_KIND_TEXT },
  };
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
      {
        gint64 start = g_get_monotonic_time ();
        GError *error = NULL;
        g_autoptr (GBytes) bytes = readers[r].read (cases[c].path, cases[c].kind, 1 << 20, &error);
        g_assert_null (bytes);
        check_error (error, LM_ERROR_IO, cases[c].path, cases[c].words);
        g_clear_error (&error);
        g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC);
      }
}

/* The bound is the caller's: a file of 1 TB (a hole, no disk) is refused by its size, at once. */
static void
test_huge_sparse (void)
{
  g_autofree char *path = g_build_filename (lm_test_tmp_dir (), "huge", NULL);
  int fd = g_open (path, O_WRONLY | O_CREAT, 0600);
  g_assert_cmpint (fd, >=, 0);
  if (ftruncate (fd, (off_t) 1 << 40) != 0)
    {
      close (fd);
      g_test_skip ("no sparse file of 1 TB on this file system");
      return;
    }
  close (fd);
  for (guint r = 0; r < G_N_ELEMENTS (readers); r++)
    {
      GError *error = NULL;
      g_autoptr (GBytes) bytes = readers[r].read (path, LM_FILE_KIND_IMAGE, (guint64) 1 << 39, &error);
      g_assert_null (bytes);
      check_error (error, LM_ERROR_TOO_LARGE, path, "is larger than 512");
      g_clear_error (&error);
    }
  g_unlink (path);
}

/* A writer waiting in open () on a fifo goes on once someone opens the fifo for reading. */
typedef struct {
  const char *path;
  gint opened;
} FifoWriter;

static gpointer
fifo_writer (gpointer data)
{
  FifoWriter *w = data;
  int fd = g_open (w->path, O_WRONLY, 0);
  g_atomic_int_set (&w->opened, 1);
  if (fd >= 0)
    close (fd);
  return NULL;
}

/* The check callers of their own make: a name is stat'ed before it is opened, so that a fifo
 * (or a device, whose open can do something) is refused and never opened, for reading or for
 * writing; a missing file is created only where asked; the bound holds for a file opened for
 * writing too. */
static void
test_open_checked (void)
{
  g_autofree char *fifo = g_build_filename (lm_test_tmp_dir (), "open-fifo", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  FifoWriter writer = { fifo, 0 };
  GThread *thread = g_thread_new ("fifo-writer", fifo_writer, &writer);
  const int modes[] = { O_RDONLY, O_RDWR | O_CREAT, O_RDWR | O_APPEND, O_RDWR | O_TRUNC };
  for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      GError *error = NULL;
      g_assert_cmpint (lm_file_open_checked (fifo, LM_FILE_KIND_LOCK, modes[m], G_MAXUINT64, NULL, &error), ==, -1);
      check_error (error, LM_ERROR_IO, fifo, "where a batch's lock file belongs");
      g_clear_error (&error);
    }
  g_usleep (G_USEC_PER_SEC / 20); /* a writer let go has said so by now */
  g_assert_cmpint (g_atomic_int_get (&writer.opened), ==, 0);
  int reader = g_open (fifo, O_RDONLY | O_NONBLOCK, 0); /* lets the writer go */
  g_thread_join (thread);
  if (reader >= 0)
    close (reader);

  g_autofree char *missing = g_build_filename (lm_test_tmp_dir (), "open-missing", NULL);
  GError *error = NULL;
  g_assert_cmpint (lm_file_open_checked (missing, LM_FILE_KIND_RECORDS, O_RDWR, 1, NULL, &error), ==, -1);
  check_error (error, LM_ERROR_IO, missing, "no such file");
  g_clear_error (&error);
  guint64 size = 1;
  int fd = lm_file_open_checked (missing, LM_FILE_KIND_RECORDS, O_RDWR | O_CREAT | O_APPEND, 0, &size, &error);
  g_assert_no_error (error);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpuint (size, ==, 0);
  g_assert_cmpint (write (fd, "ab", 2), ==, 2);
  close (fd);
  g_assert_cmpint (lm_file_open_checked (missing, LM_FILE_KIND_RECORDS, O_RDWR | O_APPEND, 1, NULL, &error), ==, -1);
  check_error (error, LM_ERROR_TOO_LARGE, missing, "larger than");
  g_clear_error (&error);
  fd = lm_file_open_checked (missing, LM_FILE_KIND_OUTPUT, O_RDONLY, G_MAXUINT64, &size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (size, ==, 2);
  if (fd >= 0)
    close (fd);
}

int
main (int argc, char **argv)
{
  /* Fresh memory from malloc holds 0xA5, not zeros that would pass for the NUL the reader
   * must write after the bytes. */
  mallopt (M_PERTURB, 0x5a);
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/file-read/bound", test_bound);
  g_test_add_func ("/file-read/empty", test_empty);
  g_test_add_func ("/file-read/grows-while-read", test_grows_while_read);
  g_test_add_func ("/file-read/not-regular", test_not_regular);
  g_test_add_func ("/file-read/huge-sparse", test_huge_sparse);
  g_test_add_func ("/file-read/open-checked", test_open_checked);
  return g_test_run ();
}
