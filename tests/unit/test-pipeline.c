/* The pipeline and its render cache on the CPU backend: which operations a change
 * recomputes, that cached results are the ones the operations give when applied by hand in
 * order, and the sidecar (GKeyFile) form with its validation. */
#include <string.h>

#include "core/backend/backend.h"
#include "core/error.h"
#include "core/hdr/tonemap.h"
#include "core/ops/equalize-math.h"
#include "core/ops/gray-math.h"
#include "core/ops/blur-math.h"
#include "core/ops/ops.h"
#include "core/edit/pipeline.h"
#include "core/render/cache.h"
#include "test-util.h"

#define GRAY(pl) ((LmGrayParams *) lm_pipeline_stage (pl, LM_OP_GRAY)->params.bytes)
#define EQUALIZE(pl) ((LmEqualizeParams *) lm_pipeline_stage (pl, LM_OP_EQUALIZE)->params.bytes)
#define BLUR(pl) ((LmBlurParams *) lm_pipeline_stage (pl, LM_OP_BLUR)->params.bytes)

/* What the pipeline should give: its enabled operations applied by hand, in registry order,
 * each through its registration. */
static LmImage *
apply_by_hand (LmPipeline *pipeline, LmImage *source)
{
  LmImage *current = lm_image_ref (source);
  for (int i = 0; i < LM_N_OPS; i++)
    {
      LmStage *stage = lm_pipeline_stage (pipeline, i);
      if (!stage->enabled)
        continue;
      LmImage *next = lm_test_run_op (stage->info, stage->params.bytes, current);
      lm_image_unref (current);
      current = next;
    }
  return current;
}

/* Runs the cache, checks how many operations it computed and that the result is the
 * by-hand one. */
static void
run_and_check (LmRenderCache *cache, LmPipeline *pipeline, LmImage *source, guint computed,
               LmTimings *timings)
{
  GError *error = NULL;
  g_autoptr (LmImage) result = lm_render_cache_run (cache, pipeline, timings, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, computed);
  g_autoptr (LmImage) want = apply_by_hand (pipeline, source);
  lm_test_assert_same_pixels (result, want);
}

/* The timing of LABEL: present, and cached or computed as expected. */
static void
assert_timing (const LmTimings *timings, const char *label, gboolean cached)
{
  const LmTiming *t = lm_timings_find (timings, label);
  g_assert_nonnull (t);
  g_assert_cmpint (t->cached, ==, cached);
}

