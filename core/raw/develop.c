#include "develop.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../ops/raw-matrix-math.h"
#include "camera-color.h"
#include "demosaic-refine.h"
#include "demosaic-xtrans.h"
#include "demosaic.h"
#include "prep.h"

void
lm_raw_setup (const LmRawParams *params, const LmRawInfo *info, LmRawSetup *setup)
{
  memset (setup, 0, sizeof *setup);
  const float custom[3] = { params->red, 1.0f, params->blue };
  lm_raw_wb_multipliers (info, (LmRawWbMode) params->wb, params->temperature, params->tint, custom, setup->mul);
  lm_raw_prep_init (&setup->prep, info, setup->mul, (LmRawHighlights) params->highlights);
  setup->cfa.w = info->cfa_w;
  setup->cfa.h = info->cfa_h;
  memcpy (setup->cfa.color, info->cfa, sizeof setup->cfa.color);

  LmRawDemosaic m = (LmRawDemosaic) params->demosaic;
  if (info->layout == LM_RAW_XTRANS)
    setup->method = m == LM_RAW_DEMOSAIC_MARKESTEIJN1 || m == LM_RAW_DEMOSAIC_BILINEAR ? LM_RAW_DEMOSAIC_MARKESTEIJN1
                                                                                      : LM_RAW_DEMOSAIC_MARKESTEIJN3;
  else
    setup->method = m == LM_RAW_DEMOSAIC_BILINEAR ? LM_RAW_DEMOSAIC_BILINEAR : LM_RAW_DEMOSAIC_RCD;

  lm_raw_camera_to_rec2020 (info, setup->mul, setup->matrix);
  /* The exposure is a gain on scene light: folded into the matrix, it costs nothing. */
  double gain = exp2 (params->exposure);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      setup->matrix[i][j] = (float) (setup->matrix[i][j] * gain);
  lm_raw_camera_to_xyz (info, setup->mul, setup->cam_to_xyz);
}

static void
demosaic (const LmRawSetup *setup, const float *plane, guint width, guint height, LmImage *out)
{
  float *rgba = (float *) out->data;
  size_t stride = out->stride / sizeof (float);
  switch (setup->method)
    {
    case LM_RAW_DEMOSAIC_MARKESTEIJN3:
    case LM_RAW_DEMOSAIC_MARKESTEIJN1:
      lm_demosaic_markesteijn_cpu (plane, (int) width, (int) height, &setup->cfa,
                                   setup->method == LM_RAW_DEMOSAIC_MARKESTEIJN3 ? 3 : 1, setup->cam_to_xyz, rgba,
                                   stride);
      break;
    case LM_RAW_DEMOSAIC_BILINEAR:
      lm_demosaic_bilinear_cpu (plane, (int) width, (int) height, &setup->cfa, rgba, stride);
      break;
    default:
      lm_demosaic_rcd_cpu (plane, (int) width, (int) height, &setup->cfa, rgba, stride);
      break;
    }
}

gboolean
lm_raw_develop_cpu (const LmRawParams *params, const LmRawInfo *info, const LmImage *src, LmImage *out,
                    GError **error)
{
  g_return_val_if_fail (info != NULL && out->format == LM_FORMAT_RGBA_F32 && out->width == src->width
                          && out->height == src->height,
                        FALSE);
  LmRawSetup setup;
  lm_raw_setup (params, info, &setup);
  if (info->layout == LM_RAW_LINEAR || info->layout == LM_RAW_MONO)
    {
      if (!lm_raw_prep_linear_cpu (&setup.prep, src, (float *) out->data, out->stride / sizeof (float), error))
        return FALSE;
    }
  else
    {
      g_return_val_if_fail (src->format == LM_FORMAT_CFA16, FALSE);
      g_autofree float *plane = g_try_malloc_n ((gsize) src->width * src->height, sizeof (float));
      if (plane == NULL)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                       _("not enough memory to develop the raw data (%u × %u)"), src->width, src->height);
          return FALSE;
        }
      if (!lm_raw_prep_cpu (&setup.prep, src, plane, error))
        return FALSE;
      demosaic (&setup, plane, src->width, src->height, out);
      /* Bilinear is offered for comparison: it stays the plain method. */
      if (setup.method != LM_RAW_DEMOSAIC_BILINEAR)
        lm_demosaic_refine_cpu (plane, (int) src->width, (int) src->height, &setup.cfa, (float *) out->data,
                                out->stride / sizeof (float));
    }
#pragma omp parallel for schedule(static)
  for (guint y = 0; y < out->height; y++)
    {
      float *row = (float *) lm_image_row (out, y);
      for (guint x = 0; x < out->width; x++)
        lm_raw_matrix_pixel (setup.matrix, row + 4 * x);
    }
  out->opaque = TRUE;
  return TRUE;
}
