/* The photos of a folder, as the folder view lists them: what the Open dialog would open
 * (by name, then by content), without sidecars (.lumen, .xmp) and hidden files. A scan runs
 * on a thread of its own and hands its records over in batches, so that the first screen of a
 * large folder shows before the last file is read. No GTK: lumen-cli may list a folder too. */
#pragma once

#include <gio/gio.h>

#include "core/io/io.h"

G_BEGIN_DECLS

typedef struct {
  char *path;        /* the folder's path joined with the file's name */
  char *name;        /* the name as shown (UTF-8, whatever the file system's encoding) */
  char *collate_key; /* g_utf8_collate_key_for_filename: IMG_2 before IMG_10 */
  LmFileType type;
  gint64 mtime;      /* seconds since 1970 */
  gint64 taken;      /* when the photo was taken, seconds since 1970; mtime where unknown */
  goffset size;
  int rating;        /* -1 (rejected) or 0..5, from photo.ext.xmp */
  guint labels;      /* colour labels (LmColorLabel bits), from photo.ext.xmp */
  gboolean has_edits; /* a .lumen sidecar, beside the photo or in the data folder */
} LmPhotoRecord;

void lm_photo_record_free (LmPhotoRecord *record);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LmPhotoRecord, lm_photo_record_free)

/* The record of the file NAME of FOLDER, or NULL when it is not a photo (a sidecar, a hidden
 * file, a folder, a file no loader takes). Reads the first bytes of the file and its
 * sidecars; INFO (may be NULL) saves a stat. */
LmPhotoRecord *lm_photo_record_new (const char *folder, const char *name, GFileInfo *info);

/* The ratings and labels of RECORD read again from its sidecar (after an edit in place). */
void lm_photo_record_reread (LmPhotoRecord *record);

/* Every photo of FOLDER (LmPhotoRecord *, freed with the array), in no particular order. */
GPtrArray *lm_folder_scan_sync (const char *folder, GError **error);

typedef struct _LmFolderScan LmFolderScan;

/* RECORDS (LmPhotoRecord *, the callee's to keep) found since the last batch. */
typedef void (*LmFolderScanBatch) (GPtrArray *records, gpointer user_data);
/* The end of the scan: ERROR is NULL when the whole folder was read. */
typedef void (*LmFolderScanDone) (const GError *error, gpointer user_data);

/* Scans FOLDER on a thread; BATCH and DONE run on the main context of the calling thread.
 * The first batch goes as soon as it holds FIRST records, later ones every 100 ms at most. */
LmFolderScan *lm_folder_scan_start (const char *folder, guint first, LmFolderScanBatch batch, LmFolderScanDone done,
                                    gpointer user_data);
/* Stops the scan and waits for its thread; no callback runs afterwards. */
void lm_folder_scan_free (LmFolderScan *scan);

G_END_DECLS