static void
test_cache_recomputes_from_change (void)
{
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (LmImage) host = lm_test_random_rgba (24, 16, 42, FALSE);
  GError *error = NULL;
  g_autoptr (LmImage) source = lm_backend_upload (backend, host, &error);
  g_assert_no_error (error);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, source);

  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);

  /* Nothing enabled: the source itself, nothing computed. */
  {
    g_autoptr (LmImage) result = lm_render_cache_run (cache, &pipeline, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (result == source);
    g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 0);
  }

  /* Gray and blur: both computed; gray at amount 1 on an opaque image is one channel. */
  lm_pipeline_stage (&pipeline, LM_OP_GRAY)->enabled = TRUE;
  lm_pipeline_stage (&pipeline, LM_OP_BLUR)->enabled = TRUE;
  BLUR (&pipeline)->sigma = 2.0f;
  LmTimings timings;
  lm_timings_init (&timings);
  run_and_check (cache, &pipeline, source, 2, &timings);
  assert_timing (&timings, "gray", FALSE);
  assert_timing (&timings, "blur", FALSE);
  g_assert_null (lm_timings_find (&timings, "equalize"));
  lm_timings_clear (&timings);

  /* The same pipeline again: nothing computed, same pixels, both timings "cached". */
  lm_timings_init (&timings);
  run_and_check (cache, &pipeline, source, 0, &timings);
  assert_timing (&timings, "gray", TRUE);
  assert_timing (&timings, "blur", TRUE);
  lm_timings_clear (&timings);

  /* Only blur changed: blur alone is recomputed, from gray's cached output. */
  BLUR (&pipeline)->sigma = 3.5f;
  lm_timings_init (&timings);
  run_and_check (cache, &pipeline, source, 1, &timings);
  assert_timing (&timings, "gray", TRUE);
  assert_timing (&timings, "blur", FALSE);
  lm_timings_clear (&timings);

  /* Gray changed: gray and everything after it. */
  GRAY (&pipeline)->mode = LM_GRAY_BT601;
  run_and_check (cache, &pipeline, source, 2, NULL);

  /* Gray at amount 0.5 stores RGBA now: both outputs change shape, both recomputed. */
  GRAY (&pipeline)->amount = 0.5f;
  run_and_check (cache, &pipeline, source, 2, NULL);
  GRAY (&pipeline)->amount = 1.0f;
  run_and_check (cache, &pipeline, source, 2, NULL);

  /* A disabled operation's parameters do not matter. */
  EQUALIZE (&pipeline)->mode = LM_EQUALIZE_RGB;
  run_and_check (cache, &pipeline, source, 0, NULL);

  /* Gray off: blur now reads the source and must be recomputed. */
  lm_pipeline_stage (&pipeline, LM_OP_GRAY)->enabled = FALSE;
  run_and_check (cache, &pipeline, source, 1, NULL);

  /* Gray on again with the same parameters: gray's output is still valid, but blur's last
   * output was made from the source, so blur is recomputed — 1, and the gray-then-blur
   * pixels, not the blur-of-the-source ones. */
  lm_pipeline_stage (&pipeline, LM_OP_GRAY)->enabled = TRUE;
  run_and_check (cache, &pipeline, source, 1, NULL);

  /* Equalize switched on in the middle: equalize and blur, gray from the cache. */
  lm_pipeline_stage (&pipeline, LM_OP_EQUALIZE)->enabled = TRUE;
  run_and_check (cache, &pipeline, source, 2, NULL);
  run_and_check (cache, &pipeline, source, 0, NULL);

  /* The last operation off: nothing to compute, the result is equalize's cached output;
   * on again, unchanged, with the same input: still nothing to compute. */
  lm_pipeline_stage (&pipeline, LM_OP_BLUR)->enabled = FALSE;
  run_and_check (cache, &pipeline, source, 0, NULL);
  lm_pipeline_stage (&pipeline, LM_OP_BLUR)->enabled = TRUE;
  run_and_check (cache, &pipeline, source, 0, NULL);

  /* Back to the first settings after all this: gray and blur recomputed (equalize off
   * changes blur's input; gray's parameters changed since). */
  lm_pipeline_stage (&pipeline, LM_OP_EQUALIZE)->enabled = FALSE;
  GRAY (&pipeline)->mode = LM_GRAY_LUMINOSITY;
  BLUR (&pipeline)->sigma = 2.0f;
  run_and_check (cache, &pipeline, source, 2, NULL);
}

/* Each operation alone: the others pass the image through untouched. */
static void
test_disabled_pass_through (void)
{
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (LmImage) source = lm_test_random_rgba (19, 11, 8, TRUE);
  for (int only = 0; only < LM_N_OPS; only++)
    {
      g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, source);
      LmPipeline pipeline;
      lm_pipeline_init (&pipeline);
      lm_pipeline_stage (&pipeline, only)->enabled = TRUE;
      run_and_check (cache, &pipeline, source, 1, NULL);

      /* And by hand, directly: the one operation on the source. */
      GError *error = NULL;
      g_autoptr (LmImage) result = lm_render_cache_run (cache, &pipeline, NULL, &error);
      g_assert_no_error (error);
      g_autoptr (LmImage) want = lm_test_run_op (lm_op_info (only), lm_pipeline_stage (&pipeline, only)->params.bytes,
                                                 source);
      lm_test_assert_same_pixels (result, want);
    }
}

