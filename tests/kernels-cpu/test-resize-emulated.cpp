// The GPU resize (kernels/resize.cu, resize-taps.cu, resize-whole.cu) run on the CPU
// (cuda-emu.h) through its entry point, lm_k_resize_op, against core/ops/resize-math.h's
// plain sums, which are the CPU reference's (tests/unit/test-resize.c): every byte equal, on
// every path the kernels take (integer cells, direct sums, fixed-tap strips down and across,
// longer than one block, generic tiles, two passes), RGBA, opaque RGBA (whose alpha the strips
// do not sum) and gray, whole images and tiles of
// them as the tiled render makes them, within shared memory limits of Hopper (227
// KiB), Ampere (99) and Turing (64).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>

#include "kernels/kernels.h"
#include "kernels/resize-taps.h"

static size_t optin_kib = 227;

// What the device would answer (kernels/shared-optin.cu asks the runtime).
cudaError_t
lm_k_shared_optin (size_t *bytes)
{
  *bytes = optin_kib * 1024;
  return cudaSuccess;
}

// Both passes of the plain sums, in the order the resize takes (lm_resize_vertical_first).
static std::vector<uint8_t>
reference (const LmResizeParams *p, const uint8_t *src, size_t stride, unsigned w, unsigned h, int ch, unsigned ow,
           unsigned oh)
{
  LmResizeAxis xa, ya;
  lm_resize_axes (p, w, h, ow, oh, &xa, &ya);
  std::vector<LmResizeSpan> xs (ow), ys (oh);
  std::vector<float> xw (lm_resize_axis_capacity (w, ow)), yw (lm_resize_axis_capacity (h, oh));
  lm_resize_axis_table (w, ow, xs.data (), xw.data ());
  lm_resize_axis_table (h, oh, ys.data (), yw.data ());
  bool vfirst = lm_resize_vertical_first (w, h, ow, oh);
  unsigned tw = vfirst ? w : ow, th = vfirst ? oh : h;
  std::vector<float> tmp ((size_t) tw * th * ch);
  std::vector<uint8_t> out ((size_t) ow * oh * ch);
  float acc[4];
  for (unsigned y = 0; y < th; y++)
    for (unsigned x = 0; x < tw; x++)
      {
        if (vfirst)
          lm_resize_sum_u8 (src + (size_t) x * ch, stride, (int) h, ys[y], yw.data (), ch, acc);
        else
          lm_resize_sum_u8 (src + (size_t) y * stride, ch, (int) w, xs[x], xw.data (), ch, acc);
        for (int c = 0; c < ch; c++)
          tmp[((size_t) y * tw + x) * ch + c] = acc[c];
      }
  for (unsigned y = 0; y < oh; y++)
    for (unsigned x = 0; x < ow; x++)
      {
        if (vfirst)
          lm_resize_sum_f32 (tmp.data () + (size_t) y * tw * ch, ch, (int) tw, xs[x], xw.data (), ch, acc);
        else
          lm_resize_sum_f32 (tmp.data () + (size_t) x * ch, (size_t) tw * ch, (int) th, ys[y], yw.data (), ch, acc);
        for (int c = 0; c < ch; c++)
          out[((size_t) y * ow + x) * ch + c] = lm_quantize_u8 (acc[c]);
      }
  return out;
}

// Which kernel the resize takes, as resize.cu decides.
static const char *
path_of (unsigned w, unsigned h, unsigned ow, unsigned oh, int ch, unsigned *taps_rows)
{
  LmResizeAxis xa = { w, ow, 0, ow, 0 }, ya = { h, oh, 0, oh, 0 };
  LmResizeTapsPlan plan;
  *taps_rows = 0;
  if (lm_resize_axis_whole_factor (w, ow) && lm_resize_axis_whole_factor (h, oh))
    return "whole cells";
  if (lm_resize_axis_area (w, ow) && lm_resize_axis_area (h, oh) && w <= 3.0 * ow && h <= 3.0 * oh)
    return "direct";
  if (lm_k_resize_taps_plan (&xa, &ya, ch, lm_resize_vertical_first (w, h, ow, oh), optin_kib * 1024, &plan))
    {
      *taps_rows = plan.step;
      return "fixed taps";
    }
  return "tiles or passes";
}

