/* What the window tests share: see ui-testlib.h. */
#include "ui-testlib.h"

#include <locale.h>
#include <math.h>
#include <string.h>
#include <gdk/gdkx.h>
#include <glib/gi18n.h>
#include <X11/XKBlib.h>
#include <X11/extensions/XTest.h>

#include "core/i18n.h"
#include "core/image.h"
#include "core/io/io.h"
#include "core/ops/view.h"
#include "ui/application.h"
#include "ui/hdr-dialog.h"
#include "ui/histogram-view.h"
#include "ui/op-panel.h"

LmWindow *ui_window;

char *
ui_test_data (const char *name)
{
  const char *data = g_getenv ("LUMEN_TEST_DATA");
  return g_build_filename (data ? data : "tests/data", name, NULL);
}

LmImage *
ui_load_image (const char *path)
{
  GError *e = NULL;
  LmImage *image = lm_io_load (path, lm_allocator_host (), &e);
  g_assert_no_error (e);
  return image;
}

void
ui_run_cli (const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_ptr_array_add (argv, (gpointer) g_getenv ("LUMEN_CLI"));
  for (int i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  int status = -1;
  g_autofree char *err = NULL;
  g_assert_true (g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

char *
ui_copy_test_data (const char *name, const char *dest)
{
  g_autofree char *from = ui_test_data (name);
  g_autofree char *bytes = NULL;
  gsize length;
  g_assert_true (g_file_get_contents (from, &bytes, &length, NULL));
  g_assert_true (g_file_set_contents (dest, bytes, length, NULL));
  return g_strdup (dest);
}

typedef struct {
  int kind;
  guint64 generation; /* previews: the one awaited (earlier ones still come in) */
  gboolean seen;
} Awaited;

static void
on_result (LmWindow *w, int kind, guint64 generation, gboolean refined, Awaited *a)
{
  if (g_getenv ("LUMEN_TEST_VERBOSE"))
    g_test_message ("result kind %d generation %" G_GUINT64_FORMAT " refined %d", kind, generation, refined);
  if (kind == a->kind && (kind != LM_RESULT_PREVIEW || (refined && generation >= a->generation)))
    a->seen = TRUE;
  const char *message = lm_window_get_info_message (w);
  if (message)
    g_test_message ("info bar: %s", message);
}

static gboolean
tick (gpointer data)
{
  return G_SOURCE_CONTINUE; /* wakes the loop, so that deadlines are checked */
}

void
ui_await_result (int kind)
{
  Awaited a = { .kind = kind, .generation = lm_window_get_generation (ui_window) };
  gulong id = g_signal_connect (ui_window, "render-result", G_CALLBACK (on_result), &a);
  guint timer = g_timeout_add (100, tick, NULL);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (!a.seen && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timer);
  g_signal_handler_disconnect (ui_window, id);
  g_assert_true (a.seen);
}

void
ui_flush (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
ui_settle (void)
{
  ui_await_result (LM_RESULT_PREVIEW);
  ui_flush ();
}

static guint64 tracked_refined; /* the newest generation whose refined preview came */
static gboolean tracking;

static void
on_tracked_result (LmWindow *w, int kind, guint64 generation, gboolean refined, gpointer data)
{
  if (kind == LM_RESULT_PREVIEW && refined)
    tracked_refined = MAX (tracked_refined, generation);
}

void
ui_track_results (void)
{
  if (tracking)
    return;
  tracking = TRUE;
  g_signal_connect (ui_window, "render-result", G_CALLBACK (on_tracked_result), NULL);
}

void
ui_settle_tracked (void)
{
  g_assert_true (tracking);
  guint timer = g_timeout_add (100, tick, NULL);
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (tracked_refined < lm_window_get_generation (ui_window) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timer);
  g_assert_cmpuint (tracked_refined, >=, lm_window_get_generation (ui_window));
  ui_flush ();
}

void
ui_wait_ms (guint ms)
{
  gint64 until = g_get_monotonic_time () + ms * 1000;
  guint timer = g_timeout_add (20, tick, NULL);
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timer);
}

static void open_window (const char *photo);

GSettings *
ui_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema
    = source ? g_settings_schema_source_lookup (source, "io.github.lumen.Lumen", TRUE) : NULL;
  return schema ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

void
ui_test_init (int *argc, char ***argv, const char *photo)
{
  gtk_test_init (argc, argv, NULL);
  /* Criticals stay fatal; warnings do not: a machine without an SVG pixbuf loader (the GPU
   * machine's bundle) makes GTK warn about theme assets it cannot draw. */
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  open_window (photo);
}

void
ui_test_init_localized (int *argc, char ***argv, const char *photo)
{
  gtk_test_init (argc, argv, NULL);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL);
  lm_i18n_init (); /* after gtk_test_init, which leaves the C locale */
  open_window (photo);
}

/* The window of ui_test_init, PHOTO opened and rendered, with the keyboard. */
static void
open_window (const char *photo)
{
  g_autofree char *path = g_path_is_absolute (photo) ? g_strdup (photo) : ui_test_data (photo);

  /* No sidecars: the tests edit the corpus's photos in place and leave nothing beside them
   * (the settings are in memory: this is the test's alone). test-keep-edits turns them on. */
  g_autoptr (GSettings) settings = ui_settings ();
  if (settings)
    g_settings_set_boolean (settings, "keep-edits", FALSE);
  /* Scrolls and revealers land at once, as with a desktop's "reduce animation" setting: an
   * animated wheel turn took a quarter of a second, and a long side panel dozens of turns. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  LmApplication *app = lm_application_new (); /* lives as long as the test program */
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, NULL));
  ui_window = lm_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (ui_window), 1100, 760);
  gtk_widget_show (GTK_WIDGET (ui_window));
  g_autoptr (GFile) file = g_file_new_for_path (path);
  lm_window_open (ui_window, file);
  ui_settle ();
  /* No window manager under Xvfb: give the window the keyboard as one would. */
  GdkWindow *gdk_window = gtk_widget_get_window (GTK_WIDGET (ui_window));
  if (GDK_IS_X11_WINDOW (gdk_window))
    {
      Display *dpy = GDK_DISPLAY_XDISPLAY (gdk_window_get_display (gdk_window));
      XSetInputFocus (dpy, GDK_WINDOW_XID (gdk_window), RevertToParent, CurrentTime);
      XSync (dpy, False);
    }
  ui_wait_ms (100);
}

