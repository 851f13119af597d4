/* Masks on the GPU against the CPU reference (core/ops/mask.c, kernels/mask.cu): drawn and
 * parametric masks bit-identical, feathered ones within 1e-4 (the same sums in the same order:
 * identical is expected, and printed), blends within 1 level in 8 and 16 bits and identical on
 * floats. Every shape, combination and invert, each range, feathers of several radii, at the
 * full level and a level 4 times smaller, on a whole frame and on a tile, on RGBA8, RGBA16 and
 * scene RGBA_F32 inputs made here (no data files). Exits 77 (SKIP) without a device. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/ops/mask.h"
#include "parity-util.h"

enum { W = 640, H = 480 };

typedef struct {
  LmMaskStrokeHead head;
  float points[2 * 16];
} Stroke;

static Stroke strokes[24];

/* One list of all strokes (key 0) and one of the first eight (key 1). */
static gboolean
get_stroke (uint64_t list, guint index, const LmMaskStrokeHead **head, const float **points, gpointer user,
            GError **error)
{
  guint n = list == 0 ? G_N_ELEMENTS (strokes) : 8;
  *head = index < n ? &strokes[index].head : NULL;
  *points = index < n ? strokes[index].points : NULL;
  return TRUE;
}

static void
make_strokes (void)
{
  guint32 state = 12345;
  for (guint k = 0; k < G_N_ELEMENTS (strokes); k++)
    {
      guint n = 1 + k % 16;
      for (guint i = 0; i < 2 * n; i++)
        {
          state = state * 1664525u + 1013904223u;
          strokes[k].points[i] = (float) (state >> 8) / (float) (1 << 24) * 1.1f - 0.05f;
        }
      strokes[k].head = (LmMaskStrokeHead) { .erase = k % 5 == 4, .size = k % 3 == 0 ? 0.15f : 0.03f,
                                             .hardness = (k % 4) / 3.0f, .opacity = 1.0f - (k % 3) * 0.2f, .n = n };
    }
}

/* A photo with edges and colour: a bright disc, a hue sweep, noise; in RGBA8, RGBA16 and scene
 * light (RGBA_F32, up to 4). */
static LmImage *
photo (LmBackend *gpu, LmFormat format)
{
  GError *e = NULL;
  LmImage *img = lm_image_new (format, W, H, lm_backend_host_allocator (gpu), &e);
  g_assert_no_error (e);
  guint32 state = 99;
  for (guint y = 0; y < H; y++)
    for (guint x = 0; x < W; x++)
      {
        double disc = hypot (x - 400.0, y - 200.0) < 120 ? 0.5 : 0.0;
        double hue = 6.0 * x / W, c[3];
        for (int k = 0; k < 3; k++)
          {
            double d = fabs (fmod (hue + 4.0 * k, 6.0) - 3.0) - 1.0;
            state = state * 1664525u + 1013904223u;
            c[k] = CLAMP (0.15 + 0.4 * CLAMP (d, 0.0, 1.0) * y / H + disc + (state >> 28) / 200.0, 0.0, 1.0);
          }
        guint8 *p = lm_image_row (img, y) + x * lm_format_bytes_per_pixel (format);
        for (int k = 0; k < 4; k++)
          {
            double v = k < 3 ? c[k] : 1.0;
            if (format == LM_FORMAT_RGBA8)
              p[k] = (guint8) lrint (v * 255);
            else if (format == LM_FORMAT_RGBA16)
              ((guint16 *) (void *) p)[k] = (guint16) lrint (v * 65535);
            else
              ((float *) (void *) p)[k] = (float) (k < 3 ? 4.0 * v * v : 1.0);
          }
      }
  img->opaque = TRUE;
  return img;
}

static LmImage *
upload (LmBackend *b, LmImage *host)
{
  GError *e = NULL;
  LmImage *work = lm_backend_upload (b, host, &e);
  g_assert_no_error (e);
  return work;
}

