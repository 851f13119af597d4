/* Merging a stack: into linear radiance (Debevec, Robertson, with a camera response) or
 * into a fused display image (Mertens, no response). */
#pragma once

#include "response.h"

G_BEGIN_DECLS

typedef enum {
  LM_HDR_DEBEVEC,
  LM_HDR_ROBERTSON,
  LM_HDR_MERTENS,
  LM_HDR_LINEAR, /* 16-bit exposures taken as linear data (merge-math.h); never asked for by
                  * name: the job chooses it in place of Debevec or Robertson for them */
} LmHdrMethod;

gboolean lm_hdr_method_parse (const char *text, LmHdrMethod *method);
const char *lm_hdr_method_name (LmHdrMethod method);

/* Mertens et al. (2007): the exponents of the three quality measures, all 1 as the paper
 * (OpenCV's createMergeMertens() defaults exposedness to 0; its tests here pass 1, 1, 1). */
typedef struct {
  float contrast, saturation, exposedness;
} LmMertensParams;

#define LM_MERTENS_PARAMS_INIT { .contrast = 1.0f, .saturation = 1.0f, .exposedness = 1.0f }

/* What a backend's merge needs besides the images: the method, the response for the
 * radiance methods, and the optional normalised gamma correction afterwards. */
typedef struct {
  LmHdrMethod method;
  LmResponse response;    /* Debevec, Robertson */
  LmMertensParams mertens;
  float gamma_correction; /* > 0: x ↦ (x / max)^γ · max after the merge; 0: none */
} LmHdrMergeParams;

/* CPU references. OUT: RGBA_F32, the stack's size, alpha 1. */

/* Each pixel exp(Σ w·(ln f⁻¹(z) − ln t) / Σ w), with one triangle weight per pixel (the mean
 * of its channels'), as OpenCV's MergeDebevec, but over the exposures where no channel is
 * clipped (outside merge-math.h's measured levels); LmDebevecSums says what a pixel without
 * one gets. */
gboolean lm_hdr_merge_debevec (const LmHdrStack *stack, const LmResponse *response, LmImage *out,
                               GError **error);
/* Σ w(z)·t·f⁻¹(z) / Σ w(z)·t², Robertson's Gaussian-like weights, as OpenCV's MergeRobertson,
 * over the measured levels (merge-math.h); a channel with none takes lm_hdr_clip_value where
 * OpenCV's is 0. */
gboolean lm_hdr_merge_robertson (const LmHdrStack *stack, const LmResponse *response, LmImage *out,
                                 GError **error);
/* The linear merge of 16-bit (RGBA16 or GRAY16) exposures, merge-math.h's definition. */
gboolean lm_hdr_merge_linear (const LmHdrStack *stack, LmImage *out, GError **error);
/* Exposure fusion into a display-referred 0..1 (roughly) image, as OpenCV's MergeMertens. */
gboolean lm_hdr_fuse_mertens (const LmHdrStack *stack, const LmMertensParams *params, LmImage *out,
                              GError **error);

/* Whether STACK's depth suits METHOD: 16-bit exposures for the linear merge, 8-bit ones for
 * the others (every backend's merge checks it). */
gboolean lm_hdr_merge_check_depth (LmHdrMethod method, const LmHdrStack *stack, GError **error);

/* PARAMS' method, then its gamma correction, on the CPU. */
gboolean lm_hdr_merge_cpu (const LmHdrMergeParams *params, const LmHdrStack *stack, LmImage *out,
                           GError **error);

G_END_DECLS
