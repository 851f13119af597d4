/* Apply Edits to Photos…'s question for a photo that has edits of its own (ui/apply-question.c):
 * replace them with the edits applied, merge those into them, or skip the photo; "Apply to
 * all" gives the same answer for every later such photo of the run. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  LM_APPLY_REPLACE = 1, /* the photo gets the edits applied, its own go */
  LM_APPLY_MERGE,       /* the operations applied take the place of its same ones, its others stay */
  LM_APPLY_SKIP,        /* the photo is left alone: no export, its edits as they are */
} LmApplyAnswer;

/* ANSWER for the photo asked about; FOR_ALL: for every later one too. */
typedef void (*LmApplyAnswered) (LmApplyAnswer answer, gboolean for_all, gpointer data);

/* Shows the question, modal over PARENT, about the photo named NAME (for display) whose
 * sidecar SIDECAR holds its edits; UNREADABLE (NULL when it was read) says why that sidecar
 * could not be read, and Merge is then not offered. DONE (DATA) gets the answer once, and the
 * dialog then goes; closing it skips the photo. Returns the dialog; destroying it answers
 * nothing. DESTROY (DATA) runs when the dialog goes, answered or not. */
GtkWidget *lm_apply_question_new (GtkWindow *parent, const char *name, const char *sidecar, const char *unreadable,
                                  LmApplyAnswered done, gpointer data, GDestroyNotify destroy);

G_END_DECLS
