/* LmAstroStretchPanel (astro-stretch-panel.h). */
#include "astro-stretch-panel.h"

#include <glib/gi18n.h>

#include "slider-input.h"

struct _LmAstroStretchPanel {
  GtkBox parent_instance;
  GtkComboBoxText *curve, *limits;
  GtkSpinButton *low, *high;
};

G_DEFINE_FINAL_TYPE (LmAstroStretchPanel, lm_astro_stretch_panel, GTK_TYPE_BOX)

enum { CHANGED, SHOW_HEADER, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
emit_changed (LmAstroStretchPanel *self)
{
  /* Percentiles mean nothing to zscale. */
  gboolean percent = gtk_combo_box_get_active (GTK_COMBO_BOX (self->limits)) == LM_LIMITS_PERCENTILE;
  gtk_widget_set_sensitive (GTK_WIDGET (self->low), percent);
  gtk_widget_set_sensitive (GTK_WIDGET (self->high), percent);
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
on_header (LmAstroStretchPanel *self)
{
  g_signal_emit (self, signals[SHOW_HEADER], 0);
}

void
lm_astro_stretch_panel_get (LmAstroStretchPanel *self, LmStretchParams *params)
{
  lm_stretch_params_init (params);
  params->kind = gtk_combo_box_get_active (GTK_COMBO_BOX (self->curve));
  params->limits = gtk_combo_box_get_active (GTK_COMBO_BOX (self->limits));
  params->low_percent = gtk_spin_button_get_value (self->low);
  params->high_percent = gtk_spin_button_get_value (self->high);
}

static GtkSpinButton *
percent_spin (double value)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (0.0, 100.0, 0.1);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 2);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  return GTK_SPIN_BUTTON (spin);
}

static void
attach_row (GtkGrid *grid, int row, const char *label, GtkWidget *widget)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), widget);
  gtk_widget_set_halign (l, GTK_ALIGN_START);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_grid_attach (grid, l, 0, row, 1, 1);
  gtk_grid_attach (grid, widget, 1, row, 1, 1);
  /* The side panel scrolls under the wheel; a value changes only once clicked. */
  lm_slider_wheel_needs_focus (widget);
}

static void
lm_astro_stretch_panel_init (LmAstroStretchPanel *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  GtkWidget *title = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", _("Display Stretch"));
  gtk_label_set_markup (GTK_LABEL (title), markup);
  gtk_widget_set_halign (title, GTK_ALIGN_START);
  gtk_box_pack_start (GTK_BOX (self), title, FALSE, FALSE, 0);

  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_row_spacing (grid, 4);
  gtk_grid_set_column_spacing (grid, 8);
  self->curve = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  /* In LmStretchKind's order. */
  gtk_combo_box_text_append_text (self->curve, _("Linear"));
  gtk_combo_box_text_append_text (self->curve, _("Square root"));
  gtk_combo_box_text_append_text (self->curve, _("Logarithmic"));
  gtk_combo_box_text_append_text (self->curve, _("Asinh"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->curve), LM_STRETCH_LINEAR);
  gtk_widget_set_name (GTK_WIDGET (self->curve), "stretch-curve");
  attach_row (grid, 0, _("_Curve"), GTK_WIDGET (self->curve));
  self->limits = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  gtk_combo_box_text_append_text (self->limits, _("Percentiles"));
  gtk_combo_box_text_append_text (self->limits, _("Zscale"));
  gtk_combo_box_set_active (GTK_COMBO_BOX (self->limits), LM_LIMITS_PERCENTILE);
  gtk_widget_set_name (GTK_WIDGET (self->limits), "stretch-limits");
  attach_row (grid, 1, _("_Limits"), GTK_WIDGET (self->limits));
  self->low = percent_spin (0.5);
  self->high = percent_spin (99.5);
  attach_row (grid, 2, _("Lo_w (%)"), GTK_WIDGET (self->low));
  attach_row (grid, 3, _("_High (%)"), GTK_WIDGET (self->high));
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (grid), FALSE, FALSE, 0);

  GtkWidget *header = gtk_button_new_with_mnemonic (_("FITS _Header…"));
  gtk_widget_set_name (header, "fits-header");
  gtk_box_pack_start (GTK_BOX (self), header, FALSE, FALSE, 0);

  g_signal_connect_swapped (self->curve, "changed", G_CALLBACK (emit_changed), self);
  g_signal_connect_swapped (self->limits, "changed", G_CALLBACK (emit_changed), self);
  g_signal_connect_swapped (self->low, "value-changed", G_CALLBACK (emit_changed), self);
  g_signal_connect_swapped (self->high, "value-changed", G_CALLBACK (emit_changed), self);
  g_signal_connect_swapped (header, "clicked", G_CALLBACK (on_header), self);
}

static void
lm_astro_stretch_panel_class_init (LmAstroStretchPanelClass *klass)
{
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                   NULL, G_TYPE_NONE, 0);
  signals[SHOW_HEADER] = g_signal_new ("show-header", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                       NULL, NULL, G_TYPE_NONE, 0);
}

GtkWidget *
lm_astro_stretch_panel_new (void)
{
  return g_object_new (LM_TYPE_ASTRO_STRETCH_PANEL, NULL);
}
