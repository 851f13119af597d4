/* A bracketed stack: the exposures of one scene and their exposure times, checked as a whole
 * by the HDR job (core/merge/job.h: same size, all gray or all colour, at least two,
 * positive and distinct times) before anything is merged. Exposure fusion weighs pixels, not
 * times: its stacks may have none. */
#pragma once

#include <glib.h>

#include "../image.h"
#include "merge-math.h"

G_BEGIN_DECLS

#define LM_HDR_MAX_EXPOSURES 64

typedef struct {
  guint n;
  LmImage **images; /* RGBA8 or GRAY8; host memory, or a backend's work memory (the batch
                     * decodes there with nvJPEG) */
  double *times;    /* seconds; NULL in a stack loaded for fusion without times */
  char **paths;
} LmHdrStack;

/* A pixel of an exposure in host memory as the merge and the calibration read it: an RGBA8
 * word, R in the low byte, a gray sample repeated in R, G and B. */
static inline guint32
lm_hdr_pixel_word (const LmImage *image, guint x, guint y)
{
  const guint8 *row = lm_image_row (image, y);
  return image->format == LM_FORMAT_GRAY8 ? lm_hdr_gray_word (row[x]) : ((const guint32 *) row)[x];
}

/* The exposure times a stack may have, in seconds: from a nanosecond to eleven and a half
 * days, beyond any camera's. The merges take their logarithms in single precision, where a
 * time of 1e-320 s would be minus infinity. */
#define LM_HDR_MIN_SECONDS 1e-9
#define LM_HDR_MAX_SECONDS 1e6

/* One exposure time, of the file at PATH: positive and within the range. */
gboolean lm_hdr_check_time (const char *path, double seconds, GError **error);

/* Reads an exposures file: "<file> <seconds>" per line (blank lines and # comments
 * skipped), file names relative to the file's folder, the seconds as lm_hdr_parse_seconds
 * reads them. The file is read by lm_text_file_read (a regular file, UTF-8, bounded). */
gboolean lm_hdr_read_exposures (const char *path, GPtrArray **files, GArray **times, GError **error);

/* An exposure time as text: a number of seconds ("0.004", "2 s") or a fraction ("1/250"),
 * as lm_text_parse_double reads numbers. Its range is the stack's to check
 * (lm_hdr_check_time). The one parser of exposure times: --times, exposures files, manifests
 * and the dialog's cells. */
gboolean lm_hdr_parse_seconds (const char *text, double *seconds, GError **error);

void lm_hdr_stack_free (LmHdrStack *stack);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmHdrStack, lm_hdr_stack_free)

G_END_DECLS
