/* The sidecar's version key (core/edit/pipeline.c) and where a photo's sidecar lives
 * (core/edit/sidecar.c): beside the photo, in the user's data folder where the photo's folder
 * is read-only, read back from either, removed for default edits. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <grp.h>
#include <glib/gstdio.h>

#include "core/edit/sidecar.h"
#include "core/error.h"
#include "test-util.h"

#define NOBODY 65534 /* the uid and gid a root test drops to, for permission bits to hold */

/* Blur on at σ 2.5, grayscale on in BT.601: edits that are not the default. */
static void
edited_pipeline (LmPipeline *p)
{
  lm_pipeline_init (p);
  LmStage *blur = lm_pipeline_stage (p, LM_OP_BLUR);
  blur->enabled = TRUE;
  g_assert_true (lm_op_param_parse (blur->info, &blur->info->params[0], blur->params.bytes, "2.5", NULL));
  LmStage *gray = lm_pipeline_stage (p, LM_OP_GRAY);
  gray->enabled = TRUE;
  g_assert_true (lm_op_param_parse (gray->info, &gray->info->params[0], gray->params.bytes, "bt601", NULL));
}

static gboolean
read_text (const char *text, LmPipeline *p, GError **error)
{
  g_autoptr (GKeyFile) keyfile = g_key_file_new ();
  g_assert_true (g_key_file_load_from_data (keyfile, text, -1, G_KEY_FILE_NONE, NULL));
  lm_pipeline_init (p);
  return lm_pipeline_from_keyfile (p, keyfile, error);
}

/* ---- the version key --------------------------------------------------------------------- */

/* [lumen] version=1 is the file's first group, and the text reads back to the same edits. */
static void
test_version_written_first (void)
{
  LmPipeline p, back;
  edited_pipeline (&p);
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&p);
  g_autofree char *text = g_key_file_to_data (keyfile, NULL, NULL);
  g_test_message ("sidecar:\n%s", text);
  g_assert_true (g_str_has_prefix (text, "[lumen]\nversion=1\n"));
  GError *e = NULL;
  g_assert_true (read_text (text, &back, &e));
  g_assert_no_error (e);
  g_assert_true (lm_pipeline_equal (&p, &back));
}

/* A sidecar without [lumen] (older ones, presets typed by hand) and one of version 1 read. */
static void
test_version_accepted (void)
{
  const char *texts[] = { "[blur]\nenabled=true\nsigma=2.5\n", "[lumen]\nversion=1\n[blur]\nenabled=true\nsigma=2.5\n",
                          "[blur]\nenabled=true\nsigma=2.5\n[lumen]\nversion=1\n" };
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      LmPipeline p;
      GError *e = NULL;
      g_assert_true (read_text (texts[i], &p, &e));
      g_assert_no_error (e);
      g_assert_true (lm_pipeline_stage (&p, LM_OP_BLUR)->enabled);
      g_assert_cmpfloat (lm_pipeline_stage (&p, LM_OP_BLUR)->params.blur.sigma, ==, 2.5f);
    }
}

/* A newer version is refused with words that say so, before an operation this Lumen does not
 * know is met; a version that is no version and keys [lumen] does not have are refused too. */
static void
test_version_refused (void)
{
  static const struct {
    const char *text;
    const char *must_mention;
  } cases[] = {
    { "[lumen]\nversion=3\n", "written by a newer Lumen (version 3); this one reads version 2" },
    { "[future-op]\nx=1\n[lumen]\nversion=7\n", "newer Lumen (version 7)" },
    { "[lumen]\nversion=123456789012345678901234567890\n", "newer Lumen" },
    { "[lumen]\nversion=0\n", "version" },
    { "[lumen]\nversion=1.5\n", "1.5" },
    { "[lumen]\nversion=one\n", "one" },
    { "[lumen]\nversion=\n", "version" },
    { "[lumen]\nversion=1\nauthor=me\n", "author" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      LmPipeline p;
      GError *e = NULL;
      g_assert_false (read_text (cases[i].text, &p, &e));
      g_assert_nonnull (e);
      LM_TEST_RETURN_IF_FAILED ();
      g_test_message ("%s → %s", cases[i].text, e->message);
      g_assert_true (e->domain == LUMEN_ERROR);
      g_assert_nonnull (strstr (e->message, cases[i].must_mention));
      g_clear_error (&e);
    }
}

/* A file of a newer version: the message names the file. */
static void
test_version_names_file (void)
{
  g_autofree char *path = lm_test_write_tmp ("newer.lumen", "[lumen]\nversion=3\n", 18);
  LmPipeline p;
  lm_pipeline_init (&p);
  GError *e = NULL;
  g_assert_false (lm_pipeline_load_sidecar (&p, path, &e));
  g_assert_nonnull (e);
  LM_TEST_RETURN_IF_FAILED ();
  g_test_message ("%s", e->message);
  g_autofree char *display = g_filename_display_name (path);
  g_assert_true (g_str_has_prefix (e->message, display));
  g_assert_nonnull (strstr (e->message, "newer Lumen (version 3)"));
  g_error_free (e);
}

/* ---- where the sidecar lives ------------------------------------------------------------- */

/* A folder with a stand-in photo (the sidecar functions never read it). */
static char *
photo_in (const char *dir)
{
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  char *photo = g_build_filename (dir, "photo.jpg", NULL);
  g_assert_true (g_file_set_contents (photo, "not read", -1, NULL));
  return photo;
}

static void
assert_loads (const char *photo, const LmPipeline *expected, const char *from)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  g_autofree char *found = NULL;
  GError *e = NULL;
  g_assert_true (lm_sidecar_load (photo, &p, &found, &e));
  g_assert_no_error (e);
  g_assert_cmpstr (found, ==, from);
  g_assert_true (lm_pipeline_equal (&p, expected));
}

