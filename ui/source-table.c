/* The source table (source-table.h). Values are kept as numbers, so that sorting is by
 * value; cells format them. */
#include "source-table.h"

#include <glib/gi18n.h>

static void
format_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
             gpointer data)
{
  int col = GPOINTER_TO_INT (data);
  double v;
  gtk_tree_model_get (model, iter, col, &v, -1);
  char text[32];
  g_snprintf (text, sizeof text, col == LM_SOURCE_COL_FLUX || col == LM_SOURCE_COL_PEAK ? "%.4g" : "%.2f", v);
  g_object_set (cell, "text", text, NULL);
}

GtkTreeView *
lm_source_table_new (void)
{
  GtkListStore *store = gtk_list_store_new (LM_SOURCE_N_COLS, G_TYPE_UINT, G_TYPE_DOUBLE, G_TYPE_DOUBLE,
                                            G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_UINT, G_TYPE_DOUBLE,
                                            G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  GtkTreeView *view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (store)));
  g_object_unref (store);
  gtk_widget_set_name (GTK_WIDGET (view), "source-table");
  /* Column titles: short, as the catalogue's. */
  const char *titles[LM_SOURCE_N_COLS] = { C_("source", "ID"), "x", "y", _("Flux"), _("Peak"), _("Area"), "a", "b",
                                           "FWHM" };
  for (int c = 0; c < LM_SOURCE_N_COLS; c++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      g_object_set (cell, "xalign", 1.0, NULL);
      GtkTreeViewColumn *column = gtk_tree_view_column_new ();
      gtk_tree_view_column_set_title (column, titles[c]);
      gtk_tree_view_column_pack_start (column, cell, TRUE);
      if (c == LM_SOURCE_COL_ID || c == LM_SOURCE_COL_AREA)
        gtk_tree_view_column_add_attribute (column, cell, "text", c);
      else
        gtk_tree_view_column_set_cell_data_func (column, cell, format_cell, GINT_TO_POINTER (c), NULL);
      gtk_tree_view_column_set_sort_column_id (column, c);
      gtk_tree_view_column_set_resizable (column, TRUE);
      gtk_tree_view_append_column (view, column);
    }
  return view;
}

void
lm_source_table_set (GtkTreeView *table, const LmDetectResult *result)
{
  GtkListStore *store = GTK_LIST_STORE (gtk_tree_view_get_model (table));
  gtk_list_store_clear (store);
  for (guint i = 0; result && i < result->n_sources; i++)
    {
      const LmSource *s = &result->sources[i];
      gtk_list_store_insert_with_values (store, NULL, -1, LM_SOURCE_COL_ID, s->label, LM_SOURCE_COL_X, s->x,
                                         LM_SOURCE_COL_Y, s->y, LM_SOURCE_COL_FLUX, s->flux, LM_SOURCE_COL_PEAK,
                                         (double) s->peak, LM_SOURCE_COL_AREA, s->area, LM_SOURCE_COL_A, s->a,
                                         LM_SOURCE_COL_B, s->b, LM_SOURCE_COL_FWHM, s->fwhm, -1);
    }
}
