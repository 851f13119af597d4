#include "file-read.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "atomic-file.h"

static const char *
not_regular_message (LmFileKind kind, gboolean folder)
{
  switch (kind)
    {
    case LM_FILE_KIND_TEXT:
      return folder ? _("is a folder, not a text file")
                    : _("is not a regular file (a pipe, a device or a socket); give a text file");
    case LM_FILE_KIND_IMAGE:
      return folder ? _("is a folder, not an image file")
                    : _("is not a regular file (a pipe, a device or a socket); give an image file");
    case LM_FILE_KIND_RECORDS:
      return folder ? _("is a folder, where a batch's record file belongs")
                    : _("is not a regular file (a pipe, a device or a socket), where a batch's record file "
                        "belongs");
    case LM_FILE_KIND_PROFILE:
      return folder ? _("is a folder, not an ICC profile")
                    : _("is not a regular file (a pipe, a device or a socket); give an ICC profile");
    case LM_FILE_KIND_OUTPUT:
      return folder ? _("is a folder, where an output belongs")
                    : _("is not a regular file (a pipe, a device or a socket), where an output belongs");
    case LM_FILE_KIND_LOCK:
      return folder ? _("is a folder, where a batch's lock file belongs")
                    : _("is not a regular file (a pipe, a device or a socket), where a batch's lock file "
                        "belongs");
    }
  g_return_val_if_reached (NULL);
}

static gboolean
check_regular (const char *path, LmFileKind kind, const GStatBuf *st, GError **error)
{
  if (S_ISREG (st->st_mode))
    return TRUE;
  lm_set_file_error (error, LM_ERROR_IO, path, "%s", not_regular_message (kind, S_ISDIR (st->st_mode)));
  return FALSE;
}

static void
set_too_large (const char *path, LmFileKind kind, guint64 max_bytes, GError **error)
{
  g_autofree char *limit = g_format_size_full (max_bytes, G_FORMAT_SIZE_IEC_UNITS);
  switch (kind)
    {
    case LM_FILE_KIND_TEXT:
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path,
                         _("is larger than %s: too large for a text file of this kind"), limit);
      return;
    case LM_FILE_KIND_IMAGE:
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path,
                         _("is larger than %s, more than any image within the memory budget can take "
                           "(LUMEN_MAX_PIXELS raises the budget)"),
                         limit);
      return;
    case LM_FILE_KIND_RECORDS:
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path,
                         _("is larger than %s: too large for a batch's record file"), limit);
      return;
    case LM_FILE_KIND_PROFILE:
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path, _("is larger than %s: too large for an ICC profile"),
                         limit);
      return;
    case LM_FILE_KIND_OUTPUT:
    case LM_FILE_KIND_LOCK:
      /* Bounded by nobody: no message of their own. */
      lm_set_file_error (error, LM_ERROR_TOO_LARGE, path, _("is larger than %s"), limit);
      return;
    }
}

static void
set_errno_error (const char *path, int errsv, GError **error)
{
  lm_set_file_error (error, errsv == ENOENT ? LM_ERROR_IO : lm_error_code_from_errno (errsv), path, "%s",
                     errsv == ENOENT ? _("no such file") : g_strerror (errsv));
}

int
lm_file_open_checked (const char *path, LmFileKind kind, int flags, guint64 max_bytes, guint64 *size,
                      GError **error)
{
  gboolean writing = (flags & O_ACCMODE) != O_RDONLY;
  GStatBuf st;
  if (g_stat (path, &st) == 0)
    {
      if (!check_regular (path, kind, &st, error))
        return -1;
    }
  else if (errno != ENOENT || !(flags & O_CREAT))
    {
      set_errno_error (path, errno, error);
      return -1;
    }
  /* O_NONBLOCK: should the name have become a fifo since, the open does not wait for a writer. */
  int fd = g_open (path, flags | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0)
    {
      if (writing)
        lm_set_write_error (error, path, errno);
      else
        set_errno_error (path, errno, error);
      return -1;
    }
  if (fstat (fd, &st) != 0)
    {
      set_errno_error (path, errno, error);
      close (fd);
      return -1;
    }
  if (!check_regular (path, kind, &st, error))
    {
      close (fd);
      return -1;
    }
  if ((guint64) st.st_size > max_bytes)
    {
      set_too_large (path, kind, max_bytes, error);
      close (fd);
      return -1;
    }
  if (size)
    *size = (guint64) st.st_size;
  return fd;
}

