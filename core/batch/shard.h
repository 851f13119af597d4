/* A shard: share INDEX of COUNT of a batch's sorted stack list (stack k belongs to shard
 * k mod COUNT), so that COUNT processes split one batch with no coordination. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint index, count; /* count 0: not sharded (the whole list) */
} LmShard;

/* "I/N", 0 ≤ I < N. */
gboolean lm_shard_parse (const char *text, LmShard *shard, GError **error);

/* The share a job scheduler gives this process when --shard is not given: a Slurm job
 * array task (SLURM_ARRAY_TASK_ID, _MIN, _STEP, _COUNT), or a Kubernetes indexed job
 * (JOB_COMPLETION_INDEX with COMPLETIONS given, since Kubernetes does not export it), or
 * none. */
gboolean lm_shard_from_environment (guint completions, LmShard *shard, GError **error);

static inline gboolean
lm_shard_takes (const LmShard *shard, guint k)
{
  return shard->count == 0 || k % shard->count == shard->index;
}

/* The shard's file names in OUTDIR: "journal.tsv" / "failed.tsv" when not sharded,
 * "journal-I-of-N.tsv" / "failed-I-of-N.tsv" otherwise. */
char *lm_shard_file_name (const LmShard *shard, const char *what);

G_END_DECLS
