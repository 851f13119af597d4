/* The order and the choice of a folder's photos: sort by name, date taken or rating; keep
 * those of a rating, a colour label or a file type. The folder view, the filmstrip and the
 * editor's next/previous all follow the same order. */
#pragma once

#include "folder-scan.h"

G_BEGIN_DECLS

typedef enum {
  LM_FOLDER_SORT_NAME,   /* as a file manager sorts: IMG_2 before IMG_10 */
  LM_FOLDER_SORT_TAKEN,  /* oldest first, then by name */
  LM_FOLDER_SORT_RATING, /* best first, rejected last, then by name */
} LmFolderSort;

typedef enum {
  LM_FOLDER_REJECTS_SHOWN,  /* rejected photos shown with the others */
  LM_FOLDER_REJECTS_HIDDEN, /* not rejected only */
  LM_FOLDER_REJECTS_ONLY,   /* rejected only (min_rating is then ignored) */
} LmFolderRejects;

typedef struct {
  int min_rating;          /* 0..5: at least this many stars */
  LmFolderRejects rejects;
  guint labels;            /* LmColorLabel bits: a photo with any of them; 0: every photo */
  guint types;             /* bits 1 << LmFileType: a photo of any of them; 0: every type */
} LmFolderFilter;

#define LM_FOLDER_FILTER_ALL { 0, LM_FOLDER_REJECTS_SHOWN, 0, 0 }

gboolean lm_folder_filter_keeps (const LmFolderFilter *filter, const LmPhotoRecord *record);

/* The indices (guint) into RECORDS of those FILTER keeps, in SORT's order (reversed when
 * DESCENDING). */
GArray *lm_folder_order (GPtrArray *records, LmFolderSort sort, gboolean descending, const LmFolderFilter *filter);

G_END_DECLS
