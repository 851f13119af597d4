/* LmWindow's geometry (window-geometry.h): the view's image is the size the pipeline renders
 * (crop and rotation change it), and the rotate and flip buttons. Rotation and flips compose
 * as the group of the square's eight symmetries: a turn after a flip is a flip after the
 * opposite turn, and the crop rectangle and the straightening turn with the photo, so that
 * what was chosen stays chosen. */
#include "window-geometry.h"
#include "window-astro.h"
#include "window-private.h"
#include "window-split.h"
#include "window-tools.h"

#include <math.h>

#include "stage-params.h"

void
lm_window_view_pipeline (LmWindow *self, LmPipeline *pipeline)
{
  *pipeline = self->pipeline;
  if (lm_window_showing_original (self))
    lm_pipeline_geometry_only (pipeline); /* the original in the edit's frame: window-split.c */
  lm_window_tools_adjust (self, pipeline);
}

void
lm_window_follow_size (LmWindow *self, const LmPipeline *pipeline)
{
  if (self->source == NULL)
    return;
  LmPipeline view = *pipeline;
  lm_pipeline_for_view (&view);
  guint w, h;
  lm_pipeline_output_size (&view, self->source->width, self->source->height, &w, &h);
  lm_image_view_resize_image (self->image_view, w, h);
}

void
lm_window_crop_input_size (LmWindow *self, const LmPipeline *pipeline, guint *width, guint *height)
{
  LmPipeline before_crop = *pipeline;
  LmStage *crop = lm_stage_by_name (&before_crop, "crop");
  /* The geometry before crop (its order in op-list.h): the image crop's parameters are
   * pixels of. */
  for (guint i = crop ? (guint) (crop - before_crop.inst) : 0; i < before_crop.n; i++)
    before_crop.inst[i].enabled = FALSE;
  lm_pipeline_geometry_only (&before_crop);
  lm_pipeline_output_size (&before_crop, self->source->width, self->source->height, width, height);
}

/* ---- rotate and flip ------------------------------------------------------------------ */

/* A symmetry of the square as a 2×2 matrix on screen coordinates (x right, y down). */
typedef struct {
  int a, b, c, d; /* (x, y) → (a x + b y, c x + d y) */
} Sym;

static Sym
sym_mul (Sym p, Sym q) /* p after q */
{
  return (Sym) { p.a * q.a + p.b * q.c, p.a * q.b + p.b * q.d, p.c * q.a + p.d * q.c, p.c * q.b + p.d * q.d };
}

static const Sym QUARTER = { 0, -1, 1, 0 }; /* clockwise on screen: the top goes right */
static const Sym MIRROR[3] = { { 1, 0, 0, 1 }, { -1, 0, 0, 1 }, { 1, 0, 0, -1 } }; /* none, h, v */

/* Rotate's parameters (quarter turns clockwise, then mirror index) as a symmetry. */
static Sym
sym_of (int quarters, int mirror)
{
  Sym s = MIRROR[0];
  for (int i = 0; i < quarters; i++)
    s = sym_mul (QUARTER, s);
  return sym_mul (MIRROR[mirror], s);
}

static gboolean
sym_equal (Sym p, Sym q)
{
  return p.a == q.a && p.b == q.b && p.c == q.c && p.d == q.d;
}

typedef enum { TURN_RIGHT, TURN_LEFT, FLIP_H, FLIP_V } Move;

/* The crop rectangle (x, y, w, h; w, h resolved) in an image of W × H, after MOVE. */
static void
move_rect (Move move, double r[4], double w, double h)
{
  double x = r[0], y = r[1], rw = r[2], rh = r[3];
  switch (move)
    {
    case TURN_RIGHT: /* (x, y) → (h - y, x) */
      r[0] = h - (y + rh), r[1] = x, r[2] = rh, r[3] = rw;
      break;
    case TURN_LEFT: /* (x, y) → (y, w - x) */
      r[0] = y, r[1] = w - (x + rw), r[2] = rh, r[3] = rw;
      break;
    case FLIP_H:
      r[0] = w - (x + rw);
      break;
    case FLIP_V:
      r[1] = h - (y + rh);
      break;
    }
}

