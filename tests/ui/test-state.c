/* The window's states and messages tell the truth, checked as a person sees them (real input
 * through XTest; what is on screen: sensitivity, tooltips, labels, the info bar, dialogs):
 * - no GPU: Compare is insensitive and says why; no speed-up is made up ("—"); the status
 *   bar shows no upload or download on the CPU;
 * - a long render shows a busy indicator (after the quick preview, gone once it is in);
 * - info bars say what kind of message they hold and lose what is no longer true;
 * - a photo is read before the unsaved-edits prompt: one that fails costs no question and
 *   leaves the recent list; the prompt offers Export… and marks Discard as destructive;
 * - in German: the status bar's operation names and the title of a merge, whole;
 * - from the build tree, with no variable: the About logo and the German catalogue.
 * The program runs in German (LANGUAGE=de; from the build tree's catalogue, where
 * LUMEN_LOCALEDIR names none), as the faults were seen. */
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "core/hdr/stack.h"
#include "core/io/io.h"
#include "ui/hdr-dialog.h"
#include "ui/window.h"
#include "ui-testlib.h"
#include "../unit/test-util.h"

static char *tmp_dir; /* the photos this test opens and exports: copies of its own */

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static void
copy_photo (const char *name)
{
  g_autofree char *base = g_path_get_basename (name);
  g_autofree char *to = tmp_path (base);
  g_free (ui_copy_test_data (name, to));
}

/* ---- finding what is on screen ----------------------------------------------------------- */

static GtkWidget *
titlebar (void)
{
  return gtk_window_get_titlebar (GTK_WINDOW (ui_window));
}

/* The first widget of TYPE under ROOT (internal children too), or NULL. */
static GtkWidget *
find_type (GtkWidget *root, GType type)
{
  g_autoptr (GPtrArray) all = ui_find_all (root, type);
  return all->len ? g_ptr_array_index (all, 0) : NULL;
}

/* The button bound to ACTION (with TARGET, a string, where not NULL). */
static GtkWidget *
action_button (const char *action, const char *target)
{
  g_autoptr (GPtrArray) buttons = ui_find_all (titlebar (), GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkActionable *b = g_ptr_array_index (buttons, i);
      GVariant *t = gtk_actionable_get_action_target_value (b);
      if (g_strcmp0 (gtk_actionable_get_action_name (b), action) == 0
          && (target == NULL || (t && g_str_equal (g_variant_get_string (t, NULL), target))))
        return GTK_WIDGET (b);
    }
  g_assert_not_reached ();
}

/* The status bar's labels: 0 the image, 1 the timings, 2 the speed-up. */
static const char *
status_text (int which)
{
  g_autoptr (GPtrArray) boxes = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_BOX);
  for (guint i = 0; i < boxes->len; i++)
    if (gtk_style_context_has_class (gtk_widget_get_style_context (g_ptr_array_index (boxes, i)), "status-bar"))
      {
        g_autoptr (GList) labels = gtk_container_get_children (g_ptr_array_index (boxes, i));
        return gtk_label_get_text (g_list_nth_data (labels, which));
      }
  g_assert_not_reached ();
}

/* The diff bar's revealer (the one with the gain slider; the info bar has one too). */
static GtkWidget *
diff_bar (void)
{
  g_autoptr (GPtrArray) revealers = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_REVEALER);
  for (guint i = 0; i < revealers->len; i++)
    if (find_type (g_ptr_array_index (revealers, i), GTK_TYPE_SCALE))
      return g_ptr_array_index (revealers, i);
  g_assert_not_reached ();
}

/* The header's label of style class NAME ("title", "subtitle"). */
static GtkLabel *
header_label (const char *name)
{
  g_autoptr (GPtrArray) labels = ui_find_all (titlebar (), GTK_TYPE_LABEL);
  for (guint i = 0; i < labels->len; i++)
    if (gtk_style_context_has_class (gtk_widget_get_style_context (g_ptr_array_index (labels, i)), name))
      return g_ptr_array_index (labels, i);
  g_assert_not_reached ();
}

