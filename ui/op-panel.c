/* LmOpPanel (op-panel.h). Emits "changed" on every edit, and "committed" when an edit is
 * complete (a slider released, a value typed, a choice made, the switch flipped, reset): the
 * window makes one undo step of everything since the last commit. */
#include "op-panel.h"

#include <math.h>
#include "core/lens/lens-db.h"
#include "curve-group.h"
#include "mask-rows.h"
#include "slider-input.h"
#include "value-field.h"
#include <string.h>
#include <glib/gi18n.h>

struct _LmOpPanel {
  GtkBox parent_instance;
  const LmOpInfo *op;
  LmStage stage;
  GtkWidget *title;     /* the operation's label, or the instance's name */
  GtkWidget *menu;      /* the instance menu (window-instances.c), hidden until it has a model */
  GtkWidget *mask_rows; /* the mask's rows (mask-rows.h) while the instance has a mask, or NULL */
  GtkWidget *enabled;
  GtkWidget **controls; /* one per parameter */
  GtkWidget **rows;     /* label + control, for parameters used only sometimes */
  /* Lengths in pixels only (see make_length_control): the slider over a position, the
   * field where the value is typed, and the value (in pixels) that both show. */
  GtkWidget **sliders;
  GtkWidget **fields;
  GtkAdjustment **values;
  gboolean syncing;     /* a length's slider and value being put in step: no echo */
  gboolean updating;    /* set_stage at work: no signals */
  gboolean switchable;  /* FALSE: always on, no switch (tone mapping of radiance) */
  gboolean held;        /* a button pressed on a slider or the curve: its release commits */
  GtkWidget *curves;    /* the LmCurveGroup of every curve parameter, or NULL */
  int edited;           /* the parameter the last edit came from, or -1 */
  LmStage before_edit;  /* the stage as it was before that edit */
};

G_DEFINE_FINAL_TYPE (LmOpPanel, lm_op_panel, GTK_TYPE_BOX)

