/* Object detection's candidate windows on a CUDA backend (cuda-cascade.h). The levels of the
 * pyramid go to the device in groups that fit its memory (on a large GPU, all at once): each
 * group is resized and integrated (kernels/cascade-levels.cu), its windows' first stages
 * evaluated with OpenCV's skip rule, and the windows still standing taken through the later
 * stages in passes (kernels/cascade-scan.cu), each pass compacting the list, so that a warp's
 * lanes spend their time on windows that are still alive; long stages go a warp a window.
 * The host waits once a group, for the counts and the windows that passed; it sorts them as
 * the CPU scan orders them and makes their boxes with its lm_cascade_window_box. The buffers
 * are kept for the next photo until the backend's scratch is released. */
#include "config.h"

#include "cuda-cascade.h"
#include "cuda-private.h"

#include <string.h>
#include <glib/gi18n.h>

#include "../detect/cascade-sums.h"
#include "../error.h"
#include "kernels/cascade-kernels.h"

#define CHECK(call, error) LM_CUDA_CHECK (call, error)

/* The stages of the kernel that scans the rows: beyond the first, a window's stages are
 * cheapest while its row's neighbours are evaluated beside it (measured on an H200: two save
 * 1 to 2 ms at 24 MP against one; three, nothing more). */
#define FIRST_STAGES 2
/* Passes after those: one a stage to the eighth, then [8, 16), [16, 32)… */
#define PASSES_MAX 32

struct _LmCudaCascade {
  void *levels;   /* the group's gray levels and integrals */
  size_t levels_size;
  void *windows;  /* two lists of windows, and the cascade's arrays */
  size_t windows_size;
  unsigned *counts; /* a count a pass, on the device */
};

typedef struct {
  LmKCascadeLevel *levels; /* the group's, on the host */
  int *scale_index;        /* each one's among the photo's scales */
  int n_levels;
  size_t gray_bytes, cells; /* its buffers' sizes: bytes, and cells of each integral */
} Group;

typedef struct {
  int level, y, x;
} Found;

static int
by_level_y_x (gconstpointer pa, gconstpointer pb)
{
  const Found *a = pa, *b = pb;
  if (a->level != b->level)
    return a->level - b->level;
  if (a->y != b->y)
    return a->y - b->y;
  return a->x - b->x;
}

void
lm_cuda_cascade_release (LmBackendCuda *self)
{
  if (self->cascade == NULL)
    return;
  lm_cuda_free (self->cascade->levels);
  lm_cuda_free (self->cascade->windows);
  lm_cuda_free (self->cascade->counts);
  g_clear_pointer (&self->cascade, g_free);
}

static int
integrals_of (const LmCascade *c)
{
  return 1 + (c->kind == LM_CASCADE_HAAR) + (c->has_tilted != 0);
}

/* The bytes the cascade's arrays take on the device, each part aligned. */
#define ALIGN(n) (((n) + 255) & ~(size_t) 255)
static size_t
cascade_bytes (const LmCascade *c)
{
  return ALIGN (c->n_stages * sizeof (LmCascadeStage)) + ALIGN (c->n_stumps * sizeof (LmCascadeStump))
         + ALIGN (c->subsets ? (size_t) c->n_stumps * LM_CASCADE_LBP_WORDS * sizeof (uint32_t) : 0)
         + ALIGN (c->haar ? c->n_features * sizeof (LmHaarFeature) : 0)
         + ALIGN (c->lbp ? c->n_features * sizeof (LmLbpFeature) : 0) + 2 * ALIGN (c->n_stumps * sizeof (double));
}

/* The most and the least that the stumps after each stump of a stage can add to its sum. */
static void
rests (const LmCascade *c, double *most, double *least)
{
  for (unsigned s = 0; s < c->n_stages; s++)
    {
      const LmCascadeStage *stage = &c->stages[s];
      double hi = 0.0, lo = 0.0;
      for (unsigned i = stage->first + stage->n_stumps; i-- > stage->first;)
        {
          most[i] = hi;
          least[i] = lo;
          hi += MAX (c->stumps[i].left, c->stumps[i].right);
          lo += MIN (c->stumps[i].left, c->stumps[i].right);
        }
    }
}

/* C's arrays copied to DEVICE (cascade_bytes of it); *OUT is C with their device addresses,
 * REST_MAX and REST_MIN those of rests'. */