/* DRAWN and OUT (host copies) of FLAT on backend B for the part of the frame at TILE
 * (NULL: all) that INPUT covers. */
static gboolean
render (LmBackend *b, guint8 poison, const LmMaskFlat *flat, const LmTileFrame *tile, LmImage *input,
        LmImage **drawn, LmImage **out)
{
  GError *e = NULL;
  g_autoptr (LmImage) in = upload (b, input);
  g_autoptr (LmImage) d_host = parity_poisoned (b, LM_FORMAT_GRAY_F32, input->width, input->height, poison);
  g_autoptr (LmImage) o_host = parity_poisoned (b, LM_FORMAT_GRAY_F32, input->width, input->height, poison);
  g_autoptr (LmImage) d = upload (b, d_host);
  g_autoptr (LmImage) o = upload (b, o_host);
  if (!lm_backend_mask_drawn (b, flat, tile, d, &e) || !lm_backend_mask (b, flat, tile, in, d, o, &e)
      || !lm_backend_synchronize (b, &e))
    {
      parity_fail ("%s: %s", b->klass->name, e->message);
      g_error_free (e);
      return FALSE;
    }
  *drawn = parity_download (b, d);
  *out = parity_download (b, o);
  return TRUE;
}

/* Largest |Δ| between two float planes and how many values differ at all. */
static double
plane_distance (const LmImage *a, const LmImage *b, guint64 *differ)
{
  double worst = 0;
  *differ = 0;
  for (guint y = 0; y < a->height; y++)
    {
      const float *ra = (const float *) (const void *) lm_image_row (a, y);
      const float *rb = (const float *) (const void *) lm_image_row (b, y);
      for (guint x = 0; x < a->width; x++)
        {
          if (memcmp (&ra[x], &rb[x], sizeof (float)) == 0)
            continue;
          (*differ)++;
          double d = fabs ((double) ra[x] - rb[x]);
          worst = isnan (d) ? INFINITY : MAX (worst, d);
        }
    }
  return worst;
}

/* The blend of INPUT with its colours turned (a stand-in operation's result) through MASK,
 * on both backends. */
static void
check_blend (LmBackend *cpu, LmBackend *gpu, const char *name, LmImage *input, LmImage *mask)
{
  GError *e = NULL;
  g_autoptr (LmImage) op = parity_poisoned (gpu, input->format, input->width, input->height, 0);
  gsize bpp = lm_format_bytes_per_pixel (input->format);
  for (guint y = 0; y < input->height; y++)
    for (guint x = 0; x < input->width; x++)
      {
        const guint8 *p = lm_image_row (input, y) + x * bpp;
        guint8 *q = lm_image_row (op, y) + x * bpp;
        for (int k = 0; k < 4; k++)
          if (input->format == LM_FORMAT_RGBA8)
            q[k] = k < 3 ? 255 - p[(k + 1) % 3] : p[3];
          else if (input->format == LM_FORMAT_RGBA16)
            ((guint16 *) (void *) q)[k] = k < 3 ? 65535 - ((const guint16 *) (const void *) p)[(k + 1) % 3]
                                                : ((const guint16 *) (const void *) p)[3];
          else
            ((float *) (void *) q)[k] = k < 3 ? 2.0f * ((const float *) (const void *) p)[(k + 1) % 3] : 1.0f;
      }
  LmImage *results[2];
  LmBackend *sides[2] = { cpu, gpu };
  for (int s = 0; s < 2; s++)
    {
      g_autoptr (LmImage) in = upload (sides[s], input);
      g_autoptr (LmImage) o = upload (sides[s], op);
      g_autoptr (LmImage) m = upload (sides[s], mask);
      g_autoptr (LmImage) poisoned = parity_poisoned (sides[s], input->format, input->width, input->height,
                                                      s ? PARITY_POISON_GPU : PARITY_POISON_CPU);
      g_autoptr (LmImage) dst = upload (sides[s], poisoned);
      if (!lm_backend_blend_mask (sides[s], in, o, m, dst, &e) || !lm_backend_synchronize (sides[s], &e))
        {
          parity_fail ("%s blend: %s", name, e->message);
          g_clear_error (&e);
          return;
        }
      results[s] = parity_download (sides[s], dst);
    }
  if (input->format == LM_FORMAT_RGBA_F32)
    {
      gboolean same = parity_bytes_equal (results[0], results[1]);
      parity_record (same, "%s blend (RGBA_F32): %s", name, same ? "identical" : "differs");
    }
  else
    {
      guint64 pixels = 0;
      int worst = parity_u8_distance (results[0], results[1], &pixels, NULL);
      parity_record (worst <= 1, "%s blend (%s): max |Δ| %d, %" G_GUINT64_FORMAT " pixels differ", name,
                     lm_format_name (input->format), worst, pixels);
    }
  lm_image_unref (results[0]);
  lm_image_unref (results[1]);
}

