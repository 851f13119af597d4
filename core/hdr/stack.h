/* A bracketed stack: the exposures of one scene and their exposure times, checked as a whole
 * (same size, at least two, positive and distinct times) before anything is merged. */
#pragma once

#include <glib.h>

#include "../image.h"

G_BEGIN_DECLS

#define LM_HDR_MAX_EXPOSURES 64

typedef struct {
  guint n;
  LmImage **images; /* RGBA8, host memory */
  double *times;    /* seconds */
  char **paths;
} LmHdrStack;

/* Reads an exposures file: "<file> <seconds>" per line (blank lines and # comments
 * skipped), file names relative to the file's folder. */
gboolean lm_hdr_read_exposures (const char *path, GPtrArray **files, GArray **times, GError **error);

/* Loads PATHS; TIMES (may be NULL) gives the exposure times, otherwise each file's EXIF
 * ExposureTime. Fails, naming the file and the cause, on anything that cannot be merged. */
LmHdrStack *lm_hdr_stack_load (const char *const *paths, guint n, const double *times,
                               const LmAllocator *allocator, GError **error);
void lm_hdr_stack_free (LmHdrStack *stack);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmHdrStack, lm_hdr_stack_free)

G_END_DECLS
