/* Object detection over many photos (objects-batch.h). */
#include "objects-batch.h"

#include <omp.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "../detect/annotate.h"
#include "../error.h"
#include "../io/io.h"
#include "../render/objects-run.h"
#include "develop-list.h"

typedef struct {
  const LmObjectsBatchConfig *config;
  GPtrArray *photos;
  GMutex lock; /* photos */
} Run;

typedef struct {
  const LmBatchStack *stack;
  LmImage *image;
  GArray *boxes;
} Job;

void
lm_objects_batch_photo_free (LmObjectsBatchPhoto *photo)
{
  g_free (photo->id);
  g_clear_pointer (&photo->boxes, g_array_unref);
  g_free (photo->error);
  g_free (photo);
}

static gpointer
start (gpointer data, gpointer input)
{
  Job *job = g_new0 (Job, 1);
  job->stack = input;
  return job;
}

/* Decoded in host memory: the detection looks at the photo's gray there. */
static gboolean
load (LmPhotoStream *stream, gpointer data, gpointer item, GError **error)
{
  Job *job = item;
  const char *photo = lm_develop_photo_of (job->stack);
  if (job->stack->problem)
    {
      g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_INVALID, job->stack->problem);
      return FALSE;
    }
  job->image = lm_io_load (photo, lm_allocator_host (), error);
  if (job->image == NULL)
    return FALSE;
  if (job->image->format == LM_FORMAT_RGBA_F32)
    {
      lm_set_file_error (error, LM_ERROR_INVALID, photo, _("is an HDR radiance map; objects are found in 8-bit photos"));
      return FALSE;
    }
  return TRUE;
}

/* E's code as a LUMEN_ERROR, for a message that names the photo: a device's failure stays
 * one (it stops the run), a cancellation or another domain's error is the photo's. */
static LmErrorCode
error_code (const GError *e)
{
  return e->domain == LUMEN_ERROR ? (LmErrorCode) e->code : LM_ERROR_INVALID;
}

static gboolean
detect (LmPhotoStream *stream, gpointer data, guint worker, gpointer item, GError **error)
{
  Run *run = data;
  Job *job = item;
  const LmObjectsBatchConfig *c = run->config;
  LmBackend *backend = g_ptr_array_index (c->backends, worker);
  /* On the CPU the workers are side by side on the cores: each detection's rows share what
   * is left of them. */
  if (lm_backend_cuda_device (backend) < 0)
    omp_set_num_threads ((int) MAX (1, g_get_num_processors () / c->backends->len));
  GError *e = NULL;
  job->boxes = lm_objects_detect_photo (backend, c->cascade, job->image, &c->params, c->cancellable, &e);
  if (job->boxes == NULL)
    {
      lm_set_file_error (error, error_code (e), lm_develop_photo_of (job->stack), "%s", e->message);
      g_error_free (e);
      return FALSE;
    }
  if (c->draw_dir == NULL && c->blur_dir == NULL)
    g_clear_pointer (&job->image, lm_image_unref);
  return TRUE;
}

/* The photo outlined (on a copy: a blur after it starts from the photo as it was) and
 * blurred, each committed under the photo's name by lm_io_save's rename. */
static gboolean
write_annotated (LmPhotoStream *stream, gpointer data, gpointer item, GError **error)
{
  Run *run = data;
  Job *job = item;
  const LmObjectsBatchConfig *c = run->config;
  LmImage *image = job->image;
  const LmCascadeBox *found = (const LmCascadeBox *) (gpointer) job->boxes->data;
  if (image == NULL)
    return TRUE;
  const char *photo = lm_develop_photo_of (job->stack);
  GError *e = NULL;
  if (c->draw_dir)
    {
      static const guint8 green[3] = { 0, 255, 0 };
      g_autofree char *path = g_build_filename (c->draw_dir, job->stack->id, NULL);
      g_autoptr (LmImage) drawn = lm_image_cut (image, 0, 0, image->width, image->height, lm_allocator_host (), &e);
      if (drawn)
        lm_image_copy_metadata (drawn, image);
      if (drawn == NULL || !lm_annotate_draw (drawn, found, job->boxes->len, green, &e))
        goto annotate_failed;
      if (!lm_io_save (drawn, path, NULL, error))
        return FALSE;
    }
  if (c->blur_dir)
    {
      g_autofree char *path = g_build_filename (c->blur_dir, job->stack->id, NULL);
      if (!lm_annotate_blur (image, found, job->boxes->len, &e))
        goto annotate_failed;
      if (!lm_io_save (image, path, NULL, error))
        return FALSE;
    }
  return TRUE;

annotate_failed:
  lm_set_file_error (error, error_code (e), photo, "%s", e->message);
  g_error_free (e);
  return FALSE;
}