static gboolean
upload_cascade (LmBackendCuda *self, const LmCascade *c, guint8 *device, LmCascade *out, double **rest_max,
                double **rest_min, GError **error)
{
  *out = *c;
  g_autofree double *most = g_new (double, MAX (c->n_stumps, 1u)), *least = g_new (double, MAX (c->n_stumps, 1u));
  rests (c, most, least);
  struct {
    const void *host;
    size_t size;
    void **to;
  } parts[] = {
    { c->stages, c->n_stages * sizeof (LmCascadeStage), (void **) &out->stages },
    { c->stumps, c->n_stumps * sizeof (LmCascadeStump), (void **) &out->stumps },
    { c->subsets, c->subsets ? (size_t) c->n_stumps * LM_CASCADE_LBP_WORDS * sizeof (uint32_t) : 0,
      (void **) &out->subsets },
    { c->haar, c->haar ? c->n_features * sizeof (LmHaarFeature) : 0, (void **) &out->haar },
    { c->lbp, c->lbp ? c->n_features * sizeof (LmLbpFeature) : 0, (void **) &out->lbp },
    { most, c->n_stumps * sizeof (double), (void **) rest_max },
    { least, c->n_stumps * sizeof (double), (void **) rest_min },
  };
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      *parts[i].to = parts[i].size ? device : NULL;
      if (parts[i].size
          && !CHECK (cudaMemcpyAsync (device, parts[i].host, parts[i].size, cudaMemcpyHostToDevice, self->stream),
                     error))
        return FALSE;
      device += ALIGN (parts[i].size);
    }
  return TRUE;
}

static void
groups_free (GArray *groups)
{
  for (guint i = 0; i < groups->len; i++)
    {
      g_free (g_array_index (groups, Group, i).levels);
      g_free (g_array_index (groups, Group, i).scale_index);
    }
  g_array_unref (groups);
}

/* The levels that the photo's scales make, each with its windows, in groups of at most BUDGET
 * bytes of levels and integrals. FALSE with LM_ERROR_OUT_OF_MEMORY where one level alone is
 * larger. */
static GArray *
make_groups (const LmCascade *c, guint width, guint height, GArray *scales, size_t budget, GError **error)
{
  GArray *groups = g_array_new (FALSE, TRUE, sizeof (Group));
  if (scales->len == 0)
    return groups;
  float s0 = g_array_index (scales, float, 0);
  int stripes = lm_cascade_stripes (c, width, height, s0), lw0, lh0;
  lm_cascade_level_size (width, height, s0, &lw0, &lh0);
  size_t per_cell = (size_t) integrals_of (c) * sizeof (uint32_t);
  Group g = { g_new0 (LmKCascadeLevel, scales->len), g_new0 (int, scales->len) };
  for (guint i = 0; i < scales->len; i++)
    {
      float s = g_array_index (scales, float, i);
      int lw, lh;
      lm_cascade_level_size (width, height, s, &lw, &lh);
      /* As the CPU scan: a level larger than the first cannot come, but is skipped as there. */
      if (lw <= 0 || lh <= 0 || lw > lw0 || lh > lh0)
        continue;
      size_t gray = (size_t) lw * lh, cells = ((size_t) lw + 1) * ((size_t) lh + 1);
      size_t bytes = ALIGN (gray) + cells * per_cell;
      if (bytes > budget)
        {
          g_free (g.levels);
          g_free (g.scale_index);
          groups_free (groups);
          g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                       _("not enough device memory for the integral images of a %d × %d level (%.0f MB)"), lw, lh,
                       bytes / 1e6);
          return NULL;
        }
      if (g.n_levels > 0 && ALIGN (g.gray_bytes) + g.cells * per_cell + bytes > budget)
        {
          g_array_append_val (groups, g);
          g = (Group) { g_new0 (LmKCascadeLevel, scales->len), g_new0 (int, scales->len) };
        }
      g.scale_index[g.n_levels] = (int) i;
      LmKCascadeLevel *L = &g.levels[g.n_levels];
      const LmKCascadeLevel *prev = g.n_levels ? L - 1 : NULL;
      *L = (LmKCascadeLevel) { .width = lw, .height = lh, .scale = s, .step = lm_cascade_step (s),
                               .gray = g.gray_bytes, .cells = g.cells,
                               .first_row = prev ? prev->first_row + (unsigned) prev->height : 0,
                               .first_window_row = prev ? prev->first_window_row + (unsigned) prev->rows : 0,
                               .first_column = prev ? prev->first_column + (unsigned) prev->width + 1 : 0 };
      lm_cascade_windows (c, lw, lh, s, stripes, &L->columns, &L->rows);
      g.gray_bytes += gray;
      g.cells += cells;
      g.n_levels++;
    }
  if (g.n_levels > 0)
    g_array_append_val (groups, g);
  else
    {
      g_free (g.levels);
      g_free (g.scale_index);
    }
  return groups;
}

