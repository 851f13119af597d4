/* LmMaskRows (mask-rows.h). */
#include "mask-rows.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "slider-input.h"
#include "value-field.h"

#define LABEL_CHARS 14 /* as op-panel.c's labels: one column for both */

/* A range's four values, in LmMaskRange's order. */
enum { LO0, LO1, HI1, HI0, N_EDGES };

typedef struct {
  const char *name;    /* "luminance" */
  const char *label;   /* translated where shown */
  double min, max, step; /* the sliders' */
  size_t offset;       /* of its LmMaskRange in LmMask */
} RangeInfo;

static const RangeInfo ranges[] = {
  { "luminance", N_("Luminance"), 0.0, 1.0, 0.01, G_STRUCT_OFFSET (LmMask, luminance) },
  /* Degrees, half a turn beyond each end: a range may cross 0° (reds: 340 to 380, or -20 to 20). */
  { "hue", N_("Hue"), -180.0, 540.0, 1.0, G_STRUCT_OFFSET (LmMask, hue) },
  { "saturation", N_("Saturation"), 0.0, 1.0, 0.01, G_STRUCT_OFFSET (LmMask, saturation) },
};
/* Luminance on scene light (a scene-side instance of a raw or a merge) is in EV, 0 at 18 %
 * grey: these bounds hold any photo's and stay within what the render takes (±64). */
static const RangeInfo scene_luminance = { "luminance", N_("Luminance (EV)"), -16.0, 16.0, 0.1,
                                           G_STRUCT_OFFSET (LmMask, luminance) };

static const char *const edge_labels[N_EDGES] = { N_("From (soft)"), N_("From"), N_("To"), N_("To (soft)") };
static const char *const edge_names[N_EDGES] = { "lo0", "lo1", "hi1", "hi0" };

struct _LmMaskRows {
  GtkBox parent_instance;
  LmMask mask;
  GtkSizeGroup *labels, *values;
  GtkWidget *opacity, *feather, *detail;
  GtkWidget *range_on[G_N_ELEMENTS (ranges)];
  GtkWidget *range_edges[G_N_ELEMENTS (ranges)][N_EDGES];
  GtkWidget *range_box[G_N_ELEMENTS (ranges)]; /* the edges' rows, shown while it is on */
  GtkWidget *range_label[G_N_ELEMENTS (ranges)];
  GtkWidget *shapes;                           /* a row per drawn shape */
  gboolean scene;                              /* luminance in EV (lm_mask_rows_set_scene) */
  gboolean updating, held;
};

G_DEFINE_FINAL_TYPE (LmMaskRows, lm_mask_rows, GTK_TYPE_BOX)

