#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../io/atomic-file.h"
#include "../io/file-read.h"
#include "../error.h"

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

static int
open_file (const char *path, int flags, GError **error)
{
  int fd = g_open (path, flags | O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0)
    lm_set_write_error (error, path, errno);
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
  j->fd = open_file (j->path, O_APPEND, error);
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
  j->failed_fd = open_file (j->failed_path, O_TRUNC, error);
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
  g_autofree char *failure = g_strdup_printf ("%s\t%s\n", id, flat);
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

/* The stack list */

#define STACKS_HEADER "# lumen-cli batch: the stacks of the latest run, which --report counts; SHA-256 "

gboolean
lm_journal_write_stacks (const char *outdir, GPtrArray *ids, GError **error)
{
  g_autoptr (GString) body = g_string_new (NULL);
  for (guint i = 0; i < ids->len; i++)
    g_string_append_printf (body, "%s\n", (const char *) ids->pdata[i]);
  g_autofree char *sum = g_compute_checksum_for_string (G_CHECKSUM_SHA256, body->str, body->len);
  g_string_prepend (body, "\n");
  g_string_prepend (body, sum);
  g_string_prepend (body, STACKS_HEADER);
  g_autofree char *path = g_build_filename (outdir, LM_JOURNAL_STACKS_NAME, NULL);
  /* One name, not a random one: only the holder of the admission lock writes it, and a
   * killed writer's leftover is then removed without listing the folder. */
  g_autofree char *tmp = g_build_filename (outdir, "." LM_JOURNAL_STACKS_NAME LM_ATOMIC_TMP_INFIX "batch", NULL);
  g_unlink (tmp);

  /* The header alone says whether the list is this one: shards of one batch write it once. */
  FILE *old = fopen (path, "rb");
  if (old)
    {
      char line[256] = "";
      gboolean same = fgets (line, sizeof line, old) && strlen (line) == strlen (STACKS_HEADER) + strlen (sum) + 1
                      && strncmp (line, body->str, strlen (line)) == 0;
      fclose (old);
      if (same)
        return TRUE;
    }
  int fd = g_open (tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    {
      lm_set_write_error (error, path, errno);
      return FALSE;
    }
  gboolean ok = write_all (fd, path, body->str, error);
  if (ok && fsync (fd) != 0)
    ok = FALSE, lm_set_write_error (error, path, errno);
  if (close (fd) != 0 && ok)
    ok = FALSE, lm_set_write_error (error, path, errno);
  if (ok && g_rename (tmp, path) != 0)
    ok = FALSE, lm_set_write_error (error, path, errno);
  if (!ok)
    g_unlink (tmp);
  return ok;
}

/* The ids of OUTDIR's stacks.txt, or NULL when there is none (a batch of an earlier version). */
static GHashTable *
read_stacks (const char *outdir)
{
  g_autofree char *path = g_build_filename (outdir, LM_JOURNAL_STACKS_NAME, NULL);
  g_autoptr (GBytes) bytes = lm_file_read (path, LM_FILE_KIND_RECORDS, LM_FILE_RECORDS_MAX, NULL);
  const char *text = bytes ? g_bytes_get_data (bytes, NULL) : NULL;
  if (text == NULL || !g_str_has_prefix (text, STACKS_HEADER))
    return NULL;
  GHashTable *ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  for (int i = 1; lines[i]; i++)
    if (*lines[i])
      g_hash_table_add (ids, g_strdup (lines[i]));
  return ids;
}

/* Reading */

void
lm_journal_summary_free (LmJournalSummary *s)
{
  if (s == NULL)
    return;
  g_hash_table_unref (s->done);
  g_hash_table_unref (s->failed);
  g_hash_table_unref (s->redone);
  for (guint i = 0; i < s->shards->len; i++)
    g_free (g_array_index (s->shards, LmJournalShard, i).name);
  g_array_unref (s->shards);
  g_free (s);
}

typedef struct {
  gint64 from, to;
} Interval;

static int
compare_intervals (gconstpointer a, gconstpointer b)
{
  const Interval *x = a, *y = b;
  return x->from < y->from ? -1 : x->from > y->from;
}

typedef enum { RECORD_DONE, RECORD_REDO, RECORD_FAILED } RecordKind;

/* A done, redo or failed record, to be taken in time order over every journal. */
typedef struct {
  gint64 time;
  guint shard, line;
  RecordKind kind;
  char *id;
  char *reason;     /* failed */
  LmOutputSum sum;  /* done */
} Record;

static int
compare_records (gconstpointer a, gconstpointer b)
{
  const Record *x = a, *y = b;
  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  if (x->shard != y->shard)
    return x->shard < y->shard ? -1 : 1;
  return x->line < y->line ? -1 : x->line > y->line;
}

static void
clear_record (gpointer data)
{
  Record *r = data;
  g_free (r->id);
  g_free (r->reason);
}

static gboolean
is_journal_name (const char *name, guint *index, guint *count)
{
  *index = *count = 0;
  if (g_str_equal (name, "journal.tsv"))
    return TRUE;
  return sscanf (name, "journal-%u-of-%u.tsv", index, count) == 2 && *index < *count
         && g_str_has_suffix (name, ".tsv");
}

/* SIZE and CRC32 after MS in a done record; size -1 in a record of an earlier version. */
static LmOutputSum
parse_sum (const char *rest)
{
  LmOutputSum sum = { .size = -1 };
  g_auto (GStrv) f = g_strsplit (rest ? rest : "", "\t", -1);
  guint64 size, crc;
  if (g_strv_length (f) >= 3 && g_ascii_string_to_unsigned (f[1], 10, 0, G_MAXINT64, &size, NULL)
      && strlen (f[2]) == 8 && g_ascii_string_to_unsigned (f[2], 16, 0, G_MAXUINT32, &crc, NULL))
    sum = (LmOutputSum) { (gint64) size, (guint32) crc };
  return sum;
}

static void
read_journal (LmJournalSummary *s, const char *path, guint index, GArray *records, GArray *intervals,
              gint64 *latest_start)
{
  LmJournalShard *shard = &g_array_index (s->shards, LmJournalShard, index);
  g_autofree char *text = NULL;
  if (!g_file_get_contents (path, &text, NULL, NULL))
    return;
  /* A last line without its newline was cut by a crash: not a record. */
  char *last_newline = strrchr (text, '\n');
  if (last_newline == NULL)
    return;
  last_newline[1] = '\0';
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  Interval run = { -1, -1 };
  for (int i = 0; lines[i]; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "\t", 4);
      guint n = g_strv_length (f);
      if (n < 2)
        continue;
      gint64 t = g_ascii_strtoll (f[1], NULL, 10);
      if (g_str_equal (f[0], "start") && n >= 4)
        {
          if (run.from >= 0)
            g_array_append_val (intervals, run);
          run.from = run.to = t;
          g_auto (GStrv) rest = g_strsplit (f[3], "\t", -1);
          if (g_strv_length (rest) == 3 && t >= *latest_start)
            {
              shard->share = atoi (rest[1]);
              s->total = atoi (rest[2]);
              *latest_start = t;
            }
          else if (g_strv_length (rest) == 3)
            shard->share = atoi (rest[1]);
          continue;
        }
      if (run.from >= 0 && t > run.to)
        run.to = t;
      if (n < 3)
        continue;
      Record r = { .time = t, .shard = index, .line = (guint) i };
      if (g_str_equal (f[0], "done"))
        r.kind = RECORD_DONE, r.sum = parse_sum (n > 3 ? f[3] : NULL);
      else if (g_str_equal (f[0], "redo"))
        r.kind = RECORD_REDO;
      else if (g_str_equal (f[0], "failed"))
        r.kind = RECORD_FAILED, r.reason = g_strdup (n > 3 ? f[3] : "");
      else
        continue;
      r.id = g_strdup (f[2]);
      g_array_append_val (records, r);
    }
  if (run.from >= 0)
    g_array_append_val (intervals, run);
}

typedef struct {
  char *reason;
  guint shard;
} Failure;

static void
failure_free (gpointer data)
{
  Failure *f = data;
  g_free (f->reason);
  g_free (f);
}

/* The records in time order: a redo undoes the done records before it, whichever journal
 * holds them; the latest failure of a stack stands unless the stack is done. */
static void
replay (LmJournalSummary *s, GArray *records, GHashTable *failures, GHashTable *twice)
{
  g_array_sort (records, compare_records);
  for (guint i = 0; i < records->len; i++)
    {
      Record *r = &g_array_index (records, Record, i);
      if (r->kind == RECORD_DONE)
        {
          if (g_hash_table_contains (s->done, r->id))
            g_hash_table_add (twice, g_strdup (r->id));
          LmJournalDone *d = g_new (LmJournalDone, 1);
          *d = (LmJournalDone) { r->sum, r->shard };
          g_hash_table_insert (s->done, g_strdup (r->id), d);
          g_hash_table_remove (s->redone, r->id);
        }
      else if (r->kind == RECORD_REDO)
        {
          g_hash_table_remove (s->done, r->id);
          g_hash_table_add (s->redone, g_strdup (r->id));
        }
      else
        {
          Failure *f = g_new (Failure, 1);
          *f = (Failure) { g_steal_pointer (&r->reason), r->shard };
          g_hash_table_insert (failures, g_strdup (r->id), f);
        }
    }
}

/* Drops from TABLE the ids that STACKS lacks; adds them to OUTSIDE. */
static void
keep_only (GHashTable *table, GHashTable *stacks, GHashTable *outside)
{
  GHashTableIter it;
  gpointer id;
  g_hash_table_iter_init (&it, table);
  while (g_hash_table_iter_next (&it, &id, NULL))
    if (!g_hash_table_contains (stacks, id))
      {
        g_hash_table_add (outside, g_strdup (id));
        g_hash_table_iter_remove (&it);
      }
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

LmJournalSummary *
lm_journal_read_all (const char *outdir, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (outdir, 0, error);
  if (dir == NULL)
    return NULL;
  LmJournalSummary *s = g_new0 (LmJournalSummary, 1);
  s->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->redone = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->shards = g_array_new (FALSE, TRUE, sizeof (LmJournalShard));
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint index, count;
  while ((name = g_dir_read_name (dir)))
    if (is_journal_name (name, &index, &count))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);

  g_autoptr (GArray) intervals = g_array_new (FALSE, FALSE, sizeof (Interval));
  g_autoptr (GArray) records = g_array_new (FALSE, FALSE, sizeof (Record));
  g_array_set_clear_func (records, clear_record);
  gint64 latest_start = 0;
  for (guint i = 0; i < names->len; i++)
    {
      LmJournalShard shard = { .name = g_strdup (names->pdata[i]) };
      is_journal_name (shard.name, &shard.index, &shard.count);
      g_array_append_val (s->shards, shard);
      g_autofree char *path = g_build_filename (outdir, shard.name, NULL);
      read_journal (s, path, i, records, intervals, &latest_start);
    }
  g_autoptr (GHashTable) failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, failure_free);
  g_autoptr (GHashTable) twice = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  replay (s, records, failures, twice);

  /* Records of stacks the latest run did not have (an earlier batch's) are not counted. */
  g_autoptr (GHashTable) stacks = read_stacks (outdir);
  if (stacks)
    {
      g_autoptr (GHashTable) outside = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      keep_only (s->done, stacks, outside);
      keep_only (failures, stacks, outside);
      keep_only (twice, stacks, outside);
      s->outside = g_hash_table_size (outside);
      s->total = g_hash_table_size (stacks);
    }
  s->duplicates = g_hash_table_size (twice);

  GHashTableIter it;
  gpointer id, value;
  g_hash_table_iter_init (&it, s->done);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_array_index (s->shards, LmJournalShard, ((LmJournalDone *) value)->shard).done++;
  /* A stack done by any shard (a rerun with another N) is not a failure any more. */
  g_hash_table_iter_init (&it, failures);
  while (g_hash_table_iter_next (&it, &id, &value))
    if (!g_hash_table_contains (s->done, id))
      {
        Failure *f = value;
        g_array_index (s->shards, LmJournalShard, f->shard).failed++;
        g_hash_table_insert (s->failed, g_strdup (id), g_steal_pointer (&f->reason));
      }

  g_array_sort (intervals, compare_intervals);
  gint64 busy = 0, end = G_MININT64;
  for (guint i = 0; i < intervals->len; i++)
    {
      Interval *r = &g_array_index (intervals, Interval, i);
      gint64 from = MAX (r->from, end);
      if (r->to > from)
        busy += r->to - from;
      end = MAX (end, r->to);
    }
  s->busy_s = busy / 1e6;
  return s;
}