/* The windows of every level, as the CPU scan counts them. */
static unsigned long long
all_windows (const LmCascade *c, guint width, guint height, GArray *scales)
{
  if (scales->len == 0)
    return 0;
  int stripes = lm_cascade_stripes (c, width, height, g_array_index (scales, float, 0));
  unsigned long long n = 0;
  for (guint i = 0; i < scales->len; i++)
    {
      float s = g_array_index (scales, float, i);
      int lw, lh, columns, rows;
      lm_cascade_level_size (width, height, s, &lw, &lh);
      lm_cascade_windows (c, lw, lh, s, stripes, &columns, &rows);
      n += (unsigned long long) columns * rows;
    }
  return n;
}

/* The stage passes after the first kernel's FUSED stages: one a stage up to the eighth, where
 * most windows fall and a thread a window would wait on its warp's slowest, then [8, 16),
 * [16, 32)… A pass of stages of 64 stumps or more on average goes a warp a window (WIDE),
 * where the sums allow (measured on an H200: for stages of 30 to 60 stumps a thread a window
 * is as fast or faster). */
static guint
passes (const LmCascade *c, unsigned fused, unsigned first[PASSES_MAX], unsigned end[PASSES_MAX],
        gboolean wide[PASSES_MAX])
{
  gboolean exact = lm_cascade_sums_exact (c);
  guint n = 0;
  for (unsigned s = fused; s < c->n_stages && n < PASSES_MAX; s = end[n++])
    {
      first[n] = s;
      end[n] = MIN (s < 8 ? s + 1 : 2 * s, c->n_stages);
      unsigned stumps = c->stages[end[n] - 1].first + c->stages[end[n] - 1].n_stumps - c->stages[s].first;
      wide[n] = exact && stumps >= 64 * (end[n] - first[n]);
    }
  return n;
}

/* One group through the cascade; the windows that pass every stage join FOUND. CAPACITY is
 * the room of each list; where more windows stood, *NEEDED says how many and FOUND is left as
 * it was (TRUE: the group is to be run again with longer lists). */
