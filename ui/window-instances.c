/* The window's panels, one per instance of its pipeline, and their instance menus
 * (window-instances.h). The panels live in a box of their own under the tone mapping's, each
 * after a separator, in the pipeline's order; a panel is known by its instance's id, so that
 * an edit of the list (a duplicate, an undo) keeps the panels of the instances it keeps: a
 * slider held or a field being typed in is not pulled away under the person's hand. */
#include "window-instances.h"
#include "window-private.h"
#include "window-selection.h"
#include "window-status.h"
#include "tool-mask.h"

#include <string.h>
#include <glib/gi18n.h>

#define SEPARATOR_KEY "lumen-separator"

GPtrArray *
lm_window_instance_panels (LmWindow *self)
{
  return self->panels;
}

static guint32
id_of (LmOpPanel *panel)
{
  return lm_op_panel_get_stage (panel)->id;
}

LmOpPanel *
lm_window_instance_panel (LmWindow *self, guint32 id)
{
  for (guint i = 0; self->panels && i < self->panels->len; i++)
    if (id_of (self->panels->pdata[i]) == id)
      return self->panels->pdata[i];
  return NULL;
}

LmOpPanel *
lm_window_primary_panel (LmWindow *self, LmOpId op)
{
  return lm_window_instance_panel (self, LM_PRIMARY_ID (op));
}

/* Geometry is once each and first, the export's resize last: neither is duplicated, moved or
 * masked (lm_pipeline_check). */
static gboolean
is_plain (const LmStage *stage)
{
  LmOpKind kind = lm_op_kind (stage->info->id);
  return kind != LM_KIND_GEOMETRY && kind != LM_KIND_EXPORT;
}

/* ---- selection --------------------------------------------------------------------------- */

static void
mark_selected (LmWindow *self)
{
  guint32 id = lm_window_selected_instance (self);
  for (guint i = 0; i < self->panels->len; i++)
    {
      GtkStyleContext *style = gtk_widget_get_style_context (self->panels->pdata[i]);
      if (id_of (self->panels->pdata[i]) == id)
        gtk_style_context_add_class (style, "selected");
      else
        gtk_style_context_remove_class (style, "selected");
    }
}

void
lm_window_instances_select (LmWindow *self, guint32 id)
{
  if (id == lm_window_selected_instance (self))
    return;
  lm_window_select_instance (self, id);
  mark_selected (self);
}

/* The keyboard's focus went into PANEL (a Tab, a click on a slider or a field): the person
 * works on it. */
static void
on_focus_child (GtkContainer *panel, GtkWidget *child, LmWindow *self)
{
  if (child)
    lm_window_instances_select (self, id_of (LM_OP_PANEL (panel)));
}

/* ---- the menu ---------------------------------------------------------------------------- */

static void
append (GMenu *menu, const char *label, const char *action, guint32 id)
{
  g_autoptr (GMenuItem) item = g_menu_item_new (label, NULL);
  g_menu_item_set_action_and_target_value (item, action, g_variant_new_uint32 (id));
  g_menu_append_item (menu, item);
}

static GMenuModel *
instance_menu (guint32 id)
{
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) edit = g_menu_new ();
  append (edit, _("Duplicate"), "win.instance-duplicate", id);
  append (edit, _("Rename…"), "win.instance-rename", id);
  append (edit, _("Move Up"), "win.instance-move-up", id);
  append (edit, _("Move Down"), "win.instance-move-down", id);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (edit));

  g_autoptr (GMenu) mask = g_menu_new ();
  g_autoptr (GMenu) draw = g_menu_new ();
  append (draw, _("Brush"), "win.mask-brush", id);
  append (draw, _("Linear Gradient"), "win.mask-linear", id);
  append (draw, _("Radial Gradient"), "win.mask-radial", id);
  g_menu_append_section (mask, NULL, G_MENU_MODEL (draw));
  g_autoptr (GMenu) whole = g_menu_new ();
  g_menu_append (whole, _("Show Mask"), "win.show-mask");
  append (whole, _("Invert Mask"), "win.mask-invert", id);
  append (whole, _("Remove Mask"), "win.mask-remove", id);
  g_menu_append_section (mask, NULL, G_MENU_MODEL (whole));
  g_autoptr (GMenu) last = g_menu_new ();
  g_menu_append_submenu (last, _("Mask"), G_MENU_MODEL (mask));
  append (last, _("Remove"), "win.instance-remove", id);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (last));
  return G_MENU_MODEL (menu);
}

