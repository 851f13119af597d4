/* The point operations' definitions (docs/numerics.md, "What the edits compute") written out again in
 * double precision, from the formulas and the published constants, without core/ops: the
 * unit tests' known answers (test-wb, test-contrast, test-curve, test-saturation,
 * test-point-pass). Values are encoded 0..255 and, as in the pass, not clipped between
 * operations; oracle_u8 is the one rounding at the end. */
#pragma once

#include <math.h>

/* Clamp to 0..255, round half up: what the pass's last step does. */
static inline double
oracle_u8 (double v)
{
  return floor ((v < 0.0 ? 0.0 : v > 255.0 ? 255.0 : v) + 0.5);
}

/* The sRGB transfer function (IEC 61966-2-1), odd about 0. */
static inline double
oracle_decode (double v)
{
  double a = fabs (v), l = a <= 0.04045 ? a / 12.92 : pow ((a + 0.055) / 1.055, 2.4);
  return v < 0.0 ? -l : l;
}

static inline double
oracle_encode (double l)
{
  double a = fabs (l), v = a <= 0.0031308 ? a * 12.92 : 1.055 * pow (a, 1.0 / 2.4) - 0.055;
  return l < 0.0 ? -v : v;
}

/* ---- white balance ---- */

/* CIE daylight locus (CIE 15, T 4000..25000 K) above 4000 K, the Planckian locus (Kim et
 * al. 2002, US patent 7,024,034) below. */
static inline void
oracle_xy (double t, double *x, double *y)
{
  if (t >= 4000.0)
    {
      double a = 1e3 / t; /* the daylight formula is a cubic in 10³/T */
      *x = t <= 7000.0 ? 0.244063 + 0.09911 * a + 2.9678 * a * a - 4.6070 * a * a * a
                       : 0.237040 + 0.24748 * a + 1.9018 * a * a - 2.0064 * a * a * a;
      *y = -3.0 * *x * *x + 2.87 * *x - 0.275;
      return;
    }
  double a = 1e3 / t;
  double x0 = -0.2661239 * a * a * a - 0.2343589 * a * a + 0.8776956 * a + 0.179910;
  *x = x0;
  *y = t <= 2222.0 ? ((-1.1063814 * x0 - 1.34811020) * x0 + 2.18555832) * x0 - 0.20219683
                   : ((-0.9549476 * x0 - 1.37418593) * x0 + 2.09137015) * x0 - 0.16748867;
}

/* XYZ → linear sRGB, derived here from sRGB's primaries and D65 white (not a copied matrix):
 * columns are the primaries' XYZ scaled so that R = G = B = 1 is the white. */
static inline void
oracle_xyz_to_rgb (const double xyz[3], double rgb[3])
{
  const double px[3] = { 0.64, 0.30, 0.15 }, py[3] = { 0.33, 0.60, 0.06 };
  const double wx = 0.3127, wy = 0.3290;
  double m[3][3], w[3] = { wx / wy, 1.0, (1.0 - wx - wy) / wy };
  for (int c = 0; c < 3; c++)
    m[0][c] = px[c] / py[c], m[1][c] = 1.0, m[2][c] = (1.0 - px[c] - py[c]) / py[c];
  /* Solve m · s = w (Cramer), scale the columns, then solve (m · diag s) · rgb = xyz. */
  double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
               + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
  double s[3];
  for (int k = 0; k < 2; k++)
    {
      const double *rhs = k == 0 ? w : xyz;
      double *out = k == 0 ? s : rgb;
      for (int c = 0; c < 3; c++)
        {
          double a[3][3];
          for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)
              a[i][j] = j == c ? rhs[i] : m[i][j] * (k == 1 ? s[j] : 1.0);
          double d = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                     + a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
          out[c] = d / (k == 0 ? det : det * s[0] * s[1] * s[2]);
        }
    }
}

/* The light at T's white (Y = 1) in linear sRGB. */
static inline void
oracle_white (double t, double rgb[3])
{
  double x, y;
  oracle_xy (t, &x, &y);
  double xyz[3] = { x / y, 1.0, (1.0 - x - y) / y };
  oracle_xyz_to_rgb (xyz, rgb);
}

