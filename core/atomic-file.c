#include "atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "error.h"

struct _LmAtomicFile {
  char *path;
  char *tmp_path;
  FILE *stream;
  GError *error;
};

void
lm_set_write_error (GError **error, const char *path, int errsv)
{
  g_autofree char *display = g_filename_display_name (path);
  g_set_error (error, LUMEN_ERROR, lm_error_code_from_errno (errsv), _("%s: cannot write: %s"),
               display, g_strerror (errsv));
}

/* Files are created 0600 by mkstemp; give the finished file the mode a plain creat()
 * would have. The umask is read once, before any thread could race on it. */
static mode_t
default_file_mode (void)
{
  static gsize once = 0;
  static mode_t mode;
  if (g_once_init_enter (&once))
    {
      mode_t mask = umask (022);
      umask (mask);
      mode = 0666 & ~mask;
      g_once_init_leave (&once, 1);
    }
  return mode;
}

LmAtomicFile *
lm_atomic_file_open (const char *path, GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s" LM_ATOMIC_TMP_INFIX "XXXXXX", dir, base);

  default_file_mode ();
  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int errsv = errno;
      g_autofree char *display = g_filename_display_name (path);
      if (errsv == ENOENT)
        g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot write: the folder %s does not exist"),
                     display, dir);
      else if (errsv == ENOTDIR)
        g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot write: %s is not a folder"),
                     display, dir);
      else
        lm_set_write_error (error, path, errsv);
      return NULL;
    }

  FILE *stream = fdopen (fd, "wb");
  if (stream == NULL)
    {
      lm_set_write_error (error, path, errno);
      close (fd);
      g_unlink (tmp);
      return NULL;
    }

  LmAtomicFile *file = g_new0 (LmAtomicFile, 1);
  file->path = g_strdup (path);
  file->tmp_path = g_steal_pointer (&tmp);
  file->stream = stream;
  return file;
}

FILE *
lm_atomic_file_stream (LmAtomicFile *file)
{
  return file->stream;
}

const char *
lm_atomic_file_path (LmAtomicFile *file)
{
  return file->path;
}

void
lm_atomic_file_take_error (LmAtomicFile *file, GError *error)
{
  if (file->error == NULL)
    file->error = error;
  else
    g_error_free (error);
}

static void
lm_atomic_file_free (LmAtomicFile *file)
{
  g_free (file->path);
  g_free (file->tmp_path);
  g_clear_error (&file->error);
  g_free (file);
}

void
lm_atomic_file_abort (LmAtomicFile *file)
{
  if (file == NULL)
    return;
  if (file->stream)
    fclose (file->stream);
  g_unlink (file->tmp_path);
  lm_atomic_file_free (file);
}

gboolean
lm_atomic_file_commit (LmAtomicFile *file, GError **error)
{
  int fd = fileno (file->stream);
  int errsv = 0;

  if (file->error)
    {
      g_propagate_error (error, g_steal_pointer (&file->error));
      lm_atomic_file_abort (file);
      return FALSE;
    }

  if (fflush (file->stream) != 0 || ferror (file->stream))
    errsv = errno ? errno : EIO;
  else if (fchmod (fd, default_file_mode ()) != 0 || fsync (fd) != 0)
    errsv = errno;

  /* fclose reports write-back errors of some file systems (NFS) that fsync did not. */
  int close_rc = fclose (file->stream);
  file->stream = NULL;
  if (errsv == 0 && close_rc != 0)
    errsv = errno;

  if (errsv == 0 && g_rename (file->tmp_path, file->path) != 0)
    errsv = errno;

  if (errsv != 0)
    {
      lm_set_write_error (error, file->path, errsv);
      lm_atomic_file_abort (file);
      return FALSE;
    }

  lm_atomic_file_free (file);
  return TRUE;
}
