/* The atomic writer: temporary names that fit in a file name however long the destination's
 * name is (up to the longest a file may have), a commit that leaves only the destination,
 * symbolic links written through rather than replaced, fifos and devices never replaced, and
 * groups of files committed together or not at all. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "core/io/atomic-file.h"
#include "core/io/atomic-group.h"
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

/* The file's kind (S_IFMT bits) as lstat sees it; 0 when missing. */
static mode_t
kind_of (const char *path)
{
  struct stat st;
  return lstat (path, &st) == 0 ? st.st_mode & S_IFMT : 0;
}

static ino_t
inode_of (const char *path)
{
  struct stat st;
  g_assert_cmpint (lstat (path, &st), ==, 0);
  return st.st_ino;
}

/* /dev/full's numbers (1, 7), on a node of the test's own: writing into it is harmless, and
 * a writer that replaces it replaces the test's node, never the system's (the tests of this
 * file never name a node in /dev, which a writer with the defect would replace). FALSE (the
 * test skipped) where nodes cannot be made (not root). */
static gboolean
make_char_device (const char *path)
{
  if (mknod (path, S_IFCHR | 0600, makedev (1, 7)) == 0)
    return TRUE;
  g_test_skip ("cannot make a character device here (not root?)");
  return FALSE;
}

