/* The OpenEXR writer compresses its chunks on every thread (core/io/exr.c). A picture of many
 * chunks (1000 × 1100: 69 chunks of 16 rows, several batches) comes back from the file exactly:
 * through OpenEXR's own reader, each sample is the half Imath rounds it to (after the writer's
 * clamp: negatives and NaN to 0, beyond the largest half to it), and through lm_io_load the same
 * halves as floats; the file's bytes are the same on 1, 2 and 3 threads; a write that fails
 * midway (the file size limit) is reported with its cause and leaves no file behind. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <omp.h>

#include "config.h"
#include "core/io/io.h"
#include "test-util.h"

#if LUMEN_HAVE_OPENEXR
#include <openexr.h>
#include <half.h>

#define WIDTH 1000
#define HEIGHT 1100

/* Random samples of every kind: exact halves, floats between halves (ties among them), the
 * subnormal halves' range, and what the writer clamps: negatives, NaN, infinity, above 65504. */
static LmImage *
random_radiance (gboolean opaque)
{
  LmImage *image = lm_test_image_new (LM_FORMAT_RGBA_F32, WIDTH, HEIGHT, 0);
  GRand *rand = g_rand_new_with_seed (31);
  for (guint y = 0; y < HEIGHT; y++)
    {
      float *row = (float *) lm_image_row (image, y);
      for (guint i = 0; i < 4 * WIDTH; i++)
        {
          guint32 kind = g_rand_int_range (rand, 0, 16);
          float v;
          if (kind < 8)
            v = imath_half_to_float ((imath_half_bits_t) g_rand_int_range (rand, 0, 0x7c00));
          else if (kind < 11) /* any float up to 2^16: its low bits 0x1000 make a tie */
            {
              guint32 bits = (guint32) g_rand_int_range (rand, 0, 0x47800000);
              if (kind == 10)
                bits = (bits & ~0x1fffu) | 0x1000u;
              memcpy (&v, &bits, sizeof v);
            }
          else if (kind < 13)
            v = (float) g_rand_double_range (rand, 0.0, 1.2e-4); /* around 2^-14 */
          else if (kind == 13)
            v = -(float) g_rand_double_range (rand, 0.0, 10.0);
          else if (kind == 14)
            v = (float) g_rand_double_range (rand, 65504.0, 1e6);
          else
            v = g_rand_boolean (rand) ? NAN : INFINITY;
          row[i] = opaque && i % 4 == 3 ? 1.0f : v;
        }
    }
  g_rand_free (rand);
  image->opaque = opaque;
  return image;
}

/* What the file must hold for V: the writer's clamp, then Imath's rounding. */
static imath_half_bits_t
expected_half (float v)
{
  return imath_float_to_half (v > 0.0f ? fminf (v, 65504.0f) : 0.0f);
}

static char *
save (const LmImage *image, const char *name, int threads)
{
  char *path = g_build_filename (lm_test_tmp_dir (), name, NULL);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  GError *e = NULL;
  omp_set_num_threads (threads);
  g_assert_true (lm_io_save (image, path, &options, &e));
  g_assert_no_error (e);
  return path;
}

/* Every channel of PATH as halves through OpenEXR's reader, RGBA interleaved (A left 0 where
 * the file has none); the channel names are checked on the way. */
static guint16 *
read_halves (const char *path, int want_channels)
{
  exr_context_t ctx = NULL;
  exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
  g_assert_cmpint (exr_start_read (&ctx, path, &init), ==, EXR_ERR_SUCCESS);
  exr_compression_t compression;
  g_assert_cmpint (exr_get_compression (ctx, 0, &compression), ==, EXR_ERR_SUCCESS);
  g_assert_cmpint (compression, ==, EXR_COMPRESSION_ZIP);
  int32_t lines = 0;
  g_assert_cmpint (exr_get_scanlines_per_chunk (ctx, 0, &lines), ==, EXR_ERR_SUCCESS);
  guint16 *halves = g_new0 (guint16, (gsize) 4 * WIDTH * HEIGHT);
  exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
  for (int y = 0; y < HEIGHT; y += lines)
    {
      exr_chunk_info_t chunk;
      g_assert_cmpint (exr_read_scanline_chunk_info (ctx, 0, y, &chunk), ==, EXR_ERR_SUCCESS);
      g_assert_cmpint (y == 0 ? exr_decoding_initialize (ctx, 0, &chunk, &decoder)
                              : exr_decoding_update (ctx, 0, &chunk, &decoder), ==, EXR_ERR_SUCCESS);
      g_assert_cmpint (decoder.channel_count, ==, want_channels);
      for (int c = 0; c < decoder.channel_count; c++)
        {
          exr_coding_channel_info_t *ch = &decoder.channels[c];
          const char *at = strchr ("RGBA", ch->channel_name[0]);
          g_assert_true (at != NULL && *at != 0 && ch->channel_name[1] == 0);
          ch->decode_to_ptr = (uint8_t *) (halves + (gsize) 4 * WIDTH * y + (at - "RGBA"));
          ch->user_pixel_stride = 4 * sizeof (guint16);
          ch->user_line_stride = 4 * WIDTH * sizeof (guint16);
          ch->user_data_type = EXR_PIXEL_HALF;
          ch->user_bytes_per_element = sizeof (guint16);
        }
      if (y == 0)
        g_assert_cmpint (exr_decoding_choose_default_routines (ctx, 0, &decoder), ==, EXR_ERR_SUCCESS);
      g_assert_cmpint (exr_decoding_run (ctx, 0, &decoder), ==, EXR_ERR_SUCCESS);
    }
  exr_decoding_destroy (ctx, &decoder);
  exr_finish (&ctx);
  return halves;
}

