#include "atomic-file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "atomic-group.h"

struct _LmAtomicFile {
  char *path;     /* as the caller gave it: what messages name */
  char *target;   /* what the rename replaces: PATH, or the file a symbolic link at PATH points to */
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

long
lm_atomic_file_name_max (const char *dir)
{
  long max = pathconf (dir, _PC_NAME_MAX);
  return max > 0 ? max : NAME_MAX;
}

/* At most MAX bytes of NAME, not cutting a UTF-8 character in two. */
static char *
name_prefix (const char *name, gsize max)
{
  gsize len = strlen (name);
  if (len <= max)
    return g_strdup (name);
  const char *end = name + max;
  if (g_utf8_validate (name, -1, NULL))
    while (end > name && (*end & 0xc0) == 0x80)
      end--;
  return g_strndup (name, end - name);
}

char *
lm_atomic_file_temp_name (const char *dir, const char *base)
{
  /* ".<base>.lumen-tmp-XXXXXX" is 18 bytes longer than BASE: a name of 238 bytes or more
   * would have a temporary that no file system can hold. Its head is enough to recognise it. */
  long room = lm_atomic_file_name_max (dir) - (long) strlen ("." LM_ATOMIC_TMP_INFIX "XXXXXX");
  g_autofree char *head = name_prefix (base, (gsize) MAX (room, 1));
  return g_strdup_printf ("%s/.%s" LM_ATOMIC_TMP_INFIX "XXXXXX", dir, head);
}

/* The file that writing to PATH must replace: PATH itself, or, when PATH is a symbolic link,
 * the file at the end of its chain (which may not exist yet), so that the link stays a link
 * as it does for a shell's redirection or cp. */
static char *
resolve_target (const char *path, GError **error)
{
  g_autofree char *target = g_strdup (path);
  for (int depth = 0;; depth++)
    {
      struct stat st;
      if (lstat (target, &st) != 0 || !S_ISLNK (st.st_mode))
        return g_steal_pointer (&target);
      GError *e = NULL;
      g_autofree char *link = depth < 40 ? g_file_read_link (target, &e) : NULL;
      if (link == NULL)
        {
          g_autofree char *display = g_filename_display_name (path);
          if (e)
            g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot write through the symbolic link: %s"),
                         display, e->message);
          else
            g_set_error (error, LUMEN_ERROR, LM_ERROR_IO,
                         _("%s: cannot write: too many levels of symbolic links"), display);
          g_clear_error (&e);
          return NULL;
        }
      g_autofree char *dir = g_path_get_dirname (target);
      if (g_path_is_absolute (link) || g_str_equal (dir, "."))
        g_free (target), target = g_steal_pointer (&link);
      else
        {
          g_free (target);
          target = g_build_filename (dir, link, NULL);
        }
    }
}

/* What a file that is not a regular one is, as a message names it. */
static const char *
node_kind (mode_t mode)
{
  /* TRANSLATORS: each completes "it is %s, not a regular file" */
  if (S_ISDIR (mode))
    return _("a folder");
  if (S_ISFIFO (mode))
    return _("a named pipe (FIFO)");
  if (S_ISCHR (mode))
    return _("a character device");
  if (S_ISBLK (mode))
    return _("a block device");
  if (S_ISSOCK (mode))
    return _("a socket");
  return _("a special file");
}

/* A rename replaces whatever has the name: /dev/null turned into a regular file, a fifo
 * another program reads from gone. Only a regular file (or nothing) may be replaced. */
static gboolean
check_target (const char *path, const char *target, GError **error)
{
  struct stat st;
  if (lstat (target, &st) != 0 || S_ISREG (st.st_mode))
    return TRUE; /* missing: created; any other failure is the temporary's to report */
  g_autofree char *display = g_filename_display_name (path);
  if (g_strcmp0 (path, target) == 0)
    g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot write: it is %s, not a regular file"), display,
                 node_kind (st.st_mode));
  else
    {
      g_autofree char *target_display = g_filename_display_name (target);
      g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot write: it links to %s, %s, not a regular file"),
                   display, target_display, node_kind (st.st_mode));
    }
  return FALSE;
}

gboolean
lm_atomic_file_check_replaceable (const char *path, GError **error)
{
  g_autofree char *target = resolve_target (path, error);
  return target != NULL && check_target (path, target, error);
}

gboolean
lm_atomic_file_check_target (const char *path, const char *target, GError **error)
{
  return check_target (path, target, error);
}

LmAtomicFile *
lm_atomic_file_open (const char *path, GError **error)
{
  g_autofree char *target = resolve_target (path, error);
  if (target == NULL || !check_target (path, target, error))
    return NULL;
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  g_autofree char *tmp = lm_atomic_file_temp_name (dir, base);

  default_file_mode ();
  int fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int errsv = errno;
      g_autofree char *display = g_filename_display_name (path);
      g_autofree char *dir_display = g_filename_display_name (dir);
      if (errsv == ENOENT)
        g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot write: the folder %s does not exist"),
                     display, dir_display);
      else if (errsv == ENOTDIR)
        g_set_error (error, LUMEN_ERROR, LM_ERROR_IO, _("%s: cannot write: %s is not a folder"),
                     display, dir_display);
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
  file->target = g_steal_pointer (&target);
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
  g_free (file->target);
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
  if (file->tmp_path)
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

  if (errsv != 0)
    {
      lm_set_write_error (error, file->path, errsv);
      lm_atomic_file_abort (file);
      return FALSE;
    }

  LmAtomicGroup *group = lm_atomic_group_current ();
  if (group)
    {
      /* Complete and synced: the group renames it with the others, or removes it. */
      lm_atomic_group_take (group, g_steal_pointer (&file->path), g_steal_pointer (&file->target),
                            g_steal_pointer (&file->tmp_path));
      lm_atomic_file_free (file);
      return TRUE;
    }

  /* Checked again: the name may have become a fifo or a device since it was opened. */
  if (!check_target (file->path, file->target, error))
    {
      lm_atomic_file_abort (file);
      return FALSE;
    }
  if (g_rename (file->tmp_path, file->target) != 0)
    {
      lm_set_write_error (error, file->path, errno);
      lm_atomic_file_abort (file);
      return FALSE;
    }

  lm_atomic_file_free (file);
  return TRUE;
}

gboolean
lm_atomic_file_write (const char *path, const void *data, gsize len, GError **error)
{
  LmAtomicFile *file = lm_atomic_file_open (path, error);
  if (file == NULL)
    return FALSE;
  if (fwrite (data, 1, len, lm_atomic_file_stream (file)) != len)
    {
      int errsv = errno;
      GError *e = NULL;
      lm_set_write_error (&e, path, errsv);
      lm_atomic_file_take_error (file, e);
    }
  return lm_atomic_file_commit (file, error);
}
