/* The raw development: a camera's sensor data (CFA16, or RGBA16/GRAY16 camera RGB for the
 * demosaic-free layouts, with image->raw) into RGBA_F32 scene light in linear Rec. 2020
 * (D65): 1.0 is the sensor's white level of green after white balance, before the exposure
 * below. It is the pipeline's first stage for a raw source, described like an operation
 * (lm_raw_op_info: the sidecar's [raw] group, the window's panel, lumen-cli's --raw-* flags),
 * and is followed by the display transform (tone mapping) as an HDR merge's radiance is.
 *
 * Its steps: black subtraction and scaling, white balance and the highlights (core/raw/prep.h),
 * the demosaic (core/raw/demosaic.h, demosaic-xtrans.h) and its refinement (demosaic-refine.h),
 * and the camera → Rec. 2020 matrix with the exposure's gain (core/raw/camera-color.h). Each backend runs them (lm_backend_develop_raw);
 * this file holds what they share and the CPU reference. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "../ops/op.h"
#include "../ops/param-decl.h"
#include "../ops/raw-prep-math.h"
#include "../raw-info.h"

G_BEGIN_DECLS

typedef enum {
  LM_RAW_DEMOSAIC_AUTO,         /* RCD for Bayer sensors, Markesteijn's 3 passes for X-Trans */
  LM_RAW_DEMOSAIC_RCD,          /* Bayer only (X-Trans: Markesteijn 3) */
  LM_RAW_DEMOSAIC_MARKESTEIJN3, /* X-Trans only (Bayer: RCD) */
  LM_RAW_DEMOSAIC_MARKESTEIJN1, /* X-Trans only (Bayer: RCD) */
  LM_RAW_DEMOSAIC_BILINEAR,     /* Bayer only, for comparison (X-Trans: Markesteijn 1) */
} LmRawDemosaic;

/* The raw stage's parameters, declared once (core/ops/param-decl.h). wb picks how the white
 * balance is found (camera-color.h's LmRawWbMode, in its order); temperature and tint name the
 * light for wb=temperature (tint as the WB operation's: positive towards magenta); red and
 * blue are camera RGB's gains for wb=custom, green's being 1 (the gray picker writes them).
 * exposure is a gain in stops on scene light, before the display transform. */
#define LM_RAW_PARAMS(P)                                                                           \
  P (ENUM, wb, N_("White balance"), 0, 3, 0, 1, NULL, .values = raw_wb_modes)                      \
  P (FLOAT, temperature, N_("Temperature (K)"), 2000, 12000, 5000, 10, "K", .when = "wb=temperature") \
  P (FLOAT, tint, N_("Tint"), -100, 100, 0, 1, NULL, .when = "wb=temperature")                    \
  P (FLOAT, red, N_("Red gain"), 0.1, 10, 2, 0.001, NULL, .when = "wb=custom")                     \
  P (FLOAT, blue, N_("Blue gain"), 0.1, 10, 1.5, 0.001, NULL, .when = "wb=custom")                 \
  P (ENUM, highlights, N_("Highlights"), 0, 1, LM_RAW_HIGHLIGHTS_RECONSTRUCT, 1, NULL,             \
     .values = raw_highlight_modes)                                                                \
  P (ENUM, demosaic, N_("Demosaic"), 0, 4, LM_RAW_DEMOSAIC_AUTO, 1, NULL, .values = raw_demosaic_methods) \
  P (FLOAT, exposure, N_("Exposure"), -5, 5, 0, 0.01, "EV")

typedef struct {
  LM_RAW_PARAMS (LM_PARAM_FIELD)
} LmRawParams;

/* The raw stage described like an operation, not in the operations' registry: its id is
 * LM_N_OPS + 1 (tone mapping's is LM_N_OPS). */
const LmOpInfo *lm_raw_op_info (void);

/* What one development of a source with INFO under PARAMS computes on the host, for either
 * backend: the prepared-plane step, the method, the matrix. */
typedef struct {
  LmRawPrep prep;
  LmCfa cfa;               /* the pattern the demosaic reads (second green folded by it) */
  LmRawDemosaic method;    /* resolved for the layout: never AUTO */
  float mul[4];            /* white-balance multipliers per colour index, green 1 */
  float matrix[3][3];      /* white-balanced camera RGB → linear Rec. 2020, × 2^exposure */
  float cam_to_xyz[3][3];  /* white-balanced camera RGB → XYZ, for X-Trans's Lab */
} LmRawSetup;

void lm_raw_setup (const LmRawParams *params, const LmRawInfo *info, LmRawSetup *setup);

/* SRC (CFA16, or RGBA16/GRAY16 for LINEAR/MONO layouts) of INFO into OUT (RGBA_F32, the same
 * size) on the CPU. */
gboolean lm_raw_develop_cpu (const LmRawParams *params, const LmRawInfo *info, const LmImage *src, LmImage *out,
                             GError **error);

G_END_DECLS
