/* LmFolderView (folder-view.h). Why not a GtkFlowBox: a widget per photo, every one of them
 * measured on each resize; here the cost of a frame is that of the cells on screen. */
#include "folder-view.h"

#include <glib/gi18n.h>

#include "folder-view-a11y.h"
#include <math.h>

#define THUMB_TOP 8
#define INFO_HEIGHT 22     /* the row of stars, reject mark and labels under the thumbnail */
#define PREFETCH_SCREENS 2 /* asked for ahead of a scroll, either way, as the thumbnails kept allow */

struct _LmFolderView {
  GtkDrawingArea parent_instance;
  LmFolderThumbs *thumbs;
  gboolean strip;
  GtkAdjustment *hadjustment, *vadjustment;
  guint hscroll_policy, vscroll_policy;

  GPtrArray *records;
  GArray *order;
  GHashTable *selected; /* of LmPhotoRecord * */
  int cursor;           /* a position, -1 for none */
  int anchor;           /* where a Shift range starts */

  /* The rubber band: a press that the pointer drags past the threshold selects the cells the
   * band touches, added to what was selected where Ctrl was held. In the grid's own
   * coordinates (scrolled with it). */
  gboolean pressed, banding;
  double band_x0, band_y0, band_x1, band_y1;
  GHashTable *band_base; /* of LmPhotoRecord *: the selection Ctrl keeps, NULL without */

  guint asked_first, asked_last; /* the visible range last asked for, to ask once */
  gboolean asked;
  int width; /* of the last allocation */
};

static void lm_folder_view_scrollable_init (GtkScrollableInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LmFolderView, lm_folder_view, GTK_TYPE_DRAWING_AREA,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, lm_folder_view_scrollable_init))

