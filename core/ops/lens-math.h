/* Lens correction: parameters and lensfun's models of distortion, lateral chromatic
 * aberration (TCA) and vignetting, re-implemented for gcc and nvcc (core/lens/ finds the
 * lens and its coefficients with lensfun on the host; the pixels need no lensfun).
 *
 * lensfun 0.3.3 corrects (reverse = false) by evaluating its forward models at each output
 * pixel (libs/lensfun/modifier.cpp, mod-coord.cpp, mod-subpix.cpp, mod-color.cpp): the pixel
 * is taken into the calibration's normalised frame (r = 1 at half the short side), scaled,
 * distorted (all three channels), then R and B moved by the TCA model, and taken back to
 * pixels: where in the source each channel of the output pixel lies. Vignetting divides each
 * source pixel by 1 + k1 r² + k2 r⁴ + k3 r⁶ (r = 1 at the corner) before the resampling. Here
 * every bicubic tap (OpenCV's a = -0.75, straighten-math.h) is multiplied by its own pixel's
 * gain, which is that devignetting without a pass. Each output pixel is computed from its own
 * coordinates (lensfun steps x by NormScale along a row in float, which drifts by 0.25 px over
 * 6000 px). The same float operations in the same order on both backends, the coefficients
 * and the frame from the host: the results agree bit for bit where neither compiler
 * contracts to FMA. */
#pragma once

#include <math.h>
#include <stddef.h>

#include "param-decl.h"
#include "pixel-math.h"
#include "straighten-math.h"
#include "tile-math.h"

/* The models, as lensfun numbers them (lfDistortionModel, lfTCAModel, lfVignettingModel). */
enum { LM_LENS_DIST_NONE = 0, LM_LENS_DIST_POLY3 = 1, LM_LENS_DIST_POLY5 = 2, LM_LENS_DIST_PTLENS = 3 };
enum { LM_LENS_TCA_NONE = 0, LM_LENS_TCA_LINEAR = 1, LM_LENS_TCA_POLY3 = 2 };
enum { LM_LENS_VIG_NONE = 0, LM_LENS_VIG_PA = 1 };

/* What the commit step's lookup found (LmLensProfile.status). */
enum {
  LM_LENS_NOT_LOOKED_UP = 0, /* the pipelines the user edits, a disabled stage: no lookup */
  LM_LENS_FOUND,
  LM_LENS_NO_LENSFUN,     /* built without lensfun, or its database did not load */
  LM_LENS_NO_LENS_NAME,   /* neither EXIF nor the parameters name a lens */
  LM_LENS_UNKNOWN_LENS,   /* the database has no lens of that name */
  LM_LENS_UNKNOWN_CAMERA, /* the parameters name a camera the database does not have */
  LM_LENS_NO_FOCAL,       /* neither EXIF nor the parameters give the focal length */
  LM_LENS_NO_PROFILE,     /* the lens has none of the corrections asked for */
};

#define LM_LENS_NAME_MAX LM_PARAM_TEXT_SIZE

/* lens, camera: names as lensfun's database or EXIF give them ("Canon EF 24-105mm f/4L IS
 * USM"), empty: from the photo's EXIF. focal, aperture: 0 from EXIF. distortion, tca,
 * vignetting: strengths, each model's coefficients moved towards the identity (0: none, 1:
 * lensfun's). scale: of the output about the lens's centre, 0: the smallest that leaves no
 * empty corner (lensfun's auto scale). */
#define LM_LENS_PARAMS(P)                                                                          \
  P (TEXT, lens, N_("Lens (empty: from the photo)"), 0, LM_LENS_NAME_MAX - 1, 0, 1, NULL,          \
     .choices = "lenses")                                                                          \
  P (TEXT, camera, N_("Camera (empty: from the photo)"), 0, LM_LENS_NAME_MAX - 1, 0, 1, NULL,      \
     .choices = "cameras")                                                                         \
  P (FLOAT, focal, N_("Focal length (0: from the photo)"), 0, 2000, 0, 1, "mm")                    \
  P (FLOAT, aperture, N_("Aperture, f-number (0: from the photo)"), 0, 64, 0, 0.1, NULL)           \
  P (FLOAT, distortion, N_("Distortion"), 0, 1, 1, 0.01, NULL)                                     \
  P (FLOAT, tca, N_("Chromatic aberration"), 0, 1, 1, 0.01, NULL)                                  \
  P (FLOAT, vignetting, N_("Vignetting"), 0, 1, 1, 0.01, NULL)                                     \
  P (FLOAT, scale, N_("Scale (0: fill the frame)"), 0, 2, 0, 0.01, NULL)