enum { CHANGED, COMMITTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static GtkSizeGroup *value_column (void);

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

/* The parameter that OBJECT (a control, a length's slider, field or value) edits. */
static guint
index_of (LmOpPanel *self, gpointer object)
{
  for (guint i = 0; i < self->op->n_params; i++)
    if (self->controls[i] == object || self->sliders[i] == object || self->fields[i] == object
        || self->values[i] == object)
      return i;
  g_return_val_if_reached (0);
}

static void
on_switch (GObject *sw, GParamSpec *pspec, LmOpPanel *self)
{
  self->stage.enabled = gtk_switch_get_active (GTK_SWITCH (sw));
  emit (self, TRUE);
}

/* Parameter I is about to change by the user's hand (lm_op_panel_get_edited_param). */
static void
note_edit (LmOpPanel *self, guint i)
{
  if (self->updating)
    return;
  self->before_edit = self->stage;
  self->edited = (int) i;
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
  guint i = index_of (self, GTK_WIDGET (range));
  const LmParamSpec *spec = &self->op->params[i];
  note_edit (self, i);
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

/* A press on a slider or the curve: everything until its release is one edit, however long
 * the pointer rests on the way (lm_op_panel_is_held). */
static gboolean
on_press (GtkWidget *widget, GdkEventButton *event, LmOpPanel *self)
{
  if (event->button == GDK_BUTTON_PRIMARY)
    self->held = TRUE;
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_release (GtkWidget *widget, GdkEventButton *event, LmOpPanel *self)
{
  if (event->button == GDK_BUTTON_PRIMARY)
    self->held = FALSE;
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_grab_broken (GtkWidget *widget, GdkEvent *event, LmOpPanel *self)
{
  self->held = FALSE;
  return GDK_EVENT_PROPAGATE;
}

/* Connected first: a fine drag's own press handler (slider-input.c) stops the emission. */
static void
track_held (LmOpPanel *self, GtkWidget *widget)
{
  g_signal_connect (widget, "button-press-event", G_CALLBACK (on_press), self);
  g_signal_connect (widget, "button-release-event", G_CALLBACK (on_release), self);
  g_signal_connect (widget, "grab-broken-event", G_CALLBACK (on_grab_broken), self);
}

static void
on_value_typed (LmValueField *field, LmOpPanel *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
}

static void
on_combo (GtkComboBox *combo, LmOpPanel *self)
{
  guint i = index_of (self, GTK_WIDGET (combo));
  const LmParamSpec *spec = &self->op->params[i];
  note_edit (self, i);
  *(int *) (self->stage.params.bytes + spec->offset) = gtk_combo_box_get_active (combo);
  enable_on_edit (self);
  emit (self, TRUE);
}

/* A name typed (Enter, or the focus leaving): kept where it is one, else the field shows the
 * stage's again. */
static void
on_text (GtkEntry *entry, LmOpPanel *self)
{
  guint i = index_of (self, GTK_WIDGET (entry));
  const LmParamSpec *spec = &self->op->params[i];
  g_autofree char *before = lm_op_param_to_string (spec, self->stage.params.bytes);
  const char *text = gtk_entry_get_text (entry);
  if (g_str_equal (before, text))
    return;
  LmStage edited = self->stage;
  if (!lm_op_param_parse (self->op, spec, edited.params.bytes, text, NULL))
    {
      gtk_entry_set_text (entry, before);
      return;
    }
  note_edit (self, i);
  self->stage = edited;
  enable_on_edit (self);
  emit (self, TRUE);
}

static gboolean
on_text_focus_out (GtkWidget *entry, GdkEvent *event, LmOpPanel *self)
{
  on_text (GTK_ENTRY (entry), self);
  return GDK_EVENT_PROPAGATE;
}

/* The choices of a name's completion, asked for when the field is first focused (the lens
 * correction's come from loading lensfun's database). */
static gboolean
on_text_focus_in (GtkWidget *entry, GdkEvent *event, LmOpPanel *self)
{
  const LmParamSpec *spec = &self->op->params[index_of (self, entry)];
  GtkEntryCompletion *completion = gtk_entry_get_completion (GTK_ENTRY (entry));
  GtkListStore *store = GTK_LIST_STORE (gtk_entry_completion_get_model (completion));
  char **(*list) (void) = !spec->choices                        ? NULL
                          : g_str_equal (spec->choices, "lenses")  ? lm_lens_db_lens_list
                          : g_str_equal (spec->choices, "cameras") ? lm_lens_db_camera_list
                                                                    : NULL;
  if (gtk_tree_model_iter_n_children (GTK_TREE_MODEL (store), NULL) == 0 && list)
    {
      g_auto (GStrv) names = list ();
      for (int k = 0; names[k]; k++)
        gtk_list_store_insert_with_values (store, NULL, -1, 0, names[k], -1);
    }
  return GDK_EVENT_PROPAGATE;
}

/* A name: a field completing from the parameter's choices that hold what is typed anywhere in
 * them ("24-105" finds every maker's 24-105 mm). */
static gboolean
match_any_word (GtkEntryCompletion *completion, const char *key, GtkTreeIter *iter, gpointer data)
{
  g_autofree char *name = NULL;
  gtk_tree_model_get (gtk_entry_completion_get_model (completion), iter, 0, &name, -1);
  if (name == NULL || *key == '\0')
    return FALSE;
  g_autofree char *folded = g_utf8_casefold (name, -1);
  return strstr (folded, key) != NULL; /* KEY comes normalised and case-folded */
}

static GtkWidget *
make_text_control (LmOpPanel *self, GtkWidget *row)
{
  GtkWidget *entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), _("auto"));
  gtk_widget_set_hexpand (entry, TRUE);
  g_autoptr (GtkEntryCompletion) completion = gtk_entry_completion_new ();
  g_autoptr (GtkListStore) store = gtk_list_store_new (1, G_TYPE_STRING);
  gtk_entry_completion_set_model (completion, GTK_TREE_MODEL (store));
  gtk_entry_completion_set_text_column (completion, 0);
  gtk_entry_completion_set_match_func (completion, match_any_word, NULL, NULL);
  gtk_entry_set_completion (GTK_ENTRY (entry), completion);
  g_signal_connect (entry, "activate", G_CALLBACK (on_text), self);
  g_signal_connect (entry, "focus-out-event", G_CALLBACK (on_text_focus_out), self);
  g_signal_connect (entry, "focus-in-event", G_CALLBACK (on_text_focus_in), self);
  gtk_container_add (GTK_CONTAINER (row), entry);
  return entry;
}

static void
on_curves_changed (LmCurveGroup *curves, LmOpPanel *self)
{
  lm_curve_group_get_params (curves, self->stage.params.bytes);
  enable_on_edit (self);
  emit (self, FALSE);
}

static void
on_curves_committed (LmCurveGroup *curves, LmOpPanel *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
}

/* Every curve parameter in one editor (curve-group.h), placed where the first one is;
 * the others get no row of their own. Each one's control is that editor. */
static GtkWidget *
make_curves (LmOpPanel *self)
{
  self->curves = lm_curve_group_new (self->op);
  gtk_widget_set_hexpand (self->curves, TRUE);
  g_signal_connect (self->curves, "changed", G_CALLBACK (on_curves_changed), self);
  g_signal_connect (self->curves, "committed", G_CALLBACK (on_curves_committed), self);
  track_held (self, lm_curve_group_get_editor (LM_CURVE_GROUP (self->curves)));
  return self->curves;
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

/* ---- lengths in pixels ---------------------------------------------------------------------
 * A length such as blur's σ spans three orders of magnitude (0 to 200 px) and matters most
 * where it is small: on a linear slider one pixel of travel was 1.2 σ, and radii below 2
 * could hardly be set. The slider runs over a position p in [0, 1] instead, in three linear
 * pieces: its first 40 % up to 5 px, the next 30 % up to 50 px, the last 30 % up to the
 * maximum; on a 120-pixel slider one pixel of travel is then 0.1 px of σ below 5, 1.25 up to
 * 50 and 4 above. (A logarithmic scale cannot do as well below 5 on so short a slider: its
 * step there is about 0.3.) Dragged values snap to 0.1, 0.5 and 5 in the three pieces, so the
 * field beside the slider shows round numbers; the field takes any value typed. */

static const double length_knots[][2] = { /* position, length in pixels */
  { 0.0, 0.0 }, { 0.4, 5.0 }, { 0.7, 50.0 }, { 1.0, G_MAXDOUBLE }, /* the last: the maximum */
};

/* Knot K's length for SPEC, within its range. */
static double
knot_length (const LmParamSpec *spec, guint k)
{
  return k == G_N_ELEMENTS (length_knots) - 1 ? spec->max : CLAMP (length_knots[k][1], spec->min, spec->max);
}

static double
length_at (const LmParamSpec *spec, double position)
{
  guint k = 1;
  while (k < G_N_ELEMENTS (length_knots) - 1 && position > length_knots[k][0])
    k++;
  double p0 = length_knots[k - 1][0], p1 = length_knots[k][0];
  double v0 = k == 1 ? spec->min : knot_length (spec, k - 1), v1 = knot_length (spec, k);
  double v = v0 + (v1 - v0) * CLAMP ((position - p0) / (p1 - p0), 0.0, 1.0);
  double step = v < 5.0 ? 0.1 : v < 50.0 ? 0.5 : 5.0;
  return CLAMP (round (v / step) * step, spec->min, spec->max);
}

static double
position_of (const LmParamSpec *spec, double length)
{
  for (guint k = 1; k < G_N_ELEMENTS (length_knots); k++)
    {
      double v0 = k == 1 ? spec->min : knot_length (spec, k - 1), v1 = knot_length (spec, k);
      if (length <= v1 || k == G_N_ELEMENTS (length_knots) - 1)
        {
          double p0 = length_knots[k - 1][0], p1 = length_knots[k][0];
          return v1 > v0 ? CLAMP (p0 + (p1 - p0) * (length - v0) / (v1 - v0), 0.0, 1.0) : p0;
        }
    }
  g_return_val_if_reached (0.0);
}

static void
show_length (LmOpPanel *self, guint i)
{
  g_autofree char *text = lm_value_format (gtk_adjustment_get_value (self->values[i]), 0, 2);
  gtk_entry_set_text (GTK_ENTRY (self->fields[i]), text);
}

/* The slider where the value is, the field showing it. */
static void
sync_length (LmOpPanel *self, guint i)
{
  self->syncing = TRUE;
  gtk_range_set_value (GTK_RANGE (self->sliders[i]),
                       position_of (&self->op->params[i], gtk_adjustment_get_value (self->values[i])));
  self->syncing = FALSE;
  show_length (self, i);
}

/* The value changed, from any of its widgets: the parameter, the other widgets, the signal. */
static void
on_length_value (GtkAdjustment *value, LmOpPanel *self)
{
  guint i = index_of (self, value);
  const LmParamSpec *spec = &self->op->params[i];
  note_edit (self, i);
  *(float *) (self->stage.params.bytes + spec->offset) = (float) gtk_adjustment_get_value (value);
  if (self->syncing) /* from the slider: it stays where the pointer put it */
    show_length (self, i);
  else
    sync_length (self, i);
  enable_on_edit (self);
  emit (self, FALSE);
}

static void
on_length_slider (GtkRange *slider, LmOpPanel *self)
{
  if (self->syncing)
    return;
  guint i = index_of (self, slider);
  self->syncing = TRUE;
  gtk_adjustment_set_value (self->values[i], length_at (&self->op->params[i], gtk_range_get_value (slider)));
  self->syncing = FALSE;
}

/* Typed text to the value (in the locale's way, value-field.h), or back to the value shown
 * when it is not a number. The text shown left as it was changes nothing: the value may have
 * more digits. */
static gboolean
take_typed_length (LmOpPanel *self, guint i)
{
  const char *typed = gtk_entry_get_text (GTK_ENTRY (self->fields[i]));
  g_autofree char *shown = lm_value_format (gtk_adjustment_get_value (self->values[i]), 0, 2);
  if (g_str_equal (typed, shown))
    return TRUE;
  double v;
  if (!lm_value_parse (typed, &v))
    {
      show_length (self, i);
      gtk_widget_error_bell (self->fields[i]);
      return FALSE;
    }
  const LmParamSpec *spec = &self->op->params[i];
  gtk_adjustment_set_value (self->values[i], CLAMP (v, spec->min, spec->max));
  show_length (self, i); /* as clamped, or unchanged when the same value was typed again */
  return TRUE;
}

static void
on_length_activate (GtkEntry *field, LmOpPanel *self)
{
  if (take_typed_length (self, index_of (self, field)) && !self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
}

static gboolean
on_length_focus_out (GtkWidget *field, GdkEvent *event, LmOpPanel *self)
{
  take_typed_length (self, index_of (self, field));
  return GDK_EVENT_PROPAGATE;
}

/* The slider and the field of a length, in a box; the parameter's control (what
 * lm_op_panel_get_control returns) is a range over the value in pixels that is never shown, so
 * that code setting a value in pixels (gtk_range_set_value) still can. */
static GtkWidget *
make_length_control (LmOpPanel *self, guint i, GtkWidget **control)
{
  const LmParamSpec *spec = &self->op->params[i];
  self->values[i] = g_object_ref_sink (gtk_adjustment_new (spec->def, spec->min, spec->max, 0.1, 1.0, 0.0));
  g_signal_connect (self->values[i], "value-changed", G_CALLBACK (on_length_value), self);

  GtkWidget *slider = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0.0, 1.0, 0.01);
  gtk_scale_set_draw_value (GTK_SCALE (slider), FALSE);
  gtk_widget_set_hexpand (slider, TRUE);
  g_autofree char *slider_name = g_strdup_printf ("%s-slider", spec->name);
  gtk_widget_set_name (slider, slider_name);
  track_held (self, slider);
  lm_slider_add_fine (GTK_RANGE (slider), 0.0); /* length_at snaps the length */
  lm_slider_wheel_needs_focus (slider);
  g_signal_connect (slider, "value-changed", G_CALLBACK (on_length_slider), self);
  g_signal_connect (slider, "button-release-event", G_CALLBACK (on_scale_released), self);
  g_signal_connect (slider, "key-release-event", G_CALLBACK (on_scale_released), self);
  self->sliders[i] = slider;

  GtkWidget *field = gtk_entry_new ();
  gtk_entry_set_width_chars (GTK_ENTRY (field), 5);
  gtk_entry_set_max_width_chars (GTK_ENTRY (field), 6);
  gtk_entry_set_alignment (GTK_ENTRY (field), 1.0f);
  gtk_entry_set_input_purpose (GTK_ENTRY (field), GTK_INPUT_PURPOSE_NUMBER);
  g_autofree char *field_name = g_strdup_printf ("%s-field", spec->name);
  gtk_widget_set_name (field, field_name);
  gtk_widget_set_tooltip_text (field, _("Type a value and press Enter"));
  g_signal_connect (field, "activate", G_CALLBACK (on_length_activate), self);
  g_signal_connect (field, "focus-out-event", G_CALLBACK (on_length_focus_out), self);
  self->fields[i] = field;
  g_autoptr (GtkSizeGroup) values = value_column ();
  gtk_size_group_add_widget (values, field);

  *control = gtk_scale_new (GTK_ORIENTATION_HORIZONTAL, self->values[i]);
  gtk_widget_set_no_show_all (*control, TRUE);

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12); /* as a row: sliders end at one x */
  gtk_widget_set_hexpand (box, TRUE);
  gtk_container_add (GTK_CONTAINER (box), slider);
  gtk_container_add (GTK_CONTAINER (box), field);
  gtk_container_add (GTK_CONTAINER (box), *control);
  return box;
}

/* One label column for the panels of every operation, tone mapping's included, whatever the
 * language: with a column per panel, each panel's sliders started where its own longest label
 * ended (tone mapping's "Light adaptation", German "Helligkeitsanpassung", pushed its sliders
 * to the right of the others'). Each label holds a reference; the last one gone frees it. */
#define LABEL_CHARS 14

static GtkSizeGroup *
shared_column (GtkSizeGroup **column)
{
  if (*column != NULL)
    return g_object_ref (*column);
  *column = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  g_object_add_weak_pointer (G_OBJECT (*column), (gpointer *) column);
  return *column;
}

static GtkSizeGroup *
label_column (void)
{
  static GtkSizeGroup *column;
  return shared_column (&column);
}

/* The same for the values at the right (typed lengths and sliders' numbers), so that every
 * slider also ends at one x, whatever the width of its numbers. */
static GtkSizeGroup *
value_column (void)
{
  static GtkSizeGroup *column;
  return shared_column (&column);
}

/* A choice, or a slider with its value beside (an LmValueField, named "NAME-value"), added
 * to ROW; returns the choice or slider, the parameter's control. A slider's step is its
 * parameter's declared one (core/ops/param-decl.h): 0.01 for amounts and EV, 0.1 for
 * straighten's degrees and tone mapping's intensity, whole levels for contrast's black and
 * white and whole units of tint, 10 K over white balance's 2000..12000 K. The arrow keys move
 * by a step, Page Up/Down by ten, Shift with the arrows and fine drags by a tenth
 * (slider-input.h). The value shows the step's digits, and one more where a fine step left it
 * between two steps. */
static GtkWidget *
make_control (LmOpPanel *self, const LmParamSpec *spec, GtkWidget *row)
{
  if (spec->type == LM_PARAM_TEXT)
    return make_text_control (self, row);
  if (spec->type == LM_PARAM_ENUM)
    {
      GtkWidget *combo = gtk_combo_box_text_new ();
      for (int v = 0; spec->values[v].nick; v++)
        gtk_combo_box_text_append (GTK_COMBO_BOX_TEXT (combo), spec->values[v].nick,
                                   _(spec->values[v].label));
      g_signal_connect (combo, "changed", G_CALLBACK (on_combo), self);
      lm_slider_wheel_needs_focus (combo);
      gtk_container_add (GTK_CONTAINER (row), combo);
      return combo;
    }
  double step = spec->step, fine = step / LM_SLIDER_FINE;
  int digits = MAX (0, (int) ceil (-log10 (step) - 1e-9)), fine_digits = MAX (0, (int) ceil (-log10 (fine) - 1e-9));
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, spec->min, spec->max, step);
  gtk_range_set_increments (GTK_RANGE (scale), step, 10 * step);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE); /* the field beside shows it, and takes it typed */
  gtk_range_set_round_digits (GTK_RANGE (scale), digits); /* a plain drag's values: whole steps */
  gtk_widget_set_hexpand (scale, TRUE);
  track_held (self, scale);
  lm_slider_add_fine (GTK_RANGE (scale), fine);
  lm_slider_wheel_needs_focus (scale);
  g_signal_connect (scale, "value-changed", G_CALLBACK (on_scale), self);
  g_signal_connect (scale, "button-release-event", G_CALLBACK (on_scale_released), self);
  g_signal_connect (scale, "key-release-event", G_CALLBACK (on_scale_released), self);

