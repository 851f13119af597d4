/* An operation's CUDA launch is lent its own scratch alone (kernels/kernels.h, LmKScratch),
 * of the bytes its own rule asks for: equalize's counts and tables are in its scratch too,
 * not in buffers of the backend's. Given one byte less than its rule asks, a launch refuses
 * before it queues anything, so that no kernel writes past the end; the refusal comes before
 * any CUDA call, so this runs without a device. */
#include "config.h"
#include "core/ops/ops.h"
#if LUMEN_HAVE_CUDA
#include "core/backend/cuda-private.h"
#endif

#include "test-util.h"

#if LUMEN_HAVE_CUDA
static const int formats[] = { LM_K_RGBA8, LM_K_GRAY8, LM_K_RGBA16, LM_K_GRAY16 };

/* OP with PARAMS on a 64 × 48 image of each 8- and 16-bit format: a need of its own, and
 * refused one byte short of it. */
static void
check_refused_short (LmOpId id, const void *params)
{
  const LmKOp *k = lm_cuda_op (id);
  g_assert_nonnull (k);
  g_assert_nonnull (k->workspace);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      LmKImage src = { .data = NULL, .width = 64, .height = 48, .stride = 1024, .format = formats[i] };
      LmFormat out_format = lm_op_info (id)->output_format (params, (LmFormat) formats[i], FALSE);
      LmKImage dst = src;
      dst.format = (int) out_format;
      if (id == LM_OP_RESIZE)
        dst.width = 32, dst.height = 24;
      size_t need = k->workspace (params, &src);
      g_test_message ("%s, format %d: %zu bytes", lm_op_info (id)->name, formats[i], need);
      g_assert_cmpuint (need, >, 0);
      if (need == 0)
        continue;
      LmKScratch short_one = { NULL, need - 1 };
      g_assert_cmpint (k->launch (params, &src, &dst, &short_one, NULL), ==, cudaErrorInvalidValue);
    }
}
#endif

static void
test_equalize (void)
{
#if LUMEN_HAVE_CUDA
  LmEqualizeParams p;
  lm_op_params_init (lm_op_info (LM_OP_EQUALIZE), &p);
  check_refused_short (LM_OP_EQUALIZE, &p);
#else
  g_test_skip ("built without CUDA");
#endif
}

static void
test_blur (void)
{
#if LUMEN_HAVE_CUDA
  LmBlurParams p;
  lm_op_params_init (lm_op_info (LM_OP_BLUR), &p);
  p.sigma = 3.0f;
  check_refused_short (LM_OP_BLUR, &p);
#else
  g_test_skip ("built without CUDA");
#endif
}

/* Its weights follow the plane in the scratch: a scratch one byte short of both is refused. */
static void
test_sharpen (void)
{
#if LUMEN_HAVE_CUDA
  LmSharpenParams p;
  lm_op_params_init (lm_op_info (LM_OP_SHARPEN), &p);
  p.amount = 1.0f, p.radius = 10.0f;
  check_refused_short (LM_OP_SHARPEN, &p);
#else
  g_test_skip ("built without CUDA");
#endif
}

static void
test_resize (void)
{
#if LUMEN_HAVE_CUDA
  LmResizeParams p;
  lm_op_params_init (lm_op_info (LM_OP_RESIZE), &p);
  p.width = 32.0f;
  check_refused_short (LM_OP_RESIZE, &p);
#else
  g_test_skip ("built without CUDA");
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/kernel-scratch/equalize", test_equalize);
  g_test_add_func ("/kernel-scratch/blur", test_blur);
  g_test_add_func ("/kernel-scratch/sharpen", test_sharpen);
  g_test_add_func ("/kernel-scratch/resize", test_resize);
  return g_test_run ();
}