/* The first button under ROOT labelled LABEL (its mnemonic text, as given to GTK). */
static GtkWidget *
button_labelled (GtkWidget *root, const char *label)
{
  g_autoptr (GPtrArray) buttons = ui_find_all (root, GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), label) == 0)
      return g_ptr_array_index (buttons, i);
  return NULL;
}

static GtkInfoBar *
info_bar (void)
{
  GtkWidget *bar = find_type (GTK_WIDGET (ui_window), GTK_TYPE_INFO_BAR);
  g_assert_nonnull (bar);
  return GTK_INFO_BAR (bar);
}

/* The info bar holds MESSAGE (a part of it) as a message of TYPE, with that type's icon. */
static void
expect_message (GtkMessageType type, const char *icon, const char *part)
{
  const char *message = lm_window_get_info_message (ui_window);
  g_test_message ("info bar (type %d): %s", gtk_info_bar_get_message_type (info_bar ()), message);
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, part));
  g_assert_cmpint (gtk_info_bar_get_message_type (info_bar ()), ==, type);
  GtkWidget *image = ui_find_named (GTK_WIDGET (ui_window), "info-icon");
  g_assert_nonnull (image); /* none at all: the bar's colour alone said what it was */
  g_assert_true (gtk_widget_get_visible (image));
  const char *name = NULL;
  gtk_image_get_icon_name (GTK_IMAGE (image), &name, NULL);
  g_assert_cmpstr (name, ==, icon);
}

/* ---- dialogs, answered as they come (a dialog may run a main loop of its own) ----------- */

typedef void (*Answer) (GtkWidget *dialog, gpointer data);

typedef struct {
  GType type;
  Answer answer;
  gpointer data;
  guint seen;
  guint source;
} Watch;

static gboolean
watch_tick (gpointer data)
{
  Watch *w = data;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, w->type) && gtk_widget_get_mapped (l->data)
        && !g_object_get_data (l->data, "lumen-test-answered"))
      {
        g_object_set_data (l->data, "lumen-test-answered", GINT_TO_POINTER (1));
        w->seen++;
        ui_wait_ms (100); /* drawn and placed */
        w->answer (l->data, w->data);
        break;
      }
  return G_SOURCE_CONTINUE;
}

static void
watch_start (Watch *w, GType type, Answer answer, gpointer data)
{
  *w = (Watch) { type, answer, data, 0, g_timeout_add (50, watch_tick, w) };
}

static void
watch_stop (Watch *w)
{
  g_clear_handle_id (&w->source, g_source_remove);
}

/* Runs the main loop until *FLAG or SECONDS have passed; returns *FLAG. */
static gboolean
wait_for (const gboolean *flag, int seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;
  while (!*flag && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  return *flag;
}

/* What the unsaved-edits prompt offered, and which of its buttons to click. */
typedef struct {
  const char *click;        /* a button's label */
  gboolean offers_export;
  gboolean discard_destructive;
  gboolean clicked;
} Prompt;

static void
answer_prompt (GtkWidget *dialog, gpointer data)
{
  Prompt *p = data;
  GtkWidget *export = button_labelled (dialog, _("_Export…"));
  GtkWidget *discard = button_labelled (dialog, _("_Discard"));
  p->offers_export = export != NULL;
  p->discard_destructive = discard && gtk_style_context_has_class (gtk_widget_get_style_context (discard),
                                                                   GTK_STYLE_CLASS_DESTRUCTIVE_ACTION);
  g_test_message ("prompt: Export… %s, Discard %s", p->offers_export ? "offered" : "not offered",
                  p->discard_destructive ? "destructive" : "not marked destructive");
  GtkWidget *button = button_labelled (dialog, p->click);
  if (button == NULL) /* not offered: cancelled, so that the test goes on to fail */
    button = button_labelled (dialog, _("_Cancel"));
  g_assert_nonnull (button);
  p->clicked = TRUE;
  ui_focus_window (dialog);
  ui_click (button, gtk_widget_get_allocated_width (button) / 2.0, gtk_widget_get_allocated_height (button) / 2.0);
}

/* ---- the recent list ----------------------------------------------------------------------- */

static char *
uri_of (const char *path)
{
  return g_filename_to_uri (path, NULL, NULL);
}

/* Clicks the switch of OP on, unless it is on already; its render in. */
static void
switch_on (LmOpId op)
{
  GtkWidget *sw = ui_control (op, "enabled");
  if (gtk_switch_get_active (GTK_SWITCH (sw)))
    return;
  ui_scroll_into_view (sw);
  ui_click (sw, gtk_widget_get_allocated_width (sw) / 2.0, gtk_widget_get_allocated_height (sw) / 2.0);
  for (int turn = 0; turn < 100 && !gtk_switch_get_active (GTK_SWITCH (sw)); turn++)
    ui_wait_ms (20); /* the switch slides over before it is on */
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (sw)));
  ui_settle_tracked ();
}

