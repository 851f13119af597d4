/* lumen-cli batch: many bracketed stacks merged as `lumen-cli hdr` merges one, streamed
 * through the backends, resumable after a kill and sharded over processes or a cluster. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "cli-batch.h"
#include "cli.h"
#include "core/batch/backends.h"
#include "core/batch/commit.h"
#include "core/batch/journal.h"
#include "core/batch/merge-stage.h"
#include "core/backend/nvjpeg-decoder.h"
#include "core/backend/nvjpeg-encoder.h"
#include "core/batch/outdir-lock.h"
#include "core/batch/pipeline.h"
#include "core/batch/shard.h"
#include "core/batch/stack-list.h"
#include "core/batch/stacks.h"
#include "core/error.h"
#include "core/hdr/response.h"
#include "core/io/io.h"
#include "core/timing.h"

typedef struct {
  char *backend, *devices, *decoder, *encoder, *method, *response_in, *format, *shard, *progress, *output, *report;
  LmCliTone tone;
  int jobs, quality, shard_count, in_flight, read_threads, png_level;
  gboolean align, timings;
  char **inputs;
} Options;

/* Who decodes the JPEG inputs, and who encodes JPEG outputs. */
typedef enum {
  CODEC_CPU,    /* libjpeg-turbo: the bytes of `lumen-cli hdr` */
  CODEC_NVJPEG, /* nvJPEG, or libjpeg-turbo with a notice when it cannot run */
  CODEC_AUTO,   /* nvJPEG when the merge runs on CUDA and the library is there */
} Codec;

/* Everything the command line decides, checked before any stack is touched. */
typedef struct {
  LmBatchConfig config;
  LmBackendKind backend;
  GArray *devices;
  LmShard shard;
  int jobs;
  Codec decoder, encoder;
  char *nvjpeg_reason;  /* why nvJPEG was asked for and does not run */
  char *encoder_reason; /* the same, for the encoder */
  char *encoder_description;
} Plan;

/* Each merge worker and read thread is a thread with its own stack and buffers: a count far
 * past the machine's ends in a failed thread creation after gigabytes, not in speed. */
static guint
max_jobs (void)
{
  return MAX (16, g_get_num_processors ());
}

/* Reads wait on storage, not on cores: network storage wants many in flight. */
static guint
max_read_threads (void)
{
  return MAX (64, 8 * g_get_num_processors ());
}

/* Each stack in flight holds its decoded exposures in host memory (a few hundred MB for a
 * stack of 24 MP photos); past what the stages can work on at once it only waits in a queue.
 * The default, read threads + writers (a core each, two for radiance) + 2 × workers + 2,
 * keeps every stage busy, so the cap is that sum with read threads and workers at their own
 * caps: it allows any default one device can have (a few times the ordinary one), and bounds
 * memory where --in-flight asks for more. */
static guint
max_in_flight (void)
{
  return max_read_threads () + 2 * g_get_num_processors () + 2 * max_jobs () + 2;
}

static gboolean
usage (GError **error, const char *message)
{
  g_set_error_literal (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, message);
  return FALSE;
}

static gboolean
parse_codec (const char *flag, const char *text, Codec *codec, GError **error)
{
  *codec = CODEC_CPU;
  if (text && g_str_equal (text, "nvjpeg"))
    *codec = CODEC_NVJPEG;
  else if (text && g_str_equal (text, "auto"))
    *codec = CODEC_AUTO;
  else if (text && !g_str_equal (text, "cpu"))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s: unknown “%s” (cpu, nvjpeg or auto)"), flag,
                   text);
      return FALSE;
    }
  return TRUE;
}

