/* The stacks of a batch: found in folders of stack folders or listed in .tsv manifests,
 * named by their ids, in one deterministic order (byte order of the ids, whatever the
 * locale), so that every process of a sharded batch sees the same list. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char *id;         /* the output's name without the extension */
  char *folder;     /* a stack folder, or NULL for a manifest stack */
  char *source;     /* for messages: the folder, or "MANIFEST, line N" of the stack's first line */
  GPtrArray *files; /* manifest stacks: the members' paths, in the manifest's order */
  GArray *times;    /* manifest stacks: seconds (double), one per member */
  char *problem;    /* a manifest stack whose lines were unusable: why (the stack fails) */
} LmBatchStack;

typedef struct {
  GPtrArray *stacks; /* of LmBatchStack, sorted by id */
  char *empty_input; /* the first INPUT in which no stack was found, or NULL: a mistake the
                      * caller refuses (most likely a stack folder given for its parent) */
} LmBatchList;

/* Frees an LmBatchStack (a GDestroyNotify for the lists of stacks and of photos). */
void lm_batch_stack_free (gpointer stack);

/* Reads every INPUT: a folder (each visible subfolder is one stack) or a manifest
 * (`stack_id<TAB>image<TAB>seconds` per line, paths relative to the manifest's folder; one
 * stack's lines together). Fails on an input that is neither, on an id given twice (in two
 * inputs, or in two blocks of one manifest's lines: LM_ERROR_FORMAT), and on a manifest
 * that is not text (a NUL byte: LM_ERROR_FORMAT). */
LmBatchList *lm_batch_list_new (const char *const *inputs, GError **error);
void lm_batch_list_free (LmBatchList *list);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmBatchList, lm_batch_list_free)

/* Whether TEXT can name an output file: not empty, no '/', not starting with '.', no
 * control characters (tabs and newlines would break the journal). */
gboolean lm_batch_id_valid (const char *text);

/* Ids up to this many bytes, which any file name can hold, are listed whole. */
#define LM_BATCH_ID_LISTED_MAX 255

/* ID as failed.tsv lists it: whole, or for an id longer than LM_BATCH_ID_LISTED_MAX (no
 * output can have it: it comes from a manifest, whose line the failure's reason names) its
 * first 64 characters, "…", "~" and the first 16 hex digits of its SHA-256 (the hash its
 * temporary names carry): one short line per stack, and two long ids with one head apart. */
char *lm_batch_id_short (const char *id);

/* The members of STACK and their times: the manifest's, or a folder's exposures.txt, or
 * else the folder's images (by name) with TIMES set to NULL (EXIF times). */
gboolean lm_batch_stack_members (const LmBatchStack *stack, GPtrArray **files, GArray **times,
                                 GError **error);

G_END_DECLS
