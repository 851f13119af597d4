/* LUMEN_CUDA_MEMORY_LIMIT's form (core/backend/memory-limit.c): the sizes that simulate a small
 * GPU on the GPU machine ("8G", "1G"), in binary units, and junk refused with a message that
 * names the variable and the value. The allocator that applies the limit runs in tests/gpu. */
#include "core/backend/memory-limit.h"
#include "core/error.h"
#include "test-util.h"

static void
assert_parses (const char *text, guint64 want)
{
  g_autoptr (GError) error = NULL;
  guint64 bytes = 0;
  gboolean ok = lm_memory_limit_parse (text, &bytes, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (bytes, ==, want);
}

static void
test_sizes (void)
{
  assert_parses ("1000000", 1000000);
  assert_parses ("8G", G_GUINT64_CONSTANT (8) << 30);
  assert_parses ("8g", G_GUINT64_CONSTANT (8) << 30);
  assert_parses ("8GB", G_GUINT64_CONSTANT (8) << 30);
  assert_parses ("8GiB", G_GUINT64_CONSTANT (8) << 30);
  assert_parses ("1G", G_GUINT64_CONSTANT (1) << 30);
  assert_parses ("512M", G_GUINT64_CONSTANT (512) << 20);
  assert_parses ("64K", 65536);
  assert_parses ("1.5G", G_GUINT64_CONSTANT (3) << 29);
  assert_parses ("2T", G_GUINT64_CONSTANT (2) << 40);
  assert_parses ("4096B", 4096);
}

static void
test_junk (void)
{
  const char *junk[] = { "", "G", "lots", "8X", "8 G", "-1G", "0", "0.5", "1.5", "8GBs", "1e30", "nan", "8Gi" };
  for (guint i = 0; i < G_N_ELEMENTS (junk); i++)
    {
      g_autoptr (GError) error = NULL;
      guint64 bytes = 7;
      g_test_message ("%s", junk[i]);
      g_assert_false (lm_memory_limit_parse (junk[i], &bytes, &error));
      g_assert_error (error, LUMEN_ERROR, LM_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, "LUMEN_CUDA_MEMORY_LIMIT"));
      g_assert_nonnull (strstr (error->message, junk[i]));
      g_assert_cmpuint (bytes, ==, 7);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_set_nonfatal_assertions ();
  g_test_add_func ("/memory-limit/sizes", test_sizes);
  g_test_add_func ("/memory-limit/junk", test_junk);
  return g_test_run ();
}
