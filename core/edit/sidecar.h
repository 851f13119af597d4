/* Where a photo's edits are kept: its sidecar (pipeline.h's key-file form), `<photo>.lumen`
 * beside it, or, where the photo's folder cannot be written (a card, a shared folder), in
 * the user's data folder under a name made from the photo's absolute path. The window reads
 * it when a photo opens and writes it at every change; lumen-cli --params reads the same. */
#pragma once

#include <glib.h>

#include "pipeline.h"

G_BEGIN_DECLS

/* `<PHOTO>.lumen`. */
char *lm_sidecar_beside_path (const char *photo);
/* `$XDG_DATA_HOME/lumen/sidecars/<SHA-256 of PHOTO's absolute path>.lumen`
 * (g_get_user_data_dir): one name per photo, whatever its name's length or characters. */
char *lm_sidecar_data_path (const char *photo);

/* The sidecar of PHOTO that a read takes: beside the photo first, then the data folder's.
 * Where both exist (the folder was writable once and is not now, so newer edits went to the
 * data folder) the one written last. NULL when there is none. */
char *lm_sidecar_find (const char *photo);

/* Reads PHOTO's sidecar into PIPELINE (which it starts from, as lm_pipeline_load_sidecar).
 * No sidecar: TRUE, PIPELINE untouched, *FOUND (when given) NULL. Otherwise *FOUND is the
 * file read, also on failure, whose message names it and the cause; PIPELINE is then
 * untouched too. */
gboolean lm_sidecar_load (const char *photo, LmPipeline *pipeline, char **found, GError **error);

/* TRUE when PIPELINE is what a photo opens with: nothing enabled, tone mapping's defaults.
 * Such edits need no sidecar. */
gboolean lm_sidecar_is_default (const LmPipeline *pipeline);

/* Writes PIPELINE as a sidecar to PATH, atomically (a reader sees the old file or the new,
 * never a part): lumen-cli --params-out, and each save. */
gboolean lm_sidecar_write (const char *path, const LmPipeline *pipeline, GError **error);

/* Keeps PIPELINE as PHOTO's edits: beside the photo where its folder can be written (a copy
 * left in the data folder is then removed), else in the data folder. Edits equal to the
 * default remove PHOTO's sidecars instead of writing one. *WRITTEN (when given) is the file
 * written, NULL when none was. Messages name the file and the cause. */
gboolean lm_sidecar_save (const char *photo, const LmPipeline *pipeline, char **written, GError **error);

/* APPLIED merged into EDITS, a photo's own (Apply Edits to Photos…'s Merge): each operation's
 * primary that APPLIED has on replaces EDITS' primary, with its parameters and mask; each other
 * instance of APPLIED replaces EDITS' of the same id and operation, or else comes after EDITS'
 * last instance of its operation (with a fresh id where EDITS has its id); the others of EDITS
 * stay as they are. Tone mapping is taken where APPLIED's is not the default. FALSE, EDITS
 * left as it was, where the result would hold more instances or masks than a pipeline does. */
gboolean lm_sidecar_merge_edits (LmPipeline *edits, const LmPipeline *applied, GError **error);

G_END_DECLS
