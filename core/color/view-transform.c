/* The view transform, filled by lcms2 (view-transform.h). */
#include "view-transform.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <lcms2.h>

#include "../error.h"

#define VIEW_INTENT INTENT_RELATIVE_COLORIMETRIC
#define VIEW_FLAGS (cmsFLAGS_BLACKPOINTCOMPENSATION | cmsFLAGS_NOCACHE | cmsFLAGS_NOOPTIMIZE)

struct _LmViewTransform {
  gint ref_count;
  guint64 id;
  LmLut3d lut;
  gboolean identity;
  double error;
  int32_t *table;
  char *note;
  char *source_name, *monitor_name;
};

/* lcms2 reports why it rejects a profile through a context's handler: the first message is
 * the cause we name. A context per use keeps threads apart. */
typedef struct {
  char *message;
} LcmsLog;

static void
lcms_log (cmsContext ctx, cmsUInt32Number code, const char *text)
{
  LcmsLog *log = cmsGetContextUserData (ctx);
  if (log->message == NULL)
    log->message = g_strdup (text);
}

static cmsContext
lcms_context (LcmsLog *log)
{
  cmsContext ctx = cmsCreateContext (NULL, log);
  cmsSetLogErrorHandlerTHR (ctx, lcms_log);
  return ctx;
}

static char *
profile_name (cmsHPROFILE p)
{
  char buf[256] = "";
  if (cmsGetProfileInfoASCII (p, cmsInfoDescription, "en", "US", buf, sizeof buf) == 0 || buf[0] == '\0')
    return g_strdup ("?");
  return g_strdup (buf);
}

/* lcms2's sRGB as a file holds it: its colorants and curve rounded to the ICC's fixed point,
 * as every sRGB.icc, and as the linear copy (linear_copy) of it is, so that the two agree. */
static cmsHPROFILE
srgb_profile (cmsContext ctx)
{
  cmsHPROFILE p = cmsCreate_sRGBProfileTHR (ctx);
  cmsUInt32Number size = 0;
  if (p == NULL || !cmsSaveProfileToMem (p, NULL, &size))
    return p;
  g_autofree void *mem = g_malloc (size);
  cmsHPROFILE saved = cmsSaveProfileToMem (p, mem, &size) ? cmsOpenProfileFromMemTHR (ctx, mem, size) : NULL;
  if (saved == NULL)
    return p;
  cmsCloseProfile (p);
  return saved;
}

/* ICC as a profile that can be used: RGB, and usable in DIRECTION with the view's intent.
 * NULL and the cause otherwise (ICC NULL: sRGB). */
static cmsHPROFILE
open_profile (cmsContext ctx, LcmsLog *log, GBytes *icc, int direction, char **cause)
{
  if (icc == NULL)
    return srgb_profile (ctx);
  gsize size = 0;
  const void *data = g_bytes_get_data (icc, &size);
  cmsHPROFILE p = size > 0 ? cmsOpenProfileFromMemTHR (ctx, data, (cmsUInt32Number) size) : NULL;
  if (p == NULL)
    {
      *cause = log->message ? g_strdup_printf (_("not an ICC profile lcms2 can read: %s"), log->message)
                            : g_strdup (_("not an ICC profile lcms2 can read"));
      return NULL;
    }
  if (cmsGetColorSpace (p) != cmsSigRgbData)
    *cause = g_strdup (_("not an RGB profile"));
  else if (!cmsIsIntentSupported (p, VIEW_INTENT, direction))
    *cause = g_strdup (direction == LCMS_USED_AS_OUTPUT ? _("lcms2 cannot convert colours into it")
                                                         : _("lcms2 cannot convert colours from it"));
  else
    return p;
  cmsCloseProfile (p);
  return NULL;
}

/* P says what sRGB says: its transform to lcms2's sRGB stays within 2 levels (of 255) of
 * the identity on a 9³ grid. The sRGB profiles in circulation differ by their rounding of
 * the primaries (colord's moves pure green's red by 1.4 levels); every other space differs
 * by far more (Rec. 709's curve alone by 10 levels in the shadows). */
static gboolean
is_srgb (cmsContext ctx, cmsHPROFILE p)
{
  cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR (ctx);
  cmsHTRANSFORM t = cmsCreateTransformTHR (ctx, p, TYPE_RGB_FLT, srgb, TYPE_RGB_FLT, VIEW_INTENT, VIEW_FLAGS);
  cmsCloseProfile (srgb);
  if (t == NULL)
    return FALSE;
  enum { N = 9 };
  float in[N * N * N * 3], out[N * N * N * 3];
  for (int k = 0; k < N * N * N; k++)
    {
      in[3 * k] = (float) (k / (N * N)) / (N - 1);
      in[3 * k + 1] = (float) (k / N % N) / (N - 1);
      in[3 * k + 2] = (float) (k % N) / (N - 1);
    }
  cmsDoTransform (t, in, out, N * N * N);
  cmsDeleteTransform (t);
  for (int k = 0; k < N * N * N * 3; k++)
    if (!(fabs (CLAMP (out[k], 0.0f, 1.0f) - in[k]) * 255.0 < 2.0))
      return FALSE;
  return TRUE;
}

