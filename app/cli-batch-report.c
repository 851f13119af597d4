/* lumen-cli batch --report OUTDIR and batch develop --report OUTDIR: what the shards'
 * journals say, summed, in stacks or in photos. */
#include <stdio.h>
#include <glib/gi18n.h>

#include "cli-batch.h"
#include "cli.h"
#include "core/batch/commit.h"
#include "core/batch/journal.h"
#include "core/batch/stack-list.h"

int
lm_cli_batch_report (const char *outdir, gboolean photos)
{
  GError *error = NULL;
  g_autoptr (LmJournalSummary) s = lm_journal_read_all (outdir, &error);
  if (s == NULL)
    {
      lm_cli_error ("%s", error->message);
      g_error_free (error);
      return LM_EXIT_FAILURE;
    }
  if (s->shards->len == 0)
    {
      g_autofree char *display = g_filename_display_name (outdir);
      lm_cli_error (_("%s: no batch journal here"), display);
      return LM_EXIT_FAILURE;
    }
  /* A done record counts when its output is there with the record's size: a stat each. A
   * rerun reads every output back for its CRC-32 as well; a report, often made while the
   * batch runs, does not. */
  lm_journal_check_sizes (s, outdir, lm_batch_formats);
  guint done = g_hash_table_size (s->done), failed = g_hash_table_size (s->failed);
  guint total = MAX (s->total, done + failed);
  printf (photos ? _("photos: %u\ndone: %u\nfailed: %u\nremaining: %u\n")
                 : _("stacks: %u\ndone: %u\nfailed: %u\nremaining: %u\n"),
          total, done, failed, total - done - failed);
  printf (photos ? _("throughput: %.2f photos/s (%.1f s of running)\n")
                 : _("throughput: %.2f stacks/s (%.1f s of running)\n"),
          s->busy_s > 0 ? done / s->busy_s : 0.0, s->busy_s);
  if (s->unmatched && photos)
    printf (g_dngettext (NULL,
                         "not done: %u photo recorded as done has no output of the recorded size (missing or cut "
                         "short since): a rerun develops it again\n",
                         "not done: %u photos recorded as done have no output of the recorded size (missing or cut "
                         "short since): a rerun develops them again\n",
                         s->unmatched),
            s->unmatched);
  else if (s->unmatched)
    printf (g_dngettext (NULL,
                         "not done: %u stack recorded as done has no output of the recorded size (missing or cut "
                         "short since): a rerun merges it again\n",
                         "not done: %u stacks recorded as done have no output of the recorded size (missing or cut "
                         "short since): a rerun merges them again\n",
                         s->unmatched),
            s->unmatched);
  g_autoptr (GPtrArray) notes = lm_journal_summary_notes (s, outdir);
  for (guint i = 0; i < notes->len; i++)
    printf (_("warning: %s\n"), (const char *) notes->pdata[i]);
  if (s->duplicates)
    printf (photos ? _("warning: %u photos are recorded as done more than once\n")
                   : _("warning: %u stacks are recorded as done more than once\n"),
            s->duplicates);
  if (s->outside)
    printf (photos ? _("not counted: %u photos in the journals that the latest run did not have (%s lists its "
                       "photos)\n")
                   : _("not counted: %u stacks in the journals that the latest run did not have (%s lists its "
                       "stacks)\n"),
            s->outside, LM_STACK_LIST_NAME);
  for (guint i = 0; i < s->shards->len; i++)
    {
      const LmJournalShard *j = &g_array_index (s->shards, LmJournalShard, i);
      if (j->count)
        printf (_("shard %u/%u: %u of %u done, %u failed (%s)\n"), j->index, j->count, j->done, j->share,
                j->failed, j->name);
      else
        printf (_("unsharded: %u of %u done, %u failed (%s)\n"), j->done, j->share, j->failed, j->name);
    }
  return LM_EXIT_OK;
}
