/* Camera colour through the file's matrices (camera-color.h says what each answer means). The
 * arithmetic is in double: these are computed once per development, on the host. */
#include <math.h>
#include <string.h>

#include "camera-color.h"
#include "core/ops/wb.h"

typedef double Mat[3][3];

#define TEMPERATURE_LOW 1667.0
#define TEMPERATURE_HIGH 25000.0
#define TINT_SCALE 3000.0
/* Where wb.c's chromaticity leaves the Planckian locus for the daylight locus, in mireds. */
#define LOCI_MIRED 250.0

static const double d50_xyz[3] = { 0.96422, 1.0, 0.82521 }; /* ICC's PCS white */
static const double d65_xy[2] = { 0.3127, 0.3290 };

static void
mat_mul (const Mat a, const Mat b, Mat out)
{
  Mat t;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
  memcpy (out, t, sizeof t);
}

static void
mat_vec (const Mat m, const double v[3], double out[3])
{
  double t[3];
  for (int i = 0; i < 3; i++)
    t[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  memcpy (out, t, sizeof t);
}

static gboolean
mat_inverse (const Mat m, Mat out)
{
  Mat t;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      t[j][i] = m[(i + 1) % 3][(j + 1) % 3] * m[(i + 2) % 3][(j + 2) % 3]
                - m[(i + 1) % 3][(j + 2) % 3] * m[(i + 2) % 3][(j + 1) % 3];
  double det = m[0][0] * t[0][0] + m[0][1] * t[1][0] + m[0][2] * t[2][0];
  if (!(fabs (det) > 1e-12) || !isfinite (det))
    return FALSE;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      out[i][j] = t[i][j] / det;
  return TRUE;
}

static void
xy_to_xyz (double x, double y, double xyz[3])
{
  xyz[0] = x / y, xyz[1] = 1.0, xyz[2] = (1.0 - x - y) / y;
}

/* Linear Rec. 2020 to XYZ, from its primaries and D65 (ITU-R BT.2020). */
static void
rec2020_to_xyz (Mat m)
{
  static const double xy[3][2] = { { 0.708, 0.292 }, { 0.170, 0.797 }, { 0.131, 0.046 } };
  Mat p, inv;
  for (int c = 0; c < 3; c++)
    {
      double v[3];
      xy_to_xyz (xy[c][0], xy[c][1], v);
      for (int r = 0; r < 3; r++)
        p[r][c] = v[r];
    }
  double white[3], s[3];
  xy_to_xyz (d65_xy[0], d65_xy[1], white);
  mat_inverse (p, inv);
  mat_vec (inv, white, s);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++)
      m[r][c] = p[r][c] * s[c];
}

/* Bradford's adaptation from D50 to D65 (Lam, 1985; as ICC and Lindbloom give it). */
static void
bradford_d50_to_d65 (Mat m)
{
  static const Mat bradford = { { 0.8951, 0.2664, -0.1614 }, { -0.7502, 1.7135, 0.0367 }, { 0.0389, -0.0685, 1.0296 } };
  Mat inv, scale = { { 0 } };
  double d65[3], src[3], dst[3];
  xy_to_xyz (d65_xy[0], d65_xy[1], d65);
  mat_vec (bradford, d50_xyz, src);
  mat_vec (bradford, d65, dst);
  for (int c = 0; c < 3; c++)
    scale[c][c] = dst[c] / src[c];
  mat_inverse (bradford, inv);
  mat_mul (inv, scale, m);
  mat_mul (m, bradford, m);
}

/* The colour temperature of an EXIF LightSource, as the DNG SDK reads a calibration
 * illuminant; 0 where unknown. */
static double
illuminant_temperature (guint16 code)
{
  switch (code)
    {
    case 17: return 2856.0; /* standard light A */
    case 3: return 2850.0;  /* tungsten */
    case 24: return 3200.0; /* ISO studio tungsten */
    case 16: return 2940.0; /* warm white fluorescent */
    case 15: return 3450.0; /* white fluorescent */
    case 2: case 14: return 4150.0; /* fluorescent, cool white fluorescent */
    case 18: return 4874.0; /* standard light B */
    case 13: return 5000.0; /* day white fluorescent */
    case 23: return 5003.0; /* D50 */
    case 1: case 4: case 9: return 5500.0; /* daylight, flash, fine weather */
    case 20: return 5503.0; /* D55 */
    case 12: return 6430.0; /* daylight fluorescent */
    case 10: return 6500.0; /* cloudy */
    case 21: return 6504.0; /* D65 */
    case 19: return 6774.0; /* standard light C */
    case 11: return 7500.0; /* shade */
    case 22: return 7504.0; /* D75 */
    default: return 0.0;
    }
}

