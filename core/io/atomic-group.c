#include "atomic-group.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "atomic-file.h"

typedef struct {
  char *path;   /* as the caller named it: what messages name */
  char *target; /* what the rename replaces */
  char *tmp;    /* the complete, synced bytes */
  char *backup; /* the destination's old bytes while the renames go on; NULL: it had none */
} Staged;

struct _LmAtomicGroup {
  GPtrArray *staged;
  GThread *thread;
};

static GPrivate current_group = G_PRIVATE_INIT (NULL);

static void
staged_free (Staged *s)
{
  g_free (s->path);
  g_free (s->target);
  g_free (s->tmp);
  g_free (s->backup);
  g_free (s);
}

LmAtomicGroup *
lm_atomic_group_begin (void)
{
  g_return_val_if_fail (g_private_get (&current_group) == NULL, NULL);
  LmAtomicGroup *group = g_new0 (LmAtomicGroup, 1);
  group->staged = g_ptr_array_new_with_free_func ((GDestroyNotify) staged_free);
  group->thread = g_thread_self ();
  g_private_set (&current_group, group);
  return group;
}

LmAtomicGroup *
lm_atomic_group_current (void)
{
  return g_private_get (&current_group);
}

void
lm_atomic_group_take (LmAtomicGroup *group, char *path, char *target, char *tmp_path)
{
  Staged *s = g_new0 (Staged, 1);
  s->path = path;
  s->target = target;
  s->tmp = tmp_path;
  g_ptr_array_add (group->staged, s);
}

static void
group_close (LmAtomicGroup *group)
{
  g_return_if_fail (group->thread == g_thread_self ());
  if (g_private_get (&current_group) == group)
    g_private_set (&current_group, NULL);
}

static void
group_free (LmAtomicGroup *group)
{
  g_ptr_array_unref (group->staged);
  g_free (group);
}

void
lm_atomic_group_abort (LmAtomicGroup *group)
{
  if (group == NULL)
    return;
  group_close (group);
  for (guint i = 0; i < group->staged->len; i++)
    g_unlink (((Staged *) g_ptr_array_index (group->staged, i))->tmp);
  group_free (group);
}

/* LUMEN_ATOMIC_FAIL_AT (atomic-group.h): failures on demand, for the tests of what follows. */
typedef struct {
  gboolean no_links;
  guint rename_k; /* 0: none */
} FailAt;

static FailAt
fail_at (void)
{
  FailAt f = { FALSE, 0 };
  const char *text = g_getenv ("LUMEN_ATOMIC_FAIL_AT");
  g_auto (GStrv) items = g_strsplit (text ? text : "", ",", -1);
  for (int i = 0; items[i]; i++)
    {
      guint64 k;
      if (g_str_equal (items[i], "link"))
        f.no_links = TRUE;
      else if (g_str_has_prefix (items[i], "rename:")
               && g_ascii_string_to_unsigned (items[i] + strlen ("rename:"), 10, 1, G_MAXUINT, &k, NULL))
        f.rename_k = (guint) k;
    }
  return f;
}

/* The errors of link () that mean "no hard links on this file system", not "cannot write". */
static gboolean
links_unsupported (int errsv)
{
  return errsv == EPERM || errsv == EOPNOTSUPP || errsv == ENOTSUP || errsv == ENOSYS || errsv == EMLINK;
}

/* SRC's bytes and mode into the open file DST, synced. */
static int
copy_synced (const char *src, int dst)
{
  int in = g_open (src, O_RDONLY | O_CLOEXEC, 0);
  if (in < 0)
    return errno;
  int errsv = 0;
  struct stat st;
  char buffer[1 << 16];
  for (;;)
    {
      ssize_t n = read (in, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          errsv = n < 0 ? errno : 0;
          break;
        }
      for (ssize_t done = 0; done < n && errsv == 0;)
        {
          ssize_t w = write (dst, buffer + done, (size_t) (n - done));
          if (w == 0 || (w < 0 && errno != EINTR))
            errsv = w == 0 ? EIO : errno;
          done += MAX (w, 0);
        }
      if (errsv)
        break;
    }
  if (errsv == 0 && (fstat (in, &st) != 0 || fchmod (dst, st.st_mode & 07777) != 0 || fsync (dst) != 0))
    errsv = errno;
  close (in);
  return errsv;
}

/* TARGET's old bytes under a new hidden name beside it (the temporaries' infix, so that a
 * leftover is recognised): a hard link, or a synced copy where there are none. */
