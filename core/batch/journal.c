#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
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
  int fd, failed_fd, dir_fd;
  char *path, *failed_path;
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
      if (n < 0)
        {
          lm_set_write_error (error, path, errno);
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
  if (fsync (j->dir_fd) != 0 || fdatasync (j->fd) != 0 || fdatasync (j->failed_fd) != 0)
    {
      lm_set_write_error (error, j->path, errno);
      return FALSE;
    }
  j->last_sync = g_get_monotonic_time ();
  return TRUE;
}

static gboolean
append (LmJournal *j, const char *record, const char *failure, GError **error)
{
  g_mutex_lock (&j->lock);
  gboolean ok = (failure == NULL || write_all (j->failed_fd, j->failed_path, failure, error))
                && write_all (j->fd, j->path, record, error);
  if (ok && g_get_monotonic_time () - j->last_sync >= SYNC_INTERVAL_US)
    ok = sync_locked (j, error);
  g_mutex_unlock (&j->lock);
  return ok;
}

static gboolean
check_regular (const char *path, const GStatBuf *st, GError **error)
{
  if (S_ISREG (st->st_mode))
    return TRUE;
  /* Appending to a pipe blocks once it is full; to a device, records vanish or do harm. */
  lm_set_file_error (error, LM_ERROR_IO, path, "%s",
                     S_ISDIR (st->st_mode) ? _("is a folder, where a batch's record file belongs")
                                           : _("is not a regular file (a pipe, a device or a socket), where a "
                                               "batch's record file belongs"));
  return FALSE;
}

/* A regular file at PATH, opened (created when missing) for reading and writing; its name
 * is checked before the open (opening a device can do something) and its descriptor after.
 * A journal larger than a reader takes is refused before a byte is added to it. */
static int
open_file (const char *path, int flags, guint64 max_bytes, GError **error)
{
  GStatBuf st;
  if (g_stat (path, &st) == 0 && !check_regular (path, &st, error))
    return -1;
  int fd = g_open (path, flags | O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOCTTY, 0666);
  if (fd < 0)
    {
      lm_set_write_error (error, path, errno);
      return -1;
    }
  if (fstat (fd, &st) != 0 || !check_regular (path, &st, error))
    {
      if (error && *error == NULL)
        lm_set_write_error (error, path, errno);
      close (fd);
      return -1;
    }
  if ((guint64) st.st_size > max_bytes)
    {
      g_autofree char *limit = g_format_size_full (max_bytes, G_FORMAT_SIZE_IEC_UNITS);
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path, _("is larger than %s: too large for a batch's record file"),
                         limit);
      close (fd);
      return -1;
    }
  return fd;
}

static void
journal_free (LmJournal *j)
{
  if (j->fd >= 0)
    close (j->fd);
  if (j->failed_fd >= 0)
    close (j->failed_fd);
  if (j->dir_fd >= 0)
    close (j->dir_fd);
  g_free (j->path);
  g_free (j->failed_path);
  g_mutex_clear (&j->lock);
  g_free (j);
}

LmJournal *
lm_journal_open (const char *outdir, const LmShard *shard, guint share, guint total, GError **error)
{
  LmJournal *j = g_new0 (LmJournal, 1);
  g_mutex_init (&j->lock);
  j->fd = j->failed_fd = j->dir_fd = -1;
  g_autofree char *name = lm_shard_file_name (shard, "journal");
  g_autofree char *failed_name = lm_shard_file_name (shard, "failed");
  j->path = g_build_filename (outdir, name, NULL);
  j->failed_path = g_build_filename (outdir, failed_name, NULL);

  j->dir_fd = g_open (outdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (j->dir_fd < 0)
    {
      g_autofree char *display = g_filename_display_name (outdir);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot open the output folder: %s"), display,
                   g_strerror (errno));
      journal_free (j);
      return NULL;
    }
  j->fd = open_file (j->path, O_APPEND, LM_FILE_RECORDS_MAX, error);
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
  /* A record cut short (a full disk, a crash mid-write) has no newline: end it, so that
   * this run's first record starts a line of its own. The reader drops the fragment. */
  off_t end = lseek (j->fd, 0, SEEK_END);
  char last = '\n';
  if (end > 0 && pread (j->fd, &last, 1, end - 1) != 1)
    last = '\n'; /* unreadable: the reader will say so */
  if (last != '\n' && !write_all (j->fd, j->path, "\n", error))
    {
      journal_free (j);
      return NULL;
    }
  j->failed_fd = open_file (j->failed_path, O_TRUNC, G_MAXUINT64, error);
  if (j->failed_fd < 0)
    {
      journal_free (j);
      return NULL;
    }
  g_autofree char *record = g_strdup_printf ("start\t%" G_GINT64_FORMAT "\t%u\t%u\t%u\t%u\n",
                                             g_get_real_time (), shard->index, shard->count, share, total);
  if (!append (j, record, NULL, error) || !sync_locked (j, error))
    {
      journal_free (j);
      return NULL;
    }
  return j;
}

gboolean
lm_journal_done (LmJournal *j, const char *id, double ms, const LmOutputSum *sum, GError **error)
{
  char ms_text[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (ms_text, sizeof ms_text, "%.1f", ms);
  g_autofree char *record = g_strdup_printf ("done\t%" G_GINT64_FORMAT "\t%s\t%s\t%" G_GINT64_FORMAT "\t%08x\n",
                                             g_get_real_time (), id, ms_text, sum->size, sum->crc);
  return append (j, record, NULL, error);
}

/* One line per record, whatever a library put in the message. */
static char *
flat_reason (const char *reason)
{
  char *flat = g_strdup (reason);
  g_strdelimit (flat, "\t\r\n", ' ');
  return flat;
}

gboolean
lm_journal_redo (LmJournal *j, const char *id, const char *reason, GError **error)
{
  g_autofree char *flat = flat_reason (reason);
  g_autofree char *record = g_strdup_printf ("redo\t%" G_GINT64_FORMAT "\t%s\t%s\n", g_get_real_time (), id, flat);
  return append (j, record, NULL, error);
}

gboolean
lm_journal_failed (LmJournal *j, const char *id, const char *reason, GError **error)
{
  g_autofree char *flat = flat_reason (reason);
  g_autofree char *record = g_strdup_printf ("failed\t%" G_GINT64_FORMAT "\t%s\t%s\n", g_get_real_time (), id,
                                             flat);
  /* The journal keeps the whole id, which --report matches; the list is for people. */
  g_autofree char *listed = lm_batch_id_short (id);
  g_autofree char *failure = g_strdup_printf ("%s\t%s\n", listed, flat);
  return append (j, record, failure, error);
}

gboolean
lm_journal_close (LmJournal *j, gboolean complete, GError **error)
{
  gboolean ok = TRUE;
  if (complete)
    {
      g_autofree char *record = g_strdup_printf ("end\t%" G_GINT64_FORMAT "\n", g_get_real_time ());
      ok = append (j, record, NULL, error);
    }
  g_mutex_lock (&j->lock);
  ok = ok && sync_locked (j, error);
  g_mutex_unlock (&j->lock);
  journal_free (j);
  return ok;
}
