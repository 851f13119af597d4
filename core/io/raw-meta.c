/* LmRawInfo from LibRaw's fields (0.20 names; raw-compat.h has those 0.21 renamed). LibRaw
 * keeps the black level as three terms (one for all sites, one per colour, a block repeating
 * over the sensor) and the DNG colour matrices apart from its own table: both are folded here
 * into what the development reads, one black table and the matrices with their illuminants. */
#include "raw-meta.h"

#include "../ops/demosaic-fast-math.h"
#include "../ops/demosaic-xtrans-math.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"

/* LibRaw's CFA colour of visible site (Y, X): 0 R, 1 G, 2 B, 3 a Bayer array's second green;
 * 6 where there is no filter. */
static int
site_colour (libraw_data_t *lr, guint y, guint x)
{
  return libraw_COLOR (lr, (int) y, (int) x);
}

static gboolean
fill_cfa (LmRawInfo *info, libraw_data_t *lr, const char *path, GError **error)
{
  guint period = info->layout == LM_RAW_BAYER ? 2 : info->layout == LM_RAW_XTRANS ? 6 : 1;
  info->cfa_w = info->cfa_h = period;
  if (period == 1)
    {
      /* LinearRaw: every site holds all the colours (cfa unused); a monochrome sensor's one
       * channel takes green's levels and balance, as the development reads it. */
      info->cfa[0][0] = info->layout == LM_RAW_MONO ? 1 : 0;
      return TRUE;
    }
  /* dcraw's Bayer code describes 8 rows; a pattern that is not 2 × 2 over them (some early
   * backs) would be read wrong by a 2 × 2 demosaic. */
  guint rows = info->layout == LM_RAW_BAYER ? 8 : 6;
  for (guint y = 0; y < rows; y++)
    for (guint x = 0; x < period; x++)
      {
        int c = site_colour (lr, y, x);
        if (c < 0 || c > 3 || (info->layout == LM_RAW_XTRANS && c > 2))
          {
            lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                               _("this camera's colour filter array is not supported"));
            return FALSE;
          }
        if (y < period)
          info->cfa[y][x] = (guint8) c;
        else if (info->cfa[y % period][x] != c)
          {
            lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                               _("this camera's colour filter array is not supported (it does not repeat "
                                 "every 2 × 2 sites)"));
            return FALSE;
          }
      }
  /* Colours that repeat but are no Bayer or X-Trans arrangement (R G / R B): no demosaic
   * reads them. */
  LmCfa cfa = { info->cfa_w, info->cfa_h };
  memcpy (cfa.color, info->cfa, sizeof cfa.color);
  LmXtrans xt;
  if (info->layout == LM_RAW_BAYER ? !lm_cfa_is_bayer (&cfa) : !lm_xtrans_prepare (&cfa, &xt))
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                         _("this camera's colour filter array is not supported (its colours are not arranged "
                           "as a Bayer or X-Trans array)"));
      return FALSE;
    }
  return TRUE;
}

static guint
gcd (guint a, guint b)
{
  while (b)
    {
      guint t = a % b;
      a = b;
      b = t;
    }
  return a;
}

static guint
lcm (guint a, guint b)
{
  return a / gcd (a, b) * b;
}

/* The smallest period, a divisor of N, with which the LH × LW table T (row pitch LW) repeats
 * along X (ALONG_X) or Y. */
static guint
smallest_period (const double *t, guint lh, guint lw, gboolean along_x)
{
  guint n = along_x ? lw : lh;
  for (guint p = 1; p < n; p++)
    {
      if (n % p)
        continue;
      gboolean repeats = TRUE;
      for (guint y = 0; y < lh && repeats; y++)
        for (guint x = 0; x < lw && repeats; x++)
          repeats = t[y * lw + x] == (along_x ? t[y * lw + x % p] : t[(y % p) * lw + x]);
      if (repeats)
        return p;
    }
  return n;
}

