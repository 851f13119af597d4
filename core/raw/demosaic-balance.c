/* The demosaic's channel balance on the CPU (demosaic-balance.h). */
#include "demosaic-balance.h"

#include <stddef.h>

/* The colours of row Y by column phase. */
static void
row_colors (const LmCfa *cfa, int y, int color[6])
{
  for (int x = 0; x < cfa->w; x++)
    color[x] = lm_cfa_color (cfa, x, y % cfa->h);
}

void
lm_demosaic_balance_measure_cpu (const float *plane, int width, int height, const LmCfa *cfa,
                                 LmBalanceSums *sums)
{
  unsigned long long s0 = 0, s1 = 0, s2 = 0, n0 = 0, n1 = 0, n2 = 0;
  /* Integer sums: the reduction's order, and so the thread count, cannot change them. */
#pragma omp parallel for schedule(static) reduction(+ : s0, s1, s2, n0, n1, n2)
  for (int y = 0; y < height; y++)
    {
      int color[6];
      row_colors (cfa, y, color);
      unsigned long long s[3] = { 0, 0, 0 }, n[3] = { 0, 0, 0 };
      const float *row = plane + (size_t) y * (size_t) width;
      for (int x = 0; x < width; x++)
        if (lm_balance_counts (row[x]))
          {
            int c = color[x % cfa->w];
            s[c] += lm_balance_units (row[x]);
            n[c]++;
          }
      s0 += s[0], s1 += s[1], s2 += s[2];
      n0 += n[0], n1 += n[1], n2 += n[2];
    }
  *sums = (LmBalanceSums) { { s0, s1, s2 }, { n0, n1, n2 } };
}

void
lm_demosaic_balance_apply_cpu (float *plane, int width, int height, const LmCfa *cfa, const float gain[3])
{
#pragma omp parallel for schedule(static)
  for (int y = 0; y < height; y++)
    {
      int color[6];
      row_colors (cfa, y, color);
      float *row = plane + (size_t) y * (size_t) width;
      for (int x = 0; x < width; x++)
        row[x] = row[x] * gain[color[x % cfa->w]];
    }
}

void
lm_demosaic_balance_cpu (float *plane, int width, int height, const LmCfa *cfa, float matrix[3][3])
{
  LmBalanceSums sums;
  float gain[3];
  lm_demosaic_balance_measure_cpu (plane, width, height, cfa, &sums);
  lm_balance_gains (&sums, gain);
  if (gain[0] == 1.0f && gain[1] == 1.0f && gain[2] == 1.0f)
    return;
  lm_demosaic_balance_apply_cpu (plane, width, height, cfa, gain);
  lm_balance_fold (matrix, gain);
}