static gboolean
plan_output (const Options *o, Plan *p, GError **error)
{
  const char *format = o->format ? o->format : "hdr";
  gboolean known = FALSE;
  for (guint i = 0; lm_batch_formats[i]; i++)
    known |= g_str_equal (format, lm_batch_formats[i]);
  if (!known)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--format: unknown “%s” (hdr, exr, jpg, png or tif)"), format);
      return FALSE;
    }
  g_autofree char *probe = g_strconcat ("out.", format, NULL);
  LmFileType type = lm_file_type_for_output (probe);
  GError *e = NULL;
  if (!lm_file_type_writable (type, &e))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "--format %s: %s", format, e->message);
      g_error_free (e);
      return FALSE;
    }
  p->config.ext = format;
  gboolean radiance = lm_file_type_is_radiance (type);

  if (!lm_cli_tone_params (&o->tone, p->config.merge.method == LM_HDR_MERTENS ? LM_TONEMAP_NONE : LM_TONEMAP_REINHARD,
                           &p->config.tone, error))
    return FALSE;
  if (radiance && o->tone.tonemap && p->config.tone.kind != LM_TONEMAP_NONE)
    return usage (error, _("--format hdr and exr hold radiance: leave out --tonemap (or give none)"));
  p->config.tonemap = !radiance;
  if (o->tone.depth != 8 && !lm_cli_tone_check_depth (&o->tone, type, error))
    return FALSE;
  p->config.depth = (guint) o->tone.depth;
  if (o->quality < 1 || o->quality > 100)
    return usage (error, _("--quality must be between 1 and 100"));
  p->config.save.quality = o->quality;
  p->config.save.png_level = o->png_level;
  return TRUE;
}

static gboolean
plan (const Options *o, Plan *p, GError **error)
{
  p->config.merge.method = LM_HDR_DEBEVEC;
  if (o->output == NULL)
    return usage (error, _("no output folder: give -o OUTDIR"));
  if (o->inputs == NULL || o->inputs[0] == NULL)
    return usage (error, _("no input: give folders of stack folders or .tsv manifests"));
  if (o->method && !lm_hdr_method_parse (o->method, &p->config.merge.method))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--method: unknown “%s” (debevec, robertson or mertens)"), o->method);
      return FALSE;
    }
  if (!(o->tone.gamma > 0.0) || o->tone.gamma_correction < 0.0)
    return usage (error, _("--gamma and --gamma-correction must be positive"));
  p->config.merge.gamma_correction = (float) o->tone.gamma_correction;
  if (!plan_output (o, p, error))
    return FALSE;
  if (o->response_in && p->config.merge.method == LM_HDR_MERTENS)
    return usage (error, _("--response-in: Mertens' fusion uses no camera response"));
  if (o->jobs < 0 || o->in_flight < 0 || o->shard_count < 0 || o->read_threads < 0)
    return usage (error, _("--jobs, --in-flight, --read-threads and --shard-count must be positive"));
  if ((guint) o->jobs > max_jobs ())
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--jobs %d: at most %u merge workers per device on this machine (16, or one per core "
                     "where there are more cores; it has %u)"),
                   o->jobs, max_jobs (), g_get_num_processors ());
      return FALSE;
    }
  if ((guint) o->read_threads > max_read_threads ())
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--read-threads %d: at most %u on this machine (64, or 8 per core where there are more "
                     "cores; it has %u)"),
                   o->read_threads, max_read_threads (), g_get_num_processors ());
      return FALSE;
    }
  if ((guint) o->in_flight > max_in_flight ())
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--in-flight %d: at most %u stacks in memory on this machine (the largest default: %u read "
                     "threads + %u writers + 2 × %u workers + 2)"),
                   o->in_flight, max_in_flight (), max_read_threads (), 2 * g_get_num_processors (), max_jobs ());
      return FALSE;
    }
  p->config.in_flight = (guint) o->in_flight;
  p->config.read_threads = (guint) o->read_threads;
  if (!parse_codec ("--decoder", o->decoder, &p->decoder, error) || !parse_codec ("--encoder", o->encoder, &p->encoder, error))
    return FALSE;
  if (p->encoder == CODEC_NVJPEG && !lm_batch_writes_jpeg (&p->config))
    return usage (error, _("--encoder nvjpeg encodes JPEG files: give --format jpg"));
  p->jobs = o->jobs;
  p->config.align = o->align;
  p->config.outdir = o->output;
  if (!lm_cli_parse_backend (o->backend, &p->backend, error)
      || !lm_batch_devices_parse (o->devices, &p->devices, error))
    return FALSE;
  p->config.progress = LM_PROGRESS_AUTO;
  if (o->progress && !lm_progress_mode_parse (o->progress, &p->config.progress))
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--progress: unknown “%s” (auto, bar, plain or none)"), o->progress);
      return FALSE;
    }
  if (o->shard)
    return lm_shard_parse (o->shard, &p->shard, error);
  return lm_shard_from_environment ((guint) o->shard_count, &p->shard, error);
}