static int failures;

// A W × H source of CH channels of random bytes from SEED, its rows 64-byte aligned; OPAQUE:
// every alpha 255.
static std::vector<uint8_t>
random_source (unsigned w, unsigned h, int ch, bool opaque, unsigned seed, size_t *stride)
{
  std::mt19937 rng (seed);
  *stride = ((size_t) w * ch + 63) / 64 * 64;
  std::vector<uint8_t> src (*stride * h);
  for (size_t i = 0; i < src.size (); i++)
    src[i] = opaque && i % *stride % 4 == 3 ? 255 : (uint8_t) rng ();
  return src;
}

static const char *
kind_name (int ch, bool opaque)
{
  return ch == 1 ? "gray" : opaque ? "opaque RGBA" : "RGBA";
}

// P through lm_k_resize_op from IN (TW × TH pixels out, CH channels), the output's bytes
// beside its rows left 0xa5; the bytes that differ from the reference WANT (OW pixels a row)
// from (OX, OY) on, the first three printed. *ERR: whether the launch failed.
static long
run_against (const LmResizeParams *p, const LmKImage *in, unsigned tw, unsigned th, const std::vector<uint8_t> &want,
             unsigned ow, unsigned ox, unsigned oy, bool *err)
{
  int ch = in->format == LM_K_RGBA8 ? 4 : 1;
  size_t ostride = ((size_t) tw * ch + 63) / 64 * 64;
  std::vector<uint8_t> dst (ostride * th, 0xa5);
  LmKImage out = { dst.data (), tw, th, ostride, in->format, 0 };
  std::vector<uint8_t> scratch (lm_k_resize_op.workspace (p, in) + 16);
  LmKScratch s = { scratch.data (), scratch.size () };
  *err = lm_k_resize_op.launch (p, in, &out, &s, 0) != cudaSuccess;
  long differ = 0;
  for (unsigned y = 0; y < th; y++)
    for (size_t b = 0; b < (size_t) tw * ch; b++)
      {
        uint8_t wanted = want[(size_t) (oy + y) * ow * ch + (size_t) ox * ch + b];
        if (dst[y * ostride + b] != wanted && differ++ < 3)
          printf ("  pixel (%zu, %u) channel %zu: %u, the reference %u\n", ox + b / ch, oy + y, b % ch,
                  dst[y * ostride + b], wanted);
      }
  return differ;
}

static LmResizeParams
exact_size (unsigned ow, unsigned oh)
{
  LmResizeParams p {};
  p.width = (float) ow, p.height = (float) oh, p.mode = LM_RESIZE_EXACT;
  return p;
}

static void
check (unsigned w, unsigned h, unsigned ow, unsigned oh, int ch, bool opaque, unsigned seed)
{
  size_t stride;
  std::vector<uint8_t> src = random_source (w, h, ch, opaque, seed, &stride);
  LmResizeParams p = exact_size (ow, oh);
  LmKImage in = { src.data (), w, h, stride, ch == 4 ? LM_K_RGBA8 : LM_K_GRAY8, opaque };
  bool err;
  long differ = run_against (&p, &in, ow, oh, reference (&p, src.data (), stride, w, h, ch, ow, oh), ow, 0, 0, &err);
  unsigned rows;
  const char *path = path_of (w, h, ow, oh, ch, &rows);
  printf ("%s %u×%u → %u×%u, %s, %s", err || differ ? "FAIL" : "ok", w, h, ow, oh, kind_name (ch, opaque), path);
  if (rows)
    printf (" (steps of %u)", rows);
  printf (" in %zu KiB: %ld bytes differ%s\n", optin_kib, differ, err ? ", the launch failed" : "");
  failures += err || differ;
}

