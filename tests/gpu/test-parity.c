/* CPU/GPU parity: every operation, on every test photo and on awkward sizes, with several
 * parameter sets, computed by the CPU reference and by the CUDA kernels. Grayscale,
 * equalize, rotate, crop and histograms must agree bit for bit, blur, straighten and
 * resize within 1 on 8-bit output (geometry at the output size it gives), and within 257 u16
 * on 16-bit output (the maxima are printed in u16); the diff's figures on 16-bit images are
 * equal and a one-value change is reported.
 * Output buffers start poisoned with a different byte on each side, so a pixel that one
 * backend leaves unwritten shows as a difference of at least 75.
 *
 * Without a usable CUDA device it prints the reason and exits 77 (meson: SKIP).
 * LUMEN_PARITY_QUICK=1 leaves out the 16384×16384 image; LUMEN_PARITY_ONLY=resize,crop checks
 * those operations alone besides the histograms, the view and the fused pass. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "core/backend/backend.h"
#include "core/edit/commit.h"
#include "core/io/io.h"
#include "core/ops/ops.h"
#include "core/ops/point.h"
#include "core/ops/view.h"
#include "parity-util.h"

/* Parameter sets by operation name. Every operation of the registry is checked with its
 * defaults and with each set given here; one without a set here fails the test (a new
 * operation brings its own). */
typedef struct {
  const char *op;
  const char *settings; /* "mode=bt601 amount=0.35" */
  int tolerance;        /* max |Δ| allowed on 8-bit output */
  gboolean small_only;  /* too slow for the CPU on the largest images */
} ParamSet;

