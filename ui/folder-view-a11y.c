/* The folder view's accessible objects (folder-view-a11y.h). */
#include "folder-view-a11y.h"

#include <glib/gi18n.h>

#include "folder-view.h"

/* ---- a cell ------------------------------------------------------------------------------ */

#define LM_TYPE_FOLDER_CELL_ACCESSIBLE (lm_folder_cell_accessible_get_type ())
G_DECLARE_FINAL_TYPE (LmFolderCellAccessible, lm_folder_cell_accessible, LM, FOLDER_CELL_ACCESSIBLE, AtkObject)

struct _LmFolderCellAccessible {
  AtkObject parent_instance;
  LmFolderView *view;    /* weak */
  LmPhotoRecord *record; /* the view's; NULL once its photos were replaced (defunct) */
  char *description;
};

static void cell_component_init (AtkComponentIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LmFolderCellAccessible, lm_folder_cell_accessible, ATK_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (ATK_TYPE_COMPONENT, cell_component_init))

/* Where the cell's photo is shown now, -1 when nowhere. */
static int
cell_position (LmFolderCellAccessible *cell)
{
  if (cell->view == NULL || cell->record == NULL)
    return -1;
  for (guint i = 0; i < lm_folder_view_get_n_photos (cell->view); i++)
    if (lm_folder_view_get_photo (cell->view, i) == cell->record)
      return (int) i;
  return -1;
}

static const char *
cell_get_name (AtkObject *object)
{
  LmFolderCellAccessible *cell = LM_FOLDER_CELL_ACCESSIBLE (object);
  return cell->record ? cell->record->name : NULL;
}

/* The rating and edits, as the cell's row of stars shows them. */
static const char *
cell_get_description (AtkObject *object)
{
  LmFolderCellAccessible *cell = LM_FOLDER_CELL_ACCESSIBLE (object);
  if (cell->record == NULL)
    return NULL;
  const LmPhotoRecord *r = cell->record;
  g_autofree char *rating = r->rating < 0    ? g_strdup (_("rejected"))
                            : r->rating == 0 ? g_strdup (_("not rated"))
                                             : g_strdup_printf (g_dngettext (NULL, "%d star", "%d stars", r->rating),
                                                                r->rating);
  g_free (cell->description);
  cell->description = r->has_edits ? g_strdup_printf (_("%s, edited"), rating) : g_steal_pointer (&rating);
  return cell->description;
}

static int
cell_get_index_in_parent (AtkObject *object)
{
  return cell_position (LM_FOLDER_CELL_ACCESSIBLE (object));
}

static AtkStateSet *
cell_ref_state_set (AtkObject *object)
{
  LmFolderCellAccessible *cell = LM_FOLDER_CELL_ACCESSIBLE (object);
  AtkStateSet *states = atk_state_set_new ();
  int position = cell_position (cell);
  if (position < 0)
    {
      atk_state_set_add_state (states, ATK_STATE_DEFUNCT);
      return states;
    }
  atk_state_set_add_state (states, ATK_STATE_SELECTABLE);
  atk_state_set_add_state (states, ATK_STATE_FOCUSABLE);
  atk_state_set_add_state (states, ATK_STATE_VISIBLE);
  atk_state_set_add_state (states, ATK_STATE_ENABLED);
  guint first, last;
  if (lm_folder_view_visible_range (cell->view, &first, &last) && (guint) position >= first && (guint) position <= last)
    atk_state_set_add_state (states, ATK_STATE_SHOWING);
  if (lm_folder_view_is_selected (cell->view, (guint) position))
    atk_state_set_add_state (states, ATK_STATE_SELECTED);
  if (position == lm_folder_view_get_cursor (cell->view) && gtk_widget_has_focus (GTK_WIDGET (cell->view)))
    atk_state_set_add_state (states, ATK_STATE_FOCUSED);
  return states;
}

static void
cell_get_extents (AtkComponent *component, int *x, int *y, int *width, int *height, AtkCoordType coord_type)
{
  LmFolderCellAccessible *cell = LM_FOLDER_CELL_ACCESSIBLE (component);
  *x = *y = *width = *height = 0;
  int position = cell_position (cell);
  GdkWindow *window = cell->view ? gtk_widget_get_window (GTK_WIDGET (cell->view)) : NULL;
  GdkRectangle area;
  if (position < 0 || window == NULL || !lm_folder_view_cell_area (cell->view, (guint) position, &area, NULL))
    return;
  int ox, oy;
  gdk_window_get_origin (window, &ox, &oy);
  *x = ox + area.x, *y = oy + area.y, *width = area.width, *height = area.height;
  if (coord_type == ATK_XY_WINDOW)
    {
      int tx, ty;
      gdk_window_get_origin (gdk_window_get_toplevel (window), &tx, &ty);
      *x -= tx, *y -= ty;
    }
}

