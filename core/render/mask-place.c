/* Masks placed on an instance's input (mask-place.h). */
#include "mask-place.h"

#include <math.h>
#include <glib/gi18n.h>

#include "../edit/mask-strokes.h"
#include "../error.h"

LmRenderLevel
lm_render_level_of (const LmRenderLevel *level, guint src_w, guint src_h)
{
  if (level == NULL || level->factor <= 0 || level->full_w == 0 || level->full_h == 0)
    return (LmRenderLevel) { 1.0, src_w, src_h };
  return *level;
}

/* Pixel (X, Y) of the input of PREFIX's last enabled instance, in source-normalised
 * coordinates. */
static void
to_source (const LmPipeline *prefix, guint src_w, guint src_h, const LmRenderLevel *l, double x, double y,
           double *u, double *v)
{
  double sx, sy;
  lm_pipeline_source_point (prefix, src_w, src_h, x, y, &sx, &sy);
  /* Level pixel i is centred on the photo's i·f + (f − 1)/2, the photo's pixel j on
   * (j + ½) / long side: together (i + ½)·f / long side. */
  double side = MAX (l->full_w, l->full_h);
  *u = (sx + 0.5) * l->factor / side;
  *v = (sy + 0.5) * l->factor / side;
}

gboolean
lm_render_mask_frame (const LmPipeline *pipeline, guint index, gboolean scene, guint src_w, guint src_h,
                      const LmRenderLevel *level, LmMaskFrame *frame, GError **error)
{
  g_return_val_if_fail (index < pipeline->n, FALSE);
  LmRenderLevel l = lm_render_level_of (level, src_w, src_h);
  g_autofree LmPipeline *prefix = g_memdup2 (pipeline, sizeof *pipeline);
  for (guint i = 0; i < prefix->n; i++)
    if (scene || i >= index || prefix->inst[i].info->id == LM_OP_LENS)
      prefix->inst[i].enabled = FALSE;
  guint in_w, in_h;
  lm_pipeline_output_size (prefix, src_w, src_h, &in_w, &in_h);
  double u0, v0, ux, vx, uy, vy, uc, vc;
  to_source (prefix, src_w, src_h, &l, 0, 0, &u0, &v0);
  to_source (prefix, src_w, src_h, &l, in_w, 0, &ux, &vx);
  to_source (prefix, src_w, src_h, &l, 0, in_h, &uy, &vy);
  double a = (ux - u0) / in_w, d = (vx - v0) / in_w, b = (uy - u0) / in_h, e = (vy - v0) / in_h;
  /* The far corner as the affine map puts it and as the geometry does. */
  to_source (prefix, src_w, src_h, &l, in_w, in_h, &uc, &vc);
  double du = u0 + a * in_w + b * in_h - uc, dv = v0 + d * in_w + e * in_h - vc;
  if (!(fabs (du) < 1e-6 && fabs (dv) < 1e-6))
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
                   _("A mask cannot follow this geometry: it does not keep straight lines straight"));
      return FALSE;
    }
  *frame = (LmMaskFrame) { (float) a, (float) b, (float) u0, (float) d, (float) e, (float) v0 };
  return TRUE;
}

LmMaskFlat *
lm_render_mask_place (const LmPipeline *pipeline, guint index, gboolean scene, const LmMaskFrame *frame, guint in_w,
                      guint in_h, GError **error)
{
  const LmStage *stage = &pipeline->inst[index];
  g_return_val_if_fail (stage->mask >= 0 && stage->mask < LM_PIPELINE_MASKS, NULL);
  g_autoptr (LmMaskFlat) flat = lm_mask_flatten_stored (&pipeline->masks[stage->mask], scene, error);
  if (flat == NULL || !lm_mask_flat_place (flat, frame, in_w, in_h, TRUE, error))
    return NULL;
  return g_steal_pointer (&flat);
}

gboolean
lm_render_mask_fits (const LmPipeline *pipeline, guint index, LmFormat in, guint in_w, guint in_h, LmFormat out,
                     guint out_w, guint out_h, GError **error)
{
  if (out == in && out_w == in_w && out_h == in_h)
    return TRUE;
  g_autofree char *name = lm_stage_display_name (&pipeline->inst[index]);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED,
               _("%s cannot have a mask in this version of Lumen: it changes the image's format"), name);
  return FALSE;
}
