/* The photos of a develop batch (`lumen-cli batch develop`, the window's Export Selected…), as
 * an LmBatchList so that the HDR batch's journal, shards, resume and commit take them as they
 * take stacks: each LmBatchStack is one photo, its id the output's name (without the
 * extension), files->pdata[0] the photo and files->pdata[1], where given, its sidecar. */
#pragma once

#include <glib.h>

#include "stacks.h"

G_BEGIN_DECLS

/* The default name pattern: the photo's name without its extension. */
#define LM_DEVELOP_PATTERN_DEFAULT "$(FILE_NAME)"

/* PATTERN expanded for the INDEX-th photo (from 1) at PHOTO: the variables of darktable's
 * export, $(FILE_NAME) (the name without its extension), $(FILE_EXTENSION) (without the dot),
 * $(SEQUENCE) (INDEX, 4 digits), and the short forms {name}, {ext}, {n}; "$$" is "$". NULL,
 * naming the variable, where PATTERN has one it does not know; the result may still not be a
 * valid id (lm_batch_id_valid). */
char *lm_develop_name (const char *pattern, const char *photo, guint index, GError **error);

/* Whether PATTERN expands without an error (checked before any photo is read). */
gboolean lm_develop_pattern_check (const char *pattern, GError **error);

/* Whether NAME is a photo a develop batch takes from a folder, by its extension: JPEG, PNG,
 * TIFF, WebP and camera raws. */
gboolean lm_develop_is_photo_name (const char *name);

/* Reads every INPUT: a folder (its photos, by name; not its subfolders) or a manifest
 * (`id<TAB>photo[<TAB>sidecar]` per line, paths relative to the manifest's folder). A
 * folder's photos are named by PATTERN ($(SEQUENCE): the photo's place in the byte order of
 * the paths of all the folders' photos), a manifest's by their ids. Fails on an input that is
 * neither, and on two photos of one name (LM_ERROR_INVALID, naming both). A manifest line
 * that cannot be used fails its photo alone (LmBatchStack.problem). */
LmBatchList *lm_develop_list_new (const char *const *inputs, const char *pattern, GError **error);

/* As lm_develop_list_new, where an INPUT may also be a photo (any file that is neither a
 * folder nor a .tsv manifest), named by PATTERN as a folder's photos are. */
LmBatchList *lm_photo_list_new (const char *const *inputs, const char *pattern, GError **error);

/* PHOTOS (N of them) named by PATTERN in their order, each with the sidecar that the window
 * finds for it. Fails as lm_develop_list_new. */
LmBatchList *lm_develop_list_of_photos (const char *const *photos, guint n, const char *pattern, GError **error);

/* The photo of a develop batch's STACK, and its sidecar as given by a manifest (else NULL). */
const char *lm_develop_photo_of (const LmBatchStack *stack);
const char *lm_develop_sidecar_of (const LmBatchStack *stack);

G_END_DECLS
