/* LmOpPanel (op-panel.h). Emits "changed" on every edit, and "committed" when an edit is
 * complete (a slider released, a choice made, the switch flipped, reset): the window makes
 * one undo step of everything since the last commit. */
#include "op-panel.h"

#include <string.h>
#include <glib/gi18n.h>

struct _LmOpPanel {
  GtkBox parent_instance;
  const LmOpInfo *op;
  LmStage stage;
  GtkWidget *enabled;
  GtkWidget **controls; /* one per parameter */
  GtkWidget **rows;     /* label + control, for parameters used only sometimes */
  gboolean updating;    /* set_stage at work: no signals */
  gboolean switchable;  /* FALSE: always on, no switch (tone mapping of radiance) */
};

G_DEFINE_FINAL_TYPE (LmOpPanel, lm_op_panel, GTK_TYPE_BOX)

enum { CHANGED, COMMITTED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* lm_op_param_active, where "when" may also list alternatives: "kind=gamma|reinhard". */
static gboolean
param_active (const LmOpInfo *op, const LmParamSpec *spec, const void *params)
{
  if (spec->when == NULL || strchr (spec->when, '|') == NULL)
    return lm_op_param_active (op, spec, params);
  g_auto (GStrv) kv = g_strsplit (spec->when, "=", 2);
  g_auto (GStrv) values = g_strsplit (kv[1] ? kv[1] : "", "|", -1);
  for (int v = 0; values[v]; v++)
    {
      g_autofree char *when = g_strdup_printf ("%s=%s", kv[0], values[v]);
      LmParamSpec one = *spec;
      one.when = when;
      if (lm_op_param_active (op, &one, params))
        return TRUE;
    }
  return FALSE;
}

static void
update_sensitivity (LmOpPanel *self)
{
  for (guint i = 0; i < self->op->n_params; i++)
    gtk_widget_set_sensitive (self->rows[i], param_active (self->op, &self->op->params[i],
                                                           self->stage.params.bytes));
}

static void
emit (LmOpPanel *self, gboolean commit)
{
  if (self->updating)
    return;
  update_sensitivity (self);
  g_signal_emit (self, signals[CHANGED], 0);
  if (commit)
    g_signal_emit (self, signals[COMMITTED], 0);
}

static guint
index_of (LmOpPanel *self, GtkWidget *control)
{
  for (guint i = 0; i < self->op->n_params; i++)
    if (self->controls[i] == control)
      return i;
  g_return_val_if_reached (0);
}

static void
on_switch (GObject *sw, GParamSpec *pspec, LmOpPanel *self)
{
  self->stage.enabled = gtk_switch_get_active (GTK_SWITCH (sw));
  emit (self, TRUE);
}

/* Moving a parameter switches the operation on: what the user touches takes effect. */
static void
enable_on_edit (LmOpPanel *self)
{
  if (!self->stage.enabled && !self->updating)
    {
      self->updating = TRUE;
      gtk_switch_set_active (GTK_SWITCH (self->enabled), TRUE);
      self->updating = FALSE;
      self->stage.enabled = TRUE;
    }
}

static void
on_scale (GtkRange *range, LmOpPanel *self)
{
  const LmParamSpec *spec = &self->op->params[index_of (self, GTK_WIDGET (range))];
  *(float *) (self->stage.params.bytes + spec->offset) = (float) gtk_range_get_value (range);
  enable_on_edit (self);
  emit (self, FALSE);
}

static gboolean
on_scale_released (GtkWidget *widget, GdkEvent *event, LmOpPanel *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
  return GDK_EVENT_PROPAGATE;
}

static void
on_combo (GtkComboBox *combo, LmOpPanel *self)
{
  const LmParamSpec *spec = &self->op->params[index_of (self, GTK_WIDGET (combo))];
  *(int *) (self->stage.params.bytes + spec->offset) = gtk_combo_box_get_active (combo);
  enable_on_edit (self);
  emit (self, TRUE);
}

static void
on_reset (GtkButton *button, LmOpPanel *self)
{
  LmStage stage = self->stage;
  lm_op_params_init (self->op, stage.params.bytes);
  stage.enabled = !self->switchable;
  lm_op_panel_set_stage (self, &stage);
  g_signal_emit (self, signals[CHANGED], 0);
  g_signal_emit (self, signals[COMMITTED], 0);
}

static GtkWidget *
make_control (LmOpPanel *self, const LmParamSpec *spec)
{
  if (spec->type == LM_PARAM_ENUM)
    {
      GtkWidget *combo = gtk_combo_box_text_new ();
      for (int v = 0; spec->values[v].nick; v++)
        gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (combo), spec->values[v].nick,
                                   _(spec->values[v].label));
      g_signal_connect (combo, "changed", G_CALLBACK (on_combo), self);
      return combo;
    }
  double range = spec->max - spec->min;
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, spec->min, spec->max,
                                               range > 10 ? 0.1 : 0.01);
  gtk_scale_set_digits (GTK_SCALE (scale), range > 10 ? 1 : 2);
  gtk_scale_set_value_pos (GTK_SCALE (scale), GTK_POS_RIGHT);
  gtk_widget_set_hexpand (scale, TRUE);
  g_signal_connect (scale, "value-changed", G_CALLBACK (on_scale), self);
  g_signal_connect (scale, "button-release-event", G_CALLBACK (on_scale_released), self);
  g_signal_connect (scale, "key-release-event", G_CALLBACK (on_scale_released), self);
  return scale;
}