  GtkWidget *value = lm_value_field_new (gtk_range_get_adjustment (GTK_RANGE (scale)), digits, fine_digits);
  g_autofree char *value_name = g_strdup_printf ("%s-value", spec->name);
  gtk_widget_set_name (value, value_name);
  g_signal_connect (value, "committed", G_CALLBACK (on_value_typed), self);
  g_autoptr (GtkSizeGroup) values = value_column ();
  gtk_size_group_add_widget (values, value);
  gtk_container_add (GTK_CONTAINER (row), scale);
  gtk_container_add (GTK_CONTAINER (row), value);
  return scale;
}

/* The mask's rows edit the instance's mask: the same "changed" and "committed" as the
 * parameters'. */
static void
on_mask_changed (LmMaskRows *rows, LmOpPanel *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_mask_committed (LmMaskRows *rows, LmOpPanel *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
}

static void
build (LmOpPanel *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *title = self->title = gtk_label_new (_(self->op->label));
  gtk_style_context_add_class (gtk_widget_get_style_context (title), "op-title");
  gtk_widget_set_halign (title, GTK_ALIGN_START);
  gtk_widget_set_hexpand (title, TRUE);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_END);
  self->menu = gtk_menu_button_new ();
  gtk_widget_set_name (self->menu, "instance-menu");
  gtk_button_set_relief (GTK_BUTTON (self->menu), GTK_RELIEF_NONE);
  gtk_button_set_image (GTK_BUTTON (self->menu),
                        gtk_image_new_from_icon_name ("view-more-symbolic", GTK_ICON_SIZE_BUTTON));
  gtk_widget_set_valign (self->menu, GTK_ALIGN_CENTER);
  gtk_widget_set_no_show_all (self->menu, TRUE);
  self->enabled = gtk_switch_new ();
  gtk_widget_set_valign (self->enabled, GTK_ALIGN_CENTER);
  g_signal_connect (self->enabled, "notify::active", G_CALLBACK (on_switch), self);
  GtkWidget *reset = gtk_button_new_from_icon_name ("edit-undo-symbolic", GTK_ICON_SIZE_BUTTON);
  gtk_button_set_relief (GTK_BUTTON (reset), GTK_RELIEF_NONE);
  gtk_widget_set_tooltip_text (reset, _("Reset to the defaults"));
  g_signal_connect (reset, "clicked", G_CALLBACK (on_reset), self);
  gtk_container_add (GTK_CONTAINER (header), title);
  gtk_container_add (GTK_CONTAINER (header), self->menu);
  gtk_container_add (GTK_CONTAINER (header), reset);
  gtk_container_add (GTK_CONTAINER (header), self->enabled);
  gtk_container_add (GTK_CONTAINER (self), header);

  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  guint n = self->op->n_params;
  self->controls = g_new0 (GtkWidget *, n);
  self->rows = g_new0 (GtkWidget *, n);
  self->sliders = g_new0 (GtkWidget *, n);
  self->fields = g_new0 (GtkWidget *, n);
  self->values = g_new0 (GtkAdjustment *, n);
  g_autoptr (GtkSizeGroup) column = label_column ();
  for (guint i = 0; i < n; i++)
    {
      const LmParamSpec *spec = &self->op->params[i];
      if (spec->type == LM_PARAM_CURVE)
        {
          /* The editor the whole width of the panel, under its own row of channels: no
           * label in the column. */
          gboolean first = self->curves == NULL;
          GtkWidget *curves = first ? make_curves (self) : self->curves;
          self->controls[i] = lm_curve_group_get_editor (LM_CURVE_GROUP (curves));
          self->rows[i] = curves;
          if (first)
            gtk_grid_attach (GTK_GRID (grid), curves, 0, (int) i, 1, 1);
          continue;
        }
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *label = gtk_label_new (_(spec->label));
      gtk_widget_set_halign (label, GTK_ALIGN_START);
      /* One width for every label: a longer one wraps (a long word with a hyphen) rather
       * than widen the column past what the side panel can give, or make the label's
       * minimum width smaller than its natural one (a row short of room, as beside a wide
       * choice, would then shrink it and move its control). */
      gtk_label_set_width_chars (GTK_LABEL (label), LABEL_CHARS);
      gtk_label_set_max_width_chars (GTK_LABEL (label), LABEL_CHARS);
      gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_line_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_size_group_add_widget (column, label);
      gtk_container_add (GTK_CONTAINER (row), label);
      if (spec->type == LM_PARAM_FLOAT && spec->in_pixels)
        gtk_container_add (GTK_CONTAINER (row), make_length_control (self, i, &self->controls[i]));
      else
        self->controls[i] = make_control (self, spec, row);
      gtk_widget_set_name (self->controls[i], spec->name);
      gtk_widget_set_hexpand (row, TRUE);
      gtk_grid_attach (GTK_GRID (grid), row, 0, (int) i, 1, 1);
      self->rows[i] = row;
    }
  gtk_container_add (GTK_CONTAINER (self), grid);
}

