/* A folder's photos (folder-scan.h). */
#include "folder-scan.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/edit/sidecar.h"
#include "core/io/raw-sniff.h"

#include "photo-date.h"
#include "photo-tags.h"

/* Enough of a file for every sniffer that looks at a head (TIFF-based raws are told by name). */
#define HEAD_BYTES 4096

#define SCAN_ATTRIBUTES                                                                            \
  G_FILE_ATTRIBUTE_STANDARD_NAME "," G_FILE_ATTRIBUTE_STANDARD_TYPE "," G_FILE_ATTRIBUTE_STANDARD_SIZE \
  "," G_FILE_ATTRIBUTE_STANDARD_IS_HIDDEN "," G_FILE_ATTRIBUTE_TIME_MODIFIED

void
lm_photo_record_free (LmPhotoRecord *record)
{
  if (record == NULL)
    return;
  g_free (record->path);
  g_free (record->name);
  g_free (record->collate_key);
  g_free (record);
}

static gboolean
has_suffix_nocase (const char *name, const char *suffix)
{
  gsize n = strlen (name), s = strlen (suffix);
  return n > s && g_ascii_strcasecmp (name + n - s, suffix) == 0;
}

/* The type NAME's extension claims, as the Open dialog's filter reads it. */
static LmFileType
type_by_name (const char *name)
{
  if (lm_raw_has_suffix (name))
    return LM_FILE_RAW;
  if (has_suffix_nocase (name, ".fits") || has_suffix_nocase (name, ".fit") || has_suffix_nocase (name, ".fts"))
    return LM_FILE_FITS;
  return lm_file_type_for_output (name);
}

static LmFileType
type_by_content (const char *path)
{
  /* Never blocks on a FIFO put in a file's place since the listing: the scan is joined when
   * the folder closes. */
  guint8 head[HEAD_BYTES];
  int fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0)
    return LM_FILE_UNKNOWN;
  GStatBuf st;
  ssize_t n = fstat (fd, &st) == 0 && S_ISREG (st.st_mode) ? read (fd, head, sizeof head) : -1;
  close (fd);
  return n > 0 ? lm_file_type_sniff (head, (gsize) n) : LM_FILE_UNKNOWN;
}

/* Sidecars are read by their photo, never listed: Lumen's edits, XMP metadata (ours,
 * darktable's photo.ext.xmp, digiKam's and Lightroom's photo.xmp). */
static gboolean
is_sidecar (const char *name)
{
  return has_suffix_nocase (name, ".lumen") || has_suffix_nocase (name, ".xmp");
}

void
lm_photo_record_reread (LmPhotoRecord *record)
{
  record->rating = 0;
  record->labels = 0;
  LmPhotoTags tags = { 0, 0 };
  /* An unreadable sidecar lists the photo unrated; the message comes when it is rated. */
  if (lm_photo_tags_read (record->path, &tags, NULL))
    record->rating = tags.rating, record->labels = tags.labels;
  g_autofree char *edits = lm_sidecar_find (record->path);
  record->has_edits = edits != NULL;
}

LmPhotoRecord *
lm_photo_record_new (const char *folder, const char *name, GFileInfo *info)
{
  if (name[0] == '.' || is_sidecar (name))
    return NULL;
  g_autofree char *path = g_build_filename (folder, name, NULL);
  g_autoptr (GFileInfo) own = NULL;
  if (info == NULL)
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);
      info = own = g_file_query_info (file, SCAN_ATTRIBUTES, G_FILE_QUERY_INFO_NONE, NULL, NULL);
      if (info == NULL)
        return NULL;
    }
  /* A link to a photo is a photo (the type follows it); a link to a folder is not. */
  if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR || g_file_info_get_is_hidden (info))
    return NULL;

  LmFileType type = type_by_name (name);
  if (type != LM_FILE_RAW)
    {
      /* What the file holds wins over its name, as the loader sees it; a damaged file keeps
       * its name's type and shows its error where its thumbnail would be. */
      LmFileType sniffed = type_by_content (path);
      if (sniffed != LM_FILE_UNKNOWN)
        type = sniffed;
    }
  if (type == LM_FILE_UNKNOWN)
    return NULL;

  LmPhotoRecord *record = g_new0 (LmPhotoRecord, 1);
  record->path = g_steal_pointer (&path);
  record->name = g_filename_display_name (name);
  record->collate_key = g_utf8_collate_key_for_filename (record->name, -1);
  record->type = type;
  record->size = g_file_info_get_size (info);
  record->mtime = (gint64) g_file_info_get_attribute_uint64 (info, G_FILE_ATTRIBUTE_TIME_MODIFIED);
  record->taken = record->mtime;
  gint64 taken;
  if (lm_photo_date_taken (record->path, &taken, NULL))
    record->taken = taken;
  lm_photo_record_reread (record);
  return record;
}

/* Reads FOLDER's entries, calling FOUND on each photo; FALSE with ERROR when the folder
 * cannot be listed (a photo that cannot be read is listed, or left out, not an error). */