static const ParamSet param_sets[] = {
  { "rotate", "angle=90", 0 },
  { "rotate", "angle=180", 0 },
  { "rotate", "angle=270 flip=horizontal", 0 },
  { "rotate", "angle=0 flip=vertical", 0 },
  { "rotate", "angle=90 flip=vertical", 0 },
  /* Lens correction (lensfun's profiles, found on the host): ptlens + poly3 TCA + vignetting,
   * auto scale; poly3 distortion alone; linear TCA on another crop factor, scaled. Promised
   * ≤ 1, expected bit identity (the same float operations, no FMA). */
  { "lens", "'lens=Canon EF 24-105mm f/4L IS USM' 'camera=Canon EOS 5D Mark III' focal=24 aperture=4", 1 },
  { "lens", "'lens=Nikon AI-S Nikkor 35mm f/1.4' 'camera=Nikon D7000' focal=35", 1, TRUE },
  { "lens", "'lens=Nikon AF-S DX Nikkor 35mm f/1.8G' 'camera=Nikon D7000' focal=35 aperture=1.8 scale=1.1", 1, TRUE },
  { "straighten", "angle=-1.5", 1 },
  { "straighten", "angle=12.25", 1 },
  { "straighten", "angle=45", 1 },
  { "crop", "x=3 y=2 width=5 height=4", 0 },
  { "crop", "x=100 y=50", 0 },
  { "crop", "x=17.5 y=9.25 width=3000 height=2000 ratio=3:2", 0 },
  { "crop", "ratio=1:1", 0 },
  { "crop", "x=65535 y=65535 ratio=original", 0 },
  /* Point operations: the first set of each is what check_fused_points composes, so each
   * first set does something (curve's exercises luma mode's pixel part on the device). */
  { "wb", "temperature=3200 tint=15", 0 },
  { "wb", "temperature=9000 tint=-40", 0 },
  { "wb", "temperature=2000 tint=100", 0 },
  { "exposure", "ev=1", 0 },
  { "exposure", "ev=-2.5", 0 },
  { "exposure", "ev=5", 0 },
  { "contrast", "contrast=0.4 black=10 white=240", 0 },
  { "contrast", "contrast=-0.6", 0 },
  { "contrast", "black=200 white=100", 0 },
  { "contrast", "contrast=1 black=254 white=255", 0 },
  { "curve", "points=0:0,64:50,192:210,255:255 mode=luma red=0:0,128:140,255:255", 0 },
  { "curve", "points=0:20,128:100,255:235 red=0:0,128:150,255:255 blue=0:10,255:240", 0 },
  { "curve", "points=0:255,255:0 mode=luma", 0 },
  { "curve", "points=0:0,100:10,110:240,255:255 mode=luma green=0:30,200:200", 0 },
  { "saturation", "saturation=0.5 vibrance=0.3", 0 },
  { "saturation", "saturation=-1", 0 },
  { "saturation", "vibrance=-0.7", 0 },
  { "saturation", "saturation=1 vibrance=1", 0 },
  /* Every band its own values; one band (skin's); every band at an extreme, neighbours opposed. */
  { "colormix", "red_hue=12 red_sat=0.4 orange_sat=-0.6 orange_light=0.5 yellow_light=-1 green_hue=-30 "
                "green_sat=1 aqua_sat=-1 aqua_light=0.6 blue_hue=17.5 blue_light=-0.45 purple_sat=-0.2 "
                "purple_light=1 magenta_hue=30 magenta_light=-0.1", 0 },
  { "colormix", "orange_hue=-8 orange_sat=-0.3 orange_light=0.25", 0 },
  { "colormix", "red_hue=30 red_sat=1 red_light=-1 orange_hue=-30 orange_sat=-1 orange_light=1 "
                "yellow_hue=30 yellow_sat=1 yellow_light=-1 green_hue=-30 green_sat=-1 green_light=1 "
                "aqua_hue=30 aqua_sat=1 aqua_light=-1 blue_hue=-30 blue_sat=-1 blue_light=1 "
                "purple_hue=30 purple_sat=1 purple_light=-1 magenta_hue=-30 magenta_sat=-1 magenta_light=1", 0 },
  { "vignette", "amount=-1", 0 },
  { "vignette", "amount=2 midpoint=0.2 feather=1 roundness=1", 0 },
  { "vignette", "amount=-3 midpoint=0.9 feather=0.05 roundness=0.5", 0 },
  { "gray", "mode=luminosity", 0 },
  { "gray", "mode=bt601", 0 },
  { "gray", "mode=average", 0 },
  { "gray", "mode=mix red=0.5 green=0.8 blue=-0.3", 0 },
  { "gray", "mode=luminosity amount=0.35", 0 },
  { "gray", "mode=mix amount=0.7 red=1.2 green=0.1 blue=0.2", 0 },
  { "equalize", "mode=luma", 0 },
  { "equalize", "mode=rgb", 0 },
  { "equalize", "mode=luma amount=0.6", 0 },
  { "equalize", "mode=rgb amount=0.25", 0 },
  /* bit identity expected: the same double operations in the same order, tables from the host */
  { "toneeq", "shadows=1 highlights=-1", 0 },
  { "toneeq", "blacks=2 deep_shadows=1.5 shadows=1 light_shadows=0.5 edges=0.01 smoothing=0.5", 0, TRUE },
  { "toneeq", "dark_highlights=-2 whites=1.5 speculars=-2 edges=4 smoothing=20 mask_exposure=2.5", 0, TRUE },
  /* Promised within 1 (the sRGB curve's powf differs between libm and CUDA); scene light,
   * without the curve, is expected bit for bit. */
  { "localcontrast", "amount=1 range=0.5", 1 },
  { "localcontrast", "amount=-1", 1, TRUE },
  { "localcontrast", "amount=0.5 range=4 radius=512", 1, TRUE },
  /* Denoise: bit for bit (the same float operations in the same order; σ estimated from
   * integer counts). */
  { "denoise", "luma=1.2 chroma=1.5", 0 },
  { "denoise", "luma=3 luma_detail=0.3 chroma=0 noise=20", 0, TRUE },
  { "denoise", "luma=0 chroma=2 chroma_detail=0.1 noise=5", 0, TRUE },
  { "denoise", "luma=0 chroma=0", 0 },
  { "blur", "sigma=0", 0 },
  { "blur", "sigma=0.8", 1 },
  { "blur", "sigma=2.5", 1 },
  { "blur", "sigma=10", 1 },
  { "blur", "sigma=16", 1 },
  { "blur", "sigma=20", 1 },
  { "blur", "sigma=50", 1, TRUE },
  { "blur", "sigma=200", 1, TRUE },
  { "sharpen", "amount=0.5 radius=1 threshold=1", 0 },
  { "sharpen", "amount=3 radius=2 threshold=2", 0 },
  { "sharpen", "amount=1.5 radius=0.3 threshold=0", 0 },
  { "sharpen", "amount=5 radius=10 threshold=32", 0, TRUE },
  { "sharpen", "amount=0", 0 },
  { "resize", "width=0.5", 1 },
  { "resize", "height=7 mode=exact width=3", 1 },
  { "resize", "width=333", 1 },
  { "resize", "width=4000 height=4000", 1, TRUE },
  { "resize", "width=100 height=1000 mode=exact", 1 },
};

typedef struct {
  double max_delta[LM_N_OPS];
  int view_max;
  int fused_max;
  int blur16_max; /* u16 */
} Summary;

static LmBackend *cpu, *gpu;
static Summary summary;