/* ---- the tests ----------------------------------------------------------------------------- */

/* From the build tree with no variable: the catalogue is found (the window is German), and
 * lumen-cli --help is German too. */
static void
test_build_tree_german (void)
{
  if (g_getenv ("LUMEN_LOCALEDIR"))
    {
      g_test_skip ("LUMEN_LOCALEDIR names the catalogue: the build tree's is not what the window reads");
      return;
    }
  const char *label = _("_Compare");
  g_test_message ("Compare's label: %s", label);
  g_assert_cmpstr (label, !=, "_Compare");
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (action_button ("win.compare", NULL))), ==, label);

  const char *cli = g_getenv ("LUMEN_CLI");
  g_assert_nonnull (cli);
  g_auto (GStrv) env = g_get_environ ();
  env = g_environ_unsetenv (env, "LUMEN_LOCALEDIR");
  env = g_environ_setenv (env, "LANGUAGE", "de", TRUE);
  env = g_environ_setenv (env, "LC_ALL", "C.UTF-8", TRUE);
  const char *argv[] = { cli, "--help", NULL };
  g_autofree char *out = NULL;
  GError *e = NULL;
  int status;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, env, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &e));
  g_assert_no_error (e);
  /* An operation's name, in Lumen's catalogue only (GLib's own "Usage:" is German anyway). */
  const char *gray = _("Grayscale");
  g_test_message ("lumen-cli --help with LANGUAGE=de: %s", strstr (out, gray) ? gray : "(not German)");
  g_assert_cmpstr (gray, !=, "Grayscale");
  g_assert_nonnull (strstr (out, gray));
}

/* The reason the GPU cannot be used (the CUDA backend's), from the GPU button's tooltip. */
static char *
cuda_reason (void)
{
  GtkWidget *gpu = action_button ("win.backend", "cuda");
  g_assert_false (gtk_widget_get_sensitive (gpu));
  char *reason = gtk_widget_get_tooltip_text (gpu);
  g_assert_nonnull (reason);
  return reason;
}

static void
count_compare (LmWindow *w, int kind, guint64 generation, gboolean refined, guint *compares)
{
  *compares += kind == LM_RESULT_COMPARE;
}

/* The word that FORMAT (a translated " · upload %.1f ms") puts before its number. */
static char *
format_word (const char *format)
{
  const char *at = strstr (format, "·");
  g_autofree char *word = g_strndup (at ? at + strlen ("·") : format, strcspn (at ? at + strlen ("·") : format, "%"));
  return g_strstrip (g_strdup (word));
}

/* No device here: Compare cannot be pressed (its tooltip says why), Ctrl+D does nothing, no
 * speed-up is shown but "—", and the CPU's status shows no upload or download. */