/* Grayscale's output switches between colour (amount 0.5) and one channel (amount 1), and
 * blur's after it: the cache keeps their buffers (reshaped, not allocated anew, which grew the
 * window: bench/results/text/soak.md), and what a kept buffer held never shows. Between runs the
 * result is overwritten with a pattern, as stale bytes of the other format. A buffer that is
 * still held elsewhere is left as its holder sees it. */
static void
test_cache_format_switch_keeps_buffers (void)
{
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (LmImage) source = lm_test_random_rgba (37, 23, 5, FALSE);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, source);
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  lm_pipeline_stage (&pipeline, LM_OP_GRAY)->enabled = TRUE;
  lm_pipeline_stage (&pipeline, LM_OP_BLUR)->enabled = TRUE;
  const float amounts[] = { 0.5f, 1.0f, 0.5f, 1.0f };
  const float sigmas[] = { 20.0f, 20.0f, 2.0f, 17.0f };
  guint8 *kept = NULL;
  GError *error = NULL;
  for (guint i = 0; i < G_N_ELEMENTS (amounts); i++)
    {
      GRAY (&pipeline)->amount = amounts[i];
      BLUR (&pipeline)->sigma = sigmas[i];
      LmImage *result = lm_render_cache_run (cache, &pipeline, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (result->format == (amounts[i] < 1.0f ? LM_FORMAT_RGBA8 : LM_FORMAT_GRAY8));
      g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 2);
      if (kept == NULL)
        kept = result->data;
      g_assert_true (result->data == kept);
      g_autoptr (LmImage) want = apply_by_hand (&pipeline, source);
      lm_test_assert_same_pixels (result, want);
      memset (result->data, 0xC3, lm_image_size_bytes (result));
      lm_image_unref (result);
      LM_TEST_RETURN_IF_FAILED ();
    }

  /* Held (one channel) while the output goes back to colour: a new buffer; the held one keeps
   * its shape and bytes. */
  g_autoptr (LmImage) held = lm_render_cache_run (cache, &pipeline, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (held->format == LM_FORMAT_GRAY8);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, 0);
  g_autoptr (LmImage) held_copy = lm_test_image_new (LM_FORMAT_GRAY8, held->width, held->height, 0);
  memcpy (held_copy->data, held->data, lm_image_size_bytes (held));
  GRAY (&pipeline)->amount = 0.5f;
  g_autoptr (LmImage) colour = lm_render_cache_run (cache, &pipeline, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (colour->data != held->data);
  g_assert_true (held->format == LM_FORMAT_GRAY8);
  lm_test_assert_same_pixels (held, held_copy);
  g_autoptr (LmImage) want = apply_by_hand (&pipeline, source);
  lm_test_assert_same_pixels (colour, want);
}

/* Same operation, enable flag and parameter bytes (compared field by field: padding between
 * fields is not part of the value). */
static void
assert_stage_identical (const LmStage *a, const LmStage *b)
{
  g_assert_true (a->info == b->info);
  g_assert_cmpint (a->enabled, ==, b->enabled);
  g_assert_cmpmem (a->params.bytes, a->info->params_size, b->params.bytes, b->info->params_size);
}

static void
assert_pipeline_identical (const LmPipeline *a, const LmPipeline *b)
{
  for (int i = 0; i < LM_N_OPS; i++)
    assert_stage_identical (lm_pipeline_primary (a, i), lm_pipeline_primary (b, i));
}

/* A pipeline with every kind of value set away from its default. */
static void
custom_pipeline (LmPipeline *pipeline)
{
  lm_pipeline_init (pipeline);
  lm_pipeline_stage (pipeline, LM_OP_GRAY)->enabled = TRUE;
  GRAY (pipeline)->mode = LM_GRAY_MIX;
  GRAY (pipeline)->amount = 0.25f;
  GRAY (pipeline)->red = -1.5f;
  GRAY (pipeline)->green = 0.125f;
  GRAY (pipeline)->blue = 2.0f;
  lm_pipeline_stage (pipeline, LM_OP_EQUALIZE)->enabled = FALSE;
  EQUALIZE (pipeline)->mode = LM_EQUALIZE_RGB;
  EQUALIZE (pipeline)->amount = 0.75f;
  lm_pipeline_stage (pipeline, LM_OP_BLUR)->enabled = TRUE;
  BLUR (pipeline)->sigma = 7.5f;
}

