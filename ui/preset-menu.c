/* The Presets menu (preset-menu.h). Applying a preset appends it (LM_PASTE_APPEND): its
 * operations that are on take the place of the photo's same ones, the photo's others stay, as
 * a preset of Lightroom's or a style of darktable's in its default mode. */
#include "preset-menu.h"
#include "window-edits.h"
#include "window-private.h"
#include "window-status.h"

#include <glib/gi18n.h>

#include "core/library/presets.h"

/* The menu's section that lists the presets: window.ui's, bound in lm_window_class_init. */
static GMenu *
preset_items (LmWindow *self)
{
  GObject *items = gtk_widget_get_template_child (GTK_WIDGET (self), LM_TYPE_WINDOW, "preset_items");
  return G_IS_MENU (items) ? G_MENU (items) : NULL;
}

static void
fill_menu (LmWindow *self)
{
  GMenu *items = preset_items (self);
  if (items == NULL)
    return;
  g_menu_remove_all (items);
  g_autoptr (GPtrArray) presets = lm_presets_list (NULL);
  for (guint i = 0; presets && i < presets->len; i++)
    {
      const LmPreset *preset = g_ptr_array_index (presets, i);
      g_autoptr (GMenuItem) item = g_menu_item_new (preset->name, NULL);
      g_menu_item_set_action_and_target_value (item, "win.apply-preset", g_variant_new_string (preset->path));
      g_menu_append_item (items, item);
    }
}

void
lm_window_presets_changed (void)
{
  GApplication *app = g_application_get_default ();
  if (app == NULL || !GTK_IS_APPLICATION (app))
    return;
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (app)); l; l = l->next)
    if (LM_IS_WINDOW (l->data))
      fill_menu (l->data);
}

static void
apply_preset_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  if (self->source == NULL)
    return;
  lm_window_clear_message (self, LM_TOPIC_PASTE);
  const char *path = g_variant_get_string (param, NULL);
  LmPipeline preset;
  g_autoptr (GError) error = NULL;
  if (!lm_preset_load (path, &preset, &error) || !lm_window_paste_preset (self, &preset, LM_PASTE_APPEND, &error))
    {
      g_autofree char *message = g_strdup_printf (_("The preset cannot be applied: %s"), error->message);
      lm_window_show_message_about (self, LM_TOPIC_PASTE, GTK_MESSAGE_ERROR, message);
    }
}

static const GActionEntry actions[] = {
  { "apply-preset", apply_preset_action, "s" },
  { "save-preset", lm_window_save_preset_action },
  { "manage-presets", lm_window_manage_presets_action },
};

void
lm_window_presets_init (LmWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
  fill_menu (self);
}