static void
test_no_gpu (void)
{
  if (gtk_widget_get_sensitive (action_button ("win.backend", "cuda")))
    {
      g_test_skip ("a GPU is usable (Compare with one: ui window)");
      return;
    }
  g_autofree char *reason = cuda_reason ();
  GtkWidget *compare = action_button ("win.compare", NULL);
  g_autofree char *tip = gtk_widget_get_tooltip_text (compare);
  g_test_message ("no device: %s; Compare %s, its tooltip: %s", reason,
                  gtk_widget_get_sensitive (compare) ? "sensitive" : "insensitive", tip);
  g_assert_false (g_action_get_enabled (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "compare")));
  g_assert_false (gtk_widget_is_sensitive (compare));
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, reason));

  guint compares = 0;
  gulong id = g_signal_connect (ui_window, "render-result", G_CALLBACK (count_compare), &compares);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_d, GDK_CONTROL_MASK);
  ui_wait_ms (500);
  g_signal_handler_disconnect (ui_window, id);
  GtkWidget *revealer = diff_bar ();
  g_test_message ("after Ctrl+D: %u comparisons, the diff bar %s: %s", compares,
                  gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)) ? "shown" : "hidden",
                  lm_window_get_diff_text (ui_window));
  g_assert_cmpuint (compares, ==, 0);
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (revealer)));

  /* The first render of the photo: the CPU "uploaded" it, i.e. shared its memory. */
  const char *timings = status_text (1), *speedup = status_text (2);
  g_autofree char *upload = format_word (_(" · upload %.1f ms"));
  g_autofree char *download = format_word (_(" · view download %.2f ms"));
  g_test_message ("status: %s | %s | %s", status_text (0), timings, speedup);
  g_assert_nonnull (strstr (status_text (0), _("CPU")));
  g_assert_null (strstr (timings, upload));
  g_assert_null (strstr (timings, download));
  g_assert_nonnull (strstr (speedup, "—"));
  g_assert_null (strstr (speedup, "×"));
}

/* In German, the status bar names the operations as their panels do, cached or not. */
static void
test_status_names (void)
{
  switch_on (LM_OP_GRAY);
  const char *label = _("Grayscale");
  g_test_message ("status: %s", status_text (1));
  g_assert_cmpstr (label, !=, "Grayscale");
  g_assert_nonnull (strstr (status_text (1), label));
  g_assert_null (strstr (status_text (1), "gray"));

  gtk_range_set_value (GTK_RANGE (ui_control (LM_OP_BLUR, "sigma")), 3.0); /* switches it on */
  ui_settle_tracked ();
  g_autofree char *cached = g_strdup_printf (_("%s cached"), label);
  g_test_message ("status: %s", status_text (1));
  g_assert_nonnull (strstr (status_text (1), cached));
  g_assert_nonnull (strstr (status_text (1), _(lm_op_info (LM_OP_BLUR)->label)));
  g_assert_null (strstr (status_text (1), "blur"));
}

/* A photo that cannot be read, from the recent list, while edits are unsaved: no question
 * (nothing would be lost), an error in the bar, the photo and its edits kept, and the file
 * off the recent list. */
static void
test_open_failure (void)
{
  g_autofree char *broken = tmp_path ("broken.png");
  g_autofree char *chelsea = tmp_path ("chelsea.png");
  g_autofree char *bytes = NULL;
  gsize length;
  g_assert_true (g_file_get_contents (chelsea, &bytes, &length, NULL));
  g_assert_true (g_file_set_contents (broken, bytes, 300, NULL)); /* a PNG cut short */
  switch_on (LM_OP_GRAY); /* an unsaved edit */

  Prompt prompt = { .click = _("_Cancel") };
  Watch watch;
  watch_start (&watch, GTK_TYPE_MESSAGE_DIALOG, answer_prompt, &prompt);
  ui_open_recent (broken);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (lm_window_get_info_message (ui_window) == NULL && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  watch_stop (&watch);
  g_autofree char *uri = uri_of (broken);
  gboolean listed = gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri);
  g_test_message ("broken.png: %u prompts, %s on the recent list", watch.seen, listed ? "still" : "no longer");
  g_assert_cmpuint (watch.seen, ==, 0);
  expect_message (GTK_MESSAGE_ERROR, "dialog-error-symbolic", "broken.png");
  g_assert_false (listed);
  /* Kept: the photo and its edits. */
  g_assert_cmpstr (gtk_label_get_text (header_label ("title")), ==, "chelsea.png");
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (ui_control (LM_OP_GRAY, "enabled"))));
  g_assert_cmpuint (ui_histogram ().total, ==, 451 * 300);
}

/* Another photo while edits are unsaved: the prompt (once it is read) offers Export… and
 * marks Discard as destructive; Cancel keeps all as it was. */
