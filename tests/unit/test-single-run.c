/* A render that runs once (lumen-cli): its outputs taken from buffers given to the cache,
 * poisoned here with stale bytes, and passed from step to step (ping-pong), make the same
 * pixels as a fresh cache's; the buffers a run takes are the ones predicted; and lumen-cli's
 * way, the outputs faulted in beside the load, gives the same result as the render without
 * them. */
#include <string.h>

#include "core/backend/backend.h"
#include "core/io/io.h"
#include "core/render/cache.h"
#include "core/render/develop-one.h"
#include "core/render/prefault.h"
#include "test-util.h"

/* The chains: several steps each, some changing the format (gray stores one channel) or the
 * size (crop, resize), so that the buffers are reshaped as the steps go. */
typedef struct {
  const char *name;
  const char *sets[6][3]; /* op, param (NULL: enable only), value */
} Chain;

static const Chain chains[] = {
  { "gray, equalize, blur", { { "gray", "amount", "1" }, { "equalize", NULL, NULL }, { "blur", "sigma", "1.5" } } },
  { "gray 0.6, equalize, blur, sharpen",
    { { "gray", "amount", "0.6" }, { "equalize", NULL, NULL }, { "blur", "sigma", "2" }, { "sharpen", NULL, NULL } } },
  { "crop, exposure, blur, resize",
    { { "crop", "width", "301" }, { "exposure", "ev", "0.7" }, { "blur", "sigma", "1" }, { "resize", "width", "250" } } },
};

/* The 16-bit chains: the operations that keep 16 bits. */
static const Chain chains16[] = {
  { "exposure, blur, gray", { { "exposure", "ev", "-0.4" }, { "blur", "sigma", "1.2" }, { "gray", "amount", "1" } } },
  { "crop, blur, sharpen", { { "crop", "height", "207" }, { "blur", "sigma", "3" }, { "sharpen", NULL, NULL } } },
};

static void
chain_pipeline (const Chain *chain, LmPipeline *pipeline)
{
  lm_pipeline_init (pipeline);
  for (guint i = 0; i < G_N_ELEMENTS (chain->sets) && chain->sets[i][0]; i++)
    lm_test_set_param (pipeline, chain->sets[i][0], chain->sets[i][1], chain->sets[i][2]);
}

/* Buffers of BYTES[i] each, every byte POISON. */
static GPtrArray *
poisoned_buffers (const gsize *bytes, guint n, guint8 poison)
{
  GPtrArray *buffers = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_image_unref);
  for (guint i = 0; i < n; i++)
    {
      LmImage *b = lm_test_image_new (LM_FORMAT_GRAY8, (guint) bytes[i], 1, poison);
      memset (b->data, poison, lm_image_size_bytes (b));
      g_ptr_array_add (buffers, b);
    }
  return buffers;
}

/* PIPELINE on SOURCE by a fresh cache and by a single run on poisoned buffers: the same pixels,
 * the result in one of the buffers (the prediction was right), one output left (the others
 * went back to the buffers). */
