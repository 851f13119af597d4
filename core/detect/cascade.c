/* OpenCV's cascade files read with GMarkup: the format OpenCV 2.2 and later write
 * (<cascade>, stageType BOOST, featureType HAAR or LBP, stages of weak classifiers, then the
 * features), and the older Haar format some of opencv-data's files still use
 * (type_id="opencv-haar-classifier": trees of nodes that carry their own features), which
 * OpenCV converts to the first on load. Both end in the same LmCascade, checked whole. */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "cascade.h"
#include "core/error.h"
#include "core/io/file-read.h"

#define THRESHOLD_EPS 1e-5f /* OpenCV lowers every stage threshold by this (cascadedetect.cpp) */
#define MAX_NUMBERS   16    /* the most numbers one element holds: LBP's 3 + 8 internal nodes */

typedef struct {
  GString *path;   /* element names from the top node's children down: "stages/_/…" */
  GArray *ends;    /* the path's length before each element of it */
  int depth;       /* 0: outside <opencv_storage>; 1 inside it; 2 inside the top node */
  gboolean seen_top, old_format;
  GString *text;

  char *stage_type, *feature_type;
  int width, height, stage_num, max_depth, max_cat;

  GArray *stages, *stumps, *subsets, *haar, *lbp;
  int stage_weak_count; /* the stage's declared count, -1 when absent */
  gboolean stage_threshold_set;
  float stage_threshold;
  guint stage_first;

  /* the weak classifier or node being read */
  double nodes[MAX_NUMBERS];
  int n_nodes; /* -1: not given */
  double leaves[MAX_NUMBERS];
  int n_leaves;
  int tree_nodes; /* old format: nodes in this tree */
  gboolean deeper; /* old format: a node with a child node */
  gboolean have_threshold, have_left, have_right;
  double node_threshold, node_left, node_right;

  LmHaarFeature feature;
  LmLbpFeature lbp_rect;
  gboolean lbp_rect_seen;
} Parse;

static void
parse_clear (Parse *p)
{
  g_string_free (p->path, TRUE);
  g_array_unref (p->ends);
  g_string_free (p->text, TRUE);
  g_free (p->stage_type);
  g_free (p->feature_type);
  g_array_unref (p->stages);
  g_array_unref (p->stumps);
  g_array_unref (p->subsets);
  g_array_unref (p->haar);
  g_array_unref (p->lbp);
}

