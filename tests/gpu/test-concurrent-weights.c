/* Two CUDA backends on one device, each driven by its own thread, as lumen-cli batch develop's
 * render workers and the window's worker beside Apply Edits' are: sharpen and blur (direct and
 * grid methods) with different radii on each, at once. Each launch's weights must be its own:
 * weights kept in one place for the whole process are overwritten by the other stream between
 * their upload and the kernels that read them, and the pixels come out wrong.
 *
 * Each worker's results made alone are first checked against the CPU's (the parity contract:
 * sharpen exact, blur within 1); then both workers queue their operations round after round
 * at the same time, and every result must be the bytes it gave alone. Exit 77 (SKIP) without
 * a usable device; LUMEN_PARITY_SELF_TEST=1 puts CPU backends in the GPUs' place. */
#include <stdio.h>
#include <string.h>

#include "core/backend/backend.h"
#include "core/edit/commit.h"
#include "core/ops/ops.h"
#include "parity-util.h"

#define ROUNDS 24
#define N_OPS 3

typedef struct {
  const char *op;
  const char *settings; /* name=value pairs, as lumen-cli --op takes them */
  int tolerance;        /* max |Δ| against the CPU */
} Step;

/* Different weights on each side in every method: sharpen's radius, a direct blur's σ, a grid
 * blur's σ (different grid steps too). */
static const Step worker_steps[2][N_OPS] = {
  { { "sharpen", "amount=2 radius=0.6 threshold=0", 0 }, { "blur", "sigma=1.5", 1 }, { "blur", "sigma=40", 1 } },
  { { "sharpen", "amount=2 radius=7 threshold=0", 0 }, { "blur", "sigma=12", 1 }, { "blur", "sigma=130", 1 } },
};

typedef struct {
  LmBackend *backend;
  LmImage *source; /* on the backend's device */
  const Step *steps;
  guint8 params[N_OPS][LM_OP_PARAMS_MAX] __attribute__ ((aligned (8)));
  LmImage *alone[N_OPS]; /* host copies of the results made with the other worker idle */
  guint differing[N_OPS]; /* rounds whose result differs from ALONE */
  GError *error;
} Worker;

static LmBackend *cpu;
static GMutex start_lock;
static GCond start_cond;
static gboolean started;

/* Noise over gradients with a varying alpha: every weight shows in the output. */
static LmImage *
synthetic (LmBackend *gpu, guint w, guint h)
{
  LmImage *image = parity_poisoned (gpu, LM_FORMAT_RGBA8, w, h, 0);
  GRand *rand = g_rand_new_with_seed (33);
  for (guint y = 0; y < h; y++)
    {
      guint8 *row = lm_image_row (image, y);
      for (guint x = 0; x < w; x++)
        {
          int base = (int) (x * 255.0 / w * 0.6 + y * 255.0 / h * 0.4);
          for (int c = 0; c < 3; c++)
            row[4 * x + c] = (guint8) CLAMP (base + g_rand_int_range (rand, -60, 61) - 20 * c, 0, 255);
          row[4 * x + 3] = (guint8) g_rand_int_range (rand, 0, 256);
        }
    }
  image->opaque = FALSE;
  g_rand_free (rand);
  return image;
}

/* Each step of WORKER alone, from HOST, kept in worker->alone and checked against the CPU's. */
static void
make_alone (Worker *worker, const LmImage *host)
{
  GError *e = NULL;
  worker->source = lm_backend_upload (worker->backend, (LmImage *) host, &e);
  g_assert_no_error (e);
  for (int i = 0; i < N_OPS; i++)
    {
      const LmOpInfo *op = lm_op_info_by_name (worker->steps[i].op);
      g_assert_nonnull (op);
      parity_parse_settings (op, worker->steps[i].settings, worker->params[i]);
      g_autoptr (LmImage) want = parity_poisoned (worker->backend, host->format, host->width, host->height,
                                                  PARITY_POISON_CPU);
      g_assert_true (lm_backend_run_op (cpu, op, worker->params[i], host, want, &e));
      g_autoptr (LmImage) out = parity_poisoned_device (worker->backend, host->format, host->width, host->height);
      g_assert_true (lm_backend_run_op (worker->backend, op, worker->params[i], worker->source, out, &e));
      g_assert_no_error (e);
      worker->alone[i] = parity_download (worker->backend, out);
      guint64 pixels = 0;
      int d = parity_u8_distance (want, worker->alone[i], &pixels, NULL);
      parity_record (d <= worker->steps[i].tolerance, "alone: %s %s: max |Δ| %d against the CPU, %" G_GUINT64_FORMAT
                     " pixels differ", worker->steps[i].op, worker->steps[i].settings, d, pixels);
    }
}

