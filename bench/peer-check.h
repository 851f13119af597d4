// The checks of the standalone programs that time a peer library on the GPU machine
// (npp-geometry.cu, nvjpeg-rate.cu): a failed call ends the program with its line, as a
// benchmark has nothing to fall back to. Each defines PEER_NAME before including this.
#pragma once

#include <cstdio>
#include <cstdlib>

#define PEER_FAIL(what, code)                                                                      \
  do                                                                                               \
    {                                                                                              \
      std::printf ("%s: %s at line %d\n", PEER_NAME, (what), __LINE__);                            \
      std::exit (code);                                                                            \
    }                                                                                              \
  while (0)

#define CK(x)                                                                                      \
  do                                                                                               \
    {                                                                                              \
      cudaError_t e_ = (x);                                                                        \
      if (e_ != cudaSuccess)                                                                       \
        PEER_FAIL (cudaGetErrorString (e_), 1);                                                    \
    }                                                                                              \
  while (0)