/* The lens's models at the shot's focal length and aperture, as lensfun interpolates them,
 * and its calibration's sensor: what the commit step finds (core/lens/lens-db.c). */
typedef struct LmLensProfile {
  int status;
  int dist_model, tca_model, vig_model;
  float dist[3]; /* poly3: k1; poly5: k1, k2; ptlens: a, b, c */
  float tca[6];  /* linear: kr, kb; poly3: vr, vb, cr, cb, br, bb */
  float vig[3];  /* pa: k1, k2, k3 */
  float lens_crop, lens_aspect; /* the calibration's crop factor and aspect ratio */
  float center_x, center_y;     /* the lens's centre, normalised */
  float camera_crop;            /* the photo's sensor */
  char found[LM_LENS_NAME_MAX]; /* the lens found, for notes */
} LmLensProfile;

/* A display-referred source's curve, as the commit step takes it from the photo's profile
 * (op-context.h): NULL SPACE is sRGB. */
typedef struct {
  const void *space;
  double (*to_linear) (const void *space, int c, double v);
} LmLensCurve;

typedef struct {
  LM_LENS_PARAMS (LM_PARAM_FIELD)
  /* Not parameters: what the commit step derives, and a tiled render's frame. */
  LmLensProfile profile;
  LmLensCurve curve;
  LmTileFrame tile;
} LmLensParams;

/* Per-pixel constants for one image size: lensfun's frame (NormScale, NormUnScale, CenterX,
 * CenterY), the vignetting's frame (1/AspectRatioCorrection), the inverse scale and the
 * models with their strengths applied. Computed on the host (lm_lens_map), read as is by both
 * backends. */
typedef struct {
  float norm_scale, norm_unscale, cx, cy;
  float vig_scale, inv_scale;
  int dist_model, tca_model, vig_model;
  float dist[4]; /* poly3: k1, 1 - k1; poly5: k1, k2; ptlens: a, b, c, 1 - a - b - c */
  float tca[6];
  float vig[3];
} LmLensMap;

/* Whether P's committed profile changes any pixel. */
LM_INLINE int
lm_lens_active (const LmLensMap *m)
{
  return m->dist_model != LM_LENS_DIST_NONE || m->tca_model != LM_LENS_TCA_NONE || m->vig_model != LM_LENS_VIG_NONE
         || m->inv_scale != 1.0f;
}

/* The output pixel (FI, FJ) (its indices in the whole image, as floats) to where its R, G and
 * B lie in the source: XY[0..5] = R x, y, G x, y, B x, y. lensfun's callbacks in its order,
 * its float (and, for poly5, double) arithmetic. */
LM_INLINE void
lm_lens_source (const LmLensMap *m, float fi, float fj, float xy[6])
{
  float x0 = fi * m->norm_scale - m->cx, y0 = fj * m->norm_scale - m->cy;
  float x = x0 * m->inv_scale, y = y0 * m->inv_scale;
  if (m->dist_model == LM_LENS_DIST_PTLENS)
    {
      float ru2 = x * x + y * y, r = sqrtf (ru2);
      float poly3 = m->dist[0] * ru2 * r + m->dist[1] * ru2 + m->dist[2] * r + m->dist[3];
      x = x * poly3, y = y * poly3;
    }
  else if (m->dist_model == LM_LENS_DIST_POLY3)
    {
      float poly2 = m->dist[1] + m->dist[0] * (x * x + y * y);
      x = x * poly2, y = y * poly2;
    }
  else if (m->dist_model == LM_LENS_DIST_POLY5)
    {
      float ru2 = x * x + y * y;
      float poly4 = (float) (1.0 + (double) (m->dist[0] * ru2) + (double) (m->dist[1] * ru2 * ru2));
      x = x * poly4, y = y * poly4;
    }
  float rx = x, ry = y, bx = x, by = y;
  if (m->tca_model == LM_LENS_TCA_LINEAR)
    rx = x * m->tca[0], ry = y * m->tca[0], bx = x * m->tca[1], by = y * m->tca[1];
  else if (m->tca_model == LM_LENS_TCA_POLY3)
    {
      float ru2 = x * x + y * y, pr, pb;
      if (m->tca[2] == 0.0f && m->tca[3] == 0.0f)
        pr = m->tca[4] * ru2 + m->tca[0], pb = m->tca[5] * ru2 + m->tca[1];
      else
        {
          float r = sqrtf (ru2);
          pr = m->tca[4] * ru2 + m->tca[2] * r + m->tca[0];
          pb = m->tca[5] * ru2 + m->tca[3] * r + m->tca[1];
        }
      rx = x * pr, ry = y * pr, bx = x * pb, by = y * pb;
    }
  /* Back to pixels as a displacement from the pixel itself: lensfun's (x + Cx)·NormUnScale
   * in exact arithmetic, but a model that moves nothing gives the pixel back exactly, and the
   * rounding scales with the displacement, not with the distance from the corner. */
  xy[0] = fi + (rx - x0) * m->norm_unscale, xy[1] = fj + (ry - y0) * m->norm_unscale;
  xy[2] = fi + (x - x0) * m->norm_unscale, xy[3] = fj + (y - y0) * m->norm_unscale;
  xy[4] = fi + (bx - x0) * m->norm_unscale, xy[5] = fj + (by - y0) * m->norm_unscale;
}

