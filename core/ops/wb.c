/* White balance: its parameters, the gains of a temperature and tint (the illuminant's
 * chromaticity to linear sRGB), the picker's inverse, and its place in the fused point pass
 * (wb-math.h says what it computes). */
#include <math.h>
#include <glib/gi18n.h>

#include "ops.h"
#include "point.h"
#include "wb.h"

#define LM_PARAM_STRUCT LmWbParams
static const LmParamSpec wb_params[] = { LM_WB_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

/* The chromaticity of light at T kelvin: the CIE daylight locus from 4000 K (as D65 is on
 * it: 6500 K is the reference), the Planckian locus below, where daylight is not defined
 * (Kim et al.'s cubic fit, within 10⁻³ of Planck's law from 1667 K). The two loci meet at
 * 4000 K with a small step in y, as darktable's do. */
void
lm_wb_illuminant_xy (double t, double *x, double *y)
{
  double t2 = t * t, t3 = t2 * t;
  if (t >= 4000.0)
    {
      *x = t <= 7000.0 ? -4.6070e9 / t3 + 2.9678e6 / t2 + 0.09911e3 / t + 0.244063
                       : -2.0064e9 / t3 + 1.9018e6 / t2 + 0.24748e3 / t + 0.237040;
      *y = -3.000 * *x * *x + 2.870 * *x - 0.275;
      return;
    }
  double xc = -0.2661239e9 / t3 - 0.2343589e6 / t2 + 0.8776956e3 / t + 0.179910;
  double x2 = xc * xc, x3 = x2 * xc;
  *x = xc;
  *y = t <= 2222.0 ? -1.1063814 * x3 - 1.34811020 * x2 + 2.18555832 * xc - 0.20219683
                   : -0.9549476 * x3 - 1.37418593 * x2 + 2.09137015 * xc - 0.16748867;
}

static gboolean
is_srgb (const LmOpColor *color)
{
  return color == NULL || color->space == NULL;
}

/* That light's white (Y = 1) in the photo's linear RGB: xy → XYZ → sRGB's D65 matrix (IEC
 * 61966-2-1), or the profile's own (under its own white: core/color/profile.h). */
static void
illuminant_rgb (const LmOpColor *color, double t, double rgb[3])
{
  double x, y;
  lm_wb_illuminant_xy (t, &x, &y);
  double X = x / y, Y = 1.0, Z = (1.0 - x - y) / y;
  if (is_srgb (color))
    {
      rgb[0] = 3.2404542 * X - 1.5371385 * Y - 0.4985314 * Z;
      rgb[1] = -0.9692660 * X + 1.8760108 * Y + 0.0415560 * Z;
      rgb[2] = 0.0556434 * X - 0.2040259 * Y + 1.0572252 * Z;
      return;
    }
  const double (*m)[3] = color->xyz_to_rgb;
  for (int c = 0; c < 3; c++)
    rgb[c] = m[c][0] * X + m[c][1] * Y + m[c][2] * Z;
}

/* The gains before their normalisation: each channel of the reference white over that of
 * the light at T (its white becomes the reference's), green lowered by the tint. */
static void
raw_gains (const LmOpColor *color, double t, double tint, double g[3])
{
  double ref[3], lit[3];
  illuminant_rgb (color, LM_WB_TEMPERATURE_NEUTRAL, ref);
  illuminant_rgb (color, t, lit);
  for (int c = 0; c < 3; c++)
    g[c] = ref[c] / lit[c];
  g[1] *= exp2 (-tint / 100.0);
}

void
lm_wb_gains (const LmWbParams *p, LmWbGains *gains)
{
  double g[3], luminance;
  raw_gains (&p->color, p->temperature, p->tint, g);
  if (is_srgb (&p->color))
    luminance = 0.2126 * g[0] + 0.7152 * g[1] + 0.0722 * g[2];
  else
    {
      const double *w = p->color.luminance;
      luminance = w[0] * g[0] + w[1] * g[1] + w[2] * g[2];
    }
  for (int c = 0; c < 3; c++)
    gains->gain[c] = (float) (g[c] / luminance);
}

static double
decode (const LmOpColor *color, int c, double v)
{
  if (is_srgb (color))
    return v <= 0.04045 ? v / 12.92 : pow ((v + 0.055) / 1.055, 2.4);
  return color->to_linear (color->space, c, v);
}

/* The patch is neutral when every gain times its channel is the same. Red over blue decides
 * the temperature alone (the tint moves green only), and grows with it: the warmer the
 * light, the more blue must be lifted. So the temperature is found by bisection on that
 * ratio, in mireds (10⁶/T, where equal steps look alike), then the tint that brings green to
 * the geometric mean of the balanced red and blue. */
int
lm_wb_from_gray (float r, float g, float b, float *temperature, float *tint)
{
  return lm_wb_from_gray_in (NULL, r, g, b, temperature, tint);
}

int
lm_wb_from_gray_in (const LmOpColor *color, float r, float g, float b, float *temperature,
                    float *tint)
{
  *temperature = LM_WB_TEMPERATURE_NEUTRAL, *tint = 0.0f;
  double l[3] = { decode (color, 0, r / 255.0), decode (color, 1, g / 255.0), decode (color, 2, b / 255.0) };
  for (int c = 0; c < 3; c++)
    if (!(l[c] > 0.0) || !isfinite (l[c]))
      return 0;

  double hot = 1e6 / LM_WB_TEMPERATURE_MAX, cold = 1e6 / LM_WB_TEMPERATURE_MIN, gains[3];
  for (int i = 0; i < 64; i++)
    {
      double mid = 0.5 * (hot + cold);
      raw_gains (color, 1e6 / mid, 0.0, gains);
      /* Red still above blue after balancing: the light was warmer than 10⁶/mid K. */
      if (gains[0] * l[0] > gains[2] * l[2])
        hot = mid;
      else
        cold = mid;
    }
  double t = CLAMP (1e6 / (0.5 * (hot + cold)), LM_WB_TEMPERATURE_MIN, LM_WB_TEMPERATURE_MAX);
  raw_gains (color, t, 0.0, gains);
  double target = sqrt (gains[0] * l[0] * gains[2] * l[2]);
  double tn = -100.0 * log2 (target / (gains[1] * l[1]));
  *temperature = (float) t;
  *tint = (float) CLAMP (tn, -LM_WB_TINT_MAX, LM_WB_TINT_MAX);
  return 1;
}

typedef struct {
  LmWbGains gains;
  const LmOpColor *color; /* not sRGB */
} ProfileGains;

static float
wb_channel (const void *gains, int c, float v)
{
  return lm_wb_channel (gains, c, v);
}

/* The gains in linear light of a profile that is not sRGB: its curve instead of sRGB's. */
static float
wb_channel_profile (const void *data, int c, float v)
{
  const ProfileGains *pg = data;
  const LmOpColor *color = pg->color;
  double l = color->to_linear (color->space, c, v / 255.0) * pg->gains.gain[c];
  return (float) (255.0 * color->from_linear (color->space, c, l));
}

/* The photo's colour space is all that a render adds: the gains are computed in its RGB and
 * applied through its curve. */
static void
wb_commit (void *params, const LmOpContext *context)
{
  ((LmWbParams *) params)->color = context->color;
}

static void
wb_point_prepare (const void *params, LmPointPass *pass)
{
  const LmWbParams *p = params;
  ProfileGains pg = { .color = &p->color };
  lm_wb_gains (p, &pg.gains);
  if (is_srgb (&p->color))
    lm_point_pass_map (pass, wb_channel, &pg.gains);
  else
    lm_point_pass_map (pass, wb_channel_profile, &pg);
}

/* On scene light the gains apply as they are: the light is linear already. */
static void
wb_scene_gain (const void *params, float gain[3])
{
  LmWbGains gains;
  lm_wb_gains (params, &gains);
  for (int c = 0; c < 3; c++)
    gain[c] = gains.gain[c];
}

static gboolean
wb_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  return lm_point_run_one_cpu (&lm_wb_op, params, src, dst, error);
}

const LmOpInfo lm_wb_op = {
  .id = LM_OP_WB,
  .name = "wb",
  .label = N_("White balance"),
  .blurb = N_("The colour temperature (K) and tint of the light the photo was taken under, made neutral"),
  .params = wb_params,
  .n_params = G_N_ELEMENTS (wb_params),
  .params_size = sizeof (LmWbParams),
  .version = 1,
  .flag_params = "temperature,tint",
  .flag_sep = ',',
  .output_format = lm_point_output_format,
  .commit = wb_commit,
  .point_prepare = wb_point_prepare,
  .on_scene = TRUE,
  .scene_gain = wb_scene_gain,
  .run_cpu = wb_run_cpu,
};
