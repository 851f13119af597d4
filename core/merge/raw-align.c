/* Raw brackets aligned on their mosaics (raw-align.h). */
#include "raw-align.h"

#include <math.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../raw-info.h"

/* The site's value between black and white, 0..1 (beyond: clamped). */
static float
site_level (const LmRawInfo *info, const LmImage *raw, int x, int y)
{
  const guint16 *row = (const guint16 *) lm_image_row (raw, y);
  int bw = CLAMP (info->black_w, 1, LM_RAW_BLACK_MAX), bh = CLAMP (info->black_h, 1, LM_RAW_BLACK_MAX);
  float black = info->black[y % bh][x % bw];
  float v;
  int c;
  if (raw->format == LM_FORMAT_RGBA16)
    {
      v = (row[4 * x] + row[4 * x + 1] + row[4 * x + 2]) / 3.0f;
      c = 1;
    }
  else
    {
      v = row[x];
      c = raw->format == LM_FORMAT_CFA16 ? info->cfa[y % MAX (info->cfa_h, 1)][x % MAX (info->cfa_w, 1)] : 1;
    }
  float white = info->white[c & 3];
  if (!(white > black))
    return 0.0f;
  return CLAMP ((v - black) / (white - black), 0.0f, 1.0f);
}

LmImage *
lm_raw_brackets_align_proxy (const LmImage *raw, GError **error)
{
  const LmRawInfo *info = raw->raw;
  g_return_val_if_fail (info != NULL, NULL);
  int w = raw->width, h = raw->height;
  g_autoptr (LmImage) out = lm_image_new (LM_FORMAT_GRAY8, w, h, lm_allocator_host (), error);
  if (out == NULL)
    return NULL;
  g_autofree float *level = g_try_malloc_n ((gsize) w * h, sizeof (float));
  if (level == NULL)
    {
      g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY, _("not enough memory to align the raw exposures"));
      return NULL;
    }
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      level[(gsize) y * w + x] = site_level (info, raw, x, y);
  int pw = raw->format == LM_FORMAT_CFA16 ? MIN (MAX (info->cfa_w, 1), w) : 1;
  int ph = raw->format == LM_FORMAT_CFA16 ? MIN (MAX (info->cfa_h, 1), h) : 1;
#pragma omp parallel for schedule(static)
  for (int y = 0; y < h; y++)
    {
      guint8 *o = lm_image_row (out, y);
      /* The window moved in at the far edges, so that it stays one whole period. */
      int y0 = MIN (y, h - ph);
      for (int x = 0; x < w; x++)
        {
          int x0 = MIN (x, w - pw);
          float sum = 0.0f;
          for (int j = y0; j < y0 + ph; j++)
            for (int i = x0; i < x0 + pw; i++)
              sum += level[(gsize) j * w + i];
          o[x] = (guint8) lrintf (255.0f * sqrtf (sum / (float) (pw * ph)));
        }
    }
  return g_steal_pointer (&out);
}

static int
wrap (int v, int period)
{
  return ((v % period) + period) % period;
}

/* INFO for its mosaic moved by (DX, DY) into a W × H frame: the site now at (x, y) was at
 * (x − DX, y − DY). */
static LmRawInfo *
moved_info (const LmRawInfo *info, int dx, int dy, guint w, guint h)
{
  LmRawInfo *m = lm_raw_info_copy (info);
  int cw = MAX (info->cfa_w, 1), ch = MAX (info->cfa_h, 1);
  for (int y = 0; y < ch; y++)
    for (int x = 0; x < cw; x++)
      m->cfa[y][x] = info->cfa[wrap (y - dy, ch)][wrap (x - dx, cw)];
  int bw = CLAMP (info->black_w, 1, LM_RAW_BLACK_MAX), bh = CLAMP (info->black_h, 1, LM_RAW_BLACK_MAX);
  for (int y = 0; y < bh; y++)
    for (int x = 0; x < bw; x++)
      m->black[y][x] = info->black[wrap (y - dy, bh)][wrap (x - dx, bw)];
  if (info->crop_w && info->crop_h)
    {
      gint64 x0 = MAX ((gint64) info->crop_x + dx, 0), y0 = MAX ((gint64) info->crop_y + dy, 0);
      gint64 x1 = MIN ((gint64) info->crop_x + info->crop_w + dx, (gint64) w);
      gint64 y1 = MIN ((gint64) info->crop_y + info->crop_h + dy, (gint64) h);
      gboolean some = x1 > x0 && y1 > y0;
      m->crop_x = some ? (guint) x0 : 0, m->crop_y = some ? (guint) y0 : 0;
      m->crop_w = some ? (guint) (x1 - x0) : 0, m->crop_h = some ? (guint) (y1 - y0) : 0;
    }
  return m;
}

gboolean
lm_raw_brackets_align (LmHdrStack *stack, LmShift *shifts, GError **error)
{
  LmAlignParams params = LM_ALIGN_PARAMS_INIT;
  g_autoptr (LmHdrStack) proxies = g_new0 (LmHdrStack, 1);
  proxies->n = stack->n;
  proxies->images = g_new0 (LmImage *, stack->n);
  proxies->paths = g_new0 (char *, stack->n);
  for (guint i = 0; i < stack->n; i++)
    {
      proxies->paths[i] = g_strdup (stack->paths[i]);
      if ((proxies->images[i] = lm_raw_brackets_align_proxy (stack->images[i], error)) == NULL)
        return FALSE;
    }
  if (!lm_hdr_align_mtb_cpu (&params, proxies, shifts, error))
    return FALSE;
  /* The shifted copies keep the pixels, not the raw descriptions: each gets its own, moved as
   * lm_hdr_stack_apply_shifts moves the data (by the shift less the largest one, with the
   * cut). */
  g_autofree LmRawInfo **infos = g_new0 (LmRawInfo *, stack->n);
  for (guint i = 0; i < stack->n; i++)
    infos[i] = lm_raw_info_ref (stack->images[i]->raw);
  LmShift hi = { 0, 0 };
  for (guint i = 0; i < stack->n && params.cut; i++)
    hi.x = MAX (hi.x, shifts[i].x), hi.y = MAX (hi.y, shifts[i].y);
  gboolean ok = lm_hdr_stack_apply_shifts (&params, stack, shifts, error);
  for (guint i = 0; i < stack->n; i++)
    {
      if (ok)
        {
          LmImage *image = stack->images[i];
          g_clear_pointer (&image->raw, lm_raw_info_unref);
          image->raw = moved_info (infos[i], shifts[i].x - hi.x, shifts[i].y - hi.y, image->width, image->height);
        }
      lm_raw_info_unref (infos[i]);
    }
  return ok;
}