static gboolean
usable (const float m[3][3])
{
  gboolean any = FALSE;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      {
        if (!isfinite (m[i][j]))
          return FALSE;
        any |= m[i][j] != 0.0f;
      }
  return any;
}

/* PAIR[0..N-1] at T kelvin: interpolated in 1/T between the two illuminants' (DNG 6.2.1),
 * the nearer one outside them or where an illuminant is unknown. */
static gboolean
interpolate (const LmRawInfo *info, const float pair[2][3][3], int n, double t, Mat out)
{
  if (n < 1 || !usable (pair[0]))
    return FALSE;
  double w = 1.0; /* of the first */
  double t1 = illuminant_temperature (info->illuminant[0]), t2 = illuminant_temperature (info->illuminant[1]);
  if (n >= 2 && usable (pair[1]) && t1 > 0.0 && t2 > 0.0 && t1 != t2)
    w = CLAMP ((1.0 / t - 1.0 / t2) / (1.0 / t1 - 1.0 / t2), 0.0, 1.0);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      out[i][j] = w * pair[0][i][j] + (w < 1.0 ? (1.0 - w) * pair[1][i][j] : 0.0);
  return TRUE;
}

/* XYZ to the camera's raw RGB at T: ColorMatrix, then AnalogBalance. FALSE: no matrix. */
static gboolean
xyz_to_camera (const LmRawInfo *info, double t, Mat m)
{
  if (info->matrix_source == LM_RAW_MATRIX_NONE || !interpolate (info, info->xyz_to_cam, info->n_matrices, t, m))
    return FALSE;
  for (int i = 0; i < 3; i++)
    {
      double ab = isfinite (info->analog_balance[i]) && info->analog_balance[i] > 0.0f ? info->analog_balance[i] : 1.0;
      for (int j = 0; j < 3; j++)
        m[i][j] *= ab;
    }
  return TRUE;
}

/* The camera's XYZ → RGB where it has no matrix: its RGB taken as linear Rec. 2020. */
static void
xyz_to_camera_or_working (const LmRawInfo *info, double t, Mat m)
{
  if (!xyz_to_camera (info, t, m))
    {
      rec2020_to_xyz (m);
      mat_inverse (m, m);
    }
}

static void
xy_to_uv (double x, double y, double uv[2])
{
  double d = -2.0 * x + 12.0 * y + 3.0;
  uv[0] = 4.0 * x / d, uv[1] = 6.0 * y / d;
}

static void
locus_uv (double mired, double uv[2])
{
  double x, y;
  lm_wb_illuminant_xy (1e6 / mired, &x, &y);
  xy_to_uv (x, y, uv);
}

/* The locus's unit tangent at MIRED (towards warmer light) and its normal towards green,
 * each side of 4000 K from its own locus. */
static void
locus_frame (double mired, double tangent[2], double normal[2])
{
  double lo = mired - 1.0, hi = mired + 1.0, a[2], b[2];
  if (mired <= LOCI_MIRED && hi > LOCI_MIRED)
    lo = LOCI_MIRED - 2.0, hi = LOCI_MIRED;
  else if (mired > LOCI_MIRED && lo <= LOCI_MIRED)
    lo = LOCI_MIRED + 1e-6, hi = LOCI_MIRED + 2.0;
  locus_uv (lo, a);
  locus_uv (hi, b);
  double du = b[0] - a[0], dv = b[1] - a[1], n = hypot (du, dv);
  tangent[0] = du / n, tangent[1] = dv / n;
  normal[0] = -tangent[1], normal[1] = tangent[0];
  if (normal[1] < 0.0)
    normal[0] = -normal[0], normal[1] = -normal[1];
}

static void
light_xy (double t, double tint, double *x, double *y)
{
  double mired = 1e6 / CLAMP (t, TEMPERATURE_LOW, TEMPERATURE_HIGH), uv[2], tangent[2], normal[2];
  locus_uv (mired, uv);
  locus_frame (mired, tangent, normal);
  uv[0] += tint / TINT_SCALE * normal[0];
  uv[1] += tint / TINT_SCALE * normal[1];
  double d = 2.0 * uv[0] - 8.0 * uv[1] + 4.0;
  *x = 3.0 * uv[0] / d, *y = 2.0 * uv[1] / d;
}

/* The inverse of light_xy: the point of the locus whose normal passes through (X, Y), found
 * by bisection in mireds, and the distance along that normal. */