static gboolean
cell_grab_focus (AtkComponent *component)
{
  LmFolderCellAccessible *cell = LM_FOLDER_CELL_ACCESSIBLE (component);
  int position = cell_position (cell);
  if (position < 0)
    return FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (cell->view));
  lm_folder_view_set_cursor (cell->view, (guint) position, FALSE, TRUE);
  return TRUE;
}

static void
cell_component_init (AtkComponentIface *iface)
{
  iface->get_extents = cell_get_extents;
  iface->grab_focus = cell_grab_focus;
}

static void
cell_finalize (GObject *object)
{
  LmFolderCellAccessible *cell = LM_FOLDER_CELL_ACCESSIBLE (object);
  g_clear_weak_pointer (&cell->view);
  g_free (cell->description);
  G_OBJECT_CLASS (lm_folder_cell_accessible_parent_class)->finalize (object);
}

static void
lm_folder_cell_accessible_class_init (LmFolderCellAccessibleClass *klass)
{
  AtkObjectClass *atk_class = ATK_OBJECT_CLASS (klass);
  G_OBJECT_CLASS (klass)->finalize = cell_finalize;
  atk_class->get_name = cell_get_name;
  atk_class->get_description = cell_get_description;
  atk_class->get_index_in_parent = cell_get_index_in_parent;
  atk_class->ref_state_set = cell_ref_state_set;
}

static void
lm_folder_cell_accessible_init (LmFolderCellAccessible *cell)
{
}

/* ---- the view ---------------------------------------------------------------------------- */

struct _LmFolderViewAccessible {
  GtkWidgetAccessible parent_instance;
  GHashTable *cells; /* LmPhotoRecord * → LmFolderCellAccessible * (a reference) */
  int focused;       /* the cursor last told, -1 for none */
};

static void selection_init (AtkSelectionIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LmFolderViewAccessible, lm_folder_view_accessible, GTK_TYPE_WIDGET_ACCESSIBLE,
                               G_IMPLEMENT_INTERFACE (ATK_TYPE_SELECTION, selection_init))

static LmFolderView *
view_of (gpointer accessible)
{
  GtkWidget *widget = gtk_accessible_get_widget (GTK_ACCESSIBLE (accessible));
  return widget ? LM_FOLDER_VIEW (widget) : NULL;
}

static int
view_get_n_children (AtkObject *object)
{
  LmFolderView *view = view_of (object);
  return view ? (int) lm_folder_view_get_n_photos (view) : 0;
}

static AtkObject *
view_ref_child (AtkObject *object, int i)
{
  LmFolderViewAccessible *self = LM_FOLDER_VIEW_ACCESSIBLE (object);
  LmFolderView *view = view_of (object);
  if (view == NULL || i < 0 || (guint) i >= lm_folder_view_get_n_photos (view))
    return NULL;
  LmPhotoRecord *record = lm_folder_view_get_photo (view, (guint) i);
  LmFolderCellAccessible *cell = g_hash_table_lookup (self->cells, record);
  if (cell == NULL)
    {
      cell = g_object_new (LM_TYPE_FOLDER_CELL_ACCESSIBLE, NULL);
      g_set_weak_pointer (&cell->view, view);
      cell->record = record;
      atk_object_set_role (ATK_OBJECT (cell), ATK_ROLE_ICON);
      atk_object_set_parent (ATK_OBJECT (cell), object);
      g_hash_table_insert (self->cells, record, cell);
    }
  return g_object_ref (ATK_OBJECT (cell));
}

/* The view's selection changed: said, and the focused photo where the cursor moved. */
static void
on_selection_changed (LmFolderView *view, LmFolderViewAccessible *self)
{
  g_signal_emit_by_name (self, "selection-changed");
  int cursor = lm_folder_view_get_cursor (view);
  if (cursor == self->focused)
    return;
  self->focused = cursor;
  if (cursor < 0)
    return;
  g_autoptr (AtkObject) cell = view_ref_child (ATK_OBJECT (self), cursor);
  if (cell == NULL)
    return;
  atk_object_notify_state_change (cell, ATK_STATE_FOCUSED, gtk_widget_has_focus (GTK_WIDGET (view)));
  g_signal_emit_by_name (self, "active-descendant-changed", cell);
}

static void
view_initialize (AtkObject *object, gpointer data)
{
  ATK_OBJECT_CLASS (lm_folder_view_accessible_parent_class)->initialize (object, data);
  atk_object_set_role (object, ATK_ROLE_LAYERED_PANE);
  g_signal_connect_object (data, "selection-changed", G_CALLBACK (on_selection_changed), object, 0);
}

