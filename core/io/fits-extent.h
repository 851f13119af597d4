/* Where the HDUs of a FITS file lie, from their headers alone: 2880-byte blocks of 80-byte
 * cards up to END, then the data that BITPIX, NAXIS, NAXISn, PCOUNT and GCOUNT declare. The
 * loader (fits.c) checks with it that every HDU up to the one it reads is whole before cfitsio
 * reads any data: cfitsio's memory driver takes a header's word for where the data ends and
 * reads there, past the end of the caller's bytes. The walker also refuses the headers that
 * cfitsio cannot read safely (fits-extent.c says which), since cfitsio reads each header it
 * passes on its way to the HDU asked for. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LM_FITS_BLOCK 2880

typedef struct {
  guint index;           /* 1-based, as cfitsio numbers HDUs: 1 is the primary */
  guint64 start;         /* its first card */
  guint64 data_start;    /* the block after its END card */
  guint64 data_bytes;    /* |BITPIX|/8 × GCOUNT × (PCOUNT + NAXIS1 × … × NAXISn), padding excluded */
  guint64 end;           /* the data rounded up to whole blocks: where the next HDU begins */
  gboolean image;        /* an image of two axes or more: the kind the loader takes when no
                          * HDU is named */
  guint64 width, height; /* the image's first two axes, when IMAGE */
} LmFitsHdu;

typedef enum {
  LM_FITS_HDU_READ,    /* HDU holds its header's figures; its data may still be missing */
  LM_FITS_HDU_NONE,    /* no HDU begins there: the end of the bytes, or bytes that are not one */
  LM_FITS_HDU_CUT,     /* the bytes end before its END card */
  LM_FITS_HDU_REFUSED, /* its header does not say how much data follows, or says what cfitsio
                        * cannot read (ERROR says why) */
} LmFitsHduStatus;

/* The header of the INDEX-th HDU, which begins at OFFSET of the LEN bytes of DATA (a file
 * mapped into memory, of which the walker reads the headers only). Messages name PATH. */
LmFitsHduStatus lm_fits_hdu_read (const guint8 *data, gsize len, guint64 offset, guint index, const char *path,
                                  LmFitsHdu *hdu, GError **error);

/* FALSE (LM_ERROR_TOO_LARGE, naming PATH) when HDU is an image beyond the pixel budget: a
 * refusal before its data is inflated or copied. */
gboolean lm_fits_hdu_within_budget (const LmFitsHdu *hdu, const char *path, GError **error);

/* The walk's goal: HDU n (1-based), or one of these. */
#define LM_FITS_FIRST_IMAGE 0u       /* the first HDU that is an image (LmFitsHdu.image) */
#define LM_FITS_EVERY_HDU G_MAXUINT /* all of them, to the end of the file's HDUs */

typedef struct {
  GArray *hdus;   /* LmFitsHdu: the HDUs found whole (header and data), in order */
  gboolean found; /* the last of them is the goal */
  guint64 end;    /* where the last of them ends, padding included (it may be past the bytes'
                   * end when only the padding is missing), or 0 */
  GError *stop;   /* why the walk stopped before the goal and before the end of the HDUs: an
                   * HDU cut short, a damaged header or one cfitsio cannot read; NULL
                   * otherwise */
} LmFitsWalk;

/* Walks the HDUs of the LEN bytes of DATA from the first until GOAL is found whole, or the
 * HDUs end (no HDU follows the last whole one), or one of them is cut short or refused
 * (WALK->stop). Clear WALK with lm_fits_walk_clear. */
void lm_fits_walk (const guint8 *data, gsize len, guint goal, const char *path, LmFitsWalk *walk);
void lm_fits_walk_clear (LmFitsWalk *walk);

/* The HDU of INDEX among those WALK found whole, or NULL. */
const LmFitsHdu *lm_fits_walk_hdu (const LmFitsWalk *walk, guint index);

G_END_DECLS
