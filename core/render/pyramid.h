/* A photo's pyramid: the source, then halves of it by area averaging down to about a
 * screen's size, in the source's format (16 bits kept). The window's view of a large photo
 * renders the pipeline on the level just finer than the view's scale instead of the whole
 * photo, so that an edit costs about a screen's pixels whatever the photo's size. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

/* Photos of more pixels than this are viewed through a pyramid; smaller ones at full
 * resolution, as before (LUMEN_VIEW_PYRAMID_ABOVE, in pixels, changes it for tests). 2²⁶ (67 MP):
 * every camera of today up to 61 MP (and the 50 MP benchmark photo) keeps the exact view;
 * a render at that size holds 256 MB per step, a few steps and blur's scratch about 1 GB. */
#define LM_PYRAMID_ABOVE_PIXELS (G_GUINT64_CONSTANT (1) << 26)

/* The last level is the first whose longer side is at most this. */
#define LM_PYRAMID_TOP_SIDE 1024u

typedef struct _LmPyramid LmPyramid;

/* The threshold in pixels: LM_PYRAMID_ABOVE_PIXELS or the environment's. */
guint64 lm_pyramid_threshold (void);

/* Whether SOURCE is viewed through a pyramid: above the threshold, and of 8 or 16 bits
 * (radiance is tone mapped from the whole image's statistics). */
gboolean lm_pyramid_wanted (const LmImage *source);

/* The pyramid of SOURCE (host memory; the pyramid keeps a reference as level 0), its levels
 * in ALLOCATOR's memory. NULL and an error when memory runs out. */
LmPyramid *lm_pyramid_new (LmImage *source, const LmAllocator *allocator, GError **error);
void lm_pyramid_free (LmPyramid *pyramid);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmPyramid, lm_pyramid_free)

guint lm_pyramid_n_levels (const LmPyramid *pyramid);
/* Level K (0: the source); the pyramid owns it. */
LmImage *lm_pyramid_level (const LmPyramid *pyramid, guint k);
/* How many times smaller level K is than the source (its width's ratio). */
double lm_pyramid_factor (const LmPyramid *pyramid, guint k);
/* The bytes of the levels made (the source not counted). */
gsize lm_pyramid_bytes (const LmPyramid *pyramid);

/* What the view keeps of the levels from one edit to the next (level-view.c: equalize's
 * histogram of a level, which costs a pass over the whole level): one pointer, freed with
 * DESTROY when another replaces it or when the pyramid goes with its photo. */
void lm_pyramid_set_memo (LmPyramid *pyramid, gpointer memo, GDestroyNotify destroy);
gpointer lm_pyramid_get_memo (const LmPyramid *pyramid);

/* The coarsest level that still has at least SCALE pixels per source pixel (SCALE: the
 * view's pixels per source pixel): the level just finer than the view needs. */
guint lm_pyramid_pick (const LmPyramid *pyramid, double scale);

/* The finest level of at most MAX_PIXELS pixels (the last one when none is). */
guint lm_pyramid_pick_within (const LmPyramid *pyramid, guint64 max_pixels);

/* The half of SRC into DST (ceil (w/2) × ceil (h/2), same format): each pixel the rounded
 * mean of the 2×2 block it covers (2 or 1 pixels at an odd side's edge). */
void lm_pyramid_halve_cpu (const LmImage *src, LmImage *dst);

G_END_DECLS
