#define _GNU_SOURCE /* F_OFD_SETLK */
#include "outdir-lock.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/file-read.h"

gboolean
lm_outdir_make (const char *outdir, GError **error)
{
  if (g_mkdir_with_parents (outdir, 0777) == 0)
    return TRUE;
  int errsv = errno;
  g_autofree char *display = g_filename_display_name (outdir);
  g_set_error (error, LUMEN_ERROR, lm_error_code_from_errno (errsv), _("%s: cannot create the output folder: %s"),
               display, g_strerror (errsv));
  return FALSE;
}

#define LOCK_NAME "batch.lock"
/* Admission is held for milliseconds; a holder stopped (SIGSTOP) for this long is stuck. */
#define ADMISSION_WAIT_US (30 * G_USEC_PER_SEC)

struct _LmOutdirLock {
  int fd;
  char *path;
  gboolean admitting;
};

static int
ofd_lock (int fd, int cmd, short type, off_t start, off_t len, struct flock *out)
{
  struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len };
  int rc;
  do
    rc = fcntl (fd, cmd, &fl);
  while (rc != 0 && errno == EINTR);
  if (out)
    *out = fl;
  return rc;
}

static void
set_lock_error (GError **error, const char *path, int errsv)
{
  g_autofree char *display = g_filename_display_name (path);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot lock: %s"), display, g_strerror (errsv));
}

/* The run holding the lock FL describes, in words. */
static char *
holder (const struct flock *fl)
{
  if (fl->l_type == F_WRLCK)
    return g_strdup (_("a run without --shard"));
  return g_strdup_printf (_("a run with --shard I/%u"), (guint) (fl->l_start - 1));
}

static void
set_busy_error (GError **error, const char *outdir, const struct flock *fl)
{
  g_autofree char *display = g_filename_display_name (outdir);
  g_autofree char *who = holder (fl);
  g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
               _("%s: another lumen-cli batch (%s) is working in this output folder: two batches there would "
                 "redo each other’s stacks and delete each other’s temporary files; wait for it to end, or "
                 "give the shards of one batch one count N"),
               display, who);
}

/* Whether a lock of another run covers [START, START + LEN) (LEN 0: to the end). */
static gboolean
other_lock (int fd, off_t start, off_t len, struct flock *found, int *errsv)
{
  if (ofd_lock (fd, F_OFD_GETLK, F_WRLCK, start, len, found) != 0)
    {
      *errsv = errno;
      return FALSE;
    }
  *errsv = 0;
  return found->l_type != F_UNLCK;
}

static gboolean
take_admission (LmOutdirLock *lock, GError **error)
{
  gint64 deadline = g_get_monotonic_time () + ADMISSION_WAIT_US;
  while (ofd_lock (lock->fd, F_OFD_SETLK, F_WRLCK, 0, 1, NULL) != 0)
    {
      int errsv = errno;
      if ((errsv != EAGAIN && errsv != EACCES) || g_get_monotonic_time () > deadline)
        {
          set_lock_error (error, lock->path, errsv);
          return FALSE;
        }
      g_usleep (10000);
    }
  lock->admitting = TRUE;
  return TRUE;
}

static gboolean
take_share (LmOutdirLock *lock, const char *outdir, const LmShard *shard, GError **error)
{
  struct flock found;
  int errsv = 0;
  if (shard->count == 0)
    {
      if (ofd_lock (lock->fd, F_OFD_SETLK, F_WRLCK, 1, 0, NULL) == 0)
        return TRUE;
      errsv = errno;
      if ((errsv == EAGAIN || errsv == EACCES) && other_lock (lock->fd, 1, 0, &found, &errsv))
        set_busy_error (error, outdir, &found);
      else
        set_lock_error (error, lock->path, errsv ? errsv : EAGAIN);
      return FALSE;
    }
  off_t mine = 1 + (off_t) shard->count;
  if (ofd_lock (lock->fd, F_OFD_SETLK, F_RDLCK, mine, 1, NULL) != 0)
    {
      errsv = errno;
      if ((errsv == EAGAIN || errsv == EACCES) && other_lock (lock->fd, mine, 1, &found, &errsv))
        set_busy_error (error, outdir, &found);
      else
        set_lock_error (error, lock->path, errsv ? errsv : EAGAIN);
      return FALSE;
    }
  /* Shards of another count: below and above this count's byte (this lock is ours: the
   * same open file description never conflicts with itself). */
  if (other_lock (lock->fd, 1, mine - 1, &found, &errsv)
      || (errsv == 0 && other_lock (lock->fd, mine + 1, 0, &found, &errsv)))
    {
      set_busy_error (error, outdir, &found);
      return FALSE;
    }
  if (errsv != 0)
    {
      set_lock_error (error, lock->path, errsv);
      return FALSE;
    }
  return TRUE;
}

LmOutdirLock *
lm_outdir_lock_new (const char *outdir, const LmShard *shard, GError **error)
{
  g_autoptr (LmOutdirLock) lock = g_new0 (LmOutdirLock, 1);
  lock->path = g_build_filename (outdir, LOCK_NAME, NULL);
  /* A fifo or a device under its name is refused, not opened (opening a device can do
   * something) nor locked. */
  lock->fd = lm_file_open_checked (lock->path, LM_FILE_KIND_LOCK, O_RDWR | O_CREAT, G_MAXUINT64, NULL, error);
  if (lock->fd < 0)
    return NULL;
  if (!take_admission (lock, error) || !take_share (lock, outdir, shard, error))
    return NULL;
  return g_steal_pointer (&lock);
}

void
lm_outdir_lock_admitted (LmOutdirLock *lock)
{
  if (lock->admitting)
    ofd_lock (lock->fd, F_OFD_SETLK, F_UNLCK, 0, 1, NULL);
  lock->admitting = FALSE;
}

void
lm_outdir_lock_free (LmOutdirLock *lock)
{
  if (lock == NULL)
    return;
  /* Closing the last descriptor of the open file description drops its locks. */
  if (lock->fd >= 0)
    close (lock->fd);
  g_free (lock->path);
  g_free (lock);
}