/* The black level of every site: LibRaw's black + cblack[colour] + the block cblack[6 + …]
 * of cblack[4] rows × cblack[5] columns (visible coordinates, as LibRaw's own subtraction
 * takes them), over one common period, then shortened to the period it really has. */
static gboolean
fill_black (LmRawInfo *info, libraw_data_t *lr, const char *path, GError **error)
{
  const unsigned *cb = lr->color.cblack;
  guint bh = cb[4], bw = cb[5];
  if (bh == 0 || bw == 0)
    bh = bw = 1; /* no block: one term of 0 */
  gboolean block = cb[4] && cb[5];
  if (bh > 64 || bw > 64 || (gsize) bh * bw > LIBRAW_CBLACK_SIZE - 6)
    {
      lm_set_file_error (error, LM_ERROR_FORMAT, path, _("is damaged (its black level pattern is %u × %u sites)"),
                         bh, bw);
      return FALSE;
    }
  gboolean per_colour = info->layout != LM_RAW_MONO
                        && (cb[0] != cb[1] || cb[1] != cb[2] || (info->layout == LM_RAW_BAYER && cb[2] != cb[3]));
  if (per_colour && info->layout == LM_RAW_LINEAR)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                         _("black levels per colour plane of linear raw data are not supported"));
      return FALSE;
    }
  guint ch = per_colour ? info->cfa_h : 1, cw = per_colour ? info->cfa_w : 1;
  guint lh = lcm (ch, bh), lw = lcm (cw, bw);
  g_autofree double *t = g_new (double, (gsize) lh * lw);
  for (guint y = 0; y < lh; y++)
    for (guint x = 0; x < lw; x++)
      {
        /* Uniform terms, and a monochrome sensor's one channel, are LibRaw's colour 0. */
        int c = per_colour ? info->cfa[y % ch][x % cw] : 0;
        t[y * lw + x] = (double) lr->color.black + cb[c] + (block ? cb[6 + (y % bh) * bw + x % bw] : 0);
      }
  guint ph = smallest_period (t, lh, lw, FALSE), pw = smallest_period (t, lh, lw, TRUE);
  if (ph > LM_RAW_BLACK_MAX || pw > LM_RAW_BLACK_MAX)
    {
      lm_set_file_error (error, LM_ERROR_UNSUPPORTED, path,
                         _("its black level repeats every %u × %u sites, more than the %d × %d Lumen takes"), ph,
                         pw, LM_RAW_BLACK_MAX, LM_RAW_BLACK_MAX);
      return FALSE;
    }
  info->black_h = (guint8) ph;
  info->black_w = (guint8) pw;
  for (guint y = 0; y < ph; y++)
    for (guint x = 0; x < pw; x++)
      info->black[y][x] = (float) t[y * lw + x];
  return TRUE;
}

/* White per colour index: LibRaw's maximum, or a LinearRaw DNG's WhiteLevel per plane where
 * LibRaw took the first unchanged (no linearisation table moved it). */
static gboolean
fill_white (LmRawInfo *info, libraw_data_t *lr, const char *path, GError **error)
{
  const unsigned *dng = lr->color.dng_levels.dng_whitelevel;
  for (int c = 0; c < 4; c++)
    info->white[c] = (float) lr->color.maximum;
  if (info->layout == LM_RAW_LINEAR && lr->idata.dng_version && dng[0] == lr->color.maximum)
    for (int c = 1; c < 3; c++)
      if (dng[c])
        info->white[c] = (float) dng[c];
  /* Every site's white above its black, or the levels divide by zero or less. */
  guint h = lcm (info->black_h, info->cfa_h), w = lcm (info->black_w, info->cfa_w);
  guint planes = info->layout == LM_RAW_LINEAR ? 3 : 1;
  for (guint y = 0; y < h; y++)
    for (guint x = 0; x < w; x++)
      for (guint p = 0; p < planes; p++)
        {
          int c = planes == 3 ? (int) p : info->cfa[y % info->cfa_h][x % info->cfa_w];
          if (!(info->white[c] > info->black[y % info->black_h][x % info->black_w]))
            {
              lm_set_file_error (error, LM_ERROR_FORMAT, path,
                                 _("is damaged (its white level %g is not above its black level %g)"),
                                 info->white[c], info->black[y % info->black_h][x % info->black_w]);
              return FALSE;
            }
        }
  return TRUE;
}