static gboolean
fail (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
fail (GError **error, const char *format, ...)
{
  va_list args;
  va_start (args, format);
  g_autofree char *message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error_literal (error, LUMEN_ERROR, LM_ERROR_FORMAT, message);
  return FALSE;
}

/* TEXT as up to MAX numbers, each finite. */
static gboolean
read_numbers (const char *what, const char *text, double *out, int max, int *n, GError **error)
{
  const char *s = text;
  *n = 0;
  for (;;)
    {
      while (g_ascii_isspace (*s))
        s++;
      if (*s == '\0')
        return TRUE;
      if (*n == max)
        return fail (error, _("more numbers than expected in <%s>"), what);
      char *end;
      errno = 0;
      double v = g_ascii_strtod (s, &end);
      if (end == s || (*end != '\0' && !g_ascii_isspace (*end)))
        return fail (error, _("<%s> holds “%.20s”, not a number"), what, s);
      if (!isfinite (v) || errno == ERANGE)
        return fail (error, _("<%s> holds a number that is not finite"), what);
      out[(*n)++] = v;
      s = end;
    }
}

static gboolean
read_one (const char *what, const char *text, double *value, GError **error)
{
  int n;
  if (!read_numbers (what, text, value, 1, &n, error))
    return FALSE;
  return n == 1 || fail (error, _("<%s> holds no number"), what);
}

/* An integer as OpenCV reads one, within [lo, hi]. */
static gboolean
as_int (const char *what, double v, int lo, int hi, int *out, GError **error)
{
  if (v != floor (v) || v < lo || v > hi)
    return fail (error, _("<%s> holds %g, not an integer from %d to %d"), what, v, lo, hi);
  *out = (int) v;
  return TRUE;
}

static gboolean
read_int (const char *what, const char *text, int lo, int hi, int *out, GError **error)
{
  double v;
  return read_one (what, text, &v, error) && as_int (what, v, lo, hi, out, error);
}

static void
start_stage (Parse *p)
{
  p->stage_weak_count = -1;
  p->stage_threshold_set = FALSE;
  p->stage_first = p->stumps->len;
}

static gboolean
end_stage (Parse *p, GError **error)
{
  guint n = p->stumps->len - p->stage_first;
  if (!p->stage_threshold_set)
    return fail (error, _("stage %u has no threshold"), p->stages->len);
  if (n == 0)
    return fail (error, _("stage %u has no weak classifiers"), p->stages->len);
  if (p->stage_weak_count >= 0 && (guint) p->stage_weak_count != n)
    return fail (error, _("stage %u declares %d weak classifiers but holds %u"), p->stages->len,
                 p->stage_weak_count, n);
  LmCascadeStage stage = { p->stage_first, n, p->stage_threshold };
  g_array_append_val (p->stages, stage);
  return TRUE;
}

static void
start_weak (Parse *p)
{
  p->n_nodes = p->n_leaves = -1;
}

/* A weak classifier of the new format: "left right feature threshold" (Haar) or "left right
 * feature" and 8 subset words (LBP), then two leaves. Only stumps: OpenCV reads the nodes of
 * deeper trees differently, which Lumen does not evaluate. */
static gboolean
end_weak (Parse *p, GError **error)
{
  gboolean lbp = p->max_cat > 0;
  int step = lbp ? 3 + LM_CASCADE_LBP_WORDS : 4;
  if (p->n_nodes < 0 || p->n_leaves < 0)
    return fail (error, _("a weak classifier of stage %u lacks <internalNodes> or <leafValues>"),
                 p->stages->len);
  if (p->n_nodes > step || p->n_leaves > 2)
    return fail (error, _("stage %u has a tree deeper than one split; only stump cascades are supported"),
                 p->stages->len);
  if (p->n_nodes != step || p->n_leaves != 2)
    return fail (error, _("a weak classifier of stage %u holds %d internal node values and %d leaves, not %d and 2"),
                 p->stages->len, p->n_nodes, p->n_leaves, step);
  int left, right;
  LmCascadeStump stump = { 0 };
  if (!as_int ("internalNodes", p->nodes[0], 0, 0, &left, error)
      || !as_int ("internalNodes", p->nodes[1], -1, -1, &right, error)
      || !as_int ("internalNodes", p->nodes[2], 0, G_MAXINT32, &stump.feature, error))
    return FALSE;
  stump.threshold = lbp ? 0.0f : (float) p->nodes[3];
  stump.left = (float) p->leaves[0];
  stump.right = (float) p->leaves[1];
  if (!isfinite (stump.threshold) || !isfinite (stump.left) || !isfinite (stump.right))
    return fail (error, _("stage %u holds a value beyond float's range"), p->stages->len);
  for (int k = 0; lbp && k < LM_CASCADE_LBP_WORDS; k++)
    {
      int word;
      if (!as_int ("internalNodes", p->nodes[3 + k], G_MININT32, G_MAXINT32, &word, error))
        return FALSE;
      guint32 bits = (guint32) word;
      g_array_append_val (p->subsets, bits);
    }
  g_array_append_val (p->stumps, stump);
  return TRUE;
}

static void
start_feature (Parse *p)
{
  memset (&p->feature, 0, sizeof p->feature);
  p->lbp_rect_seen = FALSE;
}

static gboolean
add_rect (Parse *p, const char *text, GError **error)
{
  double v[MAX_NUMBERS];
  int n;
  if (!read_numbers ("rects", text, v, 5, &n, error))
    return FALSE;
  if (n != 5)
    return fail (error, _("a rectangle of feature %u has %d numbers, not 5"), p->haar->len, n);
  if (p->feature.n_rects == LM_CASCADE_HAAR_RECTS)
    return fail (error, _("feature %u has more than %d rectangles"), p->haar->len, LM_CASCADE_HAAR_RECTS);
  LmHaarRect *r = &p->feature.rect[p->feature.n_rects];
  if (!as_int ("rects", v[0], 0, LM_CASCADE_MAX_WINDOW, &r->x, error)
      || !as_int ("rects", v[1], 0, LM_CASCADE_MAX_WINDOW, &r->y, error)
      || !as_int ("rects", v[2], 1, LM_CASCADE_MAX_WINDOW, &r->width, error)
      || !as_int ("rects", v[3], 1, LM_CASCADE_MAX_WINDOW, &r->height, error))
    return FALSE;
  r->weight = (float) v[4];
  if (!isfinite (r->weight) || r->weight == 0.0f)
    return fail (error, _("a rectangle of feature %u has the weight %g"), p->haar->len, v[4]);
  p->feature.n_rects++;
  return TRUE;
}

static gboolean
end_haar_feature (Parse *p, GError **error)
{
  if (p->feature.n_rects == 0)
    return fail (error, _("feature %u has no rectangles"), p->haar->len);
  g_array_append_val (p->haar, p->feature);
  return TRUE;
}

static gboolean
set_lbp_rect (Parse *p, const char *text, GError **error)
{
  double v[MAX_NUMBERS];
  int n;
  if (!read_numbers ("rect", text, v, 4, &n, error))
    return FALSE;
  if (n != 4)
    return fail (error, _("the rectangle of feature %u has %d numbers, not 4"), p->lbp->len, n);
  LmLbpFeature *r = &p->lbp_rect;
  if (!as_int ("rect", v[0], 0, LM_CASCADE_MAX_WINDOW, &r->x, error)
      || !as_int ("rect", v[1], 0, LM_CASCADE_MAX_WINDOW, &r->y, error)
      || !as_int ("rect", v[2], 1, LM_CASCADE_MAX_WINDOW, &r->width, error)
      || !as_int ("rect", v[3], 1, LM_CASCADE_MAX_WINDOW, &r->height, error))
    return FALSE;
  p->lbp_rect_seen = TRUE;
  return TRUE;
}

/* Old format: a node holds its feature, its threshold and two leaves (a stump) or child
 * nodes (a deeper tree). */
static void
start_node (Parse *p)
{
  p->have_threshold = p->have_left = p->have_right = FALSE;
  start_feature (p);
}

static gboolean
end_node (Parse *p, GError **error)
{
  if (p->deeper || ++p->tree_nodes > 1)
    return fail (error, _("stage %u has a tree deeper than one split; only stump cascades are supported"),
                 p->stages->len);
  if (!p->have_threshold || !p->have_left || !p->have_right || p->feature.n_rects == 0)
    return fail (error, _("a node of stage %u lacks its feature, threshold or leaf values"), p->stages->len);
  LmCascadeStump stump = { (int) p->haar->len, (float) p->node_threshold, (float) p->node_left,
                           (float) p->node_right };
  if (!isfinite (stump.threshold) || !isfinite (stump.left) || !isfinite (stump.right))
    return fail (error, _("stage %u holds a value beyond float's range"), p->stages->len);
  g_array_append_val (p->haar, p->feature);
  g_array_append_val (p->stumps, stump);
  return TRUE;
}

static gboolean
is (const char *path, const char *want)
{
  return strcmp (path, want) == 0;
}

static void
on_start (GMarkupParseContext *context, const char *element, const char **names, const char **values,
          gpointer data, GError **error)
{
  Parse *p = data;
  (void) context;
  g_string_truncate (p->text, 0);
  if (p->depth == 0)
    {
      p->depth = 1;
      if (!is (element, "opencv_storage"))
        fail (error, _("not an OpenCV file (its root is <%s>)"), element);
      return;
    }
  if (p->depth == 1)
    {
      if (p->seen_top)
        {
          fail (error, _("more than one model in the file"));
          return;
        }
      p->seen_top = TRUE;
      p->depth = 2;
      for (guint i = 0; names[i]; i++)
        if (is (names[i], "type_id") && is (values[i], "opencv-haar-classifier"))
          p->old_format = TRUE;
      return;
    }
  if (p->ends->len == 12)
    {
      fail (error, _("elements nested deeper than a cascade's"));
      return;
    }
  guint end = (guint) p->path->len;
  g_array_append_val (p->ends, end);
  g_string_append_printf (p->path, "%s%s", end ? "/" : "", element);
  const char *path = p->path->str;
  if (p->old_format)
    {
      if (is (path, "stages/_"))
        start_stage (p);
      else if (is (path, "stages/_/trees/_"))
        p->tree_nodes = 0, p->deeper = FALSE;
      else if (is (path, "stages/_/trees/_/_"))
        start_node (p);
      else if (is (path, "stages/_/trees/_/_/left_node") || is (path, "stages/_/trees/_/_/right_node"))
        p->deeper = TRUE;
      return;
    }
  if (is (path, "stages/_"))
    start_stage (p);
  else if (is (path, "stages/_/weakClassifiers/_"))
    start_weak (p);
  else if (is (path, "features/_"))
    start_feature (p);
}

static gboolean
end_old (Parse *p, const char *path, const char *text, GError **error)
{
  if (is (path, "size"))
    {
      double v[MAX_NUMBERS];
      int n;
      if (!read_numbers ("size", text, v, 2, &n, error))
        return FALSE;
      if (n != 2)
        return fail (error, _("<size> holds %d numbers, not 2"), n);
      g_free (p->stage_type), g_free (p->feature_type);
      p->stage_type = g_strdup ("BOOST"), p->feature_type = g_strdup ("HAAR");
      p->max_cat = 0;
      return as_int ("size", v[0], 1, LM_CASCADE_MAX_WINDOW, &p->width, error)
             && as_int ("size", v[1], 1, LM_CASCADE_MAX_WINDOW, &p->height, error);
    }
  if (is (path, "stages/_"))
    return end_stage (p, error);
  if (is (path, "stages/_/stage_threshold"))
    {
      double v;
      if (!read_one ("stage_threshold", text, &v, error))
        return FALSE;
      p->stage_threshold = (float) v - THRESHOLD_EPS;
      p->stage_threshold_set = TRUE;
      return isfinite (p->stage_threshold) || fail (error, _("stage %u's threshold is beyond float's range"), p->stages->len);
    }
  if (is (path, "stages/_/trees/_"))
    return p->tree_nodes == 1 || fail (error, _("a tree of stage %u has no node"), p->stages->len);
  if (is (path, "stages/_/trees/_/_"))
    return end_node (p, error);
  if (is (path, "stages/_/trees/_/_/feature/rects/_"))
    return add_rect (p, text, error);
  if (is (path, "stages/_/trees/_/_/feature/tilted"))
    {
      int t;
      if (!read_int ("tilted", text, 0, 1, &t, error))
        return FALSE;
      p->feature.tilted = t;
      return TRUE;
    }
  if (is (path, "stages/_/trees/_/_/threshold"))
    return (p->have_threshold = read_one ("threshold", text, &p->node_threshold, error));
  if (is (path, "stages/_/trees/_/_/left_val"))
    return (p->have_left = read_one ("left_val", text, &p->node_left, error));
  if (is (path, "stages/_/trees/_/_/right_val"))
    return (p->have_right = read_one ("right_val", text, &p->node_right, error));
  return TRUE;
}

static gboolean
end_new (Parse *p, const char *path, const char *text, GError **error)
{
  if (is (path, "stageType") || is (path, "featureType"))
    {
      char **slot = is (path, "stageType") ? &p->stage_type : &p->feature_type;
      g_free (*slot);
      *slot = g_strstrip (g_strdup (text));
      return TRUE;
    }
  if (is (path, "width"))
    return read_int ("width", text, 1, LM_CASCADE_MAX_WINDOW, &p->width, error);
  if (is (path, "height"))
    return read_int ("height", text, 1, LM_CASCADE_MAX_WINDOW, &p->height, error);
  if (is (path, "stageNum"))
    return read_int ("stageNum", text, 0, G_MAXINT32, &p->stage_num, error);
  if (is (path, "stageParams/maxDepth"))
    return read_int ("maxDepth", text, 0, G_MAXINT32, &p->max_depth, error);
  if (is (path, "featureParams/maxCatCount"))
    {
      if (!read_int ("maxCatCount", text, 0, G_MAXINT32, &p->max_cat, error))
        return FALSE;
      /* Haar's ordered features, or the 256 codes of LBP: what opencv-data ships. */
      return p->max_cat == 0 || p->max_cat == 256
             || fail (error, _("<maxCatCount> is %d; only 0 (Haar) and 256 (LBP) are supported"), p->max_cat);
    }
  if (is (path, "stages/_"))
    return end_stage (p, error);
  if (is (path, "stages/_/maxWeakCount"))
    return read_int ("maxWeakCount", text, 0, G_MAXINT32, &p->stage_weak_count, error);
  if (is (path, "stages/_/stageThreshold"))
    {
      double v;
      if (!read_one ("stageThreshold", text, &v, error))
        return FALSE;
      p->stage_threshold = (float) v - THRESHOLD_EPS;
      p->stage_threshold_set = TRUE;
      return isfinite (p->stage_threshold) || fail (error, _("stage %u's threshold is beyond float's range"), p->stages->len);
    }
  if (is (path, "stages/_/weakClassifiers/_") && p->max_cat < 0)
    return fail (error, _("the stages come before <featureParams>"));
  if (is (path, "stages/_/weakClassifiers/_"))
    return end_weak (p, error);
  if (is (path, "stages/_/weakClassifiers/_/internalNodes"))
    return read_numbers ("internalNodes", text, p->nodes, MAX_NUMBERS, &p->n_nodes, error);
  if (is (path, "stages/_/weakClassifiers/_/leafValues"))
    return read_numbers ("leafValues", text, p->leaves, MAX_NUMBERS, &p->n_leaves, error);
  if (is (path, "features/_/rects/_"))
    return add_rect (p, text, error);
  if (is (path, "features/_/tilted"))
    {
      int t;
      if (!read_int ("tilted", text, 0, 1, &t, error))
        return FALSE;
      p->feature.tilted = t;
      return TRUE;
    }
  if (is (path, "features/_/rect"))
    return set_lbp_rect (p, text, error);
  if (is (path, "features/_"))
    {
      if (p->lbp_rect_seen)
        {
          g_array_append_val (p->lbp, p->lbp_rect);
          return TRUE;
        }
      return end_haar_feature (p, error);
    }
  return TRUE;
}

static void
on_end (GMarkupParseContext *context, const char *element, gpointer data, GError **error)
{
  Parse *p = data;
  (void) context, (void) element;
  if (p->ends->len == 0)
    {
      p->depth--;
      return;
    }
  const char *path = p->path->str;
  if (p->old_format)
    end_old (p, path, p->text->str, error);
  else
    end_new (p, path, p->text->str, error);
  g_string_truncate (p->path, g_array_index (p->ends, guint, p->ends->len - 1));
  g_array_set_size (p->ends, p->ends->len - 1);
  g_string_truncate (p->text, 0);
}

static void
on_text (GMarkupParseContext *context, const char *text, gsize length, gpointer data, GError **error)
{
  Parse *p = data;
  (void) context, (void) error;
  if (p->ends->len > 0)
    g_string_append_len (p->text, text, (gssize) length);
}

/* Every rectangle inside the window, as OpenCV's offsets assume (they are not checked when
 * the window is evaluated). */
static gboolean
check_features (LmCascade *c, GError **error)
{
  int W = c->window_width, H = c->window_height;
  for (guint i = 0; i < c->n_features; i++)
    {
      if (c->kind == LM_CASCADE_LBP)
        {
          const LmLbpFeature *f = &c->lbp[i];
          if (f->x + 3 * f->width > W || f->y + 3 * f->height > H)
            return fail (error, _("feature %u reaches outside the %d × %d window"), i, W, H);
          continue;
        }
      const LmHaarFeature *f = &c->haar[i];
      for (int k = 0; k < f->n_rects; k++)
        {
          const LmHaarRect *r = &f->rect[k];
          gboolean inside = f->tilted ? r->x - r->height >= 0 && r->x + r->width <= W
                                          && r->y + r->width + r->height <= H
                                      : r->x + r->width <= W && r->y + r->height <= H;
          if (!inside)
            return fail (error, _("feature %u reaches outside the %d × %d window"), i, W, H);
        }
      c->has_tilted |= f->tilted;
    }
  return TRUE;
}

static LmCascade *
build (Parse *p, GError **error)
{
  if (!p->seen_top)
    return fail (error, _("no model in the file")), NULL;
  if (p->stage_type == NULL)
    return fail (error, _("no stageType: not a boosted cascade")), NULL;
  if (!is (p->stage_type, "BOOST"))
    return fail (error, _("not a boosted cascade (stageType %s)"), p->stage_type), NULL;
  if (p->feature_type == NULL)
    return fail (error, _("no featureType (HAAR or LBP)")), NULL;
  if (!is (p->feature_type, "HAAR") && !is (p->feature_type, "LBP"))
    return fail (error, _("feature type %s is not supported (HAAR and LBP are)"), p->feature_type), NULL;
  gboolean lbp = is (p->feature_type, "LBP");
  if (p->max_cat != (lbp ? 256 : 0))
    return fail (error, _("<maxCatCount> does not fit feature type %s"), p->feature_type), NULL;
  if (p->width < 3 || p->height < 3)
    return fail (error, _("the window is missing or smaller than 3 × 3")), NULL;
  if (p->max_depth >= 0 && p->max_depth != 1)
    return fail (error, _("trees of depth %d; only stump cascades (depth 1) are supported"), p->max_depth), NULL;
  if (p->stages->len == 0)
    return fail (error, _("no stages")), NULL;
  if (p->stage_num >= 0 && (guint) p->stage_num != p->stages->len)
    return fail (error, _("<stageNum> says %d stages but the file holds %u"), p->stage_num, p->stages->len), NULL;
  GArray *features = lbp ? p->lbp : p->haar;
  if ((lbp ? p->haar : p->lbp)->len > 0)
    return fail (error, _("features of another type than %s"), p->feature_type), NULL;
  if (features->len == 0)
    return fail (error, _("no features")), NULL;
  for (guint i = 0; i < p->stumps->len; i++)
    if ((guint) g_array_index (p->stumps, LmCascadeStump, i).feature >= features->len)
      return fail (error, _("a weak classifier uses feature %d of %u"),
                   g_array_index (p->stumps, LmCascadeStump, i).feature, features->len), NULL;

  LmCascade *c = g_new0 (LmCascade, 1);
  c->kind = lbp ? LM_CASCADE_LBP : LM_CASCADE_HAAR;
  c->window_width = p->width;
  c->window_height = p->height;
  c->n_stages = p->stages->len;
  c->n_stumps = p->stumps->len;
  c->n_features = features->len;
  c->stages = g_memdup2 (p->stages->data, p->stages->len * sizeof (LmCascadeStage));
  c->stumps = g_memdup2 (p->stumps->data, p->stumps->len * sizeof (LmCascadeStump));
  if (lbp)
    {
      c->subsets = g_memdup2 (p->subsets->data, p->subsets->len * sizeof (guint32));
      c->lbp = g_memdup2 (features->data, features->len * sizeof (LmLbpFeature));
    }
  else
    c->haar = g_memdup2 (features->data, features->len * sizeof (LmHaarFeature));
  if (!check_features (c, error))
    {
      lm_cascade_free (c);
      return NULL;
    }
  return c;
}

LmCascade *
lm_cascade_parse (const char *name, const char *text, gsize length, GError **error)
{
  g_return_val_if_fail (name != NULL && (text != NULL || length == 0), NULL);
  Parse p = {
    .path = g_string_new (NULL),
    .ends = g_array_new (FALSE, FALSE, sizeof (guint)),
    .text = g_string_new (NULL),
    .width = -1, .height = -1, .stage_num = -1, .max_depth = -1, .max_cat = -1,
    .stages = g_array_new (FALSE, FALSE, sizeof (LmCascadeStage)),
    .stumps = g_array_new (FALSE, FALSE, sizeof (LmCascadeStump)),
    .subsets = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .haar = g_array_new (FALSE, FALSE, sizeof (LmHaarFeature)),
    .lbp = g_array_new (FALSE, FALSE, sizeof (LmLbpFeature)),
  };
  static const GMarkupParser parser = { on_start, on_end, on_text, NULL, NULL };
  GMarkupParseContext *context = g_markup_parse_context_new (&parser, 0, &p, NULL);
  GError *local = NULL;
  LmCascade *cascade = NULL;
  if (length == 0)
    fail (&local, _("empty file"));
  else if (g_markup_parse_context_parse (context, text, (gssize) length, &local)
           && g_markup_parse_context_end_parse (context, &local))
    cascade = build (&p, &local);
  g_markup_parse_context_free (context);
  parse_clear (&p);
  if (cascade == NULL)
    {
      /* GMarkup's own messages ("Error on line 3 char 1: …") may carry a newline. */
      g_autofree char *line = g_strdelimit (g_utf8_make_valid (local->message, -1), "\r\n", ' ');
      if (g_utf8_strlen (line, -1) > 300)
        *g_utf8_offset_to_pointer (line, 300) = '\0';
      lm_set_file_error (error, LM_ERROR_FORMAT, name, _("not a usable cascade: %s"), line);
      g_error_free (local);
    }
  return cascade;
}

LmCascade *
lm_cascade_load (const char *path, GError **error)
{
  g_autoptr (GBytes) bytes = lm_file_read (path, LM_FILE_KIND_TEXT, LM_CASCADE_MAX_FILE, error);
  if (bytes == NULL)
    return NULL;
  gsize length;
  const char *text = g_bytes_get_data (bytes, &length);
  return lm_cascade_parse (path, text, length, error);
}

void
lm_cascade_free (LmCascade *cascade)
{
  if (cascade == NULL)
    return;
  g_free (cascade->stages);
  g_free (cascade->stumps);
  g_free (cascade->subsets);
  g_free (cascade->haar);
  g_free (cascade->lbp);
  g_free (cascade);
}