static void
check_op (const char *image_name, LmImage *host, LmImage *device, const LmOpInfo *op, const ParamSet *set)
{
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  parity_parse_settings (op, set->settings, params);
  LmFormat out_format = op->output_format (params, host->format, host->opaque);
  guint w, h;
  lm_op_output_size (op, params, host->width, host->height, &w, &h);
  GError *e = NULL;

  g_autoptr (LmImage) cpu_out = parity_poisoned (gpu, out_format, w, h, PARITY_POISON_CPU);
  g_assert_true (lm_backend_run_op (cpu, op, params, host, cpu_out, &e));
  g_assert_no_error (e);

  g_autoptr (LmImage) gpu_out = parity_poisoned_device (gpu, out_format, w, h);
  g_assert_true (lm_backend_run_op (gpu, op, params, device, gpu_out, &e));
  g_assert_no_error (e);
  g_autoptr (LmImage) back = parity_download (gpu, gpu_out);

  guint64 differing;
  int worst = parity_u8_distance (cpu_out, back, &differing, NULL);
  summary.max_delta[op->id] = MAX (summary.max_delta[op->id], worst);
  parity_record (worst <= set->tolerance, "%-10s %-46s %-24s max|Δ| %3d, %" G_GUINT64_FORMAT " pixels differ",
                 op->name, set->settings, image_name, worst, differing);
}

/* Every point operation with its first non-default set but LEAVE_OUT (NULL: none), all in one
 * fused pass: the pass the window and lumen-cli run. Without colormix it is the kernel made
 * for the curve and saturation parts (kernels/point.cu). A gray image's pass is gray (its own
 * table). */
static void
check_fused_points (const char *image_name, LmImage *host, LmImage *device, const char *leave_out)
{
  LmPointPass pass;
  lm_point_pass_init (&pass);
  g_autoptr (GString) names = g_string_new (NULL);
  for (int id = 0; id < LM_N_OPS; id++)
    {
      const LmOpInfo *op = lm_op_info (id);
      for (guint i = 0; lm_op_is_point (id) && !(leave_out && g_str_equal (op->name, leave_out))
                        && i < G_N_ELEMENTS (param_sets);
           i++)
        if (g_str_equal (param_sets[i].op, op->name))
          {
            guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
            parity_parse_settings (op, param_sets[i].settings, params);
            lm_point_pass_add (&pass, op, params);
            g_string_append_printf (names, "%s%s", names->len ? "+" : "", op->name);
            break;
          }
    }
  GError *e = NULL;
  LmFormat format = lm_point_output_format (NULL, host->format, host->opaque);
  g_autoptr (LmImage) cpu_out = parity_poisoned (gpu, format, host->width, host->height, PARITY_POISON_CPU);
  g_assert_true (lm_backend_run_points (cpu, &pass, host, cpu_out, &e));
  g_autoptr (LmImage) gpu_out = parity_poisoned_device (gpu, format, host->width, host->height);
  g_assert_true (lm_backend_run_points (gpu, &pass, device, gpu_out, &e));
  g_assert_no_error (e);
  g_autoptr (LmImage) back = parity_download (gpu, gpu_out);
  guint64 differing;
  int worst = parity_u8_distance (cpu_out, back, &differing, NULL);
  summary.fused_max = MAX (summary.fused_max, worst);
  parity_record (worst == 0, "fused %-40s %-24s max|Δ| %3d, %" G_GUINT64_FORMAT " pixels differ", names->str,
                 image_name, worst, differing);
}

static void
check_histogram (const char *image_name, LmImage *host, LmImage *device)
{
  GError *e = NULL;
  LmHistogram a, b;
  g_assert_true (lm_backend_histogram (cpu, host, LM_HIST_WANT_ALL, &a, &e));
  g_assert_true (lm_backend_histogram (gpu, device, LM_HIST_WANT_ALL, &b, &e));
  g_assert_no_error (e);
  gboolean ok = lm_histogram_equal (&a, &b);
  parity_record (ok, "histogram %s %s", image_name, ok ? "equal" : "differs");
}

