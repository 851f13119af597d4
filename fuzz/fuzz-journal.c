/* A batch's journals (lumen-cli batch --report, and every rerun's resume): what
 * lm_journal_read_all and lm_journal_check_sizes (core/batch/journal-read.c) make of the
 * files in OUTDIR. The input is up to four parts separated by form feeds (0x0c), written as
 * journal.tsv, journal-0-of-2.tsv, journal-1-of-2.tsv and stacks.txt of the harness's own
 * folder. A stacks part that starts with "#" is written as it is (a list with its header,
 * or a damaged one); any other is taken as ids, one a line, and written by
 * lm_stack_list_write, so that the journals are read against a list as a run leaves it.
 *
 * Promises: the journals are read unless stacks.txt was written as it is (and then the
 * message names it); no stack is done without a whole line, with no NUL byte, that is a
 * done record of six fields naming it with the size and CRC-32 the summary gives; after
 * the sizes are checked, a stack is done exactly when an output of that size is there (the
 * harness makes one for about half of them, and one a byte short for others); no stack is
 * both done and failed; every note is one line of UTF-8. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "fuzz-util.h"
#include "core/batch/journal.h"
#include "core/batch/stack-list.h"

#define N_JOURNALS 3
static const char *const names[] = { "journal.tsv", "journal-0-of-2.tsv", "journal-1-of-2.tsv", "stacks.txt" };
static const char *const exts[] = { "hdr", NULL };

typedef struct {
  const uint8_t *data;
  size_t size;
} Part;

/* Whether a line of PART (whole: newline-ended, no NUL) is "done TIME ID MS SIZE CRC32" for
 * ID with SUM: the reader's rules said again, more simply. */
static gboolean
has_done_record (const Part *part, const char *id, const LmOutputSum *sum)
{
  const char *text = (const char *) part->data, *end = text + part->size;
  for (const char *line = text; line < end;)
    {
      const char *newline = memchr (line, '\n', end - line);
      if (newline == NULL)
        return FALSE;
      gboolean nul = memchr (line, '\0', newline - line) != NULL;
      g_autofree char *copy = g_strndup (line, newline - line);
      line = newline + 1;
      if (nul)
        continue;
      g_auto (GStrv) f = g_strsplit (copy, "\t", -1);
      if (g_strv_length (f) != 6 || !g_str_equal (f[0], "done") || !g_str_equal (f[2], id) || strlen (f[5]) != 8)
        continue;
      if (g_ascii_strtoull (f[4], NULL, 10) == (guint64) sum->size && g_ascii_strtoull (f[5], NULL, 16) == sum->crc)
        return TRUE;
    }
  return FALSE;
}

static void
write_parts (const char *outdir, const Part *parts, gboolean *raw_list)
{
  *raw_list = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (outdir, names[i], NULL);
      g_unlink (path);
      if (parts[i].data == NULL)
        continue;
      if (i == N_JOURNALS && (parts[i].size == 0 || parts[i].data[0] != '#'))
        {
          g_autofree char *text = g_strndup ((const char *) parts[i].data, parts[i].size);
          g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
          g_autoptr (GPtrArray) ids = g_ptr_array_new ();
          for (guint k = 0; lines[k]; k++)
            if (*lines[k])
              g_ptr_array_add (ids, lines[k]);
          GError *error = NULL;
          LM_FUZZ_CHECK (lm_stack_list_write (outdir, ids, &error), "the stack list was not written: %s",
                         error->message);
          continue;
        }
      *raw_list = *raw_list || i == N_JOURNALS;
      g_autofree char *name = g_build_filename ("outdir", names[i], NULL);
      g_free (lm_fuzz_write_file (name, parts[i].data, parts[i].size));
    }
}

/* Makes an output for about half the done stacks, of the recorded size (sparse) or a byte
 * short; returns the ids of those of the recorded size (a set). */
