/* The crop suggestion (crop-suggest.h). A crop of aspect R whose width is CW puts the subject
 * (PX, PY) at fractions (A, B) of it where it starts at (PX − A·CW, PY − B·CW/R): each edge
 * that must stay inside the photo bounds CW from above, each edge of the boxes that must stay
 * inside the crop bounds it from below. A placement is possible where the largest bound from
 * below is no more than the smallest from above, and that smallest is the largest crop of it. */
#include "crop-suggest.h"

#include <math.h>

#define EPS 1e-9

typedef struct {
  double x0, y0, x1, y1; /* the rectangle that holds every box */
  double px, py;         /* its centre: the subject */
  double W, H, r;        /* the photo and the aspect */
  double full;           /* the widest crop of the aspect in the photo */
} Scene;

static const double thirds[2] = { 1.0 / 3.0, 2.0 / 3.0 };

/* The widest crop with the subject at fraction A across: bounds from the photo's sides (into
 * *UPPER) and from the boxes' (into *LOWER), in widths. */
static void
across (const Scene *s, double a, double *lower, double *upper)
{
  *upper = MIN (*upper, MIN (s->px / a, (s->W - s->px) / (1.0 - a)));
  *lower = MAX (*lower, MAX ((s->px - s->x0) / a, (s->x1 - s->px) / (1.0 - a)));
}

/* The same at fraction B down; heights are widths over the aspect. */
static void
down (const Scene *s, double b, double *lower, double *upper)
{
  *upper = MIN (*upper, s->r * MIN (s->py / b, (s->H - s->py) / (1.0 - b)));
  *lower = MAX (*lower, s->r * MAX ((s->py - s->y0) / b, (s->y1 - s->py) / (1.0 - b)));
}

/* Where a crop of LENGTH starts on an axis of the photo of SIDE, holding the boxes' LO..HI,
 * with the subject at P nearest one of its thirds lines. */
static double
place (double p, double lo, double hi, double side, double length)
{
  double from = MAX (0.0, hi - length), to = MIN (side - length, lo);
  double best = from, best_miss = G_MAXDOUBLE;
  for (int k = 0; k < 2; k++)
    {
      double start = CLAMP (p - thirds[k] * length, from, to);
      double miss = MIN (fabs (p - start - thirds[0] * length), fabs (p - start - thirds[1] * length));
      if (miss < best_miss - EPS)
        best = start, best_miss = miss;
    }
  return best;
}

static void
set (LmCropSuggestion *out, double x, double y, double cw, double r, LmCropPlacement placement)
{
  out->x = x, out->y = y, out->width = cw, out->height = cw / r;
  out->placement = placement;
}

/* The crossing of thirds that allows the widest crop; FALSE where none holds the boxes. */
static gboolean
on_point (const Scene *s, LmCropSuggestion *out)
{
  double best = 0.0;
  for (int j = 0; j < 2; j++) /* the upper third first: a face's place, on equal sizes */
    for (int i = 0; i < 2; i++)
      {
        double lower = 0.0, upper = s->full;
        across (s, thirds[i], &lower, &upper);
        down (s, thirds[j], &lower, &upper);
        if (lower <= upper * (1.0 + EPS) && upper > best * (1.0 + EPS))
          {
            best = upper;
            set (out, s->px - thirds[i] * upper, s->py - thirds[j] * upper / s->r, upper, s->r,
                 LM_CROP_SUBJECT_POINT);
          }
      }
  return best > 0.0;
}

/* A thirds line that allows the widest crop, the other axis placed as near a line as it can
 * be; FALSE where none holds the boxes. */