static void
set_enabled (LmWindow *self, const char *name, gboolean enabled)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), name);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), enabled);
}

static const char *const targeted[] = { "instance-duplicate", "instance-rename", "instance-move-up",
                                        "instance-move-down", "instance-remove", "mask-brush",
                                        "mask-linear", "mask-radial", "mask-invert", "mask-remove" };

/* The menu of instance ID open: what cannot be done to it greyed. Actions are the window's,
 * one for every panel, so this holds while one menu is open; they are all enabled again once
 * it closes (their handlers check the instance anyway). */
static void
on_menu_toggled (GtkToggleButton *button, LmWindow *self)
{
  guint32 id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "lumen-instance"));
  const LmPipeline *p = &self->pipeline;
  int k = lm_pipeline_find (p, id);
  if (!gtk_toggle_button_get_active (button) || k < 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (targeted); i++)
        set_enabled (self, targeted[i], TRUE);
      return;
    }
  lm_window_instances_select (self, id);
  const LmStage *s = &p->inst[k];
  gboolean plain = is_plain (s);
  gboolean masked = s->mask >= 0;
  set_enabled (self, "instance-duplicate", plain);
  set_enabled (self, "instance-rename", TRUE);
  set_enabled (self, "instance-move-up", plain && k > 0 && is_plain (&p->inst[k - 1]));
  set_enabled (self, "instance-move-down", plain && k + 1 < (int) p->n && is_plain (&p->inst[k + 1]));
  set_enabled (self, "instance-remove", TRUE);
  set_enabled (self, "mask-brush", plain);
  set_enabled (self, "mask-linear", plain);
  set_enabled (self, "mask-radial", plain);
  set_enabled (self, "mask-invert", plain && masked);
  set_enabled (self, "mask-remove", masked);
}

static char *
menu_name (const LmStage *stage)
{
  return g_strdup_printf (_("Instance menu of %s"), stage->name[0] ? stage->name : _(stage->info->label));
}

/* ---- the panels -------------------------------------------------------------------------- */

static LmOpPanel *
new_panel (LmWindow *self, const LmStage *stage)
{
  LmOpPanel *panel = LM_OP_PANEL (lm_op_panel_new (stage->info));
  lm_op_panel_set_stage (panel, stage); /* its id, before anything asks for it */
  g_signal_connect (panel, "changed", G_CALLBACK (lm_window_on_panel_changed), self);
  g_signal_connect (panel, "committed", G_CALLBACK (lm_window_on_panel_committed), self);
  g_signal_connect (panel, "set-focus-child", G_CALLBACK (on_focus_child), self);
  g_autoptr (GMenuModel) menu = instance_menu (stage->id);
  g_autofree char *name = menu_name (stage);
  lm_op_panel_set_menu (panel, menu, name);
  GtkWidget *button = lm_op_panel_get_menu_button (panel);
  g_object_set_data (G_OBJECT (button), "lumen-instance", GUINT_TO_POINTER (stage->id));
  g_signal_connect (button, "toggled", G_CALLBACK (on_menu_toggled), self);
  GtkWidget *separator = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
  g_object_set_data (G_OBJECT (panel), SEPARATOR_KEY, separator);
  gtk_box_pack_start (self->instances_box, separator, FALSE, FALSE, 0);
  gtk_box_pack_start (self->instances_box, GTK_WIDGET (panel), FALSE, FALSE, 0);
  gtk_widget_show (separator);
  gtk_widget_show_all (GTK_WIDGET (panel));
  return panel;
}

static gboolean
destroy_later (gpointer widget)
{
  gtk_widget_destroy (widget);
  return G_SOURCE_REMOVE;
}

/* PANEL's instance is gone. Hidden now and destroyed from the main loop: its own menu may be
 * what removed it, and the menu's popover is still being closed. */
static void
drop_panel (LmOpPanel *panel)
{
  g_signal_handlers_disconnect_matched (panel, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, lm_window_on_panel_changed, NULL);
  g_signal_handlers_disconnect_matched (panel, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, lm_window_on_panel_committed, NULL);
  g_signal_handlers_disconnect_matched (panel, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, on_focus_child, NULL);
  GtkWidget *parts[] = { g_object_get_data (G_OBJECT (panel), SEPARATOR_KEY), GTK_WIDGET (panel) };
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      gtk_widget_hide (parts[i]);
      g_idle_add_full (G_PRIORITY_HIGH_IDLE, destroy_later, g_object_ref (parts[i]), g_object_unref);
    }
}