static void
temperature_of_xy (double x, double y, double *t, double *tint)
{
  double p[2], lo = 1e6 / TEMPERATURE_HIGH, hi = 1e6 / TEMPERATURE_LOW;
  xy_to_uv (x, y, p);
  for (int i = 0; i < 60; i++)
    {
      double mid = 0.5 * (lo + hi), uv[2], tangent[2], normal[2];
      locus_uv (mid, uv);
      locus_frame (mid, tangent, normal);
      if ((p[0] - uv[0]) * tangent[0] + (p[1] - uv[1]) * tangent[1] > 0.0)
        lo = mid;
      else
        hi = mid;
    }
  double mired = 0.5 * (lo + hi), uv[2], tangent[2], normal[2];
  locus_uv (mired, uv);
  locus_frame (mired, tangent, normal);
  *t = 1e6 / mired;
  *tint = TINT_SCALE * ((p[0] - uv[0]) * normal[0] + (p[1] - uv[1]) * normal[1]);
}

static gboolean
xyz_to_xy (const double xyz[3], double *x, double *y)
{
  double s = xyz[0] + xyz[1] + xyz[2];
  if (!(s > 0.0) || !isfinite (s) || !(xyz[1] > 0.0))
    return FALSE;
  *x = xyz[0] / s, *y = xyz[1] / s;
  return TRUE;
}

/* The light whose camera neutral (raw RGB) is NEUTRAL: DNG 6.3's iteration, as the matrix
 * depends on the light's temperature. */
static void
neutral_xy (const LmRawInfo *info, const double neutral[3], double *x, double *y)
{
  *x = d65_xy[0], *y = d65_xy[1];
  double cx = d50_xyz[0] / 2.78943, cy = 1.0 / 2.78943; /* D50's xy: the SDK's first guess */
  for (int i = 0; i < 30; i++)
    {
      double t, tint, xyz[3], nx, ny;
      Mat m;
      temperature_of_xy (cx, cy, &t, &tint);
      xyz_to_camera_or_working (info, t, m);
      if (!mat_inverse (m, m))
        return;
      mat_vec (m, neutral, xyz);
      if (!xyz_to_xy (xyz, &nx, &ny))
        return;
      gboolean done = fabs (nx - cx) < 1e-9 && fabs (ny - cy) < 1e-9;
      cx = nx, cy = ny;
      if (done)
        break;
    }
  *x = cx, *y = cy;
}

static gboolean
positive3 (const float v[4])
{
  for (int c = 0; c < 3; c++)
    if (!(isfinite (v[c]) && v[c] > 0.0f))
      return FALSE;
  return TRUE;
}

/* M scaled to green 1; all 1 where that is not a positive number (a damaged file's matrix). */
static void
from_multipliers (const float m[4], float mul[4])
{
  for (int c = 0; c < 3; c++)
    mul[c] = m[c] / m[1];
  mul[1] = 1.0f;
  mul[3] = isfinite (m[3]) && m[3] > 0.0f ? m[3] / m[1] : 1.0f;
  if (!positive3 (mul) || !(isfinite (mul[3]) && mul[3] > 0.0f))
    mul[0] = mul[1] = mul[2] = mul[3] = 1.0f;
}

/* The multipliers that make the light (X, Y) at T kelvin neutral. */
static void
light_multipliers (const LmRawInfo *info, double t, double x, double y, float mul[4])
{
  Mat m;
  double xyz[3], neutral[3];
  xyz_to_camera_or_working (info, t, m);
  xy_to_xyz (x, y, xyz);
  mat_vec (m, xyz, neutral);
  float inverse[4] = { 1.0f, 1.0f, 1.0f, 0.0f };
  for (int c = 0; c < 3; c++)
    inverse[c] = neutral[c] > 0.0 ? (float) (1.0 / neutral[c]) : 0.0f;
  if (positive3 (inverse))
    from_multipliers (inverse, mul);
  else
    mul[0] = mul[1] = mul[2] = mul[3] = 1.0f;
}