/* MASK placed on FRAME (FW × FH) rendered on both backends for INPUT (the frame's pixels, or a
 * tile's at TILE); drawn planes identical, final masks identical unless feathered (≤ 1e-4). */
static void
check (LmBackend *cpu, LmBackend *gpu, const char *name, const LmMask *mask, LmImage *input, const LmMaskFrame *frame,
       guint fw, guint fh, const LmTileFrame *tile, gboolean blend)
{
  GError *e = NULL;
  gboolean scene = input->format == LM_FORMAT_RGBA_F32;
  g_autoptr (LmMaskFlat) flat = lm_mask_flatten (mask, scene, get_stroke, NULL, &e);
  if (flat == NULL || !lm_mask_flat_place (flat, frame, fw, fh, TRUE, &e))
    {
      parity_fail ("%s: %s", name, e->message);
      g_error_free (e);
      return;
    }
  g_autofree char *full = g_strdup_printf ("%s, %s, r = %d", name, lm_format_name (input->format),
                                           lm_mask_flat_render (flat)->radius);
  g_autoptr (LmImage) cd = NULL, co = NULL, gd = NULL, go = NULL;
  if (!render (cpu, PARITY_POISON_CPU, flat, tile, input, &cd, &co)
      || !render (gpu, PARITY_POISON_GPU, flat, tile, input, &gd, &go))
    return;
  guint64 differ;
  double worst = plane_distance (cd, gd, &differ);
  parity_record (differ == 0, "%s: drawn planes %s (max |Δ| %.3g)", full, differ ? "differ" : "identical", worst);
  worst = plane_distance (co, go, &differ);
  gboolean feathered = lm_mask_flat_render (flat)->radius > 0;
  parity_record (feathered ? worst <= 1e-4 : differ == 0, "%s: final masks: %" G_GUINT64_FORMAT " values differ, max |Δ| %.3g",
                 full, differ, worst);
  if (blend)
    check_blend (cpu, gpu, full, input, co);
}

static LmMask
base (void)
{
  LmMask m = { 0 };
  m.opacity = 1.0f;
  return m;
}

