/* TIFF strips compressed on every core; see tiff-strips.h. libtiff has no public call that
 * compresses one strip, so each job of consecutive strips is written by libtiff's codec into
 * a TIFF in memory of the job's rows with the file's layout: a strip's bytes depend only on
 * its rows and the layout (codecs and predictors start afresh at each strip), so they are
 * the bytes of the same strip in the whole file. */
#include <string.h>
#include <omp.h>
#include <glib/gi18n.h>

#include "tiff-io.h"
#include "tiff-strips.h"

/* Rows a job compresses: large enough that opening a TIFF in memory per job costs nothing
 * measurable, small enough that two threads get dozens of jobs at 24 MP and a wave of them
 * stays a few MiB. */
#define JOB_BYTES ((gsize) 1 << 20)
#define WORKERS_BYTES ((gsize) 256 << 20) /* what the workers' strips may hold together (one worker whatever its strip) */

typedef struct {
  const LmImage *image;
  guint32 width, rows_per_strip;
  guint16 spp, bits, photometric, compression, predictor;
  gsize row_bytes; /* one row in the file */
} Layout;

typedef struct {
  guint first_strip, n_strips;
  TiffIo io;        /* the job's TIFF in memory: its buffer is kept from wave to wave */
  guint64 *offsets; /* of each strip in io.buffer */
  guint64 *counts;
  gboolean failed;
} Job;

/* Rows Y0..Y0+N-1 as the file stores them: alpha left out where the file has none. */
static void
pack_rows (const Layout *l, guint y0, guint n, guint8 *out)
{
  gsize bytes = l->bits / 8;
  gboolean drop_alpha = l->spp == 3;
  for (guint y = y0; y < y0 + n; y++, out += l->row_bytes)
    {
      const guint8 *in = lm_image_row (l->image, y);
      if (!drop_alpha)
        memcpy (out, in, l->row_bytes);
      else
        for (guint x = 0; x < l->width; x++)
          memcpy (out + 3 * bytes * x, in + 4 * bytes * x, 3 * bytes);
    }
}

