/* LUMEN_CUDA_MEMORY_LIMIT simulates a GPU of that size (core/backend/cuda-memory.c): the total
 * of live device allocations is bounded, images and scratch alike, so that allocations summing
 * above the limit fail with LM_ERROR_OUT_OF_MEMORY and a message that names the variable; freed
 * bytes come back; lm_cuda_budget_left says what is left; threads allocating at once keep the
 * account exact. Skips (77) without a device. */
#include <string.h>

#include "core/backend/backend.h"
#include "core/backend/cuda-private.h"
#include "core/error.h"

#define MIB ((gsize) 1 << 20)
#define LIMIT (64 * MIB)

static int failures;

#define EXPECT(cond, ...)                                                                              \
  G_STMT_START                                                                                         \
  {                                                                                                    \
    if (!(cond))                                                                                       \
      {                                                                                                \
        failures++;                                                                                    \
        g_print ("FAIL ");                                                                             \
        g_print (__VA_ARGS__);                                                                         \
        g_print ("\n");                                                                                \
      }                                                                                                \
    else                                                                                               \
      {                                                                                                \
        g_print ("ok   ");                                                                             \
        g_print (__VA_ARGS__);                                                                         \
        g_print ("\n");                                                                                \
      }                                                                                                \
  }                                                                                                    \
  G_STMT_END

/* 16 MiB of device memory: a 4096 × 4096 gray image (its rows are already 64-byte aligned). */
static LmImage *
image_16m (LmBackend *gpu, GError **error)
{
  return lm_image_new (LM_FORMAT_GRAY8, 4096, 4096, lm_backend_work_allocator (gpu), error);
}

static gpointer
churn (gpointer data)
{
  int device = GPOINTER_TO_INT (data);
  gboolean ok = cudaSetDevice (device) == cudaSuccess;
  for (int i = 0; ok && i < 200; i++)
    {
      void *a = NULL, *b = NULL;
      ok = lm_cuda_malloc (&a, 1 * MIB, NULL) && lm_cuda_malloc (&b, 3 * MIB + (gsize) i, NULL);
      lm_cuda_free (b);
      lm_cuda_free (a);
    }
  return GINT_TO_POINTER (ok);
}

int
main (void)
{
  /* Before anything reads it: the allocator reads the variable once. */
  g_setenv ("LUMEN_CUDA_MEMORY_LIMIT", "64M", TRUE);
  g_autofree char *reason = lm_backend_cuda_unavailable_reason ();
  if (reason != NULL)
    {
      g_print ("SKIP memory budget: %s\n", reason);
      return 77;
    }
  g_autoptr (GError) error = NULL;
  LmBackend *gpu = lm_backend_cuda_new (&error);
  if (gpu == NULL)
    {
      g_print ("FAIL memory budget: %s\n", error->message);
      return 1;
    }
  int device = lm_backend_cuda_device (gpu);
  gsize base = lm_cuda_memory_used (device);
  EXPECT (base > 0 && base < MIB, "the backend's workspace is accounted: %" G_GSIZE_FORMAT " bytes", base);
  gsize left = lm_cuda_budget_left (device);
  EXPECT (left == LIMIT - base, "budget left %" G_GSIZE_FORMAT " = limit − used %" G_GSIZE_FORMAT, left,
          LIMIT - base);

  /* Three 16 MiB images fit in 64 MiB; a fourth would pass it with the workspace. */
  LmImage *images[4] = { NULL };
  for (int i = 0; i < 3; i++)
    {
      g_clear_error (&error);
      images[i] = image_16m (gpu, &error);
      EXPECT (images[i] != NULL, "image %d of 16 MiB: %s", i + 1, error ? error->message : "allocated");
    }
  EXPECT (lm_cuda_memory_used (device) == base + 48 * MIB, "48 MiB more in use");
  EXPECT (lm_cuda_budget_left (device) == LIMIT - base - 48 * MIB, "budget left follows: %" G_GSIZE_FORMAT,
          lm_cuda_budget_left (device));
  g_clear_error (&error);
  images[3] = image_16m (gpu, &error);
  EXPECT (images[3] == NULL && g_error_matches (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY)
            && strstr (error->message, "LUMEN_CUDA_MEMORY_LIMIT") != NULL,
          "the fourth is refused: %s", error ? error->message : "(allocated)");
  g_clear_pointer (&images[3], lm_image_unref);

  /* Scratch counts as images do: 17 MiB of it, beside two images, leaves 15 MiB: no room for a
   * third. */
  g_clear_pointer (&images[2], lm_image_unref);
  void *scratch = NULL;
  g_clear_error (&error);
  EXPECT (lm_cuda_malloc (&scratch, 17 * MIB, &error), "17 MiB of scratch after a free: %s",
          error ? error->message : "allocated");
  g_clear_error (&error);
  images[2] = image_16m (gpu, &error);
  EXPECT (images[2] == NULL && g_error_matches (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY),
          "an image beside the scratch is refused: %s", error ? error->message : "(allocated)");
  lm_cuda_free (scratch);
  g_clear_error (&error);
  g_clear_pointer (&images[2], lm_image_unref);
  images[2] = image_16m (gpu, &error);
  EXPECT (images[2] != NULL, "the scratch's bytes came back: %s", error ? error->message : "allocated");
  for (int i = 0; i < 4; i++)
    g_clear_pointer (&images[i], lm_image_unref);
  EXPECT (lm_cuda_memory_used (device) == base, "every byte back after the frees");

  /* Four threads allocating and freeing at once: the account ends where it began. */
  GThread *threads[4];
  for (int i = 0; i < 4; i++)
    threads[i] = g_thread_new ("churn", churn, GINT_TO_POINTER (device));
  gboolean all = TRUE;
  for (int i = 0; i < 4; i++)
    all = GPOINTER_TO_INT (g_thread_join (threads[i])) && all;
  EXPECT (all && lm_cuda_memory_used (device) == base, "four threads: account exact (%" G_GSIZE_FORMAT ")",
          lm_cuda_memory_used (device));

  lm_backend_free (gpu);
  EXPECT (lm_cuda_memory_used (device) == 0, "the backend's workspace is given back at its end");
  g_print ("memory budget: %d failures\n", failures);
  return failures ? 1 : 0;
}