/* The transform between the two profiles in floats on 0..1, unbounded (out of gamut below 0
 * or above 1); NULL and ERROR when the monitor's cannot serve. The source's falls back to
 * sRGB with *NOTE. *BOTH_SRGB (when not NULL): both profiles are sRGB's (is_srgb). */
static cmsHTRANSFORM
make_transform (cmsContext ctx, LcmsLog *log, GBytes *source_icc, GBytes *monitor_icc, char **note,
                char **source_name, char **monitor_name, gboolean *both_srgb, cmsHPROFILE *src_out,
                cmsHPROFILE *mon_out, GError **error)
{
  g_autofree char *cause = NULL;
  cmsHPROFILE mon = open_profile (ctx, log, monitor_icc, LCMS_USED_AS_OUTPUT, &cause);
  if (mon == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, "%s", cause);
      return NULL;
    }
  g_clear_pointer (&log->message, g_free);
  cmsHPROFILE src = open_profile (ctx, log, source_icc, LCMS_USED_AS_INPUT, &cause);
  if (src == NULL)
    {
      if (note)
        *note = g_steal_pointer (&cause);
      src = srgb_profile (ctx);
    }
  if (source_name)
    *source_name = profile_name (src);
  if (monitor_name)
    *monitor_name = profile_name (mon);
  if (both_srgb)
    *both_srgb = is_srgb (ctx, src) && is_srgb (ctx, mon);
  g_clear_pointer (&log->message, g_free);
  cmsHTRANSFORM t = cmsCreateTransformTHR (ctx, src, TYPE_RGB_FLT, mon, TYPE_RGB_FLT, VIEW_INTENT,
                                           VIEW_FLAGS);
  if (t == NULL)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("lcms2 cannot make the transform: %s"),
                 log->message ? log->message : "?");
  if (t != NULL && src_out)
    *src_out = src, *mon_out = mon;
  else
    cmsCloseProfile (src), cmsCloseProfile (mon);
  return t;
}

/* P with linear tone curves: the same primaries and white, so that a transform between two
 * such copies is the matrix between the photo's and the monitor's linear light. NULL where P
 * is not a matrix-shaper profile. */
static cmsHPROFILE
linear_copy (cmsContext ctx, cmsHPROFILE p)
{
  if (!cmsIsMatrixShaper (p) || cmsGetColorSpace (p) != cmsSigRgbData)
    return NULL;
  cmsUInt32Number size = 0;
  if (!cmsSaveProfileToMem (p, NULL, &size))
    return NULL;
  g_autofree void *mem = g_malloc (size);
  if (!cmsSaveProfileToMem (p, mem, &size))
    return NULL;
  cmsHPROFILE copy = cmsOpenProfileFromMemTHR (ctx, mem, size);
  cmsToneCurve *linear = cmsBuildGamma (ctx, 1.0);
  gboolean ok = copy && linear && cmsWriteTag (copy, cmsSigRedTRCTag, linear)
                && cmsWriteTag (copy, cmsSigGreenTRCTag, linear) && cmsWriteTag (copy, cmsSigBlueTRCTag, linear);
  if (linear)
    cmsFreeToneCurve (linear);
  if (!ok && copy)
    cmsCloseProfile (copy), copy = NULL;
  return copy;
}

static const cmsTagSignature trc_tags[3] = { cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag };

static gint32
to_fixed (double v, double limit)
{
  v = isnan (v) ? 0.0 : CLAMP (v, -limit, limit);
  return (gint32) floor (v * LM_LUT3D_ONE + 0.5);
}

/* Fills DATA (lm_lut3d_entries (GRID)) from SRC to MON through T (between SRC and MON, or
 * between their linear copies when SHAPED: the shapers are then their tone curves). */
