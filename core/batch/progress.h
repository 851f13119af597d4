/* A batch's progress: a bar on a terminal (stacks done / total, stacks per second, time
 * left), plain lines every few seconds in a log, or nothing; a summary line at the end. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  LM_PROGRESS_AUTO, /* bar when stderr is a terminal, else plain */
  LM_PROGRESS_BAR,
  LM_PROGRESS_PLAIN,
  LM_PROGRESS_NONE,
} LmProgressMode;

gboolean lm_progress_mode_parse (const char *text, LmProgressMode *mode);

typedef struct _LmProgress LmProgress;

/* TOTAL: the stacks of this run's share; BEFORE: those of them done by earlier runs. */
LmProgress *lm_progress_new (LmProgressMode mode, guint total, guint before);
/* PROGRESS counts photos (batch develop) rather than stacks. */
void lm_progress_count_photos (LmProgress *progress);
/* How long the caller may wait before the next update. */
gint64 lm_progress_interval_us (const LmProgress *progress);
/* DONE and FAILED: by this run. Draws when it is time to. */
void lm_progress_update (LmProgress *progress, guint done, guint failed);
/* Clears the bar and prints the summary line on stdout; frees PROGRESS. */
void lm_progress_finish (LmProgress *progress, guint done, guint failed);

G_END_DECLS
