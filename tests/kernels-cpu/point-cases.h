// The fused point pass's cases, shared by its kernel test on the CPU (test-point-emulated.cpp,
// through cuda-emu.h) and on the device (tests/gpu/test-point-tables.cpp): lm_k_point against
// lm_point_rgba, the CPU's pixel, byte for byte. The kernel made for the curve and saturation
// parts (its copy of the curve's nodes, its branch-free scaling, the pair's one gain, its row
// loop) and the general one (with colormix), on tables that reach what the parts' branches
// and ranges turn on (negative and zero lumas, values past 255, tiny values near the ranges'
// ends, the tables' bound of ±2^24), on random curves, with rows not a multiple of the four
// pixels a thread takes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/kernels.h"

static float
table_value (std::mt19937 &rng, int i)
{
  switch (rng () % 9)
    {
    case 0:
      return (float) i; // identity: grays, lumas exactly at whole levels
    case 1:
      return std::ldexp ((float) (rng () % 5) - 2.0f, -(int) (rng () % 60)); // near 0, either sign
    case 2:
      return (float) (rng () % 400) - 60.0f;
    case 3:
      return std::ldexp (1.0f, (int) (rng () % 25)) * (rng () % 2 ? 1.0f : -1.0f); // up to ±2^24, the tables' bound
    default:
      return std::uniform_real_distribution<float> (-20.0f, 300.0f) (rng);
    }
}

// A curve's nodes as lm_curve_luma_nodes makes them, from random values at the whole levels.
static void
random_nodes (std::mt19937 &rng, float (*node)[2])
{
  std::uniform_real_distribution<float> value (-10.0f, 270.0f);
  for (int i = 0; i < 256; i++)
    node[i][0] = value (rng);
  for (int i = 0; i < 256; i++)
    node[i][1] = i < 255 ? node[i + 1][0] - node[i][0] : 0.0f;
}

// lm_k_point as a test runs it (on the CPU's emulation, or on the device through its own
// buffers): the pass from IN to OUT, host images of W×H RGBA8.
typedef cudaError_t (*PointRun) (const float (*table)[256], const float *gray, const LmPointPixels *px,
                                 const LmKImage *in, const LmKImage *out);

static int failures;

static void
check (PointRun run, unsigned w, unsigned h, uint32_t ops, unsigned seed)
{
  std::mt19937 rng (seed);
  static float table[3][256], gray[256];
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 256; i++)
      table[c][i] = table_value (rng, i);
  LmPointPixels px {};
  px.pixel_ops = ops;
  random_nodes (rng, px.curve.node);
  float sat = std::uniform_real_distribution<float> (-1.0f, 1.0f) (rng),
        vib = std::uniform_real_distribution<float> (-1.0f, 1.0f) (rng);
  px.saturation.gain = 1.0f + sat, px.saturation.vibrance_gain = vib * (1.0f + sat);
  size_t stride = ((size_t) w * 4 + 63) / 64 * 64;
  std::vector<uint8_t> src (stride * h), dst (stride * h, 0xa5);
  for (auto &b : src)
    b = (uint8_t) rng ();
  LmKImage in = { src.data (), w, h, stride, LM_K_RGBA8, 0 }, out = { dst.data (), w, h, stride, LM_K_RGBA8, 0 };
  cudaError_t err = run (table, gray, &px, &in, &out);
  long differ = 0;
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++)
      {
        uint32_t p, got;
        memcpy (&p, &src[y * stride + x * 4], 4), memcpy (&got, &dst[y * stride + x * 4], 4);
        uint32_t want = lm_point_rgba (&px, table, p);
        if (got != want && differ++ < 3)
          printf ("  (%u, %u): %08x, wanted %08x\n", x, y, got, want);
      }
  printf ("%s %u×%u, parts %#x: %ld pixels differ%s\n", err || differ ? "FAIL" : "ok", w, h, ops, differ,
          err ? ", the launch failed" : "");
  failures += err || differ;
}

// Every case through RUN; the number that failed.
static int
point_cases (PointRun run)
{
  const uint32_t curve = LM_OP_BIT (CURVE), saturation = LM_OP_BIT (SATURATION), colormix = LM_OP_BIT (COLORMIX);
  const uint32_t parts[] = { 0, curve, saturation, curve | saturation };
  unsigned seed = 1;
  for (int round = 0; round < 6; round++)
    for (uint32_t ops : parts)
      check (run, 1031 + round, 7 + round, ops, seed++); // rows end in 3 (then 0, 1, 2...) pixels
  check (run, 5000, 40, curve | saturation, seed++);     // more rows than the grid has blocks
  check (run, 5000, 1, curve | saturation, seed++);      // fewer rows than a thread has in flight
  check (run, 2048, 2, curve | saturation, seed++);
  check (run, 259, 9, curve | saturation | colormix, seed++); // the general kernel
  check (run, 3, 5, curve | saturation, seed++);              // narrower than one thread's pixels
  return failures;
}
