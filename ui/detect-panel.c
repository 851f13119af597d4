/* LmDetectPanel (detect-panel.h). */
#include "detect-panel.h"

#include <glib/gi18n.h>

#include "slider-input.h"
#include "source-table.h"
#include "value-field.h"

#define CHANGED_AFTER_MS 120 /* a drag of the slider asks for one detection, not one a pixel */

struct _LmDetectPanel {
  GtkBox parent_instance;
  GtkSpinButton *kappa, *min_area, *filter, *mesh;
  GtkScale *threshold;
  GtkComboBoxText *connectivity;
  GtkLabel *count, *timings;
  GtkTreeView *table;
  GtkWidget *export_button;
  guint changed_source;
};

G_DEFINE_FINAL_TYPE (LmDetectPanel, lm_detect_panel, GTK_TYPE_BOX)

enum { CHANGED, SOURCE_SELECTED, EXPORT, N_SIGNALS };
static guint signals[N_SIGNALS];

static gboolean
emit_changed (gpointer data)
{
  LmDetectPanel *self = data;
  self->changed_source = 0;
  g_signal_emit (self, signals[CHANGED], 0);
  return G_SOURCE_REMOVE;
}

static void
on_control (LmDetectPanel *self)
{
  g_clear_handle_id (&self->changed_source, g_source_remove);
  self->changed_source = g_timeout_add (CHANGED_AFTER_MS, emit_changed, self);
}

static void
on_selection (GtkTreeSelection *selection, LmDetectPanel *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  if (!gtk_tree_selection_get_selected (selection, &model, &iter))
    return;
  guint label;
  gtk_tree_model_get (model, &iter, LM_SOURCE_COL_ID, &label, -1);
  g_signal_emit (self, signals[SOURCE_SELECTED], 0, label);
}

static void
on_export (LmDetectPanel *self)
{
  g_signal_emit (self, signals[EXPORT], 0);
}

void
lm_detect_panel_get (LmDetectPanel *self, LmDetectParams *params)
{
  lm_detect_params_init (params);
  params->kappa = gtk_spin_button_get_value (self->kappa);
  params->threshold = gtk_range_get_value (GTK_RANGE (self->threshold));
  params->min_area = (guint) gtk_spin_button_get_value_as_int (self->min_area);
  params->connectivity = gtk_combo_box_get_active (GTK_COMBO_BOX (self->connectivity)) == 1 ? 8 : 4;
  params->filter_sigma = gtk_spin_button_get_value (self->filter);
  params->mesh = (guint) gtk_spin_button_get_value_as_int (self->mesh);
}

void
lm_detect_panel_show_message (LmDetectPanel *self, const char *message)
{
  gtk_label_set_text (self->count, message);
  gtk_label_set_text (self->timings, "");
  lm_source_table_set (self->table, NULL);
  gtk_widget_set_sensitive (self->export_button, FALSE);
}

void
lm_detect_panel_show (LmDetectPanel *self, const LmDetectResult *result, const char *backend)
{
  g_autofree char *count = g_strdup_printf (ngettext ("%u source", "%u sources", result->n_sources),
                                            result->n_sources);
  gtk_label_set_text (self->count, count);
  const LmDetectTimings *t = &result->timings;
  /* The step names of lumen-cli detect --timings. */
  g_autofree char *timings = g_strdup_printf (_("%s: background %.1f ms, filter %.1f, segment %.1f, label %.1f, "
                                                "measure %.1f; total %.1f ms"),
                                              backend, t->background, t->filter, t->segment, t->label, t->measure,
                                              t->total);
  gtk_label_set_text (self->timings, timings);
  lm_source_table_set (self->table, result);
  gtk_widget_set_sensitive (self->export_button, TRUE);
}

static GtkSpinButton *
spin (double min, double max, double step, double value, int digits)
{
  GtkSpinButton *s = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (min, max, step));
  gtk_spin_button_set_digits (s, digits);
  gtk_spin_button_set_value (s, value);
  return s;
}

static void
attach_row (GtkGrid *grid, int row, const char *label, GtkWidget *widget, const char *name)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), widget);
  gtk_widget_set_halign (l, GTK_ALIGN_START);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_name (widget, name);
  gtk_grid_attach (grid, l, 0, row, 1, 1);
  gtk_grid_attach (grid, widget, 1, row, 1, 1);
  /* The side panel scrolls under the wheel; a value changes only once clicked. */
  lm_slider_wheel_needs_focus (widget);
}

