#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../io/atomic-file.h"
#include "../io/file-read.h"
#include "../error.h"
#include "stacks.h"

#define SYNC_INTERVAL_US G_USEC_PER_SEC

struct _LmJournal {
  GMutex lock;
  int fd, failed_fd, notes_fd, dir_fd;
  char *path, *failed_path, *notes_path;
  guint64 size; /* the journal's bytes: this process alone appends to it (its lock) */
  gint64 last_sync;
};

static gboolean
write_all (int fd, const char *path, const char *text, GError **error)
{
  gsize len = strlen (text), off = 0;
  while (off < len)
    {
      ssize_t n = write (fd, text + off, len - off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          lm_set_write_error (error, path, n < 0 ? errno : EIO);
          return FALSE;
        }
      off += n;
    }
  return TRUE;
}

static gboolean
sync_locked (LmJournal *j, GError **error)
{
  /* The folder first: its renames must be durable before the records that name them. */
  if (fsync (j->dir_fd) != 0 || fdatasync (j->fd) != 0 || fdatasync (j->failed_fd) != 0
      || fdatasync (j->notes_fd) != 0)
    {
      lm_set_write_error (error, j->path, errno);
      return FALSE;
    }
  j->last_sync = g_get_monotonic_time ();
  return TRUE;
}

/* A record that would take the journal past what a reader takes is not written: a journal
 * no rerun can read would leave the batch with no way on. A new journal (another shard
 * count) is one, and this one's records still count. */
static gboolean
check_room (LmJournal *j, gsize len, GError **error)
{
  if (j->size + len <= LM_FILE_RECORDS_MAX)
    return TRUE;
  g_autofree char *limit = g_format_size_full (LM_FILE_RECORDS_MAX, G_FORMAT_SIZE_IEC_UNITS);
  lm_set_file_error (error, LM_ERROR_TOO_LARGE, j->path,
                     _("is full (%s, the most a rerun reads): the batch stopped; go on with another shard count "
                       "(--shard 0/1 after a run without shards), whose journals are new files: this one’s records "
                       "still count"),
                     limit);
  return FALSE;
}

/* RECORD to the journal, after TEXT (may be NULL) to the list at LIST_FD. */
static gboolean
append (LmJournal *j, const char *record, int list_fd, const char *list_path, const char *text, GError **error)
{
  gsize len = strlen (record);
  g_mutex_lock (&j->lock);
  gboolean ok = check_room (j, len, error) && (text == NULL || write_all (list_fd, list_path, text, error))
                && write_all (j->fd, j->path, record, error);
  if (ok)
    j->size += len;
  if (ok && g_get_monotonic_time () - j->last_sync >= SYNC_INTERVAL_US)
    ok = sync_locked (j, error);
  g_mutex_unlock (&j->lock);
  return ok;
}

/* Whether the file at FD (of SIZE bytes) ends a line. A record cut short (a full disk,
 * a crash mid-write) has no newline, and the reader drops it; the next record must start a
 * line of its own. */
static gboolean
ends_line (int fd, guint64 size)
{
  char last = '\n';
  if (size > 0 && pread (fd, &last, 1, (off_t) size - 1) != 1)
    last = '\n'; /* unreadable: the reader will say so */
  return last == '\n';
}

/* A regular file at PATH, opened (created when missing) for reading and writing, checked by
 * name before the open (opening a device can do something) and by descriptor after. */
static int
open_file (const char *path, int flags, guint64 max_bytes, guint64 *size, GError **error)
{
  return lm_file_open_checked (path, LM_FILE_KIND_RECORDS, flags | O_RDWR | O_CREAT, max_bytes, size, error);
}

static void
journal_free (LmJournal *j)
{
  if (j->fd >= 0)
    close (j->fd);
  if (j->failed_fd >= 0)
    close (j->failed_fd);
  if (j->notes_fd >= 0)
    close (j->notes_fd);
  if (j->dir_fd >= 0)
    close (j->dir_fd);
  g_free (j->path);
  g_free (j->failed_path);
  g_free (j->notes_path);
  g_mutex_clear (&j->lock);
  g_free (j);
}

