/* Raw brackets merged in linear light, for the HDR job (job.h): each frame developed to scene
 * light (core/raw/develop.h) with one set of raw parameters, then merged into radiance in
 * the reference exposure's scale by raw-merge-math.h's weights, with no camera response. The
 * result is what a developed raw is, RGBA_F32 linear Rec. 2020, and is tone mapped and
 * exported as one.
 *
 * The frames are added one at a time (lm_raw_merge_add), so that a merge holds two images of
 * the result's size besides the frame being added, whatever the number of frames. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "../raw/develop.h"

G_BEGIN_DECLS

/* The reference of N exposures of TIMES: the middle one by time (the lower middle of an even
 * count), a bracket's 0 EV frame. The merge's white balance is its as-shot one, and its
 * radiance is in its scale. */
guint lm_raw_brackets_reference (const double *times, guint n);

/* The raw parameters every frame is developed with: the white balance of REFERENCE as shot
 * (as gains, so that every frame gets the same ones; daylight where the file has none), the
 * default demosaic, highlights clipped (the merge replaces clipped pixels from the shorter
 * exposures; a reconstruction would be mistaken for a measure), exposure 0. */
void lm_raw_brackets_params (const LmRawInfo *reference, LmRawParams *params);

/* Whether the raw at PATH (INFO) can join a bracket whose first raw is FIRST_PATH
 * (FIRST_INFO): the same camera (make, model, sensor layout and pattern), so that one white
 * balance means the same light in both. The message names both files. */
gboolean lm_raw_brackets_check_camera (const char *path, const LmRawInfo *info, const char *first_path,
                                       const LmRawInfo *first_info, GError **error);

typedef struct _LmRawMerge LmRawMerge;

/* A merge of N frames of WIDTH × HEIGHT, exposed for TIMES (seconds, distinct), in the scale
 * of frame REFERENCE. Its sums are in host memory. */
LmRawMerge *lm_raw_merge_new (guint width, guint height, const double *times, guint n, guint reference,
                              GError **error);
void lm_raw_merge_free (LmRawMerge *merge);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmRawMerge, lm_raw_merge_free)

/* Adds frame I: RAW, its sensor data as loaded (host memory, with its LmRawInfo), read for
 * its saturation; SCENE, its development under PARAMS (RGBA_F32, host memory, RAW's size). */
gboolean lm_raw_merge_add (LmRawMerge *merge, guint i, const LmRawParams *params, const LmImage *raw,
                           const LmImage *scene, GError **error);

/* The radiance (RGBA_F32, host memory, alpha 1) once every frame was added, tagged linear
 * Rec. 2020; the merge is spent. */
LmImage *lm_raw_merge_finish (LmRawMerge *merge);

/* The saturation raw-merge-math.h weighs a pixel by, for each pixel of RAW under PARAMS
 * (SAT: RAW's width × height floats, rows packed): the largest balanced value over the clip
 * level among the sites the demosaic reads for it. */
gboolean lm_raw_merge_saturation (const LmRawParams *params, const LmImage *raw, float *sat, GError **error);

G_END_DECLS
