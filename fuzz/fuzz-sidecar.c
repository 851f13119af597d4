/* The sidecar (`photo.jpg.lumen`, lumen-cli --params): GLib's key-file syntax, then the
 * pipeline's reading of groups, keys and values (core/edit/pipeline.c). What was read is written
 * back and read again: the same pipeline. */
#include "fuzz-util.h"
#include "core/edit/pipeline.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  g_autoptr (GKeyFile) keyfile = g_key_file_new ();
  if (!g_key_file_load_from_data (keyfile, (const char *) data, size, G_KEY_FILE_NONE, NULL))
    return 0; /* GLib's syntax errors: GLib's parser, not ours */

  LmPipeline pipeline;
  lm_pipeline_init (&pipeline);
  GError *error = NULL;
  if (!lm_pipeline_from_keyfile (&pipeline, keyfile, &error))
    {
      lm_fuzz_check_failure ("lm_pipeline_from_keyfile", error, NULL);
      g_error_free (error);
      return 0;
    }

  g_autoptr (GKeyFile) written = lm_pipeline_to_keyfile (&pipeline);
  gsize len;
  g_autofree char *text = g_key_file_to_data (written, &len, NULL);
  g_autoptr (GKeyFile) reread = g_key_file_new ();
  LM_FUZZ_CHECK (g_key_file_load_from_data (reread, text, len, G_KEY_FILE_NONE, &error),
                 "the sidecar Lumen wrote is not a key file: %s", error->message);
  LmPipeline again;
  lm_pipeline_init (&again);
  LM_FUZZ_CHECK (lm_pipeline_from_keyfile (&again, reread, &error),
                 "the sidecar Lumen wrote does not read back: %s\n%s", error->message, text);
  LM_FUZZ_CHECK (lm_pipeline_equal (&pipeline, &again), "the sidecar read back differs:\n%s", text);
  return 0;
}
