/* Lens correction: distortion, lateral chromatic aberration and vignetting from lensfun's
 * profile of the photo's lens; CPU reference (lens-math.h has the models and the sampling,
 * core/lens/ the lookup). */
#include <string.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "lens.h"
#include "lens-math.h"
#include "ops.h"

#define LM_PARAM_STRUCT LmLensParams
static const LmParamSpec lens_params[] = { LM_LENS_PARAMS (LM_PARAM_SPEC) };
#undef LM_PARAM_STRUCT

static LmFormat
lens_output_format (const void *params, LmFormat in, gboolean opaque)
{
  return in;
}

static void
lens_output_size (const void *params, guint width, guint height, guint *out_width, guint *out_height)
{
  const LmLensParams *p = params;
  if (lm_tile_frame_active (&p->tile))
    *out_width = p->tile.out_w, *out_height = p->tile.out_h;
  else
    *out_width = width, *out_height = height;
}

/* The profile at the shot's focal length and aperture, and the photo's curve: what the
 * pixels need and the parameters do not say. */
static void
lens_commit (void *params, const LmOpContext *context)
{
  LmLensParams *p = params;
  p->curve.space = context->color.space;
  p->curve.to_linear = context->color.to_linear;
  /* No lookup (a disabled stage): nothing found, nothing corrected, the bytes left zero. */
  memset (&p->profile, 0, sizeof p->profile);
  if (context->lens_find == NULL)
    return;
  context->lens_find (context->shot, p->camera.s, p->lens.s, p->focal, p->aperture, &p->profile);
  /* The lens is known, but none of the corrections asked for is in its profile. */
  const LmLensProfile *pr = &p->profile;
  if (pr->status == LM_LENS_FOUND && !(pr->dist_model && p->distortion > 0.0f) && !(pr->tca_model && p->tca > 0.0f)
      && !(pr->vig_model && p->vignetting > 0.0f))
    p->profile.status = LM_LENS_NO_PROFILE;
}

char *
lm_lens_note (const void *params)
{
  const LmLensParams *p = params;
  const char *lens = p->lens.s[0] ? p->lens.s : p->profile.found;
  switch (p->profile.status)
    {
    case LM_LENS_FOUND:
    case LM_LENS_NOT_LOOKED_UP:
      return NULL;
    case LM_LENS_NO_LENSFUN:
      return g_strdup (_("lens correction is not available: lensfun or its database is missing"));
    case LM_LENS_NO_LENS_NAME:
      return g_strdup (_("the photo names no lens: choose one (--lens NAME, or the Lens correction panel)"));
    case LM_LENS_UNKNOWN_LENS:
      return g_strdup_printf (_("lensfun's database has no lens “%s”"), lens);
    case LM_LENS_UNKNOWN_CAMERA:
      return g_strdup_printf (_("lensfun's database has no camera “%s”"), p->camera.s);
    case LM_LENS_NO_FOCAL:
      return g_strdup_printf (_("the focal length of the shot with “%s” is unknown: give it (--lens-focal)"), lens);
    case LM_LENS_NO_PROFILE:
      return g_strdup_printf (_("lensfun has no profile of “%s” for the corrections asked"), lens);
    default:
      return g_strdup (_("lens correction failed"));
    }
}

/* A render refuses names and settings that find no profile. A photo that names no lens (or a
 * Lumen without lensfun) renders as it is: what every operation at its defaults does, which
 * the registry-wide tests hold; lumen-cli refuses it and the window's info bar says why
 * (lm_pipeline_lens_note, core/edit/commit.c). */
static gboolean
lens_check (const void *params, GError **error)
{
  const LmLensParams *p = params;
  if (p->profile.status == LM_LENS_NO_LENS_NAME || p->profile.status == LM_LENS_NO_LENSFUN)
    return TRUE;
  g_autofree char *note = lm_lens_note (params);
  if (note)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID, _("Lens correction: %s"), note);
  return note == NULL;
}

/* Rows J0..J1 of DST from SRC through M: every output pixel computed from its own place. */
static void
lens_rows (const LmLensMap *m, const LmLensPixels *px, const LmStraightenSource *s, LmImage *dst, guint out_x,
           guint out_y)
{
  gsize bytes = lm_format_bytes_per_pixel (dst->format);
#pragma omp parallel for schedule(dynamic, 8)
  for (guint j = 0; j < dst->height; j++)
    {
      guint8 *out = lm_image_row (dst, j);
      float fj = (float) (gint) (out_y + j);
      for (guint i = 0; i < dst->width; i++)
        lm_lens_pixel (m, px, s, (float) (gint) (out_x + i), fj, out + (gsize) i * bytes);
    }
}

/* The part of SRC that DST shows unchanged: the whole of it, or a tile's place in its input. */
static void
copy_through (const LmLensParams *p, const LmImage *src, LmImage *dst)
{
  guint dx = 0, dy = 0;
  if (lm_tile_frame_active (&p->tile))
    dx = p->tile.out_x - p->tile.in_x, dy = p->tile.out_y - p->tile.in_y;
  gsize bytes = (gsize) dst->width * lm_format_bytes_per_pixel (dst->format);
  for (guint j = 0; j < dst->height; j++)
    memcpy (lm_image_row (dst, j), lm_image_row (src, j + dy) + (gsize) dx * lm_format_bytes_per_pixel (src->format), bytes);
}

/* The tables of sRGB's curve (no profile: most photos) for LEVELS levels, built once a
 * process: 65536 levels take ~10 ms, at every render and every tile otherwise. NULL where
 * memory ran out. Another profile's are built at each run: its curve is a pointer that a
 * profile opened later may reuse. */