GBytes *
ui_view_pixels (void)
{
  LmViewRect rect;
  LmImage *px = lm_image_view_get_pixels (ui_image_view (), &rect);
  g_assert_nonnull (px);
  return g_bytes_new (px->data, lm_image_size_bytes (px));
}

LmHistogram
ui_histogram (void)
{
  const LmHistogram *h = lm_histogram_view_get_histogram (LM_HISTOGRAM_VIEW (lm_window_get_histogram_view (ui_window)));
  g_assert_nonnull (h);
  return *h;
}

GtkWidget *
ui_control (LmOpId op, const char *name)
{
  GtkWidget *w = lm_op_panel_get_control (LM_OP_PANEL (lm_window_get_op_panel (ui_window, op)), name);
  g_assert_nonnull (w);
  return w;
}

LmImageView *
ui_image_view (void)
{
  return LM_IMAGE_VIEW (lm_window_get_image_view (ui_window));
}

GtkWidget *
ui_find_named (GtkWidget *widget, const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  if (!GTK_IS_CONTAINER (widget))
    return NULL;
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (widget));
  for (GList *l = children; l; l = l->next)
    {
      GtkWidget *found = ui_find_named (l->data, name);
      if (found)
        return found;
    }
  return NULL;
}

cairo_surface_t *
ui_paint_view (void)
{
  return ui_paint_widget (GTK_WIDGET (ui_image_view ()));
}

cairo_surface_t *
ui_paint_widget (GtkWidget *widget)
{
  cairo_surface_t *s = cairo_image_surface_create (CAIRO_FORMAT_RGB24, gtk_widget_get_allocated_width (widget),
                                                   gtk_widget_get_allocated_height (widget));
  cairo_t *cr = cairo_create (s);
  gtk_widget_draw (widget, cr);
  cairo_destroy (cr);
  cairo_surface_flush (s);
  return s;
}

