/* The mask tools (tool-mask.h). While a stroke or a gradient is drawn the pipeline changes
 * and renders as a panel's drag does (no undo step); letting go makes it one. */
#include "tool-mask.h"
#include "window-geometry.h"
#include "window-private.h"
#include "window-status.h"
#include "window-tools.h"

#include <math.h>
#include <glib/gi18n.h>

#include "core/edit/mask-edit.h"

#define BRUSH_DEFAULT 0.05f /* the brush's diameter, a fraction of the photo's long side */
#define BRUSH_MIN 0.002f
#define BRUSH_MAX 0.5f
#define BRUSH_STEP 1.25f
#define HARDNESS_DEFAULT 0.5f
#define HARDNESS_STEP 0.1f
#define MIN_DRAG 3.0 /* logical pixels: a shorter drag is a click, it draws no gradient */

struct _LmMaskTool {
  LmWindow *window;
  LmImageView *view;
  GtkWidget *options; /* a label in the tool bar */
  gboolean active;
  guint32 id;
  int kind;
  float size, hardness, opacity;

  gboolean dragging, drawn; /* a press is down; it has changed the mask */
  gboolean stopped;         /* the mask took no more (a cap, the instance gone): the rest of
                             * the drag draws nothing, what it drew stays */
  guint shape;              /* the shape being drawn, once DRAWN */
  double press_x, press_y;  /* widget */
  double last_x, last_y;    /* widget: the brush's last point */
  float u0, v0;             /* the press, source-normalised */
  gboolean hover;           /* the pointer is over the view, at (hover_x, hover_y) */
  double hover_x, hover_y;
};

static void
show_options (LmMaskTool *t)
{
  g_autofree char *text = NULL;
  if (t->kind == LM_MASK_BRUSH)
    /* TRANSLATORS: the brush's settings in the tool bar; size is a percentage of the photo's long side */
    text = g_strdup_printf (_("Brush: size %.1f %%, hardness %.0f %%, opacity %.0f %% · [ ] size, Shift+[ ] "
                              "hardness, M shows the mask"),
                            100.0 * t->size, 100.0 * t->hardness, 100.0 * t->opacity);
  else if (t->kind == LM_MASK_LINEAR)
    text = g_strdup (_("Linear gradient: drag from where it acts in full to where it stops · M shows the mask"));
  else
    text = g_strdup (_("Radial gradient: drag from its centre out, Shift for a circle · M shows the mask"));
  gtk_label_set_text (GTK_LABEL (t->options), text);
}

/* Widget point (X, Y) as a point of the photo as opened, over its long side. */
static void
to_source (LmMaskTool *t, double x, double y, float *u, float *v)
{
  LmWindow *w = t->window;
  double ix, iy, sx, sy;
  lm_image_view_to_image (t->view, x, y, &ix, &iy);
  LmPipeline view;
  lm_window_view_pipeline (w, &view);
  lm_pipeline_for_view (&view);
  /* Masks lie on the lens correction's output, which keeps the photo's size
   * (core/render/mask-place.h): the correction is left out of the walk back. */
  lm_pipeline_stage (&view, LM_OP_LENS)->enabled = FALSE;
  /* The view's (x, y) is a point of the image; its pixel (i, j) spans i..i + 1, and the
   * source's pixel centres lie at (i + ½) / long side (mask.h). Off the photo too. */
  lm_pipeline_source_point (&view, w->source->width, w->source->height, ix - 0.5, iy - 0.5, &sx, &sy);
  double side = MAX (w->source->width, w->source->height);
  *u = (float) ((sx + 0.5) / side);
  *v = (float) ((sy + 0.5) / side);
}

/* Logical screen pixels per fraction of the long side (geometry's scale left out: crop and
 * rotation keep it, straightening nearly). */
static double
screen_scale (LmMaskTool *t)
{
  LmWindow *w = t->window;
  double side = MAX (w->source->width, w->source->height);
  return side * lm_image_view_get_zoom (t->view) / gtk_widget_get_scale_factor (GTK_WIDGET (t->view));
}