static void
check_round_trip (gboolean opaque)
{
  g_autoptr (LmImage) image = random_radiance (opaque);
  g_autofree char *path = save (image, opaque ? "opaque.exr" : "alpha.exr", 2);
  int channels = opaque ? 3 : 4;
  g_autofree guint16 *halves = read_halves (path, channels);
  g_autoptr (LmImage) back = lm_io_load (path, lm_allocator_host (), NULL);
  g_assert_nonnull (back);
  g_assert_cmpuint (back->width, ==, WIDTH);
  g_assert_cmpuint (back->height, ==, HEIGHT);
  g_assert_cmpint (back->opaque, ==, opaque);
  guint wrong = 0, wrong_load = 0;
  for (guint y = 0; y < HEIGHT; y++)
    {
      const float *in = (const float *) lm_image_row (image, y);
      const float *out = (const float *) lm_image_row (back, y);
      for (guint i = 0; i < 4 * WIDTH; i++)
        {
          imath_half_bits_t want = (int) (i % 4) < channels ? expected_half (in[i]) : 0;
          wrong += halves[(gsize) 4 * WIDTH * y + i] != want;
          float loaded = (int) (i % 4) < channels ? imath_half_to_float (want) : 1.0f;
          wrong_load += memcmp (&out[i], &loaded, sizeof loaded) != 0;
        }
    }
  g_assert_cmpuint (wrong, ==, 0);
  g_assert_cmpuint (wrong_load, ==, 0);
}

static void
test_round_trip_alpha (void)
{
  check_round_trip (FALSE);
}

static void
test_round_trip_opaque (void)
{
  check_round_trip (TRUE);
}

static void
test_same_bytes_any_threads (void)
{
  g_autoptr (LmImage) image = random_radiance (FALSE);
  g_autofree char *one = save (image, "threads-1.exr", 1);
  g_autofree char *two = save (image, "threads-2.exr", 2);
  g_autofree char *three = save (image, "threads-3.exr", 3);
  g_autofree char *a = NULL, *b = NULL, *c = NULL;
  gsize la = 0, lb = 0, lc = 0;
  g_assert_true (g_file_get_contents (one, &a, &la, NULL));
  g_assert_true (g_file_get_contents (two, &b, &lb, NULL));
  g_assert_true (g_file_get_contents (three, &c, &lc, NULL));
  g_assert_cmpmem (a, la, b, lb);
  g_assert_cmpmem (a, la, c, lc);
}

/* The file size limit makes a write fail with EFBIG (SIGXFSZ ignored) once a few chunks are
 * written: the error names the file and the cause, and neither the file nor its temporary
 * stays in the folder. */
static void
test_write_error (void)
{
  g_autoptr (LmImage) image = random_radiance (FALSE);
  g_autofree char *dir = g_build_filename (lm_test_tmp_dir (), "full", NULL);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_autofree char *path = g_build_filename (dir, "cut.exr", NULL);
  struct rlimit saved, limit;
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = 256 * 1024;
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  LmSaveOptions options = LM_SAVE_OPTIONS_INIT;
  GError *e = NULL;
  omp_set_num_threads (2);
  gboolean ok = lm_io_save (image, path, &options, &e);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  g_assert_false (ok);
  g_assert_nonnull (e);
  if (e != NULL)
    {
      g_assert_nonnull (strstr (e->message, "cut.exr"));
      g_assert_nonnull (strstr (e->message, g_strerror (EFBIG)));
      g_assert_null (strchr (e->message, '\n'));
      g_clear_error (&e);
    }
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  g_assert_nonnull (listing);
  g_assert_null (g_dir_read_name (listing));
}
#endif

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
#if LUMEN_HAVE_OPENEXR
  g_test_add_func ("/exr/parallel/round-trip-alpha", test_round_trip_alpha);
  g_test_add_func ("/exr/parallel/round-trip-opaque", test_round_trip_opaque);
  g_test_add_func ("/exr/parallel/same-bytes-any-threads", test_same_bytes_any_threads);
  g_test_add_func ("/exr/parallel/write-error", test_write_error);
#endif
  return g_test_run ();
}