int
ui_view_distance (const LmImage *a, const LmImage *b)
{
  g_assert_cmpuint (a->width, ==, b->width);
  g_assert_cmpuint (a->height, ==, b->height);
  int max = 0;
  for (guint y = 0; y < a->height; y++)
    {
      const guint32 *pa = (const guint32 *) lm_image_row (a, y), *pb = (const guint32 *) lm_image_row (b, y);
      for (guint x = 0; x < a->width; x++)
        for (int shift = 0; shift < 24; shift += 8)
          max = MAX (max, ABS ((int) (pa[x] >> shift & 0xff) - (int) (pb[x] >> shift & 0xff)));
    }
  return max;
}

guint32
ui_painted (cairo_surface_t *s, int x, int y)
{
  return ((const guint32 *) (cairo_image_surface_get_data (s) + (gsize) y * cairo_image_surface_get_stride (s)))[x]
         & 0xffffff;
}

void
ui_activate (const char *action)
{
  g_action_activate (g_action_map_lookup_action (G_ACTION_MAP (ui_window), action), NULL);
}

/* ---- input through the X server ----------------------------------------------------------- */

static Display *
xdisplay (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_assert_true (GDK_IS_X11_DISPLAY (display));
  return GDK_DISPLAY_XDISPLAY (display);
}

/* Waits until the server has sent what was faked and GTK has handled it. */
static void
sync_input (void)
{
  XSync (xdisplay (), False);
  ui_wait_ms (30);
  ui_flush ();
}

void
ui_pointer_move (GtkWidget *widget, double x, double y)
{
  int ox, oy;
  gdk_window_get_origin (gtk_widget_get_window (widget), &ox, &oy);
  GtkAllocation a;
  gtk_widget_get_allocation (widget, &a);
  if (gtk_widget_get_has_window (widget))
    a.x = a.y = 0; /* its own window's origin is its allocation's */
  XTestFakeMotionEvent (xdisplay (), -1, ox + a.x + (int) x, oy + a.y + (int) y, CurrentTime);
  sync_input ();
}

void
ui_pointer_button (guint button, gboolean press)
{
  XTestFakeButtonEvent (xdisplay (), button, press, CurrentTime);
  sync_input ();
}

void
ui_drag (GtkWidget *widget, double x0, double y0, double x1, double y1, int steps)
{
  ui_pointer_move (widget, x0, y0);
  ui_pointer_button (1, TRUE);
  for (int i = 1; i <= steps; i++)
    ui_pointer_move (widget, x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps);
  ui_pointer_button (1, FALSE);
}

void
ui_click (GtkWidget *widget, double x, double y)
{
  ui_pointer_move (widget, x, y);
  ui_pointer_button (1, TRUE);
  ui_pointer_button (1, FALSE);
}

static void
fake_key (KeySym sym, gboolean press)
{
  KeyCode code = XKeysymToKeycode (xdisplay (), sym);
  g_assert_cmpuint (code, !=, 0);
  XTestFakeKeyEvent (xdisplay (), code, press, CurrentTime);
}

void
ui_key (guint keyval, GdkModifierType modifiers)
{
  ui_key_held (keyval, modifiers, 0);
}

void
ui_key_held (guint keyval, GdkModifierType modifiers, guint ms)
{
  if (modifiers & GDK_CONTROL_MASK)
    fake_key (XK_Control_L, TRUE);
  if (modifiers & GDK_SHIFT_MASK)
    fake_key (XK_Shift_L, TRUE);
  if (modifiers & GDK_MOD1_MASK)
    fake_key (XK_Alt_L, TRUE);
  fake_key (keyval, TRUE); /* GDK's keyvals are X keysyms */
  if (ms > 0)
    {
      XSync (xdisplay (), False);
      ui_wait_ms (ms);
    }
  fake_key (keyval, FALSE);
  if (modifiers & GDK_MOD1_MASK)
    fake_key (XK_Alt_L, FALSE);
  if (modifiers & GDK_SHIFT_MASK)
    fake_key (XK_Shift_L, FALSE);
  if (modifiers & GDK_CONTROL_MASK)
    fake_key (XK_Control_L, FALSE);
  sync_input ();
}

void
ui_key_press (guint keyval, gboolean press)
{
  fake_key (keyval, press);
  sync_input ();
}