static void
apply_move (LmWindow *self, Move move)
{
  LmStage *rotate = lm_stage_by_name (&self->pipeline, "rotate");
  int *angle = lm_stage_enum (rotate, "angle"), *flip = lm_stage_enum (rotate, "flip");
  if (self->source == NULL || angle == NULL || flip == NULL)
    return;
  lm_window_tools_finish (self); /* a crop being drawn is applied first: it turns with the rest */
  guint w0, h0;
  lm_window_crop_input_size (self, &self->pipeline, &w0, &h0);

  int quarters = rotate->enabled ? *angle : 0, mirror = rotate->enabled ? *flip : 0;
  Sym moves[] = { QUARTER, sym_mul (QUARTER, sym_mul (QUARTER, QUARTER)), MIRROR[1], MIRROR[2] };
  Sym want = sym_mul (moves[move], sym_of (quarters, mirror));
  /* The same mirror where it still serves, then the one pressed, then none, h, v. */
  int order[5] = { mirror, move == FLIP_V ? 2 : 1, 0, 1, 2 };
  gboolean found = FALSE;
  for (int k = 0; k < 5 && !found; k++)
    for (int q = 0; q < 4 && !found; q++)
      if (sym_equal (sym_of (q, order[k]), want))
        *angle = q, *flip = order[k], found = TRUE;
  g_assert (found);
  rotate->enabled = *angle != 0 || *flip != 0;

  /* Straightening after a mirror turns the other way; after a turn, the same way. */
  LmStage *straighten = lm_stage_by_name (&self->pipeline, "straighten");
  float *tilt = lm_stage_float (straighten, "angle");
  if (tilt && (move == FLIP_H || move == FLIP_V))
    *tilt = -*tilt;

  /* The crop rectangle, where one is set, moves with the photo. */
  LmStage *crop = lm_stage_by_name (&self->pipeline, "crop");
  float *p[4] = { lm_stage_float (crop, "x"), lm_stage_float (crop, "y"), lm_stage_float (crop, "width"),
                  lm_stage_float (crop, "height") };
  if (p[0] && p[1] && p[2] && p[3] && (*p[0] != 0 || *p[1] != 0 || *p[2] != 0 || *p[3] != 0))
    {
      double r[4] = { *p[0], *p[1], *p[2] > 0 ? *p[2] : w0 - *p[0], *p[3] > 0 ? *p[3] : h0 - *p[1] };
      move_rect (move, r, w0, h0);
      guint w1, h1;
      lm_window_crop_input_size (self, &self->pipeline, &w1, &h1);
      *p[0] = (float) CLAMP (round (r[0]), 0.0, w1 - 1.0);
      *p[1] = (float) CLAMP (round (r[1]), 0.0, h1 - 1.0);
      *p[2] = (float) CLAMP (round (r[2]), 1.0, w1 - *p[0]);
      *p[3] = (float) CLAMP (round (r[3]), 1.0, h1 - *p[1]);
    }
  lm_window_show_pipeline (self);
  lm_window_commit (self);
}

static void
geometry_action (GSimpleAction *action, GVariant *param, gpointer data)
{
  const char *name = g_action_get_name (G_ACTION (action));
  Move move = g_str_equal (name, "rotate-right") ? TURN_RIGHT
              : g_str_equal (name, "rotate-left") ? TURN_LEFT
              : g_str_equal (name, "flip-horizontal") ? FLIP_H : FLIP_V;
  apply_move (LM_WINDOW (data), move);
}

static const GActionEntry geometry_actions[] = {
  { "rotate-left", geometry_action },
  { "rotate-right", geometry_action },
  { "flip-horizontal", geometry_action },
  { "flip-vertical", geometry_action },
};

void
lm_window_add_geometry_actions (LmWindow *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), geometry_actions, G_N_ELEMENTS (geometry_actions), self);
}

void
lm_window_update_geometry_actions (LmWindow *self)
{
  gboolean can = self->source != NULL && lm_op_info_by_name ("rotate") != NULL && !lm_window_astro_active (self);
  for (guint i = 0; i < G_N_ELEMENTS (geometry_actions); i++)
    g_simple_action_set_enabled (
      G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), geometry_actions[i].name)), can);
}
