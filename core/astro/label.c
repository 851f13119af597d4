/* Connected-component labelling as scipy.ndimage.label: 4-connectivity (its default
 * structure) or 8 (np.ones((3, 3))), components numbered 1, 2, … in raster order of their
 * first pixel.
 *
 * One raster pass gives each pixel the provisional label of an earlier neighbour (left, and
 * the row above: up, and for 8-connectivity up-left and up-right) or a new one, and joins the
 * labels of neighbours that meet in a union-find whose root is always the smaller label.
 * Provisional labels grow in raster order and a component's first pixel always opens a new
 * one, so each root is its component's first pixel: numbering the roots in increasing order
 * is SciPy's order. */
#include "detect-private.h"

static inline guint32
find_root (guint32 *parent, guint32 a)
{
  while (parent[a] != a)
    {
      parent[a] = parent[parent[a]]; /* path halving */
      a = parent[a];
    }
  return a;
}

static inline guint32
join (guint32 *parent, guint32 a, guint32 b)
{
  a = find_root (parent, a);
  b = find_root (parent, b);
  if (a < b)
    {
      parent[b] = a;
      return a;
    }
  parent[a] = b;
  return b;
}

guint
lm_label (const guint8 *mask, guint width, guint height, int connectivity, guint32 *labels)
{
  g_return_val_if_fail (mask && labels, 0);
  g_return_val_if_fail (connectivity == 4 || connectivity == 8, 0);
  gsize n = (gsize) width * height;
  /* At most one new label in two pixels (a checkerboard under 4-connectivity). */
  g_autofree guint32 *parent = g_new (guint32, n / 2 + 2);
  guint32 next = 1;
  gboolean diagonal = connectivity == 8;

  for (guint y = 0; y < height; y++)
    {
      const guint8 *m = mask + (gsize) y * width;
      guint32 *row = labels + (gsize) y * width;
      const guint32 *up = y > 0 ? row - width : NULL;
      for (guint x = 0; x < width; x++)
        {
          if (!m[x])
            {
              row[x] = 0;
              continue;
            }
          guint32 label = 0;
          guint32 neighbours[4] = {
            x > 0 ? row[x - 1] : 0,
            up ? up[x] : 0,
            up && diagonal && x > 0 ? up[x - 1] : 0,
            up && diagonal && x + 1 < width ? up[x + 1] : 0,
          };
          for (int i = 0; i < 4; i++)
            {
              if (!neighbours[i])
                continue;
              label = label ? join (parent, label, neighbours[i]) : find_root (parent, neighbours[i]);
            }
          if (!label)
            {
              label = next++;
              parent[label] = label;
            }
          row[x] = label;
        }
    }

  /* A parent is always smaller than its child (joins keep the smaller root; path halving only
   * moves to ancestors), so in increasing order each label's parent already holds its final
   * number when the label is reached: roots take 1, 2, …, the others their parent's. */
  guint32 count = 0;
  for (guint32 label = 1; label < next; label++)
    parent[label] = parent[label] == label ? ++count : parent[parent[label]];
  for (gsize i = 0; i < n; i++)
    if (labels[i])
      labels[i] = parent[labels[i]];
  return count;
}

guint
lm_label_min_area (guint32 *labels, guint width, guint height, guint n_labels, guint min_area)
{
  g_return_val_if_fail (labels, 0);
  gsize n = (gsize) width * height;
  g_autofree guint64 *area = g_new0 (guint64, (gsize) n_labels + 1);
  for (gsize i = 0; i < n; i++)
    area[labels[i]]++;
  g_autofree guint32 *renumber = g_new0 (guint32, (gsize) n_labels + 1);
  guint kept = 0;
  for (guint label = 1; label <= n_labels; label++)
    renumber[label] = area[label] >= min_area ? ++kept : 0;
  for (gsize i = 0; i < n; i++)
    labels[i] = renumber[labels[i]];
  return kept;
}