enum { PROP_0, PROP_HADJUSTMENT, PROP_VADJUSTMENT, PROP_HSCROLL_POLICY, PROP_VSCROLL_POLICY };
enum { PHOTO_ACTIVATED, SELECTION_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void lm_folder_view_scrollable_init (GtkScrollableInterface *iface) {}

guint
lm_folder_view_get_n_photos (LmFolderView *self)
{
  return self->order ? self->order->len : 0;
}

LmPhotoRecord *
lm_folder_view_get_photo (LmFolderView *self, guint position)
{
  g_return_val_if_fail (position < lm_folder_view_get_n_photos (self), NULL);
  return self->records->pdata[g_array_index (self->order, guint, position)];
}

int
lm_folder_view_find (LmFolderView *self, const char *path)
{
  for (guint i = 0; i < lm_folder_view_get_n_photos (self); i++)
    if (g_str_equal (lm_folder_view_get_photo (self, i)->path, path))
      return (int) i;
  return -1;
}

static guint
columns (LmFolderView *self)
{
  if (self->strip)
    return MAX (1, lm_folder_view_get_n_photos (self));
  return MAX (1, gtk_widget_get_allocated_width (GTK_WIDGET (self)) / LM_FOLDER_CELL_WIDTH);
}

static guint
rows (LmFolderView *self)
{
  guint c = columns (self);
  return (lm_folder_view_get_n_photos (self) + c - 1) / c;
}

/* The grid's left margin: what is left of the width shared out around the columns. */
static int
margin (LmFolderView *self)
{
  if (self->strip)
    return 0;
  return MAX (0, (gtk_widget_get_allocated_width (GTK_WIDGET (self)) - (int) columns (self) * LM_FOLDER_CELL_WIDTH) / 2);
}

static double
value_of (GtkAdjustment *adj)
{
  return adj ? gtk_adjustment_get_value (adj) : 0;
}

gboolean
lm_folder_view_cell_area (LmFolderView *self, guint position, GdkRectangle *cell, GdkRectangle *thumb)
{
  if (position >= lm_folder_view_get_n_photos (self))
    return FALSE;
  guint c = columns (self);
  GdkRectangle r = { margin (self) + (int) (position % c) * LM_FOLDER_CELL_WIDTH - (int) value_of (self->hadjustment),
                     (int) (position / c) * LM_FOLDER_CELL_HEIGHT - (int) value_of (self->vadjustment),
                     LM_FOLDER_CELL_WIDTH, LM_FOLDER_CELL_HEIGHT };
  if (cell)
    *cell = r;
  if (thumb)
    *thumb = (GdkRectangle) { r.x + (LM_FOLDER_CELL_WIDTH - LM_FOLDER_THUMB_SIZE) / 2, r.y + THUMB_TOP,
                              LM_FOLDER_THUMB_SIZE, LM_FOLDER_CELL_HEIGHT - THUMB_TOP - INFO_HEIGHT - 4 };
  return TRUE;
}

int
lm_folder_view_position_at (LmFolderView *self, double x, double y)
{
  double gx = x - margin (self) + value_of (self->hadjustment), gy = y + value_of (self->vadjustment);
  if (gx < 0 || gy < 0)
    return -1;
  guint col = (guint) (gx / LM_FOLDER_CELL_WIDTH), row = (guint) (gy / LM_FOLDER_CELL_HEIGHT);
  if (col >= columns (self))
    return -1;
  guint position = row * columns (self) + col;
  return position < lm_folder_view_get_n_photos (self) ? (int) position : -1;
}

gboolean
lm_folder_view_visible_range (LmFolderView *self, guint *first, guint *last)
{
  guint n = lm_folder_view_get_n_photos (self);
  if (n == 0)
    return FALSE;
  guint c = columns (self);
  if (self->strip)
    {
      double x = value_of (self->hadjustment);
      *first = MIN (n - 1, (guint) (x / LM_FOLDER_CELL_WIDTH));
      *last = MIN (n - 1, (guint) ((x + gtk_widget_get_allocated_width (GTK_WIDGET (self))) / LM_FOLDER_CELL_WIDTH));
      return TRUE;
    }
  double y = value_of (self->vadjustment);
  guint top = (guint) (y / LM_FOLDER_CELL_HEIGHT);
  guint bottom = (guint) ((y + MAX (1, gtk_widget_get_allocated_height (GTK_WIDGET (self))) - 1) / LM_FOLDER_CELL_HEIGHT);
  if (top * c >= n)
    return FALSE;
  *first = top * c;
  *last = MIN (n - 1, (bottom + 1) * c - 1);
  return TRUE;
}

/* The adjustments' range from the photos and the allocation. */
static void
configure (LmFolderView *self)
{
  int w = gtk_widget_get_allocated_width (GTK_WIDGET (self)), h = gtk_widget_get_allocated_height (GTK_WIDGET (self));
  if (self->vadjustment)
    {
      double upper = self->strip ? h : MAX ((double) rows (self) * LM_FOLDER_CELL_HEIGHT, h);
      gtk_adjustment_configure (self->vadjustment, MIN (value_of (self->vadjustment), upper - h), 0, upper,
                                LM_FOLDER_CELL_HEIGHT / 4.0, MAX (h - LM_FOLDER_CELL_HEIGHT, LM_FOLDER_CELL_HEIGHT), h);
    }
  if (self->hadjustment)
    {
      double upper = self->strip ? MAX ((double) lm_folder_view_get_n_photos (self) * LM_FOLDER_CELL_WIDTH, w) : w;
      gtk_adjustment_configure (self->hadjustment, MIN (value_of (self->hadjustment), upper - w), 0, upper,
                                LM_FOLDER_CELL_WIDTH / 4.0, MAX (w - LM_FOLDER_CELL_WIDTH, LM_FOLDER_CELL_WIDTH), w);
    }
}

/* The thumbnails on screen asked for as urgent, those of the screens around as not: once for
 * each new visible range. */
static void
ask_thumbnails (LmFolderView *self)
{
  guint first, last, n = lm_folder_view_get_n_photos (self);
  if (!lm_folder_view_visible_range (self, &first, &last))
    return;
  if (self->asked && first == self->asked_first && last == self->asked_last)
    return;
  self->asked = TRUE, self->asked_first = first, self->asked_last = last;
  guint span = last - first + 1;
  guint ahead = MIN (PREFETCH_SCREENS * span, lm_folder_thumbs_room (self->thumbs, span));
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  lm_folder_thumbs_hold (self->thumbs, TRUE);
  for (guint i = first; i <= last; i++)
    g_ptr_array_add (paths, lm_folder_view_get_photo (self, i)->path);
  lm_folder_thumbs_want (self->thumbs, (const char *const *) paths->pdata, paths->len, TRUE);
  g_ptr_array_set_size (paths, 0);
  /* The next screens first (a scroll goes on as it started, usually down), then the ones
   * before. */
  for (guint i = last + 1; i < n && i <= last + ahead; i++)
    g_ptr_array_add (paths, lm_folder_view_get_photo (self, i)->path);
  for (guint i = first; i-- > 0 && i + ahead >= first;)
    g_ptr_array_add (paths, lm_folder_view_get_photo (self, i)->path);
  if (paths->len)
    lm_folder_thumbs_want (self->thumbs, (const char *const *) paths->pdata, paths->len, FALSE);
  lm_folder_thumbs_hold (self->thumbs, FALSE);
}

static void
star_path (cairo_t *cr, double cx, double cy, double r)
{
  for (int i = 0; i < 10; i++)
    {
      double a = -G_PI / 2 + i * G_PI / 5, rr = i % 2 ? r * 0.45 : r;
      if (i == 0)
        cairo_move_to (cr, cx + rr * cos (a), cy + rr * sin (a));
      else
        cairo_line_to (cr, cx + rr * cos (a), cy + rr * sin (a));
    }
  cairo_close_path (cr);
}

/* darktable's and digiKam's label colours, in LmColorLabel's bit order. */
static const double label_rgb[5][3] = {
  { 0.90, 0.15, 0.15 }, { 0.95, 0.80, 0.10 }, { 0.20, 0.75, 0.25 }, { 0.20, 0.45, 0.95 }, { 0.65, 0.30, 0.85 },
};

static void
draw_info (cairo_t *cr, const LmPhotoRecord *r, GdkRectangle *cell, const GdkRGBA *fg)
{
  double y = cell->y + cell->height - INFO_HEIGHT / 2.0 - 4;
  double x = cell->x + 14;
  if (r->rating < 0)
    {
      /* Rejected: a red cross where the stars would be. */
      cairo_set_source_rgb (cr, 0.85, 0.1, 0.1);
      cairo_set_line_width (cr, 2);
      cairo_move_to (cr, x - 5, y - 5), cairo_line_to (cr, x + 5, y + 5);
      cairo_move_to (cr, x + 5, y - 5), cairo_line_to (cr, x - 5, y + 5);
      cairo_stroke (cr);
    }
  else
    for (int i = 0; i < 5; i++)
      {
        star_path (cr, x + i * 15, y, 6);
        cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, i < r->rating ? 0.95 : 0.25);
        if (i < r->rating)
          cairo_fill (cr);
        else
          {
            cairo_set_line_width (cr, 1);
            cairo_stroke (cr);
          }
      }
  double lx = cell->x + cell->width - 12;
  for (int i = 4; i >= 0; i--)
    if (r->labels & (1u << i))
      {
        cairo_arc (cr, lx, y, 5, 0, 2 * G_PI);
        cairo_set_source_rgb (cr, label_rgb[i][0], label_rgb[i][1], label_rgb[i][2]);
        cairo_fill (cr);
        lx -= 13;
      }
  if (r->has_edits)
    {
      /* Edited: a small dot of the text's colour left of the labels. */
      cairo_arc (cr, lx - 2, y, 2.5, 0, 2 * G_PI);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.8);
      cairo_fill (cr);
    }
}