void
lm_raw_wb_multipliers (const LmRawInfo *info, LmRawWbMode mode, double temperature, double tint,
                       const float custom[3], float mul[4])
{
  switch (mode)
    {
    case LM_RAW_WB_CUSTOM:
      if (custom != NULL && positive3 ((const float[4]) { custom[0], custom[1], custom[2], 0.0f }))
        {
          from_multipliers ((const float[4]) { custom[0], custom[1], custom[2], 0.0f }, mul);
          return;
        }
      /* nothing usable: as shot */
      /* fall through */
    case LM_RAW_WB_AS_SHOT:
      if (positive3 (info->as_shot))
        {
          from_multipliers (info->as_shot, mul);
          return;
        }
      /* fall through */
    case LM_RAW_WB_DAYLIGHT:
      if (positive3 (info->daylight))
        {
          from_multipliers (info->daylight, mul);
          return;
        }
      light_multipliers (info, 6504.0, d65_xy[0], d65_xy[1], mul);
      return;
    case LM_RAW_WB_TEMPERATURE:
    default:
      {
        double t = isfinite (temperature) ? CLAMP (temperature, TEMPERATURE_LOW, TEMPERATURE_HIGH) : 6504.0;
        double x, y;
        light_xy (t, isfinite (tint) ? tint : 0.0, &x, &y);
        light_multipliers (info, t, x, y, mul);
      }
    }
}

static void
mul_neutral (const float mul[4], double neutral[3])
{
  for (int c = 0; c < 3; c++)
    neutral[c] = isfinite (mul[c]) && mul[c] > 0.0f ? 1.0 / mul[c] : 1.0;
}

void
lm_raw_wb_temperature_of (const LmRawInfo *info, const float mul[4], double *temperature, double *tint)
{
  double neutral[3], x, y;
  mul_neutral (mul, neutral);
  neutral_xy (info, neutral, &x, &y);
  temperature_of_xy (x, y, temperature, tint);
}

void
lm_raw_wb_from_gray (const LmRawInfo *info, const float camera_rgb[3], float mul[4])
{
  const float *v = camera_rgb;
  if (!positive3 ((const float[4]) { v[0], v[1], v[2], 0.0f }))
    {
      lm_raw_wb_multipliers (info, LM_RAW_WB_AS_SHOT, 0.0, 0.0, NULL, mul);
      return;
    }
  from_multipliers ((const float[4]) { 1.0f / v[0], 1.0f / v[1], 1.0f / v[2], 0.0f }, mul);
}

/* Each row of M scaled to sum 1, so that (1, 1, 1) maps to itself. */
static void
rows_to_one (Mat m)
{
  for (int i = 0; i < 3; i++)
    {
      double s = m[i][0] + m[i][1] + m[i][2];
      if (s != 0.0 && isfinite (s))
        for (int j = 0; j < 3; j++)
          m[i][j] /= s;
    }
}

/* Balanced camera RGB to Rec. 2020 in double; FALSE without a usable matrix. */
static gboolean
camera_to_rec2020 (const LmRawInfo *info, const float mul[4], Mat out)
{
  if (info->matrix_source == LM_RAW_MATRIX_NONE)
    return FALSE;
  double neutral[3], x, y, t, tint;
  mul_neutral (mul, neutral);
  neutral_xy (info, neutral, &x, &y);
  temperature_of_xy (x, y, &t, &tint);
  Mat xyz_rec, m;
  rec2020_to_xyz (xyz_rec);
  if (info->has_forward && interpolate (info, info->forward, MAX (info->n_matrices, 1), t, m))
    {
      /* ForwardMatrix: balanced camera RGB to XYZ D50 (DNG 6.3.2); then D65, then RGB. */
      Mat adapt, to_rec;
      bradford_d50_to_d65 (adapt);
      mat_inverse (xyz_rec, to_rec);
      mat_mul (adapt, m, m);
      mat_mul (to_rec, m, out);
      rows_to_one (out);
      return TRUE;
    }
  /* ColorMatrix: Rec. 2020 to camera, its rows scaled so that D65 white gives camera
   * (1, 1, 1) (the balance is then von Kries's adaptation in the camera's space, as dcraw's
   * rgb_cam), inverted. */
  if (!xyz_to_camera (info, t, m))
    return FALSE;
  mat_mul (m, xyz_rec, m);
  rows_to_one (m);
  return mat_inverse (m, out);
}

static void
to_float (const Mat m, float out[3][3])
{
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      out[i][j] = (float) m[i][j];
}

void
lm_raw_camera_to_rec2020 (const LmRawInfo *info, const float mul[4], float m[3][3])
{
  Mat d = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } };
  camera_to_rec2020 (info, mul, d);
  to_float (d, m);
}

void
lm_raw_camera_to_xyz (const LmRawInfo *info, const float mul[4], float m[3][3])
{
  Mat d = { { 1, 0, 0 }, { 0, 1, 0 }, { 0, 0, 1 } }, xyz_rec;
  camera_to_rec2020 (info, mul, d);
  rec2020_to_xyz (xyz_rec);
  mat_mul (xyz_rec, d, d);
  to_float (d, m);
}