static void
defunct_all (LmFolderViewAccessible *self)
{
  GHashTableIter it;
  gpointer cell;
  g_hash_table_iter_init (&it, self->cells);
  while (g_hash_table_iter_next (&it, NULL, &cell))
    {
      LM_FOLDER_CELL_ACCESSIBLE (cell)->record = NULL;
      atk_object_notify_state_change (ATK_OBJECT (cell), ATK_STATE_DEFUNCT, TRUE);
    }
  g_hash_table_remove_all (self->cells);
}

void
lm_folder_view_accessible_photos_changed (GtkWidget *view)
{
  /* Only where an accessible exists: asking for it would make one. */
  gpointer self = g_object_get_data (G_OBJECT (view), "lumen-folder-accessible");
  if (self == NULL)
    return;
  defunct_all (self);
  LM_FOLDER_VIEW_ACCESSIBLE (self)->focused = -1;
  g_signal_emit_by_name (self, "visible-data-changed"); /* its children: read them anew */
}

static void
view_widget_set (GtkAccessible *accessible)
{
  g_object_set_data (G_OBJECT (gtk_accessible_get_widget (accessible)), "lumen-folder-accessible", accessible);
}

static void
view_widget_unset (GtkAccessible *accessible)
{
  g_object_set_data (G_OBJECT (gtk_accessible_get_widget (accessible)), "lumen-folder-accessible", NULL);
  defunct_all (LM_FOLDER_VIEW_ACCESSIBLE (accessible));
}

static void
view_finalize (GObject *object)
{
  g_hash_table_unref (LM_FOLDER_VIEW_ACCESSIBLE (object)->cells);
  G_OBJECT_CLASS (lm_folder_view_accessible_parent_class)->finalize (object);
}

static void
lm_folder_view_accessible_class_init (LmFolderViewAccessibleClass *klass)
{
  AtkObjectClass *atk_class = ATK_OBJECT_CLASS (klass);
  GtkAccessibleClass *accessible_class = GTK_ACCESSIBLE_CLASS (klass);
  G_OBJECT_CLASS (klass)->finalize = view_finalize;
  atk_class->initialize = view_initialize;
  atk_class->get_n_children = view_get_n_children;
  atk_class->ref_child = view_ref_child;
  accessible_class->widget_set = view_widget_set;
  accessible_class->widget_unset = view_widget_unset;
}

static void
lm_folder_view_accessible_init (LmFolderViewAccessible *self)
{
  self->cells = g_hash_table_new_full (NULL, NULL, NULL, g_object_unref);
  self->focused = -1;
}

/* ---- AtkSelection: what a screen reader selects, the view selects ------------------------ */

static gboolean
selection_add (AtkSelection *selection, int i)
{
  LmFolderView *view = view_of (selection);
  return view && i >= 0 && lm_folder_view_set_selected (view, (guint) i, TRUE);
}

/* The position of VIEW's I-th selected photo (AtkSelection counts the selected children),
 * -1 when fewer are selected. */
static int
nth_selected (LmFolderView *view, int i)
{
  for (guint p = 0, k = 0; view && p < lm_folder_view_get_n_photos (view); p++)
    if (lm_folder_view_is_selected (view, p) && (int) k++ == i)
      return (int) p;
  return -1;
}

static gboolean
selection_remove (AtkSelection *selection, int i)
{
  LmFolderView *view = view_of (selection);
  int p = nth_selected (view, i);
  return p >= 0 && lm_folder_view_set_selected (view, (guint) p, FALSE);
}

static gboolean
selection_clear (AtkSelection *selection)
{
  LmFolderView *view = view_of (selection);
  return view && lm_folder_view_select_all (view, FALSE);
}

static gboolean
selection_select_all (AtkSelection *selection)
{
  LmFolderView *view = view_of (selection);
  return view && lm_folder_view_select_all (view, TRUE);
}

static AtkObject *
selection_ref (AtkSelection *selection, int i)
{
  int p = nth_selected (view_of (selection), i);
  return p >= 0 ? view_ref_child (ATK_OBJECT (selection), p) : NULL;
}

static int
selection_count (AtkSelection *selection)
{
  LmFolderView *view = view_of (selection);
  g_autoptr (GPtrArray) selected = view ? lm_folder_view_get_selected (view) : NULL;
  return selected ? (int) selected->len : 0;
}

static gboolean
selection_is_selected (AtkSelection *selection, int i)
{
  LmFolderView *view = view_of (selection);
  return view && i >= 0 && lm_folder_view_is_selected (view, (guint) i);
}

static void
selection_init (AtkSelectionIface *iface)
{
  iface->add_selection = selection_add;
  iface->remove_selection = selection_remove;
  iface->clear_selection = selection_clear;
  iface->select_all_selection = selection_select_all;
  iface->ref_selection = selection_ref;
  iface->get_selection_count = selection_count;
  iface->is_child_selected = selection_is_selected;
}