/* The vignetting frame's coordinate of source column (or row) I, for lm_lens_devignette_r2:
 * its square. */
LM_INLINE float
lm_lens_vig_sq (const LmLensMap *m, int i, float centre)
{
  float v = ((float) i * m->norm_scale - centre) * m->vig_scale;
  return v * v;
}

/* The gain that devignettes a source pixel at squared radius R2 (vignetting frame): 1/c,
 * c in double as lensfun sums it. */
LM_INLINE float
lm_lens_devignette_r2 (const LmLensMap *m, float r2)
{
  if (m->vig_model != LM_LENS_VIG_PA)
    return 1.0f;
  float r4 = r2 * r2, r6 = r4 * r2;
  float c = (float) (1.0 + (double) (m->vig[0] * r2) + (double) (m->vig[1] * r4) + (double) (m->vig[2] * r6));
  return 1.0f / c;
}

/* The devignetting gain of source pixel (XS, YS), whole-image indices. */
LM_INLINE float
lm_lens_devignette (const LmLensMap *m, int xs, int ys)
{
  return lm_lens_devignette_r2 (m, lm_lens_vig_sq (m, xs, m->cx) + lm_lens_vig_sq (m, ys, m->cy));
}

/* A source's channel as the sampler reads it, linear light: scene RGBA_F32 as it is, the
 * encoded 8- and 16-bit values through the photo's curve (tables from the host; a gray
 * image's one channel through green's). */
typedef struct {
  const void *data;
  size_t stride;
  int format;         /* LM_LENS_RGBA8 … */
  const float *lin;   /* 3 × N: channel c's level v in linear light (N = 256 or 65536) */
  const float *edges; /* 3 × (N - 1): the linear value from which level k + 1 is nearer than k */
  int levels;         /* N */
} LmLensPixels;

enum { LM_LENS_RGBA8 = 0, LM_LENS_RGBA16 = 1, LM_LENS_RGBA_F32 = 2, LM_LENS_GRAY8 = 3, LM_LENS_GRAY16 = 4 };

LM_INLINE int
lm_lens_gray (int format)
{
  return format == LM_LENS_GRAY8 || format == LM_LENS_GRAY16;
}

LM_INLINE float
lm_lens_tap (const LmLensPixels *p, int x, int y, int c)
{
  const uint8_t *row = (const uint8_t *) p->data + (size_t) y * p->stride;
  if (p->format == LM_LENS_RGBA_F32)
    return ((const float *) row)[(size_t) x * 4 + c];
  int gray = lm_lens_gray (p->format);
  size_t i = gray ? (size_t) x : (size_t) x * 4 + c;
  int v = p->format == LM_LENS_RGBA8 || p->format == LM_LENS_GRAY8 ? row[i] : ((const uint16_t *) row)[i];
  return c == 3 ? (float) v : p->lin[(size_t) (gray ? 1 : c) * p->levels + v];
}