/* The first nvJPEG decoder, when the plan asks for one and it can run; else the reason. */
static void
open_decoder (Plan *p)
{
  LmBackend *b = g_ptr_array_index (p->config.backends, 0);
  gboolean on_gpu = lm_backend_work_allocator (b)->memory == LM_MEMORY_DEVICE;
  if (p->decoder == CODEC_CPU || (p->decoder == CODEC_AUTO && !on_gpu))
    return;
  g_autoptr (GArray) devices = g_array_new (FALSE, FALSE, sizeof (int));
  if (p->devices)
    g_array_append_vals (devices, p->devices->data, p->devices->len);
  else
    for (int d = 0; d < MAX (lm_backend_cuda_device_count (), 1); d++)
      g_array_append_val (devices, d);
  GError *e = NULL;
  p->config.nvjpeg = lm_nvjpeg_new (g_array_index (devices, int, 0), &e);
  if (p->config.nvjpeg)
    p->config.nvjpeg_devices = g_steal_pointer (&devices);
  else
    {
      p->nvjpeg_reason = g_strdup (e->message);
      if (p->decoder == CODEC_NVJPEG)
        fprintf (stderr, _("lumen-cli: %s; decoding with libjpeg-turbo on the CPU\n"), e->message);
      g_error_free (e);
    }
}

/* Whether the merge workers may encode JPEG outputs on their GPUs: one encoder is started
 * on the first to prove that nvJPEG runs; else the reason. */
static void
open_encoder (Plan *p)
{
  LmBackend *b = g_ptr_array_index (p->config.backends, 0);
  int device = lm_backend_cuda_device (b);
  if (p->encoder == CODEC_CPU || !lm_batch_writes_jpeg (&p->config) || (p->encoder == CODEC_AUTO && device < 0))
    return;
  GError *e = NULL;
  LmNvjpegEncoder *probe = device < 0 ? NULL : lm_nvjpeg_encoder_new (device, p->config.save.quality, &e);
  if (probe)
    {
      p->config.nvjpeg_encode = TRUE;
      p->encoder_description = g_strdup (lm_nvjpeg_encoder_description (probe));
      lm_nvjpeg_encoder_free (probe);
      return;
    }
  p->encoder_reason = e ? g_strdup (e->message) : g_strdup (_("nvJPEG encodes only for a CUDA backend"));
  fprintf (stderr, _("lumen-cli: %s; encoding with libjpeg-turbo on the CPU\n"), p->encoder_reason);
  g_clear_error (&e);
}

