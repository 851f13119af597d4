/* The linear merge of 16-bit exposures, CPU reference: merge-math.h's per-channel sums, row
 * by row, the exposures in stack order as the CUDA kernel adds them. */
#include "merge.h"

gboolean
lm_hdr_merge_linear (const LmHdrStack *stack, LmImage *out, GError **error)
{
  const LmImage *first = stack->images[0];
  g_return_val_if_fail (lm_format_depth (first->format) == 16 && out->format == LM_FORMAT_RGBA_F32, FALSE);
  g_return_val_if_fail (stack->times != NULL && stack->n <= LM_HDR_MAX_EXPOSURES, FALSE);
  for (guint i = 0; i < stack->n; i++)
    g_return_val_if_fail (stack->images[i]->format == first->format, FALSE);

  float scale[LM_HDR_MAX_EXPOSURES];
  for (guint i = 0; i < stack->n; i++)
    scale[i] = lm_hdr_linear_scale (stack->times[i]);
  unsigned shortest, longest;
  lm_hdr_linear_ends (scale, stack->n, &shortest, &longest);
  gboolean gray = lm_format_channels (first->format) == 1;

#pragma omp parallel for schedule(static)
  for (guint y = 0; y < first->height; y++)
    {
      float *o = (float *) lm_image_row (out, y);
      for (guint x = 0; x < first->width; x++)
        {
          LmHdrLinearSums s[3] = { { 0 }, { 0 }, { 0 } };
          for (guint i = 0; i < stack->n; i++)
            {
              const guint16 *row = (const guint16 *) lm_image_row (stack->images[i], y);
              for (int c = 0; c < 3; c++)
                lm_hdr_linear_add (&s[c], gray ? row[x] : row[4 * x + c], scale[i], i == shortest, i == longest);
            }
          for (int c = 0; c < 3; c++)
            o[4 * x + c] = lm_hdr_linear_radiance (&s[c]);
          o[4 * x + 3] = 1.0f;
        }
    }
  return TRUE;
}