static void
draw_cell (LmFolderView *self, cairo_t *cr, guint position, GtkStyleContext *style, const GdkRGBA *fg)
{
  const LmPhotoRecord *r = lm_folder_view_get_photo (self, position);
  GdkRectangle cell, box;
  lm_folder_view_cell_area (self, position, &cell, &box);
  gboolean selected = g_hash_table_contains (self->selected, r);
  cairo_rectangle (cr, cell.x + 3, cell.y + 3, cell.width - 6, cell.height - 6);
  if (selected)
    cairo_set_source_rgba (cr, 0.21, 0.52, 0.89, 0.55);
  else
    cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.07);
  cairo_fill (cr);

  gboolean failed;
  cairo_surface_t *thumb = lm_folder_thumbs_lookup (self->thumbs, r->path, &failed);
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));
  if (thumb)
    {
      double tw = cairo_image_surface_get_width (thumb) / (double) scale;
      double th = cairo_image_surface_get_height (thumb) / (double) scale;
      double fit = MIN (1.0, MIN (box.width / tw, box.height / th));
      cairo_save (cr);
      cairo_translate (cr, box.x + (box.width - tw * fit) / 2, box.y + (box.height - th * fit) / 2);
      cairo_scale (cr, fit / scale, fit / scale);
      cairo_set_source_surface (cr, thumb, 0, 0);
      cairo_paint (cr);
      cairo_restore (cr);
    }
  else
    {
      /* The placeholder: a frame, and a sign when the photo could not be read. */
      cairo_rectangle (cr, box.x + 12.5, box.y + 12.5, box.width - 25, box.height - 25);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.2);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
      if (failed)
        {
          PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), _("Cannot be read"));
          int lw, lh;
          pango_layout_get_pixel_size (layout, &lw, &lh);
          gtk_render_layout (style, cr, box.x + (box.width - lw) / 2.0, box.y + (box.height - lh) / 2.0, layout);
          g_object_unref (layout);
        }
    }
  draw_info (cr, r, &cell, fg);
  if ((int) position == self->cursor && gtk_widget_has_focus (GTK_WIDGET (self)))
    gtk_render_focus (style, cr, cell.x + 1, cell.y + 1, cell.width - 2, cell.height - 2);
}

