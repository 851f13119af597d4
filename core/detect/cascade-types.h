/* The model of cascade.h as plain C types, without GLib, so that the CPU reference
 * (cascade-math.h) and device code share one definition. */
#pragma once

#include <stdint.h>

typedef enum {
  LM_CASCADE_HAAR,
  LM_CASCADE_LBP,
} LmCascadeKind;

/* The largest model accepted: opencv-data's largest has 47 stages of 8,468 stumps in a
 * 24 × 24 window; these bounds are far past it and keep a hostile file's cost small. */
#define LM_CASCADE_MAX_WINDOW   1024
#define LM_CASCADE_MAX_FILE     ((uint64_t) 64 << 20)
#define LM_CASCADE_HAAR_RECTS   3
#define LM_CASCADE_LBP_WORDS    8 /* 256 categories, a bit each */

typedef struct {
  int x, y, width, height;
  float weight;
} LmHaarRect;

typedef struct {
  LmHaarRect rect[LM_CASCADE_HAAR_RECTS]; /* unused ones have weight 0 */
  int n_rects;
  int tilted; /* rectangles turned 45°, summed over the tilted integral */
} LmHaarFeature;

/* A 3 × 3 grid of blocks of width × height whose top-left block starts at x, y. */
typedef struct {
  int x, y, width, height;
} LmLbpFeature;

/* A tree of one split. Haar: the feature's normalised value below threshold gives left.
 * LBP: the block code's bit set in the stump's subset gives left. */
typedef struct {
  int feature;
  float threshold;
  float left, right;
} LmCascadeStump;

typedef struct {
  unsigned first, n_stumps;
  float threshold; /* as OpenCV keeps it: the file's value as float, less 1e-5f */
} LmCascadeStage;

typedef struct {
  LmCascadeKind kind;
  int window_width, window_height;
  unsigned n_stages, n_stumps, n_features;
  LmCascadeStage *stages;
  LmCascadeStump *stumps;
  uint32_t *subsets;      /* LBP: LM_CASCADE_LBP_WORDS words per stump; NULL for Haar */
  LmHaarFeature *haar;    /* n_features of them for Haar, else NULL */
  LmLbpFeature *lbp;      /* n_features of them for LBP, else NULL */
  int has_tilted;
} LmCascade;

