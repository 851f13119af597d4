/* LmCurveGroup (curve-group.h). */
#include "curve-group.h"

#include <string.h>
#include <glib/gi18n.h>

#include "curve-editor.h"

#define MAX_CURVES 8 /* curve parameters of one operation (the curve op has 4) */

struct _LmCurveGroup {
  GtkBox parent_instance;
  const LmOpInfo *op;
  guint specs[MAX_CURVES]; /* the op's curve parameters, indices into its table */
  GtkWidget *buttons[MAX_CURVES];
  LmCurvePoints curves[MAX_CURVES];
  guint n, shown;
  GtkWidget *editor;
  gboolean updating; /* the editor being given another curve: no echo */
};

G_DEFINE_FINAL_TYPE (LmCurveGroup, lm_curve_group, GTK_TYPE_BOX)

enum { CHANGED, COMMITTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static LmHistChannel
channel_of (const LmParamSpec *spec)
{
  if (g_str_equal (spec->name, "red"))
    return LM_HIST_R;
  if (g_str_equal (spec->name, "green"))
    return LM_HIST_G;
  if (g_str_equal (spec->name, "blue"))
    return LM_HIST_B;
  return LM_HIST_LUMA;
}

static void
show_curve (LmCurveGroup *self, guint k)
{
  const LmParamSpec *spec = &self->op->params[self->specs[k]];
  self->shown = k;
  self->updating = TRUE;
  lm_curve_editor_set_points (LM_CURVE_EDITOR (self->editor), &self->curves[k]);
  self->updating = FALSE;
  lm_curve_editor_set_channel (LM_CURVE_EDITOR (self->editor), channel_of (spec));
  atk_object_set_name (gtk_widget_get_accessible (self->editor), _(spec->label));
}

static void
on_button (GtkToggleButton *button, LmCurveGroup *self)
{
  if (!gtk_toggle_button_get_active (button))
    return;
  for (guint k = 0; k < self->n; k++)
    if (self->buttons[k] == GTK_WIDGET (button))
      show_curve (self, k);
}

static void
on_editor_changed (LmCurveEditor *editor, LmCurveGroup *self)
{
  if (self->updating)
    return;
  self->curves[self->shown] = *lm_curve_editor_get_points (editor);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_editor_committed (LmCurveEditor *editor, LmCurveGroup *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
}

static void
build (LmCurveGroup *self)
{
  double min = 0, max = 255;
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (row), GTK_STYLE_CLASS_LINKED);
  gtk_widget_set_halign (row, GTK_ALIGN_CENTER);
  GSList *group = NULL;
  for (guint i = 0; i < self->op->n_params && self->n < G_N_ELEMENTS (self->specs); i++)
    {
      const LmParamSpec *spec = &self->op->params[i];
      if (spec->type != LM_PARAM_CURVE)
        continue;
      if (self->n == 0)
        min = spec->min, max = spec->max;
      guint k = self->n++;
      self->specs[k] = i;
      GtkWidget *b = gtk_radio_button_new_with_label (group, _(spec->label));
      group = gtk_radio_button_get_group (GTK_RADIO_BUTTON (b));
      gtk_toggle_button_set_mode (GTK_TOGGLE_BUTTON (b), FALSE); /* a button, not a dot */
      g_autofree char *name = g_strdup_printf ("%s-channel", spec->name);
      gtk_widget_set_name (b, name);
      g_signal_connect (b, "toggled", G_CALLBACK (on_button), self);
      gtk_container_add (GTK_CONTAINER (row), b);
      self->buttons[k] = b;
    }
  /* One curve alone needs no choice: its label says what it is. */
  if (self->n == 1)
    {
      gtk_container_remove (GTK_CONTAINER (row), self->buttons[0]);
      self->buttons[0] = NULL;
      gtk_container_add (GTK_CONTAINER (row), gtk_label_new (_(self->op->params[self->specs[0]].label)));
    }
  /* The editor's help, here rather than over the curve, where it would hide it. */
  gtk_widget_set_tooltip_text (row, _("Click to add a point; drag a point to move it, out of the box or "
                                      "double-click to remove it"));
  gtk_container_add (GTK_CONTAINER (self), row);
  self->editor = lm_curve_editor_new (min, max);
  gtk_widget_set_hexpand (self->editor, TRUE);
  g_signal_connect (self->editor, "changed", G_CALLBACK (on_editor_changed), self);
  g_signal_connect (self->editor, "committed", G_CALLBACK (on_editor_committed), self);
  gtk_container_add (GTK_CONTAINER (self), self->editor);
}

static void
lm_curve_group_class_init (LmCurveGroupClass *klass)
{
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                   NULL, NULL, G_TYPE_NONE, 0);
  signals[COMMITTED] = g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                     NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lm_curve_group_init (LmCurveGroup *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 4);
}

GtkWidget *
lm_curve_group_new (const LmOpInfo *op)
{
  LmCurveGroup *self = g_object_new (LM_TYPE_CURVE_GROUP, NULL);
  self->op = op;
  build (self);
  guint8 defaults[LM_OP_PARAMS_MAX];
  lm_op_params_init (op, defaults);
  lm_curve_group_set_params (self, defaults);
  return GTK_WIDGET (self);
}

void
lm_curve_group_set_params (LmCurveGroup *self, const void *params)
{
  for (guint k = 0; k < self->n; k++)
    memcpy (&self->curves[k], (const guint8 *) params + self->op->params[self->specs[k]].offset,
            sizeof (LmCurvePoints));
  if (self->n > 0)
    show_curve (self, self->shown);
}

void
lm_curve_group_get_params (LmCurveGroup *self, void *params)
{
  for (guint k = 0; k < self->n; k++)
    memcpy ((guint8 *) params + self->op->params[self->specs[k]].offset, &self->curves[k],
            sizeof (LmCurvePoints));
}

void
lm_curve_group_set_histogram (LmCurveGroup *self, const LmHistogram *histogram)
{
  lm_curve_editor_set_histogram (LM_CURVE_EDITOR (self->editor), histogram);
}

GtkWidget *
lm_curve_group_get_editor (LmCurveGroup *self)
{
  return self->editor;
}

GtkWidget *
lm_curve_group_get_button (LmCurveGroup *self, const char *name)
{
  for (guint k = 0; k < self->n; k++)
    if (g_str_equal (self->op->params[self->specs[k]].name, name))
      return self->buttons[k];
  return NULL;
}
