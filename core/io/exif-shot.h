/* How a photo was taken (LmShotInfo, core/ops/op-context.h): camera, lens, focal length and
 * aperture from a raw's metadata or the file's EXIF. */
#pragma once

#include "../image.h"
#include "../ops/op-context.h"

G_BEGIN_DECLS

/* IMAGE's shot, empty where it says nothing. */
void lm_shot_info_from_image (const LmImage *image, LmShotInfo *out);

G_END_DECLS