static void
print_timings (const Plan *p, const LmBatchStats *stats)
{
  guint n = stats->done + stats->failed;
  if (p->config.nvjpeg)
    printf (_("decoder: %s, up to %u decoders (%u files); libjpeg-turbo (CPU) for %u files\n"),
            lm_nvjpeg_description (p->config.nvjpeg), stats->nvjpeg_decoders, stats->nvjpeg_files, stats->cpu_files);
  else
    printf (_("decoder: libjpeg-turbo (CPU), %u threads\n"), stats->load_threads);
  if (p->nvjpeg_reason)
    printf ("  %s\n", p->nvjpeg_reason);
  if (p->config.nvjpeg_encode)
    printf (_("encoder: %s, one per merge worker (%u files); libjpeg-turbo (CPU) for %u files\n"),
            p->encoder_description, stats->nvjpeg_encoded, stats->done - MIN (stats->done, stats->nvjpeg_encoded));
  else if (lm_batch_writes_jpeg (&p->config))
    printf (_("encoder: libjpeg-turbo (CPU), %u threads\n"), stats->load_threads);
  if (p->encoder_reason)
    printf ("  %s\n", p->encoder_reason);
  if (p->config.nvjpeg)
    printf (_("stacks kept on the GPU from decoding to output: %u of %u\n"), stats->resident_stacks, stats->done);
  if (stats->device_batches)
    printf (_("decoded into the GPU's memory in %u batches of nvJPEG\n"), stats->device_batches);
  printf (_("read threads: %u; %.1f MB read, %.1f MB/s\n"), stats->read_threads, stats->bytes_read / 1e6,
          stats->wall_s > 0 ? stats->bytes_read / 1e6 / stats->wall_s : 0.0);
  /* One line per device: the workers are opened device by device, so equal ones are adjacent. */
  for (guint i = 0, n_same; i < p->config.backends->len; i += n_same)
    {
      LmBackend *b = g_ptr_array_index (p->config.backends, i);
      for (n_same = 1; i + n_same < p->config.backends->len; n_same++)
        if (g_strcmp0 (((LmBackend *) g_ptr_array_index (p->config.backends, i + n_same))->description,
                       b->description) != 0)
          break;
      printf (_("merge workers: %u × %s\n"), n_same, b->description);
    }
  printf (_("stacks in flight at most: %u\n"), stats->in_flight);
  g_autofree char *peak = g_format_size_full (stats->host_peak_bytes, G_FORMAT_SIZE_IEC_UNITS);
  printf (_("host images: %llu allocations, %llu new (the rest reused); %s in use at most\n"),
          (unsigned long long) stats->host_allocations, (unsigned long long) stats->fresh_allocations, peak);
  printf (_("stage totals (summed over stacks; stages overlap):\n"));
  for (int s = 0; s < LM_STAGE_COUNT; s++)
    if (stats->stage_ms[s] >= 0.05 * MAX (n, 1)) /* a stage that ran: on the CPU, no copies */
      {
        g_autofree char *name = lm_pad_label (lm_batch_stage_name (s), 16);
        printf (_("  %s %10.1f ms  %8.1f ms/stack\n"), name, stats->stage_ms[s], n ? stats->stage_ms[s] / n : 0.0);
      }
  printf (_("wall: %.2f s, %.2f stacks/s\n"), stats->wall_s, stats->wall_s > 0 ? n / stats->wall_s : 0.0);
}

static int
compare_by_id (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(LmBatchStack *const *) a)->id, (*(LmBatchStack *const *) b)->id);
}

/* A stack whose output is in OUTDIR, and what is known of it. */
typedef struct {
  LmBatchStack *stack;
  char *path;
  const LmJournalDone *record; /* NULL: no whole done record of this version */
  gboolean redone;             /* its latest record is a redo: whatever is there is not it */
} Present;

typedef enum {
  OUTPUT_DONE,      /* as its done record says */
  OUTPUT_CHANGED,   /* not as its done record says, or undone by a redo record */
  OUTPUT_UNPROVEN,  /* no whole done record */
} OutputState;

/* Whether the output of P is what its done record says. One that is not goes (it must not
 * pass for a result should its stack fail now), after a redo record where a done record
 * names it. Without a record nothing proves the output whole, whatever its size: a run
 * killed between the rename and the append left a complete one, a copy cut short or a
 * journal cut inside the record a partial one. */
static gboolean
check_output (LmJournal *journal, Present *present, const LmOutputSum *found, OutputState *state, GError **error)
{
  const LmJournalDone *r = present->record;
  g_autofree char *display = g_filename_display_name (present->path);
  g_autofree char *reason = NULL;
  *state = OUTPUT_DONE;
  if (r == NULL)
    *state = present->redone ? OUTPUT_CHANGED : OUTPUT_UNPROVEN;
  else if (found->size < 0)
    reason = g_strdup_printf (_("%s: cannot be read: merged again"), display);
  else if (r->sum.size != found->size)
    reason = g_strdup_printf (_("%s: %lld bytes where the journal recorded %lld: merged again"), display,
                              (long long) found->size, (long long) r->sum.size);
  else if (r->sum.crc != found->crc)
    reason = g_strdup_printf (_("%s: its bytes are not those the journal recorded (CRC-32): merged again"),
                              display);
  if (reason)
    {
      *state = OUTPUT_CHANGED;
      if (!lm_journal_redo (journal, present->stack->id, reason, error))
        return FALSE;
    }
  /* Only a file (or a link) goes: a fifo or a device under the output's name stays, and
   * its stack's commit refuses it by name. */
  GStatBuf st;
  if (*state != OUTPUT_DONE && g_lstat (present->path, &st) == 0 && (S_ISREG (st.st_mode) || S_ISLNK (st.st_mode)))
    g_unlink (present->path);
  return TRUE;
}