/* ROUNDS of all the worker's steps queued back to back on its stream, then read back. */
static gpointer
work (gpointer data)
{
  Worker *worker = data;
  const LmImage *s = worker->source;
  LmImage *out[N_OPS];
  for (int i = 0; i < N_OPS; i++)
    out[i] = parity_poisoned_device (worker->backend, s->format, s->width, s->height);
  g_mutex_lock (&start_lock);
  while (!started)
    g_cond_wait (&start_cond, &start_lock);
  g_mutex_unlock (&start_lock);
  for (int round = 0; round < ROUNDS && worker->error == NULL; round++)
    {
      for (int i = 0; i < N_OPS && worker->error == NULL; i++)
        lm_backend_run_op (worker->backend, lm_op_info_by_name (worker->steps[i].op), worker->params[i], s, out[i],
                           &worker->error);
      for (int i = 0; i < N_OPS && worker->error == NULL; i++)
        {
          g_autoptr (LmImage) back = lm_backend_download (worker->backend, out[i], &worker->error);
          if (back != NULL && lm_backend_synchronize (worker->backend, &worker->error)
              && !parity_bytes_equal (back, worker->alone[i]))
            worker->differing[i]++;
        }
    }
  for (int i = 0; i < N_OPS; i++)
    lm_image_unref (out[i]);
  return NULL;
}

int
main (void)
{
  LmBackend *first;
  int skip = parity_open ("concurrent weights", TRUE, &cpu, &first);
  if (skip)
    return skip;
  GError *e = NULL;
  LmBackend *second = g_getenv ("LUMEN_PARITY_SELF_TEST") ? lm_backend_cpu_new ()
                                                         : lm_backend_new (LM_BACKEND_CUDA, &e);
  g_assert_no_error (e);

  Worker workers[2] = { { .backend = first, .steps = worker_steps[0] },
                        { .backend = second, .steps = worker_steps[1] } };
  g_autoptr (LmImage) host = synthetic (first, 1536, 1024);
  for (int w = 0; w < 2; w++)
    make_alone (&workers[w], host);

  GThread *threads[2];
  for (int w = 0; w < 2; w++)
    threads[w] = g_thread_new ("worker", work, &workers[w]);
  g_mutex_lock (&start_lock);
  started = TRUE;
  g_cond_broadcast (&start_cond);
  g_mutex_unlock (&start_lock);
  for (int w = 0; w < 2; w++)
    g_thread_join (threads[w]);

  for (int w = 0; w < 2; w++)
    {
      if (workers[w].error != NULL)
        parity_fail ("worker %d: %s", w + 1, workers[w].error->message);
      g_clear_error (&workers[w].error);
      for (int i = 0; i < N_OPS; i++)
        {
          parity_record (workers[w].differing[i] == 0, "together: %s %s: %u of %d rounds differ from it alone",
                         workers[w].steps[i].op, workers[w].steps[i].settings, workers[w].differing[i], ROUNDS);
          lm_image_unref (workers[w].alone[i]);
        }
      lm_image_unref (workers[w].source);
    }
  printf ("concurrent weights: %" G_GUINT64_FORMAT " cases, %" G_GUINT64_FORMAT " failed\n", parity_cases (),
          parity_failures ());
  lm_backend_free (second);
  lm_backend_free (first);
  lm_backend_free (cpu);
  return parity_failures () ? 1 : 0;
}
