/* LmApplication (application.h). Each launch is its own instance (no D-Bus uniqueness): an
 * editor of large photos gains nothing from sharing a process, and tests start it freely. */
#include "application.h"

#include <glib/gi18n.h>

#include "config.h"
#include "core/pixel-budget.h"
#include "window.h"
#include "window-folder.h"

struct _LmApplication {
  GtkApplication parent_instance;
  GSettings *settings; /* for the memory budget; NULL where the schema is not installed */
};

G_DEFINE_FINAL_TYPE (LmApplication, lm_application, GTK_TYPE_APPLICATION)

#define APP_ID "io.github.lumen.Lumen"
#define LOGO_SIZE 128

static void
about_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (data));
  const char *authors[] = { _("Lumen developers"), NULL };
  /* The app icon is in the GResource (icons/, which GtkApplication adds to the icon theme),
   * so that a run from the build tree finds it as an installed one does. Drawn here, not
   * named: a named icon that cannot be drawn (no SVG loader) shows as a broken image. */
  g_autoptr (GdkPixbuf) logo = gtk_icon_theme_load_icon (gtk_icon_theme_get_default (), APP_ID, LOGO_SIZE,
                                                         GTK_ICON_LOOKUP_FORCE_SIZE, NULL);
  GtkWidget *dialog = gtk_about_dialog_new ();
  g_object_set (dialog, "program-name", "Lumen", "version", LUMEN_VERSION,
                "comments", _("Photo editing on the GPU or the CPU, side by side"),
                "license-type", GTK_LICENSE_GPL_2_0, "authors", authors,
                "translator-credits", _("translator-credits"), NULL);
  if (logo)
    gtk_about_dialog_set_logo (GTK_ABOUT_DIALOG (dialog), logo);
  if (parent)
    {
      gtk_window_set_transient_for (GTK_WINDOW (dialog), parent);
      gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
    }
  gtk_window_set_destroy_with_parent (GTK_WINDOW (dialog), TRUE);
  g_signal_connect (dialog, "response", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (data));
  for (GList *l = g_list_copy (windows); l; l = g_list_delete_link (l, l))
    gtk_window_close (GTK_WINDOW (l->data)); /* each asks about unsaved edits */
}

static const GActionEntry app_actions[] = {
  { "about", about_action },
  { "quit", quit_action },
};

/* The memory budget of images (core/pixel-budget.h): the preference wins over
 * LUMEN_MAX_PIXELS and the machine's memory when it is set (not 0). */
static void
apply_pixel_budget (GSettings *settings, const char *key, gpointer data)
{
  lm_pixel_budget_set ((guint64) g_settings_get_uint (settings, "max-megapixels") * 1000000u);
}

static void
follow_pixel_budget (LmApplication *app)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source ? g_settings_schema_source_lookup (source, APP_ID, TRUE) : NULL;
  if (schema == NULL || !g_settings_schema_has_key (schema, "max-megapixels"))
    return;
  app->settings = g_settings_new_full (schema, NULL, NULL);
  g_signal_connect (app->settings, "changed::max-megapixels", G_CALLBACK (apply_pixel_budget), NULL);
  apply_pixel_budget (app->settings, "max-megapixels", NULL);
}

static void
lm_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (lm_application_parent_class)->startup (app);
  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  static const struct {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.open-folder", { "<Control><Shift>o", NULL } },
    { "win.export-selected", { "<Control><Shift>e", NULL } },
    { "win.undo", { "<Control>z", NULL } },
    { "win.redo", { "<Control><Shift>z", "<Control>y", NULL } },
    { "win.revert", { "<Control>r", NULL } },
    /* Shift+Ctrl+C computes on the CPU (below): copying edits takes Ctrl+Alt, and pasting
     * too, so that the two go together. */
    { "win.copy-edits", { "<Control><Alt>c", NULL } },
    { "win.paste-edits", { "<Control><Alt>v", NULL } },
    /* Not Ctrl+V: an application's accelerator comes before a focused entry's own keys, and
     * the value fields take typed (and pasted) numbers. */
    { "win.paste-selectively", { "<Control><Shift>v", NULL } },
    { "win.compare", { "<Control>d", NULL } },
    { "win.split", { "<Control>backslash", NULL } },
    { "win.zoom-in", { "<Control>plus", "<Control>equal", NULL } },
    { "win.zoom-out", { "<Control>minus", NULL } },
    { "win.zoom-fit", { "<Control>0", NULL } },
    { "win.zoom-100", { "<Control>1", NULL } },
    { "win.rotate-left", { "<Control>bracketleft", NULL } },
    { "win.rotate-right", { "<Control>bracketright", NULL } },
    { "win.flip-horizontal", { "<Control>h", NULL } },
    { "win.flip-vertical", { "<Control><Shift>h", NULL } },
    { "win.backend('cpu')", { "<Control><Shift>c", NULL } },
    { "win.backend('cuda')", { "<Control><Shift>g", NULL } },
  };
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);

  g_autoptr (GtkCssProvider) css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/lumen/Lumen/style.css");
  gtk_style_context_add_provider_for_screen (gdk_screen_get_default (), GTK_STYLE_PROVIDER (css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  gtk_window_set_default_icon_name (APP_ID);
  follow_pixel_budget (LM_APPLICATION (app));
}

static void
lm_application_activate (GApplication *app)
{
  LmWindow *window = lm_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
}

static void
lm_application_open (GApplication *app, GFile **files, int n_files, const char *hint)
{
  for (int i = 0; i < n_files; i++)
    {
      LmWindow *window = lm_window_new (GTK_APPLICATION (app));
      gtk_window_present (GTK_WINDOW (window));
      /* A folder opens as a grid of its photos. */
      if (g_file_query_file_type (files[i], G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
        lm_window_open_folder (window, files[i]);
      else
        lm_window_open (window, files[i]);
    }
}

static void
lm_application_dispose (GObject *object)
{
  g_clear_object (&LM_APPLICATION (object)->settings);
  G_OBJECT_CLASS (lm_application_parent_class)->dispose (object);
}

static void
lm_application_class_init (LmApplicationClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lm_application_dispose;
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  app_class->startup = lm_application_startup;
  app_class->activate = lm_application_activate;
  app_class->open = lm_application_open;
}

static void
lm_application_init (LmApplication *self)
{
}

LmApplication *
lm_application_new (void)
{
  return g_object_new (LM_TYPE_APPLICATION, "application-id", APP_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE, "resource-base-path",
                       "/io/github/lumen/Lumen", NULL);
}
