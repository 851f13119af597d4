/* LmObjectsPanel (objects-panel.h). */
#include "objects-panel.h"

#include <math.h>
#include <glib/gi18n.h>

#include "core/detect/models.h"
#include "slider-input.h"

/* Sensitivity runs from 1 to 10 and is 10 − min_neighbors: a box needs more than
 * min_neighbors overlapping windows of the pyramid to be kept, so fewer needed is more found
 * (and more false finds). 7 is OpenCV's default of 3 neighbours; 10 keeps every window that
 * passed (0), 1 asks for 9. */
#define SENSITIVITY_MAX 10
#define SENSITIVITY_DEFAULT 7
/* The smallest object, in percent of the photo's shorter side: 2 % is 80 px on a 24 MP photo
 * (a face across a room), and the pyramid's many small levels below it are skipped. 0 looks
 * from the model's own window (24 px for faces) up. */
#define MIN_SIZE_DEFAULT 2.0

enum { COL_LABEL, COL_SIZE, COL_NEIGHBORS, COL_INDEX, N_COLS };

struct _LmObjectsPanel {
  GtkBox parent_instance;
  GtkComboBoxText *model;
  GtkSpinButton *min_size;
  GtkScale *sensitivity;
  GtkLabel *status;
  GtkListStore *store;
  GtkTreeView *list;
  GtkWidget *mask_one, *mask_all, *crop;
  char *shown_model; /* of the boxes listed */
  gboolean filling;  /* the list is being filled, not chosen from */
};

G_DEFINE_FINAL_TYPE (LmObjectsPanel, lm_objects_panel, GTK_TYPE_BOX)

enum { DETECT, BOX_SELECTED, MASK, SUGGEST_CROP, N_SIGNALS };
static guint signals[N_SIGNALS];

const char *
lm_objects_noun (const char *model)
{
  static const struct {
    const char *prefix, *noun;
  } nouns[] = {
    /* TRANSLATORS: one object found, in a label such as "face 1" */
    { "faces", N_("face") },        { "profile-faces", N_("face") }, { "eyes", N_("eye") },
    { "smiles", N_("smile") },      { "full-bodies", N_("person") }, { "upper-bodies", N_("person") },
    { "lower-bodies", N_("person") }, { "cat-faces", N_("cat") },    { "plates", N_("plate") },
  };
  for (guint i = 0; model && i < G_N_ELEMENTS (nouns); i++)
    if (g_str_has_prefix (model, nouns[i].prefix))
      return _(nouns[i].noun);
  /* TRANSLATORS: one object found by a model without a name of its own, as in "object 1" */
  return _("object");
}

char *
lm_objects_label (const char *model, guint index)
{
  /* TRANSLATORS: a box's label over the photo and in the list: the object and its number */
  return g_strdup_printf (C_ ("object label", "%s %u"), lm_objects_noun (model), index + 1);
}

const char *
lm_objects_panel_get_model (LmObjectsPanel *self)
{
  const char *id = gtk_combo_box_get_active_id (GTK_COMBO_BOX (self->model));
  return id ? id : "faces";
}

void
lm_objects_panel_get_params (LmObjectsPanel *self, guint width, guint height, LmCascadeParams *params)
{
  lm_cascade_params_init (params);
  double percent = gtk_spin_button_get_value (self->min_size);
  int side = (int) lround (percent / 100.0 * MIN (width, height));
  params->min_width = params->min_height = MAX (side, 0);
  params->min_neighbors = SENSITIVITY_MAX - (int) lround (gtk_range_get_value (GTK_RANGE (self->sensitivity)));
}

int
lm_objects_panel_get_selected (LmObjectsPanel *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  if (!gtk_tree_selection_get_selected (gtk_tree_view_get_selection (self->list), &model, &iter))
    return -1;
  int index;
  gtk_tree_model_get (model, &iter, COL_INDEX, &index, -1);
  return index;
}

static void
update_buttons (LmObjectsPanel *self)
{
  gboolean any = gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->store), NULL) > 0;
  gtk_widget_set_sensitive (self->mask_one, lm_objects_panel_get_selected (self) >= 0);
  gtk_widget_set_sensitive (self->mask_all, any);
  gtk_widget_set_sensitive (self->crop, any);
  /* "Mask from All Faces": the model's objects, in the plural as the model's label has them. */
  g_autofree char *all = NULL;
  if (self->shown_model && g_str_has_prefix (self->shown_model, "faces"))
    all = g_strdup (_("Mask from All Faces"));
  else
    all = g_strdup (_("Mask from All"));
  gtk_button_set_label (GTK_BUTTON (self->mask_all), all);
}