void
ui_modifiers (GdkModifierType modifiers, gboolean press)
{
  if (modifiers & GDK_CONTROL_MASK)
    fake_key (XK_Control_L, press);
  if (modifiers & GDK_SHIFT_MASK)
    fake_key (XK_Shift_L, press);
  if (modifiers & GDK_MOD1_MASK)
    fake_key (XK_Alt_L, press);
  sync_input ();
}

void
ui_type (const char *text)
{
  for (const char *c = text; *c; c++)
    {
      /* Latin-1 characters are their own keysyms; the key's first level gives it without
       * Shift, else its second level with (upper case, '_', ':' …). */
      KeySym sym = (KeySym) (guchar) *c;
      KeyCode code = XKeysymToKeycode (xdisplay (), sym);
      g_assert_cmpuint (code, !=, 0);
      gboolean shift = XkbKeycodeToKeysym (xdisplay (), code, 0, 0) != sym;
      ui_key ((guint) XkbKeycodeToKeysym (xdisplay (), code, 0, 0), shift ? GDK_SHIFT_MASK : 0);
    }
}

/* ---- finding and reaching widgets ------------------------------------------------------- */

static void
find_all (GtkWidget *widget, gpointer data)
{
  GPtrArray **found = data;
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, (GType) GPOINTER_TO_SIZE (found[1])))
    g_ptr_array_add (found[0], widget);
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_all, data);
}

GPtrArray *
ui_find_all (GtkWidget *widget, GType type)
{
  GPtrArray *found[2] = { g_ptr_array_new (), GSIZE_TO_POINTER ((gsize) type) };
  find_all (widget, found);
  return found[0];
}

void
ui_focus_window (GtkWidget *widget)
{
  GdkWindow *gdk_window = gtk_widget_get_window (gtk_widget_get_toplevel (widget));
  g_assert_true (GDK_IS_X11_WINDOW (gdk_window));
  XSetInputFocus (xdisplay (), GDK_WINDOW_XID (gdk_window), RevertToParent, CurrentTime);
  sync_input ();
  ui_wait_ms (100);
}

void
ui_scroll_into_view (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scrolled);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  for (int turn = 0; turn < 100; turn++)
    {
      int x, y;
      g_assert_true (gtk_widget_translate_coordinates (widget, scrolled, 0, 0, &x, &y));
      int height = gtk_widget_get_allocated_height (scrolled);
      int below = y + gtk_widget_get_allocated_height (widget) - height;
      if (y >= 0 && below <= 0)
        return;
      guint button = y < 0 ? 4 : 5; /* X's wheel: 4 up, 5 down */
      /* As a hand spins the wheel: several notches at once while the widget is far, GTK moving
       * a page's 2/3 power of pixels a notch; one at a time when near. */
      double notch = pow (MAX (gtk_adjustment_get_page_size (adjustment), 1.0), 2.0 / 3.0);
      int notches = CLAMP ((int) ((y < 0 ? -y : below) / notch), 1, 8);
      /* At its right edge, over its scrollbar: not over a slider, which the wheel would move,
       * nor the left edge, where a pane's handle may take the pointer. */
      ui_pointer_move (scrolled, gtk_widget_get_allocated_width (scrolled) - 2, height / 2.0);
      double start = gtk_adjustment_get_value (adjustment);
      for (int i = 0; i < notches; i++)
        {
          XTestFakeButtonEvent (xdisplay (), button, True, CurrentTime);
          XTestFakeButtonEvent (xdisplay (), button, False, CurrentTime);
        }
      sync_input ();
      /* The scroll may be animated (the tests turn animations off, a desktop may not): wait
       * until it has moved and then stood still for 60 ms. */
      double last = start;
      int still = 0;
      gint64 deadline = g_get_monotonic_time () + 400 * 1000;
      while (g_get_monotonic_time () < deadline && !(last != start && still >= 3))
        {
          ui_wait_ms (20);
          double now = gtk_adjustment_get_value (adjustment);
          still = now == last ? still + 1 : 0;
          last = now;
        }
    }
  g_assert_not_reached ();
}

GtkWidget *
ui_find_named_within (GtkWidget *widget, const char *name)
{
  g_autoptr (GPtrArray) all = ui_find_all (widget, GTK_TYPE_WIDGET);
  for (guint i = 0; i < all->len; i++)
    if (g_strcmp0 (gtk_widget_get_name (all->pdata[i]), name) == 0)
      return all->pdata[i];
  return NULL;
}

