/* A profile made with lcms2 as the bytes Lumen embeds: stamped with a fixed creation date
 * instead of the time it was made, so that every export of a photo is the same bytes, whenever
 * and by whichever writer it was made. */
#pragma once

#include <glib.h>
#include <lcms2.h>

G_BEGIN_DECLS

/* PROFILE's bytes with the creation date YEAR-MONTH-DAY (the standard's that defines it); NULL
 * when lcms2 cannot write it. */
GBytes *lm_icc_profile_bytes (cmsHPROFILE profile, guint16 year, guint16 month, guint16 day);

G_END_DECLS