void
lm_objects_panel_show (LmObjectsPanel *self, const GArray *boxes, const char *model, const char *status)
{
  self->filling = TRUE;
  gtk_list_store_clear (self->store);
  g_free (self->shown_model);
  self->shown_model = g_strdup (model);
  for (guint i = 0; boxes && i < boxes->len; i++)
    {
      const LmCascadeBox *b = &g_array_index (boxes, LmCascadeBox, i);
      g_autofree char *label = lm_objects_label (model, i);
      /* TRANSLATORS: a box's size in the list, in pixels of the photo */
      g_autofree char *size = g_strdup_printf (_("%d × %d"), b->width, b->height);
      gtk_list_store_insert_with_values (self->store, NULL, -1, COL_LABEL, label, COL_SIZE, size, COL_NEIGHBORS,
                                         b->neighbors, COL_INDEX, (int) i, -1);
    }
  self->filling = FALSE;
  gtk_label_set_text (self->status, status ? status : "");
  update_buttons (self);
}

void
lm_objects_panel_set_status (LmObjectsPanel *self, const char *status)
{
  gtk_label_set_text (self->status, status ? status : "");
}

static void
on_selection (GtkTreeSelection *selection, LmObjectsPanel *self)
{
  update_buttons (self);
  if (!self->filling)
    g_signal_emit (self, signals[BOX_SELECTED], 0, lm_objects_panel_get_selected (self));
}

static void
on_detect (LmObjectsPanel *self)
{
  g_signal_emit (self, signals[DETECT], 0);
}

static void
on_mask_one (LmObjectsPanel *self)
{
  g_signal_emit (self, signals[MASK], 0, FALSE);
}

static void
on_mask_all (LmObjectsPanel *self)
{
  g_signal_emit (self, signals[MASK], 0, TRUE);
}

static void
on_crop (LmObjectsPanel *self)
{
  g_signal_emit (self, signals[SUGGEST_CROP], 0);
}

static void
attach_row (GtkGrid *grid, int row, const char *label, GtkWidget *widget, const char *name, const char *tooltip)
{
  GtkWidget *l = gtk_label_new_with_mnemonic (label);
  gtk_label_set_mnemonic_widget (GTK_LABEL (l), widget);
  gtk_widget_set_halign (l, GTK_ALIGN_START);
  /* Narrow: the side panel takes the width of its widest part, and the curve editor, as tall
   * as it is wide, would grow past the panel's height. */
  gtk_label_set_line_wrap (GTK_LABEL (l), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (l), 14);
  gtk_label_set_xalign (GTK_LABEL (l), 0.0f);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_name (widget, name);
  gtk_widget_set_tooltip_text (widget, tooltip);
  gtk_grid_attach (grid, l, 0, row, 1, 1);
  gtk_grid_attach (grid, widget, 1, row, 1, 1);
  /* The side panel scrolls under the wheel; a value changes only once clicked. */
  lm_slider_wheel_needs_focus (widget);
}

static GtkWidget *
button (GtkBox *box, const char *label, const char *name, const char *tooltip, GCallback clicked,
        LmObjectsPanel *self)
{
  GtkWidget *b = gtk_button_new_with_label (label);
  gtk_widget_set_name (b, name);
  gtk_widget_set_tooltip_text (b, tooltip);
  g_signal_connect_swapped (b, "clicked", clicked, self);
  gtk_box_pack_start (box, b, TRUE, TRUE, 0);
  return b;
}

static void
add_column (LmObjectsPanel *self, const char *title, int column, float xalign)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  g_object_set (cell, "xalign", xalign, NULL);
  GtkTreeViewColumn *c = gtk_tree_view_column_new_with_attributes (title, cell, "text", column, NULL);
  gtk_tree_view_column_set_expand (c, column == COL_LABEL);
  gtk_tree_view_append_column (self->list, c);
}

static void
build_controls (LmObjectsPanel *self)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_row_spacing (grid, 4);
  gtk_grid_set_column_spacing (grid, 8);
  self->model = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  for (const LmCascadeModel *m = lm_cascade_models (); m->name; m++)
    gtk_combo_box_text_append (self->model, m->name, _(m->label));
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->model), "faces");
  /* The models' long names are cut short in the closed box (the list shows them whole). */
  GList *cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (self->model));
  for (GList *c = cells; c; c = c->next)
    g_object_set (c->data, "ellipsize", PANGO_ELLIPSIZE_END, "width-chars", 12, NULL);
  g_list_free (cells);
  attach_row (grid, 0, _("_Model"), GTK_WIDGET (self->model), "objects-model",
              _("What to look for: OpenCV's cascade models, from the opencv-data package"));
  self->min_size = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (0.0, 50.0, 0.5));
  gtk_spin_button_set_digits (self->min_size, 1);
  gtk_spin_button_set_value (self->min_size, MIN_SIZE_DEFAULT);
  attach_row (grid, 1, _("S_mallest (percent of side)"), GTK_WIDGET (self->min_size), "objects-min-size",
              _("The smallest object looked for, in percent of the photo's shorter side (0: the model's own "
                "window); larger is faster"));
  self->sensitivity = GTK_SCALE (gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 1, SENSITIVITY_MAX, 1));
  gtk_scale_set_digits (self->sensitivity, 0);
  gtk_range_set_value (GTK_RANGE (self->sensitivity), SENSITIVITY_DEFAULT);
  attach_row (grid, 2, _("Sensi_tivity"), GTK_WIDGET (self->sensitivity), "objects-sensitivity",
              _("Higher finds more, and more that are not there: an object needs fewer overlapping finds "
                "(OpenCV's minNeighbors is 10 less this)"));
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (grid), FALSE, FALSE, 0);
}

