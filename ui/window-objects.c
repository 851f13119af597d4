/* LmWindow's object detection (window-objects.h). The detection runs on the render worker
 * (core/render/job-objects.c) on the photo as opened, so that its boxes are in the source's
 * pixels, before any geometry: drawn over the view, each corner goes forwards through the
 * view's rotation, straightening and crop (the inverse of the walk back that the mask tools
 * make, tool-mask.c), so that a box stays on its object at any zoom, pan, crop or turn. A
 * mask from a box is an ellipse in the same source-normalised coordinates as the mask tools
 * draw, so it follows later crops and turns by itself. */
#include "window-objects.h"
#include "window-astro.h"
#include "window-geometry.h"
#include "window-private.h"
#include "window-selection.h"
#include "window-status.h"
#include "window-tools.h"

#include <math.h>
#include <glib/gi18n.h>

#include "objects-panel.h"
#include "stage-params.h"
#include "core/detect/crop-suggest.h"
#include "core/detect/models.h"
#include "core/edit/mask-edit.h"
#include "core/ops/crop-math.h"

/* A mask's ellipse over a box: full strength inside the ellipse the box holds, fading to
 * nothing at the ellipse through its corners (√2 times larger): softness 1 − 1/√2. */
#define BOX_SOFTNESS (1.0f - (float) G_SQRT2 / 2.0f)

struct _LmWindowObjects {
  LmObjectsPanel *panel;
  LmRenderChannel *channel;
  GCancellable *cancellable; /* of the detection asked for last */
  guint64 asked;
  GArray *boxes;             /* LmCascadeBox in the source's pixels, of MODEL; NULL: none */
  char *model;
  char *found;               /* what the panel says of them */
  int selected;              /* the box highlighted, -1: none */
};

/* x' = a·x + b·y + c, y' = d·x + e·y + f */
typedef struct {
  double a, b, c, d, e, f;
} Affine;

static void
affine_apply (const Affine *m, double x, double y, double *ox, double *oy)
{
  *ox = m->a * x + m->b * y + m->c;
  *oy = m->d * x + m->e * y + m->f;
}

/* PIPELINE's map from its output to the source as opened (pixel centres on integers), taken
 * at three points far apart: rotation, straightening and crop are affine; the lens correction
 * is left out, as the masks leave it (core/render/mask-place.h). Then inverted, source to
 * output, into *TO_VIEW; FALSE where it cannot be (a degenerate map). */
static gboolean
source_to_output (LmWindow *self, LmPipeline *pipeline, Affine *to_view)
{
  lm_pipeline_stage (pipeline, LM_OP_LENS)->enabled = FALSE;
  guint sw = self->source->width, sh = self->source->height, ow, oh;
  lm_pipeline_output_size (pipeline, sw, sh, &ow, &oh);
  double span = MAX (MAX (ow, oh), 1u);
  double x0, y0, x1, y1, x2, y2;
  lm_pipeline_source_point (pipeline, sw, sh, 0, 0, &x0, &y0);
  lm_pipeline_source_point (pipeline, sw, sh, span, 0, &x1, &y1);
  lm_pipeline_source_point (pipeline, sw, sh, 0, span, &x2, &y2);
  Affine back = { (x1 - x0) / span, (x2 - x0) / span, x0, (y1 - y0) / span, (y2 - y0) / span, y0 };
  double det = back.a * back.e - back.b * back.d;
  if (!isfinite (det) || fabs (det) < 1e-12)
    return FALSE;
  to_view->a = back.e / det, to_view->b = -back.b / det;
  to_view->d = -back.d / det, to_view->e = back.a / det;
  to_view->c = -(to_view->a * back.c + to_view->b * back.f);
  to_view->f = -(to_view->d * back.c + to_view->e * back.f);
  return TRUE;
}

/* Box B's corners (clockwise from its top left) in the output of TO_VIEW's pipeline, as edges
 * of pixels (0 to width), where the box's are edges of the source's. */