/* Says what the journals hold that counts for nothing. */
static void
print_notes (const LmJournalSummary *journals, const char *outdir)
{
  g_autoptr (GPtrArray) notes = lm_journal_summary_notes (journals, outdir);
  for (guint i = 0; i < notes->len; i++)
    lm_cli_error ("%s", (const char *) notes->pdata[i]);
}

/* The share's stacks not done yet. An output under its final name is done when a whole done
 * record gives it and it has that record's size and CRC-32 (all read back, a few files at a
 * time); any other is merged again. */
GPtrArray *
lm_cli_batch_todo (const char *outdir, const char *ext, const LmShard *shard, guint read_threads, LmBatchList *list,
                   LmJournal *journal, guint *before, GError **error)
{
  g_autoptr (GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) mine = g_ptr_array_new ();
  for (guint k = 0; k < list->stacks->len; k++)
    if (lm_shard_takes (shard, k))
      {
        LmBatchStack *s = list->stacks->pdata[k];
        g_ptr_array_add (mine, s);
        g_hash_table_add (ids, s->id);
      }
  guint removed = 0;
  g_autoptr (GHashTable) present = lm_batch_scan_outdir (outdir, ids, ext, &removed, error);
  if (present == NULL)
    return NULL;
  g_autoptr (LmJournalSummary) journals = lm_journal_read_all (outdir, error);
  if (journals == NULL)
    return NULL;
  print_notes (journals, outdir);

  g_autoptr (GPtrArray) todo = g_ptr_array_new ();
  g_autoptr (GArray) outputs = g_array_new (FALSE, FALSE, sizeof (Present));
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < mine->len; i++)
    {
      LmBatchStack *s = mine->pdata[i];
      if (!g_hash_table_contains (present, s->id))
        {
          g_ptr_array_add (todo, s);
          continue;
        }
      Present o = { s, lm_batch_output_path (outdir, s->id, ext),
                    g_hash_table_lookup (journals->done, s->id), g_hash_table_contains (journals->redone, s->id) };
      g_array_append_val (outputs, o);
      g_ptr_array_add (paths, o.path); /* owns it */
    }
  g_autofree LmOutputSum *found = g_new0 (LmOutputSum, MAX (outputs->len, 1));
  lm_output_sum_files (paths, read_threads ? read_threads : 4, found);

  *before = 0;
  guint changed = 0, unproven = 0;
  for (guint i = 0; i < outputs->len; i++)
    {
      Present *o = &g_array_index (outputs, Present, i);
      OutputState state;
      if (!check_output (journal, o, &found[i], &state, error))
        return NULL;
      if (state == OUTPUT_DONE)
        ++*before;
      else
        g_ptr_array_add (todo, o->stack);
      changed += state == OUTPUT_CHANGED;
      unproven += state == OUTPUT_UNPROVEN;
    }
  if (changed)
    fprintf (stderr, _("lumen-cli: outputs not as the journal recorded them (cut short or changed since), merged "
                       "again: %u\n"),
             changed);
  if (unproven)
    lm_cli_error (_("outputs with no whole done record in the journals (nothing proves them complete), merged "
                    "again: %u"),
                  unproven);
  /* The list's order, as a clean run would take them. */
  g_ptr_array_sort (todo, compare_by_id);
  return g_steal_pointer (&todo);
}