LmJournal *
lm_journal_open (const char *outdir, const LmShard *shard, guint share, guint total, GError **error)
{
  LmJournal *j = g_new0 (LmJournal, 1);
  g_mutex_init (&j->lock);
  j->fd = j->failed_fd = j->notes_fd = j->dir_fd = -1;
  g_autofree char *name = lm_shard_file_name (shard, "journal");
  g_autofree char *failed_name = lm_shard_file_name (shard, "failed");
  g_autofree char *notes_name = lm_shard_file_name (shard, "notes");
  j->path = g_build_filename (outdir, name, NULL);
  j->failed_path = g_build_filename (outdir, failed_name, NULL);
  j->notes_path = g_build_filename (outdir, notes_name, NULL);

  j->dir_fd = g_open (outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (j->dir_fd < 0)
    {
      g_autofree char *display = g_filename_display_name (outdir);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot open the output folder: %s"), display,
                   g_strerror (errno));
      journal_free (j);
      return NULL;
    }
  /* A journal larger than a reader takes is refused before a byte is added to it. */
  j->fd = open_file (j->path, O_APPEND, LM_FILE_RECORDS_MAX, NULL, error);
  if (j->fd < 0)
    {
      journal_free (j);
      return NULL;
    }
  /* Two processes on one shard would both do its stacks. */
  if (flock (j->fd, LOCK_EX | LOCK_NB) != 0)
    {
      g_autofree char *display = g_filename_display_name (j->path);
      if (errno == EWOULDBLOCK)
        g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                     _("%s: another lumen-cli batch is working on this shard"), display);
      else
        g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot lock: %s"), display, g_strerror (errno));
      journal_free (j);
      return NULL;
    }
  /* Its size now that it is ours: the last holder may have appended since the open. */
  off_t end = lseek (j->fd, 0, SEEK_END);
  j->size = end > 0 ? (guint64) end : 0;
  gboolean ok = check_room (j, 0, error);
  if (ok && !ends_line (j->fd, j->size))
    {
      ok = check_room (j, 1, error) && write_all (j->fd, j->path, "\n", error);
      j->size += ok;
    }
  guint64 notes_size = 0;
  /* The failure list is this run's; the notes stay with the outputs they are about. */
  if (ok)
    ok = (j->failed_fd = open_file (j->failed_path, O_TRUNC, G_MAXUINT64, NULL, error)) >= 0
         && (j->notes_fd = open_file (j->notes_path, O_APPEND, G_MAXUINT64, &notes_size, error)) >= 0
         && (ends_line (j->notes_fd, notes_size) || write_all (j->notes_fd, j->notes_path, "\n", error));
  g_autofree char *record = g_strdup_printf ("start\t%" G_GINT64_FORMAT "\t%u\t%u\t%u\t%u\n",
                                             g_get_real_time (), shard->index, shard->count, share, total);
  if (!ok || !append (j, record, -1, NULL, NULL, error) || !sync_locked (j, error))
    {
      journal_free (j);
      return NULL;
    }
  return j;
}

/* TEXT on one line of a list, whatever a library or a file name put in it. */
static char *
flat (const char *text)
{
  char *flat = g_strdup (text);
  g_strdelimit (flat, "\t\r\n", ' ');
  return flat;
}

void
lm_batch_note_free (LmBatchNote *note)
{
  g_free (note->file);
  g_free (note->text);
  g_free (note);
}

gboolean
lm_journal_done (LmJournal *j, const char *id, double ms, const LmOutputSum *sum, GPtrArray *notes,
                 GError **error)
{
  char ms_text[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (ms_text, sizeof ms_text, "%.1f", ms);
  g_autofree char *record = g_strdup_printf ("done\t%" G_GINT64_FORMAT "\t%s\t%s\t%" G_GINT64_FORMAT "\t%08x\n",
                                             g_get_real_time (), id, ms_text, sum->size, sum->crc);
  g_autoptr (GString) noted = NULL;
  if (notes && notes->len)
    {
      g_autofree char *listed = lm_batch_id_short (id);
      noted = g_string_new (NULL);
      for (guint i = 0; i < notes->len; i++)
        {
          const LmBatchNote *note = notes->pdata[i];
          g_autofree char *display = g_filename_display_name (note->file);
          g_autofree char *file = flat (display);
          g_autofree char *text = flat (note->text);
          g_string_append_printf (noted, "%s\t%s\t%s\n", listed, file, text);
        }
    }
  return append (j, record, j->notes_fd, j->notes_path, noted ? noted->str : NULL, error);
}

gboolean
lm_journal_redo (LmJournal *j, const char *id, const char *reason, GError **error)
{
  g_autofree char *text = flat (reason);
  g_autofree char *record = g_strdup_printf ("redo\t%" G_GINT64_FORMAT "\t%s\t%s\n", g_get_real_time (), id, text);
  return append (j, record, -1, NULL, NULL, error);
}

gboolean
lm_journal_failed (LmJournal *j, const char *id, const char *reason, GError **error)
{
  g_autofree char *text = flat (reason);
  g_autofree char *record = g_strdup_printf ("failed\t%" G_GINT64_FORMAT "\t%s\t%s\n", g_get_real_time (), id,
                                             text);
  /* The journal keeps the whole id, which --report matches; the list is for people. */
  g_autofree char *listed = lm_batch_id_short (id);
  g_autofree char *failure = g_strdup_printf ("%s\t%s\n", listed, text);
  return append (j, record, j->failed_fd, j->failed_path, failure, error);
}

gboolean
lm_journal_close (LmJournal *j, gboolean complete, GError **error)
{
  gboolean ok = TRUE;
  if (complete)
    {
      g_autofree char *record = g_strdup_printf ("end\t%" G_GINT64_FORMAT "\n", g_get_real_time ());
      ok = append (j, record, -1, NULL, NULL, error);
    }
  g_mutex_lock (&j->lock);
  ok = ok && sync_locked (j, error);
  g_mutex_unlock (&j->lock);
  journal_free (j);
  return ok;
}