static void
box_corners (const Affine *to_view, const LmCascadeBox *b, double x[4], double y[4])
{
  const double sx[4] = { b->x, b->x + b->width, b->x + b->width, b->x };
  const double sy[4] = { b->y, b->y, b->y + b->height, b->y + b->height };
  for (int k = 0; k < 4; k++)
    {
      affine_apply (to_view, sx[k] - 0.5, sy[k] - 0.5, &x[k], &y[k]);
      x[k] += 0.5, y[k] += 0.5;
    }
}

/* ---- the boxes over the photo -------------------------------------------------------- */

static void
draw_label (GtkWidget *widget, cairo_t *cr, const char *text, double x, double y, gboolean lit)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;
  pango_layout_get_pixel_size (layout, &w, &h);
  /* Above the box where there is room, else inside it. */
  double top = y - h - 4 >= 0 ? y - h - 4 : y + 2;
  cairo_rectangle (cr, x, top, w + 6, h + 2);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.65);
  cairo_fill (cr);
  cairo_move_to (cr, x + 3, top + 1);
  if (lit)
    cairo_set_source_rgb (cr, 1.0, 0.6, 1.0);
  else
    cairo_set_source_rgb (cr, 1, 1, 1);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* After the view's own paint: each box as a quadrilateral (a box of a straightened view is
 * turned), 2 pixels wide so that whole pixels of its colour show at any zoom; the box
 * selected in magenta, 3 wide, over the others. */
static gboolean
draw_boxes (GtkWidget *widget, cairo_t *cr, LmWindow *self)
{
  LmWindowObjects *o = self->objects;
  if (o == NULL || o->boxes == NULL || o->boxes->len == 0 || self->source == NULL)
    return GDK_EVENT_PROPAGATE;
  LmPipeline view;
  lm_window_view_pipeline (self, &view);
  lm_pipeline_for_view (&view);
  Affine to_view;
  if (!source_to_output (self, &view, &to_view))
    return GDK_EVENT_PROPAGATE;
  cairo_save (cr);
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < o->boxes->len; i++)
      {
        gboolean lit = (int) i == o->selected;
        if (lit != (pass == 1))
          continue;
        double x[4], y[4], wx[4], wy[4];
        box_corners (&to_view, &g_array_index (o->boxes, LmCascadeBox, i), x, y);
        int top = 0;
        for (int k = 0; k < 4; k++)
          {
            lm_image_view_to_widget (self->image_view, x[k], y[k], &wx[k], &wy[k]);
            if (wy[k] < wy[top] || (wy[k] == wy[top] && wx[k] < wx[top]))
              top = k;
          }
        cairo_move_to (cr, wx[0], wy[0]);
        for (int k = 1; k < 4; k++)
          cairo_line_to (cr, wx[k], wy[k]);
        cairo_close_path (cr);
        cairo_set_line_width (cr, lit ? 3.0 : 2.0);
        if (lit)
          cairo_set_source_rgb (cr, 1.0, 0.0, 1.0);
        else
          cairo_set_source_rgb (cr, 1.0, 214.0 / 255.0, 0.0);
        cairo_stroke (cr);
        g_autofree char *label = lm_objects_label (o->model, i);
        draw_label (widget, cr, label, wx[top], wy[top], lit);
      }
  cairo_restore (cr);
  return GDK_EVENT_PROPAGATE;
}

static void
show_boxes (LmWindow *self, GArray *boxes, const char *status)
{
  LmWindowObjects *o = self->objects;
  g_clear_pointer (&o->boxes, g_array_unref);
  o->boxes = boxes;
  o->selected = -1;
  g_free (o->found);
  o->found = g_strdup (status);
  lm_objects_panel_show (o->panel, boxes, o->model, status);
  gtk_widget_queue_draw (GTK_WIDGET (self->image_view));
}

/* TEXT under what was found, in the panel: the status bar's line goes with the next render. */
static void
note (LmWindow *self, const char *text)
{
  LmWindowObjects *o = self->objects;
  g_autofree char *status = o->found ? g_strconcat (o->found, "\n", text, NULL) : g_strdup (text);
  lm_objects_panel_set_status (o->panel, status);
}

/* ---- detection ------------------------------------------------------------------------- */