static gboolean
run_group (LmBackendCuda *self, const LmCascade *dc, const double *const rest[2], const LmCascade *c, const Group *g,
           const guint8 *gray, guint width, guint height, LmKCascadeLevel *device_levels,
           LmKCascadeWindow *lists[2], unsigned capacity, unsigned *needed, GArray *found, GError **error)
{
  LmCudaCascade *w = self->cascade;
  if (!CHECK (cudaMemcpyAsync (device_levels, g->levels, g->n_levels * sizeof (LmKCascadeLevel),
                               cudaMemcpyHostToDevice, self->stream), error))
    return FALSE;
  guint8 *base = w->levels;
  size_t cells = g->cells, per = cells * sizeof (uint32_t);
  uint32_t *sum = (uint32_t *) (base + ALIGN (g->gray_bytes));
  LmKCascadeGroup kg = {
    .levels = device_levels, .n_levels = g->n_levels, .gray = base, .sum = sum,
    .sqsum = c->kind == LM_CASCADE_HAAR ? (uint32_t *) ((guint8 *) sum + per) : NULL,
    .tilted = c->has_tilted ? (uint32_t *) ((guint8 *) sum + per * (integrals_of (c) - 1)) : NULL,
  };
  const LmKCascadeLevel *last = &g->levels[g->n_levels - 1];
  kg.pixel_rows = last->first_row + (unsigned) last->height;
  kg.window_rows = last->first_window_row + (unsigned) last->rows;
  kg.columns = last->first_column + (unsigned) last->width + 1;
  unsigned first[PASSES_MAX], end[PASSES_MAX];
  gboolean wide[PASSES_MAX];
  /* The first kernel takes the windows through the first two stages (FIRST_STAGES). */
  unsigned fused = MIN (c->n_stages, FIRST_STAGES);
  guint n_passes = passes (c, fused, first, end, wide);
  /* For the parity test: a cell or a slot that a kernel leaves unwritten shows. */
  if (g_getenv ("LUMEN_DETECT_POISON")
      && (!CHECK (cudaMemsetAsync (w->levels, 0xFF, w->levels_size, self->stream), error)
          || !CHECK (cudaMemsetAsync (lists[0], 0xFF, capacity * sizeof (LmKCascadeWindow), self->stream), error)
          || !CHECK (cudaMemsetAsync (lists[1], 0xFF, capacity * sizeof (LmKCascadeWindow), self->stream), error)))
    return FALSE;
  /* With debug messages on, each step is waited for and timed. */
  gboolean profile = !g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN);
  gint64 t[4] = { g_get_monotonic_time () };
  if (!CHECK (cudaMemsetAsync (w->counts, 0, (n_passes + 1) * sizeof (unsigned), self->stream), error)
      || !CHECK (lm_k_cascade_levels (self->stream, gray, width, width, height, &kg), error)
      || (profile && !CHECK (cudaStreamSynchronize (self->stream), error)))
    return FALSE;
  t[1] = g_get_monotonic_time ();
  if (!CHECK (lm_k_cascade_first_stage (self->stream, *dc, &kg, fused, lists[0], capacity, &w->counts[0]), error)
      || (profile && !CHECK (cudaStreamSynchronize (self->stream), error)))
    return FALSE;
  t[2] = g_get_monotonic_time ();
  GString *steps = profile ? g_string_new (NULL) : NULL;
  for (guint p = 0; p < n_passes; p++)
    {
      gint64 p0 = g_get_monotonic_time ();
      LmKCascadeWindow *in = lists[p % 2], *out = lists[(p + 1) % 2];
      cudaError_t e = wide[p] ? lm_k_cascade_stages_wide (self->stream, *dc, &kg, rest[0], rest[1], in, &w->counts[p],
                                                          capacity, first[p], end[p], out, &w->counts[p + 1])
                              : lm_k_cascade_stages (self->stream, *dc, &kg, in, &w->counts[p], capacity, first[p],
                                                     end[p], out, &w->counts[p + 1]);
      if (!CHECK (e, error)
          || (profile && !CHECK (cudaStreamSynchronize (self->stream), error)))
        {
          if (steps)
            g_string_free (steps, TRUE);
          return FALSE;
        }
      if (steps)
        g_string_append_printf (steps, " [%u, %u)%s %.2f ms", first[p], end[p], wide[p] ? " wide" : "",
                                (g_get_monotonic_time () - p0) / 1e3);
    }
  unsigned counts[PASSES_MAX + 1];
  if (!CHECK (cudaMemcpyAsync (counts, w->counts, (n_passes + 1) * sizeof (unsigned), cudaMemcpyDeviceToHost,
                               self->stream),
              error)
      || !CHECK (cudaStreamSynchronize (self->stream), error))
    return FALSE;
  t[3] = g_get_monotonic_time ();
  if (profile)
    {
      for (guint p = 0; p <= n_passes; p++)
        g_string_append_printf (steps, "%s%u", p ? ", " : "; windows standing: ", counts[p]);
      g_debug ("object detection on the GPU: %d levels, %u pixel rows: levels %.2f ms, first stage %.2f ms, later "
               "stages %.2f ms:%s",
               g->n_levels, kg.pixel_rows, (t[1] - t[0]) / 1e3, (t[2] - t[1]) / 1e3, (t[3] - t[2]) / 1e3, steps->str);
      g_string_free (steps, TRUE);
    }
  *needed = 0;
  for (guint p = 0; p <= n_passes; p++)
    *needed = MAX (*needed, counts[p]);
  if (*needed > capacity)
    return TRUE;
  unsigned n = counts[n_passes];
  g_autofree LmKCascadeWindow *windows = g_new (LmKCascadeWindow, MAX (n, 1u));
  if (n && (!CHECK (cudaMemcpyAsync (windows, lists[n_passes % 2], n * sizeof (LmKCascadeWindow),
                                     cudaMemcpyDeviceToHost, self->stream),
                    error)
            || !CHECK (cudaStreamSynchronize (self->stream), error)))
    return FALSE;
  for (unsigned i = 0; i < n; i++)
    {
      Found f = { g->scale_index[LM_K_CASCADE_LEVEL (windows[i])], LM_K_CASCADE_Y (windows[i]),
                  LM_K_CASCADE_X (windows[i]) };
      g_array_append_val (found, f);
    }
  return TRUE;
}