enum { CHANGED, COMMITTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
emit (LmMaskRows *self, gboolean commit)
{
  if (self->updating)
    return;
  g_signal_emit (self, signals[CHANGED], 0);
  if (commit)
    g_signal_emit (self, signals[COMMITTED], 0);
}

/* Range R's bounds as shown now. */
static const RangeInfo *
info_of (LmMaskRows *self, guint r)
{
  return r == 0 && self->scene ? &scene_luminance : &ranges[r];
}

static LmMaskRange *
range_of (LmMaskRows *self, guint r)
{
  return (LmMaskRange *) ((guint8 *) &self->mask + ranges[r].offset);
}

static float *
edge_of (LmMaskRange *range, guint e)
{
  float *edges[N_EDGES] = { &range->lo0, &range->lo1, &range->hi1, &range->hi0 };
  return edges[e];
}

/* ---- sliders: held, released, typed ---------------------------------------------------- */

static gboolean
on_press (GtkWidget *widget, GdkEventButton *event, LmMaskRows *self)
{
  if (event->button == GDK_BUTTON_PRIMARY)
    self->held = TRUE;
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_release (GtkWidget *widget, GdkEvent *event, LmMaskRows *self)
{
  if (event->type == GDK_BUTTON_RELEASE && event->button.button == GDK_BUTTON_PRIMARY)
    self->held = FALSE;
  if (!self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_grab_broken (GtkWidget *widget, GdkEvent *event, LmMaskRows *self)
{
  self->held = FALSE;
  return GDK_EVENT_PROPAGATE;
}

static void
on_typed (LmValueField *field, LmMaskRows *self)
{
  if (!self->updating)
    g_signal_emit (self, signals[COMMITTED], 0);
}

/* A label of the shared column, as op-panel.c's. */
static GtkWidget *
column_label (LmMaskRows *self, const char *text)
{
  GtkWidget *label = gtk_label_new (text);
  gtk_label_set_width_chars (GTK_LABEL (label), LABEL_CHARS);
  gtk_label_set_max_width_chars (GTK_LABEL (label), LABEL_CHARS);
  gtk_label_set_line_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_line_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_size_group_add_widget (self->labels, label);
  return label;
}

/* A row of LABEL, a slider named NAME over MIN..MAX by STEP (Page Up/Down ten) and its value
 * beside, typed as op-panel.c's are; ON_VALUE takes its moves. */
static GtkWidget *
add_slider (LmMaskRows *self, GtkWidget *box, const char *label, const char *name, double min, double max,
            double step, GCallback on_value)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_container_add (GTK_CONTAINER (row), column_label (self, label));
  double fine = step / LM_SLIDER_FINE;
  int digits = MAX (0, (int) ceil (-log10 (step) - 1e-9)), fine_digits = MAX (0, (int) ceil (-log10 (fine) - 1e-9));
  GtkWidget *scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, min, max, step);
  gtk_range_set_increments (GTK_RANGE (scale), step, 10 * step);
  gtk_scale_set_draw_value (GTK_SCALE (scale), FALSE);
  gtk_range_set_round_digits (GTK_RANGE (scale), digits);
  gtk_widget_set_hexpand (scale, TRUE);
  gtk_widget_set_name (scale, name);
  /* Connected first: a fine drag's own press handler (slider-input.c) stops the emission. */
  g_signal_connect (scale, "button-press-event", G_CALLBACK (on_press), self);
  g_signal_connect (scale, "grab-broken-event", G_CALLBACK (on_grab_broken), self);
  lm_slider_add_fine (GTK_RANGE (scale), fine);
  lm_slider_wheel_needs_focus (scale);
  g_signal_connect (scale, "value-changed", on_value, self);
  g_signal_connect (scale, "button-release-event", G_CALLBACK (on_release), self);
  g_signal_connect (scale, "key-release-event", G_CALLBACK (on_release), self);
  GtkWidget *value = lm_value_field_new (gtk_range_get_adjustment (GTK_RANGE (scale)), digits, fine_digits);
  g_autofree char *value_name = g_strdup_printf ("%s-value", name);
  gtk_widget_set_name (value, value_name);
  g_signal_connect (value, "committed", G_CALLBACK (on_typed), self);
  gtk_size_group_add_widget (self->values, value);
  gtk_container_add (GTK_CONTAINER (row), scale);
  gtk_container_add (GTK_CONTAINER (row), value);
  gtk_container_add (GTK_CONTAINER (box), row);
  return scale;
}

/* ---- the mask's own values --------------------------------------------------------------- */

static void
on_opacity (GtkRange *range, LmMaskRows *self)
{
  self->mask.opacity = (float) gtk_range_get_value (range);
  emit (self, FALSE);
}

/* Shown in % of the long side. */
static void
on_feather (GtkRange *range, LmMaskRows *self)
{
  self->mask.feather = (float) (gtk_range_get_value (range) / 100.0);
  emit (self, FALSE);
}

static void
on_detail (GtkRange *range, LmMaskRows *self)
{
  self->mask.detail = (float) gtk_range_get_value (range);
  emit (self, FALSE);
}

/* ---- ranges ------------------------------------------------------------------------------ */

static void
show_range (LmMaskRows *self, guint r)
{
  LmMaskRange *range = range_of (self, r);
  for (guint e = 0; e < N_EDGES; e++)
    gtk_range_set_value (GTK_RANGE (self->range_edges[r][e]), *edge_of (range, e));
  gtk_widget_set_visible (self->range_box[r], range->on);
}

static void
on_range_switch (GObject *sw, GParamSpec *pspec, LmMaskRows *self)
{
  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    if (self->range_on[r] == (GtkWidget *) sw)
      {
        LmMaskRange *range = range_of (self, r);
        range->on = gtk_switch_get_active (GTK_SWITCH (sw));
        /* Switched on as it came (all zero): the whole span, which selects everything. */
        if (range->on && range->hi0 <= range->lo0)
          {
            range->lo0 = range->lo1 = (float) info_of (self, r)->min;
            range->hi1 = range->hi0 = (float) info_of (self, r)->max;
          }
        gboolean was = self->updating;
        self->updating = TRUE;
        show_range (self, r);
        self->updating = was;
        emit (self, TRUE);
      }
}

/* An edge dragged past another pushes it along: lo0 ≤ lo1 ≤ hi1 ≤ hi0 always. */
static void
on_edge (GtkRange *moved, LmMaskRows *self)
{
  if (self->updating)
    return;
  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    for (guint e = 0; e < N_EDGES; e++)
      if (self->range_edges[r][e] == (GtkWidget *) moved)
        {
          LmMaskRange *range = range_of (self, r);
          float v = (float) gtk_range_get_value (moved);
          *edge_of (range, e) = v;
          for (guint k = 0; k < N_EDGES; k++)
            if ((k < e && *edge_of (range, k) > v) || (k > e && *edge_of (range, k) < v))
              *edge_of (range, k) = v;
          self->updating = TRUE;
          show_range (self, r);
          self->updating = FALSE;
          emit (self, FALSE);
          return;
        }
}

static void
add_range (LmMaskRows *self, GtkWidget *box, guint r)
{
  const RangeInfo *info = &ranges[r];
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  self->range_label[r] = column_label (self, _(info->label));
  gtk_container_add (GTK_CONTAINER (row), self->range_label[r]);
  GtkWidget *sw = self->range_on[r] = gtk_switch_new ();
  g_autofree char *on_name = g_strdup_printf ("%s-on", info->name);
  gtk_widget_set_name (sw, on_name);
  gtk_widget_set_valign (sw, GTK_ALIGN_CENTER);
  gtk_widget_set_halign (sw, GTK_ALIGN_START);
  g_autofree char *tip = g_strdup_printf (_("Limit the mask to a range of %s"), _(info->label));
  gtk_widget_set_tooltip_text (sw, tip);
  g_signal_connect (sw, "notify::active", G_CALLBACK (on_range_switch), self);
  gtk_container_add (GTK_CONTAINER (row), sw);
  gtk_container_add (GTK_CONTAINER (box), row);
  /* Shown while the range is on (show_range): four rows a range that is off took the room of
   * the rest of the panel. */
  GtkWidget *edges = self->range_box[r] = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_no_show_all (edges, TRUE);
  for (guint e = 0; e < N_EDGES; e++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%s", info->name, edge_names[e]);
      self->range_edges[r][e] = add_slider (self, edges, _(edge_labels[e]), name, info->min, info->max,
                                            info->step, G_CALLBACK (on_edge));
    }
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (edges));
  for (GList *l = rows; l; l = l->next)
    gtk_widget_show_all (l->data);
  gtk_container_add (GTK_CONTAINER (box), edges);
}

/* ---- drawn shapes ------------------------------------------------------------------------ */

static guint
shape_index (GtkWidget *widget)
{
  return GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (widget), "lumen-shape"));
}