/* FALSE with ERROR when the batch could not run or was stopped; FAILED: stacks that failed. */
static gboolean
run_batch (const Options *o, Plan *p, LmBatchList *list, guint *failed, GError **error)
{
  if (o->response_in)
    {
      if (!lm_response_load (&p->config.merge.response, o->response_in, error))
        return FALSE;
      p->config.response_given = TRUE;
    }
  if (!lm_outdir_make (p->config.outdir, error))
    return FALSE;
  g_autoptr (LmOutdirLock) lock = lm_cli_batch_admit (p->config.outdir, &p->shard, list, error);
  if (lock == NULL)
    return FALSE;

  p->config.backends = lm_batch_backends_open (p->backend, p->devices, (guint) p->jobs, error);
  if (p->config.backends == NULL)
    return FALSE;
  open_decoder (p);
  open_encoder (p);

  guint share = lm_cli_batch_share (&p->shard, list), before = 0;
  LmJournal *journal = lm_journal_open (p->config.outdir, &p->shard, share, list->stacks->len, error);
  if (journal == NULL)
    return FALSE;
  g_autoptr (GPtrArray) todo = lm_cli_batch_todo (p->config.outdir, p->config.ext, &p->shard, p->config.read_threads, list,
                                                journal, &before, error);
  LmBatchStats stats = { 0 };
  gboolean ok = todo && lm_batch_run (&p->config, todo, share, before, journal, &stats, error);
  lm_cli_batch_close_journal (journal, &ok, error);
  if (todo && o->timings)
    print_timings (p, &stats);
  if (stats.retried)
    lm_cli_error (g_dngettext (NULL, "note: %u stack was merged again after a GPU error",
                               "note: %u stacks were merged again after a GPU error", stats.retried),
                  stats.retried);
  /* One line for the run, however many stacks: each stack's notes are in the list. */
  if (stats.noted)
    {
      g_autofree char *name = lm_shard_file_name (&p->shard, "notes");
      g_autofree char *path = g_build_filename (p->config.outdir, name, NULL);
      g_autofree char *display = g_filename_display_name (path);
      lm_cli_error (g_dngettext (NULL,
                                 "note: %u stack merged with notes (what a loader or the writer could not keep "
                                 "as the files have it, such as an ICC profile): see %s",
                                 "note: %u stacks merged with notes (what a loader or the writer could not keep "
                                 "as the files have it, such as an ICC profile): see %s",
                                 stats.noted),
                    stats.noted, display);
    }
  *failed = stats.failed;
  return ok;
}

static int
run (const Options *o, Plan *p)
{
  GError *error = NULL;
  g_autoptr (LmBatchList) list = lm_batch_list_new ((const char *const *) o->inputs, &error);
  if (list == NULL)
    return lm_cli_batch_list_failed (error);
  if (list->empty_input)
    {
      /* Refused before OUTDIR is touched: a journal of nothing would read as a finished batch. */
      g_autofree char *display = g_filename_display_name (list->empty_input);
      lm_cli_error (_("%s: holds no stacks: an INPUT is a folder of stack folders, each with 2 or more "
                      "exposures (and optionally exposures.txt), or a manifest .tsv of "
                      "stack_id<TAB>image<TAB>seconds lines"),
                    display);
      return LM_EXIT_FAILURE;
    }
  guint failed = 0;
  gboolean ok = run_batch (o, p, list, &failed, &error);
  return lm_cli_batch_exit (ok, failed, error);
}

LmOutdirLock *
lm_cli_batch_admit (const char *outdir, const LmShard *shard, LmBatchList *list, GError **error)
{
  g_autoptr (LmOutdirLock) lock = lm_outdir_lock_new (outdir, shard, error);
  if (lock == NULL)
    return NULL;
  g_autoptr (GPtrArray) ids = g_ptr_array_new ();
  for (guint k = 0; k < list->stacks->len; k++)
    g_ptr_array_add (ids, ((LmBatchStack *) list->stacks->pdata[k])->id);
  if (!lm_stack_list_write (outdir, ids, error))
    return NULL;
  lm_outdir_lock_admitted (lock);
  return g_steal_pointer (&lock);
}

guint
lm_cli_batch_share (const LmShard *shard, const LmBatchList *list)
{
  guint share = 0;
  for (guint k = 0; k < list->stacks->len; k++)
    share += lm_shard_takes (shard, k);
  return share;
}

void
lm_cli_batch_close_journal (LmJournal *journal, gboolean *ok, GError **error)
{
  GError *close_error = NULL;
  if (lm_journal_close (journal, *ok, &close_error))
    return;
  if (*ok)
    g_propagate_error (error, close_error), *ok = FALSE;
  else
    g_error_free (close_error);
}

