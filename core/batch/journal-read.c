/* Reading a batch's journals (journal.h): every journal in OUTDIR read whole, each line
 * taken only when it is exactly a record, the records replayed in time order. */
#include "journal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../error.h"
#include "../io/file-read.h"
#include "stack-list.h"
#include "stacks.h"

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

typedef enum {
  NOT_A_RECORD,
  RECORD_START,
  RECORD_END,
  RECORD_DONE,
  RECORD_EARLIER_DONE, /* without SIZE and CRC32: proves nothing */
  RECORD_REDO,
  RECORD_FAILED,
} RecordKind;

/* One line of a journal; done, redo and failed records are kept to be taken in time order
 * over every journal. */
typedef struct {
  gint64 time;
  guint shard, line;
  RecordKind kind;
  char *id;
  char *reason;       /* failed */
  LmOutputSum sum;    /* done */
  guint share, total; /* start */
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

/* TEXT, all of it, as decimal digits worth at most MAX: no sign, no blank, not empty. */
static gboolean
parse_decimal (const char *text, guint64 max, guint64 *value)
{
  for (const char *p = text; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return *text && g_ascii_string_to_unsigned (text, 10, 0, max, value, NULL);
}

/* A done record's MS as the writer gives it ("812.5"): digits and at most one point. */
static gboolean
parse_ms (const char *text)
{
  guint digits = 0, points = 0;
  for (const char *p = text; *p; p++)
    if (g_ascii_isdigit (*p))
      digits++;
    else if (*p == '.')
      points++;
    else
      return FALSE;
  return digits > 0 && points <= 1 && isfinite (g_ascii_strtod (text, NULL));
}

/* A CRC-32 as exactly 8 hex digits: one cut short is not it. */
static gboolean
parse_crc (const char *text, guint32 *crc)
{
  guint64 value;
  for (const char *p = text; *p; p++)
    if (!g_ascii_isxdigit (*p))
      return FALSE;
  if (strlen (text) != 8 || !g_ascii_string_to_unsigned (text, 16, 0, G_MAXUINT32, &value, NULL))
    return FALSE;
  *crc = (guint32) value;
  return TRUE;
}

/* R from LINE (a C string): exactly one of the records journal.h lists, every field whole,
 * or NOT_A_RECORD. A record cut anywhere short of its last field has too few fields, and one
 * cut inside its CRC-32 has too few digits; only one cut after its MS field reads as a done
 * record of an earlier version, which counts for nothing either. */
static void
parse_record (const char *line, Record *r)
{
  r->kind = NOT_A_RECORD;
  g_auto (GStrv) f = g_strsplit (line, "\t", -1);
  guint n = g_strv_length (f);
  guint64 t, v[4], size;
  if (n < 2 || !parse_decimal (f[1], G_MAXINT64, &t))
    return;
  r->time = (gint64) t;
  if (g_str_equal (f[0], "start") && n == 6)
    {
      for (guint i = 0; i < 4; i++)
        if (!parse_decimal (f[2 + i], G_MAXUINT, &v[i]))
          return;
      r->share = (guint) v[2], r->total = (guint) v[3];
      r->kind = RECORD_START;
      return;
    }
  if (g_str_equal (f[0], "end") && n == 2)
    {
      r->kind = RECORD_END;
      return;
    }
  if (n < 4 || !lm_batch_id_valid (f[2]))
    return;
  if (g_str_equal (f[0], "redo") && n == 4)
    r->kind = RECORD_REDO;
  else if (g_str_equal (f[0], "failed") && n == 4)
    r->kind = RECORD_FAILED, r->reason = g_strdup (f[3]);
  else if (g_str_equal (f[0], "done") && n == 4 && parse_ms (f[3]))
    r->kind = RECORD_EARLIER_DONE;
  else if (g_str_equal (f[0], "done") && n == 6 && parse_ms (f[3]) && parse_decimal (f[4], G_MAXINT64, &size)
           && size > 0 && parse_crc (f[5], &r->sum.crc))
    r->kind = RECORD_DONE, r->sum.size = (gint64) size;
  if (r->kind != NOT_A_RECORD)
    r->id = g_strdup (f[2]);
}

static gboolean
read_journal (LmJournalSummary *s, const char *path, guint index, GArray *records, GArray *intervals,
              gint64 *latest_start, GError **error)
{
  LmJournalShard *shard = &g_array_index (s->shards, LmJournalShard, index);
  g_autoptr (GBytes) bytes = lm_file_read (path, LM_FILE_KIND_RECORDS, LM_FILE_RECORDS_MAX, error);
  if (bytes == NULL)
    return FALSE;
  gsize len = 0;
  const char *text = g_bytes_get_data (bytes, &len), *end = text + len;
  Interval run = { -1, -1 };
  guint number = 0;
  for (const char *line = text; line < end; line++, number++)
    {
      const char *newline = memchr (line, '\n', end - line);
      if (newline == NULL)
        break; /* the last line without its newline: a record being written, or cut by a crash */
      Record r = { .shard = index, .line = number };
      /* Split as a C string, a line would end unseen at a NUL byte. */
      if (memchr (line, '\0', newline - line) == NULL)
        {
          g_autofree char *copy = g_strndup (line, newline - line);
          parse_record (copy, &r);
        }
      line = newline;
      switch (r.kind)
        {
        case NOT_A_RECORD:
          shard->not_records++;
          continue;
        case RECORD_START:
          if (run.from >= 0)
            g_array_append_val (intervals, run);
          run.from = run.to = r.time;
          shard->share = r.share;
          if (r.time >= *latest_start)
            {
              s->total = r.total;
              *latest_start = r.time;
            }
          continue;
        default:
          break;
        }
      if (run.from >= 0 && r.time > run.to)
        run.to = r.time;
      if (r.kind == RECORD_EARLIER_DONE)
        shard->earlier++;
      if (r.kind == RECORD_DONE || r.kind == RECORD_REDO || r.kind == RECORD_FAILED)
        g_array_append_val (records, r);
      else
        clear_record (&r);
    }
  if (run.from >= 0)
    g_array_append_val (intervals, run);
  return TRUE;
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

static void
count (LmJournalSummary *s, GHashTable *failures)
{
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
}

static double
busy_seconds (GArray *intervals)
{
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
  return busy / 1e6;
}

LmJournalSummary *
lm_journal_read_all (const char *outdir, GError **error)
{
  g_autoptr (GDir) dir = g_dir_open (outdir, 0, error);
  if (dir == NULL)
    return NULL;
  g_autoptr (LmJournalSummary) s = g_new0 (LmJournalSummary, 1);
  s->done = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->failed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  s->redone = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  s->shards = g_array_new (FALSE, TRUE, sizeof (LmJournalShard));
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint index, n;
  while ((name = g_dir_read_name (dir)))
    if (is_journal_name (name, &index, &n))
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
      if (!read_journal (s, path, i, records, intervals, &latest_start, error))
        return NULL;
    }
  /* A list that cannot be read would leave records of an earlier batch counted. */
  g_autoptr (GHashTable) stacks = NULL;
  if (!lm_stack_list_read (outdir, &stacks, error))
    return NULL;

  g_autoptr (GHashTable) failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, failure_free);
  g_autoptr (GHashTable) twice = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  replay (s, records, failures, twice);
  /* Records of stacks the latest run did not have (an earlier batch's) are not counted. */
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
  count (s, failures);
  s->busy_s = busy_seconds (intervals);
  return g_steal_pointer (&s);
}

void
lm_journal_check_sizes (LmJournalSummary *s, const char *outdir, const char *const *exts)
{
  GHashTableIter it;
  gpointer id, value;
  g_hash_table_iter_init (&it, s->done);
  while (g_hash_table_iter_next (&it, &id, &value))
    {
      const LmJournalDone *d = value;
      gboolean found = FALSE;
      for (guint i = 0; exts[i] && !found; i++)
        {
          g_autofree char *file = g_strconcat (id, ".", exts[i], NULL);
          g_autofree char *path = g_build_filename (outdir, file, NULL);
          GStatBuf st;
          found = g_stat (path, &st) == 0 && S_ISREG (st.st_mode) && st.st_size == d->sum.size;
        }
      if (!found)
        {
          g_array_index (s->shards, LmJournalShard, d->shard).done--;
          s->unmatched++;
          g_hash_table_iter_remove (&it);
        }
    }
}

GPtrArray *
lm_journal_summary_notes (const LmJournalSummary *s, const char *outdir)
{
  GPtrArray *notes = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < s->shards->len; i++)
    {
      const LmJournalShard *j = &g_array_index (s->shards, LmJournalShard, i);
      g_autofree char *path = g_build_filename (outdir, j->name, NULL);
      g_autofree char *display = g_filename_display_name (path);
      if (j->not_records)
        g_ptr_array_add (notes, g_strdup_printf (g_dngettext (NULL,
                                                              "%s: %u line is not a whole record (cut short or "
                                                              "damaged): it counts for nothing",
                                                              "%s: %u lines are not whole records (cut short or "
                                                              "damaged): they count for nothing",
                                                              j->not_records),
                                                 display, j->not_records));
      if (j->earlier)
        g_ptr_array_add (notes, g_strdup_printf (g_dngettext (NULL,
                                                              "%s: %u done record cut short or of an earlier "
                                                              "version, without its output’s size and CRC-32, "
                                                              "proves nothing: its stack counts as not done",
                                                              "%s: %u done records cut short or of an earlier "
                                                              "version, without their outputs’ size and CRC-32, "
                                                              "prove nothing: their stacks count as not done",
                                                              j->earlier),
                                                 display, j->earlier));
    }
  return notes;
}