/* IN (LibRaw's cam_mul or pre_mul: R, G, B, G2 with 0 meaning G) divided by green, or all
 * zero where IN gives no usable balance. */
static void
normalised_balance (const float in[4], float out[4])
{
  memset (out, 0, 4 * sizeof *out);
  float g = in[1];
  if (!(in[0] > 0.0f && g > 0.0f && in[2] > 0.0f) || !isfinite (in[0] / g) || !isfinite (in[2] / g))
    return;
  float g2 = in[3] > 0.0f && isfinite (in[3] / g) ? in[3] / g : 1.0f;
  out[0] = in[0] / g;
  out[1] = 1.0f;
  out[2] = in[2] / g;
  out[3] = g2;
}

static gboolean
matrix_usable (const float *m, guint rows, guint cols, guint pitch)
{
  gboolean nonzero = FALSE;
  for (guint r = 0; r < rows; r++)
    for (guint c = 0; c < cols; c++)
      {
        float v = m[r * pitch + c];
        if (!isfinite (v) || fabsf (v) > 1e6f)
          return FALSE;
        nonzero |= v != 0.0f;
      }
  return nonzero;
}

/* The DNG's ColorMatrix1/2 with their illuminants and ForwardMatrix1/2 (LibRaw 0.20 leaves
 * its own cam_xyz empty for DNGs), else LibRaw's table for the model, which is for D65. */
static void
fill_matrices (LmRawInfo *info, libraw_data_t *lr)
{
  guint forwards = 0;
  for (int i = 0; lr->idata.dng_version && i < 2; i++)
    {
      const libraw_dng_color_t *dc = &lr->color.dng_color[i];
      if (!matrix_usable (&dc->colormatrix[0][0], 3, 3, 3))
        continue;
      int k = info->n_matrices++;
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          info->xyz_to_cam[k][r][c] = dc->colormatrix[r][c];
      info->illuminant[k] = dc->illuminant == 0xffff ? 0 : dc->illuminant;
      if (matrix_usable (&dc->forwardmatrix[0][0], 3, 3, 4))
        {
          forwards++;
          for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
              info->forward[k][r][c] = dc->forwardmatrix[r][c];
        }
    }
  if (info->n_matrices)
    {
      info->matrix_source = LM_RAW_MATRIX_DNG;
      info->has_forward = forwards == (guint) info->n_matrices;
      if (!info->has_forward)
        memset (info->forward, 0, sizeof info->forward);
      return;
    }
  if (matrix_usable (&lr->color.cam_xyz[0][0], 3, 3, 3))
    {
      info->matrix_source = LM_RAW_MATRIX_TABLE;
      info->n_matrices = 1;
      info->illuminant[0] = 21; /* D65: Adobe's coefficients, as LibRaw's table has them */
      for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
          info->xyz_to_cam[0][r][c] = lr->color.cam_xyz[r][c];
    }
}

static void
fill_dng_levels (LmRawInfo *info, libraw_data_t *lr)
{
  const libraw_dng_levels_t *l = &lr->color.dng_levels;
  if (!lr->idata.dng_version)
    return;
  gboolean balance = TRUE;
  for (int c = 0; c < 3; c++)
    balance &= l->analogbalance[c] > 0.0f && isfinite (l->analogbalance[c]);
  for (int c = 0; balance && c < 3; c++)
    info->analog_balance[c] = l->analogbalance[c];
  /* LibRaw's -999: none stated. */
  if (isfinite (l->baseline_exposure) && fabsf (l->baseline_exposure) < 100.0f)
    info->baseline_exposure = l->baseline_exposure;
}

