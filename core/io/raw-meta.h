/* What LibRaw found in a raw file, once unpacked, as an LmRawInfo (raw-meta.c). */
#pragma once

#include <glib.h>

#include "../raw-info.h"
#include "raw-compat.h"

G_BEGIN_DECLS

/* LR's sensor layout, levels, white balance, matrices, orientation, crop and shooting data,
 * for the visible area loaded as LAYOUT; DNG_CROP: a DNG's DefaultCrop in sensor coordinates
 * (lm_raw_dng_crop), or NULL. NULL, with ERROR naming PATH, where the file's
 * black level or colour filter is one the development cannot take, or its levels make no
 * sense (white at or below black). The preview is left to the caller. */
LmRawInfo *lm_raw_info_from_libraw (libraw_data_t *lr, LmRawLayout layout, const guint *dng_crop, const char *path,
                                    GError **error);

G_END_DECLS