static gboolean
fill_tables (cmsHTRANSFORM t, cmsHPROFILE src, cmsHPROFILE mon, gboolean shaped, guint grid, gint32 *data)
{
  gint32 *shaper_in = data, *nodes = data + 3 * LM_LUT3D_SHAPER_IN;
  gint32 *shaper_out = nodes + (gsize) grid * grid * grid * 3;
  for (int c = 0; c < 3; c++)
    {
      cmsToneCurve *decode = shaped ? cmsReadTag (src, trc_tags[c]) : NULL;
      cmsToneCurve *mon_trc = shaped ? cmsReadTag (mon, trc_tags[c]) : NULL;
      cmsToneCurve *encode = mon_trc ? cmsReverseToneCurve (mon_trc) : NULL;
      if (shaped && (decode == NULL || encode == NULL))
        {
          if (encode)
            cmsFreeToneCurve (encode);
          return FALSE;
        }
      for (guint i = 0; i < LM_LUT3D_SHAPER_IN; i++)
        {
          double x = i / 65535.0;
          shaper_in[c * LM_LUT3D_SHAPER_IN + i] = to_fixed (decode ? cmsEvalToneCurveFloat (decode, (float) x) : x, 1.0);
        }
      for (guint i = 0; i < LM_LUT3D_SHAPER_OUT; i++)
        {
          double x = i < LM_LUT3D_SHAPER_FINE ? (double) i / LM_LUT3D_ONE
                                              : MIN ((double) (i - LM_LUT3D_SHAPER_FINE) * (1 << LM_LUT3D_COARSE_SHIFT) / LM_LUT3D_ONE, 1.0);
          double y = encode ? cmsEvalToneCurveFloat (encode, (float) x) : x;
          shaper_out[c * LM_LUT3D_SHAPER_OUT + i] = (gint32) floor (CLAMP (y, 0.0, 1.0) * 65535.0 + 0.5);
        }
      if (encode)
        cmsFreeToneCurve (encode);
    }
  gsize n = (gsize) grid * grid * grid;
  g_autofree float *in = g_new (float, n * 3), *out = g_new (float, n * 3);
  for (guint r = 0, k = 0; r < grid; r++)
    for (guint g = 0; g < grid; g++)
      for (guint b = 0; b < grid; b++, k += 3)
        {
          in[k] = (float) r / (grid - 1);
          in[k + 1] = (float) g / (grid - 1);
          in[k + 2] = (float) b / (grid - 1);
        }
  cmsDoTransform (t, in, out, (cmsUInt32Number) n);
  for (gsize k = 0; k < n * 3; k++)
    nodes[k] = to_fixed (out[k], LM_LUT3D_NODE_LIMIT);
  return TRUE;
}

/* The largest distance, in 8-bit levels, between LUT and the exact transform T on every
 * 8-bit input on a step of 15 and a spread of 16-bit ones. */
static double
lut_error (const LmLut3d *lut, cmsHTRANSFORM t)
{
  enum { STEPS = 18, EXTRA = 4096 };
  gsize n = STEPS * STEPS * STEPS + EXTRA;
  g_autofree guint16 *in = g_new (guint16, n * 3);
  g_autofree float *fin = g_new (float, n * 3), *fout = g_new (float, n * 3);
  gsize k = 0;
  for (int r = 0; r < STEPS; r++)
    for (int g = 0; g < STEPS; g++)
      for (int b = 0; b < STEPS; b++, k += 3)
        in[k] = r * 15 * 257, in[k + 1] = g * 15 * 257, in[k + 2] = b * 15 * 257;
  guint32 state = 1;
  for (; k < n * 3; k++)
    in[k] = (guint16) ((state = state * 1664525u + 1013904223u) >> 16);
  for (k = 0; k < n * 3; k++)
    fin[k] = in[k] / 65535.0f;
  cmsDoTransform (t, fin, fout, (cmsUInt32Number) n);
  double worst = 0.0;
  for (k = 0; k < n * 3; k += 3)
    {
      guint16 o[3];
      lm_lut3d_sample (lut, in[k], in[k + 1], in[k + 2], o);
      for (int c = 0; c < 3; c++)
        worst = MAX (worst, fabs (o[c] / 257.0 - CLAMP ((double) fout[k + c], 0.0, 1.0) * 255.0));
    }
  return worst;
}

