/* Undo and redo of edits: a list of pipeline states, one per committed change (one slider
 * drag is one change), and which of them is saved (in a sidecar or an export). */
#pragma once

#include <glib.h>

#include "pipeline.h"

G_BEGIN_DECLS

typedef struct _LmHistory LmHistory;

LmHistory *lm_history_new (const LmPipeline *initial);
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

G_END_DECLS
