/* The LUMEN_ERROR domain: every failure a user can cause or meet ends up as one of these. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LUMEN_ERROR (lm_error_quark ())

typedef enum {
  LM_ERROR_IO,            /* a file could not be opened, read, written or renamed */
  LM_ERROR_FORMAT,        /* the file is not an image we can read, or it is damaged */
  LM_ERROR_TOO_LARGE,     /* dimensions or memory beyond what we accept */
  LM_ERROR_INVALID,       /* parameters or images that do not fit together */
  LM_ERROR_NO_DEVICE,     /* the CUDA backend cannot run here: no driver, no device */
  LM_ERROR_DEVICE,        /* a CUDA call failed while running */
  LM_ERROR_OUT_OF_MEMORY, /* host or device memory exhausted */
  LM_ERROR_NO_SPACE,      /* the disk is full */
  LM_ERROR_CANCELLED,
  LM_ERROR_UNSUPPORTED,   /* this backend or build cannot do what was asked */
} LmErrorCode;

GQuark lm_error_quark (void);

/* Maps an errno from a file operation to our codes (ENOSPC and EDQUOT become NO_SPACE). */
LmErrorCode lm_error_code_from_errno (int errsv);

/* "path: message" as one line, the form every error about a file takes. */
void lm_set_file_error (GError **error, LmErrorCode code, const char *path,
                        const char *format, ...) G_GNUC_PRINTF (4, 5);

G_END_DECLS
