/* An exposure as Merge HDR's table shows it (hdr-dialog.c): read through Lumen's loader, as
 * the merge will load it, within its bounds (the pixel budget, JPEG's scans, PNG's text
 * chunks), checked as one of a stack, with its EXIF time and a thumbnail. A large photo takes
 * a while: the dialog reads on a thread. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
  guint width, height;
  double seconds;        /* EXIF's ExposureTime; 0 when it gives none */
  GdkPixbuf *thumbnail;  /* within the box asked for, never enlarged */
} LmHdrExposure;

void lm_hdr_exposure_free (LmHdrExposure *x);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmHdrExposure, lm_hdr_exposure_free)

/* The exposure at PATH, its thumbnail within BOX_WIDTH × BOX_HEIGHT; NULL with the loader's
 * or the stack check's error, which names PATH. Reads the whole file: not on the main
 * thread. */
LmHdrExposure *lm_hdr_exposure_read (const char *path, guint box_width, guint box_height, GError **error);

G_END_DECLS