/* A writable folder: `<photo>.lumen` beside it, read back; default edits remove it. */
static void
test_beside (void)
{
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "writable", NULL);
  g_autofree char *photo = photo_in (dir);
  g_autofree char *beside = g_build_filename (dir, "photo.jpg.lumen", NULL);
  g_autofree char *data = lm_sidecar_data_path (photo);
  LmPipeline p, fresh;
  edited_pipeline (&p);
  lm_pipeline_init (&fresh);

  assert_loads (photo, &fresh, NULL); /* none yet: default edits, no file */

  g_autofree char *written = NULL;
  GError *e = NULL;
  g_assert_true (lm_sidecar_save (photo, &p, &written, &e));
  g_assert_no_error (e);
  g_assert_cmpstr (written, ==, beside);
  g_assert_true (g_file_test (beside, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (data, G_FILE_TEST_EXISTS));
  assert_loads (photo, &p, beside);

  g_assert_true (lm_sidecar_save (photo, &fresh, NULL, &e));
  g_assert_no_error (e);
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  assert_loads (photo, &fresh, NULL);
}

/* The data folder's name: under XDG_DATA_HOME, one per absolute path, a relative path naming
 * the same photo as its absolute one. */
static void
test_data_path (void)
{
  g_autofree char *a = lm_sidecar_data_path ("/photos/a.jpg");
  g_autofree char *b = lm_sidecar_data_path ("/photos/b.jpg");
  g_autofree char *prefix = g_build_filename (g_get_user_data_dir (), "lumen", "sidecars", NULL);
  g_test_message ("%s", a);
  g_assert_true (g_str_has_prefix (a, prefix));
  g_assert_true (g_str_has_suffix (a, ".lumen"));
  g_assert_cmpstr (a, !=, b);
  g_autofree char *cwd = g_get_current_dir ();
  g_autofree char *absolute = g_build_filename (cwd, "x.jpg", NULL);
  g_autofree char *from_relative = lm_sidecar_data_path ("x.jpg");
  g_autofree char *from_absolute = lm_sidecar_data_path (absolute);
  g_assert_cmpstr (from_relative, ==, from_absolute);
}

/* A sidecar that cannot be read: the message names it; the found path is given. */
static void
test_bad_sidecar (void)
{
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "bad", NULL);
  g_autofree char *photo = photo_in (dir);
  g_autofree char *beside = lm_sidecar_beside_path (photo);
  g_assert_true (g_file_set_contents (beside, "[blur]\nsigma=fuzzy\n", -1, NULL));
  LmPipeline p, fresh;
  lm_pipeline_init (&p);
  lm_pipeline_init (&fresh);
  g_autofree char *found = NULL;
  GError *e = NULL;
  g_assert_false (lm_sidecar_load (photo, &p, &found, &e));
  g_assert_nonnull (e);
  LM_TEST_RETURN_IF_FAILED ();
  g_test_message ("%s", e->message);
  g_assert_cmpstr (found, ==, beside);
  g_assert_nonnull (strstr (e->message, "photo.jpg.lumen"));
  g_assert_nonnull (strstr (e->message, "fuzzy"));
  g_assert_true (lm_pipeline_equal (&p, &fresh));
  g_error_free (e);
}

/* Where both exist, the newer is read: the data folder's holds what was edited while the
 * photo's folder was read-only. */
static void
test_newer_wins (void)
{
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "both", NULL);
  g_autofree char *photo = photo_in (dir);
  g_autofree char *beside = lm_sidecar_beside_path (photo);
  g_autofree char *data = lm_sidecar_data_path (photo);
  LmPipeline old, newer;
  edited_pipeline (&old);
  edited_pipeline (&newer);
  lm_pipeline_stage (&newer, LM_OP_BLUR)->params.blur.sigma = 7.0f;
  GError *e = NULL;
  g_autofree char *data_dir = g_path_get_dirname (data);
  g_assert_cmpint (g_mkdir_with_parents (data_dir, 0700), ==, 0);
  g_assert_true (lm_sidecar_write (beside, &old, &e));
  g_assert_true (lm_sidecar_write (data, &newer, &e));
  g_assert_no_error (e);
  /* The one beside a minute older, whatever the clock's resolution. */
  GStatBuf st;
  g_assert_cmpint (g_stat (beside, &st), ==, 0);
  struct timespec times[2] = { { st.st_mtime - 60, 0 }, { st.st_mtime - 60, 0 } };
  g_assert_cmpint (utimensat (AT_FDCWD, beside, times, 0), ==, 0);
  assert_loads (photo, &newer, data);
  /* And the other way round. */
  times[0].tv_sec = times[1].tv_sec = st.st_mtime + 60;
  g_assert_cmpint (utimensat (AT_FDCWD, beside, times, 0), ==, 0);
  assert_loads (photo, &old, beside);
  g_unlink (data);
}

