/* Hostile files and text given to the window as a person gives them (real input through
 * XTest, the clipboard, the recent list, the file chooser), and what is on screen after:
 * - Paste Edits (Ctrl+Alt+V) of a sidecar the checks refuse (a key or a group given twice, a
 *   localized key) pastes nothing, not the edits copied before, and the info bar says why;
 * - a photo whose profile cannot be read, with a sidecar that cannot be read beside it: the
 *   info bar says both;
 * - a fifo opened from the recent list: refused by name at once, nothing waits on it;
 * - Merge HDR: a fifo added is refused in the dialog's error bar at once (the window does not
 *   freeze), and a JPEG of 6,000 scans is refused by Lumen's loader in moments, not decoded
 *   for 20 s.
 * The files are made in a folder of the test's own; the data folder is the test's too. */
#include <string.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <sys/stat.h>

#include "core/edit/sidecar.h"
#include "ui/hdr-dialog.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

/* What a hang (a read of a fifo on the main thread) would leave: the program ends, failed. */
#define WATCHDOG_S 60

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
copy_photo (const char *name, const char *as)
{
  g_autofree char *to = tmp_path (as);
  return ui_copy_test_data (name, to);
}

/* A file of KIND (tests/ui/hostile-files.py) at NAME in the test's folder. */
static char *
hostile_file (const char *kind, const char *name)
{
  g_autofree char *script = g_build_filename (g_getenv ("LUMEN_SOURCE_ROOT"), "tests", "ui", "hostile-files.py", NULL);
  char *path = tmp_path (name);
  const char *argv[] = { "/usr/bin/python3", script, kind, path, NULL };
  int status = 0;
  g_autofree char *err = NULL;
  GError *e = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &e));
  g_assert_no_error (e);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("hostile-files.py %s: %s", kind, err);
  return path;
}

/* The info bar's message once it holds every one of WORDS (NULL-terminated), or what it holds
 * after SECONDS. */
static const char *
await_message (int seconds, const char *const *words)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  for (;;)
    {
      const char *message = lm_window_get_info_message (ui_window);
      gboolean all = message != NULL;
      for (guint i = 0; all && words[i]; i++)
        all = strstr (message, words[i]) != NULL;
      if (all || g_get_monotonic_time () > deadline)
        {
          g_test_message ("info bar: %s", message ? message : "(none)");
          return message;
        }
      ui_wait_ms (20);
    }
}

static void
assert_has (const char *text, const char *part)
{
  g_assert_nonnull (text);
  if (strstr (text, part) == NULL)
    g_error ("“%s” does not say “%s”", text, part);
}

static gboolean
switch_on (LmOpId op)
{
  return gtk_switch_get_active (GTK_SWITCH (ui_control (op, "enabled")));
}

/* Clicks the switch of OP on; its render in. */
static void
click_on (LmOpId op)
{
  GtkWidget *sw = ui_control (op, "enabled");
  ui_scroll_into_view (sw);
  ui_click_middle (sw);
  for (int turn = 0; turn < 100 && !switch_on (op); turn++)
    ui_wait_ms (20); /* the switch slides over before it is on */
  g_assert_true (switch_on (op));
  ui_settle_tracked ();
}

/* TEXT put on the clipboard, as another program's copy arrives, then Ctrl+Alt+V. */
static void
paste (const char *text)
{
  gtk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (ui_window), GDK_SELECTION_CLIPBOARD), text, -1);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_v, GDK_CONTROL_MASK | GDK_MOD1_MASK);
}

/* Sidecars the checks refuse, pasted after other edits were copied: nothing changes (not the
 * copied edits either), and the info bar quotes the reason; a sound one then pastes. */