static void
test_keyfile_round_trip (void)
{
  LmPipeline original;
  custom_pipeline (&original);
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&original);

  /* The sidecar says what it holds, in the documented form. */
  g_autofree char *mode = g_key_file_get_string (keyfile, "gray", "mode", NULL);
  g_autofree char *amount = g_key_file_get_string (keyfile, "gray", "amount", NULL);
  g_autofree char *sigma = g_key_file_get_string (keyfile, "blur", "sigma", NULL);
  g_autofree char *eq_mode = g_key_file_get_string (keyfile, "equalize", "mode", NULL);
  g_assert_cmpstr (mode, ==, "mix");
  g_assert_cmpstr (amount, ==, "0.25");
  g_assert_cmpstr (sigma, ==, "7.5");
  g_assert_cmpstr (eq_mode, ==, "rgb");
  g_assert_true (g_key_file_get_boolean (keyfile, "gray", "enabled", NULL));
  g_assert_false (g_key_file_get_boolean (keyfile, "equalize", "enabled", NULL));
  g_assert_true (g_key_file_get_boolean (keyfile, "blur", "enabled", NULL));

  /* Through text, as a sidecar file goes, into a default pipeline. */
  gsize len = 0;
  g_autofree char *text = g_key_file_to_data (keyfile, &len, NULL);
  g_autoptr (GKeyFile) reread = g_key_file_new ();
  GError *error = NULL;
  g_assert_true (g_key_file_load_from_data (reread, text, len, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);

  LmPipeline copy;
  lm_pipeline_init (&copy);
  g_assert_true (lm_pipeline_from_keyfile (&copy, reread, &error));
  g_assert_no_error (error);
  /* Disabled stages keep their parameters too (lm_stage_equal would ignore them). */
  for (int i = 0; i < LM_N_OPS; i++)
    g_assert_true (lm_stage_equal (lm_pipeline_stage (&copy, i), lm_pipeline_stage (&original, i)));
  assert_pipeline_identical (&copy, &original);
}

/* Values as a slider leaves them (not round decimals) come back bit for bit, so that a look
 * saved beside a photo and batch-applied renders what the window showed. A float needs 9
 * significant digits to survive text (FLT_DECIMAL_DIG). */
static void
test_keyfile_round_trip_exact_floats (void)
{
  LmPipeline original;
  custom_pipeline (&original);
  GRAY (&original)->amount = 0.1234567f;
  GRAY (&original)->red = -1.2345678f;
  GRAY (&original)->green = 0.3f;        /* not exact in binary: 0.300000011920928955… */
  GRAY (&original)->blue = 1.0f / 3.0f;
  BLUR (&original)->sigma = 12.345678f;
  EQUALIZE (&original)->amount = 0.7071068f;

  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&original);
  LmPipeline copy;
  lm_pipeline_init (&copy);
  GError *error = NULL;
  g_assert_true (lm_pipeline_from_keyfile (&copy, keyfile, &error));
  g_assert_no_error (error);

  const struct {
    const char *name;
    float want, got;
  } values[] = {
    { "gray amount", GRAY (&original)->amount, GRAY (&copy)->amount },
    { "gray red", GRAY (&original)->red, GRAY (&copy)->red },
    { "gray green", GRAY (&original)->green, GRAY (&copy)->green },
    { "gray blue", GRAY (&original)->blue, GRAY (&copy)->blue },
    { "blur sigma", BLUR (&original)->sigma, BLUR (&copy)->sigma },
    { "equalize amount", EQUALIZE (&original)->amount, EQUALIZE (&copy)->amount },
  };
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      if (values[i].got != values[i].want)
        g_test_message ("%s: %.9g came back as %.9g", values[i].name, values[i].want,
                        values[i].got);
      g_assert_cmpfloat (values[i].got, ==, values[i].want);
    }
  assert_pipeline_identical (&copy, &original);
}

