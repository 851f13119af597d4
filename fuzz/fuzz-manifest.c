/* A batch manifest (lumen-cli batch MANIFEST.tsv): `stack_id<TAB>image<TAB>seconds` lines
 * (core/batch/stacks.c). It is read by a name ending in .tsv, so from a file in the
 * harness's own folder. Every stack listed has a valid id, and its members or the reason
 * it fails. */
#include <string.h>

#include "fuzz-util.h"
#include "core/batch/stacks.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  g_autofree char *path = lm_fuzz_write_file ("manifest.tsv", data, size);
  const char *const inputs[] = { path, NULL };
  GError *error = NULL;
  LmBatchList *list = lm_batch_list_new (inputs, &error);
  if (list == NULL)
    {
      lm_fuzz_check_failure ("lm_batch_list_new", error, NULL);
      g_error_free (error);
      return 0;
    }
  for (guint i = 0; i < list->stacks->len; i++)
    {
      const LmBatchStack *stack = g_ptr_array_index (list->stacks, i);
      LM_FUZZ_CHECK (lm_batch_id_valid (stack->id), "a stack of id “%s”", stack->id);
      LM_FUZZ_CHECK (i == 0 || strcmp (((LmBatchStack *) g_ptr_array_index (list->stacks, i - 1))->id,
                                       stack->id) < 0,
                     "stacks out of order or given twice at “%s”", stack->id);
      GPtrArray *files = NULL;
      GArray *times = NULL;
      if (lm_batch_stack_members (stack, &files, &times, &error))
        {
          LM_FUZZ_CHECK (files->len == times->len, "%u members and %u times", files->len, times->len);
          g_ptr_array_unref (files);
          g_array_unref (times);
        }
      else
        {
          lm_fuzz_check_failure ("lm_batch_stack_members", error, NULL);
          g_clear_error (&error);
        }
    }
  lm_batch_list_free (list);
  return 0;
}