static void
on_combine (GtkComboBox *combo, LmMaskRows *self)
{
  int active = gtk_combo_box_get_active (combo);
  if (active < 0 || active >= LM_MASK_N_COMBINES)
    return;
  self->mask.shape[shape_index (GTK_WIDGET (combo))].combine = (uint8_t) active;
  emit (self, TRUE);
}

static void
on_shape_invert (GtkToggleButton *check, LmMaskRows *self)
{
  self->mask.shape[shape_index (GTK_WIDGET (check))].invert = gtk_toggle_button_get_active (check);
  emit (self, TRUE);
}

static void show_shapes (LmMaskRows *self);

/* From an idle callback: the button clicked is among the rows rebuilt. */
static gboolean
rebuild_shapes (gpointer data)
{
  LmMaskRows *self = data;
  self->updating = TRUE;
  show_shapes (self);
  self->updating = FALSE;
  return G_SOURCE_REMOVE;
}

static void
on_shape_delete (GtkButton *button, LmMaskRows *self)
{
  guint i = shape_index (GTK_WIDGET (button));
  LmMask *m = &self->mask;
  if (i >= m->n_shapes)
    return;
  memmove (&m->shape[i], &m->shape[i + 1], (m->n_shapes - i - 1) * sizeof m->shape[0]);
  m->n_shapes--;
  /* Masks are compared by their bytes: the slot freed is as a fresh mask's. */
  memset (&m->shape[m->n_shapes], 0, sizeof m->shape[0]);
  g_idle_add_full (G_PRIORITY_HIGH_IDLE, rebuild_shapes, g_object_ref (self), g_object_unref);
  emit (self, TRUE);
}