/* The backend's buffers for groups of LEVEL_BYTES, lists of CAPACITY windows and the cascade
 * (CASCADE_BYTES) with LEVELS descriptors: kept where they are large enough, else both
 * released before either is made again, so that a small GPU never holds old and new at once. */
static gboolean
reserve (LmBackendCuda *self, size_t level_bytes, unsigned capacity, size_t cascade_bytes, int levels,
         GError **error)
{
  if (self->cascade == NULL)
    self->cascade = g_new0 (LmCudaCascade, 1);
  LmCudaCascade *w = self->cascade;
  size_t windows = 2 * ALIGN ((size_t) capacity * sizeof (LmKCascadeWindow)) + ALIGN (cascade_bytes)
                   + ALIGN ((size_t) levels * sizeof (LmKCascadeLevel));
  if (w->counts == NULL && !lm_cuda_malloc ((void **) &w->counts, (PASSES_MAX + 1) * sizeof (unsigned), error))
    return FALSE;
  if (level_bytes > w->levels_size || windows > w->windows_size)
    {
      if (!CHECK (cudaStreamSynchronize (self->stream), error)) /* kernels queued before may read them */
        return FALSE;
      lm_cuda_free (w->levels);
      lm_cuda_free (w->windows);
      *w = (LmCudaCascade) { .counts = w->counts };
    }
  return lm_cuda_grow_workspace (self, &w->levels, &w->levels_size, level_bytes, error)
         && lm_cuda_grow_workspace (self, &w->windows, &w->windows_size, windows, error);
}

/* Every group of the photo's levels, with lists of CAPACITY windows, its windows that pass
 * joining FOUND; where more windows stood than a list holds, *NEEDED says how many the
 * fullest group needed (TRUE: to be run again). GRAY is the photo on the device. */
static gboolean
run_groups (LmBackendCuda *self, const LmCascade *c, GArray *scales, const guint8 *gray, guint width, guint height,
            unsigned capacity, unsigned *needed, GArray *found, GCancellable *cancellable, GError **error)
{
  size_t lists = 2 * ALIGN ((size_t) capacity * sizeof (LmKCascadeWindow));
  /* Levels and integrals take 7 to 15 bytes a pixel of the photo: a large GPU holds them all
   * at once, a small one gets groups that fit beside what is already there (the buffers held
   * from the last photo are counted as free: they are given back first). */
  size_t held = self->cascade ? self->cascade->levels_size + self->cascade->windows_size : 0;
  size_t left = (lm_cuda_budget_left (self->device) + held) / 4 * 3;
  size_t budget = MIN (left > lists ? left - lists : 0, (size_t) 12 << 30);
  GArray *groups = make_groups (c, width, height, scales, budget, error);
  if (groups == NULL)
    return FALSE;
  size_t level_bytes = 0;
  int most_levels = 0;
  for (guint i = 0; i < groups->len; i++)
    {
      const Group *g = &g_array_index (groups, Group, i);
      level_bytes = MAX (level_bytes, ALIGN (g->gray_bytes) + g->cells * integrals_of (c) * sizeof (uint32_t));
      most_levels = MAX (most_levels, g->n_levels);
    }
  g_debug ("object detection on the GPU: %u levels in %u groups of at most %.0f MB, lists of %u windows",
           scales->len, groups->len, level_bytes / 1e6, capacity);
  LmCascade dc;
  double *rest[2] = { NULL, NULL };
  gboolean ok = groups->len == 0 || reserve (self, level_bytes, capacity, cascade_bytes (c), most_levels, error);
  guint8 *at = ok && groups->len ? self->cascade->windows : NULL;
  size_t list = ALIGN ((size_t) capacity * sizeof (LmKCascadeWindow));
  LmKCascadeWindow *pair[2] = { (LmKCascadeWindow *) at, (LmKCascadeWindow *) (at + list) };
  LmKCascadeLevel *device_levels = (LmKCascadeLevel *) (at + 2 * list);
  if (at)
    ok = upload_cascade (self, c, at + 2 * list + ALIGN ((size_t) most_levels * sizeof (LmKCascadeLevel)), &dc,
                         &rest[0], &rest[1], error);
  /* Where a group overflows, the others still run, so that the lists made again hold what the
   * fullest group needed (with longer lists the groups may come out smaller: fewer windows). */
  unsigned most = 0;
  gboolean overflow = FALSE;
  for (guint i = 0; ok && i < groups->len; i++)
    {
      unsigned group_needed = 0;
      ok = !g_cancellable_set_error_if_cancelled (cancellable, error)
           && run_group (self, &dc, (const double *const *) rest, c, &g_array_index (groups, Group, i), gray, width,
                         height, device_levels, pair, capacity, &group_needed, found, error);
      most = MAX (most, group_needed);
      overflow |= group_needed > capacity;
    }
  *needed = overflow ? most : 0;
  groups_free (groups);
  return ok;
}

