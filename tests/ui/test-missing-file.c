/* A photo that is no longer there is said to be missing, by name, not to be "not an image
 * Lumen can read": opened from the recent list (moved or deleted since), and named on the
 * command line of a new window (g_application_run with the program's arguments, as main.c
 * runs it). */
#include <string.h>
#include <glib/gi18n.h>

#include "ui/application.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir;

/* The info bar's message once one is shown (NULL after 20 s). */
static const char *
await_message (LmWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (lm_window_get_info_message (window) == NULL && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  return lm_window_get_info_message (window);
}

static void
assert_says_missing (const char *message, const char *name)
{
  g_test_message ("info bar: %s", message);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, name));
  g_assert_nonnull (strstr (message, "no such file"));
  g_assert_null (strstr (message, "can read"));
  g_assert_null (strchr (message, '\n')); /* one line */
}

static void
test_from_recent (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "moved-away.jpg", NULL);
  ui_open_recent (path);
  assert_says_missing (await_message (ui_window), "moved-away.jpg");
  /* The photo open before is still there and shown. */
  guint w, h;
  lm_image_view_get_image_size (ui_image_view (), &w, &h);
  g_assert_cmpuint (w, ==, 451);
  g_assert_cmpuint (h, ==, 300);
}

typedef struct {
  GApplication *app;
  char *message;
  gboolean done;
} CommandLine;

static gboolean
read_new_window (gpointer data)
{
  CommandLine *c = data;
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (c->app));
  if (windows == NULL)
    return G_SOURCE_CONTINUE;
  c->message = g_strdup (await_message (LM_WINDOW (windows->data)));
  c->done = TRUE;
  gtk_window_close (windows->data);
  return G_SOURCE_REMOVE;
}

static void
test_from_command_line (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "never-there.png", NULL);
  CommandLine c = { .app = G_APPLICATION (lm_application_new ()) };
  char *argv[] = { (char *) "lumen", path, NULL };
  guint watch = g_timeout_add (100, read_new_window, &c);
  int status = g_application_run (c.app, 2, argv);
  if (!c.done)
    g_source_remove (watch);
  g_assert_true (c.done);
  g_assert_cmpint (status, ==, 0);
  assert_says_missing (c.message, "never-there.png");
  g_free (c.message);
  g_object_unref (c.app);
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-missing-file-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  ui_test_init (&argc, &argv, "photos/chelsea.png");
  g_test_add_func ("/missing-file/from-recent", test_from_recent);
  g_test_add_func ("/missing-file/from-command-line", test_from_command_line);
  int status = g_test_run ();
  lm_test_remove_tree (tmp_dir);
  return status;
}
