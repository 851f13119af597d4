/* IPTC-IIM as Photoshop keeps it: image resource blocks ("8BIM", a resource ID, a padded
 * Pascal name, a size, the data padded to even), which a JPEG carries in APP13 segments after
 * "Photoshop 3.0\0" and a TIFF in tag 34377; the IIM records themselves are resource 0x0404,
 * which a TIFF carries alone in tag 33723 (IPTC/NAA). LmImage.iptc holds the blocks. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LM_IPTC_APP13_HEADER "Photoshop 3.0"
#define LM_IPTC_APP13_HEADER_LEN 14 /* with its NUL */

/* The resource blocks of DATA (LEN bytes) worth carrying to an export: the well-formed
 * blocks up to the first that is not, less the thumbnails (they show the unedited photo) and
 * the ICC profile (LmImage.icc_profile carries it). NULL when none is left. */
GBytes *lm_iptc_from_resources (const guint8 *data, gsize len);

/* The IIM records (resource 0x0404's data) of BLOCKS; NULL when there are none. */
GBytes *lm_iptc_records (GBytes *blocks);

/* RECORDS (IIM, as TIFF's tag 33723 holds them) as one resource block 0x0404. */
GBytes *lm_iptc_blocks_from_records (const guint8 *records, gsize len);

/* BLOCKS as the payloads of the APP13 segments a JPEG holds them in, each at most MAX bytes
 * (header included): a GPtrArray of GBytes, in order. Empty when BLOCKS is NULL. */
GPtrArray *lm_iptc_app13_payloads (GBytes *blocks, gsize max);

G_END_DECLS
