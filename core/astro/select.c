/* The K-th smallest of N floats by selection (Hoare's, median of three): linear time where a
 * sort would be N log N, for the clipping's medians and the display's percentiles. */
#include "select.h"

static inline void
swap_floats (float *a, float *b)
{
  float t = *a;
  *a = *b;
  *b = t;
}

void
lm_select_kth (float *v, gsize n, gsize k)
{
  gsize lo = 0, hi = n - 1;
  while (hi > lo)
    {
      /* Median of three as the pivot, which also guards the scans below. */
      gsize mid = lo + (hi - lo) / 2;
      if (v[mid] < v[lo])
        swap_floats (&v[mid], &v[lo]);
      if (v[hi] < v[lo])
        swap_floats (&v[hi], &v[lo]);
      if (v[hi] < v[mid])
        swap_floats (&v[hi], &v[mid]);
      float pivot = v[mid];
      gsize i = lo, j = hi;
      /* Hoare's partition: equal values split between the sides, so runs of equal values
       * (a flat background) do not make it quadratic. */
      for (;;)
        {
          while (v[i] < pivot)
            i++;
          while (v[j] > pivot)
            j--;
          if (i >= j)
            break;
          swap_floats (&v[i], &v[j]);
          i++;
          j--;
        }
      /* Now v[lo..j] ≤ pivot ≤ v[j+1..hi]. */
      if (k <= j)
        hi = j;
      else
        lo = j + 1;
    }
}
