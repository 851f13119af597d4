/* Colour mixer: its parameters, its commit step (the photo's primaries) and its place in the
 * fused point pass (colormix-math.h says what it computes). A pixel part alone, no gray part:
 * a gray image has no hue to mix and stays as it is. */
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "colormix-math.h"
#include "ops.h"
#include "point.h"

#define LM_PARAM_STRUCT LmColormixParams
static const LmParamSpec colormix_params[] = { LM_COLORMIX_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* Three parameters a band, in band order: the pixel part reads them by index. */
G_STATIC_ASSERT (G_N_ELEMENTS (colormix_params) == 3 * LM_COLORMIX_BANDS);

/* Oklab's matrices from linear sRGB to LMS and back (Ottosson's figures), and from XYZ (D65)
 * to LMS, whose rows are Oklab's cone responses. */
static const float srgb_to_lms[3][3] = {
  { 0.4122214708f, 0.5363325363f, 0.0514459929f },
  { 0.2119034982f, 0.6806995451f, 0.1073969566f },
  { 0.0883024619f, 0.2817188376f, 0.6299787005f },
};
static const float lms_to_srgb[3][3] = {
  { 4.0767416621f, -3.3077115913f, 0.2309699292f },
  { -1.2684380046f, 2.6097574011f, -0.3413193965f },
  { -0.0041960863f, -0.7034186147f, 1.7076147010f },
};
static const double xyz_to_lms[3][3] = {
  { 0.8189330101, 0.3618667424, -0.1288597137 },
  { 0.0329845436, 0.9293118715, 0.0361456387 },
  { 0.0482003018, 0.2643662691, 0.6338517070 },
};

/* The inverse of M, by cofactors in double; FALSE where M is singular. */
static gboolean
invert3 (const double m[3][3], double inv[3][3])
{
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
               - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  if (!(fabs (det) > 1e-12))
    return FALSE;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
        inv[i][j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
      }
  return TRUE;
}

/* A photo in another profile than sRGB is mixed in its own primaries: its linear RGB → XYZ →
 * LMS, each row scaled to sum to 1 so that the profile's white is Oklab's neutral (a von Kries
 * adaptation in Oklab's cone space, for profiles whose white is not D65). Its values are still
 * decoded with the sRGB curve: the raw's display side has exactly that curve; Adobe RGB's and
 * ProPhoto's gammas would need a curve the pixel part does not carry (the bands then sit a
 * little off their colours, and greys still stay grey). */
static void
colormix_commit (void *params, const LmOpContext *context)
{
  LmColormixParams *p = params;
  memset (&p->rgb_to_lms, 0, sizeof p->rgb_to_lms);
  const LmOpColor *color = &context->color;
  double rgb_to_xyz[3][3];
  if (color->space == NULL || !invert3 (color->xyz_to_rgb, rgb_to_xyz))
    return;
  for (int i = 0; i < 3; i++)
    {
      double row[3] = { 0.0, 0.0, 0.0 };
      for (int j = 0; j < 3; j++)
        for (int k = 0; k < 3; k++)
          row[j] += xyz_to_lms[i][k] * rgb_to_xyz[k][j];
      double sum = row[0] + row[1] + row[2];
      if (!(sum > 0.0))
        {
          memset (&p->rgb_to_lms, 0, sizeof p->rgb_to_lms);
          return;
        }
      for (int j = 0; j < 3; j++)
        p->rgb_to_lms.m[i][j] = (float) (row[j] / sum);
    }
}

static gboolean
is_zero (const LmColormixMatrix *m)
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (m->m[i][j] != 0.0f)
        return FALSE;
  return TRUE;
}

static float
param_value (const LmColormixParams *p, int band, int which)
{
  const LmParamSpec *spec = &colormix_params[3 * band + which];
  return G_STRUCT_MEMBER (float, p, spec->offset);
}

static void
colormix_point_prepare (const void *params, LmPointPass *pass)
{
  const LmColormixParams *p = params;
  LmColormixPixel px;
  memset (&px, 0, sizeof px); /* the render cache compares passes byte for byte */
  gboolean any = FALSE;
  for (int k = 0; k < LM_COLORMIX_BANDS; k++)
    {
      float hue = param_value (p, k, 0), sat = param_value (p, k, 1), light = param_value (p, k, 2);
      px.hue[k] = (float) (hue * G_PI / 180.0);
      px.sat[k] = sat;
      px.light[k] = 0.5f * light;
      any = any || hue != 0.0f || sat != 0.0f || light != 0.0f;
    }
  /* All at 0, the pixel part would change nothing: leave it out of the pass. */
  if (!any)
    return;
  if (is_zero (&p->rgb_to_lms))
    {
      memcpy (px.to_lms, srgb_to_lms, sizeof px.to_lms);
      memcpy (px.from_lms, lms_to_srgb, sizeof px.from_lms);
    }
  else
    {
      double m[3][3], inv[3][3];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          m[i][j] = px.to_lms[i][j] = p->rgb_to_lms.m[i][j];
      if (!invert3 (m, inv)) /* commit's matrices are never singular: sRGB's then */
        {
          memcpy (px.to_lms, srgb_to_lms, sizeof px.to_lms);
          memcpy (px.from_lms, lms_to_srgb, sizeof px.from_lms);
        }
      else
        for (int i = 0; i < 3; i++)
          for (int j = 0; j < 3; j++)
            px.from_lms[i][j] = (float) inv[i][j];
    }
  pass->colormix = px;
  pass->pixel_ops |= LM_OP_BIT (COLORMIX);
}

static gboolean
colormix_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_point_run_one_cpu (&lm_colormix_op, params, src, dst, error);
}

const LmOpInfo lm_colormix_op = {
  .id = LM_OP_COLORMIX,
  .name = "colormix",
  .label = N_("Colour mixer"),
  .blurb = N_("Hue, saturation and lightness of eight colour bands, blended smoothly between them"),
  .params = colormix_params,
  .n_params = G_N_ELEMENTS (colormix_params),
  .params_size = sizeof (LmColormixParams),
  .version = 1,
  .output_format = lm_point_output_format,
  .commit = colormix_commit,
  .point_prepare = colormix_point_prepare,
  .run_cpu = colormix_run_cpu,
};