static void
test_prompt_cancel (void)
{
  g_autofree char *gray = tmp_path ("camera-gray.png");
  switch_on (LM_OP_GRAY); /* an unsaved edit */
  Prompt prompt = { .click = _("_Cancel") };
  Watch watch;
  watch_start (&watch, GTK_TYPE_MESSAGE_DIALOG, answer_prompt, &prompt);
  ui_open_recent (gray);
  wait_for (&prompt.clicked, 20);
  ui_wait_ms (300);
  watch_stop (&watch);
  g_assert_true (prompt.clicked);
  g_assert_true (prompt.offers_export);
  g_assert_true (prompt.discard_destructive);
  g_assert_cmpstr (gtk_label_get_text (header_label ("title")), ==, "chelsea.png");
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (ui_control (LM_OP_GRAY, "enabled"))));
  g_assert_cmpuint (ui_histogram ().total, ==, 451 * 300);
}

/* The export file chooser: a name typed over the suggested one, then Return. */
static void
answer_chooser (GtkWidget *dialog, gpointer data)
{
  ui_focus_window (dialog);
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (data);
  ui_key (GDK_KEY_Return, 0);
}

/* Export… in the prompt: the export dialog, the export, then the photo asked for. */
static void
test_prompt_export (void)
{
  g_autofree char *gray = tmp_path ("camera-gray.png");
  g_autofree char *exported = tmp_path ("exported.png");
  switch_on (LM_OP_GRAY); /* an unsaved edit */
  Prompt prompt = { .click = _("_Export…") };
  Watch watch, chooser;
  watch_start (&watch, GTK_TYPE_MESSAGE_DIALOG, answer_prompt, &prompt);
  watch_start (&chooser, GTK_TYPE_FILE_CHOOSER_DIALOG, answer_chooser, (gpointer) "exported.png");
  ui_open_recent (gray);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (g_strcmp0 (gtk_label_get_text (header_label ("title")), "camera-gray.png") != 0
         && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  watch_stop (&watch);
  watch_stop (&chooser);
  g_test_message ("Export…: %s, the chooser %s; the title now %s", prompt.offers_export ? "offered" : "not offered",
                  chooser.seen ? "shown" : "not shown", gtk_label_get_text (header_label ("title")));
  g_assert_true (prompt.offers_export);
  g_assert_cmpuint (chooser.seen, ==, 1);
  GError *e = NULL;
  g_autoptr (LmImage) back = lm_io_load (exported, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_assert_cmpuint (back->width, ==, 451);
  g_assert_cmpstr (gtk_label_get_text (header_label ("title")), ==, "camera-gray.png");
  ui_settle_tracked ();
  g_assert_cmpuint (ui_histogram ().total, ==, 512 * 512);
  /* "Exported to exported.png" was about the photo before. */
  g_assert_null (lm_window_get_info_message (ui_window));
}

/* The info bar's background as painted (its left edge, clear of the icon and text). */
static guint32
info_bar_colour (void)
{
  ui_wait_ms (400); /* revealed: the slide is over */
  GtkWidget *bar = GTK_WIDGET (info_bar ());
  cairo_surface_t *s = ui_paint_widget (bar);
  guint32 rgb = ui_painted (s, 2, gtk_widget_get_allocated_height (bar) / 2);
  cairo_surface_destroy (s);
  return rgb;
}

/* An export says where it went, as information; the next one does not show it while it
 * runs; a failed one says so as an error, which looks otherwise. */
static void
test_export_messages (void)
{
  const char *names[] = { "first.png", "second.png", "no-such-folder/third.png" };
  guint32 colours[G_N_ELEMENTS (names)];
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = tmp_path (names[i]);
      LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
      lm_window_export_to (ui_window, path, &options);
      const char *during = lm_window_get_info_message (ui_window);
      g_test_message ("while %s is exported, the info bar says: %s", names[i], during ? during : "nothing");
      if (i > 0)
        g_assert_true (during == NULL || strstr (during, names[i - 1]) == NULL);
      ui_await_result (LM_RESULT_EXPORTED);
      if (i < 2)
        expect_message (GTK_MESSAGE_INFO, "dialog-information-symbolic", names[i]);
      else
        expect_message (GTK_MESSAGE_ERROR, "dialog-error-symbolic", "third.png");
      colours[i] = info_bar_colour ();
    }
  g_test_message ("info bar colours: information %06x, error %06x", colours[1], colours[2]);
  g_assert_cmphex (colours[0], ==, colours[1]);
  g_assert_cmphex (colours[1], !=, colours[2]);
}

/* The merge of a bracket is titled by its first exposure, with "HDR, 3 exposures" under it:
 * each line whole beside the header's buttons, in German. */
static void
test_merge_title (void)
{
  g_autofree char *dir = ui_test_data ("hdr/courtyard");
  g_autofree char *list = g_build_filename (dir, "exposures.txt", NULL);
  g_autoptr (GPtrArray) files = NULL;
  g_autoptr (GArray) times = NULL;
  GError *e = NULL;
  g_assert_true (lm_hdr_read_exposures (list, &files, &times, &e));
  g_assert_no_error (e);

  g_action_activate (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "merge-hdr"), NULL);
  ui_flush ();
  LmHdrDialog *dialog = NULL;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (LM_IS_HDR_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      dialog = l->data;
  g_assert_nonnull (dialog);
  lm_hdr_dialog_add_files (dialog, (const char *const *) files->pdata, files->len);
  ui_await_exposures (GTK_WIDGET (dialog));
  for (guint i = 0; i < files->len; i++)
    {
      char text[G_ASCII_DTOSTR_BUF_SIZE];
      g_assert_true (lm_hdr_dialog_set_time_text (dialog, i, g_ascii_dtostr (text, sizeof text,
                                                                          g_array_index (times, double, i))));
    }
  gtk_dialog_response (GTK_DIALOG (dialog), LM_HDR_RESPONSE_MERGE);
  ui_await_result (LM_RESULT_MERGED);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CLOSE);
  ui_settle_tracked ();
  ui_wait_ms (200); /* laid out again */

  GtkLabel *title = header_label ("title"), *subtitle = header_label ("subtitle");
  gboolean title_cut = pango_layout_is_ellipsized (gtk_label_get_layout (title));
  gboolean subtitle_cut = pango_layout_is_ellipsized (gtk_label_get_layout (subtitle));
  g_test_message ("header: “%s”%s / “%s”%s", gtk_label_get_text (title), title_cut ? " (cut)" : "",
                  gtk_label_get_text (subtitle), subtitle_cut ? " (cut)" : "");
  g_assert_cmpstr (gtk_label_get_text (title), ==, "exposure01.png");
  g_assert_false (title_cut);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (subtitle)));
  g_assert_nonnull (strstr (gtk_label_get_text (subtitle), "HDR"));
  g_assert_false (subtitle_cut);
}

