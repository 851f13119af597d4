#include "output-sum.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>
#include <glib/gi18n.h>

#include "../error.h"
#include "../io/file-read.h"

/* zlib takes lengths as uInt: feed it in pieces. */
static guint32
crc_update (guint32 crc, const guchar *data, gsize len)
{
  while (len > 0)
    {
      uInt n = (uInt) MIN (len, (gsize) 1 << 30);
      crc = (guint32) crc32 (crc, data, n);
      data += n, len -= n;
    }
  return crc;
}

void
lm_output_sum_bytes (GBytes *bytes, LmOutputSum *sum)
{
  gsize len;
  const guchar *data = g_bytes_get_data (bytes, &len);
  sum->size = (gint64) len;
  sum->crc = crc_update ((guint32) crc32 (0, NULL, 0), data, len);
}

gboolean
lm_output_sum_file (const char *path, LmOutputSum *sum, GError **error)
{
  /* Checked by name before it is opened: an output's name that leads to a device (a link to a
   * tape or a watchdog) must not be opened, least of all as root on a resume, and a fifo must
   * not hang it. */
  int fd = lm_file_open_checked (path, LM_FILE_KIND_OUTPUT, O_RDONLY, G_MAXUINT64, NULL, error);
  if (fd < 0)
    return FALSE;
  enum { CHUNK = 1 << 20 };
  g_autofree guchar *buffer = g_malloc (CHUNK);
  guint32 crc = (guint32) crc32 (0, NULL, 0);
  gint64 size = 0;
  for (;;)
    {
      ssize_t n = read (fd, buffer, CHUNK);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int errsv = errno;
          g_autofree char *display = g_filename_display_name (path);
          g_set_error (error, LUMEN_ERROR, lm_error_code_from_errno (errsv), _("%s: cannot read: %s"), display,
                       g_strerror (errsv));
          close (fd);
          return FALSE;
        }
      if (n == 0)
        break;
      crc = crc_update (crc, buffer, (gsize) n);
      size += n;
    }
  close (fd);
  sum->size = size;
  sum->crc = crc;
  return TRUE;
}

typedef struct {
  const char *path;
  LmOutputSum *sum;
} SumTask;

static void
sum_task (gpointer data, gpointer user_data)
{
  SumTask *task = data;
  if (!lm_output_sum_file (task->path, task->sum, NULL))
    task->sum->size = -1;
}

void
lm_output_sum_files (GPtrArray *paths, guint threads, LmOutputSum *sums)
{
  if (paths->len == 0)
    return;
  g_autofree SumTask *tasks = g_new (SumTask, paths->len);
  GThreadPool *pool = g_thread_pool_new (sum_task, NULL, (int) MAX (1, MIN (threads, paths->len)), FALSE, NULL);
  for (guint i = 0; i < paths->len; i++)
    {
      tasks[i] = (SumTask) { paths->pdata[i], &sums[i] };
      g_thread_pool_push (pool, &tasks[i], NULL);
    }
  g_thread_pool_free (pool, FALSE, TRUE);
}