static const float *
srgb_tables (const LmLensParams *p, int levels)
{
  static GMutex lock;
  static float *built[2];
  int k = levels == 256 ? 0 : 1;
  g_mutex_lock (&lock);
  if (built[k] == NULL && (built[k] = g_try_new (float, lm_lens_tables_size (levels) / sizeof (float))) != NULL)
    lm_lens_tables (p, levels, built[k], built[k] + 3 * (gsize) levels);
  g_mutex_unlock (&lock);
  return built[k];
}

static gboolean
lens_run_cpu (const void *params, const LmImage *src, LmImage *dst, GError **error)
{
  const LmLensParams *p = params;
  int format = src->format == LM_FORMAT_RGBA8      ? LM_LENS_RGBA8
               : src->format == LM_FORMAT_RGBA16   ? LM_LENS_RGBA16
               : src->format == LM_FORMAT_RGBA_F32 ? LM_LENS_RGBA_F32
               : src->format == LM_FORMAT_GRAY8    ? LM_LENS_GRAY8
               : src->format == LM_FORMAT_GRAY16   ? LM_LENS_GRAY16
                                                   : -1;
  if (format < 0)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_UNSUPPORTED, _("%s does not take this pixel format"), "lens");
      return FALSE;
    }
  LmStraightenSource s;
  guint out_x, out_y;
  LmLensMap m = lm_lens_setup (p, src->width, src->height, &s, &out_x, &out_y);
  if (!lm_lens_active (&m))
    {
      copy_through (p, src, dst);
      return TRUE;
    }
  LmLensPixels px = { src->data, src->stride, format, NULL, NULL, 0 };
  g_autofree float *own = NULL;
  if (lm_lens_levels (format))
    {
      px.levels = lm_lens_levels (format);
      const float *tables = p->curve.space == NULL ? srgb_tables (p, px.levels) : NULL;
      if (tables == NULL && (own = g_try_new (float, lm_lens_tables_size (px.levels) / sizeof (float))) != NULL)
        lm_lens_tables (p, px.levels, own, own + 3 * (gsize) px.levels), tables = own;
      if (tables == NULL)
        {
          g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("Not enough memory to correct the lens"));
          return FALSE;
        }
      px.lin = tables, px.edges = tables + 3 * (gsize) px.levels;
    }
  lens_rows (&m, &px, &s, dst, out_x, out_y);
  return TRUE;
}

/* The window's picker: where the output point's G lies in the source. */
static void
lens_map_back (const void *params, guint in_w, guint in_h, double x, double y, double *sx, double *sy)
{
  LmLensMap m = lm_lens_map (params, in_w, in_h);
  float xy[6];
  lm_lens_source (&m, (float) x, (float) y, xy);
  *sx = xy[2], *sy = xy[3];
}

/* Tiles: the bounding box of the output rectangle's edge (every 8 pixels and its corners)
 * mapped for all three channels (the model is a homeomorphism: the image of the inside lies
 * within the image of the edge), plus the cubic's reach and one pixel for rounding. */
static void
lens_source_rect (const void *params, guint in_w, guint in_h, const LmRect *out, LmRect *in)
{
  LmLensMap m = lm_lens_map (params, in_w, in_h);
  if (!lm_lens_active (&m))
    {
      *in = *out;
      return;
    }
  float x0 = G_MAXFLOAT, y0 = G_MAXFLOAT, x1 = -G_MAXFLOAT, y1 = -G_MAXFLOAT;
  guint last_x = out->x + out->width - 1, last_y = out->y + out->height - 1;
  for (int side = 0; side < 4; side++)
    {
      guint n = side < 2 ? out->width : out->height;
      for (guint k = 0; k < n + 8; k += 8)
        {
          guint t = MIN (k, n - 1);
          guint i = side < 2 ? out->x + t : side == 2 ? out->x : last_x;
          guint j = side < 2 ? (side == 0 ? out->y : last_y) : out->y + t;
          float xy[6];
          lm_lens_source (&m, (float) i, (float) j, xy);
          for (int c = 0; c < 3; c++)
            {
              x0 = MIN (x0, xy[2 * c]), x1 = MAX (x1, xy[2 * c]);
              y0 = MIN (y0, xy[2 * c + 1]), y1 = MAX (y1, xy[2 * c + 1]);
            }
        }
    }
  int ax = CLAMP ((int) floorf (x0) - 2, 0, (int) in_w - 1), bx = CLAMP ((int) floorf (x1) + 3, 0, (int) in_w - 1);
  int ay = CLAMP ((int) floorf (y0) - 2, 0, (int) in_h - 1), by = CLAMP ((int) floorf (y1) + 3, 0, (int) in_h - 1);
  *in = (LmRect) { (guint) ax, (guint) ay, (guint) (bx - ax + 1), (guint) (by - ay + 1) };
}

static LmTileFrame *
lens_tile_frame (void *params)
{
  return &((LmLensParams *) params)->tile;
}

const LmOpInfo lm_lens_op = {
  .id = LM_OP_LENS,
  .name = "lens",
  .label = N_("Lens correction"),
  .blurb = N_("Correct distortion, chromatic aberration and vignetting with lensfun's profile of the lens "
              "(auto: the one the photo names)"),
  .params = lens_params,
  .n_params = G_N_ELEMENTS (lens_params),
  .params_size = sizeof (LmLensParams),
  .version = 1,
  .commit = lens_commit,
  .check = lens_check,
  .output_format = lens_output_format,
  .output_size = lens_output_size,
  .map_back = lens_map_back,
  .on_scene = TRUE,
  .run_cpu = lens_run_cpu,
  .source_rect = lens_source_rect,
  .tile_frame = lens_tile_frame,
};