typedef struct {
  guint64 from;        /* results of this generation on */
  gboolean quick;      /* a quick preview came */
  gboolean quick_first;
  gboolean refined;
} Renders;

static void
on_render (LmWindow *w, int kind, guint64 generation, gboolean refined, Renders *r)
{
  if (kind != LM_RESULT_PREVIEW || generation < r->from)
    return;
  if (!refined && !r->refined)
    r->quick = r->quick_first = TRUE;
  if (refined && generation >= lm_window_get_generation (ui_window))
    r->refined = TRUE;
}

static gboolean
busy_shown (GtkWidget *busy)
{
  GtkWidget *spinner = busy ? find_type (busy, GTK_TYPE_SPINNER) : NULL;
  gboolean active = FALSE;
  if (spinner)
    g_object_get (spinner, "active", &active, NULL);
  return busy && gtk_widget_get_mapped (busy) && active;
}

static GdkCursor *
window_cursor (void)
{
  return gdk_window_get_cursor (gtk_widget_get_window (GTK_WIDGET (ui_window)));
}

/* A long render on the CPU: the quick preview first, then the busy indicator (spinner and
 * cursor) from BUSY_AFTER_MS (150 ms) until the full render is in; never for a quick one.
 * Blur σ 20 on the 4 MP photo is among the CPU's slowest (the direct kernel's largest σ):
 * about 500 ms on the one thread this test runs with (tests/meson.build), so that a faster
 * machine is still slow enough to check. */
