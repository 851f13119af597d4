/* Grouping of candidate windows (group.h), as OpenCV's partition and groupRectangles: the
 * classes are the connected components of "similar" (every edge within eps times the mean of
 * the smaller width and height), so the order of the candidates is irrelevant; the rounding
 * of the averages (a float reciprocal, rounded to even) is OpenCV's. */
#include <math.h>
#include <stdlib.h>

#include "group.h"

static int
find (int *parent, int i)
{
  int root = i;
  while (parent[root] != root)
    root = parent[root];
  while (parent[i] != root)
    {
      int next = parent[i];
      parent[i] = root;
      i = next;
    }
  return root;
}

static gboolean
similar (const LmCascadeBox *a, const LmCascadeBox *b, double eps)
{
  double delta = eps * (MIN (a->width, b->width) + MIN (a->height, b->height)) * 0.5;
  return abs (a->x - b->x) <= delta && abs (a->y - b->y) <= delta
         && abs (a->x + a->width - b->x - b->width) <= delta
         && abs (a->y + a->height - b->y - b->height) <= delta;
}

static int
by_position (gconstpointer pa, gconstpointer pb)
{
  const LmCascadeBox *a = pa, *b = pb;
  if (a->y != b->y)
    return a->y < b->y ? -1 : 1;
  if (a->x != b->x)
    return a->x < b->x ? -1 : 1;
  if (a->width != b->width)
    return a->width < b->width ? -1 : 1;
  return a->height < b->height ? -1 : a->height > b->height;
}

static int
by_x (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const LmCascadeBox *c = data;
  int a = *(const int *) pa, b = *(const int *) pb;
  return c[a].x != c[b].x ? (c[a].x < c[b].x ? -1 : 1) : (a > b) - (a < b);
}

static inline int
round_even_f (float v)
{
  return (int) lrintf (v);
}

GArray *
lm_cascade_group (const GArray *candidates, int min_neighbors, double eps, int image_width, int image_height)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (LmCascadeBox));
  int n = (int) candidates->len;
  const LmCascadeBox *c = (const LmCascadeBox *) candidates->data;
  g_autofree LmCascadeBox *classes = NULL;
  int n_classes = 0;
  if (min_neighbors <= 0)
    {
      /* OpenCV returns the candidates themselves, each a group of one. */
      classes = g_new (LmCascadeBox, MAX (n, 1));
      for (int i = 0; i < n; i++)
        classes[i] = c[i], classes[i].neighbors = 1;
      n_classes = n;
    }
  else
    {
      g_autofree int *parent = g_new (int, MAX (n, 1));
      g_autofree int *order = g_new (int, MAX (n, 1));
      int widest = 0, tallest = 0;
      for (int i = 0; i < n; i++)
        {
          parent[i] = order[i] = i;
          widest = MAX (widest, c[i].width), tallest = MAX (tallest, c[i].height);
        }
      /* OpenCV compares every pair; only pairs whose x are within the largest possible delta
       * can be similar, so in the order of x each box meets its few neighbours. The classes,
       * the graph's components, are the same. */
      g_qsort_with_data (order, n, sizeof (int), by_x, (gpointer) c);
      double reach = eps * (widest + tallest) * 0.5;
      for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n && c[order[b]].x - c[order[a]].x <= reach; b++)
          if (similar (&c[order[a]], &c[order[b]], eps))
            {
              int ra = find (parent, order[a]), rb = find (parent, order[b]);
              if (ra != rb)
                parent[MAX (ra, rb)] = MIN (ra, rb);
            }
      g_autofree int *label = g_new (int, MAX (n, 1));
      g_autofree gint64 *acc = g_new0 (gint64, 4 * (gsize) MAX (n, 1));
      g_autofree int *count = g_new0 (int, MAX (n, 1));
      for (int i = 0; i < n; i++)
        {
          int root = find (parent, i);
          if (root == i)
            label[i] = n_classes++;
          else
            label[i] = label[root]; /* the root is the lowest index of its class */
          int k = label[i];
          acc[4 * k] += c[i].x, acc[4 * k + 1] += c[i].y;
          acc[4 * k + 2] += c[i].width, acc[4 * k + 3] += c[i].height;
          count[k]++;
        }
      classes = g_new (LmCascadeBox, MAX (n_classes, 1));
      for (int k = 0; k < n_classes; k++)
        {
          float s = 1.0f / count[k];
          classes[k] = (LmCascadeBox) { round_even_f ((float) (int) acc[4 * k] * s),
                                       round_even_f ((float) (int) acc[4 * k + 1] * s),
                                       round_even_f ((float) (int) acc[4 * k + 2] * s),
                                       round_even_f ((float) (int) acc[4 * k + 3] * s), count[k] };
        }
    }

  for (int i = 0; i < n_classes; i++)
    {
      const LmCascadeBox *r1 = &classes[i];
      int n1 = r1->neighbors;
      if (n1 <= min_neighbors)
        continue;
      gboolean inside = FALSE;
      /* At 0 neighbours OpenCV neither groups nor removes. */
      for (int j = 0; j < n_classes && !inside && min_neighbors > 0; j++)
        {
          const LmCascadeBox *r2 = &classes[j];
          int n2 = r2->neighbors;
          if (j == i || n2 <= min_neighbors)
            continue;
          int dx = (int) lrint (r2->width * eps), dy = (int) lrint (r2->height * eps);
          inside = r1->x >= r2->x - dx && r1->y >= r2->y - dy && r1->x + r1->width <= r2->x + r2->width + dx
                   && r1->y + r1->height <= r2->y + r2->height + dy && (n2 > MAX (3, n1) || n1 < 3);
        }
      if (inside)
        continue;
      /* Clipped to the image, as detectMultiScale's clipObjects. */
      int x0 = MAX (r1->x, 0), y0 = MAX (r1->y, 0);
      int x1 = MIN (r1->x + r1->width, image_width), y1 = MIN (r1->y + r1->height, image_height);
      if (x1 <= x0 || y1 <= y0)
        continue;
      LmCascadeBox box = { x0, y0, x1 - x0, y1 - y0, n1 };
      g_array_append_val (out, box);
    }
  g_array_sort (out, by_position);
  return out;
}