/* Channel C (alpha: 3, as stored, no gain) bicubic at (SX, SY), each tap devignetted. */
LM_INLINE float
lm_lens_sample (const LmLensMap *m, const LmLensPixels *p, const LmStraightenSource *s, int c, float sx, float sy)
{
  int xi[4], yi[4];
  float kx[4], ky[4];
  lm_cubic_taps (sx, sy, s, xi, yi, kx, ky);
  int x0 = (int) floorf (sx) - 1, y0 = (int) floorf (sy) - 1;
  float gx[4], gy[4];
  for (int i = 0; i < 4; i++)
    {
      gx[i] = lm_lens_vig_sq (m, lm_clamp_index (x0 + i, s->w), m->cx);
      gy[i] = lm_lens_vig_sq (m, lm_clamp_index (y0 + i, s->h), m->cy);
    }
  float rows[4];
  for (int j = 0; j < 4; j++)
    {
      float v[4];
      for (int i = 0; i < 4; i++)
        {
          float t = lm_lens_tap (p, xi[i], yi[j], c);
          v[i] = c == 3 ? t : t * lm_lens_devignette_r2 (m, gx[i] + gy[j]);
        }
      rows[j] = lm_cubic_sum (v, kx);
    }
  return lm_cubic_sum (rows, ky);
}

/* A linear value back to channel C's level: the count of edges at or below it (a binary
 * search of the host's table), which rounds to the nearest level in the encoded scale. */
