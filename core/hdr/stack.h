/* A bracketed stack: the exposures of one scene and their exposure times, checked as a whole
 * (same size, all gray or all colour, at least two, positive and distinct times) before
 * anything is merged. Exposure fusion weighs pixels, not times: its stacks may have none. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

#define LM_HDR_MAX_EXPOSURES 64

typedef struct {
  guint n;
  LmImage **images; /* RGBA8, host memory */
  double *times;    /* seconds; NULL in a stack loaded for fusion without times */
  char **paths;
} LmHdrStack;

/* Reads an exposures file: "<file> <seconds>" per line (blank lines and # comments
 * skipped), file names relative to the file's folder. */
gboolean lm_hdr_read_exposures (const char *path, GPtrArray **files, GArray **times, GError **error);

/* Loads PATHS; TIMES (may be NULL) gives the exposure times, otherwise each file's EXIF
 * ExposureTime. Fails, naming the file and the cause, on anything that cannot be merged. */
LmHdrStack *lm_hdr_stack_load (const char *const *paths, guint n, const double *times,
                               const LmAllocator *allocator, GError **error);

/* As lm_hdr_stack_load, for exposure fusion: without TIMES (NULL) the stack has none and no
 * file is asked for EXIF times; given TIMES are checked and kept. */
LmHdrStack *lm_hdr_stack_load_untimed (const char *const *paths, guint n, const double *times,
                                       const LmAllocator *allocator, GError **error);
/* Whether IMAGE, loaded from PATH, can join a stack whose first exposure is FIRST (loaded
 * from FIRST_PATH; NULL when IMAGE is the first): 8-bit, of FIRST's size, and gray or colour
 * as FIRST is (the merges read a pixel's exposures as one kind). The message names both. */
gboolean lm_hdr_stack_check_member (const char *path, const LmImage *image, const char *first_path,
                                    const LmImage *first, GError **error);

void lm_hdr_stack_free (LmHdrStack *stack);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmHdrStack, lm_hdr_stack_free)

G_END_DECLS