void
lm_window_instances_sync (LmWindow *self)
{
  const LmPipeline *p = &self->pipeline;
  /* Scene-side instances of a raw or a merge see scene light: their luminance is in EV. */
  gboolean scene = self->source && (lm_image_is_raw (self->source) || self->source->format == LM_FORMAT_RGBA_F32);
  g_autoptr (GPtrArray) old = self->panels;
  self->panels = g_ptr_array_new ();
  for (guint i = 0; i < p->n; i++)
    {
      const LmStage *stage = &p->inst[i];
      if (lm_op_kind (stage->info->id) == LM_KIND_EXPORT)
        continue; /* the view never runs it: the export dialog sets it (export-options.c) */
      LmOpPanel *panel = NULL;
      for (guint j = 0; old && j < old->len && panel == NULL; j++)
        if (id_of (old->pdata[j]) == stage->id && lm_op_panel_get_stage (old->pdata[j])->info == stage->info)
          panel = g_ptr_array_steal_index (old, j);
      if (panel == NULL)
        panel = new_panel (self, stage);
      guint at = self->panels->len;
      g_ptr_array_add (self->panels, panel);
      lm_op_panel_set_stage (panel, stage);
      lm_op_panel_set_mask (panel, lm_pipeline_stage_mask (p, stage), scene && stage->info->on_scene);
      g_autofree char *name = menu_name (stage);
      lm_op_panel_set_menu_name (panel, name);
      gtk_box_reorder_child (self->instances_box, g_object_get_data (G_OBJECT (panel), SEPARATOR_KEY), (int) (2 * at));
      gtk_box_reorder_child (self->instances_box, GTK_WIDGET (panel), (int) (2 * at + 1));
    }
  for (guint j = 0; old && j < old->len; j++)
    drop_panel (old->pdata[j]);
  /* The person's selection stays on its instance while it is there. */
  mark_selected (self);
}

/* ---- the actions ------------------------------------------------------------------------- */

/* The instance PARAM names, its index in *INDEX; FALSE where it is gone. */
static gboolean
find (LmWindow *self, GVariant *param, int *index)
{
  *index = lm_pipeline_find (&self->pipeline, g_variant_get_uint32 (param));
  return *index >= 0;
}

/* EDITED becomes the window's pipeline: one undo step, shown, rendered and saved as every
 * edit is; SELECT (an instance's id, or 0) selected. */
static void
take (LmWindow *self, const LmPipeline *edited, guint32 select)
{
  self->pipeline = *edited;
  lm_window_show_pipeline (self);
  lm_window_commit (self);
  if (select)
    lm_window_instances_select (self, select);
}

/* The core's refusal (WHY) of an edit of STAGE, said in the info bar: FORMAT takes the
 * instance's name, then WHY. */
static void
refuse (LmWindow *self, const char *format, const LmStage *stage, const char *why)
{
  g_autofree char *message = g_strdup_printf (format, stage->name[0] ? stage->name : _(stage->info->label), why);
  lm_window_show_message (self, GTK_MESSAGE_ERROR, message);
}

/* Quick edits gathered so far are an undo step of their own, before the one that comes; the
 * pipeline then copied for the edit. */
static void
begin (LmWindow *self, LmPipeline *edited)
{
  lm_window_commit (self);
  *edited = self->pipeline;
}

static void
duplicate_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  int k, at;
  if (!find (self, param, &k))
    return;
  LmPipeline edited;
  begin (self, &edited);
  g_autoptr (GError) e = NULL;
  if (!is_plain (&edited.inst[k]))
    refuse (self, _("%s cannot be duplicated: %s"), &edited.inst[k],
            _("geometry and the export’s resize come once each"));
  else if (!lm_pipeline_duplicate (&edited, (guint) k, &at, &e))
    refuse (self, _("%s cannot be duplicated: %s"), &edited.inst[k], e->message);
  else
    take (self, &edited, edited.inst[at].id);
}

