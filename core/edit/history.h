/* Undo and redo of edits: a list of pipeline states, one per committed change (one slider
 * drag is one change), and which of them is saved (in a sidecar or an export). */
#pragma once

#include <glib.h>

#include "pipeline.h"

G_BEGIN_DECLS

typedef struct _LmHistory LmHistory;

LmHistory *lm_history_new (const LmPipeline *initial);
/* A history of the N STEPS (N >= 1) at CURRENT (< N), as an earlier session left it
 * (history-file.h): CURRENT is what the sidecar holds, so it counts as saved. */
LmHistory *lm_history_new_steps (const LmPipeline *steps, guint n, guint current);
void lm_history_free (LmHistory *history);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmHistory, lm_history_free)

/* Records STATE as the newest step, dropping the steps that had been undone; a state equal
 * to the current one records nothing. */
void lm_history_push (LmHistory *history, const LmPipeline *state);

/* Steps back or forward, filling STATE; FALSE when there is nowhere to go. */
gboolean lm_history_undo (LmHistory *history, LmPipeline *state);
gboolean lm_history_redo (LmHistory *history, LmPipeline *state);
gboolean lm_history_can_undo (LmHistory *history);
gboolean lm_history_can_redo (LmHistory *history);

/* The current state is kept somewhere (exported, saved): no prompt for it on close. */
void lm_history_mark_saved (LmHistory *history);
gboolean lm_history_is_dirty (LmHistory *history);

/* The steps, oldest first, and which of them is the current one: what history-file.c keeps. */
guint lm_history_n_steps (LmHistory *history);
guint lm_history_position (LmHistory *history);
const LmPipeline *lm_history_step (LmHistory *history, guint index);

G_END_DECLS