/* read () of up to N bytes, again where a signal interrupted it. */
static ssize_t
read_some (int fd, guint8 *into, gsize n)
{
  ssize_t got;
  while ((got = read (fd, into, n)) < 0 && errno == EINTR)
    ;
  return got;
}

GBytes *
lm_file_read (const char *path, LmFileKind kind, guint64 max_bytes, GError **error)
{
  guint64 size;
  int fd = lm_file_open_checked (path, kind, O_RDONLY, max_bytes, &size, error);
  if (fd < 0)
    return NULL;
  gsize capacity = (gsize) size + 1, len = 0; /* room for the NUL */
  guint8 *data = g_try_malloc (capacity);
  ssize_t n = 1;
  while (data != NULL && n > 0)
    {
      if (len + 1 < capacity)
        {
          if ((n = read_some (fd, data + len, capacity - 1 - len)) > 0)
            len += (gsize) n;
          continue;
        }
      /* All that fstat counted is read: one byte more says whether the file grew since (most
       * have not, and then no larger buffer is asked for). */
      guint8 probe;
      if ((n = read_some (fd, &probe, 1)) <= 0 || (guint64) len >= max_bytes)
        break;
      /* It grew: read on within the bound, in steps that double. */
      guint64 grown = (guint64) capacity * 2;
      if (grown - 1 > max_bytes)
        grown = max_bytes + 1; /* still more than CAPACITY: the bound is above LEN */
      guint8 *more = g_try_realloc (data, (gsize) grown);
      if (more == NULL)
        g_clear_pointer (&data, g_free);
      else
        {
          data = more;
          capacity = (gsize) grown;
          data[len++] = probe;
        }
    }
  int errsv = errno;
  close (fd);
  if (data == NULL)
    lm_set_file_error (error, LM_ERROR_OUT_OF_MEMORY, path, _("not enough memory to read it"));
  else if (n < 0)
    lm_set_file_error (error, lm_error_code_from_errno (errsv), path, _("cannot read: %s"), g_strerror (errsv));
  else if (n > 0)
    set_too_large (path, kind, max_bytes, error); /* a byte beyond the bound */
  else
    {
      data[len] = '\0';
      return g_bytes_new_take (data, len);
    }
  g_free (data);
  return NULL;
}

GBytes *
lm_file_map (const char *path, LmFileKind kind, guint64 max_bytes, GError **error)
{
  int fd = lm_file_open_checked (path, kind, O_RDONLY, max_bytes, NULL, error);
  if (fd < 0)
    return NULL;
  GError *e = NULL;
  GMappedFile *mapped = g_mapped_file_new_from_fd (fd, FALSE, &e);
  close (fd);
  if (mapped == NULL)
    {
      lm_set_file_error (error, LM_ERROR_IO, path, "%s", e->message);
      g_error_free (e);
      return NULL;
    }
  /* The mapping takes the size of its own fstat: a file grown since ours is held to the bound
   * here. The bytes hold their own reference to the mapping. */
  if ((guint64) g_mapped_file_get_length (mapped) > max_bytes)
    {
      g_mapped_file_unref (mapped);
      set_too_large (path, kind, max_bytes, error);
      return NULL;
    }
  GBytes *bytes = g_mapped_file_get_bytes (mapped);
  g_mapped_file_unref (mapped);
  return bytes;
}