static void
check_single_run (LmImage *source, const LmPipeline *pipeline, const char *what)
{
  g_test_message ("%s, %s %u×%u", what, lm_format_name (source->format), source->width, source->height);
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  GError *error = NULL;
  g_autoptr (LmRenderCache) fresh = lm_render_cache_new (cpu, source);
  g_autoptr (LmImage) want = lm_render_cache_run (fresh, pipeline, NULL, &error);
  g_assert_no_error (error);
  guint steps = lm_render_cache_last_computed (fresh);
  g_assert_cmpuint (steps, >=, 2);

  gsize bytes[2];
  guint n = lm_render_cache_single_run_bytes (pipeline, source->format, source->width, source->height, source->opaque,
                                              bytes);
  g_assert_cmpuint (n, ==, 2);
  for (guint8 poison = 0x5a; poison != 0; poison = poison == 0x5a ? 0xff : 0)
    {
      g_autoptr (GPtrArray) buffers = poisoned_buffers (bytes, n, poison);
      g_autoptr (LmImage) first = lm_image_ref (buffers->pdata[0]);
      g_autoptr (LmImage) second = lm_image_ref (buffers->pdata[1]);
      g_autoptr (LmRenderCache) once = lm_render_cache_new (cpu, source);
      lm_render_cache_set_single_run (once, buffers);
      g_assert_cmpuint (buffers->len, ==, 0); /* moved into the cache */
      /* Our references would keep the cache from reshaping them: dropped, their data kept
       * for the comparison of addresses. */
      const guint8 *data[2] = { first->data, second->data };
      g_clear_pointer (&first, lm_image_unref);
      g_clear_pointer (&second, lm_image_unref);
      g_autoptr (LmImage) got = lm_render_cache_run (once, pipeline, NULL, &error);
      g_assert_no_error (error);
      lm_test_assert_same_pixels (got, want);
      g_assert_true (got->data == data[(steps - 1) % 2]);
      g_assert_cmpuint (lm_render_cache_n_outputs (once), ==, 1);
    }
}

static void
test_same_pixels_8bit (void)
{
  const char *photos[] = { "forest-path.jpg", "coffee-alpha.png", "camera-gray.png" };
  for (guint p = 0; p < G_N_ELEMENTS (photos); p++)
    {
      g_autoptr (LmImage) photo = lm_test_load_photo (photos[p]);
      /* A part of it: the test stays in seconds, and the width is not a multiple of 64. */
      g_autoptr (LmImage) source = lm_test_crop (photo, 7, 5, MIN (photo->width - 7, 611), MIN (photo->height - 5, 409));
      source->opaque = photo->opaque;
      for (guint c = 0; c < G_N_ELEMENTS (chains); c++)
        {
          LmPipeline pipeline;
          chain_pipeline (&chains[c], &pipeline);
          g_autofree char *what = g_strdup_printf ("%s: %s", photos[p], chains[c].name);
          check_single_run (source, &pipeline, what);
        }
    }
}

static void
test_same_pixels_16bit (void)
{
  g_autoptr (LmImage) photo = lm_test_load_photo ("pier-fog.jpg");
  g_autoptr (LmImage) part = lm_test_crop (photo, 100, 50, 523, 347);
  g_autoptr (LmImage) source = lm_test_deepen (part);
  for (guint c = 0; c < G_N_ELEMENTS (chains16); c++)
    {
      LmPipeline pipeline;
      chain_pipeline (&chains16[c], &pipeline);
      check_single_run (source, &pipeline, chains16[c].name);
    }
}

/* A buffer that is too small for a step is passed over: the step gets fresh memory and the
 * same pixels. */
static void
test_small_buffer_passed_over (void)
{
  g_autoptr (LmImage) photo = lm_test_load_photo ("chelsea.png");
  LmPipeline pipeline;
  chain_pipeline (&chains[0], &pipeline);
  g_autoptr (LmBackend) cpu = lm_backend_cpu_new ();
  g_autoptr (LmRenderCache) fresh = lm_render_cache_new (cpu, photo);
  g_autoptr (LmImage) want = lm_render_cache_run (fresh, &pipeline, NULL, NULL);
  gsize bytes[2] = { 100, 100 };
  g_autoptr (GPtrArray) buffers = poisoned_buffers (bytes, 2, 0x77);
  g_autoptr (LmRenderCache) once = lm_render_cache_new (cpu, photo);
  lm_render_cache_set_single_run (once, buffers);
  g_autoptr (LmImage) got = lm_render_cache_run (once, &pipeline, NULL, NULL);
  lm_test_assert_same_pixels (got, want);
}