static LmPipeline
load_sidecar (const LmPipeline *start, const char *text, GError **error)
{
  g_autoptr (GKeyFile) keyfile = g_key_file_new ();
  g_assert_true (g_key_file_load_from_data (keyfile, text, -1, G_KEY_FILE_NONE, NULL));
  LmPipeline pipeline = *start;
  lm_pipeline_from_keyfile (&pipeline, keyfile, error);
  return pipeline;
}

/* A sidecar may name only what it changes; the rest keeps the pipeline's values. */
static void
test_keyfile_partial (void)
{
  LmPipeline start;
  custom_pipeline (&start);
  GError *error = NULL;
  LmPipeline p = load_sidecar (&start, "[blur]\nsigma=3\n", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (BLUR (&p)->sigma, ==, 3.0f);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_BLUR)->enabled);
  g_assert_true (lm_stage_equal (lm_pipeline_stage (&p, LM_OP_GRAY), lm_pipeline_stage (&start, LM_OP_GRAY)));
  assert_stage_identical (lm_pipeline_stage (&p, LM_OP_EQUALIZE), lm_pipeline_stage (&start, LM_OP_EQUALIZE));

  p = load_sidecar (&start, "[equalize]\nenabled=true\n[gray]\nmode=bt601\n", &error);
  g_assert_no_error (error);
  g_assert_true (lm_pipeline_stage (&p, LM_OP_EQUALIZE)->enabled);
  g_assert_cmpint (EQUALIZE (&p)->mode, ==, LM_EQUALIZE_RGB);
  g_assert_cmpint (GRAY (&p)->mode, ==, LM_GRAY_BT601);
  g_assert_cmpfloat (GRAY (&p)->amount, ==, 0.25f);

  /* The ends of each range are inside it. */
  p = load_sidecar (&start, "[blur]\nsigma=200\n[gray]\namount=0\nred=-2\nblue=2\n", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (BLUR (&p)->sigma, ==, 200.0f);
  g_assert_cmpfloat (GRAY (&p)->amount, ==, 0.0f);
  g_assert_cmpfloat (GRAY (&p)->red, ==, -2.0f);
}

/* Sidecars that must be refused: the error names the problem and the pipeline is left as
 * it was, even when an earlier group of the same file was fine. */
static void
test_keyfile_rejects (void)
{
  static const struct {
    const char *text;
    const char *must_mention;
  } cases[] = {
    { "[emboss]\namount=1\n", "emboss" },
    { "[gray]\nradius=3\n", "radius" },
    { "[blur]\nsigma=500\n", "500" },
    { "[blur]\nsigma=-1\n", "sigma" },
    { "[gray]\namount=1.5\n", "amount" },
    { "[gray]\namount=-0.1\n", "amount" },
    { "[gray]\nred=2.5\n", "red" },
    { "[gray]\nmode=sepia\n", "sepia" },
    { "[equalize]\nmode=hsv\n", "hsv" },
    { "[blur]\nsigma=abc\n", "abc" },
    { "[blur]\nsigma=nan\n", "sigma" },
    { "[blur]\nsigma=inf\n", "sigma" },
    { "[blur]\nsigma=3px\n", "3px" },
    { "[blur]\nsigma=\n", "sigma" },
    { "[blur]\nsigma=3\n[gray]\nmode=sepia\n", "sepia" },
  };
  LmPipeline start;
  custom_pipeline (&start);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GKeyFile) keyfile = g_key_file_new ();
      g_assert_true (g_key_file_load_from_data (keyfile, cases[i].text, -1, G_KEY_FILE_NONE, NULL));
      LmPipeline p = start;
      GError *error = NULL;
      gboolean ok = lm_pipeline_from_keyfile (&p, keyfile, &error);
      if (ok)
        g_test_message ("accepted: %s", cases[i].text);
      g_assert_false (ok);
      g_assert_nonnull (error);
      LM_TEST_RETURN_IF_FAILED ();
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
      if (strstr (error->message, cases[i].must_mention) == NULL)
        g_test_message ("'%s' does not mention '%s'", error->message, cases[i].must_mention);
      g_assert_nonnull (strstr (error->message, cases[i].must_mention));
      g_clear_error (&error);
      assert_pipeline_identical (&p, &start);
    }
}