// A tile of the W × H → OW × OH resize: output pixels (OX, OY) to (OX + TW, OY + TH) from the
// input they read (lm_resize_axis_source, as the tiled render gives it), its frame set as the
// tiled render sets it, against the same pixels of the whole image's reference.
static void
check_tile (unsigned w, unsigned h, unsigned ow, unsigned oh, unsigned ox, unsigned oy, unsigned tw, unsigned th,
            int ch, bool opaque, unsigned seed)
{
  size_t stride;
  std::vector<uint8_t> src = random_source (w, h, ch, opaque, seed, &stride);
  LmResizeParams p = exact_size (ow, oh);
  std::vector<uint8_t> want = reference (&p, src.data (), stride, w, h, ch, ow, oh);
  unsigned ix, iy, iw, ih;
  std::vector<float> weights (std::max (lm_resize_axis_stride (w, ow), lm_resize_axis_stride (h, oh)));
  lm_resize_axis_source (w, ow, ox, tw, weights.data (), &ix, &iw);
  lm_resize_axis_source (h, oh, oy, th, weights.data (), &iy, &ih);
  p.tile = { w, h, ix, iy, ox, oy, tw, th };
  LmKImage in = { src.data () + (size_t) iy * stride + (size_t) ix * ch, iw, ih, stride,
                  ch == 4 ? LM_K_RGBA8 : LM_K_GRAY8, opaque };
  bool err;
  long differ = run_against (&p, &in, tw, th, want, ow, ox, oy, &err);
  printf ("%s %u×%u → %u×%u, %s, the tile (%u, %u) %u×%u from input (%u, %u) %u×%u in %zu KiB: %ld bytes differ%s\n",
          err || differ ? "FAIL" : "ok", w, h, ow, oh, kind_name (ch, opaque), ox, oy, tw, th, ix, iy, iw, ih,
          optin_kib, differ, err ? ", the launch failed" : "");
  failures += err || differ;
}

int
main ()
{
  static const unsigned cases[][4] = {
    { 400, 300, 300, 225 }, // 0.75 (8 taps)
    { 250, 180, 150, 108 }, // 0.6 (10 taps)
    { 250, 190, 130, 99 },  // 0.52 (12 taps)
    { 100, 70, 151, 106 },  // an enlargement (6 taps)
    { 161, 47, 161, 35 },   // one axis as it was: vertical first
    { 120, 90, 100, 140 },  // shrunk across, enlarged down
    { 90, 120, 140, 100 },  // the other way
    { 7, 5, 5, 4 },         // spans past every edge
    { 33, 17, 31, 16 },     // tiles cut short
    { 1000, 3, 750, 2 },    // wide and short
    { 200, 160, 100, 80 },  // whole cells of 2 × 2
    { 200, 160, 50, 40 },   // 4 × 4
    { 200, 160, 100, 40 },  // 2 × 4
    { 68, 36, 34, 9 },      // 2 × 4 with a group cut short
    { 201, 160, 100, 80 },  // area, not whole: direct
    { 600, 500, 90, 70 },   // a steep shrink
    { 120, 700, 90, 525 },  // strips down, longer than a block's
    { 900, 90, 600, 59 },   // strips across (vertical first), longer than a block's
  };
  static const size_t limits[] = { 227, 99, 64 };
  unsigned seed = 1;
  for (size_t limit : limits)
    {
      optin_kib = limit;
      // RGBA, opaque RGBA, gray.
      for (int kind = 0; kind < 3; kind++)
        {
          int ch = kind == 2 ? 1 : 4;
          bool opaque = kind == 1;
          for (auto &c : cases)
            check (c[0], c[1], c[2], c[3], ch, opaque, seed++);
          // Tiles of the whole image: inside it (spans starting before the tile's input), on
          // its edges, across a strip's length, both axis orders.
          check_tile (400, 700, 300, 525, 37, 261, 70, 260, ch, opaque, seed++);  // strips down
          check_tile (400, 700, 300, 525, 0, 0, 45, 300, ch, opaque, seed++);     // at the corner
          check_tile (400, 700, 300, 525, 250, 400, 50, 125, ch, opaque, seed++); // at the far corner
          check_tile (900, 90, 600, 59, 133, 7, 300, 40, ch, opaque, seed++);     // strips across
          check_tile (250, 190, 130, 99, 20, 30, 77, 50, ch, opaque, seed++);     // 12 taps
        }
    }
  printf ("%d failed\n", failures);
  return failures != 0;
}
