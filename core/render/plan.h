/* A pipeline's instances as the steps a render runs, in order: one planner for the render
 * cache (cache.c) and the tiled render (tiled.c), so that the two cannot disagree on what is
 * fused and what runs where. */
#pragma once

#include <glib.h>

#include "../edit/pipeline.h"
#include "../ops/point.h"

G_BEGIN_DECLS

typedef enum {
  LM_PLAN_RAW,        /* a raw's development */
  LM_PLAN_SCENE_GAIN, /* the enabled scene gains (exposure, white balance) folded into one */
  LM_PLAN_TONEMAP,    /* the display transform */
  LM_PLAN_OP,         /* one instance */
  LM_PLAN_POINTS,     /* a run of point instances as one fused pass */
} LmPlanKind;

/* The cache keys of the steps that are no instance: above any instance's id. */
#define LM_PLAN_KEY_RAW LM_INSTANCE_ID_END
#define LM_PLAN_KEY_SCENE_GAIN (LM_INSTANCE_ID_END + 1)
#define LM_PLAN_KEY_TONEMAP (LM_INSTANCE_ID_END + 2)

typedef struct {
  LmPlanKind kind;
  gboolean scene;    /* on scene light: before the display transform */
  guint32 key;       /* the instance's id (a pass's first one's), or LM_PLAN_KEY_* */
  LmStage stage;     /* RAW, TONEMAP, OP: what runs */
  LmPointPass pass;  /* POINTS */
  float gain[3];     /* SCENE_GAIN */
  char label[128];   /* the names of what it runs, joined by "+" */
  /* A masked instance runs alone (an OP, a pass of one, or a gain of one): its result is
   * blended with its input through the mask. INDEX: the instance's place in the pipeline, for
   * its mask's frame; MASK: a copy, so that a cached result knows what it was made with. */
  gboolean masked;
  guint index;
  LmMask mask;
} LmPlanStep;

/* Steps a plan holds at most: a raw's three, and each instance once. */
#define LM_PLAN_MAX (3 + LM_PIPELINE_MAX)

typedef struct {
  guint n;
  LmPlanStep steps[LM_PLAN_MAX];
} LmPlan;

/* PIPELINE's steps (only what runs: enabled instances, passes with something in them) for a
 * source that is SCENE light (a raw when RAW, else a radiance map) or not. A run of point
 * instances is one pass until an instance that the pass cannot take after what it holds: a
 * POINT_COLOR operation already in it (a pass has one pixel part per operation), a channel
 * part after a pixel part (point-math.h), LM_POINT_RECIPE_MAX of them, or a masked instance.
 * On scene light the unmasked gains fold into one step first; a masked gain runs at its place
 * in the list. A masked instance of an operation that changes the image's size (geometry, the
 * export's resize) is refused. g_free the result. */
LmPlan *lm_render_plan (const LmPipeline *pipeline, gboolean scene, gboolean raw, GError **error);

/* The format and size of STEP's output from an input of that format, size and opacity. A
 * scene (a raw's, or a merge of raws') is tone mapped into 16 bits where DEEP_DISPLAY says
 * so. One answer for the render cache's buffers and for what a run will need of them. */
void lm_plan_step_output (const LmPlanStep *step, gboolean deep_display, LmFormat format, guint width,
                          guint height, gboolean opaque, LmFormat *out_format, guint *out_width,
                          guint *out_height);

G_END_DECLS
