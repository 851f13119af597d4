#include "raw-orient.h"

#include "../raw-info.h"
#include "orientation.h"

/* Where the turned pattern's site (X, Y) is read in the stored period of PW × PH, for an image
 * of W × H: the stored site the turn brings there, reduced to the period. */
static void
period_source (int orientation, guint x, guint y, guint w, guint h, guint pw, guint ph, guint *px, guint *py)
{
  guint sx, sy;
  lm_orientation_source_of (orientation, x, y, w, h, &sx, &sy);
  *px = sx % pw;
  *py = sy % ph;
}

/* INFO's periodic tables and crop for the image turned by ORIENTATION (its stored size W × H). */
static void
turn_info (LmRawInfo *info, const LmRawInfo *stored, int orientation, guint w, guint h)
{
  gboolean swap = orientation >= 5;
  guint dw = swap ? h : w, dh = swap ? w : h;
  info->cfa_w = swap ? stored->cfa_h : stored->cfa_w;
  info->cfa_h = swap ? stored->cfa_w : stored->cfa_h;
  /* A period's sites lie in the image only where it is at least a period long: the others'
   * colours are never read. */
  for (guint y = 0; y < info->cfa_h && y < dh; y++)
    for (guint x = 0; x < info->cfa_w && x < dw; x++)
      {
        guint px, py;
        period_source (orientation, x, y, w, h, stored->cfa_w, stored->cfa_h, &px, &py);
        info->cfa[y][x] = stored->cfa[py][px];
      }
  info->black_w = swap ? stored->black_h : stored->black_w;
  info->black_h = swap ? stored->black_w : stored->black_h;
  for (guint y = 0; y < info->black_h && y < dh; y++)
    for (guint x = 0; x < info->black_w && x < dw; x++)
      {
        guint px, py;
        period_source (orientation, x, y, w, h, stored->black_w, stored->black_h, &px, &py);
        info->black[y][x] = stored->black[py][px];
      }
  if (stored->crop_w && stored->crop_h)
    {
      /* The turned rectangle is spanned by where two opposite corners land: the inverse turn
       * (6 and 8 undo each other; the others undo themselves) read on the turned image. */
      int inverse = orientation == 6 ? 8 : orientation == 8 ? 6 : orientation;
      guint ax, ay, bx, by;
      lm_orientation_source_of (inverse, stored->crop_x, stored->crop_y, dw, dh, &ax, &ay);
      lm_orientation_source_of (inverse, stored->crop_x + stored->crop_w - 1, stored->crop_y + stored->crop_h - 1,
                                dw, dh, &bx, &by);
      info->crop_x = MIN (ax, bx);
      info->crop_y = MIN (ay, by);
      info->crop_w = MAX (ax, bx) - info->crop_x + 1;
      info->crop_h = MAX (ay, by) - info->crop_y + 1;
    }
  info->orientation = 1;
}

LmImage *
lm_raw_orient (LmImage *image, GError **error)
{
  const LmRawInfo *stored = image->raw;
  if (stored == NULL || stored->orientation <= 1 || stored->orientation > 8)
    return lm_image_ref (image);
  LmImage *turned = lm_image_orient (image, stored->orientation, error);
  if (turned == NULL)
    return NULL;
  LmRawInfo *info = lm_raw_info_copy (stored);
  turn_info (info, stored, stored->orientation, image->width, image->height);
  g_clear_pointer (&turned->raw, lm_raw_info_unref);
  turned->raw = info;
  return turned;
}
