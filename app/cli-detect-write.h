/* lumen-cli detect's own output beyond core/astro/catalogue.h: the background map. */
#pragma once


#include "core/astro/detect.h"
#include "core/io/fits.h"

G_BEGIN_DECLS

/* RESULT's background map as a float32 FITS image at PATH (atomically), its noise map as
 * the extension NOISE, each with INFO's world coordinate cards so that they overlay the
 * image they came from. */
gboolean lm_cli_detect_write_background (const char *path, const LmDetectResult *result, const LmFitsInfo *info,
                                         GError **error);

G_END_DECLS