/* A length's widgets outlive this (the container destroys them after): they must not call
 * back, a field losing the focus as the window closes included. */
static void
lm_op_panel_dispose (GObject *object)
{
  LmOpPanel *self = LM_OP_PANEL (object);
  for (guint i = 0; self->values && i < self->op->n_params; i++)
    if (self->values[i])
      {
        g_signal_handlers_disconnect_by_data (self->values[i], self);
        g_signal_handlers_disconnect_by_data (self->sliders[i], self);
        g_signal_handlers_disconnect_by_data (self->fields[i], self);
        g_clear_object (&self->values[i]);
      }
  G_OBJECT_CLASS (lm_op_panel_parent_class)->dispose (object);
}

static void
lm_op_panel_finalize (GObject *object)
{
  LmOpPanel *self = LM_OP_PANEL (object);
  g_free (self->controls);
  g_free (self->rows);
  g_free (self->sliders);
  g_free (self->fields);
  g_free (self->values);
  G_OBJECT_CLASS (lm_op_panel_parent_class)->finalize (object);
}

static void
lm_op_panel_class_init (LmOpPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lm_op_panel_dispose;
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
  self->edited = -1;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
}

GtkWidget *
lm_op_panel_new (const LmOpInfo *op)
{
  LmOpPanel *self = g_object_new (LM_TYPE_OP_PANEL, NULL);
  self->op = op;
  self->stage.info = op;
  /* The primary instance of OP until a pipeline's is set: a stage the window copies into its
   * pipeline keeps the primary's id and has no mask. */
  self->stage.id = LM_PRIMARY_ID (op->id);
  self->stage.mask = -1;
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
  self->before_edit = *stage;
  self->edited = -1;
  gtk_switch_set_active (GTK_SWITCH (self->enabled), stage->enabled);
  for (guint i = 0; i < self->op->n_params; i++)
    {
      const LmParamSpec *spec = &self->op->params[i];
      const guint8 *field = stage->params.bytes + spec->offset;
      if (spec->type == LM_PARAM_ENUM)
        gtk_combo_box_set_active (GTK_COMBO_BOX (self->controls[i]), *(const int *) field);
      else if (spec->type == LM_PARAM_TEXT)
        gtk_entry_set_text (GTK_ENTRY (self->controls[i]), ((const LmParamText *) field)->s);
      else if (spec->type == LM_PARAM_CURVE)
        lm_curve_group_set_params (LM_CURVE_GROUP (self->curves), stage->params.bytes);
      else if (self->values[i])
        {
          gtk_adjustment_set_value (self->values[i], *(const float *) field);
          sync_length (self, i); /* also when the value was already there */
        }
      else
        gtk_range_set_value (GTK_RANGE (self->controls[i]), *(const float *) field);
    }
  self->stage = *stage; /* the widgets' rounding must not leak into the stage */
  update_sensitivity (self);
  gtk_label_set_text (GTK_LABEL (self->title), stage->name[0] ? stage->name : _(self->op->label));
  self->updating = FALSE;
}