/* The view resampler and the diff on both backends: the same pixels, the same figures. */
static void
check_view_and_diff (const char *image_name, LmImage *host, LmImage *device)
{
  GError *e = NULL;
  double w = host->width, h = host->height;
  const LmViewRect rects[] = {
    { 0, 0, w, h, MAX (1, (int) (w / 3.7)), MAX (1, (int) (h / 3.7)) }, /* fit, shrinking */
    { w / 7, h / 5, w / 2, h / 2, MAX (1, (int) (w / 2)), MAX (1, (int) (h / 2)) }, /* 100 % */
    { w / 3 + 0.37, h / 3 + 0.61, w / 6, h / 6, MAX (1, (int) (w / 2)), MAX (1, (int) (h / 2)) }, /* zoom */
    { 0.5, 0.25, w - 0.75, h - 0.5, MAX (1, (int) (w / 1.37)), MAX (1, (int) (h / 2.11)) },
  };
  for (guint i = 0; i < G_N_ELEMENTS (rects); i++)
    {
      const LmViewRect *r = &rects[i];
      g_autoptr (LmImage) cpu_view = parity_poisoned (gpu, LM_FORMAT_RGBA8, r->out_w, r->out_h, PARITY_POISON_CPU);
      if (!lm_view_check (host, r, cpu_view, NULL))
        continue; /* a region that does not fit a tiny image */
      g_assert_true (lm_backend_view (cpu, host, r, cpu_view, &e));
      g_autoptr (LmImage) gpu_view = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, r->out_w, r->out_h);
      g_assert_true (lm_backend_view (gpu, device, r, gpu_view, &e));
      g_assert_no_error (e);
      g_autoptr (LmImage) back = parity_download (gpu, gpu_view);
      guint64 differing;
      int worst = parity_u8_distance (cpu_view, back, &differing, NULL);
      summary.view_max = MAX (summary.view_max, worst);
      parity_record (worst == 0, "view %d of %s: max|Δ| %d, %" G_GUINT64_FORMAT " pixels differ", i, image_name,
                     worst, differing);
    }

  /* The image against a blurred copy of itself: many small differences. */
  const LmOpInfo *blur = lm_op_info (LM_OP_BLUR);
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  parity_parse_settings (blur, "sigma=1.5", params);
  g_autoptr (LmImage) other = parity_poisoned (gpu, host->format, host->width, host->height, 0);
  g_assert_true (lm_backend_run_op (cpu, blur, params, host, other, &e));
  g_autoptr (LmImage) other_device = lm_backend_upload (gpu, other, &e);
  g_autoptr (LmImage) heat_cpu = parity_poisoned (gpu, LM_FORMAT_RGBA8, host->width, host->height, PARITY_POISON_CPU);
  g_autoptr (LmImage) heat_gpu = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, host->width, host->height);
  LmDiffStats a, b;
  g_assert_true (lm_backend_diff (cpu, host, other, 10.0f, heat_cpu, &a, &e));
  g_assert_true (lm_backend_diff (gpu, device, other_device, 10.0f, heat_gpu, &b, &e));
  g_assert_no_error (e);
  g_autoptr (LmImage) heat_back = parity_download (gpu, heat_gpu);
  guint64 differing;
  int worst = parity_u8_distance (heat_cpu, heat_back, &differing, NULL);
  gboolean same = a.max_abs == b.max_abs && a.differing == b.differing && a.mean_abs == b.mean_abs
                  && (a.psnr_db == b.psnr_db || (isinf (a.psnr_db) && isinf (b.psnr_db)));
  parity_record (same && worst == 0, "diff of %s: cpu max %u mean %.6f differ %" G_GUINT64_FORMAT "; gpu max %u "
                 "mean %.6f differ %" G_GUINT64_FORMAT "; heatmaps differ in %" G_GUINT64_FORMAT " pixels",
                 image_name, a.max_abs, a.mean_abs, a.differing, b.max_abs, b.mean_abs, b.differing, differing);
}

/* The largest tolerance of OP's sets: its defaults are held to it. An operation of the
 * registry without a set here is a failure (found at the first image). */
static int
tolerance_of (const LmOpInfo *op)
{
  int most = -1;
  for (guint i = 0; i < G_N_ELEMENTS (param_sets); i++)
    if (g_str_equal (param_sets[i].op, op->name))
      most = MAX (most, param_sets[i].tolerance);
  if (most < 0)
    g_error ("%s has no parameter set in test-parity.c", op->name);
  return most;
}

static void check_image16 (const char *name, const LmImage *host8);

/* Every parameter set on HOST, and on its gray version (the input of later operations after
 * a full grayscale). */
