/* The choice of which operations of some edits go to a photo (core/library/op-select.h): a
 * check box per operation that is on in the edits, and where asked Replace / Append. Used by
 * Paste Selectively…, Apply Edits to Photos… and Save Current Edits as Preset…. */
#pragma once

#include <gtk/gtk.h>

#include "core/library/op-select.h"

G_BEGIN_DECLS

/* A box listing SOURCE's instances that are on, each ticked as SELECTION says (its check box
 * named "paste-op-<sidecar group>", e.g. "paste-op-crop", "paste-op-exposure#64"); with
 * WITH_MODE, radio buttons "paste-replace" and "paste-append" under them, MODE chosen. SOURCE
 * and SELECTION are copied. */
GtkWidget *lm_paste_ops_new (const LmPipeline *source, const LmOpSelection *selection, gboolean with_mode,
                             LmPasteMode mode);

/* The choice made in OPS (a box of lm_paste_ops_new): the initial selection with the listed
 * instances ticked or not as the check boxes say (instances that are off stay as given). */
void lm_paste_ops_get_selection (GtkWidget *ops, LmOpSelection *selection);
LmPasteMode lm_paste_ops_get_mode (GtkWidget *ops);

typedef void (*LmPasteOpsDone) (const LmOpSelection *selection, LmPasteMode mode, gpointer data);

/* A modal dialog (named "paste-ops-dialog") over PARENT titled TITLE, with lm_paste_ops_new's box
 * and the buttons Cancel and ACCEPT; DONE (DATA) is called on ACCEPT only, then DESTROY (DATA)
 * in any case. Returns at once. */
GtkWidget *lm_paste_ops_dialog (GtkWindow *parent, const char *title, const char *accept, const LmPipeline *source,
                                const LmOpSelection *selection, gboolean with_mode, LmPasteMode mode,
                                LmPasteOpsDone done, gpointer data, GDestroyNotify destroy);

G_END_DECLS