static void
lm_detect_panel_init (LmDetectPanel *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  GtkWidget *title = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", _("Detect Sources"));
  gtk_label_set_markup (GTK_LABEL (title), markup);
  gtk_widget_set_halign (title, GTK_ALIGN_START);
  gtk_box_pack_start (GTK_BOX (self), title, FALSE, FALSE, 0);

  LmDetectParams d;
  lm_detect_params_init (&d);
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_row_spacing (grid, 4);
  gtk_grid_set_column_spacing (grid, 8);
  self->threshold = GTK_SCALE (gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 1.0, 50.0, 0.5));
  gtk_scale_set_digits (self->threshold, 1);
  gtk_scale_set_draw_value (self->threshold, FALSE); /* the field beside shows it, and takes it typed */
  gtk_range_set_value (GTK_RANGE (self->threshold), d.threshold);
  attach_row (grid, 0, _("_Threshold (σ)"), GTK_WIDGET (self->threshold), "detect-threshold");
  GtkWidget *threshold_value = lm_value_field_new (gtk_range_get_adjustment (GTK_RANGE (self->threshold)), 1, 2);
  gtk_widget_set_name (threshold_value, "detect-threshold-value");
  gtk_grid_attach (grid, threshold_value, 2, 0, 1, 1);
  self->kappa = spin (1.0, 10.0, 0.1, d.kappa, 1);
  attach_row (grid, 1, _("Clipping _κ"), GTK_WIDGET (self->kappa), "detect-kappa");
  self->min_area = spin (1, 100000, 1, d.min_area, 0);
  attach_row (grid, 2, _("Minimum _area (px)"), GTK_WIDGET (self->min_area), "detect-min-area");
  self->connectivity = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  gtk_combo_box_text_append_text (self->connectivity, _("4 neighbours"));
  gtk_combo_box_text_append_text (self->connectivity, _("8 neighbours"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->connectivity), d.connectivity == 8);
  attach_row (grid, 3, _("C_onnectivity"), GTK_WIDGET (self->connectivity), "detect-connectivity");
  self->filter = spin (0.0, 20.0, 0.1, d.filter_sigma, 1);
  attach_row (grid, 4, _("_Filter σ (px)"), GTK_WIDGET (self->filter), "detect-filter");
  self->mesh = spin (0, 4096, 16, d.mesh, 0);
  attach_row (grid, 5, _("Background _mesh (px)"), GTK_WIDGET (self->mesh), "detect-mesh");
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (grid), FALSE, FALSE, 0);

  self->count = GTK_LABEL (gtk_label_new (""));
  gtk_widget_set_name (GTK_WIDGET (self->count), "detect-count");
  gtk_widget_set_halign (GTK_WIDGET (self->count), GTK_ALIGN_START);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->count), FALSE, FALSE, 0);
  self->timings = GTK_LABEL (gtk_label_new (""));
  gtk_widget_set_name (GTK_WIDGET (self->timings), "detect-timings");
  gtk_label_set_line_wrap (self->timings, TRUE);
  gtk_label_set_xalign (self->timings, 0.0);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->timings)), GTK_STYLE_CLASS_DIM_LABEL);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->timings), FALSE, FALSE, 0);

  self->table = lm_source_table_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 180);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->table));
  gtk_box_pack_start (GTK_BOX (self), scrolled, FALSE, FALSE, 0);
  self->export_button = gtk_button_new_with_mnemonic (_("_Export Catalogue…"));
  gtk_widget_set_name (self->export_button, "detect-export");
  gtk_widget_set_sensitive (self->export_button, FALSE);
  gtk_box_pack_start (GTK_BOX (self), self->export_button, FALSE, FALSE, 0);

  g_signal_connect_swapped (self->threshold, "value-changed", G_CALLBACK (on_control), self);
  g_signal_connect_swapped (self->kappa, "value-changed", G_CALLBACK (on_control), self);
  g_signal_connect_swapped (self->min_area, "value-changed", G_CALLBACK (on_control), self);
  g_signal_connect_swapped (self->connectivity, "changed", G_CALLBACK (on_control), self);
  g_signal_connect_swapped (self->filter, "value-changed", G_CALLBACK (on_control), self);
  g_signal_connect_swapped (self->mesh, "value-changed", G_CALLBACK (on_control), self);
  g_signal_connect (gtk_tree_view_get_selection (self->table), "changed", G_CALLBACK (on_selection), self);
  g_signal_connect_swapped (self->export_button, "clicked", G_CALLBACK (on_export), self);
}

static void
lm_detect_panel_dispose (GObject *object)
{
  LmDetectPanel *self = LM_DETECT_PANEL (object);
  g_clear_handle_id (&self->changed_source, g_source_remove);
  G_OBJECT_CLASS (lm_detect_panel_parent_class)->dispose (object);
}

static void
lm_detect_panel_class_init (LmDetectPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = lm_detect_panel_dispose;
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
  signals[SOURCE_SELECTED] = g_signal_new ("source-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                           NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[EXPORT] = g_signal_new ("export", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 0);
}

GtkWidget *
lm_detect_panel_new (void)
{
  return g_object_new (LM_TYPE_DETECT_PANEL, NULL);
}