static void
check_image (const char *name, LmImage *host, gboolean large)
{
  GError *e = NULL;
  g_autoptr (LmImage) device = lm_backend_upload (gpu, host, &e);
  g_assert_no_error (e);
  check_histogram (name, host, device);
  check_view_and_diff (name, host, device);
  check_fused_points (name, host, device, NULL);
  check_fused_points (name, host, device, "colormix");
  /* LUMEN_PARITY_ONLY=resize,crop: those operations alone (a kernel's quick check). */
  g_auto (GStrv) only = g_getenv ("LUMEN_PARITY_ONLY") ? g_strsplit (g_getenv ("LUMEN_PARITY_ONLY"), ",", -1) : NULL;
  for (int id = 0; id < LM_N_OPS; id++)
    {
      const LmOpInfo *op = lm_op_info (id);
      if (only && !g_strv_contains ((const char *const *) only, op->name))
        continue;
      const ParamSet defaults = { op->name, "", tolerance_of (op) };
      check_op (name, host, device, op, &defaults);
      for (guint i = 0; i < G_N_ELEMENTS (param_sets); i++)
        if (g_str_equal (param_sets[i].op, op->name) && !(large && param_sets[i].small_only))
          check_op (name, host, device, op, &param_sets[i]);
    }

  if (!large)
    check_image16 (name, host);
  if (host->format != LM_FORMAT_RGBA8 || !host->opaque)
    return;
  const LmOpInfo *gray_op = lm_op_info (LM_OP_GRAY);
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  lm_op_params_init (gray_op, params);
  g_autoptr (LmImage) gray = parity_poisoned (gpu, LM_FORMAT_GRAY8, host->width, host->height, 0);
  g_assert_true (lm_backend_run_op (cpu, gray_op, params, host, gray, &e));
  g_autofree char *gray_name = g_strdup_printf ("%s (gray)", name);
  check_image (gray_name, gray, large);
}

/* OP with SETTINGS on both backends from HOST (host memory) and DEVICE (its upload); the
 * largest |Δ| (u16 for 16-bit output) and how many pixels differ. */
static int
run_both (const LmOpInfo *op, const char *settings, const LmImage *host, LmImage *device, guint64 *differing)
{
  GError *e = NULL;
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  parity_parse_settings (op, settings, params);
  LmFormat out_format = op->output_format (params, host->format, host->opaque);
  guint w, h;
  lm_op_output_size (op, params, host->width, host->height, &w, &h);
  g_autoptr (LmImage) cpu_out = parity_poisoned (gpu, out_format, w, h, PARITY_POISON_CPU);
  g_assert_true (lm_backend_run_op (cpu, op, params, host, cpu_out, &e));
  g_autoptr (LmImage) gpu_out = parity_poisoned_device (gpu, out_format, w, h);
  g_assert_true (lm_backend_run_op (gpu, op, params, device, gpu_out, &e));
  g_assert_no_error (e);
  g_autoptr (LmImage) back = parity_download (gpu, gpu_out);
  return parity_u8_distance (cpu_out, back, differing, NULL);
}

/* The GRAY16 image of HOST's (RGBA16) green samples. */
static LmImage *
gray16_of (const LmImage *host)
{
  LmImage *gray = parity_poisoned (gpu, LM_FORMAT_GRAY16, host->width, host->height, 0);
  for (guint y = 0; y < host->height; y++)
    for (guint x = 0; x < host->width; x++)
      ((guint16 *) lm_image_row (gray, y))[x] = ((const guint16 *) lm_image_row (host, y))[4 * x + 1];
  gray->opaque = TRUE;
  return gray;
}

/* The fused PASS on a 16-bit HOST and its upload DEVICE, through the backends' own entry
 * (lm_backend_run_points takes 8-bit sources only): the same u16 values, RGBA16 or GRAY16. */
static void
check_points16 (const char *name16, const LmPointPass *pass, const LmImage *host, LmImage *device)
{
  GError *e = NULL;
  LmFormat format = lm_point_output_format (NULL, host->format, host->opaque);
  g_autoptr (LmImage) cpu_pts = parity_poisoned (gpu, format, host->width, host->height, PARITY_POISON_CPU);
  g_autoptr (LmImage) gpu_pts = parity_poisoned_device (gpu, format, host->width, host->height);
  g_assert_true (cpu->klass->run_points (cpu, pass, host, cpu_pts, &e));
  g_assert_true (gpu->klass->run_points (gpu, pass, device, gpu_pts, &e));
  g_assert_no_error (e);
  g_autoptr (LmImage) pts_back = parity_download (gpu, gpu_pts);
  guint64 differing;
  int worst = parity_u8_distance (cpu_pts, pts_back, &differing, NULL);
  parity_record (worst == 0, "fused (16-bit) %-31s max|Δ| %5d u16, %" G_GUINT64_FORMAT " pixels differ", name16,
                 worst, differing);
}

/* Blur's sets on the GRAY16 image of HOST's green samples (one channel a pixel on the GPU),
 * and the fused PASS there (a gray pass: its own table). */
