/* The undo history kept beside a sidecar (core/edit/history-file.c): its header and step
 * lengths, then each step through the sidecar's reader. What was read is written back and
 * read again: the same steps at the same position. */
#include "fuzz-util.h"
#include "core/edit/history-file.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  LmPipeline base;
  lm_pipeline_init (&base);
  GError *error = NULL;
  g_autoptr (LmHistory) history = lm_history_from_text ((const char *) data, size, &base, &error);
  if (history == NULL)
    {
      lm_fuzz_check_failure ("lm_history_from_text", error, NULL);
      g_error_free (error);
      return 0;
    }
  guint n = lm_history_n_steps (history), at = lm_history_position (history);
  LM_FUZZ_CHECK (n >= 1 && n <= LM_HISTORY_FILE_STEPS && at < n, "%u steps at %u", n, at);

  g_autoptr (GBytes) text = lm_history_to_text (history, NULL);
  g_autoptr (LmHistory) again
    = lm_history_from_text (g_bytes_get_data (text, NULL), g_bytes_get_size (text), &base, &error);
  LM_FUZZ_CHECK (again != NULL, "the history Lumen wrote does not read back: %s", error->message);
  LM_FUZZ_CHECK (lm_history_n_steps (again) == n && lm_history_position (again) == at,
                 "read back as %u steps at %u, not %u at %u", lm_history_n_steps (again),
                 lm_history_position (again), n, at);
  for (guint i = 0; i < n; i++)
    LM_FUZZ_CHECK (lm_pipeline_equal (lm_history_step (history, i), lm_history_step (again, i)),
                   "step %u read back differs", i);
  return 0;
}