/* "enabled" that is not a boolean is refused like any other bad value, and, as error.h
 * promises for every failure a user can cause, as a LUMEN_ERROR: callers that read the code
 * of a sidecar error must not find a GKeyFile code there (G_KEY_FILE_ERROR_INVALID_VALUE is
 * 5, which is LM_ERROR_DEVICE in our domain). */
static void
test_keyfile_bad_enabled (void)
{
  const char *texts[] = { "[blur]\nenabled=maybe\n", "[gray]\nenabled=2\n" };
  LmPipeline start;
  custom_pipeline (&start);
  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr (GKeyFile) keyfile = g_key_file_new ();
      g_assert_true (g_key_file_load_from_data (keyfile, texts[i], -1, G_KEY_FILE_NONE, NULL));
      LmPipeline p = start;
      GError *error = NULL;
      g_assert_false (lm_pipeline_from_keyfile (&p, keyfile, &error));
      g_assert_nonnull (error);
      LM_TEST_RETURN_IF_FAILED ();
      assert_pipeline_identical (&p, &start);
      g_assert_nonnull (strstr (error->message, "enabled"));
      if (!g_error_matches (error, LUMEN_ERROR, LM_ERROR_INVALID))
        g_test_message ("%s: error domain %s, code %d", texts[i], g_quark_to_string (error->domain),
                        error->code);
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
      g_clear_error (&error);
    }
}

/* A radiance source: the edits on scene light first (exposure as a gain, blur on floats), then
 * the tone mapping (timing "tonemap") into what equals lm_tonemap_cpu's output on a poisoned
 * buffer, then the other operations; a change to one of those keeps the tone mapping, a change
 * to a scene edit or to the tone mapping recomputes from there. */
static LmImage *
random_radiance (guint width, guint height, guint32 seed)
{
  LmImage *img = lm_test_image_new (LM_FORMAT_RGBA_F32, width, height, 0xFF); /* NaN padding */
  GRand *rand = g_rand_new_with_seed (seed);
  for (guint y = 0; y < height; y++)
    {
      float *p = (float *) lm_image_row (img, y);
      for (guint x = 0; x < width; x++)
        {
          for (int c = 0; c < 3; c++)
            p[4 * x + c] = (float) exp (g_rand_double_range (rand, -6.0, 4.0)); /* 10 stops */
          p[4 * x + 3] = 1.0f;
        }
    }
  g_rand_free (rand);
  return img;
}

/* The scene edits of PIPELINE on RADIANCE by hand: the exposure's 2^EV on R, G, B, then blur. */
static LmImage *
scene_by_hand (LmPipeline *pipeline, LmImage *radiance)
{
  LmImage *scene = lm_test_image_new (LM_FORMAT_RGBA_F32, radiance->width, radiance->height, 0xFF);
  const LmStage *exposure = lm_pipeline_stage (pipeline, LM_OP_EXPOSURE);
  float gain = exposure->enabled ? exp2f (((const LmExposureParams *) exposure->params.bytes)->ev) : 1.0f;
  for (guint y = 0; y < radiance->height; y++)
    for (guint x = 0; x < 4 * radiance->width; x++)
      ((float *) lm_image_row (scene, y))[x]
        = ((const float *) lm_image_row (radiance, y))[x] * (x % 4 == 3 ? 1.0f : gain);
  LmStage *blur = lm_pipeline_stage (pipeline, LM_OP_BLUR);
  if (blur->enabled)
    {
      LmImage *blurred = lm_test_run_op (blur->info, blur->params.bytes, scene);
      g_assert_cmpint (blurred->format, ==, LM_FORMAT_RGBA_F32);
      lm_image_unref (scene);
      scene = blurred;
    }
  return scene;
}