static void
show_shapes (LmMaskRows *self)
{
  static const char *const kinds[LM_MASK_N_KINDS] = { N_("Brush"), N_("Linear gradient"), N_("Radial gradient") };
  static const char *const combines[LM_MASK_N_COMBINES] = { N_("Add"), N_("Subtract"), N_("Intersect") };
  g_autoptr (GList) rows = gtk_container_get_children (GTK_CONTAINER (self->shapes));
  for (GList *l = rows; l; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; i < self->mask.n_shapes && i < LM_MASK_SHAPES_MAX; i++)
    {
      const LmMaskShape *shape = &self->mask.shape[i];
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      g_autofree char *row_name = g_strdup_printf ("shape-%u", i + 1);
      gtk_widget_set_name (row, row_name);
      GtkWidget *kind = column_label (self, shape->kind < LM_MASK_N_KINDS ? _(kinds[shape->kind]) : "?");
      GtkWidget *combine = gtk_combo_box_text_new ();
      for (guint c = 0; c < LM_MASK_N_COMBINES; c++)
        gtk_combo_box_text_append_text (GTK_COMBO_BOX_TEXT (combine), _(combines[c]));
      gtk_combo_box_set_active (GTK_COMBO_BOX (combine), shape->combine < LM_MASK_N_COMBINES ? shape->combine : 0);
      gtk_widget_set_name (combine, "combine");
      gtk_widget_set_tooltip_text (combine, _("How the shape joins the shapes above it"));
      lm_slider_wheel_needs_focus (combine);
      GtkWidget *invert = gtk_check_button_new_with_label (_("Invert"));
      gtk_widget_set_name (invert, "invert");
      gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (invert), shape->invert);
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic", GTK_ICON_SIZE_BUTTON);
      gtk_button_set_relief (GTK_BUTTON (remove), GTK_RELIEF_NONE);
      gtk_widget_set_name (remove, "delete");
      gtk_widget_set_tooltip_text (remove, _("Delete the shape"));
      atk_object_set_name (gtk_widget_get_accessible (remove), _("Delete the shape"));
      GtkWidget *parts[] = { combine, invert, remove };
      for (guint k = 0; k < G_N_ELEMENTS (parts); k++)
        g_object_set_data (G_OBJECT (parts[k]), "lumen-shape", GUINT_TO_POINTER (i));
      g_signal_connect (combine, "changed", G_CALLBACK (on_combine), self);
      g_signal_connect (invert, "toggled", G_CALLBACK (on_shape_invert), self);
      g_signal_connect (remove, "clicked", G_CALLBACK (on_shape_delete), self);
      gtk_container_add (GTK_CONTAINER (row), kind);
      gtk_container_add (GTK_CONTAINER (row), combine);
      gtk_container_add (GTK_CONTAINER (row), invert);
      gtk_container_add (GTK_CONTAINER (row), remove);
      gtk_container_add (GTK_CONTAINER (self->shapes), row);
    }
  gtk_widget_show_all (self->shapes);
}

