/* Apply Edits to Photos…'s chooser at its default size, opened as a person opens it (the
 * action, then the dialog on screen): its file-filter button shows the filter's whole name
 * ("Photos"), not an ellipsis. The button's text is laid out by its cell view: the test
 * reads the width that text needs (the cell's natural width, which an ellipsizing renderer
 * does not give as its minimum) against the width the cell view got. Run in the default
 * language and in French (meson.build), where the export options beside it are wider. */
#include <string.h>
#include <glib/gi18n.h>

#include "ui-testlib.h"

typedef struct {
  char *filter_name;  /* the chooser's filter as it names it */
  int needed, given;  /* the filter's text: the width it needs, the width it got */
} Seen;

/* The cell view (the button's face) under ROOT that shows the filter: the combo box whose
 * active item is that filter. */
static GtkWidget *
filter_face (GtkWidget *dialog, const char *filter_name)
{
  g_autoptr (GPtrArray) combos = ui_find_all (dialog, GTK_TYPE_COMBO_BOX);
  for (guint i = 0; i < combos->len; i++)
    {
      GtkComboBox *combo = combos->pdata[i];
      GtkTreeIter iter;
      if (!gtk_widget_get_mapped (GTK_WIDGET (combo)) || !gtk_combo_box_get_active_iter (combo, &iter))
        continue;
      g_autofree char *text = NULL;
      gtk_tree_model_get (gtk_combo_box_get_model (combo), &iter, 0, &text, -1);
      if (g_strcmp0 (text, filter_name) != 0)
        continue;
      g_autoptr (GPtrArray) faces = ui_find_all (GTK_WIDGET (combo), GTK_TYPE_CELL_VIEW);
      g_assert_cmpuint (faces->len, >, 0);
      return faces->pdata[0];
    }
  return NULL;
}

static void
answer (GtkWidget *dialog, gpointer data)
{
  Seen *seen = data;
  GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
  g_assert_nonnull (filter);
  seen->filter_name = g_strdup (gtk_file_filter_get_name (filter));
  GtkWidget *face = filter_face (dialog, seen->filter_name);
  g_assert_nonnull (face);
  /* The whole text's width: the cell renderers' natural width at the face's height. */
  GList *cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (face));
  int needed = 0;
  for (GList *l = cells; l; l = l->next)
    {
      int nat = 0;
      gtk_cell_renderer_get_preferred_width (l->data, face, NULL, &nat);
      needed += nat;
    }
  g_list_free (cells);
  seen->needed = needed;
  seen->given = gtk_widget_get_allocated_width (face);
  GtkWidget *cancel = ui_button_labelled (dialog, _("_Cancel"));
  g_assert_nonnull (cancel);
  ui_click_middle (cancel);
}

static void
open_apply (gpointer unused)
{
  ui_focus_window (GTK_WIDGET (ui_window));
  ui_activate ("apply-edits");
}

static void
test_filter_label (void)
{
  Seen seen = { 0 };
  ui_answer_chooser (open_apply, NULL, answer, &seen);
  g_test_message ("language %s: the filter \"%s\" needs %d px, its button shows %d px", g_getenv ("LANGUAGE"),
                  seen.filter_name, seen.needed, seen.given);
  g_assert_cmpint (seen.needed, >, 0);
  g_assert_cmpint (seen.given, >=, seen.needed);
  g_free (seen.filter_name);
}

int
main (int argc, char **argv)
{
  ui_test_init_localized (&argc, &argv, "photos/chelsea.png");
  g_test_add_func ("/apply-chooser/filter-label", test_filter_label);
  return g_test_run ();
}
