// The GPU crop (kernels/crop.cu) run on the CPU (cuda-emu.h) through lm_k_crop_op against
// the rectangle lm_crop_rect gives, copied byte by byte: every offset within 16 bytes (the
// kernel's shifted loads), rows with and without bytes past their whole 16-byte pieces, RGBA
// and gray, one block and many, and nothing written outside the output's rows.
#include <cstdio>
#include <random>

#include "kernels/kernels.h"

static int failures;

static void
check (unsigned w, unsigned h, float x, float y, float cw, float ch_, int ch, unsigned seed)
{
  std::mt19937 rng (seed);
  LmCropParams p {};
  p.x = x, p.y = y, p.width = cw, p.height = ch_;
  LmCropRect r = lm_crop_rect (&p, w, h);
  size_t stride = ((size_t) w * ch + 63) / 64 * 64, ostride = ((size_t) r.width * ch + 63) / 64 * 64;
  std::vector<uint8_t> src (stride * h), dst (ostride * r.height, 0xa5);
  for (auto &b : src)
    b = (uint8_t) rng ();
  int format = ch == 4 ? LM_K_RGBA8 : LM_K_GRAY8;
  LmKImage in = { src.data (), w, h, stride, format, 0 }, out = { dst.data (), r.width, r.height, ostride, format, 0 };
  cudaError_t err = lm_k_crop_op.launch (&p, &in, &out, NULL, 0);
  long differ = 0;
  for (unsigned j = 0; j < r.height; j++)
    for (size_t b = 0; b < ostride; b++)
      {
        uint8_t want = b < (size_t) r.width * ch ? src[(size_t) (r.y + j) * stride + (size_t) r.x * ch + b] : 0xa5;
        if (dst[j * ostride + b] != want && differ++ < 3)
          printf ("  row %u byte %zu: %u, wanted %u\n", j, b, dst[j * ostride + b], want);
      }
  printf ("%s %u×%u, %s, from (%u, %u) %u×%u (offset %zu bytes): %ld bytes differ%s\n",
          err || differ ? "FAIL" : "ok", w, h, ch == 4 ? "RGBA" : "gray", r.x, r.y, r.width, r.height,
          (size_t) r.x * ch % 16, differ, err ? ", the launch failed" : "");
  failures += err || differ;
}

int
main ()
{
  unsigned seed = 1;
  for (unsigned x = 0; x < 20; x++) // every offset within 16 bytes, for gray and RGBA
    {
      check (300, 40, (float) x, 3, 0, 0, 1, seed++);
      check (120, 30, (float) x, 2, 37, 11, 4, seed++);
    }
  check (1000, 3, 300, 1, 0, 0, 4, seed++);  // few rows, long
  check (5, 900, 1, 300, 3, 0, 4, seed++);   // rows shorter than a piece: tails only
  check (17, 17, 1, 1, 15, 15, 1, seed++);   // a tail of 15 bytes a row
  check (64, 64, 0, 0, 0, 0, 4, seed++);     // the whole image
  check (700, 600, 3, 2, 0, 0, 4, seed++);   // more columns and rows than a block's 32 × 8
  printf ("%d failed\n", failures);
  return failures != 0;
}