static gboolean
scan_folder (const char *folder, GCancellable *cancel, void (*found) (LmPhotoRecord *, gpointer), gpointer data,
      GError **error)
{
  g_autoptr (GFile) dir = g_file_new_for_path (folder);
  g_autoptr (GFileEnumerator) entries
    = g_file_enumerate_children (dir, SCAN_ATTRIBUTES, G_FILE_QUERY_INFO_NONE, cancel, error);
  if (entries == NULL)
    return FALSE;
  for (;;)
    {
      GFileInfo *info = NULL;
      if (!g_file_enumerator_iterate (entries, &info, NULL, cancel, error))
        return FALSE;
      if (info == NULL)
        return TRUE;
      LmPhotoRecord *record = lm_photo_record_new (folder, g_file_info_get_name (info), info);
      if (record)
        found (record, data);
    }
}

static void
add_to_array (LmPhotoRecord *record, gpointer array)
{
  g_ptr_array_add (array, record);
}

GPtrArray *
lm_folder_scan_sync (const char *folder, GError **error)
{
  g_autoptr (GPtrArray) records = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_photo_record_free);
  if (!scan_folder (folder, NULL, add_to_array, records, error))
    return NULL;
  return g_steal_pointer (&records);
}

struct _LmFolderScan {
  char *folder;
  guint first;
  LmFolderScanBatch batch;
  LmFolderScanDone done;
  gpointer user_data;
  GMainContext *context;
  GCancellable *cancel;
  GThread *thread;
  GMutex lock;
  GPtrArray *queued; /* the deliveries' sources not yet run, under lock */

  /* the scan thread's: what it found since the last batch went */
  GPtrArray *pending;
  gint64 last_sent;
  gboolean sent_first;
};

typedef struct {
  LmFolderScan *scan;
  GPtrArray *records; /* NULL for the end */
  GError *error;
} Delivery;

static void
delivery_free (gpointer data)
{
  Delivery *d = data;
  if (d->records)
    g_ptr_array_unref (d->records);
  g_clear_error (&d->error);
  g_free (d);
}

/* On the caller's context. lm_folder_scan_free destroys the deliveries not yet run, so none
 * runs once it has returned. */
static gboolean
deliver (gpointer data)
{
  Delivery *d = data;
  g_mutex_lock (&d->scan->lock);
  GSource *self = g_main_current_source ();
  if (g_ptr_array_remove_fast (d->scan->queued, self))
    g_source_unref (self); /* the context keeps it while it runs */
  g_mutex_unlock (&d->scan->lock);
  if (d->records)
    d->scan->batch (g_steal_pointer (&d->records), d->scan->user_data);
  else if (d->scan->done)
    d->scan->done (d->error, d->scan->user_data);
  return G_SOURCE_REMOVE;
}

static void
send (LmFolderScan *scan, GPtrArray *records, GError *error)
{
  Delivery *d = g_new0 (Delivery, 1);
  d->scan = scan, d->records = records, d->error = error;
  GSource *source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, deliver, d, delivery_free);
  g_mutex_lock (&scan->lock);
  g_ptr_array_add (scan->queued, source);
  g_source_attach (source, scan->context);
  g_mutex_unlock (&scan->lock);
}

static void
flush (LmFolderScan *scan)
{
  if (scan->pending->len == 0)
    return;
  send (scan, scan->pending, NULL);
  scan->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_photo_record_free);
  scan->last_sent = g_get_monotonic_time ();
  scan->sent_first = TRUE;
}

static void
found_in_thread (LmPhotoRecord *record, gpointer data)
{
  LmFolderScan *scan = data;
  g_ptr_array_add (scan->pending, record);
  if (scan->sent_first ? g_get_monotonic_time () - scan->last_sent >= 100000 : scan->pending->len >= scan->first)
    flush (scan);
}

static gpointer
scan_thread (gpointer data)
{
  LmFolderScan *scan = data;
  GError *error = NULL;
  gboolean ok = scan_folder (scan->folder, scan->cancel, found_in_thread, scan, &error);
  flush (scan);
  if (!ok && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&error);
      return NULL;
    }
  send (scan, NULL, error);
  return NULL;
}

LmFolderScan *
lm_folder_scan_start (const char *folder, guint first, LmFolderScanBatch batch, LmFolderScanDone done,
                      gpointer user_data)
{
  LmFolderScan *scan = g_new0 (LmFolderScan, 1);
  scan->folder = g_strdup (folder);
  scan->first = MAX (first, 1);
  scan->batch = batch, scan->done = done, scan->user_data = user_data;
  scan->context = g_main_context_ref_thread_default ();
  scan->cancel = g_cancellable_new ();
  scan->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) lm_photo_record_free);
  g_mutex_init (&scan->lock);
  scan->queued = g_ptr_array_new ();
  scan->thread = g_thread_new ("lumen-scan", scan_thread, scan);
  return scan;
}

void
lm_folder_scan_free (LmFolderScan *scan)
{
  if (scan == NULL)
    return;
  g_cancellable_cancel (scan->cancel);
  g_thread_join (scan->thread);
  /* The thread is gone: nothing queues any more; what it queued goes unrun. */
  for (guint i = 0; i < scan->queued->len; i++)
    {
      g_source_destroy (scan->queued->pdata[i]);
      g_source_unref (scan->queued->pdata[i]);
    }
  g_ptr_array_unref (scan->queued);
  g_mutex_clear (&scan->lock);
  g_ptr_array_unref (scan->pending);
  g_object_unref (scan->cancel);
  g_main_context_unref (scan->context);
  g_free (scan->folder);
  g_free (scan);
}