/* Every page is faulted in; a stop heard before the first huge page faults nothing. */
static void
test_prefault_whole (void)
{
  g_autoptr (LmImage) image = lm_image_new (LM_FORMAT_RGBA8, 1500, 1100, lm_allocator_host (), NULL);
  gsize size = lm_image_size_bytes (image);
  gint stop = 1;
  g_assert_cmpuint (lm_image_prefault (image, &stop), ==, 0);
  g_assert_cmpuint (lm_image_prefault (image, NULL), >=, size - 4096);
  stop = 0;
  g_assert_cmpuint (lm_image_prefault (image, &stop), >=, size - 4096);
}

typedef struct {
  LmPrefault *prefault;
  guint calls;
  LmFormat format;
  guint width, height;
} Told;

static void
told (LmImage *image, gpointer data)
{
  Told *t = data;
  t->calls++;
  t->format = image->format, t->width = image->width, t->height = image->height;
  lm_prefault_start (image, t->prefault);
}

/* lumen-cli's way: the load tells the decoder's image once, the thread makes the predicted
 * buffers, and the photo developed with them is the photo developed without. */
static void
test_prefault_beside_load (void)
{
  g_autofree char *path = g_build_filename (lm_test_data_dir (), "photos", "forest-path.jpg", NULL);
  LmPipeline pipeline;
  chain_pipeline (&chains[1], &pipeline);
  Told t = { .prefault = lm_prefault_new (&pipeline, lm_allocator_host (), FALSE) };
  GError *error = NULL;
  g_autoptr (LmImage) source = lm_io_load_telling (path, lm_allocator_host (), told, &t, &error);
  g_assert_no_error (error);
  double beside_ms, wait_ms;
  gsize faulted;
  g_autoptr (GPtrArray) buffers = lm_prefault_finish (t.prefault, &beside_ms, &wait_ms, &faulted);
  g_assert_cmpuint (t.calls, ==, 1);
  g_assert_cmpint (t.format, ==, source->format);
  g_assert_cmpuint (t.width, ==, source->width);
  g_assert_cmpuint (t.height, ==, source->height);
  g_assert_cmpfloat (beside_ms, >, 0);
  g_test_message ("pre-faulted %" G_GSIZE_FORMAT " bytes in %.2f ms beside the load, %.3f ms to stop",
                  faulted, beside_ms, wait_ms);
  /* The thread may have been stopped before it made both: those it made are the predicted. */
  gsize bytes[2];
  guint n = lm_render_cache_single_run_bytes (&pipeline, source->format, source->width, source->height, TRUE, bytes);
  g_assert_cmpuint (buffers->len, <=, n);
  for (guint i = 0; i < buffers->len; i++)
    g_assert_cmpuint (lm_image_size_bytes (buffers->pdata[i]), >=, bytes[i]);

  LmBackend *cpu = lm_backend_cpu_new ();
  LmTimings timings;
  lm_timings_init (&timings);
  g_autoptr (LmImage) with = lm_develop_photo (&cpu, LM_BACKEND_CPU, path, source, &pipeline, NULL, FALSE, 0, NULL,
                                               buffers, &timings, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (LmImage) without = lm_develop_photo (&cpu, LM_BACKEND_CPU, path, source, &pipeline, NULL, FALSE, 0, NULL,
                                                  NULL, &timings, NULL, &error);
  g_assert_no_error (error);
  lm_test_assert_same_pixels (with, without);
  lm_timings_clear (&timings);
  lm_backend_free (cpu);
  lm_prefault_free (t.prefault);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/single-run/same-pixels-8bit", test_same_pixels_8bit);
  g_test_add_func ("/single-run/same-pixels-16bit", test_same_pixels_16bit);
  g_test_add_func ("/single-run/small-buffer-passed-over", test_small_buffer_passed_over);
  g_test_add_func ("/single-run/prefault-whole", test_prefault_whole);
  g_test_add_func ("/single-run/prefault-beside-load", test_prefault_beside_load);
  return g_test_run ();
}