static void
stop (LmWindowObjects *o)
{
  if (o->cancellable)
    g_cancellable_cancel (o->cancellable);
  g_clear_object (&o->cancellable);
}

static void
on_result (LmRenderResult *r, gpointer data)
{
  LmWindow *self = data;
  LmWindowObjects *o = self->objects;
  if (r->generation != o->asked)
    return; /* a newer detection is coming */
  g_clear_object (&o->cancellable);
  if (r->error)
    {
      g_autofree char *name = self->file ? g_file_get_parse_name (self->file) : g_strdup ("");
      g_autofree char *message = g_strdup_printf ("%s: %s", name, r->error->message);
      show_boxes (self, NULL, message);
      return;
    }
  if (r->notice)
    lm_window_show_message_about (self, LM_TOPIC_RENDER, GTK_MESSAGE_WARNING, r->notice);
  guint n = r->objects ? r->objects->len : 0;
  /* TRANSLATORS: the Detect Objects panel after a detection: how many, in seconds, on the CPU or the GPU */
  g_autofree char *status = g_strdup_printf (ngettext ("%u found in %.2f s on the %s", "%u found in %.2f s on the %s", n),
                                             n, r->render_ms / 1000.0, lm_window_backend_label (r->backend_name));
  show_boxes (self, g_steal_pointer (&r->objects), status);
}

static void
on_detect (LmWindow *self)
{
  LmWindowObjects *o = self->objects;
  if (self->source == NULL || self->worker == NULL)
    return;
  const char *model = lm_objects_panel_get_model (o->panel);
  g_autoptr (GError) e = NULL;
  g_autofree char *path = lm_cascade_model_path (model, &e);
  stop (o);
  o->asked++;
  g_free (o->model);
  o->model = g_strdup (model);
  if (path == NULL)
    {
      show_boxes (self, NULL, e->message);
      return;
    }
  LmCascadeParams p;
  lm_objects_panel_get_params (o->panel, self->source->width, self->source->height, &p);
  o->cancellable = g_cancellable_new ();
  LmDataRequest request = { .generation = o->asked, .data = self->source, .backend = self->backend,
                            .to = o->channel, .cancellable = o->cancellable };
  lm_render_worker_detect_objects (self->worker, &request, path, &p);
  show_boxes (self, NULL, _("Detecting…"));
}

static void
on_box_selected (LmWindow *self, int index)
{
  LmWindowObjects *o = self->objects;
  o->selected = o->boxes && index >= 0 && (guint) index < o->boxes->len ? index : -1;
  gtk_widget_queue_draw (GTK_WIDGET (self->image_view));
}

/* ---- masks ----------------------------------------------------------------------------- */

/* Instance INDEX's mask, attached (the whole photo) where it has none. */
static LmMask *
instance_mask (LmPipeline *p, int index, GError **error)
{
  if (p->inst[index].mask < 0)
    {
      LmMask mask;
      lm_mask_edit_init (&mask);
      if (!lm_pipeline_mask_attach (p, index, &mask, error))
        return NULL;
    }
  return &p->masks[p->inst[index].mask];
}

/* An ellipse over each box (ALL) or over the one selected joins the selected operation's
 * mask, as many as it can hold: one undo step. */