static void
move_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  int k;
  if (!find (self, param, &k))
    return;
  int delta = g_str_equal (g_action_get_name (G_ACTION (action)), "instance-move-up") ? -1 : 1;
  LmPipeline edited;
  begin (self, &edited);
  g_autoptr (GError) e = NULL;
  if (!lm_pipeline_move (&edited, (guint) k, delta, &e))
    lm_window_show_message (self, GTK_MESSAGE_ERROR, e->message); /* it names the operation */
  else
    take (self, &edited, edited.inst[k + delta].id);
}

static void
remove_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  int k;
  if (!find (self, param, &k))
    return;
  LmPipeline edited;
  begin (self, &edited);
  lm_pipeline_remove (&edited, (guint) k);
  take (self, &edited, 0);
}

/* ---- renaming: a small popover with the name, under the menu's button --------------------- */

static void
on_name_activate (GtkEntry *entry, LmWindow *self)
{
  guint32 id = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (entry), "lumen-instance"));
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (entry), GTK_TYPE_POPOVER);
  int k = lm_pipeline_find (&self->pipeline, id);
  if (k >= 0)
    {
      LmPipeline edited;
      begin (self, &edited);
      g_autoptr (GError) e = NULL;
      g_autofree char *name = g_strstrip (g_strdup (gtk_entry_get_text (entry)));
      if (!lm_pipeline_rename (&edited, (guint) k, name, &e))
        refuse (self, _("%s cannot be renamed: %s"), &edited.inst[k], e->message);
      else
        take (self, &edited, id);
    }
  gtk_popover_popdown (GTK_POPOVER (popover));
}

static gboolean
on_name_key (GtkWidget *entry, GdkEventKey *event, gpointer data)
{
  if (event->keyval != GDK_KEY_Escape)
    return GDK_EVENT_PROPAGATE;
  gtk_popover_popdown (GTK_POPOVER (gtk_widget_get_ancestor (entry, GTK_TYPE_POPOVER)));
  return GDK_EVENT_STOP;
}

static void
on_rename_closed (GtkPopover *popover, gpointer data)
{
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, destroy_later, g_object_ref (popover), g_object_unref);
}

typedef struct {
  LmWindow *self;
  guint32 id;
} Rename;

static void
rename_free (Rename *r)
{
  g_object_unref (r->self);
  g_free (r);
}

/* From an idle callback: the menu's popover, which asked for it, is closed first and would
 * otherwise take the keyboard back from the name. */
static gboolean
open_rename (gpointer data)
{
  Rename *r = data;
  LmOpPanel *panel = lm_window_instance_panel (r->self, r->id);
  int k = lm_pipeline_find (&r->self->pipeline, r->id);
  if (panel == NULL || k < 0 || !gtk_widget_get_mapped (GTK_WIDGET (panel)))
    return G_SOURCE_REMOVE;
  const LmStage *stage = &r->self->pipeline.inst[k];
  GtkWidget *popover = gtk_popover_new (lm_op_panel_get_menu_button (panel));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_container_set_border_width (GTK_CONTAINER (box), 6);
  GtkWidget *label = gtk_label_new_with_mnemonic (_("_Name"));
  GtkWidget *entry = gtk_entry_new ();
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), entry);
  gtk_widget_set_name (entry, "instance-name");
  gtk_entry_set_max_length (GTK_ENTRY (entry), sizeof stage->name - 1);
  gtk_entry_set_text (GTK_ENTRY (entry), stage->name[0] ? stage->name : _(stage->info->label));
  gtk_entry_set_activates_default (GTK_ENTRY (entry), FALSE);
  gtk_widget_set_tooltip_text (entry, _("Enter renames, Escape leaves the name as it was"));
  g_object_set_data (G_OBJECT (entry), "lumen-instance", GUINT_TO_POINTER (r->id));
  g_signal_connect (entry, "activate", G_CALLBACK (on_name_activate), r->self);
  g_signal_connect (entry, "key-press-event", G_CALLBACK (on_name_key), NULL);
  g_signal_connect (popover, "closed", G_CALLBACK (on_rename_closed), NULL);
  gtk_container_add (GTK_CONTAINER (box), label);
  gtk_container_add (GTK_CONTAINER (box), entry);
  gtk_container_add (GTK_CONTAINER (popover), box);
  gtk_widget_show_all (box);
  gtk_popover_popup (GTK_POPOVER (popover));
  gtk_widget_grab_focus (entry);
  return G_SOURCE_REMOVE;
}