static char *
keep_old (const char *target, gboolean no_links, int *errsv)
{
  g_autofree char *dir = g_path_get_dirname (target);
  g_autofree char *base = g_path_get_basename (target);
  static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; attempt++)
    {
      char *name = lm_atomic_file_temp_name (dir, base);
      for (char *x = name + strlen (name) - 6; *x; x++)
        *x = chars[g_random_int_range (0, sizeof chars - 1)];
      if (!no_links && link (target, name) == 0)
        return name;
      int link_errsv = no_links ? EPERM : errno;
      g_free (name);
      if (link_errsv == EEXIST)
        continue;
      if (!links_unsupported (link_errsv))
        {
          *errsv = link_errsv;
          return NULL;
        }
      name = lm_atomic_file_temp_name (dir, base);
      int fd = g_mkstemp_full (name, O_WRONLY | O_CLOEXEC, 0600);
      if (fd < 0)
        {
          *errsv = errno;
          g_free (name);
          return NULL;
        }
      *errsv = copy_synced (target, fd);
      if (close (fd) != 0 && *errsv == 0)
        *errsv = errno;
      if (*errsv == 0)
        return name;
      g_unlink (name);
      g_free (name);
      return NULL;
    }
  *errsv = EEXIST;
  return NULL;
}

/* The renames done so far (the first N_RENAMED) undone, newest first: an old file renamed
 * back, a new one removed. A backup that cannot go back stays, holding the old bytes. */
static void
put_back (LmAtomicGroup *group, guint n_renamed)
{
  for (guint i = n_renamed; i-- > 0;)
    {
      Staged *s = g_ptr_array_index (group->staged, i);
      if (s->backup ? g_rename (s->backup, s->target) == 0 : g_unlink (s->target) == 0)
        g_clear_pointer (&s->backup, g_free);
    }
}

/* Each folder written to, synced once, so that the renames outlive a crash. A folder that
 * cannot be synced (some file systems refuse) is left to the kernel's own write-back: the
 * files in it are synced already. */
static void
sync_folders (LmAtomicGroup *group)
{
  g_autoptr (GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < group->staged->len; i++)
    {
      char *dir = g_path_get_dirname (((Staged *) g_ptr_array_index (group->staged, i))->target);
      if (!g_hash_table_add (seen, dir))
        continue;
      int fd = g_open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
      if (fd >= 0)
        {
          fsync (fd);
          close (fd);
        }
    }
}

gboolean
lm_atomic_group_commit (LmAtomicGroup *group, GError **error)
{
  g_return_val_if_fail (group != NULL, FALSE);
  group_close (group);
  FailAt fail = fail_at ();
  GPtrArray *staged = group->staged;
  guint n_renamed = 0;
  int errsv = 0;
  Staged *failed = NULL;

  /* Every destination checked, and its old bytes kept before the first rename where a later
   * rename could fail: not the last one's (a lone output's rename is its own undo), so that a
   * command of one output costs no copy on a file system without hard links. */
  for (guint i = 0; i < staged->len; i++)
    {
      Staged *s = g_ptr_array_index (staged, i);
      if (!lm_atomic_file_check_target (s->path, s->target, error))
        goto fail;
      struct stat st;
      if (i + 1 < staged->len && lstat (s->target, &st) == 0
          && (s->backup = keep_old (s->target, fail.no_links, &errsv)) == NULL)
        {
          failed = s;
          goto fail;
        }
    }
  for (; n_renamed < staged->len; n_renamed++)
    {
      Staged *s = g_ptr_array_index (staged, n_renamed);
      if (n_renamed + 1 == fail.rename_k)
        errsv = EIO;
      else if (g_rename (s->tmp, s->target) != 0)
        errsv = errno;
      if (errsv != 0)
        {
          failed = s;
          goto fail;
        }
    }

  for (guint i = 0; i < staged->len; i++)
    {
      Staged *s = g_ptr_array_index (staged, i);
      if (s->backup)
        g_unlink (s->backup);
    }
  sync_folders (group);
  group_free (group);
  return TRUE;

fail:
  if (failed)
    lm_set_write_error (error, failed->path, errsv);
  put_back (group, n_renamed);
  for (guint i = n_renamed; i < staged->len; i++)
    {
      Staged *s = g_ptr_array_index (staged, i);
      g_unlink (s->tmp);
      if (s->backup)
        g_unlink (s->backup);
    }
  group_free (group);
  return FALSE;
}
