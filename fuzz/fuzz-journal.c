/* A batch's journals (lumen-cli batch --report, and every rerun's resume): what
 * lm_journal_read_all (core/batch/journal.c) makes of the files in OUTDIR. The input is up to
 * four files separated by form feeds (0x0c), written as journal.tsv, journal-0-of-2.tsv,
 * journal-1-of-2.tsv and stacks.txt (the batch's ids) of the harness's own folder. */
#include <string.h>
#include <glib/gstdio.h>

#include "fuzz-util.h"
#include "core/batch/journal.h"

#define N_JOURNALS 3
static const char *const names[] = { "journal.tsv", "journal-0-of-2.tsv", "journal-1-of-2.tsv", "stacks.txt" };

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  g_autofree char *outdir = g_build_filename (lm_fuzz_tmpdir (), "outdir", NULL);
  g_mkdir_with_parents (outdir, 0700);
  const uint8_t *part = data, *end = data + size;
  guint n_parts = 0;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (outdir, names[i], NULL);
      if (part == NULL)
        {
          g_unlink (path);
          continue;
        }
      const uint8_t *ff = memchr (part, '\f', end - part);
      const uint8_t *stop = ff ? ff : end;
      g_autofree char *name = g_build_filename ("outdir", names[i], NULL);
      g_free (lm_fuzz_write_file (name, part, stop - part));
      n_parts += i < N_JOURNALS;
      part = ff ? ff + 1 : NULL;
    }

  GError *error = NULL;
  LmJournalSummary *summary = lm_journal_read_all (outdir, &error);
  LM_FUZZ_CHECK (summary != NULL, "the journals were not read: %s", error->message);
  LM_FUZZ_CHECK (summary->shards->len == n_parts, "%u journals read of %u", summary->shards->len,
                 n_parts);
  GHashTableIter it;
  gpointer id;
  g_hash_table_iter_init (&it, summary->failed);
  while (g_hash_table_iter_next (&it, &id, NULL))
    LM_FUZZ_CHECK (!g_hash_table_contains (summary->done, id), "“%s” both done and failed", (char *) id);
  lm_journal_summary_free (summary);
  return 0;
}
