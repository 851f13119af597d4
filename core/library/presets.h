/* Presets: edits kept under a name to apply to other photos. A preset is a plain sidecar
 * (pipeline.h's form), so that `lumen-cli --params PRESET.lumen` reads it as it is; its name is
 * its file's name without ".lumen" (the sidecar's grammar refuses keys it does not know, so the
 * name cannot live inside). The person's presets are in $XDG_DATA_HOME/lumen/presets/; the
 * built-in ones are files installed in <datadir>/lumen/presets/ (or data/presets/ of the source
 * tree when run from the build), read only: a person's preset of the same name hides one. */
#pragma once

#include <glib.h>

#include "../edit/pipeline.h"
#include "op-select.h"

G_BEGIN_DECLS

#define LM_PRESET_SUFFIX ".lumen"
/* The longest name, in bytes: room for a file name on any file system with the suffix. */
#define LM_PRESET_NAME_MAX 100

typedef struct {
  char *name;       /* UTF-8 */
  char *path;       /* its file */
  gboolean builtin; /* shipped with Lumen: cannot be renamed or deleted */
} LmPreset;

void lm_preset_free (LmPreset *preset);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmPreset, lm_preset_free)

/* $XDG_DATA_HOME/lumen/presets (not created). */
char *lm_presets_user_dir (void);

/* Every preset, sorted by name as a person reads it (g_utf8_collate), a person's first where a
 * built-in has its name: an array of LmPreset, freed with it. A folder that cannot be read is
 * an error naming it; one that is not there has no presets. */
GPtrArray *lm_presets_list (GError **error);

/* Whether NAME can name a preset: valid UTF-8, 1..LM_PRESET_NAME_MAX bytes, no '/', no control
 * characters, not starting with '.' or a space, not ending with a space. */
gboolean lm_preset_name_check (const char *name, GError **error);

/* Keeps PIPELINE's operations that SELECTION chooses (NULL: all of them) as the person's preset
 * NAME, written atomically; an existing preset of that name is replaced only where REPLACE.
 * Returns the file written, or NULL with a one-line message. */
char *lm_preset_save (const char *name, const LmPipeline *pipeline, const LmOpSelection *selection, gboolean replace,
                      GError **error);

/* Renames the person's preset NAME to NEW_NAME (which must not exist). */
gboolean lm_preset_rename (const char *name, const char *new_name, GError **error);

/* Removes the person's preset NAME. */
gboolean lm_preset_delete (const char *name, GError **error);

/* Copies FILE, once lm_pipeline_from_text reads it, into the person's presets as NAME (NULL:
 * FILE's name without ".lumen"), not over an existing one. A file that is not a sidecar Lumen
 * reads is refused with one line naming it and the cause. Returns the preset's file. */
char *lm_preset_import (const char *file, const char *name, GError **error);

/* Writes the preset NAME_OR_PATH (lm_preset_resolve) to FILE, byte for byte, atomically. */
gboolean lm_preset_export (const char *name_or_path, const char *file, GError **error);

/* The file of the preset NAME_OR_PATH: a person's preset of that name, else a built-in one,
 * else, when it names a file that exists (a path, or a name with ".lumen"), that file. NULL with
 * "NAME: no such preset" otherwise. The file is not read: lm_preset_load does. */
char *lm_preset_resolve (const char *name_or_path, GError **error);

/* Reads the preset file PATH into PIPELINE (lm_pipeline_init'ed by the call). */
gboolean lm_preset_load (const char *path, LmPipeline *pipeline, GError **error);

/* What a preset carries to a photo: its operations that are on, and what a paste onto another
 * photo carries by default (lm_op_selection_default): in REPLACE mode the preset's look takes
 * the place of the photo's, the photo's own geometry and export size staying. */
void lm_preset_selection (const LmPipeline *preset, LmOpSelection *selection);

/* PRESET (read from a preset file, fitted by the call to PHOTO_EDITS' raw or not) onto a
 * photo's EDITS in MODE: what lm_preset_apply_to_photo and the window's menu do. */
gboolean lm_preset_apply (LmPipeline *edits, const LmPipeline *preset, LmPasteMode mode, GError **error);

/* The photo PHOTO's sidecar (lm_sidecar_load, lm_sidecar_save: beside it, or in the data
 * folder where its folder cannot be written) gains the preset PRESET_PATH's operations in MODE,
 * written atomically. A photo without a sidecar starts from the defaults (a raw's when it is a
 * raw). Nothing is written where the preset or the photo's sidecar cannot be read; each message
 * is one line naming the file. */
gboolean lm_preset_apply_to_photo (const char *preset_path, const char *photo, LmPasteMode mode, GError **error);

G_END_DECLS
