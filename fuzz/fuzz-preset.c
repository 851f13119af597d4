/* A preset imported (core/library/presets.h) and pasted (op-select.h): the input's first line
 * is the preset's name, the rest its file. lm_preset_import must take exactly the files that
 * lm_pipeline_from_text reads under names lm_preset_name_check takes, keep them byte for byte
 * and say why it refuses the others in one line naming the file; the preset, pasted in both
 * modes with every selection onto a photo's edits with instances and masks, must give edits
 * that keep every rule of a pipeline (lm_pipeline_check), and a REPLACE of everything must
 * give the preset itself. */
#include <string.h>

#include "fuzz-util.h"
#include "core/edit/sidecar.h"
#include "core/library/presets.h"

/* A photo's edits: crop and exposure on, a second exposure with a gradient mask. */
static void
photo_edits (LmPipeline *edits)
{
  lm_pipeline_init (edits);
  lm_pipeline_stage (edits, LM_OP_CROP)->enabled = TRUE;
  lm_pipeline_stage (edits, LM_OP_EXPOSURE)->enabled = TRUE;
  int at;
  if (!lm_pipeline_add (edits, LM_OP_EXPOSURE, &at, NULL))
    abort ();
  edits->inst[at].enabled = TRUE;
  LmMask mask = { 0 };
  mask.n_shapes = 1;
  mask.shape[0].kind = LM_MASK_LINEAR;
  mask.shape[0].opacity = 1;
  mask.opacity = 1;
  if (!lm_pipeline_mask_attach (edits, (guint) at, &mask, NULL))
    abort ();
}

static void
paste_all_ways (const LmPipeline *preset)
{
  LmOpSelection selections[3];
  lm_op_selection_all (&selections[0], preset);
  lm_op_selection_default (&selections[1], preset);
  lm_preset_selection (preset, &selections[2]);
  for (guint s = 0; s < G_N_ELEMENTS (selections); s++)
    for (int mode = LM_PASTE_REPLACE; mode <= LM_PASTE_APPEND; mode++)
      {
        LmPipeline edits, before;
        photo_edits (&edits);
        before = edits;
        GError *error = NULL;
        if (!lm_pipeline_paste (&edits, preset, &selections[s], mode, &error))
          {
            lm_fuzz_check_failure ("lm_pipeline_paste", error, NULL);
            g_error_free (error);
            LM_FUZZ_CHECK (memcmp (&edits, &before, sizeof edits) == 0, "a failed paste changed the edits");
            continue;
          }
        LM_FUZZ_CHECK (lm_pipeline_check (&edits, &error), "a paste broke the pipeline: %s", error->message);
        if (s == 0 && mode == LM_PASTE_REPLACE)
          LM_FUZZ_CHECK (lm_pipeline_equal (&edits, preset), "a REPLACE of everything is not the preset");
      }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  static char *home;
  if (home == NULL)
    {
      home = g_build_filename (lm_fuzz_tmpdir (), "data", NULL);
      g_setenv ("XDG_DATA_HOME", home, TRUE);
    }
  const uint8_t *eol = memchr (data, '\n', size);
  if (eol == NULL || eol - data > 200)
    return LM_FUZZ_REJECT;
  g_autofree char *name = g_strndup ((const char *) data, (gsize) (eol - data));
  const char *text = (const char *) eol + 1;
  gsize len = size - (gsize) (eol + 1 - data);

  LmPipeline preset;
  lm_pipeline_init (&preset);
  GError *error = NULL;
  gboolean reads = lm_pipeline_from_text (&preset, text, len, &error);
  g_clear_error (&error);
  /* lm_pipeline_from_text reads a text with a NUL byte up to it (its callers refuse such text
   * first: a file by lm_text_file_read, the clipboard by strlen); a file holding one is no
   * preset. */
  gboolean has_nul = memchr (text, '\0', len) != NULL;
  if (reads)
    paste_all_ways (&preset);

  gboolean named = strlen (name) == (gsize) (eol - data) && lm_preset_name_check (name, NULL);
  g_autofree char *file = lm_fuzz_write_file ("input.lumen", (const uint8_t *) text, len);
  g_autofree char *imported = lm_preset_import (file, named ? name : "x/y", &error);
  if (imported == NULL)
    {
      lm_fuzz_check_failure ("lm_preset_import", error, NULL);
      LM_FUZZ_CHECK (!reads || !named || has_nul, "a good preset was refused: %s", error->message);
      LM_FUZZ_CHECK (strstr (error->message, file) != NULL, "the message does not name the file: %s",
                     error->message);
      g_error_free (error);
      return 0;
    }
  LM_FUZZ_CHECK (reads && named && !has_nul, "a bad preset was imported");
  gchar *copied = NULL;
  gsize copied_len = 0;
  LM_FUZZ_CHECK (g_file_get_contents (imported, &copied, &copied_len, NULL), "the import is not there");
  LM_FUZZ_CHECK (copied_len == len && memcmp (copied, text, len) == 0, "the import is not the file");
  g_free (copied);
  LM_FUZZ_CHECK (lm_preset_delete (name, &error), "cannot delete the import: %s", error->message);
  return 0;
}
