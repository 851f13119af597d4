/* Telling a camera raw file from its bytes, and from its name where only the name is there
 * (a file chooser's filter, a folder of brackets). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether the LEN bytes (the whole file, or its first ones) are a camera raw: a maker's magic
 * number (ORF, RW2, RAF, CR3, CRW, MRW, X3F, CR2), or a TIFF whose first IFDs hold DNGVersion
 * or sensor data (PhotometricInterpretation CFA or LinearRaw: DNG, NEF, ARW, PEF, SRW, …).
 * Reads at most a few IFDs, every offset checked against LEN. Any other TIFF is no raw. */
gboolean lm_raw_sniff (const guint8 *data, gsize len);

/* Whether the LEN bytes at DATA, a TIFF-structured raw (TIFF's header, or ORF's or RW2's), have
 * an IFD among the first ones that begins in the file but whose entries run past its end, or
 * whose CFAPattern has another number of sites than its CFARepeatPatternDim: LibRaw 0.20.2
 * crashes on some of both (found by fuzz-raw), so they are refused before it reads them. */
gboolean lm_raw_ifds_damaged (const guint8 *data, gsize len);

/* A DNG's DefaultCropOrigin and DefaultCropSize (x, y, width, height), in the coordinates of
 * its whole sensor (ActiveArea's corner added), from the IFD of its sensor data; FALSE where
 * the LEN bytes at DATA state none. LibRaw 0.20 reads these without telling them. */
gboolean lm_raw_dng_crop (const guint8 *data, gsize len, guint crop[4]);

/* The names raw files end in, NULL-terminated (".dng", ".cr2", …), and the MIME types
 * shared-mime-info gives them ("image/x-adobe-dng", …). */
extern const char *const lm_raw_suffixes[];
extern const char *const lm_raw_mime_types[];

/* Whether NAME ends in one of lm_raw_suffixes, in any case. */
gboolean lm_raw_has_suffix (const char *name);

G_END_DECLS