int
lm_op_panel_get_edited_param (LmOpPanel *self, const LmStage **before)
{
  if (before)
    *before = &self->before_edit;
  return self->edited;
}

gboolean
lm_op_panel_is_held (LmOpPanel *self)
{
  return self->held || (self->mask_rows && lm_mask_rows_is_held (LM_MASK_ROWS (self->mask_rows)));
}

/* Made while there is a mask only: hidden rows in the shared columns' size groups are still
 * measured, and forty panels' worth of them made each slider's step 0.3 s slower. */
void
lm_op_panel_set_mask (LmOpPanel *self, const LmMask *mask, gboolean scene)
{
  if (mask == NULL)
    {
      g_clear_pointer (&self->mask_rows, gtk_widget_destroy);
      return;
    }
  if (self->mask_rows == NULL)
    {
      g_autoptr (GtkSizeGroup) labels = label_column ();
      g_autoptr (GtkSizeGroup) values = value_column ();
      self->mask_rows = lm_mask_rows_new (labels, values);
      g_signal_connect (self->mask_rows, "changed", G_CALLBACK (on_mask_changed), self);
      g_signal_connect (self->mask_rows, "committed", G_CALLBACK (on_mask_committed), self);
      gtk_container_add (GTK_CONTAINER (self), self->mask_rows);
    }
  self->updating = TRUE;
  lm_mask_rows_set_scene (LM_MASK_ROWS (self->mask_rows), scene);
  lm_mask_rows_set (LM_MASK_ROWS (self->mask_rows), mask);
  gtk_widget_show_all (self->mask_rows);
  self->updating = FALSE;
}

