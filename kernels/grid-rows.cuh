// Grids whose y dimension walks image rows. The hardware allows at most 65,535 blocks in y and a
// photo may have more rows (a 1 × 70000 strip, a tall panorama): such a grid holds at most that
// many, and each block strides down the image by gridDim.y (LM_FOR_ROWS). Byte offsets of rows
// are size_t: row × stride passes 2³¹ on large images.
#pragma once

#include <cuda_runtime.h>

constexpr unsigned kLmMaxGridRows = 65535;

// COLUMNS blocks across, one block row per image row up to the hardware's limit.
static inline dim3
lm_rows_grid (unsigned columns, unsigned rows)
{
  return dim3 (columns ? columns : 1, rows == 0 ? 1 : rows < kLmMaxGridRows ? rows : kLmMaxGridRows);
}

// Visits rows blockIdx.y, blockIdx.y + gridDim.y, … below HEIGHT, as Y (size_t).
#define LM_FOR_ROWS(row, height) for (size_t row = blockIdx.y; row < (size_t) (height); row += gridDim.y)

// Where a kernel takes one row a block (blockIdx.y) and is better left as it is: LAUNCH
// (first_row, rows) for bands of at most kLmMaxGridRows rows, the caller offsetting its
// pointers by first_row × stride. A few launches more on very tall images only.
template <typename Launch>
static inline void
lm_for_row_bands (unsigned height, Launch launch)
{
  for (unsigned y0 = 0; y0 < height; y0 += kLmMaxGridRows)
    launch (y0, height - y0 < kLmMaxGridRows ? height - y0 : kLmMaxGridRows);
}