/* The band's rectangle in widget coordinates. */
static void
band_rect (LmFolderView *self, GdkRectangle *r)
{
  double dx = value_of (self->hadjustment), dy = value_of (self->vadjustment);
  double x0 = MIN (self->band_x0, self->band_x1) - dx, y0 = MIN (self->band_y0, self->band_y1) - dy;
  double x1 = MAX (self->band_x0, self->band_x1) - dx, y1 = MAX (self->band_y0, self->band_y1) - dy;
  *r = (GdkRectangle) { (int) floor (x0), (int) floor (y0), (int) ceil (x1 - floor (x0)), (int) ceil (y1 - floor (y0)) };
}

static gboolean
lm_folder_view_draw (GtkWidget *widget, cairo_t *cr)
{
  LmFolderView *self = LM_FOLDER_VIEW (widget);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  int w = gtk_widget_get_allocated_width (widget), h = gtk_widget_get_allocated_height (widget);
  gtk_render_background (style, cr, 0, 0, w, h);
  GdkRGBA fg;
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);
  guint first, last;
  if (!lm_folder_view_visible_range (self, &first, &last))
    return FALSE;
  for (guint i = first; i <= last; i++)
    draw_cell (self, cr, i, style, &fg);
  if (self->banding)
    {
      GdkRectangle band;
      band_rect (self, &band);
      gtk_style_context_save (style);
      gtk_style_context_add_class (style, GTK_STYLE_CLASS_RUBBERBAND);
      gtk_render_background (style, cr, band.x, band.y, band.width, band.height);
      gtk_render_frame (style, cr, band.x, band.y, band.width, band.height);
      gtk_style_context_restore (style);
    }
  ask_thumbnails (self);
  return FALSE;
}

static void
scroll_to (LmFolderView *self, guint position)
{
  GdkRectangle cell;
  if (!lm_folder_view_cell_area (self, position, &cell, NULL))
    return;
  GtkAdjustment *adj = self->strip ? self->hadjustment : self->vadjustment;
  if (adj == NULL)
    return;
  double start = self->strip ? cell.x : cell.y, size = self->strip ? cell.width : cell.height;
  double page = gtk_adjustment_get_page_size (adj), value = gtk_adjustment_get_value (adj);
  if (start < 0)
    gtk_adjustment_set_value (adj, value + start);
  else if (start + size > page)
    gtk_adjustment_set_value (adj, value + start + size - page);
}

static void
select_range (LmFolderView *self, int from, int to)
{
  g_hash_table_remove_all (self->selected);
  for (int i = MIN (from, to); i <= MAX (from, to); i++)
    if (i >= 0)
      g_hash_table_add (self->selected, lm_folder_view_get_photo (self, i));
}