const LmMask *
lm_op_panel_get_mask (LmOpPanel *self)
{
  return self->mask_rows ? lm_mask_rows_get (LM_MASK_ROWS (self->mask_rows)) : NULL;
}

void
lm_op_panel_set_menu (LmOpPanel *self, GMenuModel *menu, const char *accessible_name)
{
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu), menu);
  lm_op_panel_set_menu_name (self, accessible_name);
  gtk_widget_set_tooltip_text (self->menu, _("Duplicate, rename, move, remove or mask"));
  gtk_widget_set_no_show_all (self->menu, FALSE);
  gtk_widget_show_all (self->menu);
}

void
lm_op_panel_set_menu_name (LmOpPanel *self, const char *accessible_name)
{
  atk_object_set_name (gtk_widget_get_accessible (self->menu), accessible_name);
}

GtkWidget *
lm_op_panel_get_menu_button (LmOpPanel *self)
{
  return self->menu;
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
lm_op_panel_set_histogram (LmOpPanel *self, const LmHistogram *histogram)
{
  if (self->curves)
    lm_curve_group_set_histogram (LM_CURVE_GROUP (self->curves), histogram);
}

GtkWidget *
lm_op_panel_get_curve_button (LmOpPanel *self, const char *name)
{
  return self->curves ? lm_curve_group_get_button (LM_CURVE_GROUP (self->curves), name) : NULL;
}

void
lm_op_panel_set_switchable (LmOpPanel *self, gboolean switchable)
{
  self->switchable = switchable;
  gtk_widget_set_visible (self->enabled, switchable);
  gtk_widget_set_no_show_all (self->enabled, !switchable);
}