static void
rename_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  int k;
  if (!find (self, param, &k))
    return;
  lm_window_instances_select (self, self->pipeline.inst[k].id);
  Rename *r = g_new (Rename, 1);
  r->self = g_object_ref (self);
  r->id = self->pipeline.inst[k].id;
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, open_rename, r, (GDestroyNotify) rename_free);
}

/* ---- masks ------------------------------------------------------------------------------- */

/* Mask ▸ Brush, Linear Gradient, Radial Gradient: the instance gets a mask where it has none
 * (no shapes: all on, so that the photo looks as before; one undo step), then the mask tool
 * of that kind starts on it (tool-mask.h). */
static void
mask_tool_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  int k;
  if (!find (self, param, &k))
    return;
  const char *name = g_action_get_name (G_ACTION (action));
  int kind = g_str_equal (name, "mask-brush")    ? LM_MASK_BRUSH
             : g_str_equal (name, "mask-linear") ? LM_MASK_LINEAR
                                                 : LM_MASK_RADIAL;
  guint32 id = self->pipeline.inst[k].id;
  if (!is_plain (&self->pipeline.inst[k]))
    {
      refuse (self, _("%s cannot have a mask: %s"), &self->pipeline.inst[k],
              _("geometry and the export’s resize take none"));
      return;
    }
  if (self->pipeline.inst[k].mask < 0)
    {
      LmPipeline edited;
      begin (self, &edited);
      LmMask mask;
      memset (&mask, 0, sizeof mask); /* masks are compared by their bytes, padding included */
      mask.opacity = 1.0f;
      g_autoptr (GError) e = NULL;
      if (!lm_pipeline_mask_attach (&edited, (guint) k, &mask, &e))
        {
          refuse (self, _("%s cannot have a mask: %s"), &edited.inst[k], e->message);
          return;
        }
      take (self, &edited, id);
    }
  lm_window_instances_select (self, id);
  lm_tool_mask_start (self, id, kind);
}

static void
mask_invert_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  int k;
  if (!find (self, param, &k) || self->pipeline.inst[k].mask < 0)
    return;
  LmPipeline edited;
  begin (self, &edited);
  LmMask *mask = &edited.masks[edited.inst[k].mask];
  mask->invert = !mask->invert;
  take (self, &edited, edited.inst[k].id);
}

static void
mask_remove_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  LmWindow *self = data;
  int k;
  if (!find (self, param, &k) || self->pipeline.inst[k].mask < 0)
    return;
  LmPipeline edited;
  begin (self, &edited);
  lm_pipeline_mask_detach (&edited, (guint) k);
  take (self, &edited, edited.inst[k].id);
}

/* The overlay (tool-mask.c) reads the state at each render. */
static void
show_mask_changed (GSimpleAction *action, GVariant *state, gpointer data)
{
  g_simple_action_set_state (action, state);
  lm_window_request_render (data);
}

gboolean
lm_window_instances_show_mask (LmWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "show-mask");
  g_autoptr (GVariant) state = action ? g_action_get_state (action) : NULL;
  return state && g_variant_get_boolean (state);
}

static const GActionEntry entries[] = {
  { "instance-duplicate", duplicate_action, "u" },
  { "instance-rename", rename_action, "u" },
  { "instance-move-up", move_action, "u" },
  { "instance-move-down", move_action, "u" },
  { "instance-remove", remove_action, "u" },
  { "mask-brush", mask_tool_action, "u" },
  { "mask-linear", mask_tool_action, "u" },
  { "mask-radial", mask_tool_action, "u" },
  { "mask-invert", mask_invert_action, "u" },
  { "mask-remove", mask_remove_action, "u" },
  { "show-mask", NULL, NULL, "false", show_mask_changed },
};

void
lm_window_instances_init (LmWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  self->instances_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, gtk_box_get_spacing (self->side_panel)));
  gtk_box_pack_start (self->side_panel, GTK_WIDGET (self->instances_box), FALSE, FALSE, 0);
  gtk_widget_show (GTK_WIDGET (self->instances_box));
  lm_window_instances_sync (self);
}

void
lm_window_instances_free (LmWindow *self)
{
  g_clear_pointer (&self->panels, g_ptr_array_unref);
}
