/* Opaque RGBA8 rows packed to RGB8 and back: an operation that computes every channel can
 * leave out the alpha of a photo that has none (a quarter of its work). */
#pragma once

#include <glib.h>

/* WIDTH pixels of IN (RGBA) into OUT (RGB), which has 8 bytes of slack past 3 WIDTH. */
void lm_rgba_row_to_rgb (const guint8 *in, guint8 *out, gsize width);

/* WIDTH pixels of IN (RGB, with 8 bytes of slack past 3 WIDTH that are read) into OUT (RGBA),
 * alpha 255. */
void lm_rgb_row_to_rgba (const guint8 *in, guint8 *out, gsize width);