void
ui_click_middle (GtkWidget *widget)
{
  ui_click (widget, gtk_widget_get_allocated_width (widget) / 2.0, gtk_widget_get_allocated_height (widget) / 2.0);
}

GtkWidget *
ui_button_labelled (GtkWidget *root, const char *label)
{
  g_autoptr (GPtrArray) buttons = ui_find_all (root, GTK_TYPE_BUTTON);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (buttons->pdata[i]), label) == 0 && gtk_widget_is_visible (buttons->pdata[i]))
      return buttons->pdata[i];
  return NULL;
}

typedef struct {
  UiChooserAnswer answer;
  gpointer data;
  gboolean answered;
} ChooserWatch;

static gboolean
chooser_watch_tick (gpointer user_data)
{
  ChooserWatch *w = user_data;
  if (w->answered)
    return G_SOURCE_CONTINUE;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_mapped (l->data))
      {
        /* Mapped is not yet drawn and placed: input sent now could land before the fields. */
        ui_wait_ms (200);
        w->answered = TRUE; /* before ANSWER: its clicks run this loop again */
        w->answer (l->data, w->data);
        break;
      }
  return G_SOURCE_CONTINUE;
}

void
ui_answer_chooser (void (*open) (gpointer open_data), gpointer open_data, UiChooserAnswer answer, gpointer data)
{
  ChooserWatch w = { answer, data, FALSE };
  guint source = g_timeout_add (50, chooser_watch_tick, &w);
  open (open_data);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!w.answered && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  g_source_remove (source);
  g_assert_true (w.answered);
}

void
ui_press_export (gpointer unused)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_key (GDK_KEY_e, GDK_CONTROL_MASK);
}

void
ui_await_file (const char *path)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  while (!g_file_test (path, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    ui_wait_ms (50);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  ui_wait_ms (300);
}

/* The item of the recent menu MENU that names NAME, once shown. */
static GtkWidget *
recent_item (GtkWidget *menu, const char *name)
{
  g_autoptr (GList) items = gtk_container_get_children (GTK_CONTAINER (menu));
  for (GList *l = items; l; l = l->next)
    if (GTK_IS_MENU_ITEM (l->data) && gtk_widget_get_mapped (l->data) && gtk_menu_item_get_label (l->data)
        && strstr (gtk_menu_item_get_label (l->data), name))
      return l->data;
  return NULL;
}

static void
on_recent_changed (GtkRecentManager *manager, gboolean *changed)
{
  *changed = TRUE;
}

void
ui_open_photo (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  guint64 generation = lm_window_get_generation (ui_window);
  lm_window_open (ui_window, file);
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
  while (lm_window_get_generation (ui_window) == generation && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  ui_settle_tracked ();
}

void
ui_open_recent (const char *path)
{
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  GtkRecentData data = { .mime_type = (char *) "image/jpeg", .app_name = (char *) "lumen",
                         .app_exec = (char *) "lumen %u" };
  /* The menu is filled again when the manager says it changed, a moment after the item is
   * added: an item clicked before could be another by then. */
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  gboolean changed = FALSE;
  gulong handler = g_signal_connect (manager, "changed", G_CALLBACK (on_recent_changed), &changed);
  g_assert_true (gtk_recent_manager_add_full (manager, uri, &data));
  for (int turn = 0; turn < 250 && !changed; turn++)
    ui_wait_ms (20);
  g_signal_handler_disconnect (manager, handler);
  g_assert_true (changed);
  ui_wait_ms (50);
  g_autofree char *name = g_path_get_basename (path);
  GtkWidget *button = NULL, *menu = NULL;
  g_autoptr (GPtrArray) buttons = ui_find_all (gtk_window_get_titlebar (GTK_WINDOW (ui_window)), GTK_TYPE_MENU_BUTTON);
  for (guint i = 0; i < buttons->len && menu == NULL; i++)
    {
      GtkMenu *popup = gtk_menu_button_get_popup (g_ptr_array_index (buttons, i));
      if (popup && GTK_IS_RECENT_CHOOSER (popup))
        button = g_ptr_array_index (buttons, i), menu = GTK_WIDGET (popup);
    }
  g_assert_nonnull (menu);
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_click_middle (button);
  /* The menu fills itself in steps, and is laid out again after each: the item is clicked
   * once the menu has stopped changing. */
  GtkWidget *item = NULL;
  guint items = 0, stable = 0;
  for (int turn = 0; turn < 200 && (item == NULL || stable < 4); turn++)
    {
      ui_wait_ms (50);
      g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (menu));
      stable = g_list_length (children) == items ? stable + 1 : 0;
      items = g_list_length (children);
      item = recent_item (menu, name);
    }
  g_assert_nonnull (item);
  ui_click_middle (item);
}

void
ui_await_exposures (GtkWidget *dialog)
{
  const char *reading = _("Reading the exposures…");
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_strcmp0 (lm_hdr_dialog_get_hint (LM_HDR_DIALOG (dialog)), reading) == 0
         && g_get_monotonic_time () < deadline)
    ui_wait_ms (20);
  g_assert_cmpstr (lm_hdr_dialog_get_hint (LM_HDR_DIALOG (dialog)), !=, reading);
}