/* The gains: 6500 K's white over T's, green times 2^(-tint/100), BT.709 luminance 1. */
static inline void
oracle_wb_gains (double t, double tint, double g[3])
{
  double ref[3], lit[3];
  oracle_white (6500.0, ref);
  oracle_white (t, lit);
  for (int c = 0; c < 3; c++)
    g[c] = ref[c] / lit[c];
  g[1] *= pow (2.0, -tint / 100.0);
  double l = 0.2126 * g[0] + 0.7152 * g[1] + 0.0722 * g[2];
  for (int c = 0; c < 3; c++)
    g[c] /= l;
}

static inline double
oracle_gain (double v, double gain)
{
  return 255.0 * oracle_encode (oracle_decode (v / 255.0) * gain);
}

/* ---- contrast ---- */

static inline double
oracle_contrast (double v, double contrast, double black, double white)
{
  if (white <= black)
    white = black + 1.0;
  return ((v - black) * 255.0 / (white - black) - 127.5) * (1.0 + contrast) + 127.5;
}

/* ---- curve ---- */

/* Fritsch–Carlson's monotone cubic through N points, flat beyond the ends, evaluated in
 * the Hermite basis (the code uses a power form: two routes to one curve). */
static inline double
oracle_curve (const double *x, const double *y, int n, double v)
{
  if (v <= x[0])
    return y[0];
  if (v >= x[n - 1])
    return y[n - 1];
  double d[16] = { 0 }, m[16] = { 0 };
  for (int k = 0; k + 1 < n; k++)
    d[k] = (y[k + 1] - y[k]) / (x[k + 1] - x[k]);
  m[0] = d[0], m[n - 1] = d[n - 2];
  for (int k = 1; k + 1 < n; k++)
    m[k] = (d[k - 1] > 0.0 && d[k] > 0.0) || (d[k - 1] < 0.0 && d[k] < 0.0) ? (d[k - 1] + d[k]) / 2.0 : 0.0;
  for (int k = 0; k + 1 < n; k++)
    if (d[k] == 0.0)
      m[k] = m[k + 1] = 0.0;
    else if (hypot (m[k] / d[k], m[k + 1] / d[k]) > 3.0)
      {
        double tau = 3.0 / hypot (m[k] / d[k], m[k + 1] / d[k]);
        m[k] *= tau, m[k + 1] *= tau;
      }
  int k = 0;
  while (v >= x[k + 1])
    k++;
  double h = x[k + 1] - x[k], t = (v - x[k]) / h, t2 = t * t, t3 = t2 * t;
  return (2 * t3 - 3 * t2 + 1) * y[k] + (t3 - 2 * t2 + t) * h * m[k] + (-2 * t3 + 3 * t2) * y[k + 1]
         + (t3 - t2) * h * m[k + 1];
}

static inline double
oracle_luma (const double c[3])
{
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/* Luma mode's pixel part: C scaled by curve(Y)/Y, or shifted where Y ≤ 0. */
static inline void
oracle_curve_luma (const double *x, const double *y, int n, double c[3])
{
  double l = oracle_luma (c), mapped = oracle_curve (x, y, n, l);
  for (int i = 0; i < 3; i++)
    c[i] = l > 0.0 ? c[i] * mapped / l : c[i] + mapped - l;
}

/* ---- saturation ---- */

/* Vibrance V (amount V·(1 - S), S the pixel's (max - min)/max in 0..1), then saturation S
 * (amount SAT), each about the pixel's BT.709 luma, recomputed between the two. */
static inline void
oracle_saturation (double sat, double vib, double c[3])
{
  double hi = fmax (c[0], fmax (c[1], c[2])), lo = fmin (c[0], fmin (c[1], c[2]));
  double s = hi > 0.0 ? fmin (fmax ((hi - lo) / hi, 0.0), 1.0) : 0.0;
  double amounts[2] = { vib * (1.0 - s), sat };
  for (int step = 0; step < 2; step++)
    {
      double l = oracle_luma (c);
      for (int i = 0; i < 3; i++)
        c[i] = l + (c[i] - l) * (1.0 + amounts[step]);
    }
}