static void
lm_objects_panel_init (LmObjectsPanel *self)
{
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  gtk_box_set_spacing (GTK_BOX (self), 6);
  GtkWidget *title = gtk_label_new (NULL);
  g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>", _("Detect Objects"));
  gtk_label_set_markup (GTK_LABEL (title), markup);
  gtk_widget_set_halign (title, GTK_ALIGN_START);
  gtk_box_pack_start (GTK_BOX (self), title, FALSE, FALSE, 0);
  build_controls (self);

  GtkBox *row = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6));
  button (row, _("Detect"), "objects-detect", _("Look for the model's objects in the photo as opened"),
          G_CALLBACK (on_detect), self);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (row), FALSE, FALSE, 0);
  self->status = GTK_LABEL (gtk_label_new (""));
  gtk_widget_set_name (GTK_WIDGET (self->status), "objects-status");
  gtk_label_set_line_wrap (self->status, TRUE);
  gtk_label_set_max_width_chars (self->status, 24);
  gtk_label_set_xalign (self->status, 0.0);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->status)), GTK_STYLE_CLASS_DIM_LABEL);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->status), FALSE, FALSE, 0);

  self->store = gtk_list_store_new (N_COLS, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_INT, G_TYPE_INT);
  self->list = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_widget_set_name (GTK_WIDGET (self->list), "objects-list");
  add_column (self, _("Object"), COL_LABEL, 0.0f);
  add_column (self, _("Size (px)"), COL_SIZE, 1.0f);
  /* TRANSLATORS: the list's column of how many windows of the pyramid found the object */
  add_column (self, _("Finds"), COL_NEIGHBORS, 1.0f);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scrolled), 120);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->list));
  gtk_box_pack_start (GTK_BOX (self), scrolled, FALSE, FALSE, 0);

  /* One above the other: side by side, their labels would widen the panel. */
  GtkBox *masks = GTK_BOX (gtk_box_new (GTK_ORIENTATION_VERTICAL, 6));
  self->mask_one = button (masks, _("Mask from Selected"), "objects-mask-one",
                           _("An ellipse over the box selected joins the selected operation's mask"),
                           G_CALLBACK (on_mask_one), self);
  self->mask_all = button (masks, _("Mask from All"), "objects-mask-all",
                           _("An ellipse over each box joins the selected operation's mask"),
                           G_CALLBACK (on_mask_all), self);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (masks), FALSE, FALSE, 0);
  self->crop = gtk_button_new_with_label (_("Suggest Crop"));
  gtk_widget_set_name (self->crop, "objects-crop");
  gtk_widget_set_tooltip_text (self->crop, _("The largest crop at the crop's aspect ratio that keeps every box, "
                                             "the boxes' centre on a rule-of-thirds point or line"));
  g_signal_connect_swapped (self->crop, "clicked", G_CALLBACK (on_crop), self);
  gtk_box_pack_start (GTK_BOX (self), self->crop, FALSE, FALSE, 0);

  g_signal_connect (gtk_tree_view_get_selection (self->list), "changed", G_CALLBACK (on_selection), self);
  update_buttons (self);
}

static void
lm_objects_panel_finalize (GObject *object)
{
  LmObjectsPanel *self = LM_OBJECTS_PANEL (object);
  g_free (self->shown_model);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (lm_objects_panel_parent_class)->finalize (object);
}

static void
lm_objects_panel_class_init (LmObjectsPanelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lm_objects_panel_finalize;
  signals[DETECT] = g_signal_new ("detect", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 0);
  signals[BOX_SELECTED] = g_signal_new ("box-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 1, G_TYPE_INT);
  signals[MASK] = g_signal_new ("mask", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  signals[SUGGEST_CROP] = g_signal_new ("suggest-crop", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 0);
}

GtkWidget *
lm_objects_panel_new (void)
{
  return g_object_new (LM_TYPE_OBJECTS_PANEL, NULL);
}