/* Runs in a subprocess that is not root (root writes into a 0555 folder anyway): a photo in a
 * read-only folder keeps its edits in the data folder; they read back; default edits remove
 * them; a sidecar beside it that cannot be removed any more is shadowed by default ones. */
static void
read_only_child (void)
{
  if (geteuid () == 0 && (setgroups (0, NULL) != 0 || setgid (NOBODY) != 0 || setuid (NOBODY) != 0))
    g_error ("cannot drop root: %s", g_strerror (errno));
  /* Made by the parent and given to this user: TMPDIR may be a folder only root writes in
   * (make check's build/test-tmp). */
  const char *home = g_getenv ("LUMEN_TEST_SIDECAR_HOME");
  g_assert_nonnull (home);
  g_autofree char *data_home = g_build_filename (home, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* before GLib reads it, once */
  g_autofree char *dir = g_build_filename (home, "card", NULL);
  g_autofree char *photo = photo_in (dir);
  g_autofree char *beside = lm_sidecar_beside_path (photo);
  g_autofree char *data = lm_sidecar_data_path (photo);
  g_assert_true (g_str_has_prefix (data, data_home));
  LmPipeline p, fresh;
  edited_pipeline (&p);
  lm_pipeline_init (&fresh);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);

  g_autofree char *written = NULL;
  GError *e = NULL;
  g_assert_true (lm_sidecar_save (photo, &p, &written, &e));
  g_assert_no_error (e);
  g_assert_cmpstr (written, ==, data);
  g_assert_false (g_file_test (beside, G_FILE_TEST_EXISTS));
  g_assert_true (g_file_test (data, G_FILE_TEST_IS_REGULAR));
  assert_loads (photo, &p, data);
  g_assert_true (lm_sidecar_save (photo, &fresh, NULL, &e));
  g_assert_no_error (e);
  g_assert_false (g_file_test (data, G_FILE_TEST_EXISTS));

  /* A sidecar beside it from when the folder was writable: Revert cannot remove it. */
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  g_assert_true (lm_sidecar_write (beside, &p, &e));
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  struct timespec past[2] = { { time (NULL) - 60, 0 }, { time (NULL) - 60, 0 } };
  g_assert_cmpint (utimensat (AT_FDCWD, beside, past, 0), ==, 0);
  g_assert_true (lm_sidecar_save (photo, &fresh, NULL, &e));
  g_assert_no_error (e);
  assert_loads (photo, &fresh, data);

  g_chmod (dir, 0755);
}

/* Whether this process can become a user that permission bits hold (any non-root user is). */
static gboolean
can_drop_root (void)
{
  if (geteuid () != 0)
    return TRUE;
  pid_t pid = fork ();
  if (pid == 0)
    _exit (setgroups (0, NULL) == 0 && setgid (NOBODY) == 0 && setuid (NOBODY) == 0 ? 0 : 1);
  int status = 0;
  return pid > 0 && waitpid (pid, &status, 0) == pid && WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static void
test_read_only_folder (void)
{
  if (g_test_subprocess ())
    {
      read_only_child ();
      return;
    }
  if (!can_drop_root ())
    {
      g_test_skip ("running as root without the right to become another user: permission bits do not hold");
      return;
    }
  g_autofree char *home = g_dir_make_tmp ("lumen-sidecar-XXXXXX", NULL);
  g_assert_nonnull (home);
  if (geteuid () == 0)
    g_assert_cmpint (chown (home, NOBODY, NOBODY), ==, 0);
  g_setenv ("LUMEN_TEST_SIDECAR_HOME", home, TRUE); /* the subprocess inherits it */
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  lm_test_remove_tree (home);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!g_test_subprocess ())
    {
      /* The data folder in the test's own, never the user's; set before GLib reads it. */
      g_autofree char *data_home = g_build_filename (lm_test_tmp_dir (), "data-home", NULL);
      g_setenv ("XDG_DATA_HOME", data_home, TRUE);
    }
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/sidecar/version/written-first", test_version_written_first);
  g_test_add_func ("/sidecar/version/accepted", test_version_accepted);
  g_test_add_func ("/sidecar/version/refused", test_version_refused);
  g_test_add_func ("/sidecar/version/names-file", test_version_names_file);
  g_test_add_func ("/sidecar/where/beside", test_beside);
  g_test_add_func ("/sidecar/where/data-path", test_data_path);
  g_test_add_func ("/sidecar/where/bad-sidecar", test_bad_sidecar);
  g_test_add_func ("/sidecar/where/newer-wins", test_newer_wins);
  g_test_add_func ("/sidecar/where/read-only-folder", test_read_only_folder);
  return g_test_run ();
}