GArray *
lm_cascade_candidates_cuda (LmBackend *backend, const LmCascade *c, const guint8 *gray, gsize stride, guint width,
                            guint height, const LmCascadeParams *params, GCancellable *cancellable, GError **error)
{
  LmBackendCuda *self = lm_cuda_self (backend);
  g_autoptr (GArray) scales = lm_cascade_scales (c, width, height, params, error);
  if (scales == NULL || !lm_cuda_use_device (self, error))
    return NULL;
  /* The first two stages let a fifth to a third of the windows through (opencv-data's models
   * on photos): lists that hold half of them where they take at most a third of the memory
   * left, else an eighth (at least a million); a photo that needs more is run again with
   * longer lists. */
  unsigned long long windows = all_windows (c, width, height, scales) / 2;
  size_t held = self->cascade ? self->cascade->levels_size + self->cascade->windows_size : 0;
  if (2 * windows * sizeof (LmKCascadeWindow) > (lm_cuda_budget_left (self->device) + held) / 3)
    windows /= 4;
  unsigned capacity = (unsigned) MIN (MAX (windows, 1ull << 20), (unsigned long long) G_MAXUINT32 / 2);
  g_autoptr (GArray) found = g_array_new (FALSE, FALSE, sizeof (Found));
  gint64 start = g_get_monotonic_time (), uploaded = start;
  guint8 *device_gray = NULL;
  gboolean ok = scales->len == 0;
  /* A packed photo goes up in one copy: from pageable memory a 2D copy may go a row at a time. */
  if (!ok && lm_cuda_malloc ((void **) &device_gray, (gsize) width * height, error)
      && CHECK (stride == width ? cudaMemcpyAsync (device_gray, gray, (gsize) width * height, cudaMemcpyHostToDevice,
                                                   self->stream)
                                : cudaMemcpy2DAsync (device_gray, width, gray, stride, width, height,
                                                     cudaMemcpyHostToDevice, self->stream),
                error))
    for (int attempt = 0; attempt < 4; attempt++)
      {
        if (attempt == 0 && !g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
          {
            ok = CHECK (cudaStreamSynchronize (self->stream), error);
            uploaded = g_get_monotonic_time ();
            if (!ok)
              break;
          }
        unsigned needed = 0;
        g_array_set_size (found, 0);
        ok = run_groups (self, c, scales, device_gray, width, height, capacity, &needed, found, cancellable, error);
        if (!ok || needed == 0)
          break;
        ok = FALSE;
        if (attempt == 3)
          g_set_error (error, LUMEN_ERROR, LM_ERROR_OUT_OF_MEMORY,
                       _("object detection on the GPU: more windows stood than its memory holds"));
        capacity = (unsigned) MIN (MAX ((guint64) needed, 2 * (guint64) capacity), (guint64) G_MAXUINT32 / 2);
      }
  lm_cuda_free (device_gray);
  if (!ok)
    return NULL;
  g_debug ("object detection on the GPU: %.2f ms in all (the photo up in %.2f ms), lists of %u windows",
           (g_get_monotonic_time () - start) / 1e3, (uploaded - start) / 1e3, capacity);
  g_array_sort (found, by_level_y_x);
  GArray *boxes = g_array_sized_new (FALSE, FALSE, sizeof (LmCascadeBox), found->len);
  for (guint i = 0; i < found->len; i++)
    {
      const Found *f = &g_array_index (found, Found, i);
      LmCascadeBox b = lm_cascade_window_box (c, g_array_index (scales, float, f->level), f->x, f->y);
      g_array_append_val (boxes, b);
    }
  return boxes;
}