int
lm_cli_batch_list_failed (GError *error)
{
  /* An INPUT that names nothing usable is a misused command; a manifest that cannot be read
   * (a fifo, a device, too large) or is not a list of what the batch takes is bad input. */
  int rc = LM_EXIT_FAILURE;
  if (g_error_matches (error, LUMEN_ERROR, LM_ERROR_INVALID))
    rc = lm_cli_usage_error (error->message);
  else
    lm_cli_error ("%s", error->message);
  g_error_free (error);
  return rc;
}

int
lm_cli_batch_exit (gboolean ok, guint failed, GError *error)
{
  if (ok)
    return failed ? LM_EXIT_FAILURE : LM_EXIT_OK;
  if (g_error_matches (error, LUMEN_ERROR, LM_ERROR_NO_SPACE))
    lm_cli_error (_("%s. The batch stopped: rerun the same command once there is space"), error->message);
  else
    lm_cli_error ("%s", error->message);
  g_error_free (error);
  return LM_EXIT_FAILURE;
}

/* The stacks' calibrations run side by side, one per worker: an OpenBLAS under LAPACK would
 * start threads of its own in each and oversubscribe the cores. Other LAPACKs lack the call. */
static void
single_threaded_lapack (void)
{
  void (*set_threads) (int) = (void (*) (int)) dlsym (RTLD_DEFAULT, "openblas_set_num_threads");
  if (set_threads)
    set_threads (1);
}