void
lm_folder_view_set_cursor (LmFolderView *self, guint position, gboolean select, gboolean scroll)
{
  if (position >= lm_folder_view_get_n_photos (self))
    return;
  self->cursor = (int) position;
  if (select)
    {
      self->anchor = (int) position;
      select_range (self, position, position);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
  if (scroll)
    scroll_to (self, position);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

int
lm_folder_view_get_cursor (LmFolderView *self)
{
  return self->cursor;
}

gboolean
lm_folder_view_is_selected (LmFolderView *self, guint position)
{
  return position < lm_folder_view_get_n_photos (self)
         && g_hash_table_contains (self->selected, lm_folder_view_get_photo (self, position));
}

gboolean
lm_folder_view_set_selected (LmFolderView *self, guint position, gboolean selected)
{
  if (position >= lm_folder_view_get_n_photos (self))
    return FALSE;
  LmPhotoRecord *r = lm_folder_view_get_photo (self, position);
  if (selected ? g_hash_table_add (self->selected, r) : g_hash_table_remove (self->selected, r))
    {
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
  return TRUE;
}

gboolean
lm_folder_view_select_all (LmFolderView *self, gboolean selected)
{
  guint n = lm_folder_view_get_n_photos (self);
  if (selected && n > 0)
    select_range (self, 0, (int) n - 1);
  else
    g_hash_table_remove_all (self->selected);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

GPtrArray *
lm_folder_view_get_selected (LmFolderView *self)
{
  GPtrArray *selected = g_ptr_array_new ();
  for (guint i = 0; i < lm_folder_view_get_n_photos (self); i++)
    if (lm_folder_view_is_selected (self, i))
      g_ptr_array_add (selected, lm_folder_view_get_photo (self, i));
  return selected;
}

void
lm_folder_view_set_photos (LmFolderView *self, GPtrArray *records, GArray *order)
{
  LmPhotoRecord *at_cursor = self->cursor >= 0 ? lm_folder_view_get_photo (self, self->cursor) : NULL;
  LmPhotoRecord *at_anchor = self->anchor >= 0 ? lm_folder_view_get_photo (self, self->anchor) : NULL;
  g_ptr_array_ref (records);
  g_array_ref (order);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->order, g_array_unref);
  self->records = records, self->order = order;
  self->cursor = self->anchor = -1;
  /* A band being dragged ends with the photos it was drawn over. */
  self->pressed = self->banding = FALSE;
  g_clear_pointer (&self->band_base, g_hash_table_unref);
  g_autoptr (GHashTable) was = g_steal_pointer (&self->selected);
  self->selected = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < order->len; i++)
    {
      LmPhotoRecord *r = lm_folder_view_get_photo (self, i);
      if (g_hash_table_contains (was, r))
        g_hash_table_add (self->selected, r);
      if (r == at_cursor)
        self->cursor = (int) i;
      if (r == at_anchor)
        self->anchor = (int) i;
    }
  self->asked = FALSE;
  configure (self);
  lm_folder_view_accessible_photos_changed (GTK_WIDGET (self));
  if (g_hash_table_size (was) != g_hash_table_size (self->selected))
    g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
lm_folder_view_photo_changed (LmFolderView *self, const char *path)
{
  /* Its thumbnail, forgotten, is asked for again with the cells on screen (one frame paints
   * them all: finding PATH's cell would cost more than it saves). */
  self->asked = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Every member of the set FROM added to the set TO. */
static void
add_all (GHashTable *to, GHashTable *from)
{
  GHashTableIter it;
  gpointer member;
  g_hash_table_iter_init (&it, from);
  while (g_hash_table_iter_next (&it, &member, NULL))
    g_hash_table_add (to, member);
}

/* The selection: what Ctrl kept, and every cell the band touches. Only the rows and columns it
 * spans are looked at. */
static void
band_select (LmFolderView *self)
{
  g_hash_table_remove_all (self->selected);
  if (self->band_base)
    add_all (self->selected, self->band_base);
  guint n = lm_folder_view_get_n_photos (self), c = columns (self);
  double left = MIN (self->band_x0, self->band_x1) - margin (self);
  double right = MAX (self->band_x0, self->band_x1) - margin (self);
  double top = MIN (self->band_y0, self->band_y1), bottom = MAX (self->band_y0, self->band_y1);
  if (n == 0 || right < 0 || bottom < 0 || left >= (double) c * LM_FOLDER_CELL_WIDTH)
    return;
  guint c0 = (guint) MAX (0.0, left / LM_FOLDER_CELL_WIDTH), c1 = MIN (c - 1, (guint) (right / LM_FOLDER_CELL_WIDTH));
  guint r0 = (guint) MAX (0.0, top / LM_FOLDER_CELL_HEIGHT), r1 = (guint) (bottom / LM_FOLDER_CELL_HEIGHT);
  for (guint row = r0; row <= r1 && row * c < n; row++)
    for (guint col = c0; col <= c1 && row * c + col < n; col++)
      {
        g_hash_table_add (self->selected, lm_folder_view_get_photo (self, row * c + col));
        self->cursor = (int) (row * c + col);
      }
}

static gboolean
lm_folder_view_motion (GtkWidget *widget, GdkEventMotion *event)
{
  LmFolderView *self = LM_FOLDER_VIEW (widget);
  if (!self->pressed || self->strip)
    return GDK_EVENT_PROPAGATE;
  double x = event->x + value_of (self->hadjustment), y = event->y + value_of (self->vadjustment);
  if (!self->banding)
    {
      int threshold;
      g_object_get (gtk_widget_get_settings (widget), "gtk-dnd-drag-threshold", &threshold, NULL);
      if (fabs (x - self->band_x0) < threshold && fabs (y - self->band_y0) < threshold)
        return GDK_EVENT_STOP;
      self->banding = TRUE;
    }
  self->band_x1 = x, self->band_y1 = y;
  band_select (self);
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_STOP;
}

static gboolean
lm_folder_view_button_release (GtkWidget *widget, GdkEventButton *event)
{
  LmFolderView *self = LM_FOLDER_VIEW (widget);
  if (event->button != GDK_BUTTON_PRIMARY || !self->pressed)
    return GDK_EVENT_PROPAGATE;
  self->pressed = FALSE;
  g_clear_pointer (&self->band_base, g_hash_table_unref);
  if (self->banding)
    {
      self->banding = FALSE;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_STOP;
}

static gboolean
lm_folder_view_button_press (GtkWidget *widget, GdkEventButton *event)
{
  LmFolderView *self = LM_FOLDER_VIEW (widget);
  if (event->button != GDK_BUTTON_PRIMARY)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_grab_focus (widget);
  int position = lm_folder_view_position_at (self, event->x, event->y);
  if (event->type == GDK_2BUTTON_PRESS)
    {
      if (position >= 0)
        g_signal_emit (self, signals[PHOTO_ACTIVATED], 0, (guint) position);
      return GDK_EVENT_STOP;
    }
  if (event->type != GDK_BUTTON_PRESS)
    return GDK_EVENT_STOP;
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  /* Where a rubber band would start, should the pointer be dragged (lm_folder_view_motion). */
  self->pressed = TRUE;
  self->band_x0 = self->band_x1 = event->x + value_of (self->hadjustment);
  self->band_y0 = self->band_y1 = event->y + value_of (self->vadjustment);
  g_clear_pointer (&self->band_base, g_hash_table_unref);
  if (mods & GDK_CONTROL_MASK)
    add_all (self->band_base = g_hash_table_new (NULL, NULL), self->selected);
  if (position < 0)
    {
      if (!(mods & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) && g_hash_table_size (self->selected))
        {
          g_hash_table_remove_all (self->selected);
          g_signal_emit (self, signals[SELECTION_CHANGED], 0);
          gtk_widget_queue_draw (widget);
        }
      return GDK_EVENT_STOP;
    }
  LmPhotoRecord *r = lm_folder_view_get_photo (self, position);
  if (mods & GDK_SHIFT_MASK && self->anchor >= 0)
    select_range (self, self->anchor, position);
  else if (mods & GDK_CONTROL_MASK)
    {
      if (!g_hash_table_remove (self->selected, r))
        g_hash_table_add (self->selected, r);
      self->anchor = position;
    }
  else
    {
      select_range (self, position, position);
      self->anchor = position;
    }
  self->cursor = position;
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_STOP;
}

static gboolean
lm_folder_view_key_press (GtkWidget *widget, GdkEventKey *event)
{
  LmFolderView *self = LM_FOLDER_VIEW (widget);
  int n = (int) lm_folder_view_get_n_photos (self);
  if (n == 0)
    return GDK_EVENT_PROPAGATE;
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();
  int c = (int) columns (self);
  int page_rows = MAX (1, gtk_widget_get_allocated_height (widget) / LM_FOLDER_CELL_HEIGHT);
  int page = self->strip ? MAX (1, gtk_widget_get_allocated_width (widget) / LM_FOLDER_CELL_WIDTH) : c * page_rows;
  int at = self->cursor, to;
  switch (event->keyval)
    {
    case GDK_KEY_a:
    case GDK_KEY_A:
      if (mods != GDK_CONTROL_MASK)
        return GDK_EVENT_PROPAGATE;
      select_range (self, 0, n - 1);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
      gtk_widget_queue_draw (widget);
      return GDK_EVENT_STOP;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (at >= 0)
        g_signal_emit (self, signals[PHOTO_ACTIVATED], 0, (guint) at);
      return GDK_EVENT_STOP;
    case GDK_KEY_Left: case GDK_KEY_KP_Left:
      to = at - 1;
      break;
    case GDK_KEY_Right: case GDK_KEY_KP_Right:
      to = at + 1;
      break;
    case GDK_KEY_Up: case GDK_KEY_KP_Up:
      if (self->strip)
        return GDK_EVENT_PROPAGATE;
      to = at - c;
      break;
    case GDK_KEY_Down: case GDK_KEY_KP_Down:
      if (self->strip)
        return GDK_EVENT_PROPAGATE;
      to = at < 0 ? 0 : at + c;
      break;
    case GDK_KEY_Page_Up: case GDK_KEY_KP_Page_Up:
      to = at - page;
      break;
    case GDK_KEY_Page_Down: case GDK_KEY_KP_Page_Down:
      to = at + page;
      break;
    case GDK_KEY_Home: case GDK_KEY_KP_Home:
      to = 0;
      break;
    case GDK_KEY_End: case GDK_KEY_KP_End:
      to = n - 1;
      break;
    default:
      return GDK_EVENT_PROPAGATE;
    }
  if (at < 0)
    to = 0;
  /* A step past either end stops there (a page from the last row goes to the last photo);
   * a row up from the first row stays. */
  if (to < 0)
    to = (event->keyval == GDK_KEY_Up || event->keyval == GDK_KEY_KP_Up) ? at : 0;
  if (to >= n)
    to = (event->keyval == GDK_KEY_Down || event->keyval == GDK_KEY_KP_Down) && (to / c) == ((n - 1) / c) ? at : n - 1;
  if (to >= n)
    to = n - 1;
  self->cursor = to;
  if (mods & GDK_SHIFT_MASK)
    {
      if (self->anchor < 0)
        self->anchor = at < 0 ? to : at;
      select_range (self, self->anchor, to);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
  else if (!(mods & GDK_CONTROL_MASK))
    {
      self->anchor = to;
      select_range (self, to, to);
      g_signal_emit (self, signals[SELECTION_CHANGED], 0);
    }
  scroll_to (self, to);
  gtk_widget_queue_draw (widget);
  return GDK_EVENT_STOP;
}

static void
on_adjustment_changed (GtkAdjustment *adj, LmFolderView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (LmFolderView *self, GtkAdjustment **slot, GtkAdjustment *adj)
{
  if (*slot == adj && adj)
    return;
  if (*slot)
    {
      g_signal_handlers_disconnect_by_func (*slot, on_adjustment_changed, self);
      g_object_unref (*slot);
    }
  *slot = adj ? g_object_ref_sink (adj) : NULL;
  if (adj)
    g_signal_connect (adj, "value-changed", G_CALLBACK (on_adjustment_changed), self);
  configure (self);
}

static void
lm_folder_view_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  LmFolderView *self = LM_FOLDER_VIEW (object);
  switch (id)
    {
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value));
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value));
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
lm_folder_view_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  LmFolderView *self = LM_FOLDER_VIEW (object);
  switch (id)
    {
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
lm_folder_view_size_allocate (GtkWidget *widget, GtkAllocation *allocation)
{
  GTK_WIDGET_CLASS (lm_folder_view_parent_class)->size_allocate (widget, allocation);
  LmFolderView *self = LM_FOLDER_VIEW (widget);
  gboolean reflowed = allocation->width != self->width;
  self->width = allocation->width;
  configure (self);
  /* New columns move every cell: the cursor's is brought back into view. */
  if (reflowed && self->cursor >= 0)
    scroll_to (self, self->cursor);
}

static void
lm_folder_view_get_preferred_height (GtkWidget *widget, int *minimum, int *natural)
{
  *minimum = *natural = LM_FOLDER_CELL_HEIGHT; /* a row: the filmstrip's height, the grid's least */
}

static void
lm_folder_view_get_preferred_width (GtkWidget *widget, int *minimum, int *natural)
{
  *minimum = *natural = LM_FOLDER_CELL_WIDTH;
}

static void
on_thumb_ready (LmFolderThumbs *thumbs, const char *photo, LmFolderView *self)
{
  /* Cheap: a redraw paints the cells on screen only. */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
lm_folder_view_dispose (GObject *object)
{
  LmFolderView *self = LM_FOLDER_VIEW (object);
  if (self->thumbs)
    g_signal_handlers_disconnect_by_func (self->thumbs, on_thumb_ready, self);
  g_clear_object (&self->thumbs);
  set_adjustment (self, &self->hadjustment, NULL);
  set_adjustment (self, &self->vadjustment, NULL);
  G_OBJECT_CLASS (lm_folder_view_parent_class)->dispose (object);
}

static void
lm_folder_view_finalize (GObject *object)
{
  LmFolderView *self = LM_FOLDER_VIEW (object);
  g_clear_pointer (&self->records, g_ptr_array_unref);
  g_clear_pointer (&self->order, g_array_unref);
  g_clear_pointer (&self->selected, g_hash_table_unref);
  g_clear_pointer (&self->band_base, g_hash_table_unref);
  G_OBJECT_CLASS (lm_folder_view_parent_class)->finalize (object);
}

static void
lm_folder_view_class_init (LmFolderViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->set_property = lm_folder_view_set_property;
  object_class->get_property = lm_folder_view_get_property;
  object_class->dispose = lm_folder_view_dispose;
  object_class->finalize = lm_folder_view_finalize;
  widget_class->draw = lm_folder_view_draw;
  widget_class->button_press_event = lm_folder_view_button_press;
  widget_class->button_release_event = lm_folder_view_button_release;
  widget_class->motion_notify_event = lm_folder_view_motion;
  widget_class->key_press_event = lm_folder_view_key_press;
  widget_class->size_allocate = lm_folder_view_size_allocate;
  widget_class->get_preferred_height = lm_folder_view_get_preferred_height;
  widget_class->get_preferred_width = lm_folder_view_get_preferred_width;
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");
  signals[PHOTO_ACTIVATED] = g_signal_new ("photo-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                           NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "lumen-folder-view");
  gtk_widget_class_set_accessible_type (widget_class, LM_TYPE_FOLDER_VIEW_ACCESSIBLE);
}

static void
lm_folder_view_init (LmFolderView *self)
{
  self->cursor = self->anchor = -1;
  self->selected = g_hash_table_new (NULL, NULL);
  gtk_widget_set_can_focus (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK | GDK_BUTTON1_MOTION_MASK
                                              | GDK_KEY_PRESS_MASK | GDK_SCROLL_MASK | GDK_SMOOTH_SCROLL_MASK);
}

GtkWidget *
lm_folder_view_new (LmFolderThumbs *thumbs, gboolean strip)
{
  LmFolderView *self = g_object_new (LM_TYPE_FOLDER_VIEW, NULL);
  self->thumbs = g_object_ref (thumbs);
  self->strip = strip;
  g_signal_connect (thumbs, "ready", G_CALLBACK (on_thumb_ready), self);
  return GTK_WIDGET (self);
}