/* EXIF's orientation of dcraw's flip code (bit 0 mirrors columns, bit 1 rows, bit 2 swaps). */
static int
orientation_of_flip (int flip)
{
  static const int exif[8] = { 1, 2, 4, 3, 5, 8, 6, 7 };
  return flip >= 0 && flip < 8 ? exif[flip] : 1;
}

/* The maker's crop in loaded (visible) coordinates, from one in sensor coordinates: a DNG's
 * DefaultCrop (DNG_CROP, read from the file: LibRaw 0.20 keeps it to itself), else LibRaw's
 * inset crop. */
static void
fill_crop (LmRawInfo *info, libraw_data_t *lr, const guint *dng_crop)
{
  const libraw_image_sizes_t *s = &lr->sizes;
  const libraw_raw_inset_crop_t *ic = &LM_RAW_INSET_CROP (lr);
  guint64 x, y, w, h;
  if (dng_crop && dng_crop[0] >= s->left_margin && dng_crop[1] >= s->top_margin)
    {
      x = dng_crop[0] - s->left_margin;
      y = dng_crop[1] - s->top_margin;
      w = dng_crop[2];
      h = dng_crop[3];
    }
  else if (ic->cwidth && ic->cheight && ic->cwidth != 0xffff && ic->cheight != 0xffff && ic->cleft != 0xffff
           && ic->ctop != 0xffff && ic->cleft >= s->left_margin && ic->ctop >= s->top_margin)
    {
      x = ic->cleft - s->left_margin;
      y = ic->ctop - s->top_margin;
      w = ic->cwidth;
      h = ic->cheight;
    }
  else
    return;
  if (x + w > s->width || y + h > s->height || (x == 0 && y == 0 && w == s->width && h == s->height))
    return;
  info->crop_x = (guint) x;
  info->crop_y = (guint) y;
  info->crop_w = (guint) w;
  info->crop_h = (guint) h;
}

/* A LibRaw string field of SIZE bytes, trimmed, as valid UTF-8; NULL when empty. */
static char *
text_of (const char *field, gsize size)
{
  g_autofree char *t = g_strstrip (g_strndup (field, size));
  if (*t == '\0')
    return NULL;
  return g_utf8_make_valid (t, -1);
}

static float
positive (float v)
{
  return isfinite (v) && v > 0.0f ? v : 0.0f;
}

static void
fill_shooting (LmRawInfo *info, libraw_data_t *lr)
{
  info->orientation = orientation_of_flip (lr->sizes.flip);
  info->make = text_of (lr->idata.make, sizeof lr->idata.make);
  info->model = text_of (lr->idata.model, sizeof lr->idata.model);
  info->lens = text_of (lr->lens.Lens, sizeof lr->lens.Lens);
  if (info->lens == NULL)
    info->lens = text_of (lr->lens.makernotes.Lens, sizeof lr->lens.makernotes.Lens);
  info->iso = positive (lr->other.iso_speed);
  info->exposure_s = positive (lr->other.shutter);
  info->f_number = positive (lr->other.aperture);
  info->focal_mm = positive (lr->other.focal_len);
  info->timestamp = lr->other.timestamp > 0 ? (gint64) lr->other.timestamp : 0;
  const char *decoder = libraw_unpack_function_name (lr);
  info->decoder = decoder ? g_strdup (decoder) : NULL;
}

LmRawInfo *
lm_raw_info_from_libraw (libraw_data_t *lr, LmRawLayout layout, const guint *dng_crop, const char *path,
                         GError **error)
{
  g_autoptr (LmRawInfo) info = lm_raw_info_new ();
  info->layout = layout;
  if (!fill_cfa (info, lr, path, error) || !fill_black (info, lr, path, error) || !fill_white (info, lr, path, error))
    return NULL;
  if (layout != LM_RAW_MONO)
    {
      normalised_balance (lr->color.cam_mul, info->as_shot);
      normalised_balance (lr->color.pre_mul, info->daylight);
    }
  fill_matrices (info, lr);
  fill_dng_levels (info, lr);
  fill_crop (info, lr, dng_crop);
  fill_shooting (info, lr);
  return g_steal_pointer (&info);
}