static void
build (LmOpPanel *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = gtk_label_new (_(self->op->label));
  gtk_style_context_add_class (gtk_widget_get_style_context (title), "op-title");
  gtk_widget_set_halign (title, GTK_ALIGN_START);
  gtk_widget_set_hexpand (title, TRUE);
  self->enabled = gtk_switch_new ();
  gtk_widget_set_valign (self->enabled, GTK_ALIGN_CENTER);
  g_signal_connect (self->enabled, "notify::active", G_CALLBACK (on_switch), self);
  GtkWidget *reset = gtk_button_new_from_icon_name ("edit-undo-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_button_set_relief (GTK_BUTTON (reset), GTK_RELIEF_NONE);
  gtk_widget_set_tooltip_text (reset, _("Reset to the defaults"));
  g_signal_connect (reset, "clicked", G_CALLBACK (on_reset), self);
  gtk_container_add (GTK_CONTAINER (header), title);
  gtk_container_add (GTK_CONTAINER (header), reset);
  gtk_container_add (GTK_CONTAINER (header), self->enabled);
  gtk_container_add (GTK_CONTAINER (self), header);

  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  self->controls = g_new0 (GtkWidget *, self->op->n_params);
  self->rows = g_new0 (GtkWidget *, self->op->n_params);
  for (guint i = 0; i < self->op->n_params; i++)
    {
      const LmParamSpec *spec = &self->op->params[i];
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (_(spec->label));
      gtk_widget_set_halign (label, GTK_ALIGN_START);
      gtk_label_set_width_chars (GTK_LABEL (label), 9);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      self->controls[i] = make_control (self, spec);
      gtk_widget_set_name (self->controls[i], spec->name);
      gtk_container_add (GTK_CONTAINER (row), label);
      gtk_container_add (GTK_CONTAINER (row), self->controls[i]);
      gtk_widget_set_hexpand (row, TRUE);
      gtk_grid_attach (GTK_GRID (grid), row, 0, (int) i, 1, 1);
      self->rows[i] = row;
    }
  gtk_container_add (GTK_CONTAINER (self), grid);
}

static void
lm_op_panel_finalize (GObject *object)
{
  LmOpPanel *self = LM_OP_PANEL (object);
  g_free (self->controls);
  g_free (self->rows);
  G_OBJECT_CLASS (lm_op_panel_parent_class)->finalize (object);
}

static void
lm_op_panel_class_init (LmOpPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lm_op_panel_finalize;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "oppanel");
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
  signals[COMMITTED] = g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lm_op_panel_init (LmOpPanel *self)
{
  self->switchable = TRUE;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
}

GtkWidget *
lm_op_panel_new (const LmOpInfo *op)
{
  LmOpPanel *self = g_object_new (LM_TYPE_OP_PANEL, NULL);
  self->op = op;
  self->stage.info = op;
  lm_op_params_init (op, self->stage.params.bytes);
  build (self);
  lm_op_panel_set_stage (self, &self->stage);
  return GTK_WIDGET (self);
}

void
lm_op_panel_set_stage (LmOpPanel *self, const LmStage *stage)
{
  self->updating = TRUE;
  self->stage = *stage;
  gtk_switch_set_active (GTK_SWITCH (self->enabled), stage->enabled);
  for (guint i = 0; i < self->op->n_params; i++)
    {
      const LmParamSpec *spec = &self->op->params[i];
      const guint8 *field = stage->params.bytes + spec->offset;
      if (spec->type == LM_PARAM_ENUM)
        gtk_combo_box_set_active (GTK_COMBO_BOX (self->controls[i]), *(const int *) field);
      else
        gtk_range_set_value (GTK_RANGE (self->controls[i]), *(const float *) field);
    }
  self->stage = *stage; /* the widgets' rounding must not leak into the stage */
  update_sensitivity (self);
  self->updating = FALSE;
}

const LmStage *
lm_op_panel_get_stage (LmOpPanel *self)
{
  return &self->stage;
}

GtkWidget *
lm_op_panel_get_control (LmOpPanel *self, const char *name)
{
  if (g_str_equal (name, "enabled"))
    return self->enabled;
  for (guint i = 0; i < self->op->n_params; i++)
    if (g_str_equal (self->op->params[i].name, name))
      return self->controls[i];
  return NULL;
}

void
lm_op_panel_set_switchable (LmOpPanel *self, gboolean switchable)
{
  self->switchable = switchable;
  gtk_widget_set_visible (self->enabled, switchable);
  gtk_widget_set_no_show_all (self->enabled, !switchable);
}