static void
on_mask (LmWindow *self, gboolean all)
{
  LmWindowObjects *o = self->objects;
  guint32 id = lm_window_selected_instance (self);
  int index = id ? lm_pipeline_find (&self->pipeline, id) : -1;
  if (index < 0)
    {
      lm_window_show_hint (self, _("Select an operation's panel first: the mask is made for the operation selected"));
      return;
    }
  if (o->boxes == NULL || self->source == NULL || (!all && o->selected < 0))
    return;
  if (lm_window_commit_pending (self)) /* a panel's edit waiting is a step of its own */
    lm_window_commit (self);
  LmPipeline edited = self->pipeline;
  g_autoptr (GError) e = NULL;
  LmMask *mask = instance_mask (&edited, index, &e);
  guint first = all ? 0 : (guint) o->selected, n = all ? o->boxes->len : 1;
  guint room = mask ? LM_MASK_SHAPES_MAX - mask->n_shapes : 0, added = 0;
  double side = MAX (self->source->width, self->source->height);
  for (guint i = first; mask && i < first + n && added < room; i++, added++)
    {
      const LmCascadeBox *b = &g_array_index (o->boxes, LmCascadeBox, i);
      /* Radii of the ellipse through the corners, whose inner 1/√2 is the box's own. */
      float cx = (float) ((b->x + 0.5 * b->width) / side), cy = (float) ((b->y + 0.5 * b->height) / side);
      float rx = (float) (G_SQRT2 / 2 * b->width / side), ry = (float) (G_SQRT2 / 2 * b->height / side);
      if (!lm_mask_edit_add_radial (mask, LM_MASK_ADD, cx, cy, rx, ry, 0.0f, BOX_SOFTNESS, NULL, &e))
        break;
    }
  if (added == 0)
    {
      lm_window_show_message (self, GTK_MESSAGE_INFO,
                              e ? e->message : _("The mask holds as many shapes as it can: remove one first"));
      return;
    }
  edited.inst[index].enabled = TRUE; /* as a mask tool's first shape puts it on */
  self->pipeline = edited;
  lm_window_show_pipeline (self);
  lm_window_commit (self);
  if (added < n)
    {
      /* TRANSLATORS: the first %u is how many boxes became shapes, the second how many there were, %d the most a mask holds */
      g_autofree char *text = g_strdup_printf (_("%u of the %u boxes made the mask: a mask holds at most %d shapes"),
                                               added, n, LM_MASK_SHAPES_MAX);
      lm_window_show_message (self, GTK_MESSAGE_INFO, text);
    }
  else
    {
      g_autofree char *text = g_strdup_printf (
        ngettext ("%u box added to the selected operation's mask", "%u boxes added to the selected operation's mask",
                  added),
        added);
      note (self, text);
    }
}

/* ---- the crop suggestion ------------------------------------------------------------------ */

/* The crop's aspect on an image of W × H: its ratio turned to the image's orientation, the
 * image's own where it is free. */
static double
crop_aspect (LmStage *crop, guint w, guint h)
{
  int *ratio = lm_stage_enum (crop, "ratio");
  double r = ratio ? lm_crop_ratio_value (*ratio, w, h) : 0.0;
  if (r <= 0.0)
    return (double) w / h;
  return (w < h) != (r < 1.0) && r != 1.0 ? 1.0 / r : r;
}

