#include "window-raw.h"

#include "window-private.h"

void
lm_window_build_raw_panel (LmWindow *self)
{
  self->raw_panel = LM_OP_PANEL (lm_op_panel_new (lm_raw_op_info ()));
  lm_op_panel_set_switchable (self->raw_panel, FALSE);
  gtk_widget_set_name (GTK_WIDGET (self->raw_panel), "raw");
  g_signal_connect (self->raw_panel, "changed", G_CALLBACK (lm_window_on_panel_changed), self);
  g_signal_connect (self->raw_panel, "committed", G_CALLBACK (lm_window_on_panel_committed), self);
  gtk_box_pack_start (self->side_panel, GTK_WIDGET (self->raw_panel), FALSE, FALSE, 0);
  /* Its insides shown now; the panel itself only while the source is a raw. */
  gtk_widget_show_all (GTK_WIDGET (self->raw_panel));
  gtk_widget_hide (GTK_WIDGET (self->raw_panel));
  gtk_widget_set_no_show_all (GTK_WIDGET (self->raw_panel), TRUE);
}

void
lm_window_show_raw_panel (LmWindow *self, gboolean raw)
{
  gtk_widget_set_visible (GTK_WIDGET (self->raw_panel), raw);
}