static gboolean
on_line (const Scene *s, LmCropSuggestion *out)
{
  double best = 0.0;
  for (int vertical = 1; vertical >= 0; vertical--)
    for (int k = 0; k < 2; k++)
      {
        double lower = 0.0, upper = s->full;
        if (vertical)
          {
            across (s, thirds[k], &lower, &upper);
            lower = MAX (lower, s->r * (s->y1 - s->y0));
          }
        else
          {
            down (s, thirds[k], &lower, &upper);
            lower = MAX (lower, s->x1 - s->x0);
          }
        if (lower > upper * (1.0 + EPS) || upper <= best * (1.0 + EPS))
          continue;
        best = upper;
        double ch = upper / s->r;
        if (vertical)
          set (out, s->px - thirds[k] * upper, place (s->py, s->y0, s->y1, s->H, ch), upper, s->r,
               LM_CROP_SUBJECT_LINE);
        else
          set (out, place (s->px, s->x0, s->x1, s->W, upper), s->py - thirds[k] * ch, upper, s->r,
               LM_CROP_SUBJECT_LINE);
      }
  return best > 0.0;
}

void
lm_crop_suggest (guint width, guint height, const LmCascadeBox *boxes, guint n, double aspect,
                 LmCropSuggestion *out)
{
  g_return_if_fail (width > 0 && height > 0 && boxes && n > 0 && out);
  Scene s = { .x0 = G_MAXDOUBLE, .y0 = G_MAXDOUBLE, .x1 = -G_MAXDOUBLE, .y1 = -G_MAXDOUBLE };
  s.W = width, s.H = height;
  s.r = aspect > 0.0 && isfinite (aspect) ? aspect : s.W / s.H;
  s.full = MIN (s.W, s.H * s.r);
  for (guint i = 0; i < n; i++)
    {
      /* Boxes are clipped to the photo by the detection; one given from elsewhere is too. */
      s.x0 = MIN (s.x0, CLAMP (boxes[i].x, 0.0, s.W));
      s.y0 = MIN (s.y0, CLAMP (boxes[i].y, 0.0, s.H));
      s.x1 = MAX (s.x1, CLAMP ((double) boxes[i].x + boxes[i].width, 0.0, s.W));
      s.y1 = MAX (s.y1, CLAMP ((double) boxes[i].y + boxes[i].height, 0.0, s.H));
    }
  s.px = 0.5 * (s.x0 + s.x1), s.py = 0.5 * (s.y0 + s.y1);
  out->subject_x = s.px, out->subject_y = s.py;
  if (on_point (&s, out) || on_line (&s, out))
    return;
  double cw = s.full, ch = s.full / s.r;
  if (s.x1 - s.x0 <= cw * (1.0 + EPS) && s.y1 - s.y0 <= ch * (1.0 + EPS))
    set (out, place (s.px, s.x0, s.x1, s.W, cw), place (s.py, s.y0, s.y1, s.H, ch), cw, s.r, LM_CROP_SUBJECT_NEAR);
  else
    set (out, CLAMP (s.px - cw / 2, 0.0, s.W - cw), CLAMP (s.py - ch / 2, 0.0, s.H - ch), cw, s.r,
         LM_CROP_SUBJECT_NONE);
}

/* One axis of lm_crop_suggest_pixels: START and LENGTH rounded, widened to LO..HI (the boxes;
 * LO > HI: none to hold), held in 0..SIDE. */
static void
round_axis (double start, double length, int lo, int hi, int side, int *from, int *size)
{
  int a = (int) lround (start), b = (int) lround (start + length);
  if (lo <= hi)
    a = MIN (a, lo), b = MAX (b, hi);
  a = CLAMP (a, 0, side - 1);
  b = CLAMP (b, a + 1, side);
  *from = a, *size = b - a;
}

void
lm_crop_suggest_pixels (const LmCropSuggestion *s, guint width, guint height, const LmCascadeBox *boxes, guint n,
                        int *x, int *y, int *w, int *h)
{
  int x0 = G_MAXINT, y0 = G_MAXINT, x1 = G_MININT, y1 = G_MININT;
  if (s->placement != LM_CROP_SUBJECT_NONE) /* there the boxes do not all fit */
    for (guint i = 0; i < n; i++)
      {
        x0 = MIN (x0, boxes[i].x), y0 = MIN (y0, boxes[i].y);
        x1 = MAX (x1, boxes[i].x + boxes[i].width), y1 = MAX (y1, boxes[i].y + boxes[i].height);
      }
  round_axis (s->x, s->width, x0, x1, (int) width, x, w);
  round_axis (s->y, s->height, y0, y1, (int) height, y, h);
}