static void
check_gray16 (const char *name16, const LmImage *host, const LmPointPass *pass)
{
  GError *e = NULL;
  g_autoptr (LmImage) gray = gray16_of (host);
  g_autoptr (LmImage) device = lm_backend_upload (gpu, gray, &e);
  g_assert_no_error (e);
  g_autofree char *gray_name = g_strdup_printf ("%s gray", name16);
  check_points16 (gray_name, pass, gray, device);
  const LmOpInfo *blur = lm_op_info (LM_OP_BLUR);
  for (guint i = 0; i < G_N_ELEMENTS (param_sets); i++)
    {
      const ParamSet *set = &param_sets[i];
      if (!g_str_equal (set->op, blur->name) || set->small_only)
        continue;
      guint64 differing;
      int worst = run_both (blur, set->settings, gray, device, &differing);
      summary.blur16_max = MAX (summary.blur16_max, worst);
      parity_record (worst <= 257 * set->tolerance, "%-10s %-46s %-24s max|Δ| %5d u16 (%.2f 8-bit steps), %"
                     G_GUINT64_FORMAT " pixels differ", blur->name, set->settings, gray_name, worst, worst / 257.0,
                     differing);
    }
}

/* The diff of two 16-bit images on both backends: equal figures (in u16) and heatmaps, for
 * HOST against its blur (many differences) and against a copy with one value changed by one
 * u16 (which must be reported: max 1, one pixel). */
static void
check_diff16 (const char *name16, const LmImage *host, LmImage *device)
{
  GError *e = NULL;
  const LmOpInfo *blur = lm_op_info (LM_OP_BLUR);
  guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  parity_parse_settings (blur, "sigma=1.5", params);
  g_autoptr (LmImage) blurred = parity_poisoned (gpu, host->format, host->width, host->height, 0);
  g_assert_true (lm_backend_run_op (cpu, blur, params, host, blurred, &e));
  g_autoptr (LmImage) nudged = parity_poisoned (gpu, host->format, host->width, host->height, 0);
  for (guint y = 0; y < host->height; y++)
    memcpy (lm_image_row (nudged, y), lm_image_row (host, y), host->width * lm_format_bytes_per_pixel (host->format));
  guint16 *one = (guint16 *) lm_image_row (nudged, host->height / 2) + 4 * (host->width / 3) + 2;
  *one = *one ? *one - 1 : 1;
  nudged->opaque = blurred->opaque = host->opaque;
  LmImage *others[] = { blurred, nudged };
  for (guint k = 0; k < G_N_ELEMENTS (others); k++)
    {
      g_autoptr (LmImage) other_device = lm_backend_upload (gpu, others[k], &e);
      g_autoptr (LmImage) heat_cpu = parity_poisoned (gpu, LM_FORMAT_RGBA8, host->width, host->height, PARITY_POISON_CPU);
      g_autoptr (LmImage) heat_gpu = parity_poisoned_device (gpu, LM_FORMAT_RGBA8, host->width, host->height);
      LmDiffStats a, b;
      g_assert_true (lm_backend_diff (cpu, host, others[k], 10.0f, heat_cpu, &a, &e));
      g_assert_true (lm_backend_diff (gpu, device, other_device, 10.0f, heat_gpu, &b, &e));
      g_assert_no_error (e);
      g_autoptr (LmImage) heat_back = parity_download (gpu, heat_gpu);
      guint64 differing;
      int worst = parity_u8_distance (heat_cpu, heat_back, &differing, NULL);
      gboolean same = a.max_abs == b.max_abs && a.differing == b.differing && a.mean_abs == b.mean_abs
                      && a.depth == 16 && b.depth == 16
                      && (a.psnr_db == b.psnr_db || (isinf (a.psnr_db) && isinf (b.psnr_db)));
      gboolean seen = k == 0 || (a.max_abs == 1 && a.differing == 1);
      parity_record (same && seen && worst == 0, "diff (16-bit) of %s %s: cpu max %u u16 mean %.6f differ %"
                     G_GUINT64_FORMAT "; gpu max %u u16 mean %.6f differ %" G_GUINT64_FORMAT
                     "; heatmaps differ in %" G_GUINT64_FORMAT " pixels", name16, k ? "and one value ± 1" : "and its blur",
                     a.max_abs, a.mean_abs, a.differing, b.max_abs, b.mean_abs, b.differing, differing);
    }
}

/* 16-bit sources: HOST (RGBA8) · 257 plus a smooth term, so that every bit varies. Every
 * operation with 16-bit support on both backends, the fused pass included; tolerances are
 * the 8-bit ones in 16-bit units (× 257), and what is reported is the max |Δ| in u16. */
