/* FITS images through cfitsio: 2-D images of BITPIX 8, 16, 32, 64, −32, −64 with BSCALE and
 * BZERO applied, into LM_FORMAT_GRAY_F32 with NaN for blank pixels (BLANK, or NaN in float
 * data). Rows are stored as FITS stores them, the first row (y = 0) first: a viewer that wants
 * north up shows the last row at the top (LmFitsInfo.flip_view). */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

typedef struct {
  char *path;       /* the file, without the HDU part of the name */
  int hdu;          /* 1-based HDU number read (cfitsio's numbering: 1 is the primary) */
  int bitpix;       /* as stored: 8, 16, 32, 64, -32, -64 */
  double bscale, bzero;
  gboolean flip_view;  /* TRUE: show row 0 at the bottom, as astronomers expect */
  char **cards;     /* the HDU's header, one 80-column card a string, NULL-terminated */
  guint64 n_blank;  /* pixels read as NaN */
} LmFitsInfo;

void lm_fits_info_free (LmFitsInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmFitsInfo, lm_fits_info_free)

/* TRUE when the first bytes of a file say FITS ("SIMPLE  =" in the first card). */
gboolean lm_fits_sniff (const guint8 *head, gsize len);

/* Reads SPEC, a file name with an optional HDU after it as cfitsio writes it ("a.fits[2]",
 * "a.fits[SCI]"); without one, the first HDU that holds a 2-D image. The file may be
 * gzip-compressed (inflated within the pixel budget; cfitsio's filters and image sections,
 * "a.fits[*,*,1]", are for plain files only). Every HDU up to the one read must be whole:
 * a file shorter than its headers declare is refused as truncated before any of it is read
 * as pixels. The image is allocated with ALLOCATOR (NULL: plain host memory). Errors name
 * the file and the cause. */
LmImage *lm_fits_load (const char *spec, const LmAllocator *allocator, LmFitsInfo **info,
                       GError **error);

/* As lm_fits_load, from the LEN bytes of a file already in memory (the common loader's way,
 * core/io/io.c), plain or gzip-compressed: the first HDU that holds a 2-D image; PATH names
 * the file in messages and in INFO. DATA must stay valid for the call only. */
LmImage *lm_fits_load_memory (const char *path, const guint8 *data, gsize len,
                              const LmAllocator *allocator, LmFitsInfo **info, GError **error);

G_END_DECLS
