/* A camera's colour, from what its raw file says (core/raw-info.h): the white balance
 * multipliers of a choice (as shot, daylight, a temperature and tint, a picked gray) and their
 * inverse, and the matrices from white-balanced camera RGB to the working space.
 *
 * Temperature and tint name a light as Adobe's DNG specification (chapter 6) does: its
 * chromaticity is the daylight locus from 4000 K and the Planckian locus below (the loci of
 * the sRGB white balance, core/ops/wb.h), moved by tint / 3000 in CIE 1960 uv along the
 * locus's normal, towards green for a positive tint (the image then turns magenta, as in
 * Lightroom). The camera's neutral for that light is its XYZ through the camera's matrix,
 * ColorMatrix1/2 interpolated in 1/T between their illuminants; the multipliers are the
 * inverse of the neutral, green 1. */
#pragma once

#include "core/raw-info.h"

G_BEGIN_DECLS

typedef enum { LM_RAW_WB_AS_SHOT, LM_RAW_WB_DAYLIGHT, LM_RAW_WB_TEMPERATURE, LM_RAW_WB_CUSTOM } LmRawWbMode;

/* MUL (per colour index, green 1, the second green's equal to the first's where the file
 * gives none) for MODE: AS_SHOT the file's, else its daylight's, else the matrix's D65
 * neutral; DAYLIGHT the file's daylight, else the D65 neutral; TEMPERATURE the neutral of
 * TEMPERATURE (K) and TINT; CUSTOM the multipliers CUSTOM (R, G, B), scaled to green 1 (as
 * shot where one is not positive).
 * Without a matrix, camera RGB is taken as linear Rec. 2020. */
void lm_raw_wb_multipliers (const LmRawInfo *info, LmRawWbMode mode, double temperature, double tint,
                            const float custom[3], float mul[4]);

/* The temperature and tint whose multipliers are MUL: what the window shows for "as shot" and
 * the gray picker's result (1667 .. 25000 K). */
void lm_raw_wb_temperature_of (const LmRawInfo *info, const float mul[4], double *temperature, double *tint);

/* The gray picker: MUL that make CAMERA_RGB (camera RGB before any white balance, a patch's
 * mean) neutral; the as-shot multipliers where a channel is not positive. */
void lm_raw_wb_from_gray (const LmRawInfo *info, const float camera_rgb[3], float mul[4]);

/* M: camera RGB balanced by MUL to linear Rec. 2020 (D65), camera (1, 1, 1) to (1, 1, 1): the
 * balance is the adaptation, balanced white becomes D65's. Through ForwardMatrix where the
 * file has one (interpolated for the balance's temperature, D50, Bradford to D65), else the
 * inverse of ColorMatrix so interpolated; the identity without a matrix. */
void lm_raw_camera_to_rec2020 (const LmRawInfo *info, const float mul[4], float m[3][3]);

/* The same to CIE XYZ (D65, white's Y 1), for the X-Trans demosaic's Lab. */
void lm_raw_camera_to_xyz (const LmRawInfo *info, const float mul[4], float m[3][3]);

G_END_DECLS