LmViewTransform *
lm_view_transform_new (GBytes *source_icc, GBytes *monitor_icc, guint grid, GError **error)
{
  g_return_val_if_fail (grid >= 2 && grid <= LM_LUT3D_MAX_N, NULL);
  LcmsLog log = { NULL };
  cmsContext ctx = lcms_context (&log);
  g_autoptr (LmViewTransform) xf = g_new0 (LmViewTransform, 1);
  xf->ref_count = 1;
  static gint next_id;
  xf->id = (guint64) (guint) g_atomic_int_add (&next_id, 1) + 1;
  cmsHPROFILE src = NULL, mon = NULL;
  gboolean both_srgb = FALSE;
  cmsHTRANSFORM t = make_transform (ctx, &log, source_icc, monitor_icc, &xf->note, &xf->source_name,
                                    &xf->monitor_name, &both_srgb, &src, &mon, error);
  g_free (log.message);
  if (t == NULL)
    {
      cmsDeleteContext (ctx);
      return NULL;
    }

  xf->table = g_new (int32_t, lm_lut3d_entries (grid));
  xf->lut.data = xf->table;
  xf->lut.n = grid;
  /* Shaped where both are matrix-shaper profiles, checked against the exact transform: a
   * profile whose tone curves lcms2 cannot invert falls back to the plain 3-D LUT. */
  cmsHPROFILE lin_src = linear_copy (ctx, src), lin_mon = linear_copy (ctx, mon);
  cmsHTRANSFORM lin = lin_src && lin_mon ? cmsCreateTransformTHR (ctx, lin_src, TYPE_RGB_FLT, lin_mon, TYPE_RGB_FLT,
                                                                  VIEW_INTENT, VIEW_FLAGS)
                                         : NULL;
  xf->error = G_MAXDOUBLE;
  if (lin && fill_tables (lin, src, mon, TRUE, grid, xf->table))
    xf->error = lut_error (&xf->lut, t);
  if (xf->error > LM_VIEW_LUT_MAX_ERROR)
    {
      g_autofree gint32 *plain = g_new (gint32, lm_lut3d_entries (grid));
      LmLut3d plain_lut = { plain, grid };
      fill_tables (t, src, mon, FALSE, grid, plain);
      double e = lut_error (&plain_lut, t);
      if (e < xf->error)
        {
          memcpy (xf->table, plain, lm_lut3d_entries (grid) * sizeof (gint32));
          xf->error = e;
        }
    }
  if (lin)
    cmsDeleteTransform (lin);
  if (lin_src)
    cmsCloseProfile (lin_src);
  if (lin_mon)
    cmsCloseProfile (lin_mon);
  cmsDeleteTransform (t);
  cmsCloseProfile (src);
  cmsCloseProfile (mon);
  cmsDeleteContext (ctx);
  xf->identity = both_srgb;
  return g_steal_pointer (&xf);
}

double
lm_view_transform_error (const LmViewTransform *xf)
{
  return xf->error;
}

LmViewTransform *
lm_view_transform_ref (LmViewTransform *xf)
{
  g_atomic_int_inc (&xf->ref_count);
  return xf;
}

void
lm_view_transform_unref (LmViewTransform *xf)
{
  if (xf == NULL || !g_atomic_int_dec_and_test (&xf->ref_count))
    return;
  g_free (xf->table);
  g_free (xf->note);
  g_free (xf->source_name);
  g_free (xf->monitor_name);
  g_free (xf);
}

const LmLut3d *
lm_view_transform_lut (const LmViewTransform *xf)
{
  return xf == NULL || xf->identity ? NULL : &xf->lut;
}

guint64
lm_view_transform_id (const LmViewTransform *xf)
{
  return xf ? xf->id : 0;
}

const char *
lm_view_transform_note (const LmViewTransform *xf)
{
  return xf->note;
}

const char *
lm_view_transform_source_name (const LmViewTransform *xf)
{
  return xf->source_name;
}

const char *
lm_view_transform_monitor_name (const LmViewTransform *xf)
{
  return xf->monitor_name;
}

gboolean
lm_view_transform_exact (GBytes *source_icc, GBytes *monitor_icc, const float *in, float *out,
                         gsize n, GError **error)
{
  LcmsLog log = { NULL };
  cmsContext ctx = lcms_context (&log);
  cmsHTRANSFORM t = make_transform (ctx, &log, source_icc, monitor_icc, NULL, NULL, NULL, NULL, NULL, NULL, error);
  g_free (log.message);
  if (t != NULL)
    {
      cmsDoTransform (t, in, out, (cmsUInt32Number) n);
      cmsDeleteTransform (t);
    }
  cmsDeleteContext (ctx);
  return t != NULL;
}

gboolean
lm_monitor_profile_check (GBytes *icc, const char *path, GError **error)
{
  LcmsLog log = { NULL };
  cmsContext ctx = lcms_context (&log);
  g_autofree char *cause = NULL;
  cmsHPROFILE p = open_profile (ctx, &log, icc, LCMS_USED_AS_OUTPUT, &cause);
  g_free (log.message);
  if (p)
    cmsCloseProfile (p);
  cmsDeleteContext (ctx);
  if (p == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_FORMAT, _("The monitor profile %s is not usable: %s"),
                   path, cause);
      return FALSE;
    }
  return TRUE;
}