static void
check_image16 (const char *name, const LmImage *host8)
{
  if (host8->format != LM_FORMAT_RGBA8)
    return;
  GError *e = NULL;
  g_autoptr (LmImage) host = parity_poisoned (gpu, LM_FORMAT_RGBA16, host8->width, host8->height, 0);
  for (guint y = 0; y < host->height; y++)
    for (guint i = 0; i < host->width * 4; i++)
      {
        int smooth = (int) (128.0 + 127.0 * sin ((i / 4) / 37.0) * cos (y / 23.0)) - 128;
        int v = lm_image_row (host8, y)[i] * 257 + (i % 4 == 3 ? 0 : smooth);
        ((guint16 *) lm_image_row (host, y))[i] = (guint16) CLAMP (v, 0, 65535);
      }
  host->opaque = host8->opaque;
  g_autoptr (LmImage) device = lm_backend_upload (gpu, host, &e);
  g_assert_no_error (e);
  g_autofree char *name16 = g_strdup_printf ("%s (16-bit)", name);

  /* Every point operation's first set in one fused pass (check_points16). */
  LmPointPass pass;
  lm_point_pass_init (&pass);
  for (guint i = 0; i < G_N_ELEMENTS (param_sets); i++)
    {
      const LmOpInfo *op = lm_op_info_by_name (param_sets[i].op);
      if (lm_op_is_point (op->id) && (i == 0 || !g_str_equal (param_sets[i - 1].op, param_sets[i].op)))
        {
          guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
          parity_parse_settings (op, param_sets[i].settings, params);
          lm_point_pass_add (&pass, op, params);
        }
    }
  check_points16 (name16, &pass, host, device);

  for (guint i = 0; i < G_N_ELEMENTS (param_sets); i++)
    {
      const ParamSet *set = &param_sets[i];
      const LmOpInfo *op = lm_op_info_by_name (set->op);
      if (lm_op_is_point (op->id) || set->small_only)
        continue;
      guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
      parity_parse_settings (op, set->settings, params);
      LmFormat out_format = op->output_format (params, host->format, host->opaque);
      guint w, h;
      lm_op_output_size (op, params, host->width, host->height, &w, &h);
      g_autoptr (LmImage) cpu_out = parity_poisoned (gpu, out_format, w, h, PARITY_POISON_CPU);
      g_assert_true (lm_backend_run_op (cpu, op, params, host, cpu_out, &e));
      g_autoptr (LmImage) gpu_out = parity_poisoned_device (gpu, out_format, w, h);
      g_assert_true (lm_backend_run_op (gpu, op, params, device, gpu_out, &e));
      g_assert_no_error (e);
      g_autoptr (LmImage) back = parity_download (gpu, gpu_out);
      guint64 differing;
      int worst = parity_u8_distance (cpu_out, back, &differing, NULL);
      parity_record (worst <= 257 * set->tolerance, "%-10s %-46s %-24s max|Δ| %5d u16 (%.2f 8-bit steps), %"
                     G_GUINT64_FORMAT " pixels differ", op->name, set->settings, name16, worst, worst / 257.0,
                     differing);
      if (op->id == LM_OP_BLUR)
        summary.blur16_max = MAX (summary.blur16_max, worst);
    }
  check_gray16 (name16, host, &pass);
  check_diff16 (name16, host, device);
}

/* Noise over smooth gradients: every code value occurs, and edges as well as flat areas. */
static LmImage *
synthetic (guint w, guint h, guint32 seed, gboolean with_alpha)
{
  LmImage *image = parity_poisoned (gpu, LM_FORMAT_RGBA8, w, h, 0);
  GRand *rand = g_rand_new_with_seed (seed);
  for (guint y = 0; y < h; y++)
    {
      guint8 *row = lm_image_row (image, y);
      for (guint x = 0; x < w; x++)
        {
          int base = (int) ((x * 255.0) / MAX (w, 2) * 0.6 + (y * 255.0) / MAX (h, 2) * 0.4);
          for (int c = 0; c < 3; c++)
            row[4 * x + c] = (guint8) CLAMP (base + g_rand_int_range (rand, -40, 41) - 20 * c, 0, 255);
          row[4 * x + 3] = with_alpha ? (guint8) g_rand_int_range (rand, 0, 256) : 255;
        }
    }
  image->opaque = !with_alpha;
  g_rand_free (rand);
  return image;
}