int
main (int argc, char **argv)
{
  LmBackend *cpu, *gpu;
  int skip = parity_open ("mask parity", TRUE, &cpu, &gpu);
  if (skip)
    return skip;
  make_strokes ();
  LmMask masks[6];
  const char *names[6] = { "brush, linear add, radial subtract", "intersect, inverted shapes, mask inverted",
                           "ranges (luminance, hue across 0°, saturation)", "shapes × ranges, feather 0.01",
                           "brush, feather 0.04, detail 0.05", "linear, feather 0.002, detail 0" };
  for (int i = 0; i < 6; i++)
    masks[i] = base ();
  masks[0].n_shapes = 3;
  masks[0].shape[0] = (LmMaskShape) { .kind = LM_MASK_BRUSH, .opacity = 1, .strokes = 0 };
  masks[0].shape[1] = (LmMaskShape) { .kind = LM_MASK_LINEAR, .opacity = 0.8f, .g = { 0.1f, 0.1f, 0.5f, 0.6f } };
  masks[0].shape[2] = (LmMaskShape) { .kind = LM_MASK_RADIAL, .combine = LM_MASK_SUBTRACT, .opacity = 1,
                                      .g = { 0.6f, 0.3f, 0.2f, 0.1f, 33.0f, 0.7f } };
  masks[1].n_shapes = 3;
  masks[1].shape[0] = (LmMaskShape) { .kind = LM_MASK_RADIAL, .opacity = 1, .g = { 0.5f, 0.35f, 0.4f, 0.3f, -10.0f, 1.0f } };
  masks[1].shape[1] = (LmMaskShape) { .kind = LM_MASK_BRUSH, .combine = LM_MASK_INTERSECT, .invert = 1, .opacity = 1,
                                      .strokes = 1 };
  masks[1].shape[2] = (LmMaskShape) { .kind = LM_MASK_LINEAR, .combine = LM_MASK_ADD, .invert = 1, .opacity = 0.5f,
                                      .g = { 0.9f, 0.7f, 0.7f, 0.5f } };
  masks[1].invert = 1;
  masks[2].luminance = (LmMaskRange) { 1, 0.2f, 0.35f, 0.7f, 0.9f };
  masks[2].hue = (LmMaskRange) { 1, 300, 330, 400, 440 };
  masks[2].saturation = (LmMaskRange) { 1, 0.05f, 0.2f, 1.0f, 1.0f };
  masks[3] = masks[0];
  masks[3].luminance = masks[2].luminance;
  masks[3].feather = 0.01f;
  masks[3].detail = 0.1f;
  masks[3].opacity = 0.7f;
  masks[4] = base ();
  masks[4].n_shapes = 1;
  masks[4].shape[0] = masks[0].shape[0];
  masks[4].feather = 0.04f;
  masks[4].detail = 0.05f;
  masks[5] = base ();
  masks[5].n_shapes = 1;
  masks[5].shape[0] = masks[0].shape[1];
  masks[5].feather = 0.002f;

  const LmFormat formats[] = { LM_FORMAT_RGBA8, LM_FORMAT_RGBA16, LM_FORMAT_RGBA_F32 };
  LmMaskFrame frame = lm_mask_frame_source (W, H);
  LmMaskFrame level4 = lm_mask_frame_level (&frame, 4.0);
  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr (LmImage) input = photo (gpu, formats[f]);
      for (int i = 0; i < 6; i++)
        check (cpu, gpu, names[i], &masks[i], input, &frame, W, H, NULL, TRUE);
      /* A level 4 times smaller: its own frame and a smaller feather radius. */
      GError *e = NULL;
      g_autoptr (LmImage) small = lm_image_new (formats[f], W / 4, H / 4, lm_backend_host_allocator (gpu), &e);
      gsize bpp = lm_format_bytes_per_pixel (formats[f]);
      for (guint y = 0; y < H / 4; y++)
        for (guint x = 0; x < W / 4; x++)
          memcpy (lm_image_row (small, y) + x * bpp, lm_image_row (input, 4 * y) + 4 * x * bpp, bpp);
      for (int i = 0; i < 6; i += 3)
        {
          g_autofree char *name = g_strdup_printf ("level 4: %s", names[i]);
          check (cpu, gpu, name, &masks[i], small, &level4, W / 4, H / 4, NULL, FALSE);
        }
      /* A tile of the frame: both backends on the same tile. */
      LmTileFrame tile = { .full_w = W, .full_h = H, .in_x = 150, .in_y = 77 };
      g_autoptr (LmImage) part = lm_image_new (formats[f], 333, 222, lm_backend_host_allocator (gpu), &e);
      for (guint y = 0; y < part->height; y++)
        memcpy (lm_image_row (part, y), lm_image_row (input, tile.in_y + y) + tile.in_x * bpp, part->width * bpp);
      check (cpu, gpu, "tile: shapes × ranges, feather 0.01", &masks[3], part, &frame, W, H, &tile, FALSE);
    }
  printf ("mask parity: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (), parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
