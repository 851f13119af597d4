/* Camera raw files through LibRaw (raw.c): the sensor data as LibRaw unpacks it, undeveloped,
 * with what the file says about it in an LmRawInfo (core/raw-info.h). */
#pragma once

#include <glib.h>

#include "../raw-info.h"

G_BEGIN_DECLS

/* The exposure time in seconds the camera raw at PATH states, read without decoding its
 * sensor data: how a bracket of raws gets its times. */
gboolean lm_raw_exposure_time (const char *path, double *seconds, GError **error);

/* When the camera raw of LEN bytes at DATA (PATH, for messages) was taken, as LibRaw reads its
 * metadata without unpacking the sensor data: seconds since 1970, the camera's clock taken as
 * local time (LibRaw's mktime); 0 where it states none. FALSE where LibRaw cannot open it. */
gboolean lm_raw_date_taken (const char *path, const guint8 *data, gsize len, gint64 *unix_seconds, GError **error);

/* An EXIF block (as LmImage.exif holds it) for an image developed from INFO's raw: Make, Model,
 * DateTimeOriginal, ExposureTime, FNumber, ISO, FocalLength, LensModel where known, and
 * Orientation 1, the development turning the pixels. NULL when libexif saves nothing. */
GBytes *lm_raw_exif_block (const LmRawInfo *info);

/* Whether PATH names a file a raw's developed scene (linear Rec. 2020) can be written to: an
 * OpenEXR, whose header says its primaries; a Radiance .hdr cannot, and would be read as
 * Rec. 709. ERROR names PATH. */
gboolean lm_raw_scene_output_check (const char *path, GError **error);

G_END_DECLS