static gboolean
failed (LmMaskTool *t, GError *error)
{
  lm_window_show_message (t->window, GTK_MESSAGE_INFO, error->message);
  g_error_free (error);
  t->stopped = TRUE;
  return FALSE;
}

/* The instance's mask, attached (empty, opacity 1) where it has none, the instance on; NULL
 * where the instance is gone or the pipeline holds no more masks (ERROR says so). */
static LmMask *
instance_mask (LmMaskTool *t, GError **error)
{
  LmPipeline *p = &t->window->pipeline;
  int index = lm_pipeline_find (p, t->id);
  if (index < 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("The operation drawn on is gone: choose a panel and a mask tool again"));
      return NULL;
    }
  if (p->inst[index].mask < 0)
    {
      LmMask mask;
      lm_mask_edit_init (&mask);
      if (!lm_pipeline_mask_attach (p, index, &mask, error))
        return NULL;
    }
  /* A mask is drawn to be seen: the instance goes on, as a move of one of its sliders puts it
   * on (at its defaults it changes nothing yet), so that its mask renders and shows. */
  p->inst[index].enabled = TRUE;
  return &p->masks[p->inst[index].mask];
}

/* The shape drawn on from (U, V) now: the brush's stroke started, or a gradient added
 * (from the press to (U, V)) or moved. */
static gboolean
draw_to (LmMaskTool *t, float u, float v, gboolean shift)
{
  GError *e = NULL;
  LmMask *mask = instance_mask (t, &e);
  if (mask == NULL)
    return failed (t, e);
  gboolean ok = TRUE;
  if (t->kind == LM_MASK_LINEAR)
    ok = t->drawn ? lm_mask_edit_set_linear (mask, t->shape, t->u0, t->v0, u, v, &e)
                  : lm_mask_edit_add_linear (mask, LM_MASK_ADD, t->u0, t->v0, u, v, &t->shape, &e);
  else if (t->kind == LM_MASK_RADIAL)
    {
      float rx = fabsf (u - t->u0), ry = fabsf (v - t->v0);
      if (shift)
        rx = ry = hypotf (rx, ry);
      rx = MAX (rx, 1e-4f), ry = MAX (ry, 1e-4f);
      ok = t->drawn ? lm_mask_edit_set_radial (mask, t->shape, t->u0, t->v0, rx, ry, &e)
                    : lm_mask_edit_add_radial (mask, LM_MASK_ADD, t->u0, t->v0, rx, ry, 0.0f, 0.5f, &t->shape, &e);
    }
  else if (!t->drawn)
    {
      /* Strokes go on into the last shape while it is a brush that adds: one shape a brush. */
      guint n = mask->n_shapes;
      if (n > 0 && mask->shape[n - 1].kind == LM_MASK_BRUSH && mask->shape[n - 1].combine == LM_MASK_ADD)
        t->shape = n - 1;
      else
        ok = lm_mask_edit_add_brush (mask, LM_MASK_ADD, &t->shape, &e);
      ok = ok && lm_mask_edit_start_stroke (mask, t->shape, FALSE, t->size, t->hardness, t->opacity, u, v, &e);
    }
  else
    ok = lm_mask_edit_extend_stroke (mask, t->shape, (float[]) { u, v }, 1, &e);
  if (!ok)
    return failed (t, e);
  t->drawn = TRUE;
  lm_window_request_render (t->window); /* a preview: the release makes the undo step */
  return TRUE;
}

static gboolean
shift_held (void)
{
  GdkModifierType state = 0;
  return gtk_get_current_event_state (&state) && (state & GDK_SHIFT_MASK) != 0;
}

