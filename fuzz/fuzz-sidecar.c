/* The sidecar (`photo.jpg.lumen`, lumen-cli --params): Lumen's check of its lines
 * (core/edit/sidecar-text.c), GLib's key-file syntax, then the pipeline's reading of groups,
 * keys and values (core/edit/pipeline.c). What was read is written
 * back and read again: the same pipeline. */
#include "fuzz-util.h"
#include "core/edit/pipeline.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  GError *error = NULL;
  if (!lm_pipeline_from_text (&pipeline, (const char *) data, size, &error))
    {
      lm_fuzz_check_failure ("lm_pipeline_from_text", error, NULL);
      g_error_free (error);
      return 0;
    }

  g_autoptr (GKeyFile) written = lm_pipeline_to_keyfile (&pipeline);
  gsize len;
  g_autofree char *text = g_key_file_to_data (written, &len, NULL);
  LmPipeline again;
  lm_pipeline_init (&again);
  LM_FUZZ_CHECK (lm_pipeline_from_text (&again, text, len, &error),
                 "the sidecar Lumen wrote does not read back: %s\n%s", error->message, text);
  LM_FUZZ_CHECK (lm_pipeline_equal (&pipeline, &again), "the sidecar read back differs:\n%s", text);
  return 0;
}
