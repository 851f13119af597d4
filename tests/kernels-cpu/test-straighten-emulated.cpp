// The GPU straighten (kernels/straighten.cu) run on the CPU (cuda-emu.h) through its entry
// point, lm_k_straighten_op, against the reference's sampler at every output pixel
// (lm_straighten_rgba and _gray, core/ops/straighten-math.h): every byte equal, for small
// and large angles both ways, images narrower than a tile, and no turn at all.
#include <cstdio>
#include <random>

#include "kernels/kernels.h"

static int failures;

static void
check (unsigned w, unsigned h, float angle, int ch, unsigned seed)
{
  std::mt19937 rng (seed);
  LmStraightenParams p {};
  p.angle = angle;
  unsigned ow, oh;
  lm_straighten_size (&p, w, h, &ow, &oh);
  size_t stride = ((size_t) w * ch + 63) / 64 * 64, ostride = ((size_t) ow * ch + 63) / 64 * 64;
  std::vector<uint8_t> src (stride * h), dst (ostride * oh, 0xa5);
  for (auto &b : src)
    b = (uint8_t) rng ();
  int format = ch == 4 ? LM_K_RGBA8 : LM_K_GRAY8;
  LmKImage in = { src.data (), w, h, stride, format, 0 }, out = { dst.data (), ow, oh, ostride, format, 0 };
  cudaError_t err = lm_k_straighten_op.launch (&p, &in, &out, NULL, 0);
  LmStraightenSource s;
  unsigned ox, oy;
  LmStraightenMap m = lm_straighten_setup (&p, w, h, ow, oh, &s, &ox, &oy);
  long differ = 0;
  for (unsigned y = 0; y < oh; y++)
    for (unsigned x = 0; x < ow; x++)
      {
        float sx = lm_straighten_src_x (&m, ox + x, oy + y), sy = lm_straighten_src_y (&m, ox + x, oy + y);
        uint32_t want = ch == 4 ? lm_straighten_rgba (src.data (), stride, &s, sx, sy)
                                : lm_straighten_gray (src.data (), stride, &s, sx, sy);
        uint32_t got = ch == 4 ? reinterpret_cast<const uint32_t *> (dst.data () + y * ostride)[x]
                               : dst[y * ostride + x];
        if (got != want && differ++ < 3)
          printf ("  pixel (%u, %u): %08x, the reference %08x\n", x, y, got, want);
      }
  printf ("%s %u×%u by %.2f° → %u×%u, %s: %ld pixels differ%s\n", err || differ ? "FAIL" : "ok", w, h, angle, ow,
          oh, ch == 4 ? "RGBA" : "gray", differ, err ? ", the launch failed" : "");
  failures += err || differ;
}

int
main ()
{
  static const struct {
    unsigned w, h;
    float angle;
  } cases[] = {
    { 300, 200, 1.5f }, { 300, 200, -3.0f }, { 200, 300, 10.0f }, { 160, 160, 45.0f }, { 257, 131, -44.9f },
    { 64, 9, 0.7f },    { 9, 64, -0.7f },    { 5, 4, 2.0f },      { 1000, 40, 0.2f },  { 333, 211, 0.0f },
  };
  unsigned seed = 1;
  for (auto &c : cases)
    for (int ch = 4; ch >= 1; ch -= 3)
      check (c.w, c.h, c.angle, ch, seed++);
  printf ("%d failed\n", failures);
  return failures != 0;
}