static void
on_suggest_crop (LmWindow *self)
{
  LmWindowObjects *o = self->objects;
  LmStage *crop = lm_stage_by_name (&self->pipeline, "crop");
  float *p[4] = { lm_stage_float (crop, "x"), lm_stage_float (crop, "y"), lm_stage_float (crop, "width"),
                  lm_stage_float (crop, "height") };
  if (o->boxes == NULL || o->boxes->len == 0 || self->source == NULL || !p[0] || !p[1] || !p[2] || !p[3])
    return;
  lm_window_tools_cancel (self); /* a crop being drawn is replaced */
  if (lm_window_commit_pending (self))
    lm_window_commit (self);
  /* The boxes in the crop's input: the source through rotation and straightening. */
  LmPipeline before_crop = self->pipeline;
  lm_pipeline_for_view (&before_crop);
  lm_pipeline_stage (&before_crop, crop->info->id)->enabled = FALSE;
  Affine to_input;
  if (!source_to_output (self, &before_crop, &to_input))
    return;
  guint iw, ih;
  lm_window_crop_input_size (self, &self->pipeline, &iw, &ih);
  g_autoptr (GArray) boxes = g_array_sized_new (FALSE, FALSE, sizeof (LmCascadeBox), o->boxes->len);
  for (guint i = 0; i < o->boxes->len; i++)
    {
      double x[4], y[4];
      box_corners (&to_input, &g_array_index (o->boxes, LmCascadeBox, i), x, y);
      double x0 = MIN (MIN (x[0], x[1]), MIN (x[2], x[3])), x1 = MAX (MAX (x[0], x[1]), MAX (x[2], x[3]));
      double y0 = MIN (MIN (y[0], y[1]), MIN (y[2], y[3])), y1 = MAX (MAX (y[0], y[1]), MAX (y[2], y[3]));
      int bx = CLAMP ((int) floor (x0 + 1e-6), 0, (int) iw - 1), by = CLAMP ((int) floor (y0 + 1e-6), 0, (int) ih - 1);
      int bx1 = CLAMP ((int) ceil (x1 - 1e-6), bx + 1, (int) iw), by1 = CLAMP ((int) ceil (y1 - 1e-6), by + 1, (int) ih);
      LmCascadeBox b = { bx, by, bx1 - bx, by1 - by, 0 };
      g_array_append_val (boxes, b);
    }
  LmCropSuggestion s;
  lm_crop_suggest (iw, ih, (const LmCascadeBox *) (const void *) boxes->data, boxes->len, crop_aspect (crop, iw, ih),
                   &s);
  int x, y, w, h;
  lm_crop_suggest_pixels (&s, iw, ih, (const LmCascadeBox *) (const void *) boxes->data, boxes->len, &x, &y, &w, &h);
  *p[0] = (float) x, *p[1] = (float) y, *p[2] = (float) w, *p[3] = (float) h;
  crop->enabled = TRUE;
  lm_window_show_pipeline (self);
  lm_window_commit (self);
  static const char *const where[] = {
    N_("the boxes' centre on a crossing of the thirds"), N_("the boxes' centre on a thirds line"),
    N_("the boxes' centre as near a thirds line as they allow"),
    N_("the boxes do not all fit at this aspect ratio: centred on them"),
  };
  /* TRANSLATORS: the status bar after Suggest Crop: the crop's size, then where the boxes lie in it */
  g_autofree char *text = g_strdup_printf (_("Crop %d × %d: %s"), w, h, _(where[s.placement]));
  note (self, text);
}

/* ---- life -------------------------------------------------------------------------------- */

void
lm_window_objects_forget (LmWindow *self)
{
  LmWindowObjects *o = self->objects;
  if (o == NULL)
    return;
  stop (o);
  o->asked++; /* a result in flight is of the photo before */
  show_boxes (self, NULL, NULL);
}

GtkWidget *
lm_window_objects_panel (LmWindow *self)
{
  return self->objects ? GTK_WIDGET (self->objects->panel) : NULL;
}

void
lm_window_objects_init (LmWindow *self)
{
  LmWindowObjects *o = self->objects = g_new0 (LmWindowObjects, 1);
  o->selected = -1;
  o->panel = LM_OBJECTS_PANEL (lm_objects_panel_new ());
  gtk_widget_set_name (GTK_WIDGET (o->panel), "objects-panel");
  /* After the operations: what is found serves them (masks, the crop). */
  GtkWidget *separator = gtk_separator_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_box_pack_start (self->side_panel, separator, FALSE, FALSE, 0);
  gtk_box_pack_start (self->side_panel, GTK_WIDGET (o->panel), FALSE, FALSE, 0);
  gtk_widget_show (separator);
  gtk_widget_show_all (GTK_WIDGET (o->panel));
  o->channel = lm_render_channel_new_taking (on_result, self);
  g_signal_connect_swapped (o->panel, "detect", G_CALLBACK (on_detect), self);
  g_signal_connect_swapped (o->panel, "box-selected", G_CALLBACK (on_box_selected), self);
  g_signal_connect_swapped (o->panel, "mask", G_CALLBACK (on_mask), self);
  g_signal_connect_swapped (o->panel, "suggest-crop", G_CALLBACK (on_suggest_crop), self);
  g_signal_connect_after (self->image_view, "draw", G_CALLBACK (draw_boxes), self);
}

void
lm_window_objects_free (LmWindow *self)
{
  LmWindowObjects *o = self->objects;
  if (o == NULL)
    return;
  stop (o);
  lm_render_channel_close (o->channel);
  g_clear_pointer (&o->boxes, g_array_unref);
  g_free (o->model);
  g_free (o->found);
  g_clear_pointer (&self->objects, g_free);
}