static void
test_busy (void)
{
  g_autofree char *forest = ui_test_data ("photos/forest-path.jpg");
  g_autoptr (GFile) file = g_file_new_for_path (forest);
  lm_window_open (ui_window, file);
  ui_settle ();
  ui_wait_ms (200);
  ui_settle_tracked (); /* nothing else on the way: the clock starts at the change */
  g_assert_cmpuint (ui_histogram ().total, ==, 2560 * 1600);
  g_autoptr (GVariant) backend = g_action_get_state (g_action_map_lookup_action (G_ACTION_MAP (ui_window), "backend"));
  if (!g_str_equal (g_variant_get_string (backend, NULL), "cpu"))
    {
      GtkWidget *cpu = action_button ("win.backend", "cpu");
      ui_click (cpu, gtk_widget_get_allocated_width (cpu) / 2.0, gtk_widget_get_allocated_height (cpu) / 2.0);
      ui_settle_tracked ();
    }
  GtkWidget *busy = ui_find_named (GTK_WIDGET (ui_window), "busy");
  g_assert_nonnull (busy);
  g_assert_false (busy_shown (busy));

  Renders renders = { .from = lm_window_get_generation (ui_window) + 1 };
  gulong id = g_signal_connect (ui_window, "render-result", G_CALLBACK (on_render), &renders);
  gint64 changed = g_get_monotonic_time ();
  gtk_range_set_value (GTK_RANGE (ui_control (LM_OP_BLUR, "sigma")), 20.0);
  gint64 shown_at = 0;
  gboolean cursor_while_busy = FALSE;
  gint64 deadline = changed + 60 * G_USEC_PER_SEC;
  while (!renders.refined && g_get_monotonic_time () < deadline)
    {
      ui_wait_ms (10);
      if (!shown_at && busy_shown (busy))
        {
          shown_at = g_get_monotonic_time ();
          cursor_while_busy = window_cursor () != NULL;
        }
    }
  double took = (g_get_monotonic_time () - changed) / 1000.0;
  ui_flush ();
  g_signal_handler_disconnect (ui_window, id);
  g_test_message ("blur σ 20: quick preview %s; busy indicator %s%.0f ms after the change (cursor %s); "
                  "full render in after %.0f ms",
                  renders.quick_first ? "first" : "not first", shown_at ? "shown " : "not shown",
                  shown_at ? (shown_at - changed) / 1000.0 : 0.0, cursor_while_busy ? "changed" : "unchanged", took);
  g_assert_true (renders.refined);
  g_assert_true (renders.quick_first);
  g_assert_false (busy_shown (busy));
  g_assert_null (window_cursor ());
  if (took < 140)
    {
      g_assert_cmpint (shown_at, ==, 0); /* no flicker */
      g_test_skip ("the render was too quick to need the busy indicator");
      return;
    }
  if (took < 160)
    g_test_skip ("the render ended as the indicator was due: nothing to tell");
  if (took >= 160) /* the indicator's 150 ms and the 10 ms of this loop's polling */
    {
      g_assert_cmpint (shown_at, >, 0);
      g_assert_cmpint (shown_at - changed, >=, 140 * 1000); /* not for what comes at once */
      g_assert_true (cursor_while_busy);
    }
}

/* About shows the app's logo, found from the build tree (the GResource), not a broken one. */
static void
test_about_logo (void)
{
  gboolean svg = FALSE;
  g_autoptr (GSList) formats = gdk_pixbuf_get_formats ();
  for (GSList *l = formats; l; l = l->next)
    svg |= g_str_equal (gdk_pixbuf_format_get_name (l->data), "svg");
  if (!svg)
    {
      g_test_skip ("no SVG pixbuf loader to draw the icon with");
      return;
    }
  GApplication *app = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (ui_window)));
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  ui_wait_ms (200);
  GtkWidget *about = NULL;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (GTK_IS_ABOUT_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      about = l->data;
  g_assert_nonnull (about);
  GdkPixbuf *logo = gtk_about_dialog_get_logo (GTK_ABOUT_DIALOG (about));
  g_test_message ("About's logo: %s", logo ? "drawn" : "none (a named icon the theme may not have)");
  g_assert_nonnull (logo);
  g_assert_cmpint (gdk_pixbuf_get_width (logo), >=, 64);
  gtk_widget_destroy (about);
}