int
lm_cli_batch_main (int argc, char **argv)
{
  /* `batch develop` and `batch detect-objects` are batches of photos rather than stacks, with
   * options of their own. */
  if (argc > 1 && g_str_equal (argv[1], "develop"))
    {
      g_set_prgname ("lumen-cli batch develop");
      return lm_cli_batch_develop_main (argc - 1, argv + 1);
    }
  if (argc > 1 && g_str_equal (argv[1], "detect-objects"))
    {
      g_set_prgname ("lumen-cli batch detect-objects");
      return lm_cli_batch_objects_main (argc - 1, argv + 1);
    }

  Options o = { .tone = LM_CLI_TONE_INIT, .quality = 92, .png_level = LM_PNG_LEVEL_DEFAULT };
  const GOptionEntry entries[] = {
    { "backend", 0, 0, G_OPTION_ARG_STRING, &o.backend, N_("Where to merge: auto (default), cpu or cuda"), N_("BACKEND") },
    { "devices", 0, 0, G_OPTION_ARG_STRING, &o.devices, N_("GPUs to use: all (default) or a list such as 0,1"), N_("LIST") },
    { "decoder", 0, 0, G_OPTION_ARG_STRING, &o.decoder, N_("JPEG decoder: cpu (libjpeg-turbo, default: the pixels of “lumen-cli hdr”), nvjpeg (the GPU) or auto"), N_("DECODER") },
    { "encoder", 0, 0, G_OPTION_ARG_STRING, &o.encoder, N_("JPEG encoder: cpu (libjpeg-turbo, default: the bytes of “lumen-cli hdr”), nvjpeg (the GPU) or auto"), N_("ENCODER") },
    { "read-threads", 0, 0, G_OPTION_ARG_INT, &o.read_threads, N_("Threads reading files (default 4; more for network storage; at most 64, or 8 per core)"), N_("N") },
    { "jobs", 0, 0, G_OPTION_ARG_INT, &o.jobs, N_("Merge workers per device (default 4 per GPU; on the CPU, one per core up to 16; at most 16, or one per core)"), N_("N") },
    { "in-flight", 0, 0, G_OPTION_ARG_INT, &o.in_flight, N_("Stacks in memory at once (default: read threads + writers + 2 × workers + 2, writers being one per core, two for radiance; at most that with --read-threads and --jobs at their caps)"), N_("N") },
    { "method", 0, 0, G_OPTION_ARG_STRING, &o.method, N_("Merge method: debevec (default), robertson or mertens"), N_("METHOD") },
    { "response-in", 0, 0, G_OPTION_ARG_FILENAME, &o.response_in, N_("One camera's response for every stack instead of calibrating each"), N_("FILE") },
    { "align", 0, 0, G_OPTION_ARG_NONE, &o.align, N_("Align each stack's exposures first (median threshold bitmaps)"), NULL },
    { "tonemap", 0, 0, G_OPTION_ARG_STRING, &o.tone.tonemap, N_("none (radiance, for hdr), gamma, reinhard (default), drago or sigmoid (scene-referred)"), N_("OP") },
    { NULL },
  };
  const GOptionEntry entries_after[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &o.format, N_("Output format: hdr (radiance, default), exr, jpg, png or tif"), N_("FORMAT") },
    { "quality", 0, 0, G_OPTION_ARG_INT, &o.quality, N_("JPEG quality, 1..100 (default 92)"), N_("Q") },
    LM_CLI_NUMBER_ENTRY ("png-level", N_("PNG compression level, 0 (none, fastest) .. 9 (smallest) (default 1)"),
                         N_("LEVEL")),
    { "shard", 0, 0, G_OPTION_ARG_STRING, &o.shard, N_("Take share I of N of the sorted stacks (default: from a Slurm array or a Kubernetes indexed job)"), N_("I/N") },
    { "shard-count", 0, 0, G_OPTION_ARG_INT, &o.shard_count, N_("With JOB_COMPLETION_INDEX (Kubernetes): the job's completions"), N_("N") },
    { "progress", 0, 0, G_OPTION_ARG_STRING, &o.progress, N_("auto (default: a bar on a terminal, else plain), bar, plain or none"), N_("MODE") },
    { "timings", 0, 0, G_OPTION_ARG_NONE, &o.timings, N_("Print where the time went and which decoder ran"), NULL },
    { "report", 0, 0, G_OPTION_ARG_FILENAME, &o.report, N_("Sum the journals of OUTDIR: done, failed, remaining, throughput"), N_("OUTDIR") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output, N_("Write OUTDIR/<stack id>.<format> here, with the journals"), N_("OUTDIR") },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.inputs, NULL, NULL },
    { NULL },
  };
  static LmCliNumber numbers[1];
  numbers[0] = (LmCliNumber) { "--png-level", 0, 9, TRUE, &o.png_level };
  lm_cli_numbers_add (numbers, G_N_ELEMENTS (numbers));
  g_autoptr (GOptionContext) context
    = lm_cli_options_new (_("-o OUTDIR INPUT…"),
                          _("Merges many bracketed stacks, each as “lumen-cli hdr” would. An INPUT is a "
                            "folder of stack folders (each with its exposures and, optionally, "
                            "exposures.txt) or a manifest (.tsv: stack_id, image, seconds per line).\n"
                            "A rerun of the same command skips finished stacks."),
                          NULL, NULL, entries);
  lm_cli_tone_add_entries (context, &o.tone);
  g_option_context_add_main_entries (context, entries_after, GETTEXT_PACKAGE);

  int rc;
  GError *e = NULL;
  Plan p = { 0 };
  if (!lm_cli_options_parse (context, &argc, &argv))
    rc = LM_EXIT_USAGE;
  else if (o.report)
    rc = o.output || o.inputs ? lm_cli_usage_error (_("--report OUTDIR takes nothing else"))
                              : lm_cli_batch_report (o.report, FALSE);
  else if (!plan (&o, &p, &e) || !lm_batch_crash_points_init (&e))
    rc = lm_cli_usage_error (e->message);
  else
    {
      single_threaded_lapack ();
      rc = run (&o, &p);
    }
  g_clear_error (&e);
  g_clear_pointer (&p.config.nvjpeg, lm_nvjpeg_free);
  g_clear_pointer (&p.config.nvjpeg_devices, g_array_unref);
  g_clear_pointer (&p.config.backends, g_ptr_array_unref);
  g_free (p.nvjpeg_reason);
  g_free (p.encoder_reason);
  g_free (p.encoder_description);
  g_clear_pointer (&p.devices, g_array_unref);
  g_free (o.backend), g_free (o.devices), g_free (o.decoder), g_free (o.encoder), g_free (o.method), g_free (o.response_in), g_free (o.tone.tonemap);
  g_free (o.format), g_free (o.shard), g_free (o.progress), g_free (o.output), g_free (o.report);
  g_strfreev (o.inputs);
  return rc;
}
