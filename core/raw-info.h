/* LmRawInfo: what a camera raw file says about its sensor data, as the raw loader
 * (core/io/raw.c, LibRaw) found it, for the development (core/raw) to use. Plain numbers,
 * refcounted and immutable once loaded: an image and its copies share one. Coordinates are
 * those of the loaded CFA16 image (the sensor's visible area), before any turn: the
 * development turns the result by ORIENTATION. */
#pragma once

#include <glib.h>

#include "image.h"

G_BEGIN_DECLS

typedef enum {
  LM_RAW_BAYER,  /* a 2×2 colour filter array */
  LM_RAW_XTRANS, /* Fujifilm's 6×6 array */
  LM_RAW_LINEAR, /* demosaiced camera RGB (DNG LinearRaw, sRAW): loaded as RGBA16 */
  LM_RAW_MONO,   /* no colour filter (monochrome DNG): loaded as GRAY16 */
} LmRawLayout;

/* Where the camera's colour matrix came from. */
typedef enum {
  LM_RAW_MATRIX_NONE,  /* none known: camera RGB is taken as the working space's */
  LM_RAW_MATRIX_DNG,   /* the file's ColorMatrix1/2 (and ForwardMatrix1/2) */
  LM_RAW_MATRIX_TABLE, /* LibRaw's table for the model (Adobe's coefficients, D65) */
} LmRawMatrixSource;

/* The periods the black level may repeat with: LibRaw's black blocks of up to 64 × 64 are
 * folded, with the per-colour terms, into one table whose period divides this. */
#define LM_RAW_BLACK_MAX 16

typedef struct _LmRawInfo {
  LmRawLayout layout;
  /* The colour of site (x, y) is cfa[y % cfa_h][x % cfa_w]: 0 R, 1 G, 2 B, 3 the second green
   * of a Bayer array (LibRaw's index; the demosaic folds it into 1, the levels keep it). */
  guint8 cfa_w, cfa_h;
  guint8 cfa[6][6];
  /* The black level of site (x, y): black[y % black_h][x % black_w], in sensor units. */
  guint8 black_w, black_h;
  float black[LM_RAW_BLACK_MAX][LM_RAW_BLACK_MAX];
  /* The white level per colour index (0..3), in sensor units; above it a site is clipped. */
  float white[4];
  /* The camera's white balance as shot and for daylight: multipliers of camera RGB per colour
   * index, green 1. All 0: the file gives none. */
  float as_shot[4];
  float daylight[4];
  /* XYZ to camera RGB under illuminant[i] (EXIF LightSource codes: 21 D65, 17 StdA, …): the
   * DNG ColorMatrix1/2, or LibRaw's table (one matrix, D65). n_matrices 0 with source NONE. */
  LmRawMatrixSource matrix_source;
  int n_matrices;
  float xyz_to_cam[2][3][3];
  guint16 illuminant[2];
  /* DNG ForwardMatrix1/2 (white-balanced camera RGB to XYZ D50), where has_forward. */
  gboolean has_forward;
  float forward[2][3][3];
  float analog_balance[3]; /* DNG AnalogBalance; 1 1 1 when absent */
  float baseline_exposure; /* DNG BaselineExposure in EV; 0 when absent */
  int orientation;         /* EXIF 1..8, applied after development */
  /* The area the camera maker means to be seen, in loaded coordinates; 0 × 0: all of it. */
  guint crop_x, crop_y, crop_w, crop_h;
  char *make, *model, *lens; /* NULL where unknown */
  float iso, exposure_s, f_number, focal_mm; /* 0 where unknown */
  gint64 timestamp;                          /* seconds since the epoch; 0 where unknown */
  GBytes *preview;                           /* the camera's embedded JPEG, or NULL */
  char *decoder;                             /* LibRaw's unpacker, for notes */

  /*< private >*/
  gint ref_count;
} LmRawInfo;

/* A zeroed LmRawInfo (orientation 1, analog balance 1) of one reference. */
LmRawInfo *lm_raw_info_new (void);
/* A new LmRawInfo of one reference with INFO's values (its strings and preview shared or
 * copied): what a loader changes before it hands the info out. */
LmRawInfo *lm_raw_info_copy (const LmRawInfo *info);
LmRawInfo *lm_raw_info_ref (LmRawInfo *info);
void lm_raw_info_unref (LmRawInfo *info);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmRawInfo, lm_raw_info_unref)

/* IMAGE is a camera's sensor data, still to be developed (core/raw/develop.h). */
static inline gboolean
lm_image_is_raw (const LmImage *image)
{
  return image->raw != NULL;
}

G_END_DECLS