static void
test_paste_refused (void)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_c, GDK_CONTROL_MASK | GDK_MOD1_MASK); /* the edits as they are: none */
  click_on (LM_OP_GRAY);
  g_autoptr (GBytes) before = ui_view_pixels ();
  static const struct {
    const char *text, *says;
  } refused[] = {
    { "[lumen]\nversion=1\n[blur]\nenabled=true\nsigma=3\nenabled=false\n", "[blur] enabled is given twice" },
    { "[lumen]\nversion=1\n[blur]\nenabled=true\n[blur]\nsigma=2\n", "[blur] is given twice" },
    { "[lumen]\nversion=1\n[exposure]\nenabled=true\nev[de]=1\n", "ev[de]" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      paste (refused[i].text);
      const char *words[] = { "cannot be pasted", refused[i].says, NULL };
      const char *message = await_message (5, words);
      assert_has (message, "cannot be pasted");
      assert_has (message, refused[i].says);
      ui_wait_ms (200); /* a render, had the edits changed */
      ui_settle_tracked ();
      g_assert_true (switch_on (LM_OP_GRAY));
      g_assert_false (switch_on (LM_OP_BLUR));
      g_assert_false (switch_on (LM_OP_EXPOSURE));
      g_autoptr (GBytes) after = ui_view_pixels ();
      g_assert_true (g_bytes_equal (before, after));
    }

  /* The same keys with a sound sidecar: pasted, and the refusal's message gone. */
  paste ("[lumen]\nversion=1\n[blur]\nenabled=true\nsigma=3\n");
  for (int turn = 0; turn < 250 && !switch_on (LM_OP_BLUR); turn++)
    ui_wait_ms (20);
  g_assert_true (switch_on (LM_OP_BLUR));
  g_assert_false (switch_on (LM_OP_GRAY)); /* the sidecar's edits, not added to those shown */
  ui_settle_tracked ();
  const char *message = lm_window_get_info_message (ui_window);
  g_assert_true (message == NULL || strstr (message, "cannot be pasted") == NULL);
}

/* A JPEG whose profile cannot be read, its sidecar refused: the info bar says both. */
static void
test_notes_and_sidecar (void)
{
  g_autofree char *photo = hostile_file ("unreadable-profile", "profile.jpg");
  g_autofree char *sidecar = lm_sidecar_beside_path (photo);
  g_assert_true (g_file_set_contents (sidecar, "[lumen]\nversion=1\n[blur]\nenabled=true\nenabled=false\n", -1, NULL));
  ui_open_recent (photo);
  const char *words[] = { "Opened without its saved edits", "profile.jpg.lumen", "given twice", "profile.jpg:",
                          "ICC profile cannot be read", "sRGB", NULL };
  const char *message = await_message (20, words);
  for (guint i = 0; words[i]; i++)
    assert_has (message, words[i]);
  g_assert_false (switch_on (LM_OP_BLUR)); /* opened with no edits */
  ui_settle_tracked ();
}

/* A fifo from the recent list: refused by name at once, the photo open stays. */
static void
test_fifo_open (void)
{
  g_autofree char *fifo = tmp_path ("pipe.jpg");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  guint64 generation = lm_window_get_generation (ui_window);
  ui_open_recent (fifo);
  const char *words[] = { "pipe.jpg", "not a regular file", NULL };
  const char *message = await_message (10, words);
  assert_has (message, "pipe.jpg");
  assert_has (message, "not a regular file");
  /* The window still edits the photo it had. */
  gtk_range_set_value (GTK_RANGE (ui_control (LM_OP_BLUR, "sigma")), 2.0);
  ui_settle_tracked ();
  g_assert_cmpuint (lm_window_get_generation (ui_window), >, generation);
  g_unlink (fifo);
}