/* A write to PATH refused when opened, naming PATH and the cause, and PATH still of KIND. */
static void
check_refused (const char *dir, const char *path, mode_t kind, const char *cause)
{
  guint before = count_entries (dir);
  GError *error = NULL;
  g_assert_false (write_text (path, "must not land", &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_IO);
  if (error)
    {
      g_autofree char *base = g_path_get_basename (path);
      g_assert_nonnull (strstr (error->message, base));
      g_assert_nonnull (strstr (error->message, cause));
      g_assert_null (strchr (error->message, '\n'));
    }
  g_clear_error (&error);
  g_assert_true (kind_of (path) == kind);
  g_assert_cmpuint (count_entries (dir), ==, before);
  g_assert_false (lm_atomic_file_check_replaceable (path, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_IO);
  g_clear_error (&error);
}

/* A fifo, a character device and links to them (as -o link.png pointing at /dev/full):
 * refused, never replaced (the rename made each of them a regular file). */
static void
test_nodes_refused (void)
{
  g_autofree char *dir = fresh_dir ("nodes");
  g_autofree char *fifo = g_build_filename (dir, "pipe.png", NULL);
  g_autofree char *to_fifo = g_build_filename (dir, "to-pipe.png", NULL);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink ("pipe.png", to_fifo), ==, 0);
  check_refused (dir, fifo, S_IFIFO, "named pipe");
  check_refused (dir, to_fifo, S_IFLNK, "named pipe");
  g_assert_true (kind_of (fifo) == S_IFIFO);

  g_autofree char *device = g_build_filename (dir, "full", NULL);
  g_autofree char *to_device = g_build_filename (dir, "to-full.png", NULL);
  if (!make_char_device (device))
    return;
  g_assert_cmpint (symlink (device, to_device), ==, 0);
  check_refused (dir, device, S_IFCHR, "character device");
  check_refused (dir, to_device, S_IFLNK, device);
  g_assert_true (kind_of (device) == S_IFCHR);
}

/* A name that becomes a fifo between the open and the commit: the commit refuses it too. */
static void
test_node_after_open_refused (void)
{
  g_autofree char *dir = fresh_dir ("late-node");
  g_autofree char *path = g_build_filename (dir, "out.png", NULL);
  GError *error = NULL;
  LmAtomicFile *file = lm_atomic_file_open (path, &error);
  g_assert_no_error (error);
  if (file == NULL)
    return;
  fputs ("must not land", lm_atomic_file_stream (file));
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  g_assert_false (lm_atomic_file_commit (file, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_IO);
  g_clear_error (&error);
  g_assert_true (kind_of (path) == S_IFIFO);
  g_assert_cmpuint (count_entries (dir), ==, 1);
}

/* Paths of a group's tests: A and B in one folder, C in another (the renames span folders). */
typedef struct {
  char *dir, *sub, *a, *b, *c;
} Trio;

static void
trio_init (Trio *t, const char *name)
{
  t->dir = fresh_dir (name);
  t->sub = g_build_filename (t->dir, "sub", NULL);
  g_assert_cmpint (g_mkdir (t->sub, 0755), ==, 0);
  t->a = g_build_filename (t->dir, "a.csv", NULL);
  t->b = g_build_filename (t->dir, "b.fits", NULL);
  t->c = g_build_filename (t->sub, "c.lumen", NULL);
}

static void
trio_clear (Trio *t)
{
  g_free (t->dir), g_free (t->sub), g_free (t->a), g_free (t->b), g_free (t->c);
}

/* The three written in one group, the commit's result; FAIL_B makes B's write fail as a full
 * disk would. */
static gboolean
write_trio (const Trio *t, const char *text, gboolean fail_b, GError **error)
{
  g_autoptr (LmAtomicGroup) group = lm_atomic_group_begin ();
  if (!write_text (t->a, text, error))
    return FALSE;
  LmAtomicFile *b = lm_atomic_file_open (t->b, error);
  if (b == NULL)
    return FALSE;
  fputs (text, lm_atomic_file_stream (b));
  if (fail_b)
    {
      GError *e = NULL;
      lm_set_write_error (&e, t->b, ENOSPC);
      lm_atomic_file_take_error (b, e);
    }
  if (!lm_atomic_file_commit (b, error) || !write_text (t->c, text, error))
    return FALSE;
  return lm_atomic_group_commit (g_steal_pointer (&group), error);
}

/* A group's files appear only at its commit, all of them. */
static void
test_group_commits_all (void)
{
  Trio t;
  trio_init (&t, "group-all");
  LmAtomicGroup *group = lm_atomic_group_begin ();
  GError *error = NULL;
  g_assert_true (write_text (t.a, "one", &error));
  g_assert_true (write_text (t.c, "two", &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (t.a, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (t.c, G_FILE_TEST_EXISTS));
  g_assert_true (lm_atomic_group_commit (group, &error));
  g_assert_no_error (error);
  g_autofree char *a = read_text (t.a);
  g_autofree char *c = read_text (t.c);
  g_assert_cmpstr (a, ==, "one");
  g_assert_cmpstr (c, ==, "two");
  /* the destinations alone: no temporary and no kept old file */
  g_assert_cmpuint (count_entries (t.dir), ==, 2);
  g_assert_cmpuint (count_entries (t.sub), ==, 1);
  /* closed: a commit after it renames at once */
  g_assert_null (lm_atomic_group_current ());
  g_assert_true (write_text (t.b, "three", &error));
  g_assert_true (g_file_test (t.b, G_FILE_TEST_EXISTS));
  trio_clear (&t);
}

/* The old files of the three, written outside any group. */
static void
write_old (const Trio *t)
{
  g_assert_true (g_file_set_contents (t->a, "old a", -1, NULL));
  g_assert_true (g_file_set_contents (t->b, "old b", -1, NULL));
  g_assert_true (g_file_set_contents (t->c, "old c", -1, NULL));
}

/* Each of the three as before: its old bytes, its old inode (put back, not copied), and no
 * temporary or kept copy beside it. */
static void
check_old (const Trio *t, const ino_t inodes[3], gboolean same_inodes)
{
  const char *paths[] = { t->a, t->b, t->c };
  const char *texts[] = { "old a", "old b", "old c" };
  for (int i = 0; i < 3; i++)
    {
      g_autofree char *text = read_text (paths[i]);
      g_assert_cmpstr (text, ==, texts[i]);
      if (same_inodes)
        g_assert_cmpuint (inode_of (paths[i]), ==, inodes[i]);
    }
  g_assert_cmpuint (count_entries (t->dir), ==, 3); /* a, b, sub */
  g_assert_cmpuint (count_entries (t->sub), ==, 1);
}

/* One file of the group fails to be written (a full disk): none is committed, new or old. */
static void
test_group_write_fails (void)
{
  Trio t;
  trio_init (&t, "group-write-fails");
  GError *error = NULL;
  g_assert_false (write_trio (&t, "new", TRUE, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_NO_SPACE);
  g_clear_error (&error);
  g_assert_false (g_file_test (t.a, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (t.c, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (t.dir), ==, 1);
  g_assert_cmpuint (count_entries (t.sub), ==, 0);
  g_assert_null (lm_atomic_group_current ());

  write_old (&t);
  ino_t inodes[3] = { inode_of (t.a), inode_of (t.b), inode_of (t.c) };
  g_assert_false (write_trio (&t, "new", TRUE, &error));
  g_clear_error (&error);
  check_old (&t, inodes, TRUE);
  trio_clear (&t);
}

/* A rename that fails after others were done (LUMEN_ATOMIC_FAIL_AT=rename:K): those are put
 * back, the old files under their old inodes, the new ones removed; with LINKS FALSE, the
 * old files were kept as copies (a file system without hard links) and come back as such. */
static void
check_rename_fails (const char *name, gboolean links)
{
  Trio t;
  trio_init (&t, name);
  write_old (&t);
  ino_t inodes[3] = { inode_of (t.a), inode_of (t.b), inode_of (t.c) };
  for (int k = 1; k <= 3; k++)
    {
      g_autofree char *fail = g_strdup_printf ("%srename:%d", links ? "" : "link,", k);
      g_setenv ("LUMEN_ATOMIC_FAIL_AT", fail, TRUE);
      GError *error = NULL;
      g_assert_false (write_trio (&t, "new", FALSE, &error));
      g_unsetenv ("LUMEN_ATOMIC_FAIL_AT");
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_IO);
      /* the message names the file whose rename failed: the K-th */
      const char *failed = k == 1 ? "a.csv" : k == 2 ? "b.fits" : "c.lumen";
      if (error)
        g_assert_nonnull (strstr (error->message, failed));
      g_clear_error (&error);
      check_old (&t, inodes, links);
      LM_TEST_RETURN_IF_FAILED ();
    }
  /* New destinations: none is left. */
  g_assert_cmpint (g_unlink (t.a), ==, 0);
  g_assert_cmpint (g_unlink (t.c), ==, 0);
  g_setenv ("LUMEN_ATOMIC_FAIL_AT", links ? "rename:3" : "link,rename:3", TRUE);
  GError *error = NULL;
  g_assert_false (write_trio (&t, "new", FALSE, &error));
  g_unsetenv ("LUMEN_ATOMIC_FAIL_AT");
  g_clear_error (&error);
  g_assert_false (g_file_test (t.a, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (t.c, G_FILE_TEST_EXISTS));
  g_autofree char *b = read_text (t.b);
  g_assert_cmpstr (b, ==, "old b");
  g_assert_cmpuint (count_entries (t.dir), ==, 2);
  g_assert_cmpuint (count_entries (t.sub), ==, 0);
  /* And without a failure, every destination new, nothing else left. */
  g_assert_true (write_trio (&t, "new", FALSE, &error));
  g_assert_no_error (error);
  g_autofree char *a = read_text (t.a);
  g_assert_cmpstr (a, ==, "new");
  g_assert_cmpuint (count_entries (t.dir), ==, 3);
  trio_clear (&t);
}

static void
test_group_rename_fails (void)
{
  check_rename_fails ("group-rename-fails", TRUE);
}

static void
test_group_rename_fails_without_links (void)
{
  check_rename_fails ("group-rename-fails-copies", FALSE);
}

/* A destination that became a fifo after its file was committed into the group: the group
 * refuses it before any rename, and the fifo stays one. */
static void
test_group_node_refused (void)
{
  Trio t;
  trio_init (&t, "group-node");
  LmAtomicGroup *group = lm_atomic_group_begin ();
  GError *error = NULL;
  g_assert_true (write_text (t.a, "one", &error));
  g_assert_true (write_text (t.b, "two", &error));
  g_assert_no_error (error);
  g_assert_cmpint (mkfifo (t.b, 0600), ==, 0);
  g_assert_false (lm_atomic_group_commit (group, &error));
  g_assert_error (error, LUMEN_ERROR, LM_ERROR_IO);
  if (error)
    g_assert_nonnull (strstr (error->message, "b.fits"));
  g_clear_error (&error);
  g_assert_true (kind_of (t.b) == S_IFIFO);
  g_assert_false (g_file_test (t.a, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_entries (t.dir), ==, 2); /* b and sub */
  trio_clear (&t);
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
  g_test_add_func ("/atomic-file/nodes/refused", test_nodes_refused);
  g_test_add_func ("/atomic-file/nodes/after-open", test_node_after_open_refused);
  g_test_add_func ("/atomic-file/group/commits-all", test_group_commits_all);
  g_test_add_func ("/atomic-file/group/write-fails", test_group_write_fails);
  g_test_add_func ("/atomic-file/group/rename-fails", test_group_rename_fails);
  g_test_add_func ("/atomic-file/group/rename-fails-without-links", test_group_rename_fails_without_links);
  g_test_add_func ("/atomic-file/group/node-refused", test_group_node_refused);
  return g_test_run ();
}