/* ---- life -------------------------------------------------------------------------------- */

static void
lm_mask_rows_dispose (GObject *object)
{
  LmMaskRows *self = LM_MASK_ROWS (object);
  g_clear_object (&self->labels);
  g_clear_object (&self->values);
  G_OBJECT_CLASS (lm_mask_rows_parent_class)->dispose (object);
}

static void
lm_mask_rows_class_init (LmMaskRowsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lm_mask_rows_dispose;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "maskrows");
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
  signals[COMMITTED] = g_signal_new ("committed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                     NULL, G_TYPE_NONE, 0);
}

static void
lm_mask_rows_init (LmMaskRows *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 4);
}

GtkWidget *
lm_mask_rows_new (GtkSizeGroup *labels, GtkSizeGroup *values)
{
  LmMaskRows *self = g_object_new (LM_TYPE_MASK_ROWS, NULL);
  self->labels = g_object_ref (labels);
  self->values = g_object_ref (values);
  GtkWidget *box = GTK_WIDGET (self);
  GtkWidget *heading = gtk_label_new (_("Mask"));
  gtk_style_context_add_class (gtk_widget_get_style_context (heading), "op-title");
  gtk_widget_set_halign (heading, GTK_ALIGN_START);
  gtk_container_add (GTK_CONTAINER (box), heading);
  self->opacity = add_slider (self, box, _("Mask opacity"), "mask-opacity", 0.0, 1.0, 0.01, G_CALLBACK (on_opacity));
  self->feather = add_slider (self, box, _("Feather (%)"), "mask-feather", 0.0, 5.0, 0.01, G_CALLBACK (on_feather));
  /* xgettext:no-c-format */
  gtk_widget_set_tooltip_text (self->feather, _("How far the mask follows the photo's edges, in % of its long side"));
  self->detail = add_slider (self, box, _("Detail"), "mask-detail", 0.001, 1.0, 0.001, G_CALLBACK (on_detail));
  gtk_widget_set_tooltip_text (self->detail, _("Smaller keeps the feathered mask closer to the photo's edges"));
  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    add_range (self, box, r);
  self->shapes = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_name (self->shapes, "mask-shapes");
  gtk_container_add (GTK_CONTAINER (box), self->shapes);
  return box;
}

void
lm_mask_rows_set (LmMaskRows *self, const LmMask *mask)
{
  self->updating = TRUE;
  memcpy (&self->mask, mask, sizeof *mask);
  gtk_range_set_value (GTK_RANGE (self->opacity), mask->opacity);
  gtk_range_set_value (GTK_RANGE (self->feather), mask->feather * 100.0);
  gtk_range_set_value (GTK_RANGE (self->detail), mask->detail);
  for (guint r = 0; r < G_N_ELEMENTS (ranges); r++)
    {
      gtk_switch_set_active (GTK_SWITCH (self->range_on[r]), range_of (self, r)->on);
      show_range (self, r);
    }
  show_shapes (self);
  memcpy (&self->mask, mask, sizeof *mask); /* the widgets' rounding must not leak into it */
  self->updating = FALSE;
}

void
lm_mask_rows_set_scene (LmMaskRows *self, gboolean scene)
{
  if (self->scene == !!scene)
    return;
  self->scene = !!scene;
  const RangeInfo *info = info_of (self, 0);
  gboolean was = self->updating;
  self->updating = TRUE;
  gtk_label_set_text (GTK_LABEL (self->range_label[0]), _(info->label));
  for (guint e = 0; e < N_EDGES; e++)
    {
      GtkRange *range = GTK_RANGE (self->range_edges[0][e]);
      gtk_range_set_range (range, info->min, info->max);
      gtk_range_set_increments (range, info->step, 10 * info->step);
    }
  show_range (self, 0);
  self->updating = was;
}

const LmMask *
lm_mask_rows_get (LmMaskRows *self)
{
  return &self->mask;
}

gboolean
lm_mask_rows_is_held (LmMaskRows *self)
{
  return self->held;
}