static gboolean
on_press (gpointer data, double x, double y)
{
  LmMaskTool *t = data;
  if (t->window->source == NULL)
    return FALSE;
  /* A panel's edit still waiting to be gathered is a step of its own, not this stroke's. */
  if (lm_window_commit_pending (t->window))
    lm_window_commit (t->window);
  t->dragging = TRUE, t->drawn = t->stopped = FALSE;
  t->press_x = t->last_x = x, t->press_y = t->last_y = y;
  to_source (t, x, y, &t->u0, &t->v0);
  if (t->kind == LM_MASK_BRUSH)
    draw_to (t, t->u0, t->v0, FALSE);
  return TRUE;
}

static void
on_motion (gpointer data, double x, double y, gboolean pressed)
{
  LmMaskTool *t = data;
  t->hover = TRUE, t->hover_x = x, t->hover_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
  if (!pressed || !t->dragging || t->stopped || t->window->source == NULL)
    return;
  float u, v;
  if (t->kind == LM_MASK_BRUSH)
    {
      /* A point each quarter of the brush's radius: close enough that the stroke follows the
       * pointer, few enough that a long stroke stays a few hundred points. */
      double step = 0.25 * 0.5 * t->size * screen_scale (t);
      if (hypot (x - t->last_x, y - t->last_y) < MAX (step, 1.0))
        return;
      t->last_x = x, t->last_y = y;
    }
  else if (!t->drawn && hypot (x - t->press_x, y - t->press_y) < MIN_DRAG)
    return;
  to_source (t, x, y, &u, &v);
  draw_to (t, u, v, shift_held ());
}

static void
on_release (gpointer data, double x, double y)
{
  LmMaskTool *t = data;
  if (!t->dragging)
    return;
  if (!t->stopped && (t->kind != LM_MASK_BRUSH || x != t->last_x || y != t->last_y))
    {
      float u, v;
      to_source (t, x, y, &u, &v);
      if (t->kind == LM_MASK_BRUSH || t->drawn || hypot (x - t->press_x, y - t->press_y) >= MIN_DRAG)
        draw_to (t, u, v, shift_held ());
    }
  gboolean drawn = t->drawn;
  t->dragging = t->drawn = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
  if (drawn)
    {
      lm_window_show_pipeline (t->window); /* the panels show the mask's new shape */
      lm_window_commit (t->window);
    }
}

static void
circle (cairo_t *cr, double x, double y, double r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, y, r, 0, 2 * G_PI);
  /* A dark edge under a light line: seen on light skies and dark shadows alike. */
  cairo_set_line_width (cr, 3.0);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.5);
  cairo_stroke_preserve (cr);
  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
  cairo_stroke (cr);
}

static void
on_draw (gpointer data, cairo_t *cr)
{
  LmMaskTool *t = data;
  if (t->window->source == NULL)
    return;
  cairo_save (cr);
  if (t->kind == LM_MASK_BRUSH && t->hover)
    {
      /* The brush's reach, and where its hardness ends (full strength inside). */
      double r = 0.5 * t->size * screen_scale (t);
      circle (cr, t->hover_x, t->hover_y, r);
      if (t->hardness > 0.0f && t->hardness < 1.0f)
        {
          cairo_set_dash (cr, (double[]) { 4.0, 4.0 }, 2, 0);
          circle (cr, t->hover_x, t->hover_y, r * t->hardness);
        }
    }
  else if (t->dragging && t->drawn && t->hover)
    {
      double x0 = t->press_x, y0 = t->press_y, x1 = t->hover_x, y1 = t->hover_y;
      if (t->kind == LM_MASK_LINEAR)
        {
          /* Full along the line through the press, none beyond the pointer: both lines drawn
           * across the gradient's direction. */
          double dx = x1 - x0, dy = y1 - y0, len = MAX (hypot (dx, dy), 1.0), nx = -dy / len * 2000,
                 ny = dx / len * 2000;
          cairo_move_to (cr, x0 - nx, y0 - ny), cairo_line_to (cr, x0 + nx, y0 + ny);
          cairo_move_to (cr, x1 - nx, y1 - ny), cairo_line_to (cr, x1 + nx, y1 + ny);
          cairo_set_line_width (cr, 1.0);
          cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
          cairo_stroke (cr);
        }
      else
        {
          double rx = MAX (fabs (x1 - x0), 1.0), ry = MAX (fabs (y1 - y0), 1.0);
          if (shift_held ())
            rx = ry = hypot (rx, ry);
          cairo_save (cr);
          cairo_translate (cr, x0, y0);
          cairo_scale (cr, rx, ry);
          cairo_arc (cr, 0, 0, 1, 0, 2 * G_PI);
          cairo_restore (cr);
          cairo_set_line_width (cr, 1.0);
          cairo_set_source_rgba (cr, 1, 1, 1, 0.9);
          cairo_stroke (cr);
        }
    }
  cairo_restore (cr);
}

