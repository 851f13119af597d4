/* Which operations of an edit go over to another (copy and paste, Apply Edits to Photos…,
 * presets): a choice of instances of the source pipeline, and the paste that carries them. */
#pragma once

#include <glib.h>

#include "../edit/pipeline.h"

G_BEGIN_DECLS

typedef enum {
  /* The chosen operations take the place of the target's same operations (every instance of
   * each, on or off); the target's other operations stay as they are. */
  LM_PASTE_REPLACE,
  /* The chosen operations that are on are merged into the target's edits as Apply Edits to
   * Photos…'s Merge does (lm_sidecar_merge_edits): a primary takes the place of the target's,
   * another instance comes as one more; those off change nothing. */
  LM_PASTE_APPEND,
} LmPasteMode;

/* A choice of the instances of one pipeline (the source), by id, and of its tone mapping. Plain
 * data: copy it by value. */
typedef struct {
  guint n;
  guint32 ids[LM_PIPELINE_MAX];
  gboolean tonemap; /* its tone mapping (of radiance) */
  gboolean raw;     /* its raw development, where both it and the target are raws */
} LmOpSelection;

/* Nothing chosen. */
void lm_op_selection_clear (LmOpSelection *selection);

/* Every instance of SOURCE, on or off, its tone mapping and raw development: a paste of it in
 * REPLACE mode makes the target's edits SOURCE's. */
void lm_op_selection_all (LmOpSelection *selection, const LmPipeline *source);

/* What goes to *another* photo unless the person says otherwise: every instance of SOURCE but
 * those tied to the photo it was made on (lm_op_selection_photo_bound). */
void lm_op_selection_default (LmOpSelection *selection, const LmPipeline *source);

/* Whether STAGE of PIPELINE belongs to the photo it was made on, so that a paste onto another
 * photo leaves it out by default: geometry (lens correction, rotation, straightening, crop:
 * framing one photo), the export's resize (a size chosen when exporting, not a look), and an
 * instance whose mask has brush strokes (painted over that photo's content; a gradient or a
 * radial shape goes along). */
gboolean lm_op_selection_photo_bound (const LmPipeline *pipeline, const LmStage *stage);

/* Whether the instance of id ID is chosen. */
gboolean lm_op_selection_has (const LmOpSelection *selection, guint32 id);

/* Chooses (ON) or leaves out the instance of id ID. */
void lm_op_selection_set (LmOpSelection *selection, guint32 id, gboolean on);

/* Chooses or leaves out every instance of operation OP in SOURCE. */
void lm_op_selection_set_op (LmOpSelection *selection, const LmPipeline *source, LmOpId op, gboolean on);

/* SOURCE with only what SELECTION chooses: the others' primaries off with default parameters
 * and no mask, other instances removed; tone mapping at its default unless chosen. */
void lm_op_selection_filter (const LmOpSelection *selection, const LmPipeline *source, LmPipeline *out);

/* SOURCE's operations that SELECTION chooses pasted onto DST in MODE. DST stays a raw's or
 * not as it was (the caller runs lm_pipeline_fit_source on SRC first, as before any paste).
 * FALSE, DST as it was, where the result would hold more instances or masks than a pipeline
 * does. */
gboolean lm_pipeline_paste (LmPipeline *dst, const LmPipeline *src, const LmOpSelection *selection,
                            LmPasteMode mode, GError **error);

G_END_DECLS