static void
set_layout (TIFF *t, const Layout *l, guint32 height)
{
  TIFFSetField (t, TIFFTAG_IMAGEWIDTH, l->width);
  TIFFSetField (t, TIFFTAG_IMAGELENGTH, height);
  TIFFSetField (t, TIFFTAG_SAMPLESPERPIXEL, l->spp);
  TIFFSetField (t, TIFFTAG_BITSPERSAMPLE, l->bits);
  TIFFSetField (t, TIFFTAG_PHOTOMETRIC, l->photometric);
  TIFFSetField (t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
  TIFFSetField (t, TIFFTAG_COMPRESSION, l->compression);
  if (l->predictor != PREDICTOR_NONE)
    TIFFSetField (t, TIFFTAG_PREDICTOR, l->predictor);
  TIFFSetField (t, TIFFTAG_ROWSPERSTRIP, l->rows_per_strip);
}

/* The job's strips into its TIFF in memory; ROWS holds one strip of packed rows. */
static void
compress_job (const Layout *l, Job *job, guint8 *rows)
{
  guint y0 = job->first_strip * l->rows_per_strip;
  guint y1 = MIN (l->image->height, y0 + job->n_strips * l->rows_per_strip);
  TIFF *t = lm_tiff_open_scratch ("strips", &job->io);
  if (t == NULL)
    {
      job->failed = TRUE;
      return;
    }
  set_layout (t, l, y1 - y0);
  job->failed = FALSE;
  for (guint s = 0; s < job->n_strips && !job->failed; s++)
    {
      guint y = y0 + s * l->rows_per_strip, n = MIN (l->rows_per_strip, y1 - y);
      pack_rows (l, y, n, rows);
      job->failed = TIFFWriteEncodedStrip (t, s, rows, (tmsize_t) (n * l->row_bytes)) < 0;
      job->offsets[s] = TIFFGetStrileOffset (t, s);
      job->counts[s] = TIFFGetStrileByteCount (t, s);
    }
  /* Frees the TIFF; the directory it writes at the end of the buffer is never read. */
  TIFFCleanup (t);
}

gboolean
lm_tiff_write_strips (TIFF *tif, const LmImage *image, guint spp, char *message)
{
  Layout l = { .image = image, .width = image->width, .spp = (guint16) spp };
  TIFFGetFieldDefaulted (tif, TIFFTAG_BITSPERSAMPLE, &l.bits);
  TIFFGetFieldDefaulted (tif, TIFFTAG_ROWSPERSTRIP, &l.rows_per_strip);
  TIFFGetFieldDefaulted (tif, TIFFTAG_COMPRESSION, &l.compression);
  TIFFGetFieldDefaulted (tif, TIFFTAG_PREDICTOR, &l.predictor);
  TIFFGetField (tif, TIFFTAG_PHOTOMETRIC, &l.photometric);
  l.rows_per_strip = MAX (1u, MIN (l.rows_per_strip, image->height));
  l.row_bytes = (gsize) image->width * spp * (l.bits / 8);

  gsize strip_bytes = l.rows_per_strip * l.row_bytes;
  guint n_strips = (image->height + l.rows_per_strip - 1) / l.rows_per_strip;
  guint strips_per_job = (guint) CLAMP (JOB_BYTES / strip_bytes, 1, n_strips);
  guint n_jobs = (n_strips + strips_per_job - 1) / strips_per_job;
  /* Waves of several jobs a thread, written in order between waves (as png-deflate.c). */
  guint n_workers = (guint) MAX (1, MIN ((guint) omp_get_max_threads (), n_jobs));
  /* Each worker holds a strip, each job of a wave at least one compressed: a row of a very
   * wide image is a strip, and the cores would multiply it. */
  n_workers = (guint) MAX (1, MIN (n_workers, WORKERS_BYTES / (5 * strip_bytes)));
  guint wave = MIN (n_jobs, 4 * n_workers);
  g_autofree Job *jobs = g_new0 (Job, wave);
  g_autofree guint8 **rows = g_new0 (guint8 *, n_workers);
  gboolean no_memory = FALSE, failed = FALSE;
  for (guint k = 0; k < wave && !no_memory; k++)
    {
      jobs[k].offsets = g_try_new (guint64, strips_per_job);
      jobs[k].counts = g_try_new (guint64, strips_per_job);
      no_memory = jobs[k].offsets == NULL || jobs[k].counts == NULL;
    }
  for (guint t = 0; t < n_workers && !no_memory; t++)
    no_memory = (rows[t] = g_try_malloc (strip_bytes)) == NULL;

  for (guint start = 0; start < n_jobs && !no_memory && !failed; start += wave)
    {
      guint count = MIN (wave, n_jobs - start);
#pragma omp parallel for schedule(dynamic) num_threads(n_workers)
      for (guint k = 0; k < count; k++)
        {
          Job *job = &jobs[k];
          job->first_strip = (start + k) * strips_per_job;
          job->n_strips = MIN (strips_per_job, n_strips - job->first_strip);
          compress_job (&l, job, rows[omp_get_thread_num ()]);
        }
      for (guint k = 0; k < count && !failed; k++)
        {
          Job *job = &jobs[k];
          if (job->failed)
            {
              if (message[0] == '\0')
                g_strlcpy (message, job->io.message[0] ? job->io.message : _("not enough memory"), 256);
              failed = TRUE;
            }
          /* In order on this thread: a failed write stops here, never inside a worker. */
          for (guint s = 0; s < job->n_strips && !failed; s++)
            failed = TIFFWriteRawStrip (tif, job->first_strip + s, job->io.buffer + job->offsets[s],
                                        (tmsize_t) job->counts[s]) < 0;
        }
    }
  for (guint k = 0; k < wave; k++)
    {
      g_free (jobs[k].io.buffer);
      g_free (jobs[k].offsets);
      g_free (jobs[k].counts);
    }
  for (guint t = 0; t < n_workers; t++)
    g_free (rows[t]);
  if (no_memory && message[0] == '\0')
    g_strlcpy (message, _("not enough memory"), 256);
  return !no_memory && !failed;
}