static void
finish (LmPhotoStream *stream, gpointer data, gpointer item, gboolean done, const GError *error)
{
  Run *run = data;
  Job *job = item;
  g_clear_pointer (&job->image, lm_image_unref);
  if (done || error)
    {
      LmObjectsBatchPhoto *p = g_new0 (LmObjectsBatchPhoto, 1);
      p->id = g_strdup (job->stack->id);
      if (error)
        p->error = g_strdup (error->message);
      else
        p->boxes = g_steal_pointer (&job->boxes);
      g_mutex_lock (&run->lock);
      g_ptr_array_add (run->photos, p);
      g_mutex_unlock (&run->lock);
    }
  g_clear_pointer (&job->boxes, g_array_unref);
  g_free (job);
}

static const LmPhotoStages stages = { start, load, detect, write_annotated, finish };

static int
compare_ids (gconstpointer a, gconstpointer b)
{
  return strcmp ((*(LmObjectsBatchPhoto *const *) a)->id, (*(LmObjectsBatchPhoto *const *) b)->id);
}

gboolean
lm_objects_batch_run (const LmObjectsBatchConfig *config, GPtrArray *todo, GPtrArray *photos,
                      LmPhotoStreamStats *stats, GError **error)
{
  Run run = { .config = config, .photos = photos };
  g_mutex_init (&run.lock);
  LmPhotoStreamConfig stream = { .threads = config->load_threads, .workers = config->backends->len,
                                 .progress = config->progress, .progress_data = config->progress_data,
                                 .cancellable = config->cancellable };
  gboolean ok = lm_photo_stream_run (&stages, &stream, &run, todo, stats, error);
  g_mutex_clear (&run.lock);
  g_ptr_array_sort (photos, compare_ids);
  return ok;
}

static gboolean
same_file (const char *a, const char *b)
{
  GStatBuf x, y;
  return g_stat (a, &x) == 0 && g_stat (b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

gboolean
lm_objects_batch_outputs_apart (GPtrArray *todo, const char *output, const char *const *dirs, guint n,
                                GError **error)
{
  for (guint i = 0; i < n; i++)
    for (guint j = i + 1; j < n; j++)
      if (dirs[i] && dirs[j] && (g_str_equal (dirs[i], dirs[j]) || same_file (dirs[i], dirs[j])))
        {
          g_autofree char *display = g_filename_display_name (dirs[i]);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("%s: the outlined and the blurred photos would have the same names there: give two "
                         "folders"),
                       display);
          return FALSE;
        }
  for (guint k = 0; k < todo->len; k++)
    {
      const LmBatchStack *s = todo->pdata[k];
      const char *photo = lm_develop_photo_of (s);
      gboolean clash = output && same_file (output, photo);
      for (guint i = 0; i < n && !clash; i++)
        if (dirs[i])
          {
            g_autofree char *path = g_build_filename (dirs[i], s->id, NULL);
            clash = same_file (path, photo);
          }
      if (clash)
        {
          g_autofree char *display = g_filename_display_name (photo);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_INVALID,
                       _("“%s” would be replaced by an output of the batch: choose another folder"), display);
          return FALSE;
        }
    }
  return TRUE;
}
