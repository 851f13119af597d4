/* Where a tile lies in the whole image: the hidden field that lets an operation whose result
 * depends on the absolute position (straighten, resize, crop, blur's grid) compute, on a
 * piece of its input, exactly the pixels the whole render computes there. Shared by gcc and
 * nvcc. Not a parameter: no sidecar key, no flag; all zero (the default) means the input is
 * the whole image and the output all of the result. */
#pragma once

#include "pixel-math.h"

typedef struct {
  unsigned full_w, full_h; /* the whole input's size; 0: no tile */
  unsigned in_x, in_y;     /* where the tile's input lies in the whole input */
  unsigned out_x, out_y;   /* where the tile's output lies in the whole output */
  unsigned out_w, out_h;   /* the tile's output size */
} LmTileFrame;

/* Whether FRAME describes a tile (else: the whole image). */
LM_INLINE int
lm_tile_frame_active (const LmTileFrame *frame)
{
  return frame->full_w != 0;
}