void
ui_key_on_view (guint keyval)
{
  GtkWidget *view = GTK_WIDGET (ui_image_view ());
  if (!gtk_widget_has_focus (view))
    {
      gtk_widget_grab_focus (view);
      ui_flush ();
    }
  guint64 generation = lm_window_get_generation (ui_window);
  ui_key (keyval, 0);
  if (lm_window_get_generation (ui_window) != generation)
    ui_settle_tracked ();
  /* A tool's bar may change the view's height, and with it the zoom that fits: on a loaded
   * machine that layout came after a test had placed its drag. */
  ui_wait_ms (150);
  ui_flush ();
}

GtkWidget *
ui_await_apply_outcome (void)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < deadline)
    {
      g_autoptr (GList) toplevels = gtk_window_list_toplevels ();
      for (GList *l = toplevels; l; l = l->next)
        if (GTK_IS_DIALOG (l->data) && gtk_widget_get_visible (l->data))
          {
            GtkWidget *close = gtk_dialog_get_widget_for_response (l->data, GTK_RESPONSE_CLOSE);
            if (close && gtk_widget_get_visible (close))
              return l->data;
          }
      ui_wait_ms (50);
    }
  return NULL;
}

gboolean
ui_make_locale (const char *name, const char *dir, char **error)
{
  g_autofree char *utf8 = g_strdup_printf ("%s.UTF-8", name);
  gboolean ok = setlocale (LC_ALL, utf8) != NULL;
  if (!ok)
    {
      g_autofree char *target = g_build_filename (dir, utf8, NULL);
      const char *argv[] = { "localedef", "-i", name, "-f", "UTF-8", target, NULL };
      g_autofree char *err = NULL;
      int status = -1;
      gboolean made = g_file_test (target, G_FILE_TEST_IS_DIR)
                      || (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                                        NULL, NULL, NULL, &err, &status, NULL)
                          && g_spawn_check_wait_status (status, NULL));
      g_setenv ("LOCPATH", dir, TRUE);
      ok = made && setlocale (LC_ALL, utf8) != NULL;
      if (!ok)
        {
          g_unsetenv ("LOCPATH");
          if (error)
            *error = g_strdup_printf ("no %s locale (localedef: %s)", utf8,
                                      err && *err ? g_strstrip (err) : made ? "made, not usable" : "failed");
        }
    }
  setlocale (LC_ALL, "C");
  return ok;
}

void
ui_chooser_type_name (const char *name)
{
  ui_key (GDK_KEY_a, GDK_CONTROL_MASK);
  ui_type (name);
}

void
ui_chooser_press_export (GtkWidget *dialog)
{
  GtkWidget *export = ui_button_labelled (dialog, _("_Export"));
  g_assert_nonnull (export);
  ui_click_middle (export);
}

void
ui_export_as (GtkWidget *dialog, gpointer name)
{
  ui_focus_window (dialog);
  ui_chooser_type_name (name);
  ui_chooser_press_export (dialog);
}

LmPipeline
ui_read_sidecar (const char *sidecar)
{
  LmPipeline p;
  lm_pipeline_init (&p);
  GError *e = NULL;
  g_assert_true (lm_pipeline_load_sidecar (&p, sidecar, &e));
  g_assert_no_error (e);
  return p;
}
