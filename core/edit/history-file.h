/* A photo's undo history kept between sessions: a companion of its sidecar,
 * `<sidecar>-history` (`photo.jpg.lumen-history`, or the data folder's
 * `<hash>.lumen-history`), not a group of the sidecar itself, whose grammar refuses unknown
 * groups: older Lumens then refuse the sidecar, and lumen-cli --params, presets and the
 * batch would carry the steps along. The file holds the steps as sidecar texts, the current
 * one among them, which is what the sidecar held when it was written: a sidecar changed
 * since (by lumen-cli, a preset applied from the folder view, another program) makes its edits
 * the history's last step.
 *
 * The form (version 1), every count in decimal ASCII:
 *   lumen-history 1\n
 *   steps N current C\n          1 <= N <= LM_HISTORY_FILE_STEPS, C < N
 *   step LEN\n, then LEN bytes of a sidecar's text and \n, N times, oldest first. */
#pragma once

#include <glib.h>

#include "history.h"
#include "pipeline.h"

G_BEGIN_DECLS

#define LM_HISTORY_FILE_STEPS 100                  /* steps kept on disk, around the current one */
#define LM_HISTORY_FILE_BYTES ((gsize) 2 << 20)    /* what a write keeps below, the oldest steps going first */
#define LM_HISTORY_FILE_MAX ((guint64) 8 << 20)    /* what a read takes: files larger are refused unread */

/* The history file of the sidecar SIDECAR (lm_sidecar_beside_path, lm_sidecar_data_path). */
char *lm_history_file_path (const char *sidecar);

/* The history file of PHOTO a read takes: that of the sidecar lm_sidecar_find takes, or, where
 * PHOTO has none (its edits undone to none), the newer of those beside it and in the data
 * folder. NULL when there is none. */
char *lm_history_file_find (const char *photo);

/* Where PHOTO's history goes: beside WRITTEN, the sidecar just written; with none written
 * (default edits), beside the photo where its folder can be written, else in the data folder
 * (created). NULL with ERROR where that folder cannot be made. */
char *lm_history_file_target (const char *photo, const char *written, GError **error);

/* HISTORY as the file's text, with NOW as the current step where it differs from HISTORY's
 * (a change not yet grouped into a step): at most LM_HISTORY_FILE_STEPS steps, the current
 * one and those before it first (Undo is what the file is for), then redo steps; then within
 * about LM_HISTORY_FILE_BYTES, the oldest and then the furthest redo steps left out first. */
GBytes *lm_history_to_text (LmHistory *history, const LmPipeline *now);

/* The history the LEN bytes of TEXT hold, each step read over BASE (the pipeline the photo
 * opens with before its sidecar, as lm_pipeline_from_text starts from it); NULL with ERROR
 * (LM_ERROR_FORMAT, without the file's name) where TEXT is not one. */
LmHistory *lm_history_from_text (const char *text, gsize len, const LmPipeline *base, GError **error);

/* Writes HISTORY (lm_history_to_text) to PATH, atomically; inside an atomic group
 * (core/io/atomic-group.h) it is renamed with the sidecar. */
gboolean lm_history_file_write (const char *path, LmHistory *history, const LmPipeline *now, GError **error);

/* What lm_history_file_load found. */
typedef enum {
  LM_HISTORY_FILE_NONE,    /* no history file: a fresh history */
  LM_HISTORY_FILE_LOADED,  /* *HISTORY is the earlier sessions' */
  LM_HISTORY_FILE_CHANGED, /* its current step is not the sidecar's edits (changed elsewhere):
                            * *HISTORY is the earlier sessions' with those edits as its last step */
  LM_HISTORY_FILE_BAD,     /* unreadable or damaged: ERROR names the file and the cause */
} LmHistoryFileStatus;

/* Reads PATH's history (BASE as for lm_history_from_text); OPENED, the pipeline the sidecar
 * gave, is its current step, or becomes its last. A damaged file is left as it is until the
 * next write replaces it. */
LmHistoryFileStatus lm_history_file_load (const char *path, const LmPipeline *base, const LmPipeline *opened,
                                          LmHistory **history, GError **error);

G_END_DECLS
