/* Radiance RGBE images (LM_FORMAT_RGBE8): the conversion from radiance on the CPU and the
 * writer of .hdr files from already converted pixels, both in core/io/radiance.c. The batch
 * converts on its backend (lm_backend_rgbe_encode), brings back 4 bytes a pixel and writes
 * them here; `lumen-cli hdr` converts on the CPU with the same per-pixel rule
 * (rgbe-math.h) and writes through the same run-length encoder, so both give equal bytes. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* RADIANCE (RGBA_F32) to OUT (RGBE8, same size), both in host memory (OpenMP). */
void lm_rgbe_encode_cpu (const LmImage *radiance, LmImage *out);

/* RGBE (RGBE8, host memory) written to PATH as a Radiance .hdr file with run-length encoded
 * scanlines, atomically: PATH appears complete or not at all. */
gboolean lm_rgbe_save (const LmImage *rgbe, const char *path, GError **error);

/* The whole .hdr file of RGBE (RGBE8, or RGBA_F32 radiance converted on the way) as
 * lm_rgbe_save writes it, in memory, encoded on the calling thread alone; PATH names the
 * file in errors. For writers that write many files at once. */
GBytes *lm_rgbe_encode_file (const LmImage *rgbe, const char *path, GError **error);

G_END_DECLS
