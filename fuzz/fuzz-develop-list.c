/* A develop batch's names and manifest (lumen-cli batch develop, core/batch/develop-list.c):
 * the first line is a name pattern, the rest a manifest of `id<TAB>photo[<TAB>sidecar]` lines,
 * read by a name ending in .tsv from the harness's folder. A pattern expands or is refused
 * with a message; every photo listed has a valid id, a photo path, and ids in byte order,
 * none twice. */
#include <string.h>

#include "fuzz-util.h"
#include "core/batch/develop-list.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  const uint8_t *newline = memchr (data, '\n', size);
  gsize pattern_len = newline ? (gsize) (newline - data) : size;
  g_autofree char *pattern = g_strndup ((const char *) data, pattern_len);
  GError *error = NULL;
  g_autofree char *name = lm_develop_name (pattern, "/photos/IMG_0001.CR3", 12, &error);
  if (name == NULL)
    {
      lm_fuzz_check_failure ("lm_develop_name", error, NULL);
      g_clear_error (&error);
    }
  const uint8_t *rest = newline ? newline + 1 : data + size;
  g_autofree char *path = lm_fuzz_write_file ("develop.tsv", rest, size - (gsize) (rest - data));
  const char *const inputs[] = { path, NULL };
  LmBatchList *list = lm_develop_list_new (inputs, LM_DEVELOP_PATTERN_DEFAULT, &error);
  if (list == NULL)
    {
      lm_fuzz_check_failure ("lm_develop_list_new", error, NULL);
      g_error_free (error);
      return 0;
    }
  for (guint i = 0; i < list->stacks->len; i++)
    {
      const LmBatchStack *photo = g_ptr_array_index (list->stacks, i);
      LM_FUZZ_CHECK (lm_batch_id_valid (photo->id), "a photo of id “%s”", photo->id);
      LM_FUZZ_CHECK (lm_develop_photo_of (photo) != NULL, "no photo for “%s”", photo->id);
      LM_FUZZ_CHECK (i == 0 || strcmp (((LmBatchStack *) g_ptr_array_index (list->stacks, i - 1))->id,
                                       photo->id) < 0,
                     "photos out of order or given twice at “%s”", photo->id);
    }
  lm_batch_list_free (list);
  return 0;
}