LM_INLINE int
lm_lens_encode (const LmLensPixels *p, int c, float l)
{
  const float *e = p->edges + (size_t) c * (p->levels - 1);
  int lo = 0, hi = p->levels - 1; /* the answer is in lo..hi */
  while (lo < hi)
    {
      int mid = (lo + hi) >> 1;
      if (e[mid] <= l)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Output pixel (FI, FJ) of the whole image into OUT (the output's pixel, of P's format); a
 * gray image's one channel at green's place. */
LM_INLINE void
lm_lens_pixel (const LmLensMap *m, const LmLensPixels *p, const LmStraightenSource *s, float fi, float fj, void *out)
{
  float xy[6];
  lm_lens_source (m, fi, fj, xy);
  if (lm_lens_gray (p->format))
    {
      int v = lm_lens_encode (p, 1, lm_lens_sample (m, p, s, 0, xy[2], xy[3]));
      if (p->format == LM_LENS_GRAY8)
        *(uint8_t *) out = (uint8_t) v;
      else
        *(uint16_t *) out = (uint16_t) v;
      return;
    }
  float v[4];
  for (int c = 0; c < 3; c++)
    v[c] = lm_lens_sample (m, p, s, c, xy[2 * c], xy[2 * c + 1]);
  v[3] = lm_lens_sample (m, p, s, 3, xy[2], xy[3]);
  if (p->format == LM_LENS_RGBA_F32)
    {
      float *o = (float *) out;
      o[0] = v[0], o[1] = v[1], o[2] = v[2], o[3] = v[3];
    }
  else if (p->format == LM_LENS_RGBA8)
    {
      uint8_t *o = (uint8_t *) out;
      for (int c = 0; c < 3; c++)
        o[c] = (uint8_t) lm_lens_encode (p, c, v[c]);
      o[3] = lm_quantize_u8 (v[3]);
    }
  else
    {
      uint16_t *o = (uint16_t *) out;
      for (int c = 0; c < 3; c++)
        o[c] = (uint16_t) lm_lens_encode (p, c, v[c]);
      float a = v[3] > 0.0f ? v[3] : 0.0f;
      o[3] = (uint16_t) (int) ((a < 65535.0f ? a : 65535.0f) + 0.5f);
    }
}

/* The format's levels for the tables (0: scene light, none). */
LM_INLINE int
lm_lens_levels (int format)
{
  return format == LM_LENS_RGBA8 || format == LM_LENS_GRAY8 ? 256 : format == LM_LENS_RGBA_F32 ? 0 : 65536;
}

/* Host side only: what the CPU reference and the kernel's launch compute once per run. */
#ifdef __CUDACC__
#define LM_LENS_HOST __host__ static inline
#else
#define LM_LENS_HOST static inline
#endif

/* lensfun's frame for a W × H image (lfModifier's constructor, in its float and
 * double mix) and the models with their strengths; scale 0 is found as lensfun's auto scale
 * does (lm_lens_auto_scale). */
LM_LENS_HOST void
lm_lens_frame (const LmLensProfile *pr, unsigned w, unsigned h, LmLensMap *m)
{
  int wi = w >= 2 ? (int) w - 1 : 1, hi = h >= 2 ? (int) h - 1 : 1;
  float size = (float) (wi < hi ? wi : hi);
  float ar = wi < hi ? (float) hi / (float) wi : (float) wi / (float) hi;
  float arc = sqrtf (pr->lens_aspect * pr->lens_aspect + 1.0f);
  float cc = (float) (1.0 / sqrtf (ar * ar + 1.0f) * pr->lens_crop / pr->camera_crop * arc);
  m->norm_scale = (float) (2.0 / size * cc);
  m->norm_unscale = (float) (size * 0.5 / cc);
  m->cx = ((float) wi / size + pr->center_x) * cc;
  m->cy = ((float) hi / size + pr->center_y) * cc;
  m->vig_scale = 1.0f / arc;
}

LM_LENS_HOST void
lm_lens_models (const LmLensParams *p, LmLensMap *m)
{
  const LmLensProfile *pr = &p->profile;
  float sd = p->distortion, st = p->tca, sv = p->vignetting;
  m->dist_model = sd > 0.0f ? pr->dist_model : LM_LENS_DIST_NONE;
  m->tca_model = st > 0.0f ? pr->tca_model : LM_LENS_TCA_NONE;
  m->vig_model = sv > 0.0f ? pr->vig_model : LM_LENS_VIG_NONE;
  for (int i = 0; i < 4; i++)
    m->dist[i] = 0.0f;
  for (int i = 0; i < 3; i++)
    m->dist[i] = pr->dist[i] * sd;
  if (m->dist_model == LM_LENS_DIST_POLY3)
    m->dist[1] = 1.0f - m->dist[0];
  if (m->dist_model == LM_LENS_DIST_PTLENS)
    m->dist[3] = 1.0f - m->dist[0] - m->dist[1] - m->dist[2];
  /* TCA: the identity is kr = kb = 1 (linear), v = 1 and c = b = 0 (poly3). */
  for (int i = 0; i < 6; i++)
    {
      float one = (m->tca_model == LM_LENS_TCA_LINEAR && i < 2) || (m->tca_model == LM_LENS_TCA_POLY3 && i < 2)
                    ? 1.0f
                    : 0.0f;
      m->tca[i] = st == 1.0f ? pr->tca[i] : one + (pr->tca[i] - one) * st;
    }
  for (int i = 0; i < 3; i++)
    m->vig[i] = pr->vig[i] * sv;
}

/* The point of the distorted (G) image at radius RU in direction (CA, SA), normalised frame,
 * before the scale: how far past the edge box (MX, MY) it lies (lensfun's
 * AutoscaleResidualDistance). */
LM_LENS_HOST double
lm_lens_edge_residual (const LmLensMap *m, double ru, double ca, double sa, double mx, double my)
{
  LmLensMap u = *m;
  u.inv_scale = 1.0f, u.tca_model = LM_LENS_TCA_NONE;
  float xy[6];
  /* lm_lens_source works from pixels: take the normalised point back to them first. */
  float fi = (float) ((ca * ru + m->cx) / m->norm_scale), fj = (float) ((sa * ru + m->cy) / m->norm_scale);
  lm_lens_source (&u, fi, fj, xy);
  double x = xy[2] * (double) m->norm_scale - m->cx, y = xy[3] * (double) m->norm_scale - m->cy;
  double r = x - mx, t = -mx - x;
  r = t > r ? t : r;
  t = y - my, r = t > r ? t : r;
  t = -my - y;
  return t > r ? t : r;
}

/* lensfun's GetAutoScale: the largest ratio, over the edges' midpoints and the corners, of a
 * point's distance to the radius whose distorted image reaches the frame's edge (found here
 * by bisection where lensfun uses Newton's method), times 1.001, times 1.001 again with TCA. */
LM_LENS_HOST float
lm_lens_auto_scale (const LmLensMap *m, unsigned w, unsigned h)
{
  if (m->dist_model == LM_LENS_DIST_NONE)
    return m->tca_model != LM_LENS_TCA_NONE ? 1.001f : 1.0f;
  double wi = w >= 2 ? w - 1.0 : 1.0, hi = h >= 2 ? h - 1.0 : 1.0;
  double mx = wi / 2.0 * m->norm_scale, my = hi / 2.0 * m->norm_scale;
  double corner = atan2 (hi, wi), scale = 0.01;
  const double pi = 3.14159265358979323846;
  double angles[8] = { 0, corner, pi / 2, pi - corner, pi, pi + corner, 1.5 * pi, 2 * pi - corner };
  for (int i = 0; i < 8; i++)
    {
      double ca = cos (angles[i]), sa = sin (angles[i]);
      double dist = (i & 1) ? sqrt (wi * wi + hi * hi) * 0.5 * m->norm_scale
                            : ((i & 2) ? hi : wi) * 0.5 * m->norm_scale;
      double lo = 0.0, hi_r = dist;
      while (lm_lens_edge_residual (m, hi_r, ca, sa, mx, my) < 0.0 && hi_r < 64.0 * dist)
        lo = hi_r, hi_r *= 2.0;
      for (int k = 0; k < 60; k++)
        {
          double mid = 0.5 * (lo + hi_r);
          if (lm_lens_edge_residual (m, mid, ca, sa, mx, my) < 0.0)
            lo = mid;
          else
            hi_r = mid;
        }
      double s = dist / (0.5 * (lo + hi_r));
      scale = s > scale ? s : scale;
    }
  scale *= 1.001;
  if (m->tca_model != LM_LENS_TCA_NONE)
    scale *= 1.001;
  return (float) scale;
}

/* The map of P (committed) for a W × H image (the whole image's size). */
LM_LENS_HOST LmLensMap
lm_lens_map (const LmLensParams *p, unsigned w, unsigned h)
{
  LmLensMap m = { 0 };
  m.inv_scale = 1.0f, m.vig_scale = 1.0f, m.norm_scale = 1.0f, m.norm_unscale = 1.0f;
  if (p->profile.status != LM_LENS_FOUND || !(p->profile.camera_crop > 0.0f) || !(p->profile.lens_crop > 0.0f))
    return m;
  lm_lens_frame (&p->profile, w, h, &m);
  lm_lens_models (p, &m);
  float scale = p->scale > 0.0f ? p->scale : lm_lens_auto_scale (&m, w, h);
  /* lensfun adds no scale callback for a scale of 1. */
  m.inv_scale = scale == 1.0f ? 1.0f : 1.0f / scale;
  return m;
}

/* Host side: P's map and the input as a sampler reads it, for an input of W × H (the whole
 * image, or P's tile's input), and where the output's pixel (0, 0) lies in the whole output. */
LM_LENS_HOST LmLensMap
lm_lens_setup (const LmLensParams *p, unsigned w, unsigned h, LmStraightenSource *s, unsigned *out_x,
               unsigned *out_y)
{
  s->ox = 0, s->oy = 0, s->tw = (int) w, s->th = (int) h;
  *out_x = 0, *out_y = 0;
  if (lm_tile_frame_active (&p->tile))
    {
      s->ox = (int) p->tile.in_x, s->oy = (int) p->tile.in_y;
      *out_x = p->tile.out_x, *out_y = p->tile.out_y;
      w = p->tile.full_w, h = p->tile.full_h;
    }
  s->w = (int) w, s->h = (int) h;
  return lm_lens_map (p, w, h);
}

/* The bytes of lm_lens_tables' two tables for LEVELS levels. */
LM_LENS_HOST size_t
lm_lens_tables_size (int levels)
{
  return (size_t) (3 * levels + 3 * (levels - 1)) * sizeof (float);
}

/* Host side: the tables of a display-referred source of LEVELS levels (256 or 65536): LIN
 * (3 × LEVELS) and EDGES (3 × (LEVELS - 1)), through P's committed curve. */
LM_LENS_HOST void
lm_lens_tables (const LmLensParams *p, int levels, float *lin, float *edges)
{
  double top = levels - 1;
  for (int c = 0; c < 3; c++)
    for (int v = 0; v < levels; v++)
      {
        double e = v / top, mid = (v + 0.5) / top, l, lm;
        if (p->curve.space != NULL)
          l = p->curve.to_linear (p->curve.space, c, e), lm = p->curve.to_linear (p->curve.space, c, mid);
        else
          {
            l = e <= 0.04045 ? e / 12.92 : pow ((e + 0.055) / 1.055, 2.4);
            lm = mid <= 0.04045 ? mid / 12.92 : pow ((mid + 0.055) / 1.055, 2.4);
          }
        lin[(size_t) c * levels + v] = (float) l;
        if (v < levels - 1)
          edges[(size_t) c * (levels - 1) + v] = (float) lm;
      }
}