static const LmViewTool mask_tool = { on_press, on_motion, on_release, on_draw };

LmMaskTool *
lm_mask_tool_new (LmWindow *window)
{
  LmMaskTool *t = g_new0 (LmMaskTool, 1);
  t->window = window;
  t->view = LM_IMAGE_VIEW (lm_window_get_image_view (window));
  t->size = BRUSH_DEFAULT, t->hardness = HARDNESS_DEFAULT, t->opacity = 1.0f;
  t->options = gtk_label_new (NULL);
  gtk_widget_set_name (t->options, "mask-options");
  gtk_label_set_ellipsize (GTK_LABEL (t->options), PANGO_ELLIPSIZE_END);
  gtk_widget_set_no_show_all (t->options, TRUE);
  return t;
}

void
lm_mask_tool_free (LmMaskTool *tool)
{
  if (tool == NULL)
    return;
  lm_mask_tool_end (tool);
  g_free (tool);
}

void
lm_mask_tool_begin (LmMaskTool *t, guint32 id, int kind)
{
  t->id = id, t->kind = CLAMP (kind, 0, LM_MASK_N_KINDS - 1);
  t->dragging = t->drawn = FALSE;
  show_options (t);
  gtk_widget_show (t->options);
  if (t->active)
    {
      gtk_widget_queue_draw (GTK_WIDGET (t->view));
      return;
    }
  t->active = TRUE;
  lm_image_view_set_tool (t->view, &mask_tool, t);
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (t->view));
  if (window)
    {
      g_autoptr (GdkCursor) cursor = gdk_cursor_new_from_name (gdk_window_get_display (window), "crosshair");
      gdk_window_set_cursor (window, cursor);
    }
}

void
lm_mask_tool_cancel (LmMaskTool *t)
{
  t->dragging = t->drawn = FALSE;
}

void
lm_mask_tool_end (LmMaskTool *t)
{
  if (!t->active)
    return;
  t->active = FALSE;
  t->dragging = t->drawn = t->hover = FALSE;
  t->id = 0;
  gtk_widget_hide (t->options);
  lm_image_view_set_tool (t->view, NULL, NULL);
  GdkWindow *window = gtk_widget_get_window (GTK_WIDGET (t->view));
  if (window)
    gdk_window_set_cursor (window, NULL);
}

guint32
lm_mask_tool_instance (LmMaskTool *t)
{
  return t->active ? t->id : 0;
}

void
lm_mask_tool_step_size (LmMaskTool *t, int steps)
{
  t->size = CLAMP (t->size * powf (BRUSH_STEP, (float) steps), BRUSH_MIN, BRUSH_MAX);
  show_options (t);
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
}

void
lm_mask_tool_step_hardness (LmMaskTool *t, int steps)
{
  /* Whole steps: up and down come back to where they were. */
  t->hardness = CLAMP (roundf (t->hardness / HARDNESS_STEP + steps) * HARDNESS_STEP, 0.0f, 1.0f);
  show_options (t);
  gtk_widget_queue_draw (GTK_WIDGET (t->view));
}

GtkWidget *
lm_mask_tool_options (LmMaskTool *t)
{
  return t->options;
}

void
lm_tool_mask_start (LmWindow *self, guint32 id, int kind)
{
  lm_window_tools_start_mask (self, id, kind);
}