static GHashTable *
make_outputs (const char *outdir, const LmJournalSummary *summary, GPtrArray *made)
{
  GHashTable *whole = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter it;
  gpointer id, value;
  g_hash_table_iter_init (&it, summary->done);
  while (g_hash_table_iter_next (&it, &id, &value))
    {
      const LmJournalDone *d = value;
      guint h = g_str_hash (id) % 3;
      if (h == 0 || d->sum.size > ((gint64) 1 << 40))
        continue;
      g_autofree char *file = g_strconcat (id, ".hdr", NULL);
      char *path = g_build_filename (outdir, file, NULL);
      int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (fd < 0)
        {
          g_free (path); /* a name too long for the folder: no output */
          continue;
        }
      gboolean sized = ftruncate (fd, h == 1 ? d->sum.size : d->sum.size - 1) == 0;
      close (fd);
      g_ptr_array_add (made, path);
      if (sized && h == 1)
        g_hash_table_add (whole, g_strdup (id));
    }
  return whole;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  lm_fuzz_init ();
  g_autofree char *outdir = g_build_filename (lm_fuzz_tmpdir (), "outdir", NULL);
  g_mkdir_with_parents (outdir, 0700);
  Part parts[G_N_ELEMENTS (names)] = { { 0 } };
  const uint8_t *part = data, *end = data + size;
  guint n_parts = 0;
  for (guint i = 0; i < G_N_ELEMENTS (names) && part != NULL; i++)
    {
      const uint8_t *ff = memchr (part, '\f', end - part);
      parts[i] = (Part) { part, (size_t) ((ff ? ff : end) - part) };
      n_parts += i < N_JOURNALS;
      part = ff ? ff + 1 : NULL;
    }
  gboolean raw_list;
  write_parts (outdir, parts, &raw_list);

  GError *error = NULL;
  LmJournalSummary *summary = lm_journal_read_all (outdir, &error);
  if (summary == NULL)
    {
      LM_FUZZ_CHECK (raw_list, "the journals were not read: %s", error->message);
      g_autofree char *list = g_build_filename (outdir, "stacks.txt", NULL);
      lm_fuzz_check_failure ("lm_journal_read_all", error, list);
      g_error_free (error);
      return 0;
    }
  LM_FUZZ_CHECK (summary->shards->len == n_parts, "%u journals read of %u", summary->shards->len, n_parts);
  GHashTableIter it;
  gpointer id, value;
  g_hash_table_iter_init (&it, summary->failed);
  while (g_hash_table_iter_next (&it, &id, NULL))
    LM_FUZZ_CHECK (!g_hash_table_contains (summary->done, id), "“%s” both done and failed", (char *) id);
  g_hash_table_iter_init (&it, summary->done);
  while (g_hash_table_iter_next (&it, &id, &value))
    {
      const LmJournalDone *d = value;
      gboolean found = FALSE;
      for (guint i = 0; i < N_JOURNALS && !found; i++)
        found = parts[i].data && has_done_record (&parts[i], id, &d->sum);
      LM_FUZZ_CHECK (found, "“%s” done (%" G_GINT64_FORMAT " bytes, CRC-32 %08x) without a whole done record of them",
                     (char *) id, d->sum.size, d->sum.crc);
    }
  g_autoptr (GPtrArray) notes = lm_journal_summary_notes (summary, outdir);
  for (guint i = 0; i < notes->len; i++)
    LM_FUZZ_CHECK (g_utf8_validate (notes->pdata[i], -1, NULL) && strchr (notes->pdata[i], '\n') == NULL,
                   "a note that is not one line of UTF-8: %s", (char *) notes->pdata[i]);

  g_autoptr (GPtrArray) made = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) whole = make_outputs (outdir, summary, made);
  guint before = g_hash_table_size (summary->done);
  lm_journal_check_sizes (summary, outdir, exts);
  LM_FUZZ_CHECK (g_hash_table_size (summary->done) == g_hash_table_size (whole)
                   && summary->unmatched == before - g_hash_table_size (whole),
                 "%u stacks done after the size check, %u outputs of their size", g_hash_table_size (summary->done),
                 g_hash_table_size (whole));
  g_hash_table_iter_init (&it, whole);
  while (g_hash_table_iter_next (&it, &id, NULL))
    LM_FUZZ_CHECK (g_hash_table_contains (summary->done, id), "“%s”: its output has its size, yet not done",
                   (char *) id);
  for (guint i = 0; i < made->len; i++)
    g_unlink (made->pdata[i]);
  lm_journal_summary_free (summary);
  return 0;
}