static void
run_radiance_and_check (LmRenderCache *cache, LmPipeline *pipeline, LmImage *radiance, guint computed,
                        gboolean tonemap_cached)
{
  LmTimings timings;
  lm_timings_init (&timings);
  GError *error = NULL;
  g_autoptr (LmImage) result = lm_render_cache_run (cache, pipeline, &timings, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_cmpuint (lm_render_cache_last_computed (cache), ==, computed);
  assert_timing (&timings, "tonemap", tonemap_cached);
  lm_timings_clear (&timings);

  /* By hand: the scene edits, the CPU tone mapping into a poisoned buffer, checked written,
   * then the other operations. */
  g_autoptr (LmImage) scene = scene_by_hand (pipeline, radiance);
  g_autoptr (LmImage) mapped = lm_test_image_new (LM_FORMAT_RGBA8, radiance->width, radiance->height, 0x5A);
  g_assert_true (lm_tonemap_cpu (lm_pipeline_tonemap (pipeline), scene, mapped, &error));
  g_assert_no_error (error);
  for (guint y = 0; y < mapped->height; y++)
    for (guint x = 0; x < mapped->width; x++)
      g_assert_cmpuint (lm_test_pixel (mapped, x, y)[3], ==, 255);
  LM_TEST_RETURN_IF_FAILED ();
  mapped->opaque = TRUE;
  LmPipeline display = *pipeline;
  lm_pipeline_stage (&display, LM_OP_EXPOSURE)->enabled = FALSE;
  lm_pipeline_stage (&display, LM_OP_BLUR)->enabled = FALSE;
  g_autoptr (LmImage) want = apply_by_hand (&display, mapped);
  lm_test_assert_same_pixels (result, want);
}

static void
test_cache_radiance (void)
{
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (LmImage) radiance = random_radiance (40, 28, 7);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, radiance);
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);

  run_radiance_and_check (cache, &pipeline, radiance, 1, FALSE); /* tone mapping alone */
  lm_pipeline_stage (&pipeline, LM_OP_GRAY)->enabled = TRUE;
  run_radiance_and_check (cache, &pipeline, radiance, 1, TRUE); /* gray after it */
  lm_pipeline_stage (&pipeline, LM_OP_BLUR)->enabled = TRUE;
  BLUR (&pipeline)->sigma = 1.5f;
  run_radiance_and_check (cache, &pipeline, radiance, 3, FALSE); /* blur before it */
  BLUR (&pipeline)->sigma = 2.5f;
  run_radiance_and_check (cache, &pipeline, radiance, 3, FALSE);
  lm_pipeline_tonemap (&pipeline)->kind = LM_TONEMAP_DRAGO;
  run_radiance_and_check (cache, &pipeline, radiance, 2, FALSE); /* the blurred scene kept */
  lm_pipeline_stage (&pipeline, LM_OP_EXPOSURE)->enabled = TRUE;
  ((LmExposureParams *) lm_pipeline_stage (&pipeline, LM_OP_EXPOSURE)->params.bytes)->ev = -1.5f;
  run_radiance_and_check (cache, &pipeline, radiance, 4, FALSE); /* the gain, then all after it */
  lm_pipeline_tonemap (&pipeline)->kind = LM_TONEMAP_GAMMA;
  lm_pipeline_tonemap (&pipeline)->gamma = 2.2f;
  lm_pipeline_stage (&pipeline, LM_OP_GRAY)->enabled = FALSE;
  run_radiance_and_check (cache, &pipeline, radiance, 1, FALSE);
}