static void
check_photos (void)
{
  g_autofree char *dir = NULL;
  g_autoptr (GPtrArray) names = parity_data_names ("photos", "test photos", &dir);
  if (names == NULL)
    return;
  GError *e = NULL;
  for (guint i = 0; i < names->len; i++)
    {
      const char *photo = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, photo, NULL);
      g_autoptr (LmImage) host = lm_io_load (path, lm_backend_host_allocator (gpu), &e);
      g_assert_no_error (e);
      gboolean large = (guint64) host->width * host->height > 8000000;
      check_image (photo, host, large);
      printf ("checked %s (%u×%u)\n", photo, host->width, host->height);
    }
}

/* Shrinks by exactly 2 or 4 on each axis, which the GPU sums in integers (resize-whole.cu):
 * bit for bit the CPU's, on RGBA with alpha and on gray, where a row's last pixels fall in
 * a thread's group cut short (34 and 17 columns out) and on a 24 MP photo's size. A side
 * one pixel off takes the float sums again: held to the usual 1. */
static void
check_whole_factors (void)
{
  static const struct {
    guint w, h;
  } sizes[] = { { 68, 36 }, { 640, 480 }, { 6000, 4000 } };
  const char *only = g_getenv ("LUMEN_PARITY_ONLY");
  if (only && !strstr (only, "resize"))
    return;
  const LmOpInfo *resize = lm_op_info (LM_OP_RESIZE), *gray_op = lm_op_info (LM_OP_GRAY);
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (int gray = 0; gray < 2; gray++)
      {
        GError *e = NULL;
        guint w = sizes[i].w, h = sizes[i].h;
        g_autoptr (LmImage) host = synthetic (w, h, 77 + i, !gray);
        if (gray)
          {
            guint8 params[LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
            lm_op_params_init (gray_op, params);
            g_autoptr (LmImage) rgba = g_steal_pointer (&host);
            host = parity_poisoned (gpu, LM_FORMAT_GRAY8, w, h, 0);
            g_assert_true (lm_backend_run_op (cpu, gray_op, params, rgba, host, &e));
          }
        g_autoptr (LmImage) device = lm_backend_upload (gpu, host, &e);
        g_assert_no_error (e);
        g_autofree char *name = g_strdup_printf ("%u×%u%s", w, h, gray ? " gray" : " alpha");
        for (guint kx = 2; kx <= 4; kx += 2)
          for (guint ky = 2; ky <= 4; ky += 2)
            for (int off = 0; off < 2; off++)
              {
                g_autofree char *settings = g_strdup_printf ("width=%u height=%u mode=exact", w / kx + off, h / ky);
                const ParamSet set = { "resize", settings, off };
                check_op (name, host, device, resize, &set);
              }
      }
}

int
main (int argc, char **argv)
{
  int skip = parity_open ("parity", FALSE, &cpu, &gpu);
  if (skip)
    return skip;

  check_whole_factors ();
  check_photos ();

  static const struct {
    guint w, h;
    gboolean alpha;
  } sizes[] = {
    { 1, 1, FALSE }, { 1, 7, FALSE }, { 7, 1, FALSE }, { 7, 10001, FALSE }, { 13, 17, TRUE },
    { 333, 211, FALSE }, { 1023, 769, TRUE }, { 4097, 3, FALSE }, { 16384, 16384, FALSE },
    /* Sides past the grid's 65,535 rows or columns: every kernel walks them. */
    { 1, 70000, FALSE }, { 70000, 1, TRUE }, { 100000, 3, FALSE },
  };
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gboolean large = sizes[i].w * (guint64) sizes[i].h > 8000000;
      if (large && g_getenv ("LUMEN_PARITY_QUICK"))
        continue;
      g_autoptr (LmImage) image = synthetic (sizes[i].w, sizes[i].h, 1000 + i, sizes[i].alpha);
      g_autofree char *name = g_strdup_printf ("%u×%u%s", sizes[i].w, sizes[i].h,
                                               sizes[i].alpha ? " alpha" : "");
      check_image (name, image, large);
      printf ("checked %s\n", name);
    }

  printf ("parity maxima:");
  for (int id = 0; id < LM_N_OPS; id++)
    printf (" %s max|Δ| %.0f,", lm_op_info (id)->name, summary.max_delta[id]);
  printf (" fused point pass max|Δ| %d,", summary.fused_max);
  printf (" blur (16-bit) max|Δ| %d u16,", summary.blur16_max);
  printf (" view max|Δ| %d, histograms and diffs equal; %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n",
          summary.view_max, parity_cases (), parity_failures ());
  lm_backend_free (cpu);
  lm_backend_free (gpu);
  return parity_failures () ? 1 : 0;
}
