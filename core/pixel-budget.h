/* The memory budget: how many pixels an image may have on this machine, so that a forged
 * header (a 35-byte GIF declaring 65535², a 2 KB EXR declaring 32768²) is refused before
 * anything of its size is allocated, with the size and the limit named.
 *
 * By default it follows the machine's memory (LM_PIXEL_BUDGET_BYTES per pixel: the source,
 * the float working copies and the result of a render); LUMEN_MAX_PIXELS (pixels, or with a
 * suffix M or G: megapixels, gigapixels) or the window's max-megapixels preference sets it. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LM_PIXEL_BUDGET_BYTES 32

/* The machine's physical memory in bytes, 0 where it cannot be told. */
guint64 lm_machine_memory_bytes (void);

/* The budget in pixels: at most LM_IMAGE_MAX_PIXELS. */
guint64 lm_pixel_budget (void);

/* A budget chosen by the user (the window's preference); 0 returns to LUMEN_MAX_PIXELS or
 * the machine's memory. */
void lm_pixel_budget_set (guint64 pixels);

/* Parses LUMEN_MAX_PIXELS's form: "250000000", "250M", "1.5G". FALSE when it is not one. */
gboolean lm_pixel_budget_parse (const char *text, guint64 *pixels);

/* The largest image file worth reading: every pixel of the budget at 16 bytes (four float
 * channels, the widest sample a reader takes) and 256 MiB for metadata and other pages. A
 * larger file can only hold an image the budget refuses, or something that is no image. */
guint64 lm_pixel_budget_file_bytes (void);

/* FALSE (LM_ERROR_TOO_LARGE, naming the size and the budget) when WIDTH × HEIGHT exceeds it. */
gboolean lm_pixel_budget_check (guint width, guint height, GError **error);

G_END_DECLS