/* The tone mapping's parameters only matter for radiance: an 8-bit source ignores them. */
static void
test_cache_tonemap_ignored_for_8bit (void)
{
  g_autoptr (LmBackend) backend = lm_backend_cpu_new ();
  g_autoptr (LmImage) source = lm_test_random_rgba (20, 12, 3, FALSE);
  g_autoptr (LmRenderCache) cache = lm_render_cache_new (backend, source);
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  lm_pipeline_stage (&pipeline, LM_OP_GRAY)->enabled = TRUE;
  run_and_check (cache, &pipeline, source, 1, NULL);
  lm_pipeline_tonemap (&pipeline)->kind = LM_TONEMAP_DRAGO;
  run_and_check (cache, &pipeline, source, 0, NULL);
}

/* [tonemap] round-trips, and bad values are refused with their name. */
static void
test_keyfile_tonemap (void)
{
  LmPipeline original;
  lm_pipeline_init (&original);
  LmTonemapParams *t = lm_pipeline_tonemap (&original);
  t->kind = LM_TONEMAP_DRAGO, t->gamma = 2.2f, t->saturation = 0.8f, t->bias = 0.75f, t->intensity = -1.25f;
  g_autoptr (GKeyFile) keyfile = lm_pipeline_to_keyfile (&original);
  g_autofree char *kind = g_key_file_get_string (keyfile, "tonemap", "kind", NULL);
  g_assert_cmpstr (kind, ==, "drago");
  LmPipeline copy;
  lm_pipeline_init (&copy);
  GError *error = NULL;
  g_assert_true (lm_pipeline_from_keyfile (&copy, keyfile, &error));
  g_assert_no_error (error);
  g_assert_true (lm_pipeline_equal (&copy, &original));
  g_assert_cmpmem (lm_pipeline_tonemap (&copy), sizeof (LmTonemapParams), t, sizeof (LmTonemapParams));

  const char *bad[][2] = { { "[tonemap]\nkind=filmic\n", "filmic" },
                           { "[tonemap]\nbias=0.95\n", "bias" },
                           { "[tonemap]\ngamma=0\n", "gamma" },
                           { "[tonemap]\nenabled=true\n", "enabled" } };
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      LmPipeline p = original;
      GError *e = NULL;
      g_autoptr (GKeyFile) k = g_key_file_new ();
      g_assert_true (g_key_file_load_from_data (k, bad[i][0], -1, G_KEY_FILE_NONE, NULL));
      g_assert_false (lm_pipeline_from_keyfile (&p, k, &e));
      g_assert_error (e, LUMEN_ERROR, LM_ERROR_INVALID);
      LM_TEST_RETURN_IF_FAILED ();
      g_assert_nonnull (strstr (e->message, bad[i][1]));
      g_assert_true (lm_pipeline_equal (&p, &original));
      g_clear_error (&e);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions (); /* see LM_TEST_RETURN_IF_FAILED */
  g_test_add_func ("/pipeline/cache/recomputes-from-change", test_cache_recomputes_from_change);
  g_test_add_func ("/pipeline/cache/disabled-pass-through", test_disabled_pass_through);
  g_test_add_func ("/pipeline/cache/format-switch-keeps-buffers", test_cache_format_switch_keeps_buffers);
  g_test_add_func ("/pipeline/keyfile/round-trip", test_keyfile_round_trip);
  g_test_add_func ("/pipeline/keyfile/round-trip-exact-floats", test_keyfile_round_trip_exact_floats);
  g_test_add_func ("/pipeline/keyfile/partial", test_keyfile_partial);
  g_test_add_func ("/pipeline/keyfile/rejects", test_keyfile_rejects);
  g_test_add_func ("/pipeline/keyfile/bad-enabled", test_keyfile_bad_enabled);
  g_test_add_func ("/pipeline/cache/radiance", test_cache_radiance);
  g_test_add_func ("/pipeline/cache/tonemap-ignored-for-8bit", test_cache_tonemap_ignored_for_8bit);
  g_test_add_func ("/pipeline/keyfile/tonemap", test_keyfile_tonemap);
  return g_test_run ();
}