/* The header's close button, as GTK draws it in the title bar. */
static GtkWidget *
close_button (void)
{
  g_autoptr (GPtrArray) buttons = ui_find_all (GTK_WIDGET (ui_window), GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkStyleContext *style = gtk_widget_get_style_context (g_ptr_array_index (buttons, i));
      if (gtk_style_context_has_class (style, "titlebutton") && gtk_style_context_has_class (style, "close"))
        return g_ptr_array_index (buttons, i);
    }
  g_assert_not_reached ();
}

/* Closing over unsaved edits, Export… in the prompt: the export is written, then the window
 * closes (it is destroyed once the export's result has been delivered, not under it). The
 * last test: the window is gone after it. */
static void
test_close_export (void)
{
  g_autofree char *exported = tmp_path ("closed.png");
  switch_on (LM_OP_GRAY);
  ui_settle_tracked ();
  ui_wait_ms (600); /* one undo step: an unsaved edit */
  g_object_add_weak_pointer (G_OBJECT (ui_window), (gpointer *) &ui_window);
  Prompt prompt = { .click = _("_Export…") };
  Watch watch, chooser;
  watch_start (&watch, GTK_TYPE_MESSAGE_DIALOG, answer_prompt, &prompt);
  /* The whole path: the chooser opens in the photo's folder, which may be the corpus's. */
  watch_start (&chooser, GTK_TYPE_FILE_CHOOSER_DIALOG, answer_chooser, exported);
  guint64 pixels = ui_histogram ().total;
  GtkWidget *close = close_button ();
  ui_click (close, gtk_widget_get_allocated_width (close) / 2.0, gtk_widget_get_allocated_height (close) / 2.0);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (ui_window != NULL && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  watch_stop (&watch);
  watch_stop (&chooser);
  g_test_message ("close: Export… %s, the chooser %s, the window %s", prompt.offers_export ? "offered" : "not offered",
                  chooser.seen ? "shown" : "not shown", ui_window ? "still open" : "closed");
  g_assert_true (prompt.offers_export);
  g_assert_cmpuint (chooser.seen, ==, 1);
  g_assert_null (ui_window);
  GError *e = NULL;
  g_autoptr (LmImage) back = lm_io_load (exported, lm_allocator_host (), &e);
  g_assert_no_error (e);
  g_assert_cmpuint ((guint64) back->width * back->height, ==, pixels);
}

int
main (int argc, char **argv)
{
  /* German, the catalogue found beside the build tree; recent files in a folder of the
   * test's own. Before GTK starts: both are read once. */
  tmp_dir = g_dir_make_tmp ("lumen-state-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_autofree char *data_home = tmp_path ("data");
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  g_setenv ("LANGUAGE", "de", TRUE);
  /* A locale where LANGUAGE is read: C.UTF-8 here (glibc 2.36); glibc 2.39 ignores LANGUAGE
   * under C.UTF-8 too, so a caller there names another (tests/gpu/device-run.sh). */
  g_setenv ("LC_ALL", "C.UTF-8", FALSE);
  copy_photo ("photos/chelsea.png");
  copy_photo ("photos/camera-gray.png");
  g_autofree char *chelsea = tmp_path ("chelsea.png");
  ui_test_init_localized (&argc, &argv, chelsea);
  ui_track_results (); /* results that come while input is handled count too */

  g_test_add_func ("/state/build-tree-german", test_build_tree_german);
  g_test_add_func ("/state/no-gpu", test_no_gpu);
  g_test_add_func ("/state/status-names", test_status_names);
  g_test_add_func ("/state/open-failure", test_open_failure);
  g_test_add_func ("/state/prompt-cancel", test_prompt_cancel);
  g_test_add_func ("/state/prompt-export", test_prompt_export);
  g_test_add_func ("/state/export-messages", test_export_messages);
  g_test_add_func ("/state/merge-title", test_merge_title);
  g_test_add_func ("/state/busy", test_busy);
  g_test_add_func ("/state/about-logo", test_about_logo);
  g_test_add_func ("/state/close-export", test_close_export);
  int rc = g_test_run ();
  if (ui_window)
    gtk_widget_destroy (GTK_WIDGET (ui_window));
  lm_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return rc;
}
