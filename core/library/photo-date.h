/* When a photo was taken, for sorting a folder by date: the EXIF DateTimeOriginal of a JPEG
 * or a TIFF-structured file (TIFF, and the raws built on TIFF), or what LibRaw reads from
 * another raw's container. Only the metadata is read: the file is mapped, and the pages of
 * its pixels are never touched. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The moment PHOTO was taken, in seconds since 1970-01-01 UTC, into *UNIX_SECONDS. EXIF's
 * DateTimeOriginal (DateTimeDigitized where it lacks one) is read in the zone of its
 * OffsetTimeOriginal (OffsetTimeDigitized) when the file states one, else as local time, as
 * cameras keep their clocks; a raw without EXIF the same way through LibRaw.
 * FALSE without ERROR when PHOTO states no usable date (none, blank, out of range, metadata
 * that cannot be parsed, a type that carries none here: PNG, WebP, …): the caller falls back
 * to the file's mtime. FALSE with ERROR, naming PHOTO, only when the file cannot be read
 * (missing, a folder, not a regular file, unreadable). */
gboolean lm_photo_date_taken (const char *photo, gint64 *unix_seconds, GError **error);

/* The same from an EXIF block as LmImage.exif holds it ("Exif\0\0" and the TIFF structure),
 * or from a JPEG file's first bytes (libexif finds its APP1): FALSE where it states no
 * usable date. */
gboolean lm_photo_date_from_exif (const guint8 *data, gsize len, gint64 *unix_seconds);

G_END_DECLS