/* PATH opened again from the recent list, its first render in. */
static void
open_photo (const char *path)
{
  guint64 generation = lm_window_get_generation (ui_window);
  ui_open_recent (path);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (lm_window_get_generation (ui_window) == generation && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_cmpuint (lm_window_get_generation (ui_window), >, generation);
  ui_settle_tracked ();
}

/* ---- Merge HDR ---------------------------------------------------------------------------- */

static GtkWidget *hdr_dialog;

static void
press_add (gpointer unused)
{
  GtkWidget *add = ui_button_labelled (hdr_dialog, _("_Add…"));
  g_assert_nonnull (add);
  ui_focus_window (hdr_dialog);
  ui_click_middle (add);
}

/* The chooser answered with the path given: typed into its location field, then its Add
 * button (a Return's release would reach the chooser once it is gone). */
static void
choose_path (GtkWidget *chooser, gpointer path)
{
  ui_focus_window (chooser);
  ui_key_held (GDK_KEY_l, GDK_CONTROL_MASK, 200);
  ui_type (path);
  GtkWidget *add = ui_button_labelled (chooser, _("_Add"));
  g_assert_nonnull (add);
  /* A first click may only close the field's completion popup. */
  for (int click = 0; click < 3 && gtk_widget_get_mapped (chooser); click++)
    {
      ui_click_middle (add);
      ui_wait_ms (200);
    }
}

/* PATH added as a person adds it: Add…, its path typed in the chooser. */
static void
add_exposure (const char *path)
{
  ui_answer_chooser (press_add, NULL, choose_path, (gpointer) path);
  ui_wait_ms (100);
}

static GtkWidget *
open_hdr_dialog (void)
{

  ui_activate ("merge-hdr");
  ui_flush ();
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (LM_IS_HDR_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  g_assert_not_reached ();
}

/* A fifo added: the dialog's error bar names it at once, no row is added, the window goes on
 * (a read of it on the main thread would never return: the watchdog ends the program). */
static void
test_hdr_fifo (void)
{
  hdr_dialog = open_hdr_dialog ();
  g_autofree char *fifo = tmp_path ("bracket.jpg");
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  alarm (WATCHDOG_S);
  gint64 start = g_get_monotonic_time ();
  add_exposure (fifo);
  alarm (0);
  const char *error = lm_hdr_dialog_get_error (LM_HDR_DIALOG (hdr_dialog));
  g_test_message ("dialog, %.1f s after Add: %s", (g_get_monotonic_time () - start) / 1e6, error ? error : "(none)");
  assert_has (error, "bracket.jpg");
  assert_has (error, "not a regular file");
  g_assert_cmpstr (lm_hdr_dialog_get_hint (LM_HDR_DIALOG (hdr_dialog)), ==, _("Add two to sixteen exposures of one scene."));
  g_unlink (fifo);
}

/* A progressive JPEG of 6,000 scans: refused by the loader's scan bound within seconds (it
 * decodes for 20 s in full), and not left in the table. */
static void
test_hdr_scan_bomb (void)
{
  if (hdr_dialog == NULL)
    hdr_dialog = open_hdr_dialog ();
  g_autofree char *bomb = hostile_file ("scan-bomb", "scans.jpg");
  gint64 start = g_get_monotonic_time ();
  add_exposure (bomb);
  gint64 deadline = start + 10 * G_USEC_PER_SEC;
  const char *error = NULL;
  while (((error = lm_hdr_dialog_get_error (LM_HDR_DIALOG (hdr_dialog))) == NULL || strstr (error, "scans.jpg") == NULL)
         && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_test_message ("dialog, %.1f s after Add: %s", (g_get_monotonic_time () - start) / 1e6, error ? error : "(none)");
  assert_has (error, "scans.jpg");
  assert_has (error, "more than 100 scans");
  g_assert_cmpstr (lm_hdr_dialog_get_hint (LM_HDR_DIALOG (hdr_dialog)), ==, _("Add two to sixteen exposures of one scene."));
  gtk_dialog_response (GTK_DIALOG (hdr_dialog), GTK_RESPONSE_CLOSE);
  ui_flush ();
}

int
main (int argc, char **argv)
{
  tmp_dir = g_dir_make_tmp ("lumen-hostile-ui-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = tmp_path ("data");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE); /* the recent list: before GLib reads it */
  g_autofree char *photo = copy_photo ("photos/chelsea.png", "chelsea.png");
  ui_test_init (&argc, &argv, photo);
  ui_track_results ();
  /* Sidecars on: the photo's own is a subject here, and edits kept in one ask nothing when
   * another photo opens. */
  g_autoptr (GSettings) settings = ui_settings ();
  g_assert_nonnull (settings);
  g_settings_set_boolean (settings, "keep-edits", TRUE);
  open_photo (photo); /* again, with its sidecar */

  g_test_add_func ("/hostile/paste-refused", test_paste_refused);
  g_test_add_func ("/hostile/notes-and-sidecar", test_notes_and_sidecar);
  g_test_add_func ("/hostile/fifo-open", test_fifo_open);
  g_test_add_func ("/hostile/hdr-fifo", test_hdr_fifo);
  g_test_add_func ("/hostile/hdr-scan-bomb", test_hdr_scan_bomb);
  int rc = g_test_run ();
  gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  return rc;
}
